"""Cross-module resolution: collections to exact name sets, predicates to families.

Each result is noted with the modules its resolution read, in the order it read them, and the
facts they gave (`Reads`): a long-lived caller keeps the results of one run for the next
(`memory_resolutions.py`), which takes one as it is while every module it read still gives the same facts.
A result reached through a cycle, or cut at the chain limit, depends on the order in which
resolution met it, not only on what it read: it is `tainted`, and never kept.
"""
from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Protocol, Set, Tuple

from ..diagnostics import place
from ..extract.facts import (
    CollectionFact,
    FileFacts,
    Literal,
    Part,
    Pattern,
    PatternRef,
    PredicateFact,
    Ref,
    Unknown,
    names_a_piece,
)
from .imports import MAX_CHAIN, Found, locate
from .source import ModuleSource
from .values import CLASS_NAME, Collection, Occurrence, Predicate, ResolvedSet

Reads = Dict[str, Optional[FileFacts]]  # module -> the facts it gave, in the order first read


class EarlierResults(Protocol):
    """Results of an earlier run, each handed out only while what it read is unchanged
    (`memory_resolutions.py`)."""

    def collection(self, key: Tuple[str, str], source: ModuleSource) -> Optional[Tuple[ResolvedSet, Reads]]:
        ...

    def predicate(self, key: str, source: ModuleSource) -> Optional[Tuple[Optional[Predicate], Reads]]:
        ...

    def resolved_against(self, universe: FrozenSet[str]) -> bool:
        ...

    def made_from(self, facts: FileFacts, fact: CollectionFact, members: ResolvedSet) -> Optional[Collection]:
        ...


def _defines_value(facts: FileFacts, name: str) -> bool:
    return any(c.name == name for c in facts.collections) or any(c[0] == name for c in facts.constants)


def _defines_member(facts: FileFacts, name: str) -> bool:
    """A collection, a constant, or a class: a list of model classes (`models = [LlavaQwenForCausalLM]`) holds
    the classes' names."""
    return _defines_value(facts, name) or any(c.name == name for c in facts.classes)


def _defines_predicate(facts: FileFacts, name: str) -> bool:
    return any(p.name == name for p in facts.predicates)


