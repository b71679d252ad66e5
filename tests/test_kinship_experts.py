"""The dense base of a held MoE subclass, over hand-built values: no files, no parser.

A list that holds a subclass may exist for what the subclass adds, so the base of a held subclass
weighs little; where the subclass adds mixture-of-experts layers (read from the modules' imports)
and the list also holds dense models, the experts are not why it is held.
"""
from __future__ import annotations

from typing import Sequence

from lint_plugin.resolve import Occurrence
from lint_plugin.resolve.kinship import SUBCLASS, ClassEdge, Evidence, ModuleClasses, build_kinship
from lint_plugin.resolve.values import Registration


def registered(*names: str) -> Sequence[Registration]:
    return [Registration(Occurrence(n, "registry.py", i + 1, 1), "EntryClass") for i, n in enumerate(names)]


def module(path: str, imported: Sequence[str], *defined: str) -> ModuleClasses:
    return ModuleClasses(path, frozenset(imported), frozenset(defined))


QWEN2 = module("models/qwen2.py", ["nn"], "Qwen2ForCausalLM")
DEEPSEEK = module("models/deepseek_v3.py", ["nn", "FusedMoE"], "DeepseekV3ForCausalLM")
MISTRAL_LARGE = module("models/mistral_large.py", ["DeepseekV3ForCausalLM"], "MistralLarge3ForCausalLM")
KIMI = module("models/kimi_vl.py", ["nn", "DeepseekV3ForCausalLM"], "KimiVLForConditionalGeneration")
GLM4V = module("models/glm4v.py", ["nn"], "Glm4vForConditionalGeneration")
GLM4V_MOE = module("models/glm4v_moe.py", ["Glm4vForConditionalGeneration", "FusedMoE"],
                   "Glm4vMoeForConditionalGeneration")
MODULES = [QWEN2, DEEPSEEK, MISTRAL_LARGE, KIMI, GLM4V, GLM4V_MOE]
EDGES = [ClassEdge("Qwen2ForCausalLM", "Module", 2, QWEN2.path, 4),
         ClassEdge("DeepseekV3ForCausalLM", "Module", 2, DEEPSEEK.path, 4),
         ClassEdge("MistralLarge3ForCausalLM", "DeepseekV3ForCausalLM", 1, MISTRAL_LARGE.path, 4),
         ClassEdge("KimiVLForConditionalGeneration", "Module", 2, KIMI.path, 4),
         ClassEdge("Glm4vForConditionalGeneration", "Module", 2, GLM4V.path, 4),
         ClassEdge("Glm4vMoeForConditionalGeneration", "Glm4vForConditionalGeneration", 2, GLM4V_MOE.path, 5)]
NAMES = registered("Qwen2ForCausalLM", "DeepseekV3ForCausalLM", "MistralLarge3ForCausalLM",
                   "KimiVLForConditionalGeneration", "Glm4vForConditionalGeneration",
                   "Glm4vMoeForConditionalGeneration", "Phi3ForCausalLM")
KINSHIP = build_kinship(NAMES, EDGES, [], MODULES)


def test_a_class_builds_experts_by_its_imports_its_bases_or_the_model_it_composes():
    assert KINSHIP.experts == {
        "Qwen2ForCausalLM": False, "DeepseekV3ForCausalLM": True,
        "MistralLarge3ForCausalLM": True,  # by its base
        "KimiVLForConditionalGeneration": True,  # by the MoE model its module imports
        "Glm4vForConditionalGeneration": False, "Glm4vMoeForConditionalGeneration": True,
    }  # Phi3ForCausalLM: no class edge, its module is not known: neither


def base_of(*held: str) -> Sequence[Evidence]:
    return [e for e in KINSHIP.evidence("Glm4vForConditionalGeneration", held) if e.kind == SUBCLASS]


def test_the_dense_base_of_a_held_moe_subclass_weighs_as_a_subclass_where_dense_models_are_held():
    assert [e.weight for e in base_of("Glm4vMoeForConditionalGeneration", "Qwen2ForCausalLM")] == [0.6]


