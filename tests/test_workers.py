"""The worker pool: a batch too small to be worth a pool runs in this process, and either way the
index holds the same records and a run reports the same findings."""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from lint_plugin.config import load_config
from lint_plugin.pipeline import Request, run
from lint_plugin.project import workers
from lint_plugin.project.discovery import discover
from lint_plugin.project.index import ProjectIndex
from lint_plugin.resolve import choose_files
from lint_plugin.rules.codes import CODES

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gen import generate  # noqa: E402

can_fork = pytest.mark.skipif(not hasattr(os, "fork") or threading.active_count() > 1,
                              reason="a fork pool needs fork() and a process without other threads")


def _pid(item: int) -> tuple:
    return item, os.getpid()


def test_a_batch_below_the_threshold_runs_in_this_process():
    pool = workers.WorkPool(None, jobs=2, min_cost=1000)
    try:
        assert pool.map(_pid, [1, 2, 3], [300, 300, 300]) == [(1, os.getpid()), (2, os.getpid()), (3, os.getpid())]
        assert not pool.started
    finally:
        pool.close()


@can_fork
def test_a_batch_at_the_threshold_runs_in_workers_which_then_take_every_batch_of_two_or_more():
    pool = workers.WorkPool(None, jobs=2, min_cost=1000)
    try:
        # parsing weighs more per byte than scanning: 3 x 50 bytes x 8 reach 1000
        results = pool.map(_pid, [1, 2, 3], [50, 50, 50], weight=8)
        assert [item for item, _ in results] == [1, 2, 3]
        assert pool.started and os.getpid() not in {pid for _, pid in results}
        later = pool.map(_pid, [4, 5], [1, 1])
        assert [item for item, _ in later] == [4, 5] and os.getpid() not in {pid for _, pid in later}
        assert pool.map(_pid, [6], [1]) == [(6, os.getpid())]  # one item is never worth a round trip
    finally:
        pool.close()


@can_fork
def test_the_pools_worker_handler_sleeps_while_results_stream_in(monkeypatch):
    """CPython's wakes each time a result waits in the pipe (thousands of times a cold check); this pool's
    only when the pool changes state or a worker exits (it still watches each worker's sentinel). Killing
    a worker to show that is no test: an idle worker holds the task queue's lock while it waits, and a
    pool whose worker died holding it hangs, this one and CPython's alike."""
    import multiprocessing.pool

    wakes = []
    wait = multiprocessing.pool.Pool._wait_for_updates
    monkeypatch.setattr(multiprocessing.pool.Pool, "_wait_for_updates",
                        staticmethod(lambda *args, **kwargs: wakes.append(1) or wait(*args, **kwargs)))
    pool = workers.WorkPool(None, jobs=2, min_cost=1)
    try:
        items = list(range(2000))
        assert [item for item, _ in pool.map(_pid, items, [1] * len(items))] == items
        assert len(wakes) < 20, len(wakes)
        assert [item for item, _ in pool.map(_pid, items[:50], [1] * 50)] == items[:50]
    finally:
        pool.close()


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("generated")
    generate(root, 1)
    return root


def _index(root: Path, min_cost: int, monkeypatch) -> ProjectIndex:
    monkeypatch.setattr(workers, "MIN_COST", min_cost)
    config = load_config(root, CODES)
    with ProjectIndex(config, discover(config)) as index:
        choose_files(index)
    return index


@can_fork
def test_serial_below_the_threshold_gives_the_index_the_pool_gives(generated, monkeypatch):
    pooled = _index(generated, 0, monkeypatch)
    serial = _index(generated, 10 ** 12, monkeypatch)
    assert pooled.pooled and not serial.pooled
    assert dict(serial.signals()) == dict(pooled.signals())
    assert serial.facts == pooled.facts and serial.parsed == pooled.parsed > 0
    assert [(rel, level) for rel, _, level in serial.records()] == [(rel, level) for rel, _, level in pooled.records()]


@can_fork
def test_serial_below_the_threshold_reports_what_the_pool_reports(generated, monkeypatch):
    monkeypatch.setattr(workers, "MIN_COST", 0)
    pooled = run(Request((generated,), use_cache=False))
    monkeypatch.setattr(workers, "MIN_COST", 10 ** 12)
    serial = run(Request((generated,), use_cache=False))
    assert len(pooled.diagnostics) == 4, pooled.diagnostics  # the generated tree's seeded drift
    assert serial.diagnostics == pooled.diagnostics and serial.parsed == pooled.parsed


def test_the_default_threshold_keeps_a_small_project_in_one_process(generated, tmp_path, monkeypatch):
    """100 small files (the old rule started a pool from 48), and a generated 1x tree (4.6 MB) that is worth one."""
    for i in range(100):
        (tmp_path / f"m{i}.py").write_text(f'NAMES_{i} = ["LlamaForCausalLM"]\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    assert not _index(tmp_path, workers.MIN_COST, monkeypatch).pooled
    if hasattr(os, "fork") and threading.active_count() == 1:
        assert _index(generated, workers.MIN_COST, monkeypatch).pooled
