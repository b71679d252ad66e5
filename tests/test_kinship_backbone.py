"""The backbone evidence of the kinship model, over hand-built values: no files, no parser.

A model whose module imports another model's backbone (`from .qwen3 import Qwen3Model`) runs that
model's decoder stack; a borrowed component, an ambiguous import or a module of its own does not.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Sequence

from conftest import as_read
from lint_plugin.config import Config
from lint_plugin.resolve import Collection, Model, Occurrence, ResolvedSet
from lint_plugin.resolve.kinship import BACKBONE, ClassEdge, Evidence, Kinship, ModuleClasses, build_kinship
from lint_plugin.resolve.values import Registration
from lint_plugin.rules.arc105_kin_missing import judge


def registered(*names: str) -> Sequence[Registration]:
    return [Registration(Occurrence(n, "registry.py", i + 1, 1), "EntryClass") for i, n in enumerate(names)]


def edge(child: str, path: str) -> ClassEdge:
    return ClassEdge(child, "Module", 2, path, 5)


QWEN3 = ModuleClasses("models/qwen3.py", frozenset({"nn"}), frozenset({"Qwen3Model", "Qwen3ForCausalLM"}))
QWEN3_VL = ModuleClasses("models/qwen3_vl.py", frozenset({"Qwen3Model", "nn"}),
                         frozenset({"Qwen3VLForConditionalGeneration", "Qwen3VLVisionModel"}))
QWEN3_MOE = ModuleClasses("models/qwen3_moe.py", frozenset(), frozenset({"Qwen3MoeModel", "Qwen3MoeForCausalLM"}))
QWEN3_VL_MOE = ModuleClasses("models/qwen3_vl_moe.py", frozenset({"Qwen3MoeModel"}),
                             frozenset({"Qwen3VLMoeForConditionalGeneration"}))
MODULES = [QWEN3, QWEN3_VL, QWEN3_MOE, QWEN3_VL_MOE]
EDGES = [edge("Qwen3ForCausalLM", QWEN3.path), edge("Qwen3Model", QWEN3.path),
         edge("Qwen3VLForConditionalGeneration", QWEN3_VL.path), edge("Qwen3MoeForCausalLM", QWEN3_MOE.path),
         edge("Qwen3VLMoeForConditionalGeneration", QWEN3_VL_MOE.path)]
NAMES = registered("Qwen3ForCausalLM", "Qwen3VLForConditionalGeneration", "Qwen3MoeForCausalLM",
                   "Qwen3VLMoeForConditionalGeneration")
COMPOSED = ("Qwen3ForCausalLM", "Qwen3MoeForCausalLM", "Qwen3VLMoeForConditionalGeneration")


def backbone_evidence(kinship: Kinship, name: str, *held: str) -> Sequence[Evidence]:
    return as_read(e for e in kinship.evidence(name, held) if e.kind == BACKBONE)


def test_a_model_that_imports_another_models_backbone_builds_on_it():
    kinship = build_kinship(NAMES, EDGES, [], MODULES)
    assert backbone_evidence(kinship, "Qwen3VLForConditionalGeneration", *COMPOSED) == [
        Evidence(BACKBONE, 0.7, "Qwen3ForCausalLM",
                 "builds on the backbone of 'Qwen3ForCausalLM' (imports Qwen3Model from models/qwen3.py)")]
    assert "Qwen3VLForConditionalGeneration" in kinship.candidates({"Qwen3ForCausalLM"})


def test_a_backbone_counts_only_where_the_subject_holds_a_composed_model_beside_its_backbone():
    """A list of Qwen3 alone may list vision models for their vision tower: composition says nothing there."""
    kinship = build_kinship(NAMES, EDGES, [], MODULES)
    assert backbone_evidence(kinship, "Qwen3VLForConditionalGeneration", "Qwen3ForCausalLM") == []
    assert backbone_evidence(kinship, "Qwen3VLForConditionalGeneration", "Qwen3ForCausalLM",
                             "Qwen3VLMoeForConditionalGeneration") == []


def test_a_subclass_of_the_owner_counts_once_as_a_subclass():
    child = ModuleClasses("models/qwen3_sub.py", frozenset({"Qwen3Model"}), frozenset({"Qwen3SubForCausalLM"}))
    kinship = build_kinship([*NAMES, *registered("Qwen3SubForCausalLM")],
                            [*EDGES, ClassEdge("Qwen3SubForCausalLM", "Qwen3ForCausalLM", 3, child.path, 4)],
                            [], [*MODULES, child])
    assert "Qwen3SubForCausalLM" not in kinship.backbones


def test_the_backbone_says_nothing_the_other_way():
    """Qwen3 does not run Qwen3-VL's code: a list of the VL model is not told to hold the text one by it."""
    kinship = build_kinship(NAMES, EDGES, [], MODULES)
    assert backbone_evidence(kinship, "Qwen3ForCausalLM", "Qwen3VLForConditionalGeneration", *COMPOSED[1:]) == []