def test_a_list_of_moe_models_says_little_of_the_dense_base():
    """DeepSeek-V3, Mistral-Large-3 and Kimi-VL are MoE models whatever their names say."""
    assert [e.weight for e in base_of("Glm4vMoeForConditionalGeneration", "DeepseekV3ForCausalLM",
                                      "MistralLarge3ForCausalLM", "KimiVLForConditionalGeneration")] == [0.25]


def test_a_model_whose_module_is_not_known_is_not_taken_for_a_dense_one():
    assert [e.weight for e in base_of("Glm4vMoeForConditionalGeneration", "Phi3ForCausalLM")] == [0.25]


def test_a_subclass_that_is_not_the_bases_moe_variant_by_name_may_be_held_for_something_else():
    """Qwen3.5's module defines its MoE model too, so it imports MoE layers; the dense Qwen3.5 adds hybrid
    linear-attention layers to Qwen3-VL, which is why a mamba list holds it and not Qwen3-VL."""
    vl = module("models/qwen3_vl.py", ["nn"], "Qwen3VLForConditionalGeneration")
    hybrid = module("models/qwen3_5.py", ["Qwen3VLForConditionalGeneration", "FusedMoE"],
                    "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration")
    edges = [ClassEdge("Qwen2ForCausalLM", "Module", 2, QWEN2.path, 4),
             ClassEdge("Qwen3VLForConditionalGeneration", "Module", 2, vl.path, 4),
             ClassEdge("Qwen3_5ForConditionalGeneration", "Qwen3VLForConditionalGeneration", 2, hybrid.path, 9)]
    kinship = build_kinship(registered("Qwen2ForCausalLM", "Qwen3VLForConditionalGeneration",
                                       "Qwen3_5ForConditionalGeneration"), edges, [], [QWEN2, vl, hybrid])
    assert kinship.experts["Qwen3_5ForConditionalGeneration"] is True
    evidence = kinship.evidence("Qwen3VLForConditionalGeneration", {"Qwen3_5ForConditionalGeneration",
                                                                     "Qwen2ForCausalLM"})
    assert [(e.kind, e.weight) for e in evidence if e.kind == SUBCLASS] == [(SUBCLASS, 0.25)]


def test_a_name_another_registration_serves_with_experts_is_no_dense_model():
    """lmdeploy registers `InternS2PreviewForConditionalGeneration` first in its calibration registry (a class
    of its own, no MoE layer imported there), then in its model map with Qwen3.5-MoE's class: an MoE model."""
    calibration = module("lite/model/qwen.py", ["nn"], "InternS2PreviewForConditionalGeneration")
    edges = EDGES + [ClassEdge("InternS2PreviewForConditionalGeneration", "Module", 2, calibration.path, 9)]
    names = list(NAMES) + [
        Registration(Occurrence("InternS2PreviewForConditionalGeneration", "lite/model/qwen.py", 9, 1), "@MODELS"),
        Registration(Occurrence("InternS2PreviewForConditionalGeneration", "models/module_map.py", 3, 1),
                     "MODULE_MAP", "models.glm4v_moe:Glm4vMoeForConditionalGeneration")]
    kinship = build_kinship(names, edges, [], MODULES + [calibration])
    assert kinship.experts["InternS2PreviewForConditionalGeneration"] is False  # its first registration's class
    assert kinship.moe_names == frozenset({"DeepseekV3ForCausalLM", "MistralLarge3ForCausalLM",
                                           "KimiVLForConditionalGeneration", "Glm4vMoeForConditionalGeneration",
                                           "InternS2PreviewForConditionalGeneration"})
    held = ("Glm4vMoeForConditionalGeneration", "InternS2PreviewForConditionalGeneration")
    assert [e.weight for e in kinship.evidence("Glm4vForConditionalGeneration", held) if e.kind == SUBCLASS] == [0.25]
