"""ARC201 unknown-architecture: a guarded collection or a family names an architecture nothing registers."""
from __future__ import annotations

import re
from functools import cached_property, lru_cache
from typing import AbstractSet, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from ..diagnostics import Diagnostic
from ..project.hosts import LIBRARY
from ..resolve import Model, Occurrence
from ..resolve.lineage import first_word
from ..resolve.model_type_slips import ModelTypeSlip, model_type_slips
from ..resolve.slips import is_variant, slip_of
from ..resolve.values import CLASS_NAME
from .kinds import served_classes
from .rule import Example, Rule

_MODELS = ("models/qwen3_next.py", "class Qwen3NextForCausalLM: pass\nEntryClass = Qwen3NextForCausalLM\n")
_SERVED = ("models/registry.py", "class LlamaForCausalLM: pass\nclass MistralForCausalLM: pass\n"
                                 "class Qwen3MoeForCausalLM: pass\nclass DeepseekV2ForCausalLM: pass\n"
                                 "EntryClass = [LlamaForCausalLM, MistralForCausalLM, Qwen3MoeForCausalLM, "
                                 "DeepseekV2ForCausalLM]\n")
_KERNELS = ("def mlp_kernel(config):\n    if config.model_type == \"llama\":\n        return \"swiglu\"\n"
            "    elif config.model_type == \"mistral\":\n        return \"swiglu\"\n"
            "    elif config.model_type == \"{}\":\n        return \"swiglu\"\n"
            "    raise NotImplementedError(config.model_type)\n")


def check(model: Model) -> List[Diagnostic]:
    """Silent for a plugin of a registry outside the project: what it serves is registered elsewhere; and for a
    project serving transformers' models: a checkpoint may name remote code (`trust_remote_code`) or a release newer
    than the one read. A slip of a known model type is one anywhere (`model_type_slips.py`)."""
    found = [_slip(s) for s in model_type_slips(model.collections, model.model_types.known, model.own_words)]
    if model.external_registries or LIBRARY in model.hosts:
        return found
    name_ok, served = model.config.name_regex, model.served
    names = _Registered(model.registered)
    known = model.mapped | model.public  # names that exist: never a typo
    classes: Optional[FrozenSet[str]] = None
    for collection in model.collections:
        if not any(name_ok.fullmatch(o.name) or o.name in model.registered for o in collection.members.members):
            continue  # a list of something else that `*_ARCHS` matched: GPUs (`{"7.0", "gfx90a"}`), model types
        members = [o for o in collection.members.members if collection.declared or name_ok.fullmatch(o.name)]
        if collection.members.classes:  # a class is named as Python binds it: never a misspelt architecture
            written = frozenset(o for literal in collection.literals for o in literal)
            members = [o for o in members if o in written]
        if collection.keyed == CLASS_NAME:  # looked up with a class name: a class the registry builds is right there
            classes = served_classes(model) if classes is None else classes
            members = [o for o in members if o.name not in classes or o.name in model.registered]
        found += unknown_names(collection.subject, collection.label, [o for o in members if o.name not in served],
                               model.registered, typos_only=not collection.declared,
                               classes=model.unregistered_classes, names=names, mapped=known)
    for family in model.overlapping:
        found += unknown_names(family.subject, family.label, [o for o in family.own if o.name not in served],
                               model.registered, classes=model.unregistered_classes, names=names,
                               mapped=known)
    return found


def unknown_names(subject: str, label: str, occurrences: Sequence[Occurrence], registered: Mapping[str, Occurrence],
                  typos_only: bool = False, classes: AbstractSet[str] = frozenset(),
                  names: Optional["_Registered"] = None, mapped: AbstractSet[str] = frozenset()) -> List[Diagnostic]:
    """Each name nothing registers, once; none while nothing is registered.

    A model class the project defines and no longer registers is always reported (a registration
    forgotten or removed), and so is a typo, with a did-you-mean: a slip of a registered name
    (`Casual` for `Causal`: `slips.py`) whether or not the subject also holds that name, or a name close
    to a registered one the subject lacks that is no variant of it (`Grok1V` is one of `Grok1`); never
    a name that is known to exist (`mapped`: a config map's key, a rename table's, a checkpoint name the
    project knows, or an architecture a `transformers` release defines: `MistralForCausalLM` beside a
    registered `MixtralForCausalLM`).
    Otherwise, not reported: a name of the same lineage as a registered name held beside it (an
    alias or a variant spelt on purpose: `LongcatFlashNgramForCausalLM` beside
    `LongcatFlashForCausalLM`), and a registered stem with another registered task suffix (an
    adapter's name: `Qwen3ForSequenceClassification` from `Qwen3ForCausalLM`). With `typos_only`
    (subjects found by shape, not declared), only the first two are reported.
    """
    if not registered:
        return []
    diagnostics = []
    seen: Set[str] = set()
    known: Optional[_Known] = None
    for occurrence in occurrences:
        if occurrence.name in registered or occurrence.name in seen:
            continue
        seen.add(occurrence.name)
        if known is None:  # most subjects hold registered names only: this is read for the first one that is not
            known = _Known(registered, occurrences, names or _Registered(registered))
        held_lineages, unheld, stems, tasks = known.held_lineages, known.unheld, known.stems, known.tasks
        # Architecture names are ASCII: one that is not is a lookalike (a Cyrillic `С`), never an alias,
        # and may be close to a name the list already holds.
        lookalike = not occurrence.name.isascii()
        known_name = occurrence.name in mapped  # a name the project maps, or one that exists: never a typo
        slip = None if lookalike or known_name else slip_of(occurrence.name, registered.keys())
        close = [] if known_name else [slip] if slip else [
            n for n in _close_matches(occurrence.name, list(registered) if lookalike else unheld)
            if lookalike or _typo_of(occurrence.name, n) and not is_variant(occurrence.name, n)][:1]
        defined = occurrence.name in classes
        stem, task = _split(occurrence.name)
        derived = stem in stems and task in tasks  # `Qwen3ForSequenceClassification` from `Qwen3ForCausalLM`
        if not close and not defined and not lookalike and (typos_only or derived
                                                            or first_word(occurrence.name) in held_lineages):
            continue
        diagnostics.append(diagnostic(subject, label, occurrence, close[0] if close else None, defined))
    return diagnostics


