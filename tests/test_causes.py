"""One finding per cause (`lint_plugin/report/causes.py`): the places of a file one cause leaves behind are
reported once, at the first, naming the others; everything that decides whether a place is reported still sees
each place."""
from __future__ import annotations

from conftest import EXIT_FINDINGS, SGLANG_BUG, archsync, places, set_config
from lint_plugin.diagnostics import Diagnostic, place
from lint_plugin.report.causes import findings, places_of

TABLES = "serve/tables.py"
FAMILY = place("serve/families.py", 4)


def missing(name: str, subject: str, line: int, path: str = TABLES, code: str = "ARC101") -> Diagnostic:
    return Diagnostic(path, line, 1, code, f"'{name}' is matched by is_alpha() ({FAMILY}) but missing from {subject}",
                      subject, name)


def test_one_cause_in_one_file_is_one_finding_naming_the_other_places():
    alpha = missing("AlphaForCausalLM", "GRAPH_ARCHS", 3)
    rest = (missing("AlphaMoeForCausalLM", "GRAPH_ARCHS", 3), missing("AlphaForCausalLM", "KERNEL_ARCHS", 9),
            missing("AlphaMoeForCausalLM", "KERNEL_ARCHS", 9), missing("AlphaMoeForCausalLM", "CHUNK_ARCHS", 12))
    [finding] = findings([alpha, *rest])
    assert finding.text == (
        "'AlphaForCausalLM' is matched by is_alpha() (serve/families.py:4) but missing from GRAPH_ARCHS; the same "
        "for 'AlphaMoeForCausalLM' there, and for 'AlphaForCausalLM', 'AlphaMoeForCausalLM' in KERNEL_ARCHS (line 9), "
        "and for 'AlphaMoeForCausalLM' in CHUNK_ARCHS (line 12)")
    assert (finding.path, finding.line, finding.subject, finding.member) == (TABLES, 3, "GRAPH_ARCHS",
                                                                              "AlphaForCausalLM")
    assert finding.related == rest and places_of(finding) == (finding, *rest)
    assert findings([finding]) == [finding]  # a finding is grouped once


def test_places_of_another_file_code_or_cause_stay_apart():
    here = missing("AlphaForCausalLM", "GRAPH_ARCHS", 3)
    elsewhere = missing("AlphaForCausalLM", "GRAPH_ARCHS", 3, path="serve/other.py")
    other_code = Diagnostic(TABLES, 3, 1, "ARC104", "'AlphaForCausalLM' is missing from GRAPH_ARCHS, which holds its "
                            "sibling 'AlphaVLForConditionalGeneration'", "GRAPH_ARCHS", "AlphaForCausalLM")
    other_family = Diagnostic(TABLES, 9, 1, "ARC101", f"'BravoForCausalLM' is matched by is_bravo() ({FAMILY}) but "
                              "missing from KERNEL_ARCHS", "KERNEL_ARCHS", "BravoForCausalLM")
    apart = [here, elsewhere, other_code, other_family]
    assert findings(apart) == apart


def test_two_slips_are_two_findings():
    """A code whose message states no cause beside the name (a duplicate, an unknown name) is never grouped."""
    twice = [Diagnostic(TABLES, 3, 20 * i, "ARC301", f"'{name}' is listed twice in GRAPH_ARCHS (first at line 3)",
                        "GRAPH_ARCHS", name) for i, name in enumerate(("AlphaForCausalLM", "BravoForCausalLM"), 1)]
    assert findings(twice) == twice


def test_a_message_names_eight_more_lists_and_counts_the_rest():
    lists = [missing("AlphaForCausalLM", f"L{i}_ARCHS", i) for i in range(1, 13)]
    [finding] = findings(lists)
    assert finding.text.endswith(
        "; the same for 'AlphaForCausalLM' in L2_ARCHS (line 2), L3_ARCHS (line 3), L4_ARCHS (line 4), L5_ARCHS "
        "(line 5), L6_ARCHS (line 6), L7_ARCHS (line 7), L8_ARCHS (line 8) and L9_ARCHS (line 9); and 3 more lists "
        "of this file")
    assert len(finding.related) == 11


def test_seen_maps_every_place_and_json_carries_the_others():
    [finding] = findings([missing("AlphaForCausalLM", "GRAPH_ARCHS", 3),
                          missing("AlphaForCausalLM", "KERNEL_ARCHS", 9)])
    shown = finding.seen(lambda rel: "python/" + rel)
    assert [p.path for p in places_of(shown)] == ["python/serve/tables.py"] * 2
    assert "(python/serve/families.py:4)" in shown.related[0].text
    document = shown.to_json()
    assert list(document) == ["code", "path", "line", "column", "message", "subject", "member", "related"]
    assert [d["subject"] for d in document["related"]] == ["KERNEL_ARCHS"]
    assert "related" not in missing("AlphaForCausalLM", "GRAPH_ARCHS", 3).to_json()


def test_an_exempted_place_is_in_no_cause(tree):
    """Exemptions decide per place, before any grouping: the seed's three other places are still one finding."""
    root = tree("sglang_qwen3_5/bug")
    set_config(root, '[[tool.archsync.exempt]]\nsubject = "_MAMBA_RADIX_CACHE_ARCHS"\n'
                     'members = ["Qwen3_5ForCausalLM"]\nreason = "served without radix caching for now"\n')
    result = archsync("check", cwd=root)
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)"]), result
    assert len(places(cwd=root)) == 3 and len(places(cwd=SGLANG_BUG)) == 4
