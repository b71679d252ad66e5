"""Every fixture project is a case: its `expected.txt` holds exactly what `archsync check` prints.

`expected.txt` lists the diagnostic lines in output order; lines starting with `#` say why a
line is there (or why something is absent) and are not compared. The same case runs through
`flake8 --select=ARC`, which must print the same lines except those of pyproject.toml
(ARC202), which only the CLI reports, and through `archsync check --no-prefilter`, which parses
every file: the prefilter must never change a result. Adding a case is adding a folder.
"""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from conftest import EXIT_CLEAN, EXIT_FINDINGS, FIXTURES, SOURCE_FIXTURES, archsync, flake8, flake8_lines

CASES = sorted(p.parent.relative_to(SOURCE_FIXTURES).as_posix() for p in SOURCE_FIXTURES.rglob("expected.txt"))


def expected_lines(case: Path) -> List[str]:
    text = (case / "expected.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("case", CASES)
def test_archsync_check_prints_the_expected_lines(case):
    root = FIXTURES / case
    expected = expected_lines(root)
    result = archsync("check", "--no-cache", cwd=root)
    assert result.lines == expected, result
    assert result.returncode == (EXIT_FINDINGS if expected else EXIT_CLEAN), result


@pytest.mark.parametrize("case", CASES)
def test_the_prefilter_never_changes_a_result(case):
    """The byte prefilter only decides what is parsed: parsing every file gives the same lines, and `inventory`
    the same registrations, subjects and families."""
    root = FIXTURES / case
    result = archsync("check", "--no-cache", "--no-prefilter", cwd=root)
    assert result.lines == expected_lines(root), result
    inventories = [archsync("inventory", "--no-cache", "--format", "json", *prefilter, cwd=root)
                   for prefilter in ([], ["--no-prefilter"])]
    assert inventories[0].lines == inventories[1].lines


@pytest.mark.parametrize("case", CASES)
def test_flake8_prints_the_same_lines(case):
    root = FIXTURES / case
    expected = [line for line in expected_lines(root) if line.split(":", 1)[0].endswith(".py")]
    result = flake8(".", cwd=root)
    assert flake8_lines(result) == expected, result
    assert result.returncode == (1 if expected else 0), result


def test_every_fixture_project_is_a_case():
    """Each project is a case, or inside one (a monorepo case holds several projects)."""
    projects = sorted(p.parent.relative_to(SOURCE_FIXTURES).as_posix() for p in SOURCE_FIXTURES.rglob("pyproject.toml"))
    outside = [p for p in projects if not any(p == case or p.startswith(case + "/") for case in CASES)]
    assert outside == []
    assert all(case in projects or any(p.startswith(case + "/") for p in projects) for case in CASES)
