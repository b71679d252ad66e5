"""Which files beyond the index's first pass can matter, and so get parsed in full.

The index has parsed every file that may define a guarded or named collection and read
every registration. More passes widen that, from byte signals alone: files quoting a
registered name (any name-shaped string while nothing is registered) or a piece of one
(`arch.startswith("Llama")`, `PREFIX = "Qwen3_5"`), then, until nothing changes, files whose
imports reach a collection, constant or predicate defined in a parsed file that can carry a name
onward (not a type alias, not a list of prompts), or a module that defines or imports one
(`extract/bindings.py`: a module sees another's names only through its imports).
Anything else is extracted on demand when resolution reaches it, so this policy decides
speed, never results (`--no-prefilter` parses everything; the tests compare).
"""
from __future__ import annotations

import dataclasses
import re
from typing import AbstractSet, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from ..config import matches_pattern
from ..extract.bindings import Reachers, Targets
from ..extract.facts import (
    CollectionFact,
    FileFacts,
    Literal,
    Part,
    Pattern,
    PatternRef,
    PredicateFact,
    Ref,
    names_a_piece,
    piece_at_a_word,
    starts_a_word,
)
from ..extract.spelling import names_test
from ..project.index import ProjectIndex
from ..project.prefilter import Signals
from .memory import ResolveMemory
from .memory_choice import Choice, PathsRead, Read, replay
from .references import Resolver
from .served import is_not_served

_PIECE = re.compile(r"[A-Za-z][\w.\-]*")  # a constant that may be a name pattern (`"Qwen3"`, `"VL"`)


def choose_files(index: ProjectIndex, memory: Optional[ResolveMemory] = None,
                 universe: Optional[FrozenSet[str]] = None) -> Optional[ResolveMemory]:
    """Choose the files that may matter. `memory`: what the last run left (its choice is replayed while its
    inputs hold); given one, the memory with this run's choice is returned, for the next run. `universe`: the
    names that choose files (`choice_universe`; by default what the index sees registered)."""
    if universe is None:
        universe = choice_universe(index)
    chosen = {module for module, _ in index.signals() if index.is_candidate(module)}
    initial = frozenset(chosen)
    if memory is not None and not index.config.qualified_registries:
        again = replay(memory.choice, index, universe, initial)
        if again is not None:
            index.reachers = again.reachers
            return dataclasses.replace(memory, choice=again)
    tests_a_piece = _PieceTest(universe)
    batches: List[Tuple[str, ...]] = []
    reads: List[Read] = []

    def choose(modules: List[str], every: bool = False) -> List[Optional[FileFacts]]:
        """Choose `modules`; the facts of those (`every`: of every module chosen so far), as read."""
        index.choose(modules)
        chosen.update(modules)
        batches.append(tuple(modules))
        read = [module for module, _ in index.signals() if module in chosen] if every else modules
        reads.append(tuple((module, index.facts_of(module)) for module in read))
        return [facts for _, facts in reads[-1]]

    served = {module for module, _ in index.signals() if not is_not_served(index.path_of(module))}
    first = choose([module for module, signals in index.signals() if module in served
                    and ((signals.quoted and (signals.quoted & universe if universe else True))
                         or tests_a_piece(signals.shape_tests))], every=True)
    # Until nothing changes: files whose imports reach what a chosen file defines or imports (a
    # module sees another's names only through its imports: `extract/bindings.py`). A constant
    # module, a tuple of its constants in a second, the test in a third: all chosen.
    carried = _Carried(names_test(index.config.name_regex))
    names, carriers = carried.add(first)
    # a model class defined with a registered name: a list of such classes holds their names (`models =
    # [LlavaQwenForCausalLM]`), and the files that import one to list it are chosen (`_lists_classes`)
    carried.classes(frozenset().union(*(signals.classes for module, signals in index.signals()
                                        if module in served)) & universe)
    listing = [module for module, signals in index.signals()
               if module in served and module not in chosen and _lists_classes(signals, universe)]
    if listing:
        more, also = carried.add(choose(listing))
        names, carriers = names | more, carriers | also
    # Each pass asks only about what the last one added: a file reaching something older was chosen then.
    # the project's top packages, and the next level down (`src.pkg` is imported as `pkg`)
    tops = frozenset(part for module, _ in index.signals() for part in module.split(".")[:2])
    paths_read: List[PathsRead] = []

    def paths_of(module: str) -> Callable[[str], FrozenSet[str]]:
        def paths(head: str) -> FrozenSet[str]:
            found = index.dotted_paths(module, head)
            paths_read.append((module, head, found))
            return found
        return paths

    importing = [(module, signals.imports, index.package(module)) for module, signals in index.signals()
                 if signals.imports and module not in chosen and module in served]
    waiting = [module for module, _, _ in importing]
    reachers = Reachers.of(importing, tops, paths_of)
    index.reachers = reachers  # who reads a subject asks it too (`consumers.py`)
    while names or carriers:
        reached = reachers.reaching(Targets.of(names, carriers)) - chosen
        wanted = [module for module in waiting if module in reached]  # in the index's order
        if not wanted:
            break
        names, carriers = carried.add(choose(wanted))
    if memory is None:
        return None
    every = list(index.signals())
    return dataclasses.replace(memory, choice=Choice(index.config, tuple(m for m, _ in every),
                                                     tuple(s for _, s in every), universe, initial, tuple(batches),
                                                     tuple(reads), tuple(paths_read), reachers))