def test_a_borrowed_component_is_not_a_backbone():
    llama = ModuleClasses("models/llama.py", frozenset(), frozenset({"LlamaMLP", "LlamaModel", "LlamaForCausalLM"}))
    llava = ModuleClasses("models/llava.py", frozenset({"LlamaMLP"}), frozenset({"LlavaForConditionalGeneration"}))
    kinship = build_kinship(registered("LlamaForCausalLM", "LlavaForConditionalGeneration"),
                            [edge("LlamaForCausalLM", llama.path), edge("LlavaForConditionalGeneration", llava.path)],
                            [], [llama, llava])
    assert backbone_evidence(kinship, "LlavaForConditionalGeneration", "LlamaForCausalLM") == []


def test_a_backbone_defined_in_two_modules_is_not_known_to_be_either():
    other = ModuleClasses("legacy/qwen3.py", frozenset(), frozenset({"Qwen3Model"}))
    kinship = build_kinship(NAMES, EDGES, [], [*MODULES, other])
    assert backbone_evidence(kinship, "Qwen3VLForConditionalGeneration", *COMPOSED) == []


def test_without_modules_there_is_no_backbone():
    kinship = build_kinship(NAMES, EDGES, [])
    assert kinship.backbones == {}



def test_a_backbone_reached_through_a_held_second_spelling_says_nothing_of_the_class():
    """A ROCm table that names `MistralForCausalLM` (a spelling of Llama's class) is about that spelling's
    checkpoints: a model built on Llama's backbone is not asked for by it, as no subclass of Llama is."""
    llama = ModuleClasses("models/llama.py", frozenset(), frozenset({"LlamaModel", "LlamaForCausalLM"}))
    llava = ModuleClasses("models/llava.py", frozenset({"LlamaModel"}), frozenset({"LlavaForConditionalGeneration"}))
    qwen2 = ModuleClasses("models/qwen2.py", frozenset(), frozenset({"Qwen2Model", "Qwen2ForCausalLM"}))
    qwen2_vl = ModuleClasses("models/qwen2_vl.py", frozenset({"Qwen2Model"}),
                             frozenset({"Qwen2VLForConditionalGeneration"}))
    modules = [llama, llava, qwen2, qwen2_vl]
    names = [*registered("LlamaForCausalLM", "LlavaForConditionalGeneration", "Qwen2ForCausalLM",
                         "Qwen2VLForConditionalGeneration"),
             Registration(Occurrence("MistralForCausalLM", "registry.py", 9, 1), "_MODELS", "llama:LlamaForCausalLM")]
    kinship = build_kinship(names, [edge(cls, m.path) for m in modules for cls in sorted(m.defined)], [], modules)
    held = ("MistralForCausalLM", "Qwen2ForCausalLM", "Qwen2VLForConditionalGeneration")
    table = Collection("ROCM_SWA_ARCHS", "rocm.py", 1, 1,
                       ResolvedSet(tuple(Occurrence(n, "rocm.py", 1, 5 + i) for i, n in enumerate(held))))
    m = dataclasses.replace(Model(Config(Path("/project")), (table,), (), {}, {r.name: r.where for r in names}, {},
                                  (), (), ()), kinship=kinship)
    assert backbone_evidence(kinship, "LlavaForConditionalGeneration", *held) == [
        Evidence(BACKBONE, 0.7, "MistralForCausalLM",
                 "builds on the backbone of 'MistralForCausalLM' (imports LlamaModel from models/llama.py)")]
    assert judge(m, table, "LlavaForConditionalGeneration").blocked == (
        "it is tied only to 'MistralForCausalLM', a second spelling of a class the subject does not name: the "
        "subject is about that spelling's checkpoints")
