"""`Kinship`: what belongs together in one project, and the evidence that ties a name to what a list holds."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import AbstractSet, Dict, FrozenSet, Iterable, List, Mapping, Optional, Tuple

from ...diagnostics import place
from ..lineage import first_word, stem
from . import weights
from .code import ancestors
from .evidence import (
    BACKBONE,
    CONFIG_CLASS,
    COOCCURRENCE,
    FAMILY,
    IMPLEMENTATION,
    MIN_CONFIDENCE,
    MIN_SUPPORT,
    MIN_TOGETHER,
    ROOT_BASES,
    SHARED_BASE,
    SIBLING,
    SUBCLASS,
    VARIANT,
    WRAPS,
    Backbone,
    ClassEdge,
    ConfigUse,
    Evidence,
    Family,
    Wrapping,
)
from .names import TASK, VARIANT_TEXTS, VERSION, gaps, sibling_pair, variant

_NONE: FrozenSet[str] = frozenset()
_NO_LISTS: FrozenSet[int] = frozenset()


def _one_lineage_and_task(name: str, kin: str) -> bool:
    task, kin_task = TASK.search(name), TASK.search(kin)
    return first_word(name, generations=False) == first_word(kin, generations=False) \
        and (task.group(0) if task else "") == (kin_task.group(0) if kin_task else "")


def _versions(name: str, kin: str) -> bool:
    """Is one a variant of the other (`DeepseekV32ForCausalLM` of `DeepseekV3ForCausalLM`), or are both
    versions of one stem (`Kestrel_Nano_VL_V3` of `Kestrel_Nano_VL_V2`)?"""
    return bool(variant(name, kin) or variant(kin, name)) or _unversioned(name) == _unversioned(kin)


def of_one_line(name: str, kin: str) -> bool:
    """Is `name` of `kin`'s line of models: a version of it (`DeepseekV32ForCausalLM` of `DeepseekV3ForCausalLM`),
    or of its lineage and task (`InternS1_1_ForConditionalGeneration` of `InternS1ProForConditionalGeneration`)?
    Not `MistralForCausalLM` of `LlamaForCausalLM`: another model that reuses the code."""
    return _versions(name, kin) or _one_lineage_and_task(name, kin)


def _unversioned(name: str) -> str:
    """A name's stem without its version (`Kestrel_Nano_VL` of `Kestrel_Nano_VL_V3`, `Deepseek` of
    `DeepseekV32ForCausalLM`), for names `variant` cannot compare (no task suffix)."""
    base = stem(name)
    match = VERSION.fullmatch(base)
    return match.group(1) if match else base


@dataclass(frozen=True)
class Kinship:
    """Implementations, class edges and list company of the registered names."""

    implementations: Mapping[str, str] = field(default_factory=dict)  # name -> `module:Class` when written
    classes: Mapping[str, Tuple[ClassEdge, ...]] = field(default_factory=dict)  # class -> edges it is the child of
    registered_class: Mapping[str, str] = field(default_factory=dict)  # name -> the class that serves it
    # name -> which of the project's lists hold it (their positions): list company, linear in the lists' size,
    # where the count of every pair held together would be quadratic in a list's length
    company: Mapping[str, FrozenSet[int]] = field(default_factory=dict)
    related: Mapping[str, FrozenSet[str]] = field(default_factory=dict)  # name -> names any evidence ties to it
    # class -> the backbones its module imports from another model's module, with that model's class
    backbones: Mapping[str, Tuple["Backbone", ...]] = field(default_factory=dict)
    # class -> the one served language model it builds whole as its own (`self.language_model = X(...)`)
    wraps: Mapping[str, Wrapping] = field(default_factory=dict)
    # registered class -> the config class it is built with, where that config builds a few served models only
    configs: Mapping[str, ConfigUse] = field(default_factory=dict)
    # served class -> does its code build mixture-of-experts layers (its module or a base's imports one)
    experts: Mapping[str, bool] = field(default_factory=dict)
    # names some registration serves with a class that builds mixture-of-experts layers (not always the first:
    # lmdeploy registers a name in its calibration registry, then in its model map)
    moe_names: FrozenSet[str] = frozenset()
    # names that name no task, served by a class of the project with no generation head: embedding models (`headless`)
    headless: FrozenSet[str] = frozenset()
    # served classes that build no model (`code.no_models`): what they share is how something else (a converter)
    # treats the names, not code the models run
    no_models: FrozenSet[str] = frozenset()
    families: Tuple[Family, ...] = ()  # the families ARC101 holds collections to
    siblings: Tuple[Tuple[str, str], ...] = ()  # the suffix pairs ARC104 completes (`siblings`)

    def builds_a_model(self, name: str) -> bool:
        """May the class serving `name` build a model (`no_models`)? A name registered without a class may."""
        return self.registered_class.get(name, name) not in self.no_models

    def builds_experts(self, name: str) -> Optional[bool]:
        """Does the code that serves `name` build mixture-of-experts layers? None where its class's module is
        not known (a host's name, a name registered without a class): only the code says, never the spelling."""
        if name in self.moe_names:
            return True
        return self.experts.get(self.registered_class.get(name, name))

    def appears(self, name: str) -> int:
        """How many of the project's lists hold `name`."""
        return len(self.company.get(name, _NO_LISTS))

    def together(self, name: str, other: str) -> int:
        """How many of the project's lists hold both names."""
        if name == other:
            return 0
        return len(self.company.get(name, _NO_LISTS) & self.company.get(other, _NO_LISTS))

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

    def subclasses(self, name: str, kin: str) -> bool:
        """Does the class serving `name` name the class serving `kin` among its own bases (`class Y(X):`, with
        methods of its own or none; not `Y = X`)?"""
        kin_cls = self.registered_class.get(kin, kin)
        return any(edge.base == kin_cls and edge.methods >= 0
                   for edge in self.classes.get(self.registered_class.get(name, name), ()))

    def another_name_of(self, name: str, held: Iterable[str]) -> str:
        """The held name `name` is a second name of, or "": registered to that name's class, an alias, of its
        lineage and its task, and the next version of no held name of that class (`Kestrel_Nano_VL_V3` beside
        `Kestrel_Nano_VL_V2`): one model under two checkpoint names, where another alias
        is often another model that reuses the code (`AquilaForCausalLM` for Llama's class). ARC105 asks
        for it only in the part of the project the registry is in (`rules/arc105_kin_missing.py`)."""
        mine = self.implementations.get(name)
        if not mine or not self.is_alias(name):
            return ""
        same_class = [kin for kin in sorted(held) if kin != name and self.implementations.get(kin) == mine]
        if any(_versions(name, kin) for kin in same_class):
            return ""  # the next version of a held model, served by its class for now: another model
        return next((kin for kin in same_class if _one_lineage_and_task(name, kin)), "")

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
        composed = self._composes(held_classes, held)
        mine, cls = self.implementations.get(name), self.registered_class.get(name, name)
        bases = self._bases.get(cls, _NONE)
        ties = self.backbones.get(cls, ()) if composed else ()
        wraps = self.wraps.get(cls) if composed else None
        found: List[Evidence] = []
        for kin in sorted(held):
            if mine and mine == self.implementations.get(kin):
                found.append(Evidence(IMPLEMENTATION, weights.SAME_CLASS,
                                      kin, f"runs the same implementation as '{kin}' ({mine})"))
            kin_cls = self.registered_class.get(kin, kin)
            if cls != kin_cls:
                kin_bases = self._bases.get(kin_cls, _NONE)
                if kin_cls in bases or cls in kin_bases or not bases.isdisjoint(kin_bases):  # else no edge ties them
                    adds_experts = self._adds_experts(cls, kin_cls, held)
                    found += self._classes(cls, kin_cls, kin, held_classes, adds_experts)
            for tie in ties:
                if tie.owner == kin_cls:
                    # The decoder stack is the other model's code: weaker than a thin subclass (the child
                    # adds its own encoder and forward), as strong as what a subclass that overrides shares.
                    found.append(Evidence(BACKBONE, weights.BUILDS_ON_BACKBONE,
                                          kin, f"builds on the backbone of '{kin}' (imports "
                                               f"{tie.backbone} from {place(tie.path)})"))
            if wraps is not None and wraps.owner == kin_cls:
                # The language model is the other's class itself, unchanged: as much as a subclass with no
                # method of its own, for what the subject is about (it holds a model so built beside it).
                found.append(Evidence(WRAPS, weights.BUILDS_WHOLE, kin,
                                      f"builds '{kin}' whole as its language model ({place(wraps.path, wraps.line)})"))
            use, kin_use = self.configs.get(cls), self.configs.get(kin_cls)
            if use and kin_use and use.config == kin_use.config and cls != kin_cls:
                # Weak alone: a config class says what the checkpoint holds, not what code runs it.
                found.append(Evidence(CONFIG_CLASS, weights.SHARES_A_CONFIG,
                                      kin, f"is built with the same config class {use.config} "
                                           f"as '{kin}' ({place(kin_use.path, kin_use.line)})"))
            spelt = variant(name, kin)
            if spelt:
                found.append(Evidence(VARIANT, weights.VARIANTS[spelt], kin, VARIANT_TEXTS[spelt].format(kin=kin)))
            support = self.appears(kin)
            both = self.together(kin, name) if support >= MIN_SUPPORT else 0
            if support >= MIN_SUPPORT and both / support >= MIN_CONFIDENCE:
                # Weak alone (replayed history confirmed none of the findings it made by itself), it
                # corroborates what the code says: the project treats the two alike.
                found.append(Evidence(COOCCURRENCE, weights.IN_COMPANY, kin,
                                      f"appears with '{kin}' in {both} of the {support} lists that hold it"))
        found += gaps(name, held)
        return sorted(found, key=lambda e: (-e.weight, e.kind, e.kin))

    def _composes(self, held_classes: FrozenSet[str], held: AbstractSet[str]) -> bool:
        """Does a subject hold a model beside the model whose backbone it builds on (`Qwen3VLMoe` and `Qwen3Moe`),
        or beside the model it builds whole (`JetVLM` and `JetNemotron`, that model held by its own name: a
        wrapper of Llama's class says nothing beside Mistral, which a registry serves with that class)?

        Then it treats a composed model as its backbone, and a missing one is drift. A subject that
        holds none may list composed models for what they add (a vision tower, a backend's own
        reader), and a backbone says nothing there.
        """
        return any(tie.owner in held_classes for cls in held_classes for tie in self.backbones.get(cls, ())) \
            or any(cls in self.wraps and self.wraps[cls].owner in held for cls in held_classes)

    def _adds_experts(self, cls: str, kin_cls: str, held: AbstractSet[str]) -> bool:
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
        which is why the mamba lists hold it). A held name is dense when no class that serves it builds
        experts, whichever registration comes first.
        """
        if not self.experts.get(kin_cls) or self.experts.get(cls, True) or variant(kin_cls, cls) != "moe":
            return False
        return any(self.experts.get(h_cls) is False and h not in self.moe_names
                   for h in held for h_cls in (self.registered_class.get(h, h),) if h_cls != kin_cls)

    def held_beside_its_class(self, name: str, held: Iterable[str]) -> str:
        """The held name whose class serves `name`, a second spelling that is a version of it, where
        `MIN_TOGETHER` of the project's lists hold the two; or "". The next version of a model, served by its
        class for now, is another model (`another_name_of`), but one the project treats as that model where
        its lists hold both (vLLM's MoE benchmark chains and `DeepseekV32ForCausalLM`, served by
        `DeepseekV3ForCausalLM`'s class): unlike another model reusing the code (`MistralForCausalLM` for
        Llama's class, `InternS1ForConditionalGeneration` for InternVL's), which a list may leave out on
        purpose however often others hold both."""
        cls = self.registered_class.get(name, name)
        return next((h for h in sorted(held) if self.registered_class.get(h, h) == cls and h != name
                     and _versions(name, h) and self.together(name, h) >= MIN_TOGETHER), "")

    def served_ancestors(self, name: str) -> FrozenSet[str]:
        """The served classes the class serving `name` subclasses, however far up (`InternS2PreviewFor...`
        subclasses `Qwen3_5MoeForConditionalGeneration`, which subclasses `Qwen3_5ForConditionalGeneration`):
        whose code it runs, whatever its name says."""
        return frozenset(ancestors(self.registered_class.get(name, name), self.classes) & self._served)

    @functools.cached_property
    def model_class(self) -> Dict[str, str]:
        """Each name's class, where it may build a model: what a model object of that name is an instance of
        (a table looked up with `type(model).__name__` is asked for it). Where the registry's class builds none
        (a converter's), the model object is something else, spelt as the architecture is."""
        return {n: c for n, c in self.registered_class.items() if c not in self.no_models}

    @functools.cached_property
    def _served(self) -> FrozenSet[str]:
        return frozenset(self.registered_class.values())

    @functools.cached_property
    def _bases(self) -> Dict[str, FrozenSet[str]]:
        """Each class's bases: most pairs of names share no edge, and this says so without walking them."""
        return {cls: frozenset(e.base for e in edges) for cls, edges in self.classes.items()}

    def _classes(self, cls: str, kin_cls: str, kin: str, held_classes: FrozenSet[str],
                 adds_experts: bool = False) -> Iterable[Evidence]:
        for edge in self.classes.get(cls, ()):
            if edge.base == kin_cls:
                where = place(edge.path, edge.line)
                if edge.methods < 0:
                    yield Evidence(IMPLEMENTATION, weights.SAME_CLASS,
                                   kin, f"is an alias of '{kin}' (`{cls} = {kin_cls}` at {where})")
                elif edge.methods == 0:
                    yield Evidence(SUBCLASS, weights.THIN_SUBCLASS,
                                   kin, f"runs the code of '{kin}' (`class {cls}({kin_cls})` "
                                        f"defines no method, at {where})")
                else:
                    yield Evidence(SUBCLASS, weights.SUBCLASS_OVERRIDING,
                                   kin, f"subclasses '{kin}' (`class {cls}({kin_cls})` at {where})")
        for edge in self.classes.get(kin_cls, ()):
            if edge.base == cls and adds_experts:
                # The held subclass adds experts the subject does not select: it is held for the code it
                # shares with its base, which says as much of the base as a subclass says of its own base.
                yield Evidence(SUBCLASS, weights.THIN_SUBCLASS if edge.methods == 0 else weights.SUBCLASS_OVERRIDING,
                               kin,
                               f"is the base of '{kin}' (`class {kin_cls}({cls})` at {place(edge.path, edge.line)}), "
                               f"which adds mixture-of-experts layers, and the subject holds dense models")
            elif edge.base == cls:
                yield Evidence(SUBCLASS, weights.BASE_OF_HELD,
                               kin, f"is the base of '{kin}' (`class {kin_cls}({cls})` at "
                                    f"{place(edge.path, edge.line)})")
        shared = {e.base for e in self.classes.get(cls, ())} & {e.base for e in self.classes.get(kin_cls, ())}
        # a base that is itself held says it once, as a subclass: not again through each of its children
        for base in sorted(b for b in shared if (b in self.classes or TASK.search(b)) and b not in held_classes
                           and b not in ROOT_BASES):
            yield Evidence(SHARED_BASE, weights.SHARES_A_BASE, kin, f"shares the base class {base} with '{kin}'")
