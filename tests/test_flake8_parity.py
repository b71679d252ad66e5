"""flake8 --select=ARC and `archsync check` report the same diagnostics on every fixture."""
from __future__ import annotations

import pytest

from conftest import FIXTURES, SHAPES, archsync, flake8, flake8_lines

PROJECTS = [FIXTURES / "sglang_qwen3_5" / "bug", FIXTURES / "sglang_qwen3_5" / "fixed"] + sorted(
    p for p in SHAPES.iterdir() if p.is_dir()
)


@pytest.mark.parametrize("root", PROJECTS, ids=[p.relative_to(FIXTURES).as_posix() for p in PROJECTS])
def test_same_diagnostics_from_both_front_ends(root):
    via_archsync = archsync("check", cwd=root)
    via_flake8 = flake8(".", cwd=root)
    assert flake8_lines(via_flake8) == via_archsync.lines, (via_archsync, via_flake8)
    assert (via_flake8.returncode == 0) == (via_archsync.returncode == 0), (via_archsync, via_flake8)
    assert via_archsync.returncode in (0, 1), via_archsync