class Resolver:
    """Resolves `Ref`s through a module source, memoised, with cycle protection.

    `kept`: results of an earlier run, taken where what they read is unchanged (`memory_resolutions.py`).
    """

    def __init__(self, source: ModuleSource, kept: Optional[EarlierResults] = None) -> None:
        self.source = _Recording(source)
        self.kept = kept
        self._track = kept is not None  # what each result read matters only to a caller that keeps them
        self._collections: Dict[Tuple[str, str], ResolvedSet] = {}
        self._predicates: Dict[str, Optional[Predicate]] = {}
        self.reads: Dict[object, Reads] = {}  # by collection or predicate key: what resolving it read
        self.tainted: Set[object] = set()  # keys whose result depends on the order they were met in
        # the collections made, by key, with what each was made from (the same objects: the same collection)
        self.made: Dict[Tuple[str, str], Tuple[FileFacts, CollectionFact, ResolvedSet, Collection]] = {}
        self._active: Set[Tuple[str, str]] = set()  # collections whose frames are open
        self._open_predicates: List["_Record"] = []  # predicates being resolved, outermost first
        self._predicate_depth = 0
        self._universe_checked: Optional[Tuple[FrozenSet[str], bool]] = None  # the kept predicates' universe?

    def kept_results(self) -> Tuple[Dict[Tuple[str, str], ResolvedSet], Dict[str, Optional[Predicate]]]:
        """The results a later run may take (not tainted), collections and predicates."""
        return ({k: v for k, v in self._collections.items() if k not in self.tainted},
                {k: v for k, v in self._predicates.items() if k not in self.tainted})

    # -- collections -----------------------------------------------------------
    def parts(self, facts: FileFacts, parts: Iterable[Part]) -> ResolvedSet:
        """The union of `parts` written in `facts`, references followed."""
        frame = _Frame(None, facts, iter(parts))
        self._walk([frame])
        if self._track and self._open_predicates:
            self._open_predicates[-1].take(frame)
        return frame.result()

    def ref(self, ref: Ref) -> ResolvedSet:
        """The names a reference stands for, through any chain of collections and imports."""
        key = (ref.module, ref.name)
        if key not in self._collections and not self._from_kept(key):
            self._walk([self._open(ref)])
        return self._collections[key]

    def _from_kept(self, key: Tuple[str, str]) -> bool:
        """Take the earlier run's result for `key` if what it read is unchanged."""
        if self.kept is None:
            return False
        found = self.kept.collection(key, self.source.source)
        if found is None:
            return False
        self._collections[key], self.reads[key] = found
        return True

    def _walk(self, stack: List["_Frame"]) -> None:
        """Resolve depth first with an explicit stack: a chain of any length costs no recursion.

        A frame's parts are read in order; a reference not yet known pushes a frame of its
        own, whose result is memoised and merged into its parent when its parts run out.
        A reference back into a frame still open is a cycle, reported where it closes.
        """
        while stack:
            frame = stack[-1]
            child = None
            for part in frame.parts:
                if isinstance(part, Literal):
                    frame.members.extend(Occurrence(m.name, frame.path, m.line, m.column) for m in part.members)
                elif isinstance(part, Unknown):
                    frame.unknown.append(f"{part.reason} ({place(frame.path, part.line)})")
                elif isinstance(part, Pattern):
                    frame.patterns.append(part)
                else:
                    ref, affix = (part.ref, part.kind) if isinstance(part, PatternRef) else (part, None)
                    key = (ref.module, ref.name)
                    if key in self._collections or self._from_kept(key):
                        frame.merge(_as_patterns(self._collections[key], affix, ref.line))
                        if self._track:
                            frame.read(self.reads.get(key), key in self.tainted)
                    elif key in self._active:
                        frame.unknown.append(f"`{ref.name}` refers to itself ({ref.module})")
                        # every frame inside the cycle holds only part of what it would from its own
                        # start: memoise the cycle's first collection alone (a mutual `a = b | ..`,
                        # `b = a | ..` must not leave `b` with what `a` had not read yet)
                        for inner in reversed(stack):
                            if inner.key == key:
                                break
                            inner.cyclic = True
                        for inner in stack:  # what the cycle gives depends on where it was entered
                            inner.tainted = True
                    else:
                        child = self._open(ref)
                        child.affix = affix, ref.line
                        break
            if child is not None:
                stack.append(child)
                continue
            stack.pop()
            result = frame.result()
            if frame.key is not None:
                self._active.discard(frame.key)
                if not frame.cyclic:
                    self._collections[frame.key] = result
                    self.reads[frame.key] = frame.reads
                    if frame.tainted:
                        self.tainted.add(frame.key)
            if stack:
                stack[-1].merge(_as_patterns(result, *frame.affix))
                if self._track:
                    stack[-1].read(frame.reads, frame.tainted)

    def _open(self, ref: Ref) -> "_Frame":
        """A frame for what `ref` names: a collection to read, or a constant or a reason, already whole."""
        key = (ref.module, ref.name)
        reads: Reads = {}
        # A model class its module's bytes say it defines is that class: not parsed to learn it (a list of the
        # classes of fifty model files). Not where results are kept, whose reads must name every module read.
        path = None if self._track else self.source.model_class_file(ref.module, ref.name)
        if path is not None:
            frame = _Frame(key, None, iter(()), reads)
            frame.members.append(_class_occurrence(ref.name, path))
            frame.classes = frame.named_class = True
            return frame
        found = self.source.locate(reads, ref.module, ref.name, _defines_member)
        if isinstance(found, str):
            frame = _Frame(key, None, iter(()), reads)
            frame.unknown.append(found)
            return frame
        facts, name = found.facts, found.name
        collection = next((c for c in facts.collections if c.name == name), None)
        if collection is None:
            frame = _Frame(key, facts, iter(()), reads)
            constant = next(((v, line) for n, v, line in facts.constants if n == name), None)
            if constant is None:  # a class: the name it is defined with
                frame.members.append(_class_occurrence(name, facts.path))
                frame.classes = frame.named_class = True
            else:
                frame.members.append(Occurrence(constant[0], facts.path, constant[1], 1))
            return frame
        self._active.add(key)
        frame = _Frame(key, facts, iter(collection.parts), reads)
        frame.bare = len(collection.parts) == 1 and isinstance(collection.parts[0], Ref)
        return frame

    def collection(self, facts: FileFacts, collection: CollectionFact) -> Collection:
        members = self.ref(Ref(facts.module, collection.name, collection.line))
        made = self.kept.made_from(facts, collection, members) if self.kept is not None else None
        if made is None:
            literals = tuple(tuple(Occurrence(m.name, facts.path, m.line, m.column) for m in part.members)
                             for part in collection.parts if isinstance(part, Literal))
            made = Collection(collection.name, facts.path, collection.line, collection.column, members, literals,
                              collection.scope, keyed=CLASS_NAME if members.classes else "",
                              table=any(isinstance(part, Literal) and part.valued for part in collection.parts),
                              values=tuple((m.name, value) for part in collection.parts if isinstance(part, Literal)
                                           for m, value in zip(part.members, part.values)))
        self.made[(facts.module, collection.name)] = (facts, collection, members, made)
        return made

    def alias_of(self, facts: FileFacts, collection: CollectionFact) -> Optional[Tuple[str, str]]:
        """(path, name) of the collection `collection` is another name for, if it is one.

        `A = _A`, `A = frozenset(_A)`: one reference and nothing else, to a collection (not a
        constant) defined anywhere in the project. Its names are the other's, written there.
        """
        if len(collection.parts) != 1 or not isinstance(collection.parts[0], Ref):
            return None
        ref = collection.parts[0]
        found = self.source.locate({}, ref.module, ref.name, _defines_value)
        if isinstance(found, str) or not any(c.name == found.name for c in found.facts.collections):
            return None
        return found.facts.path, found.name

    # -- predicates ------------------------------------------------------------
    def _kept_universe(self, universe: FrozenSet[str]) -> bool:
        """Were the kept predicates resolved against `universe`? Compared once per run: it is one object."""
        assert self.kept is not None
        if self._universe_checked is None or self._universe_checked[0] is not universe:
            self._universe_checked = (universe, self.kept.resolved_against(universe))
        return self._universe_checked[1]

    def predicate(self, module: str, qualname: str, name_ok: Callable[[str], bool],
                  universe: FrozenSet[str]) -> Optional[Predicate]:
        """The predicate `qualname` defined (or imported) in `module`, resolved."""
        key = f"{module}:{qualname}"
        outer = self._open_predicates[-1] if self._open_predicates else None
        if key in self._predicates:
            if any(record.key == key for record in self._open_predicates):  # the cycle guard: met again
                for record in self._open_predicates:
                    record.tainted = True
            elif outer is not None and self._track:
                outer.read(self.reads.get(key), key in self.tainted)
            return self._predicates[key]
        if self.kept is not None and self._kept_universe(universe):
            kept = self.kept.predicate(key, self.source.source)
            if kept is not None:
                self._predicates[key], self.reads[key] = kept
                if outer is not None:
                    outer.read(self.reads[key], False)
                return self._predicates[key]
        if self._predicate_depth >= MAX_CHAIN:
            for record in self._open_predicates:
                record.tainted = True  # cut here, where the chain was entered from
            return None  # a delegation chain this deep is not followed further
        self._predicates[key] = None  # cycle guard
        self._predicate_depth += 1
        record = _Record(key)
        self._open_predicates.append(record)
        # A module that surely neither defines nor imports the name holds no such predicate (a factory's
        # `return FlashAttentionBackend(runner)` calls a class): not parsed to learn it. Not where
        # results are kept, whose reads must name every module they depend on.
        found = self.source.locate(record.reads, module, qualname, _defines_predicate) \
            if self._track or self.source.may_define(module, qualname) else "not bound there"
        result: Optional[Predicate] = None
        if isinstance(found, Found) and f"{found.facts.module}:{found.name}" != key:
            result = self.predicate(found.facts.module, found.name, name_ok, universe)  # memoised where defined
        elif isinstance(found, Found):
            fact = next(p for p in found.facts.predicates if p.name == found.name)
            result = self._predicate(found.facts, fact, name_ok, universe)
        self._open_predicates.pop()
        self._predicate_depth -= 1
        self._predicates[key] = result
        self.reads[key] = record.reads
        if record.tainted:
            self.tainted.add(key)
        if outer is not None and self._track:
            outer.read(record.reads, record.tainted)
        return result

    def _predicate(self, facts: FileFacts, fact: PredicateFact, name_ok: Callable[[str], bool],
                   universe: FrozenSet[str]) -> Predicate:
        tests = self.parts(facts, fact.tests)
        own = tuple(o for o in tests.members if name_ok(o.name))
        names = {o.name for o in own}
        if universe:
            names &= universe
        if tests.patterns:
            names |= {n for n in universe if any(p.matches(n) for p in tests.patterns)}
        unknown = list(tests.unknown)
        delegates: Set[str] = set()
        for ref in fact.delegates:
            part = self.predicate(ref.module, ref.name, name_ok, universe)
            if part is not None:
                names |= part.names
                delegates.add(part.key)
                delegates |= part.delegates
        literals = tuple(tuple(Occurrence(m.name, facts.path, m.line, m.column) for m in part.members)
                         for part in fact.tests if isinstance(part, Literal))
        return Predicate(f"{facts.module}:{fact.name}", fact.name, facts.path, fact.line, fact.column,
                         frozenset(names), own, frozenset(delegates), tuple(unknown), (), literals)


