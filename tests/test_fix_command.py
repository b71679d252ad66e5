"""`archsync fix` keeps its promises: the edit is the upstream fix, `--diff` writes nothing,
selection is flake8's, a fix that would not hold after a re-check is not written, a file changed
since it was read is left alone, and nothing outside the project root is written.
"""
from __future__ import annotations

import dataclasses
import os

import pytest

from conftest import EXIT_CLEAN, EXIT_FINDINGS, SGLANG_FIXED, SGLANG_PATCH, archsync, write
from lint_plugin import pipeline
from lint_plugin.diagnostics import FixRequest, unmarked
from lint_plugin.fix import command

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
REMAINING_ARC101 = [
    "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
    "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
    "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
    "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
]


def _with_duplicate(root):
    """The seed bug plus a duplicate in the sparse-indexer list (line 60)."""
    path = root / OVERRIDES
    text = path.read_text(encoding="utf-8")
    old = '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM"})'
    assert text.count(old) == 1
    path.write_text(text.replace(old, '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM", '
                                      '"DeepseekV32ForCausalLM"})'), encoding="utf-8")
    return root


def test_fix_writes_the_upstream_fix_and_the_project_is_clean(tree):
    root = tree("sglang_qwen3_5/bug")
    result = archsync("fix", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines == []
    assert result.err_lines == ["archsync: fixed 1 problem in 1 file; 0 remaining"]
    assert (root / OVERRIDES).read_bytes() == (SGLANG_FIXED / OVERRIDES).read_bytes()
    assert archsync("check", cwd=root).returncode == EXIT_CLEAN


@pytest.mark.parametrize("path", [".", "sglang/srt/arg_groups"])
def test_a_file_that_already_holds_an_arc901_is_fixed(tree, path):
    """What was reported before the fix is no damage the fix did: an ARC901 already in the file edited
    (SGLang's model_config.py has one) made `fix` refuse the file, once fix took a PATH."""
    root = tree("sglang_qwen3_5/bug")
    late = '\n_LATE_ARCHS = frozenset({"Qwen3NextForCausalLM"}) | frozenset(load_more())\n'
    with open(root / OVERRIDES, "a", encoding="utf-8") as handle:
        handle.write(late)
    result = archsync("fix", path, cwd=root)
    assert (result.returncode, result.lines, result.err_lines) == (EXIT_FINDINGS, [
        f"{OVERRIDES}:98:1: ARC901 _LATE_ARCHS is only partly analysed: cannot follow `frozenset(load_more())` "
        f"({OVERRIDES}:98) (1 name read still takes part)"],
        ["archsync: fixed 1 problem in 1 file; 1 remaining"]), result
    assert (root / OVERRIDES).read_text(encoding="utf-8") == (SGLANG_FIXED / OVERRIDES).read_text(
        encoding="utf-8") + late


def test_diff_prints_the_patch_and_writes_nothing(tree):
    root = tree("sglang_qwen3_5/bug")
    before = (root / OVERRIDES).read_bytes()
    stamp = os.stat(root / OVERRIDES).st_mtime_ns
    result = archsync("fix", "--diff", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result  # what the diff shows is still to do
    assert result.stdout == SGLANG_PATCH.read_text(encoding="utf-8")
    assert result.err_lines == ["archsync: would fix 1 problem in 1 file; 0 remaining"]
    assert (root / OVERRIDES).read_bytes() == before and os.stat(root / OVERRIDES).st_mtime_ns == stamp


def test_the_recheck_of_the_edits_reads_no_file_again(tree, monkeypatch):
    """`fix` re-checks the project with its edits from what its own run kept (`Request.keep`): the files
    it edits stand in as buffers, and every other file's record is taken as it was, so the re-check
    reads no file from disk (it read every one again, a second cold run on a large project), and with
    `--no-cache` it writes no cache either."""
    from lint_plugin.project import index

    root = tree("sglang_qwen3_5/bug")
    reads = []
    real = index.read_file
    monkeypatch.setattr(index, "read_file", lambda path: reads.append(path) or real(path))
    checked = archsync("check", "--no-cache", cwd=root)
    assert checked.returncode == EXIT_FINDINGS and reads, checked
    in_check = len(reads)
    result = archsync("fix", "--diff", "--no-cache", cwd=root)
    assert result.stdout == SGLANG_PATCH.read_text(encoding="utf-8")
    assert result.err_lines == ["archsync: would fix 1 problem in 1 file; 0 remaining"]
    # not even the file that defines the subject found by shape whose readers are searched: what the
    # search counted there is taken from the run before, the file's digest being the same (`consumers.py`)
    assert [str(path) for path in reads[2 * in_check:]] == []
    assert not (root / ".archsync_cache").exists()


def test_select_and_ignore_take_codes_and_prefixes_as_flake8_does(tree):
    root = _with_duplicate(tree("sglang_qwen3_5/bug"))
    result = archsync("fix", "--select", "arc3", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.lines == REMAINING_ARC101
    assert result.err_lines == ["archsync: fixed 1 problem in 1 file; 1 remaining"]
    assert '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM"})' in (root / OVERRIDES).read_text()

    root = _with_duplicate(tree("sglang_qwen3_5/bug", into="ignored"))
    result = archsync("fix", "--select", "ARC1,ARC3", "--ignore", "ARC301", cwd=root)
    assert result.lines == [
        "sglang/srt/arg_groups/overrides.py:64:62: ARC301 'DeepseekV32ForCausalLM' is listed twice in "
        "_NSA_PREFILL_CP_ARCHS (first at line 64)"]
    assert result.err_lines == ["archsync: fixed 1 problem in 1 file; 1 remaining"]


def test_an_alias_of_a_list_is_that_list_and_is_fixed_there(tree):
    """`_DCP_OK_ARCHS = _BASE` (imported) is one subject with the list it names: one finding per name,
    fixed in that list, nothing refused (it was two subjects, the alias's findings refused as no literal)."""
    root = tree("sglang_qwen3_5/bug")
    write(root / "sglang/srt/arg_groups/lists.py", '_DCP_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    write(root / "sglang/srt/arg_groups/dcp.py", "from .lists import _DCP_ARCHS as _BASE\n\n_DCP_OK_ARCHS = _BASE\n")
    assert [line for line in archsync("check", cwd=root).lines if "lists.py" in line or "dcp.py" in line] == [
        "sglang/srt/arg_groups/lists.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _DCP_ARCHS; the same for 'Qwen3_5MoeForCausalLM', "
        "'Qwen3_5MoeForConditionalGeneration' there"]
    result = archsync("fix", "--select", "ARC101", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.err_lines == ["archsync: fixed 2 problems in 2 files; 0 remaining"]
    assert (root / "sglang/srt/arg_groups/lists.py").read_text() == (
        '_DCP_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM", '
        '"Qwen3_5MoeForConditionalGeneration"})\n')
    assert (root / "sglang/srt/arg_groups/dcp.py").read_text() == "from .lists import _DCP_ARCHS as _BASE\n\n" \
                                                                  "_DCP_OK_ARCHS = _BASE\n"


def test_a_fix_that_does_not_hold_after_the_recheck_is_not_written(tree):
    """A plan whose edit lands in the wrong list: the re-check still reports, so nothing is written."""
    root = tree("sglang_qwen3_5/bug")
    report = pipeline.run(pipeline.Request((root,), use_cache=False))
    first = report.diagnostics[0]
    assert first.fix is not None
    wrong = FixRequest("add", first.fix.path, "_NSA_PREFILL_CP_ARCHS", 60, first.fix.name)
    report = dataclasses.replace(report, diagnostics=(dataclasses.replace(first, fix=wrong),))
    outcome = command.plan(report, [], [])
    assert tuple(map(unmarked, outcome.problems)) == (
        f"{OVERRIDES}: the fix did not resolve its diagnostics on re-check; not written",)
    assert [f.after == f.before for f in outcome.files] == [True]
    assert command.write(root, outcome)[1] == []
    assert (root / OVERRIDES).read_bytes() == (tree("sglang_qwen3_5/bug", into="pristine") / OVERRIDES).read_bytes()


def test_a_file_changed_since_it_was_read_is_left_alone(tree):
    root = tree("sglang_qwen3_5/bug")
    outcome = command.plan(pipeline.run(pipeline.Request((root,), use_cache=False)), [], [])
    edited = (root / OVERRIDES).read_bytes() + b"# edited in the editor meanwhile\n"
    (root / OVERRIDES).write_bytes(edited)
    written, problems = command.write(root, outcome)
    assert (written, [unmarked(p) for p in problems]) == (
        [], [f"{OVERRIDES}: changed since it was read; not written"])
    assert (root / OVERRIDES).read_bytes() == edited


def test_nothing_outside_the_project_root_is_written(tree, tmp_path):
    root = tree("sglang_qwen3_5/bug")
    outside = write(tmp_path / "outside.py", 'X_ARCHS = ["A"]\n')
    report = pipeline.run(pipeline.Request((root,), use_cache=False))
    escape = FixRequest("add", "../outside.py", "X_ARCHS", 1, "B")
    report = dataclasses.replace(report, diagnostics=(dataclasses.replace(report.diagnostics[0], fix=escape),))
    outcome = command.plan(report, [], [])
    assert tuple(map(unmarked, outcome.problems)) == ("../outside.py: outside the project root; not written",)
    assert command.write(root, outcome)[1] == []
    assert outside.read_text() == 'X_ARCHS = ["A"]\n'


def test_configuration_naming_an_inline_test_survives_a_fix_above_it(tree):
    """Inline subjects are named `function#n`, never by line: a fix that adds lines above one keeps the
    configuration that names it valid (with `function@line` names, `fix --diff` ended in a traceback)."""
    root = tree("sglang_qwen3_5/bug")
    write(root / "sglang/srt/arg_groups/dispatch.py",
          '_DISPATCH_ARCHS = frozenset({\n    "Qwen3NextForCausalLM",\n    "Qwen3_5ForConditionalGeneration",\n})\n\n\n'
          'def pick(arch):\n    if arch in ["Qwen3NextForCausalLM", "Qwen3_5ForConditionalGeneration"]:\n'
          '        return "hybrid"\n    return "dense"\n\n\nDEFAULT = pick("Qwen3NextForCausalLM")\n')
    with (root / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[tool.archsync]\n\n[[tool.archsync.exempt]]\nsubject = "pick#1"\n'
                     'members = ["Qwen3_5*ForCausalLM", "Qwen3_5MoeForConditionalGeneration"]\n'
                     'reason = "the dense path handles text-only Qwen3.5"\n')
    diff = archsync("fix", "--diff", "--select", "ARC101", cwd=root)
    assert diff.returncode == EXIT_FINDINGS, diff
    assert diff.err_lines == ["archsync: would fix 2 problems in 2 files; 0 remaining"]
    fixed = archsync("fix", "--select", "ARC101", cwd=root)
    assert fixed.err_lines == ["archsync: fixed 2 problems in 2 files; 0 remaining"], fixed
    assert archsync("check", cwd=root).returncode == EXIT_CLEAN


def test_a_class_is_added_to_a_list_of_classes_and_to_the_import_of_its_module(tree):
    """A list of classes gets the class, not a string, and the file imports it (fixtures/shapes/class_lists)."""
    root = tree("shapes/class_lists")
    result = archsync("fix", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.err_lines == ["archsync: fixed 1 problem in 1 file; 0 remaining"]
    assert (root / "relay/processors/kilo.py").read_text() == (
        "from relay.models.kilo import KiloForCausalLM, KiloMoeForCausalLM\n"
        "from relay.models.pico import PicoForCausalLM\n\n"
        "from .base import BaseProcessor\n\n\n"
        "class KiloProcessor(BaseProcessor):\n"
        "    models = [KiloForCausalLM, KiloMoeForCausalLM, PicoForCausalLM]\n")
    assert archsync("check", cwd=root).returncode == EXIT_CLEAN