_CUTOFF = 0.88


def _close_matches(word: str, candidates: Sequence[str]) -> List[str]:
    """`difflib.get_close_matches(word, candidates, n=3, cutoff=0.88)`, with the same answer.

    difflib first drops each candidate whose length alone keeps it under the cutoff
    (`real_quick_ratio`), one SequenceMatcher call at a time; the same test done here in one pass
    leaves it the few names of about the word's length (of 1,500 registered names, some tens).
    """
    size = len(word)
    near = tuple(c for c in candidates if 2.0 * min(size, len(c)) / (size + len(c)) >= _CUTOFF)
    return list(_closest(word, near)) if near else []


@lru_cache(maxsize=1 << 10)  # the same names again in the language server's next check
def _closest(word: str, near: Tuple[str, ...]) -> Tuple[str, ...]:
    import difflib  # here, as below: most runs meet no unknown name, and a run starts faster without it

    return tuple(difflib.get_close_matches(word, near, n=3, cutoff=_CUTOFF))


class _Registered:
    """The stems and task suffixes of every registered name: the same for every subject, so read once
    a check, when the first unknown name asks."""

    def __init__(self, registered: Mapping[str, Occurrence]) -> None:
        self._registered = registered

    @cached_property
    def stems(self) -> Set[str]:
        return {_split(n)[0] for n in self._registered}

    @cached_property
    def tasks(self) -> Set[str]:
        return {_split(n)[1] for n in self._registered} - {""}


class _Known:
    """What an unknown name is judged against: the subject's lineages, the registered names it lacks,
    and the stems and task suffixes of every registered name."""

    def __init__(self, registered: Mapping[str, Occurrence], occurrences: Sequence[Occurrence],
                 names: _Registered) -> None:
        held = {o.name for o in occurrences}
        self.held_lineages = {first_word(n) for n in held if n in registered}
        self.unheld = [n for n in registered if n not in held]
        self.stems = names.stems
        self.tasks = names.tasks


_TASK = re.compile(r"For[A-Z]\w*$|Model$")


def _split(name: str) -> Tuple[str, str]:
    """(stem, task suffix): `Qwen3` and `ForCausalLM`; a name without a task suffix is all stem."""
    match = _TASK.search(name)
    return (name[:match.start()], match.group(0)) if match and match.start() > 0 else (name, "")


def _typo_of(name: str, registered: str) -> bool:
    """Close as a whole and in its stem: a shared long suffix (`ForSequenceClassification`) is no typo."""
    import difflib

    stem, other = _split(name)[0], _split(registered)[0]
    return stem == other or difflib.SequenceMatcher(None, stem, other).ratio() >= 0.8


def _slip(slip: ModelTypeSlip) -> Diagnostic:
    written, c = slip.written, slip.collection
    return Diagnostic(written.path, written.line, written.column, RULE.code,
                      f"'{written.name}' in {c.label} is not a model type; did you mean '{slip.meant}'? (the model "
                      "types tested beside it are spelt as transformers spells them)",
                      subject=c.subject, member=written.name)


def diagnostic(subject: str, label: str, occurrence: Occurrence, close: Optional[str],
               defined: bool = False) -> Diagnostic:
    hint = " (its class is defined beside a registration that leaves it out)" if defined else ""
    hint += f"; did you mean '{close}'?" if close else ""
    return Diagnostic(occurrence.path, occurrence.line, occurrence.column, RULE.code,
                      f"'{occurrence.name}' in {label} is not a registered architecture{hint}",
                      subject=subject, member=occurrence.name)


