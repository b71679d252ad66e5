"""Which files belong to a project: the root, skipped directories and `exclude` globs.

The fixtures' own output (shapes/discovery: clean; shapes/exclude: three findings) is their
case's expected.txt (tests/test_cases.py); here files and settings are added to copies.
"""
from __future__ import annotations

import pytest

from conftest import EXIT_CLEAN, EXIT_FINDINGS, add_config, archsync, write

# A whitelist holding half of is_november (defined in svc/families.py:8 of the fixture).
STALE = '"""A stale copy of a whitelist."""\n\nSTALE_ARCHS = frozenset({"NovemberForCausalLM"})\n'


@pytest.mark.parametrize("where, expected", [
    ("svc/extra/stale.py",
     "svc/extra/stale.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (svc/families.py:8) "
     "but missing from STALE_ARCHS"),
    ("stale.py",
     "stale.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (svc/families.py:8) "
     "but missing from STALE_ARCHS"),
    ("tools/scripts/stale.py",
     "tools/scripts/stale.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (svc/families.py:8) "
     "but missing from STALE_ARCHS"),
    ("svc/buildx/stale.py",
     "svc/buildx/stale.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (svc/families.py:8) "
     "but missing from STALE_ARCHS"),
])
def test_an_ordinary_directory_is_walked(tree, where, expected):
    # The control for the skipped directories below: the same file is found here.
    root = tree("shapes/discovery")
    write(root / where, STALE)
    result = archsync("check", cwd=root)
    assert result.lines == [expected], result
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


@pytest.mark.parametrize("venv, expected", [
    ("env",
     "env/lib/stale.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (svc/families.py:8) "
     "but missing from STALE_ARCHS"),
    ("svc/runtime-env",
     "svc/runtime-env/lib/stale.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() "
     "(svc/families.py:8) but missing from STALE_ARCHS"),
])
def test_a_virtualenv_is_recognised_by_its_pyvenv_cfg(tree, venv, expected):
    root = tree("shapes/discovery")
    write(root / venv / "lib/stale.py", STALE)
    # Without pyvenv.cfg the directory is ordinary and the stale file is found ...
    found = archsync("check", cwd=root)
    assert found.lines == [expected], found
    # ... with it, the directory is a virtualenv and skipped.
    write(root / venv / "pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\n")
    skipped = archsync("check", cwd=root)
    assert skipped.stdout == "", skipped
    assert skipped.returncode == EXIT_CLEAN


def test_root_is_the_nearest_directory_holding_pyproject(tree):
    root = tree("shapes/discovery")
    # A nested project is a project of its own, from the outside as from the inside: its root
    # is its own pyproject.toml and is_november (of the outer project) is not in it.
    write(root / "vendored/pyproject.toml", '[project]\nname = "vendored"\nversion = "1"\n')
    write(root / "vendored/tables.py", STALE)
    outer = archsync("check", cwd=root)
    assert (outer.stdout, outer.returncode) == ("", EXIT_CLEAN), outer
    assert outer.err_lines == ["archsync: no problems (4 files in 2 projects, 3 analysed)"], outer
    (root / "vendored/pyproject.toml").unlink()  # gone: vendored/ is part of the outer tree again
    again = archsync("check", cwd=root)
    assert again.lines == [
        "vendored/tables.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (svc/families.py:8) "
        "but missing from STALE_ARCHS",
    ], again
    write(root / "vendored/pyproject.toml", '[project]\nname = "vendored"\nversion = "1"\n')
    inner = archsync("check", "vendored", cwd=root)
    assert inner.stdout == "", inner
    assert inner.returncode == EXIT_CLEAN
    inner_json = archsync("check", "--format", "json", cwd=root / "vendored")
    assert inner_json.json == {"version": 2, "root": str((root / "vendored").resolve()), "diagnostics": []}, inner_json


def test_without_any_pyproject_the_given_directory_is_the_root(tmp_path):
    if any((parent / "pyproject.toml").exists() for parent in tmp_path.parents):
        pytest.skip("a pyproject.toml above the temporary directory")
    project = tmp_path / "loose"
    write(project / "families.py", 'def is_november(c):\n    return c.architectures[0] in '
                                   '("NovemberForCausalLM", "NovemberMoeForCausalLM")\n')
    write(project / "tables.py", STALE)
    result = archsync("check", "loose", cwd=tmp_path)
    # Every path is relative to the working directory: the reported one and the family's.
    assert result.lines == [
        "loose/tables.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (loose/families.py:1) "
        "but missing from STALE_ARCHS",
    ], result
    as_json = archsync("check", "--format", "json", "loose", cwd=tmp_path)
    assert [d["path"] for d in as_json.json["diagnostics"]] == ["loose/tables.py"], as_json
    assert as_json.json["root"] == str(project.resolve()), as_json


# -- exclude ------------------------------------------------------------------------------------

# What shapes/exclude reports without configuration (its expected.txt); is_mike is on line 4
# of app/families.py.
EXCLUDE_LINES = {
    "current": "app/current.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (app/families.py:4) "
               "but missing from CURRENT_ARCHS",
    "generated": "app/generated_tables.py:3:1: ARC101 'MikeForCausalLM' is matched by is_mike() (app/families.py:4) "
                 "but missing from GENERATED_ARCHS",
    "old": "app/legacy/old_tables.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (app/families.py:4) "
           "but missing from OLD_ARCHS",
}


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
    result = archsync("check", cwd=root)
    assert result.lines == [EXCLUDE_LINES[k] for k in kept], result
    assert result.returncode == EXIT_FINDINGS


def test_excluding_the_family_module_removes_the_family(tree):
    root = tree("shapes/exclude")
    add_config(root, 'exclude = ["app/families.py"]')
    result = archsync("check", cwd=root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN
