"""The weight of each kind of kinship evidence, in one place: the code weighs with it, the docs print it.

`ARC105`'s page shows `TABLE` as written here, so the reference cannot drift from what is weighed.
The weights were set by measurement (replayed history and the real trees in the CHANGELOG), and a
piece of evidence combines with the others as independent (`score.confidence`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

from .evidence import (
    BACKBONE,
    CONFIG_CLASS,
    COOCCURRENCE,
    GAP,
    IMPLEMENTATION,
    NAMESAKE,
    SAME_MODEL,
    SHARED_BASE,
    SLIP,
    SUBCLASS,
    VARIANT,
    WRAPS,
)

SAME_CLASS = 0.9  # a registry binds both names to one class, or `X = Y`
ANOTHER_NAME = 0.5  # ... and the names agree: one lineage, one task (a second checkpoint name of one model)
THIN_SUBCLASS = 0.85  # a subclass that defines no method runs its base's code
SUBCLASS_OVERRIDING = 0.6  # a subclass that overrides methods shares less
BASE_OF_HELD = 0.25  # the base of a held subclass: the subclass may be why the list exists
BUILDS_ON_BACKBONE = 0.7
BUILDS_WHOLE = 0.85  # builds the held model whole as its language model: that model's code, unchanged
SHARES_A_BASE = 0.25
SHARES_A_CONFIG = 0.25
GAP_IN_GENERATIONS = 0.75
SLIP_OF_A_COPY = 0.8
SAME_NAME_LIST = 0.5
IN_COMPANY = 0.25
VARIANTS = {  # by how the spelling varies (`names.variant`)
    "moe": 0.5,
    "version": 0.4,
    "vision": 0.4,
    "generation": 0.3,
    "earlier": 0.2,  # the unversioned name beside its versions: a list of DeepseekV2 and V3 moved on
}


@dataclass(frozen=True)
class Row:
    """One kind of evidence as the rule's page shows it."""

    kind: str
    weight: str
    when: str


TABLE: Tuple[Row, ...] = (
    Row(IMPLEMENTATION, f"{SAME_CLASS}", "a registry binds both names to one class "
        "(`\"MistralForCausalLM\": (\"llama\", \"LlamaForCausalLM\")`), or one class is the other (`X = Y`)"),
    Row(SAME_MODEL, f"{ANOTHER_NAME}", "and the names agree: a second name registered to the class of a held name, of "
        "its lineage and its task and no version of it (vLLM's `NemotronH_Nano_Omni_Reasoning_V3` for the class of "
        "`NemotronH_Nano_VL_V2`): one model under two checkpoint names; not `AquilaForCausalLM` for "
        "`LlamaForCausalLM`, another model that reuses the code. Weighed by the rule, in the part of the project "
        "the registry is in (its first two directories)"),
    Row(SUBCLASS, f"{THIN_SUBCLASS} / {SUBCLASS_OVERRIDING} / {BASE_OF_HELD}",
        "one class subclasses the other and defines no method / overrides some / is the base of a held "
        "subclass (as much as a subclass when the held one only adds mixture-of-experts layers and the "
        "subject holds dense models, read from the modules' imports)"),
    Row(SLIP, f"{SLIP_OF_A_COPY}", "the subject writes one name twice and lacks a spelling variant of it: a "
        "copied line whose rename was never finished"),
    Row(GAP, f"{GAP_IN_GENERATIONS}", "a generation between two the subject holds (Gemma3 where Gemma2 and "
        "Gemma3n are held)"),
    Row(BACKBONE, f"{BUILDS_ON_BACKBONE}", "its module imports the held model's backbone from that model's "
        "module (`from .qwen3 import Qwen3Model`); counted where the subject already holds a model so "
        "built beside the model it builds on"),
    Row(WRAPS, f"{BUILDS_WHOLE}", "its class builds the held model whole as its language model and no other "
        "(`self.language_model = Lfm2ForCausalLM(...)`); counted where the subject already holds a model so "
        "built beside the model it builds"),
    Row(NAMESAKE, f"{SAME_NAME_LIST}", "a list of the same name in another module holds it beside a name "
        "this one holds"),
    Row(VARIANT, " / ".join(f"{w}" for w in VARIANTS.values()),
        "its spelling varies a held name: dense/MoE, a numbered version, the vision-language twin, a newer "
        "generation, an earlier version"),
    Row(SHARED_BASE, f"{SHARES_A_BASE}", "both classes subclass one base"),
    Row(CONFIG_CLASS, f"{SHARES_A_CONFIG}", "both classes are built with one config class (`config: "
        "Qwen3MoeConfig` in `__init__`, `config_class = X`) that names a model and builds at most three "
        "served classes"),
    Row(COOCCURRENCE, f"{IN_COMPANY}", "most of the project's lists that hold the held name hold it too"),
)
