"""Kinship over hand-built values: the ties the project states (families, sibling pairs) and shared bases.

A family (ARC101) and a sibling pair (ARC104) are the two special cases of kinship that their own
rules decide; `Kinship.declared` names them for `archsync why`, and ARC105 does not weigh them.
`archsync why` runs them end to end in tests/test_kinship.py.
"""
from __future__ import annotations

from typing import Sequence

from lint_plugin.resolve import Occurrence
from lint_plugin.resolve.kinship import (
    FAMILY,
    SHARED_BASE,
    SIBLING,
    ClassEdge,
    Evidence,
    Family,
    Kinship,
    build_kinship,
    missing_siblings,
    sibling_pair,
)
from lint_plugin.resolve.values import Registration

SIBLINGS = (("ForConditionalGeneration", "ForCausalLM"),)


def kinship(names: Sequence[str], edges: Sequence[ClassEdge] = (), families: Sequence[Family] = ()) -> Kinship:
    registrations = [Registration(Occurrence(n, "models.py", i + 1, 1), "EntryClass") for i, n in enumerate(names)]
    return build_kinship(registrations, edges, [], families=families, siblings=SIBLINGS)


def test_a_sibling_pair_goes_both_ways_and_needs_the_same_stem():
    assert sibling_pair("Gemma3ForCausalLM", "Gemma3ForConditionalGeneration", SIBLINGS) == (
        "ForConditionalGeneration", "ForCausalLM")
    assert sibling_pair("Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", SIBLINGS) == (
        "ForCausalLM", "ForConditionalGeneration")
    assert sibling_pair("Gemma2ForCausalLM", "Gemma3ForConditionalGeneration", SIBLINGS) is None
    assert sibling_pair("ForCausalLM", "ForConditionalGeneration", SIBLINGS) is None  # no stem


def test_missing_siblings_are_registered_and_not_held():
    registered = {"Gemma3ForCausalLM": 1, "Gemma3ForConditionalGeneration": 1, "Qwen2ForCausalLM": 1}
    assert missing_siblings({"Gemma3ForConditionalGeneration", "Qwen2ForCausalLM"}, registered, SIBLINGS) == [
        ("Gemma3ForConditionalGeneration", "Gemma3ForCausalLM")]
    assert missing_siblings({"Gemma3ForConditionalGeneration", "Gemma3ForCausalLM"}, registered, SIBLINGS) == []


def test_declared_names_the_family_once_with_every_held_member_and_the_sibling():
    family = Family("is_qwen3_5() (configs.py:3)", frozenset({
        "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration", "Qwen3_5ForCausalLM"}))
    kin = kinship(sorted(family.names) + ["Qwen3NextForCausalLM"], families=[family])
    held = {"Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration", "Qwen3NextForCausalLM"}
    assert kin.declared("Qwen3_5ForCausalLM", held) == [
        Evidence(FAMILY, 1.0, "Qwen3_5ForConditionalGeneration",
                 "is matched by is_qwen3_5() (configs.py:3), as 'Qwen3_5ForConditionalGeneration', "
                 "'Qwen3_5MoeForConditionalGeneration' the subject holds"),
        Evidence(SIBLING, 1.0, "Qwen3_5ForConditionalGeneration",
                 "is the sibling of 'Qwen3_5ForConditionalGeneration' (the suffixes ForConditionalGeneration and "
                 "ForCausalLM of `siblings`)"),
    ]
    assert kin.declared("Qwen3NextForCausalLM", {"Qwen3_5ForConditionalGeneration"}) == []


def test_arc105_does_not_weigh_what_the_project_states():
    kin = kinship(["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM"])
    assert kin.evidence("Gemma3ForCausalLM", {"Gemma3ForConditionalGeneration"}) == []
    assert [e.kind for e in kin.declared("Gemma3ForCausalLM", {"Gemma3ForConditionalGeneration"})] == [SIBLING]


def test_a_model_specific_base_is_shared_and_transformers_root_class_is_not():
    names = ["Gemma3ForCausalLM", "Gemma3ForConditionalGeneration", "PaliGemmaForConditionalGeneration"]
    edges = [ClassEdge("Gemma3ForCausalLM", "Gemma3PreTrainedModel", 2, "gemma3.py", 10),
             ClassEdge("Gemma3ForConditionalGeneration", "Gemma3PreTrainedModel", 3, "gemma3.py", 40),
             ClassEdge("Gemma3ForConditionalGeneration", "PreTrainedModel", 3, "gemma3.py", 40),
             ClassEdge("PaliGemmaForConditionalGeneration", "PreTrainedModel", 3, "paligemma.py", 8)]
    kin = kinship(names, edges)
    assert kin.evidence("Gemma3ForCausalLM", {"Gemma3ForConditionalGeneration"}) == [
        Evidence(SHARED_BASE, 0.25, "Gemma3ForConditionalGeneration",
                 "shares the base class Gemma3PreTrainedModel with 'Gemma3ForConditionalGeneration'")]
    assert kin.evidence("PaliGemmaForConditionalGeneration", {"Gemma3ForConditionalGeneration"}) == []
    assert "PaliGemmaForConditionalGeneration" not in kin.related.get("Gemma3ForConditionalGeneration", ())
