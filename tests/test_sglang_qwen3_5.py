"""The seed case: SGLang's text-only Qwen3_5 names missing from the two mamba whitelists.

`fixtures/sglang_qwen3_5/bug` is shaped like SGLang's `python/` tree before PR #35297; the
fixed tree (SGLANG_FIXED) is that tree with `fixtures/sglang_qwen3_5/fix.patch` applied, like
it after. Neither has any `[tool.archsync]` configuration. What `archsync check` and
`flake8 .` print in the bug tree is its case (`bug/expected.txt`); the tests here check other
paths, working directories, formats and edited copies.
"""
from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from conftest import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    SGLANG_BUG,
    SGLANG_FIXED,
    add_config,
    archsync,
    flake8,
    only,
    write,
)

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"


def test_fixture_lines_are_where_the_expectations_say():
    # The line numbers written in the expectations below point at these lines of the bug tree.
    overrides = (SGLANG_BUG / OVERRIDES).read_text().splitlines()
    assert overrides[35 - 1] == "_MAMBA_RADIX_CACHE_ARCHS = frozenset("
    assert overrides[48 - 1] == "_MAMBA_EXTRA_BUFFER_ARCHS = frozenset("
    assert overrides[60 - 1] == '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM"})'
    model_config = (SGLANG_BUG / MODEL_CONFIG).read_text().splitlines()
    assert model_config[18 - 1] == "def is_qwen3_5(config: Any) -> bool:"
    assert model_config[27 - 1] == "def is_qwen3_hybrid(config: Any) -> bool:"
    assert model_config[32 - 1] == "def is_deepseek_dsa(config: Any) -> bool:"
    for root in (SGLANG_BUG, SGLANG_FIXED):  # zero configuration
        assert "tool" not in tomllib.loads((root / "pyproject.toml").read_text())


# -- archsync check -------------------------------------------------------------------------

def test_fixed_tree_is_clean():
    result = archsync("check", cwd=SGLANG_FIXED)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN, result


