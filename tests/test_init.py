"""`archsync init`: the starter table it appends, byte for byte, and what `check` reports after it.

Each case is a fixture project of ours whose `expected-init.toml`, beside its `expected.txt`,
is exactly what init prints and appends to its pyproject.toml. The table must change nothing
`archsync check` reports, except through a rule pack that fits, and then init says what.
Refusals and bad input are one message and exit 2, with nothing written.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    FIXTURES,
    SOURCE_FIXTURES,
    archsync,
    archsync_process,
    copy_tree,
    unprivileged,
    write,
)


def expected_table(case: str) -> str:
    return (SOURCE_FIXTURES / case / "expected-init.toml").read_text(encoding="utf-8")


# case -> what init prints on stderr; `archsync check` reports after it what it reported before
SAME_CHECK = {
    "fov/kinds": ["archsync: appended the table above to pyproject.toml (47 lines)",
                  "archsync: `archsync check` reports what it did without the table: 1 problem"],
    "fov/plugin": ["archsync: appended the table above to pyproject.toml (49 lines)",
                   "archsync: `archsync check` reports what it did without the table: no problems"],
    "fov/registries": ["archsync: appended the table above to pyproject.toml (53 lines)",
                       "archsync: `archsync check` reports what it did without the table: 5 problems"],
    "fov/subjects": ["archsync: appended the table above to pyproject.toml (49 lines)",
                     "archsync: `archsync check` reports what it did without the table: 3 problems"],
    "fov/two_hop": ["archsync: appended the table above to pyproject.toml (45 lines)",
                    "archsync: `archsync check` reports what it did without the table: 1 problem"],
    "init/mirrors": ["archsync: appended the table above to pyproject.toml (50 lines)",
                     "archsync: `archsync check` reports what it did without the table: no problems"],
}


@pytest.mark.parametrize("case", sorted(SAME_CHECK))
def test_init_appends_the_expected_table_and_check_reports_what_it_did(case, tmp_path):
    root = copy_tree(FIXTURES / case, tmp_path / "project")
    before = (root / "pyproject.toml").read_bytes()
    checked = archsync("check", cwd=root)

    result = archsync("init", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == expected_table(case), result
    assert result.err_lines == SAME_CHECK[case], result
    # appended after one blank line; not one byte before it changed
    assert (root / "pyproject.toml").read_bytes() == before + b"\n" + expected_table(case).encode("utf-8")

    again = archsync("check", cwd=root)
    assert (again.lines, again.returncode) == (checked.lines, checked.returncode), again
    refused = archsync("init", cwd=root)
    assert refused.returncode == EXIT_ERROR and refused.stdout == "", refused
    assert refused.err_lines == [
        "archsync: error: pyproject.toml already has a [tool.archsync] table; init only starts one (edit it by "
        "hand: `archsync inventory` lists what archsync finds)"], refused


def test_on_the_sglang_seed_the_sglang_pack_is_set_and_init_says_what_it_adds(tmp_path):
    root = copy_tree(FIXTURES / "sglang_qwen3_5" / "bug", tmp_path / "bug")
    before = (root / "pyproject.toml").read_bytes()
    seed = [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ]
    # The pack declares the two mamba whitelists mirrors, with SGLang's own exemptions; this small
    # stand-in's extra-buffer list lacks two hybrid models the radix list has, which SGLang's does not.
    mirror = [
        "sglang/srt/arg_groups/overrides.py:48:1: ARC102 'FalconH1ForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(rule pack 'sglang': mirror[0]); the same for 'NemotronHForCausalLM' there",
    ]
    assert archsync("check", cwd=root).lines == seed

    result = archsync("init", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == expected_table("sglang_qwen3_5/bug"), result
    assert 'extends = ["sglang"]  # sglang: 1 mirror, 2 exemptions' in result.lines
    assert result.err_lines == [
        "archsync: appended the table above to pyproject.toml (52 lines)",
        "archsync: the rule pack 'sglang' changes what `archsync check` reports: 2 problems, 1 without it "
        "(+ reported now, - no longer)",
        *("+ " + line for line in mirror),
    ], result
    assert (root / "pyproject.toml").read_bytes() == before + b"\n" + expected_table("sglang_qwen3_5/bug").encode()

    after = archsync("check", cwd=root)
    assert after.lines == seed + mirror, after
    assert after.returncode == EXIT_FINDINGS, after


def test_the_mirror_and_guard_it_suggests_load_and_check_what_they_say(tmp_path):
    root = copy_tree(FIXTURES / "init" / "mirrors", tmp_path / "mirrors")
    assert archsync("init", cwd=root).returncode == EXIT_CLEAN
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    block = text[text.index("# [[tool.archsync.mirror]]  # 3 names"):]
    block = block[:block.index("# ]\n") + 4]
    guard = text[text.index("# guard = ["):]
    guard = guard[:guard.index("# ]\n") + 4]
    for suggestion in (block, guard):  # uncommented as a user would
        text = text.replace(suggestion, "".join(line[2:] + "\n" for line in suggestion.splitlines()))
    (root / "pyproject.toml").write_text(text, encoding="utf-8")

    result = archsync("check", cwd=root)
    assert result.lines == [
        "engine/quant.py:9:1: ARC102 'CharlieForCausalLM' is in LAYER_TYPE_MAP (engine/quant.py:2) but missing "
        "from NORM_TYPE_MAP, which must mirror it (pyproject.toml: tool.archsync.mirror[0])"], result
    assert result.returncode == EXIT_FINDINGS, result


def test_a_project_without_pyproject_gets_one_holding_the_table(tmp_path):
    if any((parent / "pyproject.toml").exists() for parent in tmp_path.resolve().parents):
        pytest.skip("a pyproject.toml above the temporary directory would be the project's")
    root = copy_tree(FIXTURES / "fov" / "kinds", tmp_path / "kinds")
    (root / "pyproject.toml").unlink()
    checked = archsync("check", "kinds", cwd=tmp_path)

    result = archsync("init", "kinds", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == expected_table("fov/kinds"), result
    assert result.err_lines == [
        "archsync: created kinds/pyproject.toml (47 lines)",
        "archsync: `archsync check` reports what it did without the table: 1 problem"], result
    created = root / "pyproject.toml"
    assert created.read_bytes() == expected_table("fov/kinds").encode("utf-8")
    assert stat.S_IMODE(created.stat().st_mode) == 0o666 & ~_umask()
    again = archsync("check", "kinds", cwd=tmp_path)
    assert again.lines == checked.lines == [
        "kinds/vision/disagg.py:3:1: ARC101 'MikeVForCausalLM' is matched by is_mike() (kinds/vision/families.py:9) "
        "but missing from ENCODER_DISAGG_ARCHS"], again


def test_a_project_that_registers_nothing_is_told_what_registries_adds_to(tmp_path):
    """`registries` adds to `EntryClass` (README, Configuration): the starter says so, and does not
    tell the user to keep `EntryClass` in a list that would replace it."""
    root = tmp_path / "project"
    write(root / "pyproject.toml", '[project]\nname = "x"\n')
    write(root / "pkg/lists.py", '_X_ARCHS = ["AForCausalLM", "BForCausalLM"]\n')
    result = archsync("init", "--diff", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    start = result.lines.index("+# Registries: nothing is registered (no `EntryClass`, registry dict, registration "
                               "call or")
    assert result.lines[start:start + 4] == [
        "+# Registries: nothing is registered (no `EntryClass`, registry dict, registration call or",
        "+# registering decorator was found). Name the registry, so unknown names and families can be checked",
        "+# (what the list names adds to `EntryClass`):",
        '+# registries = ["path/to/module.py::NAME", "@decorator"]'], result


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_line_endings_and_a_missing_final_newline_are_kept(tmp_path):
    root = copy_tree(FIXTURES / "fov" / "two_hop", tmp_path / "crlf")
    before = b'[project]\r\nname = "constants-two-hops-away"\r\n\r\n[tool.ruff]\r\nline-length = 100'
    (root / "pyproject.toml").write_bytes(before)
    result = archsync("init", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    table = expected_table("fov/two_hop")
    assert (root / "pyproject.toml").read_bytes() == before + b"\r\n\r\n" + table.replace("\n", "\r\n").encode()
    assert archsync("check", cwd=root).lines == [
        "srv/features.py:3:1: ARC101 'KiloMoeForCausalLM' is matched by is_kilo() (srv/lineage.py:7) but missing "
        "from PREFIX_CACHE_ARCHS"]


def test_an_empty_pyproject_is_appended_to(tmp_path):
    root = copy_tree(FIXTURES / "fov" / "two_hop", tmp_path / "empty")
    (root / "pyproject.toml").write_bytes(b"")
    result = archsync("init", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.err_lines[0] == "archsync: appended the table above to pyproject.toml (45 lines)", result
    assert (root / "pyproject.toml").read_bytes() == expected_table("fov/two_hop").encode("utf-8")


def test_diff_prints_the_change_and_writes_nothing(tmp_path):
    root = copy_tree(FIXTURES / "fov" / "two_hop", tmp_path / "two_hop")
    before = (root / "pyproject.toml").read_bytes()
    result = archsync("init", "--diff", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == (
        "--- a/pyproject.toml\n"
        "+++ b/pyproject.toml\n"
        "@@ -1,3 +1,49 @@\n"
        " [project]\n"
        ' name = "constants-two-hops-away"\n'
        ' version = "0.0.1"\n'
        "+\n" + "".join("+" + line for line in expected_table("fov/two_hop").splitlines(keepends=True))), result
    assert result.err_lines == [
        "archsync: would append the table to pyproject.toml; nothing written",
        "archsync: `archsync check` reports what it did without the table: 1 problem"], result
    assert (root / "pyproject.toml").read_bytes() == before


def test_a_hostile_file_name_stays_inside_its_comment_and_nothing_is_imported(tmp_path):
    root = tmp_path / "hostile"
    write(root / "pyproject.toml", '[project]\nname = "hostile"\n')
    write(root / "engine" / "__init__.py", 'open("IMPORTED", "w").write("the analysed code ran")\n')
    write(root / "engine" / "models.py", (FIXTURES / "init" / "mirrors" / "engine" / "models.py").read_text())
    write(root / "engine" / 'evil\nextends = ["sglang"]\n#.py',
          'SPEC_LIST = ["AlphaForCausalLM", "BravoForCausalLM"]\n\n\ndef pick(arch):\n    return arch in SPEC_LIST\n')
    result = archsync("init", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert '#     "SPEC_LIST",  # engine/evil\\x0aextends = ["sglang"]\\x0a#.py:1, 2 names' in result.lines, result
    assert result.err_lines[-1] == "archsync: `archsync check` reports what it did without the table: no problems"
    assert not any(line.startswith("extends") for line in result.lines), result
    assert archsync("check", cwd=root).returncode == EXIT_CLEAN
    assert not (root / "IMPORTED").exists() and not (tmp_path / "IMPORTED").exists()


MODELS = "class AlphaForCausalLM:\n    pass\n\n\nEntryClass = [AlphaForCausalLM]\n"


@pytest.mark.parametrize("content, message", [
    (b'[project\nname = "x"\n',
     "archsync: error: pyproject.toml: invalid TOML: Expected ']' at the end of a table declaration "
     "(at line 1, column 9)"),
    (b'[project]\nname = "caf\xe9"\n',
     "archsync: error: pyproject.toml: not UTF-8 text (line 2: invalid continuation byte); TOML files are UTF-8"),
    (b"tool = {ruff = {line-length = 100}}\n",
     "archsync: error: a [tool.archsync] table cannot be appended to pyproject.toml: the file would not be valid "
     "TOML (Cannot declare ('tool', 'archsync') twice (at line 3, column 15))"),
    (b'[tool]\narchsync.src = ["."]\n',
     "archsync: error: pyproject.toml already has a [tool.archsync] table; init only starts one (edit it by "
     "hand: `archsync inventory` lists what archsync finds)"),
], ids=["invalid-toml", "not-utf-8", "inline-tool-table", "dotted-archsync-key"])
def test_a_pyproject_init_cannot_append_to_is_refused_untouched(tmp_path, content, message):
    write(tmp_path / "models.py", MODELS)
    (tmp_path / "pyproject.toml").write_bytes(content)
    result = archsync("init", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.err_lines) == (EXIT_ERROR, "", [message]), result
    assert (tmp_path / "pyproject.toml").read_bytes() == content


def test_a_project_that_has_a_table_is_refused(tmp_path):
    root = copy_tree(FIXTURES / "fov" / "universe", tmp_path / "universe") / "plugin"
    before = (root / "pyproject.toml").read_bytes()
    result = archsync("init", "plugin", cwd=root.parent)
    assert (result.returncode, result.stdout) == (EXIT_ERROR, ""), result
    assert result.err_lines == [
        "archsync: error: plugin/pyproject.toml already has a [tool.archsync] table; init only starts one (edit "
        "it by hand: `archsync inventory` lists what archsync finds)"], result
    assert (root / "pyproject.toml").read_bytes() == before


def test_a_read_only_pyproject_is_refused_untouched(tmp_path):
    write(tmp_path / "models.py", MODELS)
    pyproject = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    pyproject.chmod(0o444)
    result = archsync("init", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (EXIT_ERROR, ""), result
    assert result.err_lines == ["archsync: error: pyproject.toml: read-only; nothing written"], result
    assert pyproject.read_text() == '[project]\nname = "x"\n'


@pytest.mark.e2e
def test_a_directory_one_may_not_write_in_is_an_error_and_gets_no_file(tmp_path):
    if any((parent / "pyproject.toml").exists() for parent in tmp_path.resolve().parents):
        pytest.skip("a pyproject.toml above the temporary directory would be the project's")
    prefix = unprivileged(tmp_path)
    root = tmp_path / "locked"
    write(root / "models.py", MODELS)
    root.chmod(0o555)
    try:
        result = archsync_process("init", cwd=root, prefix=prefix)
    finally:
        root.chmod(0o755)
    assert (result.returncode, result.stdout) == (EXIT_ERROR, ""), result
    assert result.err_lines == ["archsync: error: pyproject.toml: Permission denied; nothing written"], result
    assert sorted(p.name for p in root.iterdir()) == ["models.py"]


def test_a_pyproject_linked_from_outside_the_project_is_refused(tmp_path):
    outside = write(tmp_path / "elsewhere" / "pyproject.toml", '[project]\nname = "elsewhere"\n')
    root = tmp_path / "project"
    write(root / "models.py", MODELS)
    (root / "pyproject.toml").symlink_to(Path("..") / "elsewhere" / "pyproject.toml")
    result = archsync("init", cwd=root)
    assert (result.returncode, result.stdout) == (EXIT_ERROR, ""), result
    assert result.err_lines == [
        "archsync: error: pyproject.toml is a symbolic link; archsync init writes only a regular file of the "
        "project, never through a link"], result
    assert outside.read_text() == '[project]\nname = "elsewhere"\n'
    assert (root / "pyproject.toml").is_symlink()


def test_a_path_that_does_not_exist_is_an_error(tmp_path):
    result = archsync("init", "no/such/dir", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.err_lines) == (
        EXIT_ERROR, "", ["archsync: error: no/such/dir: no such file or directory"]), result
    assert not (tmp_path / "pyproject.toml").exists()


def test_help_says_what_init_writes_and_what_it_refuses():
    result = archsync("init", "--help", cwd=FIXTURES)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines[0] == "usage: archsync init [-h] [--diff] [--no-cache] [path]"
    assert "Every other byte of pyproject.toml is kept. A pyproject.toml that already has a" in result.lines
    assert "Exit codes: 0 written (or shown with --diff); 2 refused or an error, and nothing written." \
        in result.lines
