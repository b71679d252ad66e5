"""Each rule as a pure function of hand-built values: no files, no parser, milliseconds each.

The end-to-end cases (`fixtures/*/expected.txt`) show the rules on projects; these pin the
decisions inside each rule: when it speaks, what it names, and what it leaves to another.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from lint_plugin.config import Config, Exemption, Mirror, Subset
from lint_plugin.diagnostics import Diagnostic, FixRequest
from lint_plugin.report.exemptions import apply_exemptions
from lint_plugin.report.pairs import one_per_pair
from lint_plugin.resolve import Collection, Model, Occurrence, Predicate, ResolvedSet
from lint_plugin.resolve.kinship import SLIP, ClassEdge, ModuleClasses, slips
from lint_plugin.resolve.kinship.code import headless
from lint_plugin.resolve.said_kinds import SaidKinds
from lint_plugin.rules import BY_CODE, RULES, check
from lint_plugin.rules.fixes import rank_peers

ROOT = Path("/project")


def occ(name: str, path: str = "lists.py", line: int = 1, column: int = 1) -> Occurrence:
    return Occurrence(name, path, line, column)


def collection(subject: str, *names: str, path: str = "lists.py", line: int = 1,
               unknown: Sequence[str] = (), literal: Sequence[str] = ()) -> Collection:
    members = tuple(occ(n, path, line, 5 + i) for i, n in enumerate(names))
    written = (tuple(occ(n, path, line + 1 + i, 5) for i, n in enumerate(literal)),) if literal else (members,)
    return Collection(subject, path, line, 1, ResolvedSet(members, tuple(unknown)), written)


def family(subject: str, *names: str, path: str = "families.py", line: int = 10, own: Sequence[str] = (),
           delegates: Sequence[str] = (), unknown: Sequence[str] = (),
           conditions: Sequence[Tuple[str, str]] = ()) -> Predicate:
    written = tuple(occ(n, path, line + 1, 20 + i) for i, n in enumerate(own or names))
    return Predicate(f"pkg.families:{subject}", subject, path, line, 1, frozenset(names), written,
                     frozenset(delegates), tuple(unknown), tuple(conditions), (written,))


def model(collections: Sequence[Collection] = (), families: Sequence[Predicate] = (),
          registered: Sequence[str] = (), config: Optional[Config] = None,
          named: Optional[Dict[str, Collection]] = None,
          covers: Sequence[Tuple[Collection, Predicate]] = (), unanalysed: Sequence[Tuple[str, str]] = ()) -> Model:
    where = {name: occ(name, "models.py", 3 + i) for i, name in enumerate(registered)}
    return Model(config or Config(ROOT), tuple(collections), tuple(families), {f.subject: f for f in families}, where,
                 dict(named or {}), (), tuple(covers), tuple(families), tuple(unanalysed))


def lines(diagnostics: Sequence[Diagnostic]) -> list:
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.text}" for d in sorted(diagnostics)]


def run(code: str, m: Model) -> list:
    rule = BY_CODE[code]
    assert rule.check is not None
    return lines(rule.check(m))


QWEN = ("Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM")


# -- ARC101 family-member-missing ------------------------------------------------------------------

def test_arc101_a_collection_that_meets_a_family_must_hold_all_of_it():
    m = model([collection("X_ARCHS", QWEN[0])], [family("is_qwen3_5", *QWEN)], QWEN)
    assert run("ARC101", m) == [
        "lists.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (families.py:10) but missing from "
        "X_ARCHS"]


def test_arc101_a_collection_that_shares_no_name_with_a_family_is_not_its_business():
    m = model([collection("X_ARCHS", "KimiLinearForCausalLM")], [family("is_qwen3_5", *QWEN)], QWEN)
    assert run("ARC101", m) == []


def test_arc101_a_cover_needs_the_whole_family_without_an_overlap():
    gdn = family("hybrid_gdn_config", "Qwen3NextForCausalLM")
    whitelist = collection("X_ARCHS", "KimiLinearForCausalLM")
    m = model([whitelist], [], ["Qwen3NextForCausalLM", "KimiLinearForCausalLM"], covers=[(whitelist, gdn)])
    assert run("ARC101", m) == [
        "lists.py:1:1: ARC101 'Qwen3NextForCausalLM' is matched by hybrid_gdn_config() (families.py:10) but "
        "missing from X_ARCHS"]


def test_arc101_names_every_family_once_and_drops_a_delegate_whose_part_already_speaks():
    part = family("is_qwen3_5", *QWEN)
    whole = family("is_hybrid", *QWEN, path="hybrid.py", line=3, delegates=[part.key])
    other = family("is_qwen", *QWEN, path="alpha.py", line=7)
    m = model([collection("X_ARCHS", QWEN[0])], [whole, part, other], QWEN)
    assert run("ARC101", m) == [
        "lists.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen() (alpha.py:7) and is_qwen3_5() "
        "(families.py:10) but missing from X_ARCHS"]


def test_arc101_says_when_a_family_holds_a_name_only_under_a_condition():
    typed = family("mamba2_config", "NemotronHForCausalLM", "FalconH1ForCausalLM",
                   conditions=[("FalconH1ForCausalLM", "when config.is_draft")])
    m = model([collection("X_ARCHS", "NemotronHForCausalLM")], [typed], ["NemotronHForCausalLM",
                                                                          "FalconH1ForCausalLM"])
    assert run("ARC101", m) == [
        "lists.py:1:1: ARC101 'FalconH1ForCausalLM' is matched by mamba2_config() (families.py:10) "
        "[only when config.is_draft] but missing from X_ARCHS"]


# -- ARC102 mirror-drift -----------------------------------------------------------------------------

def test_arc102_each_name_is_reported_at_the_mirror_that_lacks_it():
    radix = collection("RADIX_ARCHS", "A1ForCausalLM", "B1ForCausalLM", line=1)
    extra = collection("EXTRA_ARCHS", "B1ForCausalLM", "C1ForCausalLM", line=5)
    mirror = Mirror(("RADIX_ARCHS", "EXTRA_ARCHS"), (), "pyproject.toml: tool.archsync.mirror[0]")
    m = model([radix, extra], config=Config(ROOT, mirrors=(mirror,)), named={"RADIX_ARCHS": radix,
                                                                             "EXTRA_ARCHS": extra})
    assert run("ARC102", m) == [
        "lists.py:1:1: ARC102 'C1ForCausalLM' is in EXTRA_ARCHS (lists.py:5) but missing from RADIX_ARCHS, which "
        "must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "lists.py:5:1: ARC102 'A1ForCausalLM' is in RADIX_ARCHS (lists.py:1) but missing from EXTRA_ARCHS, which "
        "must mirror it (pyproject.toml: tool.archsync.mirror[0])"]


def test_arc102_scoped_to_families_compares_only_their_names():
    radix = collection("RADIX_ARCHS", "A1ForCausalLM", "B1ForCausalLM", line=1)
    extra = collection("EXTRA_ARCHS", line=5)
    mirror = Mirror(("RADIX_ARCHS", "EXTRA_ARCHS"), ("is_b1",), "pyproject.toml: tool.archsync.mirror[0]")
    m = model([radix, extra], [family("is_b1", "B1ForCausalLM")], config=Config(ROOT, mirrors=(mirror,)),
              named={"RADIX_ARCHS": radix, "EXTRA_ARCHS": extra})
    assert run("ARC102", m) == [
        "lists.py:5:1: ARC102 'B1ForCausalLM' is in RADIX_ARCHS (lists.py:1) but missing from EXTRA_ARCHS, which "
        "must mirror it (pyproject.toml: tool.archsync.mirror[0])"]


# -- ARC103 subset-broken ------------------------------------------------------------------------------

def test_arc103_of_must_be_inside_in_a_collection_or_the_registered_names():
    part = collection("PART_ARCHS", "A1ForCausalLM", "B1ForCausalLM", line=2)
    whole = collection("WHOLE_ARCHS", "A1ForCausalLM", line=9)
    into_whole = Subset("PART_ARCHS", "WHOLE_ARCHS", "pyproject.toml: tool.archsync.subset[0]")
    into_registry = Subset("PART_ARCHS", "registered", "pyproject.toml: tool.archsync.subset[1]")
    m = model([part, whole], registered=["B1ForCausalLM"], config=Config(ROOT, subsets=(into_whole, into_registry)),
              named={"PART_ARCHS": part, "WHOLE_ARCHS": whole})
    assert run("ARC103", m) == [
        "lists.py:2:1: ARC103 'A1ForCausalLM' is in PART_ARCHS but not in the registered architectures "
        "(pyproject.toml: tool.archsync.subset[1])",
        "lists.py:2:1: ARC103 'B1ForCausalLM' is in PART_ARCHS but not in WHOLE_ARCHS "
        "(pyproject.toml: tool.archsync.subset[0])"]


# -- ARC104 sibling-variant-missing ----------------------------------------------------------------------

def test_arc104_a_registered_sibling_of_a_held_name_is_missing():
    m = model([collection("X_ARCHS", "Gemma3ForConditionalGeneration", "LlamaForCausalLM")], [],
              ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", "LlamaForCausalLM"])
    assert run("ARC104", m) == [
        "lists.py:1:1: ARC104 'Gemma3ForCausalLM' is missing from X_ARCHS, which holds its sibling "
        "'Gemma3ForConditionalGeneration' ('Gemma3ForCausalLM' is registered at models.py:4)"]


def test_kind_guard_a_multimodal_list_is_not_told_to_hold_a_text_only_twin():
    registered = ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", "Qwen2VLForConditionalGeneration"]
    vl_only = collection("IMAGE_ARCHS", "Gemma3ForConditionalGeneration", "Qwen2VLForConditionalGeneration")
    assert run("ARC104", model([vl_only], [], registered)) == []


def test_kind_guard_the_project_says_which_names_are_multimodal():
    """`MiniCPMV` and `Phi3VForCausalLM` are spelt like text models; a list the code calls multimodal says otherwise."""
    registered = ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", "MiniCPMV", "Phi3VForCausalLM"]
    mm = collection("supported", "Gemma3ForConditionalGeneration", "MiniCPMV", "Phi3VForCausalLM")
    assert run("ARC104", model([mm], [], registered)) == [
        "lists.py:1:1: ARC104 'Gemma3ForCausalLM' is missing from supported, which holds its sibling "
        "'Gemma3ForConditionalGeneration' ('Gemma3ForCausalLM' is registered at models.py:4)"]
    said = dataclasses.replace(model([mm], [], registered),
                               said=SaidKinds(multimodal=frozenset({"MiniCPMV", "Phi3VForCausalLM"})))
    assert run("ARC104", said) == []


def test_headless_names_are_served_by_project_classes_with_no_generation_head_in_their_lineage():
    """`BertModel` returns hidden states: an embedding model. vLLM's `LlamaModel` is served by `LlamaForCausalLM`;
    MiniCPM-V's module imports the `Qwen2ForCausalLM` it builds its language model with."""
    edges = {"FinchModel": (ClassEdge("FinchModel", "WrenModel", 0, "poolers.py", 9),),
             "RobinModel": (ClassEdge("RobinModel", "WrenForCausalLM", 0, "poolers.py", 12),)}
    served_by = {"WrenModel": "WrenModel", "FinchModel": "FinchModel", "RobinModel": "RobinModel",
                 "LlamaModel": "LlamaForCausalLM", "GhostModel": "GhostModel", "LarkLM": "LarkLM",
                 "WrenForSequenceClassification": "WrenForSequenceClassification", "MiniCPMV": "MiniCPMV"}
    modules = [ModuleClasses("poolers.py", frozenset({"nn"}), frozenset(
                   {"WrenModel", "FinchModel", "RobinModel", "LarkLM", "WrenForSequenceClassification"})),
               ModuleClasses("llama.py", frozenset(), frozenset({"LlamaForCausalLM", "WrenForCausalLM"})),
               ModuleClasses("minicpmv.py", frozenset({"Qwen2ForCausalLM", "Qwen2Config"}), frozenset({"MiniCPMV"}))]
    assert headless(served_by, edges, modules) == {"WrenModel", "FinchModel"}


