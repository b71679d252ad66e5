"""`archsync check` takes the everyday options of ruff and flake8 (issue 16, first part).

Run on the seed bug tree (four ARC101 in overrides.py) plus a duplicate elsewhere, through the
real console script.
"""
from __future__ import annotations

import gc
import os
import subprocess

import pytest

from conftest import ARCHSYNC, EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, SGLANG_BUG, archsync, copy_tree, write
from lint_plugin.frontends.cli import _command, console

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
DUPLICATE = "sglang/srt/layers/dup.py:1:72: ARC301 'Qwen3_5ForCausalLM' is listed twice in _DUP_ARCHS (first at line 1)"


@pytest.fixture
def root(tree):
    root = tree("sglang_qwen3_5/bug")
    write(root / "sglang/srt/layers/dup.py", '_DUP_ARCHS = ["Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration", '
                                              '"Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM", '
                                              '"Qwen3_5MoeForConditionalGeneration"]\n')
    return root


def codes(result):
    return [line.split(": ")[1].split()[0] for line in result.lines]


def test_select_ignore_and_extend_select_take_codes_and_prefixes(root):
    assert codes(archsync("check", cwd=root)) == ["ARC101", "ARC301"]
    assert codes(archsync("check", "--select", "ARC3", cwd=root)) == ["ARC301"]
    assert codes(archsync("check", "--ignore", "ARC101", cwd=root)) == ["ARC301"]
    assert codes(archsync("check", "--select", "ARC2", "--extend-select", "ARC30", cwd=root)) == ["ARC301"]
    none = archsync("check", "--select", "ARC1", "--ignore", "ARC10", cwd=root)
    assert (none.returncode, none.lines) == (EXIT_CLEAN, []), none


@pytest.mark.parametrize("command", ["check", "fix"])
def test_an_unknown_code_is_an_error(root, command):
    result = archsync(command, "--select", "ARC1,ARC777", cwd=root)
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, [
        "archsync: error: --select: no rule code starts with 'ARC777'; `archsync rules` lists them"]), result


def test_exit_zero_quiet_and_output_file(root, tmp_path):
    out = tmp_path / "report.txt"
    result = archsync("check", "--exit-zero", "--quiet", "--output-file", out, cwd=root)
    assert (result.returncode, result.stdout, result.stderr) == (EXIT_CLEAN, "", ""), result
    assert out.read_text(encoding="utf-8").splitlines()[-1] == DUPLICATE