class _Record:
    """What resolving one collection or predicate read so far, and whether its result is tainted."""

    def __init__(self, key: object, reads: Optional[Reads] = None) -> None:
        self.key = key
        self.reads: Reads = {} if reads is None else reads
        self.tainted = False

    def read(self, reads: Optional[Reads], tainted: bool) -> None:
        """Take what a part it used read (a memoised result's, or a finished one's)."""
        if reads:
            for module, facts in reads.items():
                self.reads.setdefault(module, facts)
        self.tainted = self.tainted or tainted or reads is None

    def take(self, other: "_Record") -> None:
        self.read(other.reads, other.tainted)


class _Frame(_Record):
    """One collection being resolved: where its parts come from, and what they gave so far."""

    def __init__(self, key: Optional[Tuple[str, str]], facts: Optional[FileFacts], parts: Iterator[Part],
                 reads: Optional[Reads] = None) -> None:
        super().__init__(key, reads)
        # memoised under this key when done (None: an anonymous union of parts)
        self.key: Optional[Tuple[str, str]] = key
        self.path = facts.path if facts is not None else ""
        self.parts = parts
        self.members: List[Occurrence] = []
        self.unknown: List[str] = []
        self.patterns: List[Pattern] = []
        self.classes = False  # some of its members are classes, by the names they are defined with
        self.named_class = False  # a class itself (`_open`), not a list of them
        self.bare = False  # a collection that is one reference (`X = Y`): another name for what Y is
        self.cyclic = False  # inside a cycle that started above it: its result is not its own whole value
        # (kind, line) when opened for a shape test (`startswith(PREFIX)`): its strings are patterns to its parent
        self.affix: Tuple[Optional[str], int] = (None, 0)

    def merge(self, resolved: ResolvedSet) -> None:
        # `Eagle3DeepseekV3ForCausalLM = Eagle3DeepseekV2ForCausalLM` is another name for a class, not a list
        self.named_class = self.named_class or (self.bare and resolved.named_class)
        self.members.extend(resolved.members)
        self.unknown.extend(resolved.unknown)
        self.patterns.extend(resolved.patterns)
        self.classes = self.classes or resolved.classes

    def result(self) -> ResolvedSet:
        return ResolvedSet(tuple(self.members), tuple(self.unknown), tuple(self.patterns), self.classes,
                           self.named_class)


