"""The `archsync` command line itself: version, usage errors, output format and order."""
from __future__ import annotations

import ast
from importlib.metadata import version as distribution_version
from pathlib import Path
from typing import Dict

import pytest

from conftest import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, SGLANG_BUG, SHAPES, archsync, flake8, flake8_lines, write


def test_version_matches_the_installed_distribution(tmp_path):
    result = archsync("--version", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == f"archsync {distribution_version('flake8-archsync')}\n", result


def test_flake8_lists_the_plugin(tmp_path):
    result = flake8("--version", cwd=tmp_path)
    assert result.returncode == 0, result
    assert f"flake8-archsync: {distribution_version('flake8-archsync')}" in result.stdout, result


def test_no_command_is_a_usage_error(tmp_path):
    result = archsync(cwd=tmp_path)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert "usage" in result.stderr.lower(), result


def test_unknown_command_is_a_usage_error(tmp_path):
    result = archsync("chek", cwd=tmp_path)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result


def test_unknown_format_is_a_usage_error():
    result = archsync("check", "--format", "xml", cwd=SGLANG_BUG)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result


def test_missing_path_is_an_error_naming_it():
    result = archsync("check", "no/such/dir", cwd=SGLANG_BUG)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert "no/such/dir" in result.stderr, result


def test_help_exits_cleanly(tmp_path):
    for args in (("--help",), ("check", "--help")):
        result = archsync(*args, cwd=tmp_path)
        assert result.returncode == EXIT_CLEAN, result
        assert "usage" in result.stdout.lower(), result


def test_findings_go_to_stdout_and_exit_code_follows_them(tree):
    root = tree("shapes/guard")
    dirty = archsync("check", cwd=root)
    assert dirty.returncode == EXIT_FINDINGS, dirty
    assert dirty.lines == [
        "lists/whitelists.py:4:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ARCHS",
    ], dirty
    whitelists = root / "lists/whitelists.py"
    whitelists.write_text(whitelists.read_text().replace(
        'OFFLOAD_ARCHS = frozenset({"LimaForCausalLM"})',
        'OFFLOAD_ARCHS = frozenset({"LimaForCausalLM", "LimaMoeForCausalLM"})'))
    clean = archsync("check", cwd=root)
    assert clean.returncode == EXIT_CLEAN, clean
    assert clean.stdout == "", clean


def test_json_schema_on_every_shape_fixture():
    for root in sorted(p for p in SHAPES.iterdir() if p.is_dir()):
        text = archsync("check", cwd=root)
        result = archsync("check", "--format", "json", cwd=root)
        assert result.returncode == text.returncode, (text, result)
        payload = result.json
        assert list(payload) == ["version", "root", "diagnostics"], result
        assert payload["version"] == 2 and payload["root"] == str(root.resolve()), result
        assert len(payload["diagnostics"]) == len(text.lines), (text, result)
        keys = ["code", "path", "line", "column", "message", "subject", "member", "fix"]
        for finding, line in zip(payload["diagnostics"], text.lines):
            # a finding of several places (one cause in one file) carries the others, each a diagnostic
            assert list(finding) == keys + (["related"] if "; the same for " in line else []), (finding, line)
            for diagnostic in (finding, *finding.get("related", ())):
                assert list(diagnostic) == keys + (["related"] if diagnostic is finding and "related" in finding
                                                   else [])
                assert diagnostic["path"] == finding["path"] and diagnostic["code"] == finding["code"]
                assert diagnostic["fix"] is None or (diagnostic["fix"]["name"] == diagnostic["member"]
                                                     and diagnostic["fix"]["path"] == diagnostic["path"])
                assert isinstance(diagnostic["line"], int) and isinstance(diagnostic["column"], int)
                assert "\\" not in diagnostic["path"] and not diagnostic["path"].startswith("/")
                if diagnostic["code"] == "ARC101":
                    assert diagnostic["member"] in diagnostic["message"]
                    assert diagnostic["message"].split("; the same for ")[0].endswith(
                        f"missing from {diagnostic['subject']}")
            # Same finding, same order as the text output.
            assert line == (f"{finding['path']}:{finding['line']}:{finding['column']}: "
                            f"{finding['code']} {finding['message']}"), (line, finding)


@pytest.mark.parametrize("prefilter", [(), ("--no-prefilter",)], ids=["prefilter", "no-prefilter"])
def test_with_nothing_registered_a_file_that_does_not_parse_matters_only_where_it_may_register(tmp_path, prefilter):
    """A vendored Python 2 script quoting CamelCase words hides nothing a rule reads while nothing is registered;
    a file that may register or holds a guarded list still does."""
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    write(tmp_path / "vendor/update_version.py", 'print "updating"\nFind(document, \'PropertyGroup\')\n')
    assert archsync("check", "--no-cache", *prefilter, cwd=tmp_path).stdout == ""
    write(tmp_path / "lists/broken.py", 'print "x"\nBROKEN_ARCHS = ["LimaForCausalLM"]\n')
    assert archsync("check", "--no-cache", *prefilter, cwd=tmp_path).stdout == (
        "lists/broken.py:1:1: ARC902 file not analysed: syntax error at line 1: "
        + _refusal(b'print "x"\n') + "\n")


def _checked_clean(root: Path, files: Dict[str, str]) -> None:
    """A project of `files` (by path), checked cold: no finding."""
    write(root / "pyproject.toml", '[project]\nname = "x"\n')
    for rel, text in files.items():
        write(root / rel, text)
    result = archsync("check", "--no-cache", cwd=root)
    assert (result.returncode, result.stdout) == (EXIT_CLEAN, ""), result


def test_with_nothing_registered_a_predicate_with_a_pattern_is_not_called_partly_analysed(tmp_path):
    """Found on unsloth: an exception classifier (`cls.__name__ in ("OutOfMemoryError", ...)` or a substring of the
    message) read as a family. With nothing registered a pattern matches nothing, as every test does: the summary
    says nothing was checked, and no ARC901 (which fails the run) says it of one function."""
    _checked_clean(tmp_path, {"app/errors.py": 'def _is_out_of_memory(exc):\n'
                                               '    if any(c.__name__ in ("OutOfMemoryError", "OutOfMemoryError_") '
                                               'for c in type(exc).__mro__):\n'
                                               '        return True\n'
                                               '    return "out of memory" in str(exc).lower()\n'})


def test_a_list_found_by_shape_and_read_in_part_is_said_by_inventory_not_by_arc901(tmp_path):
    """Found on llm-compressor, in a file vendored from transformers: an inline list built from transformers'
    mappings (`name in [*get_values(MAPPING_NAMES), "GPT2DoubleHeadsModel", ...]`) is the tool's guess at a
    list, not one the project named; a declared one read in part is still reported."""
    _checked_clean(tmp_path, {
        "pkg/models.py": "class LimaForCausalLM:\n    pass\n\n\nclass MikeForCausalLM:\n    pass\n\n\n"
                         "EntryClass = [LimaForCausalLM, MikeForCausalLM]\n",
        "pkg/tracer.py": 'from transformers import MAPPING_NAMES, get_values\n\n\ndef dummy_inputs(name):\n'
                         '    if name in [*get_values(MAPPING_NAMES), "LimaForCausalLM", "MikeForCausalLM"]:\n'
                         '        return 1\n    return 0\n'})
    (subject,) = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json["subjects"]
    assert (subject["name"], subject["declared"], subject["partly_analysed"]) == ("dummy_inputs#1", False, True)
    write(tmp_path / "pkg/tracer.py", 'from transformers import MAPPING_NAMES, get_values\n\n'
                                      'TRACED_ARCHS = [*get_values(MAPPING_NAMES), "LimaForCausalLM"]\n')
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == [
        "pkg/tracer.py:3:1: ARC901 TRACED_ARCHS is only partly analysed: cannot follow `get_values(MAPPING_NAMES)` "
        "(pkg/tracer.py:3) (1 name read still takes part)"]


def test_a_tests_table_of_the_registry_is_not_the_registry(tmp_path):
    """Found on Megatron-Bridge: a test's manifest of what the registry should hold (`{"X": "pkg.models.x.Cls"}`)
    was the only registry read, so its names counted as what the project serves. A test, an example or the docs
    gate nothing the project runs (their lists are not subjects); neither do they register."""
    _checked_clean(tmp_path, {
        "pkg/models/lima.py": "class LimaForCausalLM:\n    pass\n",
        "pkg/models/mike.py": "class MikeForCausalLM:\n    pass\n",
        "tests/test_matrix.py": 'EXPECTED = {\n    "LimaForCausalLM": "pkg.models.lima.LimaForCausalLM",\n'
                                '    "MikeForCausalLM": "pkg.models.mike.MikeForCausalLM",\n}\n',
        "pkg/tables.py": 'FP8_ARCHS = {"LimaForCausalLM"}\n'})
    inventory = archsync("inventory", "--no-cache", cwd=tmp_path)
    assert inventory.lines[:3] == ["Registered architectures: 0",
                                   "Subjects: 1 (1 declared, 0 found by shape; 1 module)",
                                   "  pkg/tables.py:1: FP8_ARCHS [module, 1 name]"], inventory


def _refusal(source: bytes) -> str:
    """What this interpreter's parser says of `source` (its words vary by version)."""
    try:
        ast.parse(source)
    except SyntaxError as error:
        return str(error.msg)
    raise AssertionError("it parses")


def test_a_file_that_does_not_parse_does_not_stop_the_run(tree):
    root = tree("shapes/guard")
    write(root / "lists/broken.py", 'BROKEN_ARCHS = frozenset({"LimaForCausalLM",)\n')
    result = archsync("check", "--format", "json", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    diagnostics = result.json["diagnostics"]
    assert [d["path"] for d in diagnostics] == ["lists/broken.py", "lists/whitelists.py"], result
    assert [{k: d[k] for k in ("code", "line", "column", "message", "subject", "member")} for d in diagnostics] == [
        {"code": "ARC902", "line": 1, "column": 1,
         "message": "file not analysed: syntax error at line 1: closing parenthesis ')' does not match "
                      "opening parenthesis '{'", "subject": None, "member": None},
        {"code": "ARC101", "line": 4, "column": 1,
         "message": "'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) but missing from OFFLOAD_ARCHS",
         "subject": "OFFLOAD_ARCHS", "member": "LimaMoeForCausalLM"},
    ], result
    assert diagnostics[0]["fix"] is None, result


def test_repeated_runs_agree_and_see_edits(tree):
    # Whatever the tool remembers between runs, a second run prints the same, and an
    # edit made after a run is seen by the next one (archsync and flake8 alike).
    root = tree("sglang_qwen3_5/bug")
    first = archsync("check", cwd=root)
    second = archsync("check", cwd=root)
    assert first.lines == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], first
    assert second.lines == first.lines and second.returncode == first.returncode, (first, second)
    assert flake8_lines(flake8(".", cwd=root)) == first.lines

    overrides = root / "sglang/srt/arg_groups/overrides.py"
    anchor = '        "Qwen3_5MoeForConditionalGeneration",\n'
    overrides.write_text(overrides.read_text().replace(
        anchor, anchor + '        "Qwen3_5ForCausalLM",\n        "Qwen3_5MoeForCausalLM",\n'))
    after = archsync("check", cwd=root)
    assert after.stdout == "" and after.returncode == EXIT_CLEAN, after
    assert flake8(".", cwd=root).stdout == ""

    # A new family member and a new model module: both whitelists now lack it.
    model_config = root / "sglang/srt/configs/model_config.py"
    model_config.write_text(model_config.read_text().replace(
        '    return _hf_arch(config) in ("Qwen3NextForCausalLM",)',
        '    return _hf_arch(config) in ("Qwen3NextForCausalLM", "Qwen3NextKimiK3ForCausalLM")'))
    (root / "sglang/srt/models/qwen3_next_k3.py").write_text(
        "class Qwen3NextKimiK3ForCausalLM:\n    pass\n\n\nEntryClass = [Qwen3NextKimiK3ForCausalLM]\n")
    last = archsync("check", cwd=root)
    assert last.lines == [  # the two names added above each whitelist moved the second one to line 50
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3NextKimiK3ForCausalLM' is matched by is_qwen3_next() "
        "(sglang/srt/configs/model_config.py:14) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3NextKimiK3ForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 50)",
    ], last


NOTHING_CHECKED = ("nothing checked ({counts}): no list or family holds an architecture archsync knows; "
                   "`archsync inventory` says what it found")


def test_a_run_where_no_list_took_part_says_nothing_was_checked_cold_and_warm(tmp_path):
    """Zero configuration on a project whose registries archsync cannot read (a trainer, a quantizer) finds
    no list to check: "no problems" would claim a check that never happened."""
    write(tmp_path / "pyproject.toml", '[project]\nname = "trainer"\n')
    write(tmp_path / "trainer" / "loading.py", 'AUTO_CLASSES = {"LlamaForCausalLM": "AutoModelForCausalLM"}\n'
                                               'def auto_class(arch):\n    return AUTO_CLASSES[arch]\n')
    for args in (("check", "--no-cache"), ("check",), ("check",)):
        result = archsync(*args, cwd=tmp_path)
        assert (result.returncode, result.lines) == (EXIT_CLEAN, []), result
        assert result.err_lines == ["archsync: " + NOTHING_CHECKED.format(counts="1 file, 1 analysed")], result


def test_one_project_of_the_run_with_a_list_checked_is_a_check(tmp_path):
    write(tmp_path / "kernels" / "pyproject.toml", '[project]\nname = "kernels"\n')
    write(tmp_path / "kernels" / "ops.py", "def fused(x):\n    return x\n")
    write(tmp_path / "server" / "pyproject.toml", '[project]\nname = "server"\n')
    write(tmp_path / "server" / "models.py", "class LlamaForCausalLM:\n    pass\n\n\nEntryClass = LlamaForCausalLM\n")
    write(tmp_path / "server" / "graphs.py", '_CUDA_GRAPH_ARCHS = {"LlamaForCausalLM"}\n')
    result = archsync("check", "--no-cache", ".", cwd=tmp_path)
    assert result.err_lines == ["archsync: no problems (3 files in 2 projects, 1 analysed)"], result
    alone = archsync("check", "--no-cache", ".", cwd=tmp_path / "kernels")
    assert alone.err_lines == ["archsync: " + NOTHING_CHECKED.format(counts="1 file, 0 analysed")], alone
