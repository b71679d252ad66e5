"""One registry and one list of N names cost memory linear in N (issue 30, item 9).

Kinship once counted every pair of names a list holds together: a list of 4,000 names made 16
million pairs (2.3 GB, 11 s). What a check allocates at its peak is measured, not its time: four
times the names may cost about four times the memory, never sixteen. `python -m bench.scale`
shows the time and memory ratios side by side.
"""
from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

from conftest import archsync

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.scale import write_tree  # noqa: E402


def _peak(project: Path) -> int:
    """The most memory `archsync check` held at once on `project`, in bytes (what Python allocated)."""
    tracemalloc.start()
    try:
        result = archsync("check", "--no-cache", "--no-prefilter", cwd=project)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.lines == [], result
    return peak


def test_a_list_four_times_longer_costs_about_four_times_the_memory(tmp_path):
    _peak(write_tree(tmp_path / "warm", 10))  # imports and first-use caches are not what is measured
    small = _peak(write_tree(tmp_path / "small", 400))
    large = _peak(write_tree(tmp_path / "large", 1600))
    assert large / small < 8, (small, large)  # linear: about 4; pairs: about 16