def test_kind_guard_draft_variants_only_where_drafts_are():
    family_ = family("is_deepseek_v4", "DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN")
    served = collection("SERVED_ARCHS", "DeepseekV4ForCausalLM", "LlamaForCausalLM")
    drafts = collection("DRAFT_ARCHS", "DeepseekV4ForCausalLM", "LlamaForCausalLMEagle3")
    m = model([served, drafts], [family_], ["DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN",
                                            "LlamaForCausalLM", "LlamaForCausalLMEagle3"])
    assert run("ARC101", m) == [
        "lists.py:1:1: ARC101 'DeepseekV4ForCausalLMNextN' is matched by is_deepseek_v4() (families.py:10) but "
        "missing from DRAFT_ARCHS"]


def test_kind_guard_one_draft_among_many_served_names_is_no_list_of_drafts():
    """ATOM's `MODEL_ADAPTER_SPECS`: fourteen served models and one Eagle3 draft is not told to hold V4's NextN."""
    family_ = family("is_deepseek_v4", "DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN")
    served = ["DeepseekV4ForCausalLM", "Qwen3ForCausalLM", "Qwen3MoeForCausalLM", "Qwen3NextForCausalLM",
              "MiniMaxM2ForCausalLM", "LlamaForCausalLMEagle3"]
    specs = collection("MODEL_ADAPTER_SPECS", *served)
    m = model([specs], [family_], served + ["DeepseekV4ForCausalLMNextN"])
    assert run("ARC101", m) == []
    fewer = collection("MODEL_ADAPTER_SPECS", "DeepseekV4ForCausalLM", "Qwen3ForCausalLM", "LlamaForCausalLMEagle3")
    assert len(run("ARC101", model([fewer], [family_], served + ["DeepseekV4ForCausalLMNextN"]))) == 1