def _lists_classes(signals: Signals, universe: AbstractSet[str]) -> bool:
    """May a file list model classes: does it import a class defined with a registered name, and define none? A
    model file imports another's class to build its own models (`class MistralForCausalLM(LlamaForCausalLM)`,
    `self.language_model = Qwen2ForCausalLM(...)`, a mixin); a processor, a runner or a loader to name the models
    it handles."""
    return signals.classes.isdisjoint(universe) and not signals.imported.isdisjoint(universe)


class _PieceTest:
    """Does a file test a value against a piece of a registered name (`startswith("Llama")`)?

    Such a predicate is a family of the names it matches, though it quotes none of them.
    Every prefix, suffix or substring of a name is a substring of it: one search in all the
    names, a newline apart (which begins a word), per distinct string, where a word begins (as
    `Pattern.matches`). Most strings are no piece: their first two characters begin no word of any
    name, which a set says without searching (`starts`).
    A "\\" is a string the bytes could not spell.
    """

    def __init__(self, universe: AbstractSet[str]) -> None:
        self.names = "\n".join(sorted(universe))
        self.starts = frozenset(self.names[at:at + 2] for at in range(len(self.names))
                                if starts_a_word(self.names, at))
        self.known: Dict[str, bool] = {}

    def __call__(self, texts: AbstractSet[str]) -> bool:
        if not self.names:
            return False
        for text in texts:
            found = self.known.get(text)
            if found is None:
                found = self.known[text] = text == "\\" or (
                    names_a_piece(text) and text[:2] in self.starts and "\n" not in text
                    and piece_at_a_word(text, self.names))
            if found:
                return True
        return False


def choice_universe(index: ProjectIndex, hosted: AbstractSet[str] = frozenset()) -> FrozenSet[str]:
    """The names that choose files: what the files the index keeps register, as its policy reads them, the names of
    `path::NAME` registries, and `hosted` (the names the project's hosts register, which a plugin's lists hold:
    vllm-ascend's `"Eagle3DeepseekV2ForCausalLM" in model_configs["architectures"]`)."""
    return index.universe | _qualified_registry_names(index) | hosted


def _qualified_registry_names(index: ProjectIndex) -> FrozenSet[str]:
    """Names of `path::NAME` registries, so files quoting them are kept."""
    qualified = index.config.qualified_registries
    if not qualified:
        return frozenset()
    resolver = Resolver(index)
    return frozenset(
        occurrence.name
        for facts in index.facts for fact in facts.collections
        if matches_pattern(qualified, facts.path, fact.name)
        for occurrence in resolver.collection(facts, fact).members.members
    )


