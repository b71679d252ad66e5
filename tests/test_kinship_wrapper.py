"""Wrappers: a model class that builds another registered language model whole as its own.

The byte signal (`Signals.builds`, read where the scan finds a language model's name called) and the
kinship it gives (`Kinship.wraps`, evidence `wraps`), over hand-built values. The fixture
`kinship/wrapper` runs the whole engine.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

from conftest import as_read
from lint_plugin.config import Config
from lint_plugin.project.prefilter import Prefilter
from lint_plugin.resolve.kinship import WRAPS, ClassEdge, Evidence, Kinship, Wrapping, build_kinship
from lint_plugin.resolve.values import Occurrence, Registration


def builds(source: str) -> Sequence[str]:
    return sorted(Prefilter(Config(root=Path("/"))).signals(source.encode()).builds)


def test_an_attribute_of_a_class_built_from_a_language_model_is_read_with_its_line():
    source = ("from .lfm2 import Lfm2ForCausalLM\n"
              "\n"
              "\n"
              "class Lfm2VlForConditionalGeneration(\n"
              "    nn.Module,\n"
              "):\n"
              "    def __init__(self, config):\n"
              "        self.language_model: Lfm2ForCausalLM = Lfm2ForCausalLM(config.text_config)\n")
    assert builds(source) == ["Lfm2VlForConditionalGeneration:Lfm2ForCausalLM:8"]


def test_whatever_the_class_is_called():
    source = ("class NemotronH_Nano_VL_V2(EVS):\n"
              "    def __init__(self, config):\n"
              "        self.language_model = NemotronHForCausalLM(config.llm_config)\n")
    assert builds(source) == ["NemotronH_Nano_VL_V2:NemotronHForCausalLM:3"]


@pytest.mark.parametrize("source", [
    # at module level, in a function after the class, or bound to a local name: no class builds it
    "model = LlamaForCausalLM(config)\n",
    "class A(nn.Module):\n    pass\n\n\ndef load(config):\n    self.model = LlamaForCausalLM(config)\n",
    "class A(nn.Module):\n    def __init__(self, config):\n        model = LlamaForCausalLM(config)\n",
    # a class is defined, not built; a backbone (`LlamaModel`) is the backbone evidence's
    "class LlamaForCausalLM(nn.Module):\n    pass\n",
    "class A(nn.Module):\n    def __init__(self, config):\n        self.model = LlamaModel(config)\n",
])
def test_no_class_builds_a_language_model_whole(source):
    assert builds(source) == []


def registered(*names: str) -> Sequence[Registration]:
    return [Registration(Occurrence(n, "registry.py", i + 1, 1), "EntryClass") for i, n in enumerate(names)]


NAMES = registered("Lfm2ForCausalLM", "Lfm2VlForConditionalGeneration", "JetNemotronForCausalLM",
                   "JetVLMForConditionalGeneration", "Qwen2ForCausalLM", "ChatVLForConditionalGeneration")
BUILDS = [Wrapping("Lfm2VlForConditionalGeneration", "Lfm2ForCausalLM", "models/lfm2_vl.py", 11),
          Wrapping("JetVLMForConditionalGeneration", "JetNemotronForCausalLM", "models/jet_vlm.py", 9),
          Wrapping("ChatVLForConditionalGeneration", "Qwen2ForCausalLM", "models/chat_vl.py", 12),
          Wrapping("ChatVLForConditionalGeneration", "Lfm2ForCausalLM", "models/chat_vl.py", 14)]
PRECEDENT = ("JetNemotronForCausalLM", "JetVLMForConditionalGeneration")


def wraps(kinship: Kinship, name: str, *held: str) -> Sequence[Evidence]:
    return as_read(e for e in kinship.evidence(name, held) if e.kind == WRAPS)


def test_a_wrapper_is_kin_to_the_model_it_builds_where_the_subject_holds_one_beside_its_model():
    kinship = build_kinship(NAMES, [], [], builds=BUILDS)
    assert wraps(kinship, "Lfm2VlForConditionalGeneration", "Lfm2ForCausalLM", *PRECEDENT) == [
        Evidence(WRAPS, 0.85, "Lfm2ForCausalLM",
                 "builds 'Lfm2ForCausalLM' whole as its language model (models/lfm2_vl.py:11)")]
    assert "Lfm2VlForConditionalGeneration" in kinship.candidates({"Lfm2ForCausalLM"})


def test_without_a_wrapper_held_beside_its_model_a_wrapper_says_nothing():
    """A list of text models validated one by one says nothing of the wrappers around them."""
    kinship = build_kinship(NAMES, [], [], builds=BUILDS)
    assert wraps(kinship, "Lfm2VlForConditionalGeneration", "Lfm2ForCausalLM", "JetNemotronForCausalLM") == []


def test_a_class_that_builds_one_of_several_models_wraps_none():
    kinship = build_kinship(NAMES, [], [], builds=BUILDS)
    assert "ChatVLForConditionalGeneration" not in kinship.wraps
    assert wraps(kinship, "ChatVLForConditionalGeneration", "Qwen2ForCausalLM", *PRECEDENT) == []


def test_a_subclass_of_the_model_it_builds_counts_as_a_subclass_only():
    edges = [ClassEdge("Lfm2VlForConditionalGeneration", "Lfm2ForCausalLM", 3, "models/lfm2_vl.py", 7)]
    kinship = build_kinship(NAMES, edges, [], builds=BUILDS)
    assert "Lfm2VlForConditionalGeneration" not in kinship.wraps


def test_the_model_beside_a_held_wrapper_is_held_by_its_own_name():
    """A wrapper of Llama's class held beside Mistral, which the registry serves with that class, is no
    wrapper held beside the model it builds."""
    names = list(registered("LlamaForCausalLM", "Phi3VForCausalLM", "Qwen2ForCausalLM",
                            "Qwen2VLForConditionalGeneration")) + [
        Registration(Occurrence("MistralForCausalLM", "registry.py", 9, 1), "_MODELS", "llama:LlamaForCausalLM")]
    built = [Wrapping("Phi3VForCausalLM", "LlamaForCausalLM", "models/phi3v.py", 5),
             Wrapping("Qwen2VLForConditionalGeneration", "Qwen2ForCausalLM", "models/qwen2_vl.py", 5)]
    kinship = build_kinship(names, [], [], builds=built)
    held = ("MistralForCausalLM", "Phi3VForCausalLM", "Qwen2ForCausalLM")
    assert wraps(kinship, "Qwen2VLForConditionalGeneration", *held) == []
    assert wraps(kinship, "Qwen2VLForConditionalGeneration", *held, "LlamaForCausalLM") != []