def test_kind_guard_a_list_about_one_lineage_holds_all_of_it():
    family_ = family("is_qwen3_5", "Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM")
    lineage = collection("@_register_for:_qwen3_5_overrides", "Qwen3_5ForConditionalGeneration")
    assert run("ARC101", model([lineage], [family_], ["Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"])) == [
        "lists.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (families.py:10) but missing from "
        "@_register_for:_qwen3_5_overrides"]


def test_a_subject_found_by_shape_that_tests_one_name_is_no_subject_for_families():
    family_ = family("is_qwen3_5", "Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM")
    single = dataclasses.replace(collection("f#1", "Qwen3_5ForConditionalGeneration"), declared=False)
    assert run("ARC101", model([single], [family_], ["Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"])) == []


def test_arc104_needs_the_sibling_registered_and_pairs_configured():
    held = [collection("X_ARCHS", "Gemma3ForConditionalGeneration")]
    assert run("ARC104", model(held, [], ["Gemma3ForConditionalGeneration"])) == []
    registered = ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM"]
    assert run("ARC104", model(held, [], registered, config=Config(ROOT, siblings=()))) == []
    assert run("ARC104", model(held, [], registered, config=Config(ROOT, siblings=(("VL", "Text"),)))) == []


def test_arc104_judges_a_family_on_its_own_literal_only():
    delegating = family("is_gemma", "Gemma3ForConditionalGeneration", own=())
    delegating = Predicate(delegating.key, delegating.subject, delegating.path, delegating.line, 1,
                           delegating.names, (), frozenset(), (), (), ())
    owning = family("is_gemma3", "Gemma3ForConditionalGeneration")
    m = model([], [delegating, owning], ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM"])
    assert run("ARC104", m) == [
        "families.py:10:1: ARC104 'Gemma3ForCausalLM' is missing from is_gemma3(), which holds its sibling "
        "'Gemma3ForConditionalGeneration' ('Gemma3ForCausalLM' is registered at models.py:4)"]


# -- ARC201 unknown-architecture ---------------------------------------------------------------------------

def test_arc201_a_name_nothing_registers_once_with_a_close_match():
    x = collection("X_ARCHS", "Qwen3NextForCasualLM", "Qwen3NextForCasualLM", "TotallyNewModel")
    m = model([x], [], ["Qwen3NextForCausalLM"])
    assert run("ARC201", m) == [
        "lists.py:1:5: ARC201 'Qwen3NextForCasualLM' in X_ARCHS is not a registered architecture; did you mean "
        "'Qwen3NextForCausalLM'?",
        "lists.py:1:7: ARC201 'TotallyNewModel' in X_ARCHS is not a registered architecture"]


def test_arc201_a_name_beside_a_registered_one_of_its_lineage_is_an_alias():
    x = collection("_LONGCAT_ARCHS", "LongcatCausalLM", "LongcatFlashForCausalLM", "LongcatFlashNgramForCausalLM")
    assert run("ARC201", model([x], [], ["LongcatFlashForCausalLM"])) == []


def test_arc201_on_a_subject_found_by_shape_only_typos_and_never_for_a_plugin():
    x = dataclasses.replace(collection("f#1", "Qwen3NextForCasualLM", "RemovedModelForCausalLM"), declared=False)
    assert run("ARC201", model([x], [], ["Qwen3NextForCausalLM"])) == [
        "lists.py:1:5: ARC201 'Qwen3NextForCasualLM' in f#1 is not a registered architecture; did you mean "
        "'Qwen3NextForCausalLM'?"]
    plugin = dataclasses.replace(model([x], [], ["Qwen3NextForCausalLM"]), external_registries=("vllm",))
    assert run("ARC201", plugin) == []


def test_arc201_is_silent_while_nothing_is_registered():
    assert run("ARC201", model([collection("X_ARCHS", "AnyForCausalLM")])) == []


def test_arc201_reads_a_family_on_its_own_names():
    m = model([], [family("is_qwen", "Qwen3NextForCausalLM", own=["Qwen3NextForCausalLM", "QwenOldForCausalLM"])],
              ["Qwen3NextForCausalLM"])
    assert run("ARC201", m) == [
        "families.py:11:21: ARC201 'QwenOldForCausalLM' in is_qwen() is not a registered architecture"]


# -- ARC301 duplicate-member --------------------------------------------------------------------------------

def test_arc301_the_later_copy_in_one_literal_is_reported():
    x = collection("X_ARCHS", "A1ForCausalLM", literal=["A1ForCausalLM", "B1ForCausalLM", "A1ForCausalLM"])
    assert run("ARC301", model([x])) == ["lists.py:4:5: ARC301 'A1ForCausalLM' is listed twice in X_ARCHS "
                                         "(first at line 2)"]


def test_arc301_the_same_name_in_two_literals_is_no_duplicate():
    x = Collection("X_ARCHS", "lists.py", 1, 1, ResolvedSet((occ("A"), occ("A"))), ((occ("A"),), (occ("A"),)))
    assert run("ARC301", model([x])) == []


# -- ARC901 partly-analysed and ARC902 file-not-analysed -------------------------------------------------------

def test_arc901_names_three_reasons_and_counts_the_rest():
    reasons = [f"cannot follow `f{i}()` (lists.py:{i})" for i in range(5)]
    m = model([collection("X_ARCHS", "A1ForCausalLM", unknown=reasons)], [family("is_b", unknown=["star"])])
    assert run("ARC901", m) == [
        "families.py:10:1: ARC901 is_b() is only partly analysed: star (0 names read still take part)",
        "lists.py:1:1: ARC901 X_ARCHS is only partly analysed: cannot follow `f0()` (lists.py:0); cannot follow "
        "`f1()` (lists.py:1); cannot follow `f2()` (lists.py:2); and 2 more (1 name read still takes part)"]


def test_arc901_says_a_reason_met_many_times_once_and_does_not_count_it_again():
    reasons = ["expression nested too deeply (lists.py:1)"] + ["cannot resolve `a` in lists.py"] * 60
    m = model([collection("X_ARCHS", unknown=reasons)])
    assert run("ARC901", m) == [
        "lists.py:1:1: ARC901 X_ARCHS is only partly analysed: expression nested too deeply (lists.py:1); cannot "
        "resolve `a` in lists.py (0 names read still take part)"]


def test_arc902_each_file_that_could_not_be_analysed():
    m = model(unanalysed=[("a.py", "syntax error at line 3: invalid syntax"),
                          ("b.py", "cannot read: Permission denied")])
    assert run("ARC902", m) == ["a.py:1:1: ARC902 file not analysed: syntax error at line 3: invalid syntax",
                                "b.py:1:1: ARC902 file not analysed: cannot read: Permission denied"]


def test_all_rules_run_in_registry_order():
    m = model([collection("X_ARCHS", "Gemma3ForConditionalGeneration", "LlamaForCausalLM", unknown=["env"])], [],
              ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", "LlamaForCausalLM"])
    assert [d.code for d in check(m)] == ["ARC104", "ARC901"]


# -- the report stage: exemptions (ARC202), one per pair, fix requests ---------------------------------------------

def _exemption(subject: str, members: Sequence[str], codes: Sequence[str] = (), from_pack: bool = False) -> Exemption:
    return Exemption(subject, tuple(members), tuple(codes), "reason", "pyproject.toml: tool.archsync.exempt[0]", 7,
                     from_pack)


def test_an_exemption_drops_its_diagnostics_and_a_stale_one_is_arc202():
    found = [Diagnostic("lists.py", 1, 1, "ARC104", "m", "X_ARCHS", "Gemma3ForCausalLM")]
    used = _exemption("X_*", ["Gemma3*"], ["ARC104"])
    stale = _exemption("X_ARCHS", ["Qwen3_5ForCausalLM"])
    assert lines(apply_exemptions(found, [used, stale], "pyproject.toml")) == [
        "pyproject.toml:7:1: ARC202 exemption for 'Qwen3_5ForCausalLM' in X_ARCHS no longer suppresses anything "
        "(pyproject.toml: tool.archsync.exempt[0]); remove it"]


def test_a_pack_exemption_is_never_stale_and_codes_limit_an_exemption():
    found = [Diagnostic("lists.py", 1, 1, "ARC101", "m", "X_ARCHS", "Gemma3ForCausalLM")]
    kept = apply_exemptions(found, [_exemption("X_ARCHS", ["Gemma3ForCausalLM"], ["ARC104"], from_pack=True)],
                            "pyproject.toml")
    assert kept == found


def test_one_diagnostic_per_pair_the_first_rule_in_the_registry_wins():
    def d(code: str, member: str = "M") -> Diagnostic:
        return Diagnostic("lists.py", 1, 1, code, code, "X_ARCHS", member)
    kept = one_per_pair([d("ARC201"), d("ARC104"), d("ARC101"), d("ARC301", "N"), d("ARC202"),
                         Diagnostic("lists.py", 1, 1, "ARC901", "m", "X_ARCHS")])
    assert sorted(x.code for x in kept) == ["ARC101", "ARC202", "ARC301", "ARC901"]


def test_each_rule_attaches_the_fix_its_registry_entry_promises():
    x = collection("X_ARCHS", "Gemma3ForConditionalGeneration", "GemmaForCausalLM", "OldForCausalLM", line=4,
                   literal=["Gemma3ForConditionalGeneration", "GemmaForCausalLM", "GemmaForCausalLM"])
    found = check(model([x], [], ["Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", "GemmaForCausalLM"]))
    assert [(d.code, d.fix) for d in sorted(found)] == [
        ("ARC104", FixRequest("add", "lists.py", "X_ARCHS", 4, "Gemma3ForCausalLM",
                              ("Gemma3ForConditionalGeneration", "GemmaForCausalLM"), 1)),
        ("ARC201", None),
        ("ARC301", FixRequest("remove", "lists.py", "X_ARCHS", 7, "GemmaForCausalLM", (), 5))]
    promised = {rule.code: rule.fix for rule in RULES}
    assert all(d.fix is None or d.fix.action == promised[d.code] for d in found)


def test_a_subset_is_fixed_in_the_collection_that_must_contain_the_name():
    part = collection("PART_ARCHS", "A1ForCausalLM", line=2)
    whole = collection("WHOLE_ARCHS", "B1ForCausalLM", line=9, path="whole.py")
    subsets = (Subset("PART_ARCHS", "WHOLE_ARCHS", "o"), Subset("PART_ARCHS", "registered", "o"))
    found = BY_CODE["ARC103"].check(model([part, whole], registered=["B1ForCausalLM"],
                                          config=Config(ROOT, subsets=subsets),
                                          named={"PART_ARCHS": part, "WHOLE_ARCHS": whole}))
    assert [d.fix for d in found] == [FixRequest("add", "whole.py", "WHOLE_ARCHS", 9, "A1ForCausalLM", (), 1), None]


def test_a_new_name_goes_after_its_sibling_then_its_longest_common_prefix():
    held = {"Qwen3_5ForConditionalGeneration", "Qwen3NextForCausalLM", "KimiLinearForCausalLM"}
    assert rank_peers("Qwen3_5ForCausalLM", held, (("ForConditionalGeneration", "ForCausalLM"),)) == (
        "Qwen3_5ForConditionalGeneration", "Qwen3NextForCausalLM")


def test_a_slip_is_a_name_written_twice_beside_a_missing_spelling_variant_of_it():
    def literal(*names):
        return tuple(Occurrence(n, "s.py", line, 5) for line, n in enumerate(names, 1))

    twice = literal("DeepseekV3ForCausalLM", "BailingMoeV2ForCausalLM", "BailingMoeV2ForCausalLM")
    (found,) = slips("BailingMoeForCausalLM", [twice])
    assert (found.kind, found.kin, found.weight) == (SLIP, "BailingMoeV2ForCausalLM", 0.8)
    assert "(line 3)" in found.text
    assert slips("Glm4MoeForCausalLM", [twice]) == []  # no spelling variant of the copied name
    once = literal("BailingMoeV2ForCausalLM", "DeepseekV3ForCausalLM")
    assert slips("BailingMoeForCausalLM", [once, literal("BailingMoeV2ForCausalLM")]) == []  # once in each
