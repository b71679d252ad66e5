"""The gap and namesake evidence of ARC105, over hand-built values: no files, no parser.

A gap is a generation of a lineage between two the subject holds; a namesake is a list of the same
name in another module. fixtures/kinship/gap and fixtures/kinship/namesake run them end to end.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Dict, Optional, Sequence

from conftest import as_read
from lint_plugin.config import Config
from lint_plugin.resolve import Collection, Model, Occurrence, ResolvedSet
from lint_plugin.resolve.kinship import GAP, NAMESAKE, Evidence, build_kinship, gaps
from lint_plugin.resolve.namesakes import namesakes
from lint_plugin.resolve.values import Registration
from lint_plugin.rules.arc105_kin_missing import check, judge


def test_a_generation_between_two_held_ones_is_a_gap():
    assert gaps("Gemma3ForCausalLM", {"Gemma2ForCausalLM", "Gemma3nForCausalLM", "LlamaForCausalLM"}) == [
        Evidence(GAP, 0.75, "Gemma3nForCausalLM",
                 "is a generation between 'Gemma2ForCausalLM' and 'Gemma3nForCausalLM', which the subject holds")]
    assert gaps("Olmo2ForCausalLM", {"OlmoForCausalLM", "Olmo3ForCausalLM"})[0].kin == "Olmo3ForCausalLM"


def test_no_gap_outside_the_held_generations():
    held = {"Gemma2ForCausalLM", "Gemma3nForCausalLM"}
    assert gaps("GemmaForCausalLM", held) == []  # older than every held one
    assert gaps("Gemma4ForCausalLM", held) == []  # newer than every held one
    assert gaps("Gemma4ForCausalLM", {"Gemma2ForCausalLM", "Gemma3ForCausalLM"}) == []


def test_the_upper_bound_is_of_the_same_task_and_kind():
    # Qwen3-VL after Qwen2-VL, bounded only by the text Qwen3: another task, no gap
    assert gaps("Qwen3VLForConditionalGeneration", {"Qwen2VLForConditionalGeneration", "Qwen3ForCausalLM"}) == []
    # a newer generation of another kind of model (InternS2Mobius) bounds nothing of InternS1's line
    assert gaps("InternS1_1_ForConditionalGeneration",
                {"InternS1ForConditionalGeneration", "InternS2MobiusForConditionalGeneration"}) == []
    # at the same generation, only a variant of the name itself bounds it (Gemma3n of Gemma3): Qwen3-Omni is
    # another kind of model than Qwen3-VL, and a list that holds it and Qwen2.5-VL skipped no VL generation
    assert gaps("Qwen3VLForConditionalGeneration", {"Qwen2_5_VLForConditionalGeneration",
                                                    "Qwen3OmniMoeForConditionalGeneration"}) == []


def test_digits_run_together_say_no_order():
    """DeepseekV32 is version 3.2, not 32: DeepseekV4 does not lie between V3 and it."""
    assert gaps("DeepseekV4ForCausalLM", {"DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM"}) == []


def _collection(subject: str, path: str, names: Sequence[str], scope: str = "module") -> Collection:
    return Collection(subject, path, 1, 1, ResolvedSet(tuple(Occurrence(n, path, 1, 5 + i)
                                                             for i, n in enumerate(names))), scope=scope)


def test_namesakes_are_lists_of_one_name_and_scope_in_other_modules():
    a = _collection("SUPPORTED", "a.py", ["LlamaForCausalLM"])
    b = _collection("SUPPORTED", "b.py", ["LlamaForCausalLM", "MistralForCausalLM"])
    same_file = _collection("SUPPORTED", "a.py", ["PhiForCausalLM"])
    inline_a = _collection("load#1", "a.py", ["LlamaForCausalLM", "PhiForCausalLM"], scope="inline")
    inline_b = _collection("load#1", "b.py", ["LlamaForCausalLM", "QwenForCausalLM"], scope="inline")
    found = namesakes([a, b, same_file, inline_a, inline_b])
    assert found[("b.py", "SUPPORTED")] == (a, same_file)
    assert found[("a.py", "SUPPORTED")] == (b,)
    assert ("a.py", "load#1") not in found  # an inline test is numbered where it is, not named


NAMES = ("LlamaForCausalLM", "MistralForCausalLM", "DbrxForCausalLM", "MixtralForCausalLM", "PhiForCausalLM")


def _model(*collections: Collection, served: Optional[Dict[str, str]] = None) -> Model:
    """The collections over a registry binding each name to its class (`served`; default: `NAMES`, Mistral
    on Llama's class)."""
    served = served or {n: "llama:LlamaForCausalLM" if n in NAMES[:2] else f"m:{n}" for n in NAMES}
    regs = [Registration(Occurrence(n, "registry.py", i + 1, 1), "_MODELS", cls)
            for i, (n, cls) in enumerate(served.items())]
    model = Model(Config(Path("/project")), tuple(collections), (), {}, {r.name: r.where for r in regs}, {},
                  (), (), ())
    return dataclasses.replace(model, kinship=build_kinship(regs, [], [c.members.names for c in collections]))


def test_a_namesake_that_lists_a_second_spelling_lifts_the_spelling_guard():
    first = _collection("_ACCEL_MODELS", "accel.py", ["LlamaForCausalLM", "MistralForCausalLM"])
    second = _collection("_ACCEL_MODELS", "accel_dist.py", ["LlamaForCausalLM", "DbrxForCausalLM"])
    verdict = judge(_model(first, second), second, "MistralForCausalLM")
    assert verdict.blocked == ""
    assert [e.kind for e in verdict.evidence] == ["implementation", NAMESAKE]
    assert verdict.reported("strong")
    # without the namesake, the table names each class once and is not told to hold a second spelling
    alone = _collection("_ACCEL_MODELS", "accel_dist.py", ["LlamaForCausalLM", "DbrxForCausalLM"])
    other = _collection("_OTHER", "accel.py", ["LlamaForCausalLM", "MistralForCausalLM"])
    assert judge(_model(other, alone), alone, "MistralForCausalLM").blocked == (
        "it is a second spelling of a served class and the subject holds none")


def test_lists_that_hold_a_next_version_beside_the_class_serving_it_lift_the_spelling_guard():
    """Two of the project's lists hold KestrelV2 (served by Kestrel's class) beside Kestrel: the project treats
    that spelling, a version of Kestrel, as the model its class serves, and a third list of Kestrel's is told
    of it (vLLM's MoE benchmark chains and `DeepseekV32ForCausalLM`, served by `DeepseekV3ForCausalLM`'s
    class). Magpie, served by the same class and held as often, is another lineage's model reusing the code:
    a list may leave it out on purpose, and the guard stands; so it does for one list, an anecdote."""
    served = {"KestrelForCausalLM": "kestrel:KestrelForCausalLM", "KestrelV2ForCausalLM": "kestrel:KestrelForCausalLM",
              "MagpieForCausalLM": "kestrel:KestrelForCausalLM", "PhiForCausalLM": "phi:PhiForCausalLM"}
    table = _collection("_TUNED", "bench.py", ["KestrelForCausalLM", "PhiForCausalLM"])
    first = _collection("_A", "a.py", ["KestrelForCausalLM", "KestrelV2ForCausalLM", "MagpieForCausalLM"])
    second = _collection("_B", "b.py", ["KestrelForCausalLM", "KestrelV2ForCausalLM", "MagpieForCausalLM",
                                        "PhiForCausalLM"])
    both = _model(first, second, table, served=served)
    assert judge(both, table, "KestrelV2ForCausalLM").blocked == ""
    assert judge(both, table, "MagpieForCausalLM").blocked == (
        "it is a second spelling of a served class and the subject holds none")
    assert [d.message for d in check(both)] == [
        "'KestrelV2ForCausalLM' may belong in _TUNED: it runs the same implementation as 'KestrelForCausalLM' "
        "(kestrel:KestrelForCausalLM); is a versioned variant of 'KestrelForCausalLM' (confidence 0.94)"]
    assert judge(_model(first, table, served=served), table, "KestrelV2ForCausalLM").blocked == (
        "it is a second spelling of a served class and the subject holds none")


def test_a_namesake_corroborates_and_is_never_enough_alone():
    """Copies drift on purpose too (a table kept beside the few model files that read it)."""
    full = _collection("VL_ARCHS", "archs.py", ["LlamaForCausalLM", "DbrxForCausalLM", "MixtralForCausalLM",
                                                "PhiForCausalLM"])
    copy = _collection("VL_ARCHS", "calibrate.py", ["LlamaForCausalLM", "DbrxForCausalLM", "MixtralForCausalLM"])
    model = _model(full, copy)
    assert check(model) == []
    verdict = judge(model, copy, "PhiForCausalLM")
    assert tuple(as_read(verdict.evidence)) == (
        Evidence(NAMESAKE, 0.5, "DbrxForCausalLM", "is held beside 'DbrxForCausalLM' by VL_ARCHS at archs.py:1, a "
                                                   "list of the same name (3 of this one's 3 names in common)"),)
    assert not verdict.reported("strong") and verdict.reported("all")
