"""Which files belong to a project: the root, skipped directories and `exclude` globs."""
from __future__ import annotations

import pytest

from conftest import EXIT_CLEAN, EXIT_FINDINGS, add_config, arc101, archsync, defined_at, write

# A whitelist holding half of is_november (defined in svc/families.py of the fixture).
STALE = '"""A stale copy of a whitelist."""\n\nSTALE_ARCHS = frozenset({"NovemberForCausalLM"})\n'


def _stale_line(root, shown):
    return arc101(shown, 3, "NovemberMoeForCausalLM",
                  [("is_november", "svc/families.py", defined_at(root / "svc/families.py", "is_november"))],
                  "STALE_ARCHS")


def test_discovery_fixture_is_clean():
    from conftest import SHAPES

    result = archsync("check", cwd=SHAPES / "discovery")
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


@pytest.mark.parametrize("where", ["svc/extra/stale.py", "stale.py", "tools/scripts/stale.py", "svc/buildx/stale.py"])
def test_an_ordinary_directory_is_walked(tree, where):
    # The control for the skipped directories below: the same file is found here.
    root = tree("shapes/discovery")
    write(root / where, STALE)
    result = archsync("check", cwd=root)
    assert result.lines == [_stale_line(root, where)], result
    assert result.returncode == EXIT_FINDINGS


@pytest.mark.parametrize("where", [
    ".git/hooks/stale.py",
    ".hidden/stale.py",
    "svc/.cache/stale.py",
    "build/lib/svc/stale.py",
    "dist/stale.py",
    "svc/build/stale.py",
    ".venv/lib/python3.11/site-packages/stale.py",
])
def test_skipped_directories(tree, where):
    root = tree("shapes/discovery")
    write(root / where, STALE)
    result = archsync("check", cwd=root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


@pytest.mark.parametrize("venv", ["env", "svc/runtime-env"])
def test_a_virtualenv_is_recognised_by_its_pyvenv_cfg(tree, venv):
    root = tree("shapes/discovery")
    write(root / venv / "lib/stale.py", STALE)
    # Without pyvenv.cfg the directory is ordinary and the stale file is found ...
    found = archsync("check", cwd=root)
    assert found.lines == [_stale_line(root, f"{venv}/lib/stale.py")], found
    # ... with it, the directory is a virtualenv and skipped.
    write(root / venv / "pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\n")
    skipped = archsync("check", cwd=root)
    assert skipped.stdout == "", skipped
    assert skipped.returncode == EXIT_CLEAN


def test_root_is_the_nearest_directory_holding_pyproject(tree):
    root = tree("shapes/discovery")
    # A nested project: checked from the outside it is part of the outer tree, checked
    # on its own its root is its own pyproject.toml and is_november is not in it.
    write(root / "vendored/pyproject.toml", '[project]\nname = "vendored"\nversion = "1"\n')
    write(root / "vendored/tables.py", STALE)
    outer = archsync("check", cwd=root)
    assert outer.lines == [_stale_line(root, "vendored/tables.py")], outer
    inner = archsync("check", "vendored", cwd=root)
    assert inner.stdout == "", inner
    assert inner.returncode == EXIT_CLEAN
    inner_json = archsync("check", "--format", "json", cwd=root / "vendored")
    assert inner_json.json == {"version": 1, "diagnostics": []}, inner_json


def test_without_any_pyproject_the_given_directory_is_the_root(tmp_path):
    if any((parent / "pyproject.toml").exists() for parent in tmp_path.parents):
        pytest.skip("a pyproject.toml above the temporary directory")
    project = tmp_path / "loose"
    write(project / "families.py", 'def is_november(c):\n    return c.architectures[0] in '
                                   '("NovemberForCausalLM", "NovemberMoeForCausalLM")\n')
    write(project / "tables.py", STALE)
    result = archsync("check", "loose", cwd=tmp_path)
    assert result.lines == [arc101("loose/tables.py", 3, "NovemberMoeForCausalLM",
                                   [("is_november", "families.py", 1)], "STALE_ARCHS")], result
    as_json = archsync("check", "--format", "json", "loose", cwd=tmp_path)
    assert [d["path"] for d in as_json.json["diagnostics"]] == ["tables.py"], as_json


# -- exclude ------------------------------------------------------------------------------------

def _exclude_lines(root):
    family = [("is_mike", "app/families.py", defined_at(root / "app/families.py", "is_mike"))]
    return {
        "current": arc101("app/current.py", 3, "MikeMoeForCausalLM", family, "CURRENT_ARCHS"),
        "generated": arc101("app/generated_tables.py", 3, "MikeForCausalLM", family, "GENERATED_ARCHS"),
        "old": arc101("app/legacy/old_tables.py", 3, "MikeMoeForCausalLM", family, "OLD_ARCHS"),
    }


def test_exclude_fixture_without_configuration_reports_all_three():
    from conftest import SHAPES

    root = SHAPES / "exclude"
    lines = _exclude_lines(root)
    result = archsync("check", cwd=root)
    assert result.lines == [lines["current"], lines["generated"], lines["old"]], result


@pytest.mark.parametrize("patterns, kept", [
    ('["app/legacy"]', ["current", "generated"]),
    ('["app/legacy/"]', ["current", "generated"]),
    ('["app/legacy/*"]', ["current", "generated"]),
    ('["legacy"]', ["current", "generated"]),
    ('["*_tables.py"]', ["current"]),
    ('["app/generated_*.py", "app/legacy"]', ["current"]),
    ('["app/generated_tables.py"]', ["current", "old"]),
    ('["elsewhere/*"]', ["current", "generated", "old"]),
])
def test_exclude_globs(tree, patterns, kept):
    root = tree("shapes/exclude")
    add_config(root, f"exclude = {patterns}")
    lines = _exclude_lines(root)
    result = archsync("check", cwd=root)
    assert result.lines == [lines[k] for k in kept], result
    assert result.returncode == EXIT_FINDINGS


def test_excluding_the_family_module_removes_the_family(tree):
    root = tree("shapes/exclude")
    add_config(root, 'exclude = ["app/families.py"]')
    result = archsync("check", cwd=root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN
