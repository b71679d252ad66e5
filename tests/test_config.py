"""`[tool.archsync]` errors: exit code 2, one message naming the key and the file, no traceback."""
from __future__ import annotations

import pytest

from conftest import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, add_config, archsync, flake8, flake8_lines, write


def _error_line(result):
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result
    return lines[0]


@pytest.mark.parametrize("body, key", [
    ("bogus = 1", "tool.archsync.bogus"),
    ('gaurd = ["*_ARCHS"]', "tool.archsync.gaurd"),
    ('guard = ["*_ARCHS"]\nfamilys = ["is_x"]', "tool.archsync.familys"),
])
def test_unknown_key(tree, body, key):
    root = tree("shapes/guard")
    add_config(root, body)
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    message = _error_line(result)
    assert key in message, message
    assert str((root / "pyproject.toml").resolve()) in message, message


@pytest.mark.parametrize("body, key", [
    ('guard = "*_ARCHS"', "tool.archsync.guard"),
    ("guard = [1, 2]", "tool.archsync.guard"),
    ('families = "is_qwen3_5"', "tool.archsync.families"),
    ("exclude = true", "tool.archsync.exclude"),
    ('src = [["python"]]', "tool.archsync.src"),
    ('registries = {name = "EntryClass"}', "tool.archsync.registries"),
])
def test_wrong_type(tree, body, key):
    root = tree("shapes/guard")
    add_config(root, body)
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    message = _error_line(result)
    assert key in message, message
    assert str((root / "pyproject.toml").resolve()) in message, message


def test_archsync_table_that_is_not_a_table(tree):
    root = tree("shapes/guard")
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool]\narchsync = "on"\n')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    message = _error_line(result)
    assert "tool.archsync" in message, message
    assert str(pyproject.resolve()) in message, message


@pytest.mark.parametrize("text", [
    '[project]\nname = "broken"\n\n[tool.archsync\nguard = ["*_ARCHS"]\n',
    '[project]\nname = "broken"\n\n[tool.archsync]\nguard = ["*_ARCHS"\n',
    '[project]\nname = "broken"\nname = "twice"\n',
])
def test_invalid_toml(tree, text):
    root = tree("shapes/guard")
    (root / "pyproject.toml").write_text(text)
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    message = _error_line(result)
    assert str((root / "pyproject.toml").resolve()) in message, message


def test_json_format_reports_config_errors_the_same_way(tree):
    root = tree("shapes/guard")
    add_config(root, "bogus = 1")
    result = archsync("check", "--format", "json", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert "tool.archsync.bogus" in _error_line(result)


def test_config_error_when_checking_a_subdirectory(tree):
    root = tree("shapes/guard")
    add_config(root, "bogus = 1")
    result = archsync("check", "lists", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert "tool.archsync.bogus" in _error_line(result)


def test_other_tools_tables_are_not_our_business(tree):
    root = tree("shapes/guard")
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool.ruff]\nline-length = 120\n\n[tool.archsyncx]\nbogus = 1\n')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.lines == [
        "lists/whitelists.py:4:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ARCHS",
    ], result


def test_every_documented_key_is_accepted(tree):
    root = tree("sglang_qwen3_5/bug")
    add_config(root, 'src = ["."]\nexclude = []\nguard = ["*_ARCHS"]\nfamilies = []\nregistries = ["EntryClass"]\n'
                     'select = ["ARC1"]\nignore = ["ARC901"]')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert [line.split(": ")[1].split()[0] for line in result.lines] == ["ARC101"], result


def test_flake8_reports_a_config_error_once_without_traceback(tree):
    # flake8 checks files in several processes; the error must still be shown once.
    root = tree("sglang_qwen3_5/bug")
    add_config(root, "bogus = 1")
    result = flake8("--jobs=4", "sglang", cwd=root)
    assert result.returncode == 1, result
    lines = result.lines
    assert len(lines) == 1, result
    assert "tool.archsync.bogus" in lines[0], result


def test_src_limits_the_walk(tree):
    root = tree("shapes/guard")
    write(root / "other/tables.py", 'EXTRA_ARCHS = frozenset({"LimaForCausalLM"})\n')
    everything = archsync("check", cwd=root)
    assert everything.lines == [
        "lists/whitelists.py:4:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ARCHS",
        "other/tables.py:1:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from EXTRA_ARCHS",
    ], everything
    add_config(root, 'src = ["lists"]')
    limited = archsync("check", cwd=root)
    assert limited.lines == [
        "lists/whitelists.py:4:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ARCHS",
    ], limited


def test_the_readme_configuration_shows_every_key_and_loads(tmp_path):
    """README, Configuration: its `[tool.archsync]` example names every key the loader knows (a key added
    to the loader is documented there) and is valid as written."""
    import re

    from conftest import REPO
    from lint_plugin.config import config_from_text
    from lint_plugin.config.loading import _KNOWN, parse_toml
    from lint_plugin.rules import CODES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```toml\n(\[tool\.archsync\]\nsrc = .*?)```", readme, re.S)
    assert found, "the README's configuration example"
    table = parse_toml(found.group(1), "README.md")["tool"]["archsync"]
    shown = {key.replace("_", "-") for key in table} | {"select"}  # `select`: beside `ignore`, in its comment
    assert "`select` narrows" in found.group(1)
    assert shown == set(_KNOWN), sorted(shown ^ set(_KNOWN))
    assert {key: sorted(table[key][0]) for key in ("mirror", "subset", "cover", "exempt")} == {
        "mirror": ["collections", "families"], "subset": ["in", "of"], "cover": ["collections", "families"],
        "exempt": ["codes", "members", "reason", "subject"]}
    config_from_text(tmp_path, "[project]\nname = \"p\"\n" + found.group(1), CODES)


def test_ignore_in_the_configuration_silences_arc901_for_every_front_end(tree):
    """An exemption names one subject; `ignore = ["ARC901"]` silences the code project-wide, in check and
    under flake8, and the command line cannot bring it back (it narrows further)."""
    root = tree("sglang_qwen3_5/bug")
    overrides = root / "sglang/srt/arg_groups/overrides.py"
    with open(overrides, "a", encoding="utf-8") as handle:
        handle.write('\n_LATE_ARCHS = frozenset({"Qwen3NextForCausalLM"}) | frozenset(load_more())\n')
    partly = ("sglang/srt/arg_groups/overrides.py:94:1: ARC901 _LATE_ARCHS is only partly analysed: cannot follow "
              "`frozenset(load_more())` (sglang/srt/arg_groups/overrides.py:94) (1 name read still takes part)")
    assert archsync("check", "--select", "ARC9", cwd=root).lines == [partly]
    assert flake8_lines(flake8("--select", "ARC9", ".", cwd=root)) == [partly]
    add_config(root, 'ignore = ["ARC901"]')
    for result in (archsync("check", "--select", "ARC9", cwd=root), flake8("--select", "ARC9", ".", cwd=root)):
        assert (result.returncode, result.stdout) == (EXIT_CLEAN, ""), result
    assert [line.split(": ")[1].split()[0] for line in archsync("check", cwd=root).lines] == ["ARC101"]