def _class_occurrence(name: str, path: str) -> Occurrence:
    """A class a list holds, by the name it is defined with in the file at `path` (line 0: its line is not read)."""
    return Occurrence(name, path, 0, 0)


def _as_patterns(resolved: ResolvedSet, kind: Optional[str], line: int) -> ResolvedSet:
    """What a value tested by shape (`kind`: `startswith(PREFIX)`) gives a test: each of its strings a
    pattern (one character tells no name apart, as `names_a_piece` says); as it is for any other use."""
    if kind is None:
        return resolved
    patterns = tuple(Pattern(kind, o.name, line) for o in resolved.members if names_a_piece(o.name))
    return ResolvedSet((), resolved.unknown, resolved.patterns + patterns)


class _Recording:
    """The module source, noting what each lookup `locate` makes gives, into the reads of its caller."""

    def __init__(self, source: ModuleSource) -> None:
        self.source = source
        self._reads: Optional[Reads] = None

    def module(self, name: str) -> Optional[FileFacts]:
        facts = self.source.module(name)
        if self._reads is not None:
            self._reads.setdefault(name, facts)
        return facts

    def lookup(self, module: str, name: str) -> Optional[FileFacts]:
        facts = self.source.lookup(module, name)
        if self._reads is not None:
            self._reads.setdefault(module, facts)
        return facts

    def may_define(self, module: str, name: str) -> bool:
        return self.source.may_define(module, name)

    def model_class_file(self, module: str, name: str) -> Optional[str]:
        return self.source.model_class_file(module, name)

    def locate(self, reads: Reads, module: str, name: str, defines: Callable[[FileFacts, str], bool]
               ) -> "Found | str":
        self._reads = reads
        try:
            return locate(self, module, name, defines)
        finally:
            self._reads = None
