"""What belongs together, read from the code itself: kinship between registered architectures.

A list that holds one architecture usually means "this implementation", and another
architecture that runs the same code is what it forgot. The evidence, strongest first:

- one implementation: a registry binds both names to one class (vLLM's
  `"MistralForCausalLM": ("llama", "LlamaForCausalLM")`), or one is an alias of the other
  (`MistralForCausalLM = LlamaForCausalLM`);
- another name of a held model: one implementation, and the names agree (one lineage, one task:
  vLLM's `NemotronH_Nano_Omni_Reasoning_V3` for the class of `NemotronH_Nano_VL_V2`); the list
  holds that model already, so neither the kind guard nor the project's habit is asked (weighed by
  the rule, which sees where the list is: `Kinship.another_name_of`);
- a subclass of a held class that defines no method of its own runs that class's code
  (`class MistralForCausalLM(LlamaForCausalLM): pass`); one that overrides methods shares less;
  the base of a held subclass says little (the subclass may be why the list exists), unless the
  subclass adds mixture-of-experts layers and the list holds dense models too (read from imports);
- classes built on one base (`class DeepseekV3ForCausalLM(DeepseekV2ForCausalLM)` beside
  `class GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)`);
- a backbone: the module of one model imports another's backbone from that model's module
  (`from .qwen3 import Qwen3Model` in the module of `Qwen3VLForConditionalGeneration`): it
  builds its language model on the other's decoder stack, by composition instead of a subclass;
- a wrapper: a class builds another model whole as its language model (`self.language_model =
  Lfm2ForCausalLM(...)` in `Lfm2VlForConditionalGeneration`), and no other model;
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

Classes come from byte signals (`Signals.bases`, `Signals.configs`, `Signals.builds`), so model files read
for their registrations alone still say what they subclass and build. Nothing is imported or run. Some
registries bind names to classes that build no model (`Signals.roots`, `Signals.runs`: a copy of llama.cpp's
GGUF converter, whose classes define neither `forward` nor `__call__` down to a base-less root of the
project's own): `Kinship.no_models` names them, and the rules set aside what those classes share.
"""
from __future__ import annotations

from .build import Related, RelatedInputs, build_kinship, build_kinship_from, related_inputs, with_host_edges
from .evidence import (
    BACKBONE,
    CONFIG_CLASS,
    COOCCURRENCE,
    FAMILY,
    GAP,
    IMPLEMENTATION,
    MAX_CONFIG_USERS,
    MIN_CONFIDENCE,
    MIN_SUPPORT,
    MIN_TOGETHER,
    NAMESAKE,
    ROOT_BASES,
    SAME_MODEL,
    SHARED_BASE,
    SIBLING,
    SLIP,
    SUBCLASS,
    VARIANT,
    WRAPS,
    Backbone,
    ClassEdge,
    ConfigUse,
    Evidence,
    Family,
    ModuleClasses,
    Wrapping,
    parse_builds,
    parse_configs,
    parse_edges,
)
from .model import Kinship, of_one_line
from .names import gaps, missing_siblings, sibling_pair, siblings_of, slips, spells_experts, variant
from .score import confidence, corroborated

__all__ = [
    "BACKBONE", "CONFIG_CLASS", "COOCCURRENCE", "FAMILY", "GAP", "IMPLEMENTATION", "MAX_CONFIG_USERS", "MIN_CONFIDENCE",
    "MIN_SUPPORT", "MIN_TOGETHER", "NAMESAKE", "ROOT_BASES", "SAME_MODEL", "SHARED_BASE", "SIBLING", "SLIP", "SUBCLASS",
    "VARIANT", "WRAPS",
    "Backbone", "ClassEdge", "ConfigUse", "Evidence", "Family", "Kinship", "ModuleClasses", "Related", "RelatedInputs",
    "Wrapping",
    "build_kinship", "build_kinship_from", "confidence", "corroborated", "gaps", "missing_siblings", "of_one_line",
    "parse_builds", "parse_configs", "parse_edges", "related_inputs", "sibling_pair", "siblings_of", "slips",
    "spells_experts", "variant", "with_host_edges",
]