def test_bug_tree_with_explicit_dot_path():
    result = archsync("check", ".", cwd=SGLANG_BUG)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_paths_are_shown_relative_to_the_working_directory():
    # Every path is relative to the working directory: the location's, and the evidence's in the message.
    result = archsync("check", "bug", cwd=SGLANG_BUG.parent)
    assert result.lines == [
        "bug/sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(bug/sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_paths_relative_to_a_working_directory_inside_the_project():
    models = SGLANG_BUG / "sglang" / "srt" / "models"
    result = archsync("check", "../arg_groups", cwd=models)
    assert result.lines == [
        "../arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(../configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_fixing_a_copy_of_the_bug_tree_makes_it_clean(tree):
    # The four lines of the upstream fix, applied to a copy.
    root = tree("sglang_qwen3_5/bug")
    overrides = root / OVERRIDES
    text = overrides.read_text()
    anchor = '        "Qwen3_5MoeForConditionalGeneration",\n'
    assert text.count(anchor) == 2
    overrides.write_text(text.replace(anchor, anchor + '        "Qwen3_5MoeForCausalLM",\n'
                                              '        "Qwen3_5ForCausalLM",\n'))
    result = archsync("check", cwd=root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


def test_half_fixed_tree_reports_only_what_is_still_missing(tree):
    root = tree("sglang_qwen3_5/fixed")
    overrides = root / OVERRIDES
    lines = overrides.read_text().splitlines(keepends=True)
    # Drop Qwen3_5MoeForCausalLM from the extra-buffer set only (its second occurrence).
    hits = [i for i, line in enumerate(lines) if line.strip() == '"Qwen3_5MoeForCausalLM",']
    assert len(hits) == 2
    del lines[hits[1]]
    overrides.write_text("".join(lines))
    # The fix added two names to the radix set above it: the extra-buffer set now starts on line 50.
    assert lines[50 - 1] == "_MAMBA_EXTRA_BUFFER_ARCHS = frozenset(\n"
    result = archsync("check", cwd=root)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:50:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_text_only_names_are_not_required_once_nothing_registers_them(tree):
    # Families are limited to registered names: without qwen3_5_text.py the two
    # text-only names are no architectures of this project.
    root = tree("sglang_qwen3_5/bug")
    (root / "sglang/srt/models/qwen3_5_text.py").unlink()
    (root / "sglang/srt/models/qwen3_5.py").write_text(
        (root / "sglang/srt/models/qwen3_5.py").read_text().replace(
            "from sglang.srt.models.qwen3_5_text import Qwen3_5Model\n", "Qwen3_5Model = nn.Module\n"))
    result = archsync("check", cwd=root)
    # Other rules may point at the now unregistered names inside is_qwen3_5; ARC101 may not.
    assert only("ARC101", result.lines) == [], result


# -- what must not be reported --------------------------------------------------------------

def test_capability_predicate_is_not_a_family_by_default_but_is_when_configured(tree):
    # is_deepseek_dsa spans two lineages; _NSA_PREFILL_CP_ARCHS holds one of its names.
    # By default it is no family: the bug tree prints the seed's finding alone
    # (fixtures/sglang_qwen3_5/bug/expected.txt). Configured, it is one.
    root = tree("sglang_qwen3_5/bug")
    add_config(root, 'families = ["is_deepseek_dsa"]')
    result = archsync("check", cwd=root)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
        "sglang/srt/arg_groups/overrides.py:60:1: ARC101 'GlmMoeDsaForCausalLM' is matched by is_deepseek_dsa() "
        "(sglang/srt/configs/model_config.py:32) but missing from _NSA_PREFILL_CP_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_configured_delegating_family_never_repeats_what_is_qwen3_5_reports(tree):
    # is_qwen3_hybrid = is_qwen3_next or is_qwen3_5: both whitelists hold part of it too.
    root = tree("sglang_qwen3_5/bug")
    add_config(root, 'families = ["is_qwen3_hybrid"]')
    result = archsync("check", cwd=root)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_configured_delegating_family_reports_what_its_parts_cannot(tree):
    # A whitelist holding only Qwen3-Next is complete for is_qwen3_next and disjoint from
    # is_qwen3_5, so only the configured is_qwen3_hybrid can ask for the Qwen3_5 names.
    root = tree("sglang_qwen3_5/fixed")
    write(root / "sglang/srt/layers/hybrid_tables.py",
          '"""Hybrid GDN kernels."""\n\nGDN_KERNEL_ARCHS = frozenset({"Qwen3NextForCausalLM"})\n')
    default = archsync("check", cwd=root)
    assert only("ARC101", default.lines) == [], default

    add_config(root, 'families = ["is_qwen3_hybrid"]')
    result = archsync("check", cwd=root)
    assert result.lines == [
        "sglang/srt/layers/hybrid_tables.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_hybrid() "
        "(sglang/srt/configs/model_config.py:27) but missing from GDN_KERNEL_ARCHS; the same for "
        "'Qwen3_5ForConditionalGeneration', 'Qwen3_5MoeForCausalLM', 'Qwen3_5MoeForConditionalGeneration' there",
    ], result
    assert result.returncode == EXIT_FINDINGS


# -- subdirectories and single files ----------------------------------------------------------

def test_subdirectory_analyses_whole_project_and_reports_only_under_it():
    # The family is defined in configs/ and the registrations live in models/, both
    # outside arg_groups/: the findings need the whole project.
    result = archsync("check", "sglang/srt/arg_groups", cwd=SGLANG_BUG)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_subdirectory_without_findings_is_clean():
    for sub in ("sglang/srt/models", "sglang/srt/configs"):
        result = archsync("check", sub, cwd=SGLANG_BUG)
        assert result.stdout == "", result
        assert result.returncode == EXIT_CLEAN, result


def test_running_inside_a_subdirectory_checks_that_subdirectory():
    result = archsync("check", cwd=SGLANG_BUG / "sglang" / "srt" / "models")
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN
    inside = archsync("check", cwd=SGLANG_BUG / "sglang" / "srt" / "arg_groups")
    assert inside.lines == [
        "overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(../configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], inside
    assert inside.returncode == EXIT_FINDINGS


def test_single_file_path():
    result = archsync("check", OVERRIDES, cwd=SGLANG_BUG)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == EXIT_FINDINGS
    other = archsync("check", MODEL_CONFIG, cwd=SGLANG_BUG)
    assert other.stdout == "", other
    assert other.returncode == EXIT_CLEAN


# -- JSON -------------------------------------------------------------------------------------

def _without_fix(diagnostic):
    plain = {k: v for k, v in diagnostic.items() if k != "fix"}
    if "related" in diagnostic:
        plain["related"] = [_without_fix(d) for d in diagnostic["related"]]
    return plain


def _without_fixes(document):
    return {"version": document["version"], "root": document["root"],
            "diagnostics": [_without_fix(d) for d in document["diagnostics"]]}


def _places(document):
    """Each finding of a JSON document and the other places of its cause."""
    return [d for finding in document["diagnostics"] for d in (finding, *finding.get("related", ()))]


_SAME_FOR = ("; the same for 'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' "
             "in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)")


def test_json_output_of_the_bug_tree():
    result = archsync("check", "--format", "json", cwd=SGLANG_BUG)
    # one cause (is_qwen3_5() grew; both lists of the file did not): one finding, the other places related
    assert _without_fixes(result.json) == {"version": 2, "root": str(SGLANG_BUG.resolve()), "diagnostics": [
        {"code": "ARC101", "path": OVERRIDES, "line": 35, "column": 1,
         "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_RADIX_CACHE_ARCHS" + _SAME_FOR,
         "subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5ForCausalLM", "related": [
             {"code": "ARC101", "path": OVERRIDES, "line": 35, "column": 1,
              "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                         "but missing from _MAMBA_RADIX_CACHE_ARCHS",
              "subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
             {"code": "ARC101", "path": OVERRIDES, "line": 48, "column": 1,
              "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                         "but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
              "subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5ForCausalLM"},
             {"code": "ARC101", "path": OVERRIDES, "line": 48, "column": 1,
              "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                         "but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
              "subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5MoeForCausalLM"}]},
    ]}, result
    assert result.returncode == EXIT_FINDINGS
    keys = ["code", "path", "line", "column", "message", "subject", "member", "fix"]
    assert [list(d) for d in result.json["diagnostics"]] == [keys + ["related"]]
    assert [list(d) for d in result.json["diagnostics"][0]["related"]] == [keys] * 3


def test_json_carries_each_fix_as_text_edits_that_place_the_name_after_its_sibling():
    result = archsync("check", "--format", "json", cwd=SGLANG_BUG)
    fixes = [diagnostic["fix"] for diagnostic in _places(result.json)]
    # (action, path, target, line of the target, name, first peer, edits): each name goes
    # right after its vision-language sibling, the first peer.
    assert [(f["action"], f["path"], f["target"], f["line"], f["name"], f["peers"][0], f["edits"]) for f in fixes] == [
        ("add", OVERRIDES, "_MAMBA_RADIX_CACHE_ARCHS", 35, "Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration",
         [{"start_line": 40, "start_column": 1, "end_line": 40, "end_column": 1,
           "new_text": '        "Qwen3_5ForCausalLM",\n'}]),
        ("add", OVERRIDES, "_MAMBA_RADIX_CACHE_ARCHS", 35, "Qwen3_5MoeForCausalLM",
         "Qwen3_5MoeForConditionalGeneration",
         [{"start_line": 41, "start_column": 1, "end_line": 41, "end_column": 1,
           "new_text": '        "Qwen3_5MoeForCausalLM",\n'}]),
        ("add", OVERRIDES, "_MAMBA_EXTRA_BUFFER_ARCHS", 48, "Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration",
         [{"start_line": 53, "start_column": 1, "end_line": 53, "end_column": 1,
           "new_text": '        "Qwen3_5ForCausalLM",\n'}]),
        ("add", OVERRIDES, "_MAMBA_EXTRA_BUFFER_ARCHS", 48, "Qwen3_5MoeForCausalLM",
         "Qwen3_5MoeForConditionalGeneration",
         [{"start_line": 54, "start_column": 1, "end_line": 54, "end_column": 1,
           "new_text": '        "Qwen3_5MoeForCausalLM",\n'}]),
    ], result
    # Each insertion point is right after the sibling's line in the source.
    source = (SGLANG_BUG / OVERRIDES).read_text().splitlines()
    assert [source[line - 2] for line in (40, 41, 53, 54)] == [
        '        "Qwen3_5ForConditionalGeneration",',
        '        "Qwen3_5MoeForConditionalGeneration",',
        '        "Qwen3_5ForConditionalGeneration",',
        '        "Qwen3_5MoeForConditionalGeneration",',
    ]


def test_json_output_of_the_fixed_tree():
    result = archsync("check", "--format", "json", cwd=SGLANG_FIXED)
    assert result.json == {"version": 2, "root": str(SGLANG_FIXED.resolve()), "diagnostics": []}, result
    assert result.returncode == EXIT_CLEAN


def test_json_paths_are_relative_to_the_working_directory_beside_the_project_root():
    """Every path of the document opens from where archsync ran (as the text's do); `root` says
    where the project is, for a program that wants its paths relative to it."""
    models = SGLANG_BUG / "sglang" / "srt" / "models"
    for cwd, path, prefix in ((SGLANG_BUG.parent, "bug", "bug/sglang/srt/"), (models, "../arg_groups", "../"),
                              (SGLANG_BUG, "sglang/srt/arg_groups/overrides.py", "sglang/srt/")):
        result = archsync("check", "--format=json", path, cwd=cwd)
        assert [{k: v for k, v in d.items() if k not in ("fix", "related")} for d in _places(result.json)] == [
            {"code": "ARC101", "path": f"{prefix}arg_groups/overrides.py", "line": 35, "column": 1,
             "message": f"'Qwen3_5ForCausalLM' is matched by is_qwen3_5() ({prefix}configs/model_config.py:18) "
                        "but missing from _MAMBA_RADIX_CACHE_ARCHS" + _SAME_FOR,
             "subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5ForCausalLM"},
            {"code": "ARC101", "path": f"{prefix}arg_groups/overrides.py", "line": 35, "column": 1,
             "message": f"'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() ({prefix}configs/model_config.py:18) "
                        "but missing from _MAMBA_RADIX_CACHE_ARCHS",
             "subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
            {"code": "ARC101", "path": f"{prefix}arg_groups/overrides.py", "line": 48, "column": 1,
             "message": f"'Qwen3_5ForCausalLM' is matched by is_qwen3_5() ({prefix}configs/model_config.py:18) "
                        "but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
             "subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5ForCausalLM"},
            {"code": "ARC101", "path": f"{prefix}arg_groups/overrides.py", "line": 48, "column": 1,
             "message": f"'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() ({prefix}configs/model_config.py:18) "
                        "but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
             "subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
        ], result
        assert result.json["root"] == str(SGLANG_BUG.resolve()) and len(result.json["diagnostics"]) == 1, result
        assert [d["fix"]["path"] for d in _places(result.json)] == [f"{prefix}arg_groups/overrides.py"] * 4
        assert result.returncode == EXIT_FINDINGS


# -- flake8 -----------------------------------------------------------------------------------

def test_flake8_reports_the_seed_finding_on_the_bug_tree():
    result = flake8("sglang", cwd=SGLANG_BUG)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == 1, result


def test_flake8_on_the_fixed_tree_is_clean():
    result = flake8("sglang", cwd=SGLANG_FIXED)
    assert result.stdout == "", result
    assert result.returncode == 0, result


def test_flake8_in_one_process_and_in_several_agree():
    serial = flake8("--jobs=1", "sglang", cwd=SGLANG_BUG)
    parallel = flake8("--jobs=4", "sglang", cwd=SGLANG_BUG)
    assert serial.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], serial
    assert parallel.lines == serial.lines, parallel


def test_flake8_on_one_file_still_sees_the_whole_project():
    result = flake8(OVERRIDES, cwd=SGLANG_BUG)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == 1
    other = flake8(MODEL_CONFIG, cwd=SGLANG_BUG)
    assert other.stdout == "", other
    assert other.returncode == 0


def test_flake8_select_by_full_code():
    result = flake8("sglang", cwd=SGLANG_BUG, select="ARC101")
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    none = flake8("sglang", cwd=SGLANG_BUG, select="ARC9")
    assert none.stdout == "", none


def test_flake8_exclude_limits_reporting_not_analysis():
    # flake8 skips configs/ and models/, yet the family and registrations there still count.
    result = flake8("--exclude=sglang/srt/configs,sglang/srt/models", "sglang", cwd=SGLANG_BUG)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result
    assert result.returncode == 1