RULE = Rule(
    code="ARC201",
    name="unknown-architecture",
    summary="a guarded collection or a family names an architecture nothing registers",
    what="A name in a guarded collection or in a family predicate's own literal that no registration (see "
         "`registries`) provides, with a did-you-mean when a registered name is close. Only when the project "
         "registers something, and not in a project whose names are registered outside it: a plugin registering "
         "into its host, or a project serving transformers' models (`universe-from`): a snapshot may be older than "
         "the host, and a checkpoint may name remote code. A slip of a registered name (two adjacent letters of "
         "a word swapped, one dropped inside a word or one doubled: `Casual` for `Causal`) is reported even "
         "beside the right spelling, unless the project maps it: a key of a `config-maps` dict or of a rename table "
         "(`{\"OldForCausalLM\": \"NewForCausalLM\"}`, the new name registered), a checkpoint name it knows; a "
         "name that differs from a registered one by whole words (`Grok1V` from `Grok1`) is a variant and "
         "gets no did-you-mean, and so does a name known to exist: an architecture a `transformers` release "
         "defines (from the table archsync ships) is no typo of a registered one (`MistralForCausalLM` beside "
         "a registered `MixtralForCausalLM`). A guarded list none of whose strings looks like an architecture "
         "name (see `name-pattern`) is a list of something else that `*_ARCHS` matched (`NVIDIA_SUPPORTED_ARCHS = "
         "{\"7.0\", \"8.0\"}`, GPU architectures), and is not checked. A name another path serves is never "
         "unknown: a key of an engine's support table "
         "(`SUPPORTED_ARCHS = dict(BaiChuanForCausalLM=\"baichuan\", ...)`, a module-level table named "
         "`SUPPORTED_ARCHS`, `_SUPPORTED_MODELS` or `SUPPORTED_ARCHITECTURES` that holds a registered name) is a "
         "name a second engine serves, whatever the registry of the first says. In a table looked up with a "
         "class name (`TABLE[type(model).__name__]`), a class the registry builds or the project defines is a "
         "key as it should be, not an unknown name (ARC203 checks such tables). In a list a model type is tested "
         "against, a model type transformers knows but for its separators (`qwen3moe`, `deepseek-v2`) is a slip "
         "in every project, a plugin's or one serving transformers' models too: where the other model types its "
         "function tests (or the list, at module level) are at least twice as many of transformers' as not, two at "
         "least, and the spelling it varies is not among them (a function that tests `\"minimax_m2\"` and then "
         "`\"minimax-m2\"` renames one to the other), nor is it a word a dict of the same module maps names to (a "
         "quantizer's `{\"Qwen2Moe\": \"qwen2moe\"}` beside layer tables keyed `\"qwen2moe\"`: its own word, which "
         "renaming the key would break). A project whose model types are its own scheme "
         "(ms-swift's `'deepseek-v2'` beside `'yi'` and `'openbuddy'`) is not checked so.",
    why="A typo (`Qwen3NextForCasualLM`) silently disables the branch it guards.",
    fix_doc="Correct the name, register the model, or exempt names that are deliberately unregistered (checkpoint "
            "aliases rewritten at load time).",
    exempt_doc="`[[tool.archsync.exempt]]` or `# noqa: ARC201` on the member's line.",
    examples=(
        Example("a typo in a whitelist", (
            _MODELS,
            ("arg_groups/overrides.py", "_HYBRID_ARCHS = {\n    \"Qwen3NextForCasualLM\",\n}\n"),
        ), ("arg_groups/overrides.py:2:5: ARC201 'Qwen3NextForCasualLM' in _HYBRID_ARCHS is not a registered "
            "architecture; did you mean 'Qwen3NextForCausalLM'?",), corrected=(
            ("arg_groups/overrides.py", "_HYBRID_ARCHS = {\n    \"Qwen3NextForCausalLM\",\n}\n"),
        )),
        Example("the name as registered", (
            _MODELS,
            ("arg_groups/overrides.py", "_HYBRID_ARCHS = {\n    \"Qwen3NextForCausalLM\",\n}\n"),
        )),
        Example("a model type written without its separator, in a chain whose other model types are spelt as "
                "transformers spells them: the branch never runs", (
            _SERVED,
            ("lora/kernels.py", _KERNELS.format("qwen3moe")),
        ), ("lora/kernels.py:6:31: ARC201 'qwen3moe' in mlp_kernel#3 is not a model type; did you mean 'qwen3_moe'? "
            "(the model types tested beside it are spelt as transformers spells them)",), corrected=(
            ("lora/kernels.py", _KERNELS.format("qwen3_moe")),
        )),
        Example("model types of the project's own scheme, most of them none of transformers' (ms-swift's)", (
            _SERVED,
            ("tuners/layers.py", "LAYER_INDEXED = (\"llama\", \"deepseek-v2\", \"yi\", \"openbuddy\")\n\n\n"
                                 "def indexed(config):\n    return config.model_type in LAYER_INDEXED\n"),
        )),
    ),
    check=check,
    one_per_pair=True,
    settings=("guard", "families", "registries", "universe-from", "name-pattern", "config-maps", "exempt"),
)
