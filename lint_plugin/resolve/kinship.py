"""What belongs together, read from the code itself: kinship between registered architectures.

A list that holds one architecture usually means "this implementation", and another
architecture that runs the same code is what it forgot. The evidence, strongest first:

- one implementation: a registry binds both names to one class (vLLM's
  `"MistralForCausalLM": ("llama", "LlamaForCausalLM")`), or one is an alias of the other
  (`MistralForCausalLM = LlamaForCausalLM`);
- a subclass of a held class that defines no method of its own runs that class's code
  (`class MistralForCausalLM(LlamaForCausalLM): pass`); one that overrides methods shares less;
  the base of a held subclass says little (the subclass may be why the list exists), unless the
  subclass adds mixture-of-experts layers and the list holds dense models too (read from imports);
- classes built on one base (`class DeepseekV3ForCausalLM(DeepseekV2ForCausalLM)` beside
  `class GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)`);
- a backbone: the module of one model imports another's backbone from that model's module
  (`from .qwen3 import Qwen3Model` in the module of `Qwen3VLForConditionalGeneration`): it
  builds its language model on the other's decoder stack, by composition instead of a subclass;
- a config class: two model classes built with one config class (`config: Qwen3MoeConfig` in
  `__init__`, `config_class = X`) read the same kind of checkpoint; weak alone, and only for a
  config class that names a model and builds a few served classes;
- name variants: the dense and the mixture-of-experts model of one stem (`Qwen3VL` /
  `Qwen3VLMoe`), a stem and its numbered version (`BailingMoe` / `BailingMoeV2`);
- a gap: a generation of a lineage between two the subject holds (`Gemma3` where `Gemma2` and
  `Gemma3n` are held): the list skipped one;
- co-occurrence: names that appear together in most of the project's lists (PR-Miner's
  itemsets: support, and the confidence that a list holding one holds the other);
- a slip: a list that writes one name twice and lacks a spelling variant of it (a copied line
  whose rename was never finished);
- a namesake: a list of the same name in another module holds the name beside names this one
  holds (weighed by the rule, which sees the collections: `namesakes.py`).

Two ties the project states outright are special cases with rules of their own: a family (a
predicate such as `is_qwen3_5()` matches both names: ARC101) and a sibling pair (the configured
suffixes, `XForConditionalGeneration` / `XForCausalLM`: ARC104). `declared` names them, so
`archsync why` shows every tie; ARC105 weighs the rest.

Classes come from byte signals (`Signals.bases`, `Signals.configs`), so model files read for their registrations
alone still say what they subclass. Nothing is imported or run.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import AbstractSet, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from .values import Occurrence, Registration

IMPLEMENTATION, SUBCLASS, SHARED_BASE, BACKBONE, CONFIG_CLASS, VARIANT, GAP, COOCCURRENCE, SLIP, NAMESAKE = (
    "implementation", "subclass", "shared-base", "backbone", "config-class", "variant", "gap", "co-occurrence", "slip",
    "namesake")
FAMILY, SIBLING = "family", "sibling"  # stated by the project, decided by ARC101 and ARC104

_TASK = re.compile(r"(?:For[A-Z]\w*|LMHeadModel|Model|LM)$")
_MOE = re.compile(r"Mo[eE]")
_VERSION = re.compile(r"(.+?)_?V\d+(?:_\d+)?")
MIN_SUPPORT = 3  # lists a held name must appear in before its company says anything
MIN_CONFIDENCE = 0.75  # share of those lists that also hold the candidate
MIN_TOGETHER = 2  # lists holding both before the project "treats them alike": one is an anecdote
# registered classes one config class may build before it says nothing (`LlamaConfig` builds many llama-likes)
MAX_CONFIG_USERS = 3
_NONE: FrozenSet[str] = frozenset()
# a library's root class every model of that library subclasses (SGLang builds a few models on
# transformers' `PreTrainedModel` for its loading helpers): it says nothing about what runs
ROOT_BASES = frozenset({"PreTrainedModel"})


@dataclass(frozen=True)
class ClassEdge:
    """`class child(base)` (or `child = base`) at path:line, with how many methods the child defines."""

    child: str
    base: str
    methods: int  # -1: an alias
    path: str
    line: int


@dataclass(frozen=True)
class Backbone:
    """The module of `child` imports `backbone`, defined beside `owner` (at `path`) and named after it."""

    child: str
    owner: str  # the model class whose module defines the backbone (`Qwen3ForCausalLM`)
    backbone: str  # `Qwen3Model`
    path: str  # where `owner` and the backbone are defined


@dataclass(frozen=True)
class ConfigUse:
    """`class child` at path:line is built with `config` (its `__init__`'s `config: X`, or `config_class = X`)."""

    child: str
    config: str
    path: str
    line: int


@dataclass(frozen=True)
class ModuleClasses:
    """One module's byte signals that kinship reads: the names it imports and the classes it defines."""

    path: str
    imported: FrozenSet[str]
    defined: FrozenSet[str]


@dataclass(frozen=True)
class Family:
    """The registered names one predicate matches (`is_qwen3_5()`), and where evidence says it is."""

    where: str  # `is_qwen3_5() (pkg/config.py:12)`
    names: FrozenSet[str]


@dataclass(frozen=True)
class Evidence:
    """One reason to believe `name` belongs where `kin` is, with its weight in [0, 1]."""

    kind: str
    weight: float
    kin: str
    text: str


@dataclass(frozen=True)
class Kinship:
    """Implementations, class edges and list company of the registered names."""

    implementations: Mapping[str, str] = field(default_factory=dict)  # name -> `module:Class` when written
    classes: Mapping[str, Tuple[ClassEdge, ...]] = field(default_factory=dict)  # class -> edges it is the child of
    registered_class: Mapping[str, str] = field(default_factory=dict)  # name -> the class that serves it
    appears: Mapping[str, int] = field(default_factory=dict)  # name -> lists holding it
    together: Mapping[Tuple[str, str], int] = field(default_factory=dict)  # (a, b) -> lists holding both
    related: Mapping[str, FrozenSet[str]] = field(default_factory=dict)  # name -> names any evidence ties to it
    # class -> the backbones its module imports from another model's module, with that model's class
    backbones: Mapping[str, Tuple["Backbone", ...]] = field(default_factory=dict)
    # registered class -> the config class it is built with, where that config builds a few served models only
    configs: Mapping[str, ConfigUse] = field(default_factory=dict)
    # served class -> does its code build mixture-of-experts layers (its module or a base's imports one)
    experts: Mapping[str, bool] = field(default_factory=dict)
    families: Tuple[Family, ...] = ()  # the families ARC101 holds collections to
    siblings: Tuple[Tuple[str, str], ...] = ()  # the suffix pairs ARC104 completes (`siblings`)

    def candidates(self, held: Iterable[str]) -> FrozenSet[str]:
        """Names some evidence ties to a held name, not held themselves: the only ones worth weighing."""
        held = frozenset(held)
        return frozenset().union(*(self.related.get(n, frozenset()) for n in held)) - held

    def is_alias(self, name: str) -> bool:
        """A second spelling of a served class: registered to a class of another registered name, or `X = Y`."""
        cls = self.registered_class.get(name, name)
        if cls != name and self.registered_class.get(cls) == cls:
            return True
        return any(edge.methods < 0 for edge in self.classes.get(cls, ()))

    def declared(self, name: str, held: Iterable[str]) -> List[Evidence]:
        """Ties the project states outright: a family that matches `name` and a held name (ARC101's case),
        and a held name of which `name` is the configured sibling (ARC104's case).

        Their rules decide them, with guards of their own and no threshold; ARC105 does not weigh
        them again. Weight 1.0: nothing is inferred.
        """
        held = frozenset(held) - {name}
        found = []
        for family in self.families:
            matched = sorted(held & family.names)
            if name in family.names and matched:
                found.append(Evidence(FAMILY, 1.0, matched[0], f"is matched by {family.where}, as "
                                                               f"{', '.join(map(repr, matched))} the subject holds"))
        for kin in sorted(held):
            pair = sibling_pair(name, kin, self.siblings)
            if pair:
                found.append(Evidence(SIBLING, 1.0, kin, f"is the sibling of '{kin}' (the suffixes {pair[0]} "
                                                         f"and {pair[1]} of `siblings`)"))
        return found

    def evidence(self, name: str, held: Iterable[str]) -> List[Evidence]:
        """Every piece of evidence tying `name` to a held name, strongest first.

        Weighed for each candidate of each subject, against each name it holds (most pairs share
        nothing): what is `name`'s alone is looked up once, not once a pair.
        """
        held = set(held) - {name}
        held_classes = frozenset(self.registered_class.get(h, h) for h in held)
        composed = self._composes(held_classes)
        mine, cls = self.implementations.get(name), self.registered_class.get(name, name)
        bases = self._bases.get(cls, _NONE)
        ties = self.backbones.get(cls, ()) if composed else ()
        found: List[Evidence] = []
        for kin in sorted(held):
            if mine and mine == self.implementations.get(kin):
                found.append(Evidence(IMPLEMENTATION, 0.9, kin, f"runs the same implementation as '{kin}' ({mine})"))
            kin_cls = self.registered_class.get(kin, kin)
            if cls != kin_cls:
                kin_bases = self._bases.get(kin_cls, _NONE)
                if kin_cls in bases or cls in kin_bases or not bases.isdisjoint(kin_bases):  # else no edge ties them
                    adds_experts = self._adds_experts(cls, kin_cls, held_classes)
                    found += self._classes(cls, kin_cls, kin, held_classes, adds_experts)
            for tie in ties:
                if tie.owner == kin_cls:
                    # The decoder stack is the other model's code: weaker than a thin subclass (the child
                    # adds its own encoder and forward), as strong as what a subclass that overrides shares.
                    found.append(Evidence(BACKBONE, 0.7, kin, f"builds on the backbone of '{kin}' (imports "
                                                              f"{tie.backbone} from {tie.path})"))
            use, kin_use = self.configs.get(cls), self.configs.get(kin_cls)
            if use and kin_use and use.config == kin_use.config and cls != kin_cls:
                # Weak alone: a config class says what the checkpoint holds, not what code runs it.
                found.append(Evidence(CONFIG_CLASS, 0.25, kin, f"is built with the same config class {use.config} "
                                                               f"as '{kin}' ({kin_use.path}:{kin_use.line})"))
            variant = _variant(name, kin)
            if variant:
                weight, text = _VARIANTS[variant]
                found.append(Evidence(VARIANT, weight, kin, text.format(kin=kin)))
            support = self.appears.get(kin, 0)
            if support >= MIN_SUPPORT and self.together.get((kin, name), 0) / support >= MIN_CONFIDENCE:
                # Weak alone (replayed history confirmed none of the findings it made by itself), it
                # corroborates what the code says: the project treats the two alike.
                both = self.together.get((kin, name), 0)
                found.append(Evidence(COOCCURRENCE, 0.25, kin,
                                      f"appears with '{kin}' in {both} of the {support} lists that hold it"))
        found += gaps(name, held)
        return sorted(found, key=lambda e: (-e.weight, e.kind, e.kin))

    def _composes(self, held_classes: FrozenSet[str]) -> bool:
        """Does a subject hold a model beside the model whose backbone it builds on (`Qwen3VLMoe` and `Qwen3Moe`)?

        Then it treats a composed model as its backbone, and a missing one is drift. A subject that
        holds none may list composed models for what they add (a vision tower, a backend's own
        reader), and a backbone says nothing there.
        """
        return any(tie.owner in held_classes for cls in held_classes for tie in self.backbones.get(cls, ()))

    def _adds_experts(self, cls: str, kin_cls: str, held_classes: FrozenSet[str]) -> bool:
        """Does held `kin_cls` add MoE layers to its base `cls`, in a subject that also holds dense models?

        A list that holds a subclass may exist for what the subclass adds (a list of MoE models holds
        `Glm4vMoe` and not its dense base), so the base of a held subclass weighs little. Where the
        subclass adds mixture-of-experts layers and the subject holds dense models too, the experts
        are not why it is held: it is held for the code it shares with its base. Which held models
        are dense is read from the code (the modules' imports), not the spelling: `Qwen3Next` and
        `DeepseekV3` are MoE models. That the subclass adds experts and nothing else takes both: its
        code builds MoE layers and its name is the base's MoE variant. A module that defines a dense
        and a MoE model imports MoE layers for both, and a subclass may add something else the list
        is about (`Qwen3_5ForConditionalGeneration` adds hybrid linear-attention layers to Qwen3-VL,
        which is why the mamba lists hold it).
        """
        if not self.experts.get(kin_cls) or self.experts.get(cls, True) or _variant(kin_cls, cls) != "moe":
            return False
        return any(self.experts.get(h) is False for h in held_classes if h != kin_cls)

    @functools.cached_property
    def _bases(self) -> Dict[str, FrozenSet[str]]:
        """Each class's bases: most pairs of names share no edge, and this says so without walking them."""
        return {cls: frozenset(e.base for e in edges) for cls, edges in self.classes.items()}

    def _classes(self, cls: str, kin_cls: str, kin: str, held_classes: FrozenSet[str],
                 adds_experts: bool = False) -> Iterable[Evidence]:
        for edge in self.classes.get(cls, ()):
            if edge.base == kin_cls:
                where = f"{edge.path}:{edge.line}"
                if edge.methods < 0:
                    yield Evidence(IMPLEMENTATION, 0.9, kin, f"is an alias of '{kin}' (`{cls} = {kin_cls}` at {where})")
                elif edge.methods == 0:
                    yield Evidence(SUBCLASS, 0.85, kin, f"runs the code of '{kin}' (`class {cls}({kin_cls})` "
                                                        f"defines no method, at {where})")
                else:
                    yield Evidence(SUBCLASS, 0.6, kin, f"subclasses '{kin}' (`class {cls}({kin_cls})` at {where})")
        for edge in self.classes.get(kin_cls, ()):
            if edge.base == cls and adds_experts:
                # The held subclass adds experts the subject does not select: it is held for the code it
                # shares with its base, which says as much of the base as a subclass says of its own base.
                yield Evidence(SUBCLASS, 0.85 if edge.methods == 0 else 0.6, kin,
                               f"is the base of '{kin}' (`class {kin_cls}({cls})` at {edge.path}:{edge.line}), "
                               f"which adds mixture-of-experts layers, and the subject holds dense models")
            elif edge.base == cls:
                yield Evidence(SUBCLASS, 0.25, kin, f"is the base of '{kin}' (`class {kin_cls}({cls})` at "
                                                   f"{edge.path}:{edge.line})")
        shared = {e.base for e in self.classes.get(cls, ())} & {e.base for e in self.classes.get(kin_cls, ())}
        # a base that is itself held says it once, as a subclass: not again through each of its children
        for base in sorted(b for b in shared if (b in self.classes or _TASK.search(b)) and b not in held_classes
                           and b not in ROOT_BASES):
            yield Evidence(SHARED_BASE, 0.25, kin, f"shares the base class {base} with '{kin}'")


def siblings_of(name: str, siblings: Sequence[Tuple[str, str]]) -> Iterator[Tuple[str, Tuple[str, str]]]:
    """Each sibling `name` has by the configured suffix pairs, with (its suffix, the sibling's)."""
    for first, second in siblings:
        for suffix, other in ((first, second), (second, first)):
            if name.endswith(suffix) and len(name) > len(suffix):
                yield name[: -len(suffix)] + other, (suffix, other)


def sibling_pair(name: str, kin: str, siblings: Sequence[Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """The configured suffix pair (kin's suffix, name's) that makes `name` the sibling of `kin`, if one does."""
    return next((pair for sibling, pair in siblings_of(kin, siblings) if sibling == name), None)


def missing_siblings(held: Iterable[str], registered: Mapping[str, object],
                     siblings: Sequence[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """(held name, its registered sibling that is not held): what ARC104 asks for."""
    held = frozenset(held)
    found: Dict[str, str] = {}
    for name in held:
        for sibling, _ in siblings_of(name, siblings):
            if sibling in registered and sibling not in held:
                found.setdefault(sibling, name)
    return [(name, sibling) for sibling, name in found.items()]


def gaps(name: str, held: Iterable[str]) -> List[Evidence]:
    """A generation of a lineage between two the subject holds: the list skipped it.

    A list of `Gemma2ForCausalLM` and `Gemma3nForCausalLM` (a variant of the third generation) that
    lacks `Gemma3ForCausalLM`, a newer generation of the one and no newer than the other, holds the
    lineage on both sides of it. The name must be a newer generation of a held name (same lineage,
    task suffix and kind of model), so the lineage's first model, its other kinds (`Qwen3Next`,
    a vision twin) and anything past the newest held generation are not asked for.
    """
    mine = _generation(name)
    if mine is None:
        return []
    held = sorted(held)
    for lower in held:
        if _variant(name, lower) != "generation":
            continue
        for upper in held:
            theirs = _generation(upper)
            if theirs and theirs[0] == mine[0] and theirs[3] == mine[3] and (
                    theirs[1] > mine[1] and theirs[2] == mine[2] or theirs[1] == mine[1] and theirs[2] != mine[2]):
                return [Evidence(GAP, 0.75, upper, f"is a generation between '{lower}' and '{upper}', which "
                                                   "the subject holds")]
    return []


@functools.lru_cache(maxsize=1 << 14)
def _generation(name: str) -> Optional[Tuple[str, float, str, str]]:
    """(lineage, number, the rest of the stem, task) of `Gemma3nForCausalLM`: ("Gemma", 3.0, "n", "ForCausalLM").

    A number of several digits run together (`DeepseekV32`: 3.2, not 32) says no order.
    """
    task = _TASK.search(name)
    if task is None or task.start() == 0:
        return None
    match = _GENERATION.fullmatch(name[:task.start()])
    if match is None or match.group(2) is None or len(match.group(2)) > 1 and match.group(2).isdigit():
        return None
    return match.group(1), _number(match.group(2)), _MOE.sub("", match.group(3)).strip("_"), task.group()


def slips(name: str, literals: Iterable[Sequence[Occurrence]]) -> List[Evidence]:
    """A literal that writes one name twice and lacks a spelling variant of it: the copy meant the variant.

    `["BailingMoeV2ForCausalLM", "BailingMoeV2ForCausalLM"]` where `BailingMoeForCausalLM` is
    registered is an edit that copied a line and did not finish renaming it.
    """
    found = []
    for literal in literals:
        seen: Set[str] = set()
        for occurrence in literal:
            if occurrence.name in seen and _variant(name, occurrence.name):
                found.append(Evidence(SLIP, 0.8, occurrence.name, f"may be what the second '{occurrence.name}' "
                                                                  f"(line {occurrence.line}) was meant to say"))
            seen.add(occurrence.name)
    return found


# ties in the code that are not code run alike: they add weight, never the second kind "strong" asks for
_WEAK_CODE = frozenset({SHARED_BASE, CONFIG_CLASS})


def corroborated(kinship: Kinship, name: str, evidence: Sequence[Evidence]) -> bool:
    """Does the project also treat them together? Two kinds of evidence, or company in two of its lists.

    Code says what runs alike; lists say what the project treats alike. A popular base held
    alone in lists that never name its thin clones (`LlamaForCausalLM` without `Phi3ForCausalLM`)
    is a list of checkpoints someone validated, not a list that forgot one.
    """
    kinds = {e.kind for e in evidence if e.kind not in _WEAK_CODE}
    return COOCCURRENCE in kinds or len(kinds) >= 2 or any(kinship.together.get((e.kin, name), 0) >= MIN_TOGETHER
                                                             for e in evidence)


def confidence(evidence: Sequence[Evidence]) -> float:
    """How sure the evidence makes us: independent kinds combine, the best of each kind counts."""
    best: Dict[str, float] = {}
    for e in evidence:
        best[e.kind] = max(best.get(e.kind, 0.0), e.weight)
    doubt = 1.0
    for weight in best.values():
        doubt *= 1.0 - weight
    return round(1.0 - doubt, 3)


RelatedInputs = Tuple[object, ...]  # all that which names are related reads of a kinship (`related_inputs`)
Related = Tuple[RelatedInputs, Mapping[str, FrozenSet[str]]]  # those inputs, and what they gave


def build_kinship(registrations: Sequence[Registration], edges: Iterable[ClassEdge],
                  lists: Iterable[FrozenSet[str]], modules: Sequence[ModuleClasses] = (),
                  configs: Iterable[ConfigUse] = (), families: Sequence[Family] = (),
                  siblings: Sequence[Tuple[str, str]] = ()) -> Kinship:
    """Kinship from the registrations, the class edges of the project, the lists it keeps, its modules,
    the config classes its model classes are built with, and the ties it states (families, siblings)."""
    return build_kinship_from(registrations, edges, lists, modules, configs, families, siblings)[0]


def build_kinship_from(registrations: Sequence[Registration], edges: Iterable[ClassEdge],
                       lists: Iterable[FrozenSet[str]], modules: Sequence[ModuleClasses] = (),
                       configs: Iterable[ConfigUse] = (), families: Sequence[Family] = (),
                       siblings: Sequence[Tuple[str, str]] = (), earlier: Optional[Related] = None
                       ) -> Tuple[Kinship, Related]:
    """`build_kinship`, with which names are related taken from `earlier` (a run's, kept for the next) when
    what they are read from is the same: a language server's check after an edit that moved lines or
    changed a list of no registered name asks again with the same inputs. Returns what to keep, too."""
    implementations: Dict[str, str] = {}
    registered_class: Dict[str, str] = {}
    for r in registrations:
        if r.name in registered_class:
            continue
        implementations[r.name] = r.implementation
        registered_class[r.name] = r.implementation.rpartition(":")[2] if r.implementation else r.name
    classes: Dict[str, List[ClassEdge]] = {}
    for edge in edges:
        classes.setdefault(edge.child, []).append(edge)
    appears: Counter[str] = Counter()
    together: Counter[Tuple[str, str]] = Counter()
    for held in lists:
        names = sorted(held)
        appears.update(names)
        together.update(itertools.permutations(names, 2))
    kinship = Kinship({n: i for n, i in implementations.items() if i}, {c: tuple(e) for c, e in classes.items()},
                      registered_class, dict(appears), dict(together),
                      backbones=_backbones(set(registered_class.values()), classes, modules),
                      configs=_shared_configs(set(registered_class.values()), configs),
                      experts=_experts(set(registered_class.values()), classes, modules),
                      families=tuple(families), siblings=tuple(siblings))
    inputs = related_inputs(kinship)
    related = earlier[1] if earlier is not None and earlier[0] == inputs else _related_of(kinship)
    return dataclasses.replace(kinship, related=related), (inputs, related)


def related_inputs(kinship: Kinship) -> RelatedInputs:
    """All that `_related_of` reads: of the edges, their bases; of the backbones, all; of the configs, the class."""
    return (tuple(kinship.registered_class.items()), tuple(kinship.implementations.items()),
            tuple((cls, tuple(e.base for e in edges)) for cls, edges in kinship.classes.items()),
            kinship.together, kinship.appears,
            tuple(kinship.backbones.items()),
            tuple((c, u.config) for c, u in kinship.configs.items()))


def _related_of(kinship: Kinship) -> Dict[str, FrozenSet[str]]:
    names = list(kinship.registered_class)
    built_on: Dict[str, List[str]] = {}  # class -> the classes built on its backbone
    for ties in kinship.backbones.values():
        for tie in ties:
            built_on.setdefault(tie.owner, []).append(tie.child)
    groups: Dict[Tuple[str, str], List[str]] = {}
    for name in names:
        cls = kinship.registered_class[name]
        keys = [("class", cls)]
        if name in kinship.implementations:
            keys.append(("implementation", kinship.implementations[name]))
        keys += [("base", e.base) for e in kinship.classes.get(cls, ()) if e.base not in ROOT_BASES]
        keys += [("base", cls)]  # a name is kin to the names whose class subclasses its own
        keys += [("variant", key) for key in _variant_keys(name)]
        keys += [("backbone", f"{tie.owner}->{cls}") for tie in kinship.backbones.get(cls, ())]
        keys += [("backbone", f"{cls}->{child}") for child in built_on.get(cls, ())]
        if cls in kinship.configs:
            keys.append(("config", kinship.configs[cls].config))
        for key in keys:
            groups.setdefault(key, []).append(name)
    related: Dict[str, Set[str]] = {name: set() for name in names}
    for members in groups.values():
        if 1 < len(members) <= 50:  # a base every model shares (`nn.Module`) ties nothing
            for name in members:
                related[name].update(members)
    for (kin, name), both in kinship.together.items():
        support = kinship.appears.get(kin, 0)
        if support >= MIN_SUPPORT and both / support >= MIN_CONFIDENCE and kin in related and name in related:
            related[kin].add(name)
            related[name].add(kin)
    return {name: frozenset(kin - {name}) for name, kin in related.items() if len(kin) > 1}


def _shared_configs(served: AbstractSet[str], uses: Iterable[ConfigUse]) -> Dict[str, ConfigUse]:
    """The config class of each served class, where it ties a few served classes and names a model.

    A config class many models are built with (`PretrainedConfig`, `LlamaConfig` reused by the
    llama-likes) ties nothing, nor one that names no model (`VllmConfig`, `TConfig`): its stem
    (`Qwen3Moe` of `Qwen3MoeConfig`) must begin the name of a class built with it. A class written
    in several modules with different configs says nothing either.
    """
    of: Dict[str, Set[ConfigUse]] = {}
    users: Dict[str, Set[str]] = {}
    for use in uses:
        users.setdefault(use.config, set()).add(use.child)
        if use.child in served:
            of.setdefault(use.child, set()).add(use)
    found = {}
    for cls, found_uses in of.items():
        configs = {u.config for u in found_uses}
        if len(configs) != 1:
            continue
        config = configs.pop()
        stem = _squashed(config[:-len("Config")] if config.endswith("Config") else "")
        if len(stem) < 3 or not any(_squashed(user).startswith(stem) for user in users[config]):
            continue
        if 1 < len(users[config] & served) <= MAX_CONFIG_USERS:
            found[cls] = min(found_uses, key=lambda u: (u.path, u.line))
    return found


_EXPERT_LAYER = re.compile(r"Mo[Ee]|Experts")


def _experts(served: AbstractSet[str], classes: Mapping[str, Sequence[ClassEdge]],
             modules: Sequence[ModuleClasses]) -> Dict[str, bool]:
    """For each served class whose module is known: does it build mixture-of-experts layers?

    Its module imports a MoE layer (`FusedMoE`, `Glm4MoeModel`) or a MoE model it composes
    (`DeepseekV3ForCausalLM` in Kimi-K2.5's), or one of its bases is a MoE class
    (`MistralLarge3ForCausalLM(DeepseekV3ForCausalLM)`). A module that defines dense and MoE models
    says MoE of both: the base and some other name the subject holds must read as dense, so that
    doubt holds a finding back. A class whose module is not known is neither.
    """
    homes = {e.path for edges in classes.values() for e in edges}  # only where a class is defined matters
    imports = [m for m in modules if m.path in homes]
    moe_paths = {m.path for m in imports if any(_expert_layer(name) for name in m.imported)}
    moe: Dict[str, bool] = {}
    for _ in range(3):  # a model composing a model that composes a MoE model: rare deeper
        moe = {}
        for cls in classes:
            _is_moe(cls, classes, moe_paths, moe, 0)
        moe_classes = {cls for cls, found in moe.items() if found}
        more = {m.path for m in imports if not m.imported.isdisjoint(moe_classes)}
        if more <= moe_paths:
            break
        moe_paths |= more
    return {cls: moe[cls] for cls in served if cls in moe}


@functools.lru_cache(maxsize=1 << 14)  # the same imported names, module after module
def _expert_layer(name: str) -> bool:
    return bool(_EXPERT_LAYER.search(name))


def _is_moe(cls: str, classes: Mapping[str, Sequence[ClassEdge]], moe_paths: AbstractSet[str],
            moe: Dict[str, bool], depth: int) -> bool:
    if cls not in moe:
        edges = classes.get(cls, ())
        moe[cls] = any(e.path in moe_paths for e in edges) or depth < 8 and any(
            e.base in classes and _is_moe(e.base, classes, moe_paths, moe, depth + 1) for e in edges)
    return moe[cls]


def _squashed(name: str) -> str:
    return name.replace("_", "").lower()


def _backbones(served: AbstractSet[str], classes: Mapping[str, Sequence[ClassEdge]],
               modules: Sequence[ModuleClasses]) -> Dict[str, Tuple[Backbone, ...]]:
    """Each served class whose module imports the backbone of another served class from that class's module.

    The backbone of `Qwen3ForCausalLM` is `Qwen3Model`: its stem and `Model`, defined in its module.
    A component (`LlamaMLP`) is not a backbone: many models borrow one without running the model.
    """
    where: Dict[str, Set[str]] = {}  # served class -> the paths that define it
    served_in: Dict[str, List[str]] = {}  # path -> the served classes it defines
    for cls in served:
        where[cls] = {e.path for e in classes.get(cls, ())}
        for path in where[cls]:
            served_in.setdefault(path, []).append(cls)
    backbone_of: Dict[Tuple[str, str], str] = {}  # (path, backbone) -> the served class it serves
    for cls, paths in where.items():
        task = _TASK.search(cls)
        if task is None or task.start() == 0:
            continue
        for path in paths:
            backbone_of.setdefault((path, cls[:task.start()] + "Model"), cls)
    defined: Dict[str, Set[str]] = {}  # backbone -> the paths that define it
    for module in modules:
        for name in module.defined:
            defined.setdefault(name, set()).add(module.path)
    backbones = {name for _, name in backbone_of}
    found: Dict[str, List[Backbone]] = {}
    for module in modules:
        children = served_in.get(module.path, ())
        for name in sorted(backbones.intersection(module.imported)):  # most imports are no backbone
            homes = sorted(defined.get(name, set()) - {module.path})
            if len(homes) != 1 or (homes[0], name) not in backbone_of:
                continue  # defined in several modules, which one was imported is not known; or not a backbone
            owner = backbone_of[(homes[0], name)]
            for child in children:
                # a subclass of the owner says so by its edge, and counts once, as a subclass
                if child != owner and all(e.base != owner for e in classes.get(child, ())):
                    found.setdefault(child, []).append(Backbone(child, owner, name, homes[0]))
    return {cls: tuple(ties) for cls, ties in found.items()}


@functools.lru_cache(maxsize=1 << 14)  # asked of every registered name in every run
def _variant_keys(name: str) -> Tuple[str, ...]:
    """Keys two variants share: the stem without `Moe`, and a versioned stem's unversioned one."""
    task = _TASK.search(name)
    if task is None or task.start() == 0:
        return ()
    stem, suffix = name[:task.start()], task.group()
    keys = [f"moe:{_MOE.sub('', stem)}{suffix}", f"vision:{_VISION.sub('', stem)}"]
    match = _VERSION.fullmatch(stem)
    keys.append(f"version:{match.group(1) if match else stem}{suffix}")
    generation = _GENERATION.fullmatch(stem)
    if generation:
        keys.append(f"generation:{generation.group(1)}:{_MOE.sub('', generation.group(3)).strip('_')}{suffix}")
    return tuple(keys)


@functools.lru_cache(maxsize=1 << 14)  # a file's signals are the same object while it is unchanged
def parse_configs(path: str, signals: FrozenSet[str]) -> Tuple[ConfigUse, ...]:
    """`Child:Config:line` signals of one file as config uses."""
    found = []
    for text in signals:
        child, config, line = text.split(":")
        found.append(ConfigUse(child, config, path, int(line)))
    return tuple(found)


@functools.lru_cache(maxsize=1 << 14)  # a file's signals are the same object while it is unchanged
def parse_edges(path: str, signals: FrozenSet[str]) -> Tuple[ClassEdge, ...]:
    """`Child:Base:methods:line` signals of one file as edges."""
    found = []
    for text in signals:
        child, base, methods, line = text.split(":")
        found.append(ClassEdge(child, base, int(methods), path, int(line)))
    return tuple(found)


_VARIANTS = {
    "moe": (0.5, "is a dense/MoE variant of '{kin}'"),
    "version": (0.4, "is a versioned variant of '{kin}'"),
    # the unversioned name beside its versions: below "all" on its own, as older generations are
    # (a list of DeepseekV2 and V3 is rarely missing the first Deepseek: it moved on)
    "earlier": (0.2, "is an earlier version of '{kin}'"),
    "vision": (0.4, "is the vision-language twin of '{kin}'"),
    "generation": (0.3, "is a newer generation of '{kin}'"),
}
_GENERATION = re.compile(r"([A-Za-z]+)(\d+(?:[._]\d+)?)?(.*)")
_VISION = re.compile(r"_?VL_?|Vision|(?<=\d)[vV](?![a-zL])")


@functools.lru_cache(maxsize=1 << 16)  # a pure function of two names: weighed for pair after pair, run after run
def _variant(name: str, kin: str) -> Optional[str]:
    """How `name` varies `kin` by its spelling, if it does; both must have one task suffix.

    "moe": `X` / `XMoe`; "version": `XV2` beside `X` ("earlier": `X` beside `XV2`);
    "vision": `Qwen3` / `Qwen3VL`, `Glm4Moe` /
    `Glm4vMoe` (the task suffix may differ); "generation": a newer number of one lineage
    (`Qwen2` -> `Qwen3`, `Qwen2VL` -> `Qwen2_5_VL`, `InternLM` -> `InternLM2`).
    """
    a, b = _TASK.search(name), _TASK.search(kin)
    if a is None or b is None or a.start() == 0 or b.start() == 0:
        return None
    stem, kin_stem = name[:a.start()], kin[:b.start()]
    if stem == kin_stem:
        return None
    if _VISION.sub("", stem) == _VISION.sub("", kin_stem) and bool(_VISION.search(stem)) != bool(
            _VISION.search(kin_stem)):
        return "vision"
    if a.group() != b.group():
        return None
    if _MOE.sub("", stem) == _MOE.sub("", kin_stem) and bool(_MOE.search(stem)) != bool(_MOE.search(kin_stem)):
        return "moe"
    for versioned, plain, kind in ((stem, kin_stem, "version"), (kin_stem, stem, "earlier")):
        match = _VERSION.fullmatch(versioned)
        if match and match.group(1) == plain and len(plain) >= 4:
            return kind
    mine, theirs = _GENERATION.fullmatch(stem), _GENERATION.fullmatch(kin_stem)
    if mine and theirs and mine.group(1) == theirs.group(1) and \
            _MOE.sub("", mine.group(3)).strip("_") == _MOE.sub("", theirs.group(3)).strip("_") and \
            _number(mine.group(2)) > _number(theirs.group(2)):
        return "generation"
    return None


def _number(version: Optional[str]) -> float:
    """`2_5` -> 2.5; no number is the first generation."""
    return float(version.replace("_", ".")) if version else 1.0