class _Carried:
    """Names defined in chosen files whose value can carry an architecture name onward, as files are chosen.

    A constant whose value is a name, or a pattern piece (no spaces); a model class defined with a registered
    name (`classes`); a collection that holds a
    name or refers to a name that carries one; a predicate that tests a name or a pattern, or
    tests or delegates to a name that carries one or that may lead out of the chosen files (see
    `_Closed`). Type aliases (`VllmConfig = Any`), prose (`prompts = ["Hello, my name is", ...]`)
    and predicates of other things (`get_bool_env_var`: `value in ("true", "1")`) carry
    nothing: a file importing or calling them has nothing to add. References are followed
    until nothing changes; what carries nothing yet waits for the files chosen next.
    """

    def __init__(self, name_ok: Callable[[str], object]) -> None:
        self.name_ok = name_ok
        self.found: Set[str] = set()
        self.collections: List[CollectionFact] = []
        self.predicates: List[PredicateFact] = []
        self.closed = _Closed()
        self.bound: Dict[str, Set[str]] = {}  # chosen module -> the names it defines or imports
        self.stars: Dict[str, Tuple[str, ...]] = {}  # chosen module -> the modules it star-imports
        self.carriers: Set[str] = set()  # chosen modules that bind a name that carries

    def add(self, chosen: Sequence[Optional[FileFacts]]) -> Tuple[FrozenSet[str], FrozenSet[str]]:
        """Take the facts of newly chosen files; the names that carry and the modules that bind one (define,
        import or star-import it), not known before."""
        before = frozenset(self.found)
        found, name_ok, closed = self.found, self.name_ok, self.closed
        for facts in chosen:
            if facts is None:
                continue  # chosen, but unreadable
            found.update(name for name, value, _ in facts.constants if name_ok(value) or _PIECE.fullmatch(value))
            self.collections += [c for c in facts.collections if c.name not in found]
            self.predicates += [p for p in facts.predicates if p.name not in found]
            closed.add(facts)
            self.bound.setdefault(facts.module, set()).update(
                [name for name, _, _ in facts.constants] + [c.name for c in facts.collections]
                + [p.name for p in facts.predicates] + [local for local, _, _ in facts.imports])
            self.stars[facts.module] = tuple(facts.star_imports)
        while True:
            carrying = [c.name for c in self.collections if c.name not in found
                        and any(_carries(part, found, name_ok) for part in c.parts)]
            carrying += [p.name for p in self.predicates
                         if p.name not in found and _predicate_carries(p, found, name_ok, closed)]
            if not carrying:
                break
            found.update(carrying)
        self.collections = [c for c in self.collections if c.name not in found]
        self.predicates = [p for p in self.predicates if p.name not in found]
        return frozenset(found - before), self._new_carriers()

    def classes(self, names: AbstractSet[str]) -> None:
        """Take the registered names model classes are defined with: a collection of them carries."""
        self.found.update(names)

    def _new_carriers(self) -> FrozenSet[str]:
        """Chosen modules that now bind a name that carries, or star-import a module that does."""
        before = frozenset(self.carriers)
        self.carriers.update(module for module, names in self.bound.items() if not names.isdisjoint(self.found))
        while True:
            more = {module for module, stars in self.stars.items()
                    if module not in self.carriers and not self.carriers.isdisjoint(stars)}
            if not more:
                break
            self.carriers |= more
        return frozenset(self.carriers - before)


def _predicate_carries(predicate: PredicateFact, found: AbstractSet[str], name_ok: Callable[[str], object],
                       closed: "_Closed") -> bool:
    return any(_carries(part, found, name_ok) or (isinstance(part, (Ref, PatternRef)) and closed.may_lead_out(
        part if isinstance(part, Ref) else part.ref)) for part in predicate.tests) \
        or any(ref.name in found or closed.may_lead_out(ref) for ref in predicate.delegates)


class _Closed:
    """What the chosen files define, to tell a predicate's reference that can lead nowhere else.

    A reference leads nowhere when a chosen file defines its name as a constant, collection or
    predicate (whether that carries is then known), or when it names what a chosen module does
    not define, import or take from a star import (a local variable, a builtin, a function that
    is no predicate). Anything else may lead to a file nothing chose, which may hold anything.
    """

    def __init__(self) -> None:
        self.defined: Set[str] = set()
        self.modules: Dict[str, Set[str]] = {}  # chosen module without star imports -> names it imports

    def add(self, facts: FileFacts) -> None:
        self.defined.update(name for name, _, _ in facts.constants)
        self.defined.update(c.name for c in facts.collections)
        self.defined.update(p.name for p in facts.predicates)
        if not facts.star_imports:
            self.modules.setdefault(facts.module, set()).update(local for local, _, _ in facts.imports)

    def may_lead_out(self, ref: Ref) -> bool:
        if ref.name in self.defined:
            return False
        imported = self.modules.get(ref.module)
        return imported is None or ref.name.partition(".")[0] in imported


def _carries(part: Part, found: AbstractSet[str], name_ok: Callable[[str], object]) -> bool:
    if isinstance(part, Literal):
        return any(name_ok(m.name) for m in part.members)
    if isinstance(part, Ref):
        return part.name in found
    if isinstance(part, PatternRef):
        return part.ref.name in found
    return isinstance(part, Pattern)