def test_statistics_counts_each_code(root):
    result = archsync("check", "--statistics", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.lines == ["    1  ARC101  family-member-missing", "    1  ARC301  duplicate-member"]


def test_color_always_never_and_no_color(root):
    coloured = archsync("check", "--color", "always", "--select", "ARC301", cwd=root)
    assert coloured.lines == ["\x1b[1msglang/srt/layers/dup.py\x1b[0m:1:72: \x1b[1;31mARC301\x1b[0m "
                              "'Qwen3_5ForCausalLM' is listed twice in _DUP_ARCHS (first at line 1)"], coloured
    assert archsync("check", "--color", "never", "--select", "ARC301", cwd=root).lines == [DUPLICATE]
    assert archsync("check", "--select", "ARC301", cwd=root).lines == [DUPLICATE]  # auto: not a terminal
    forced = archsync("check", "--select", "ARC301", "--color", "auto", cwd=root, env={"NO_COLOR": "1"})
    assert forced.lines == [DUPLICATE], forced


def _on_a_terminal(root, no_color):
    """What `check` prints with its stdout a pseudo-terminal, as in an interactive shell."""
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    if no_color:
        env["NO_COLOR"] = "1"
    leader, follower = os.openpty()
    try:
        proc = subprocess.run([str(ARCHSYNC), "check", "--select", "ARC301", "--quiet"], cwd=str(root),
                              stdout=follower, stderr=subprocess.DEVNULL, env=env, timeout=120)
    finally:
        os.close(follower)
    output = b""
    try:
        while True:
            chunk = os.read(leader, 4096)
            if not chunk:
                break
            output += chunk
    except OSError:  # EIO once nothing holds the other end, on Linux
        pass
    finally:
        os.close(leader)
    return proc.returncode, output.decode("utf-8").replace("\r\n", "\n")


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal")
@pytest.mark.e2e
def test_color_auto_colours_on_a_terminal_unless_no_color(root):
    """The issue's "no colour on a terminal": `--color auto`, the default, colours a terminal's output."""
    assert _on_a_terminal(root, no_color=False) == (
        EXIT_FINDINGS, "\x1b[1msglang/srt/layers/dup.py\x1b[0m:1:72: \x1b[1;31mARC301\x1b[0m "
                       "'Qwen3_5ForCausalLM' is listed twice in _DUP_ARCHS (first at line 1)\n")
    assert _on_a_terminal(root, no_color=True) == (EXIT_FINDINGS, DUPLICATE + "\n")


def test_several_paths_print_what_is_under_any_of_them(root):
    both = archsync("check", "sglang/srt/layers", OVERRIDES, cwd=root)
    assert codes(both) == ["ARC101", "ARC301"], both
    one = archsync("check", "sglang/srt/layers", cwd=root)
    assert one.lines == [DUPLICATE], one


def test_paths_and_options_may_be_written_in_any_order(root):
    """As ruff and flake8 take them; argparse alone leaves a PATH after an option unrecognised."""
    for args in (["--select", "ARC3", "sglang/srt/layers", OVERRIDES],
                 ["sglang/srt/layers", "--select", "ARC3", OVERRIDES],
                 ["sglang/srt/layers", "--select", "ARC3", "--quiet", OVERRIDES]):
        result = archsync("check", *args, cwd=root)
        assert (result.returncode, result.lines) == (EXIT_FINDINGS, [DUPLICATE]), (args, result)
    moved = archsync("check", "sglang/srt/layers", "--select", "ARC1", OVERRIDES, cwd=root)
    assert codes(moved) == ["ARC101"], moved
    unknown = archsync("check", "sglang/srt/layers", "--selct", "ARC3", OVERRIDES, cwd=root)
    assert (unknown.returncode, unknown.err_lines[-1]) == (
        EXIT_ERROR, "archsync check: error: unrecognized arguments: --selct"), unknown


def test_paths_in_two_projects_are_each_checked_in_their_own(root, tmp_path):
    """tests/test_monorepo.py holds the rest: each project is checked alone, with its configuration."""
    other = tmp_path / "other"
    write(other / "pyproject.toml", '[project]\nname = "other"\n')
    write(other / "lists.py", '_OTHER_ARCHS = ["AForCausalLM", "AForCausalLM"]\n')
    result = archsync("check", "sglang/srt/layers", other, cwd=root)
    assert result.lines == [DUPLICATE, "../other/lists.py:1:33: ARC301 'AForCausalLM' is listed twice in "
                                       "_OTHER_ARCHS (first at line 1)"], result


def test_abbreviations_are_refused_and_the_subcommand_says_so(root):
    for args in (["check", "--no-cach"], ["check", "--form", "json"], ["fix", "--dif"]):
        result = archsync(*args, cwd=root)
        assert result.returncode == EXIT_ERROR, result
        assert result.err_lines[0].startswith(f"usage: archsync {args[0]} "), result
        assert result.err_lines[-1].startswith(f"archsync {args[0]}: error: "), result


def test_stdin_with_other_paths_is_an_error(root):
    result = archsync("check", "--stdin-filename", OVERRIDES, "-", ".", cwd=root, input="x = 1\n")
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, [
        "archsync: error: '-' (stdin) cannot be given with other paths"]), result


@pytest.mark.parametrize("words, command", [
    (["check", "."], "check"), (["--no-cache"], None), (["lsp"], "lsp"), (["--version"], None), ([], None),
])
def test_the_command_is_the_first_word_that_is_no_option(words, command):
    assert _command(words) == command


def test_a_command_run_by_the_console_script_keeps_the_cyclic_collector_off(tmp_path, monkeypatch, capsys):
    """One run, then the process ends: the collector would only walk what the run made (`console`). The
    language server's process keeps it, pausing it per run."""
    root = copy_tree(SGLANG_BUG, tmp_path / "bug")
    monkeypatch.setattr("sys.argv", ["archsync", "check", "--no-cache", str(root)])
    assert gc.isenabled()
    try:
        with pytest.raises(SystemExit) as exited:
            console()
        assert exited.value.code == EXIT_FINDINGS and not gc.isenabled()
    finally:
        gc.enable()
    assert capsys.readouterr().out.count(": ARC101 ") == 1  # the seed's one cause
