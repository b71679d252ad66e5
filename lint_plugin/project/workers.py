"""Spread per-file work over the cores: a fork pool used only when the work is worth it.

Workers inherit the job's state at fork time (no pickling of configuration). Inside a
daemonic process (a flake8 -j worker) no children may be started, and a process with other
threads must not fork, so there work runs serially.

Starting a pool has a price of its own: importing `multiprocessing` (with pickle, socket,
subprocess and tempfile), forking, and sending every result back pickled. On a small tree that
is more than the work it spreads, so a batch runs in this process unless its estimated cost
(`map`'s `costs`, in bytes, times the batch's `weight`) reaches `min_cost`; `multiprocessing`
is imported only then.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Type

if TYPE_CHECKING:
    import multiprocessing.pool

_STATE: Any = None  # what worker functions read; set before the pool forks

# Cost units are bytes read by the byte prefilter (`project/index.py`'s scan). Parsing and extracting
# a file costs about 8 times as much per byte (2-3 MB/s against 17-30 MB/s for the scan).
PARSE_WEIGHT = 8
# The smallest batch a pool is started for: a pool costs ~30 ms of CPU to import and start, and each
# result is pickled back (for the scan, a third of the scan's own work). Measured on lmdeploy's
# history trees (2.4-3.6 MB, load 8): a pool from 2 MB took 30% more CPU than one process for the
# same wall time; from 4 MB the scan of such a tree runs here and its parse (0.5 MB and more) in the
# pool, which was the fastest of the three and within 10% of one process's CPU. A 6 MB tree and up
# is faster with a pool from the scan on (bench/README, "Cold runs on the history trees").
MIN_COST = 4_000_000


def state() -> Any:
    return _STATE


class WorkPool:
    """`map` runs in worker processes when there is enough work, else in this process."""

    def __init__(self, job_state: Any, jobs: Optional[int] = None, min_cost: Optional[int] = None) -> None:
        self.job_state = job_state
        self._jobs = jobs  # None: decided when a pool is first worth starting (`_default_jobs`)
        self.min_cost = MIN_COST if min_cost is None else min_cost
        self._pool: Optional["multiprocessing.pool.Pool"] = None
        self.started = False  # has a batch been worth a pool (which then serves every later batch of two or more)

    def map(self, function: Callable[[Any], Any], items: Sequence[Any], costs: Sequence[int],
            weight: int = 1) -> List[Any]:
        """`function` of each item, in order. `costs` (a size per item) decide whether the batch is
        worth a pool; there, the costliest are handed out first and in small chunks, so no worker
        is left with a large file at the end."""
        global _STATE
        _STATE = self.job_state
        # A pool is started only for enough work; once it runs, any batch of two or more uses it
        if len(items) < 2 or (self._pool is None and sum(costs) * weight < self.min_cost):
            return [function(item) for item in items]
        if self._jobs is None:
            self._jobs = _default_jobs()
        if self._jobs <= 1:
            return [function(item) for item in items]
        try:
            if self._pool is None:
                try:
                    self._pool = _start(self._jobs)
                    self.started = True
                except (OSError, ValueError, AssertionError):
                    self._jobs = 1
                    return [function(item) for item in items]
            order = sorted(range(len(items)), key=lambda i: -costs[i])
            results = self._pool.map(function, [items[i] for i in order],
                                     chunksize=max(1, len(items) // (self._jobs * 32)))
            placed: List[Any] = [None] * len(items)
            for i, result in zip(order, results):
                placed[i] = result
            return placed
        except KeyboardInterrupt:  # Ctrl-C: the workers ignore it; stop them here, once, and say nothing
            self.close()
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None


def _start(jobs: int) -> "multiprocessing.pool.Pool":
    """A fork pool whose workers never see Ctrl-C: SIGINT is blocked while they are forked (a worker
    inherits the mask, and a signal pending in the parent is not inherited), so none arrives before
    its initializer ignores it. One that came meanwhile reaches the parent when the mask is restored."""
    import multiprocessing.pool

    masking = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masking else None
    try:
        return _quiet_pool()(jobs, initializer=_ignore_interrupts, context=multiprocessing.get_context("fork"))
    finally:
        if before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _quiet_pool() -> "Type[multiprocessing.pool.Pool]":
    """A pool whose worker handler wakes when a worker exits or the pool changes state, and not each time a
    result waits in the pipe: CPython's also watches the result pipe (for `maxtasksperchild`, which this pool
    never sets) and, while results stream in, went round its loop 4,400 times in a cold SGLang check, 80-100 ms
    of the main process's CPU on the cores the workers need. A worker that dies still wakes it (its sentinel)."""
    import multiprocessing.pool

    class QuietPool(multiprocessing.pool.Pool):
        def _get_sentinels(self) -> List[Any]:
            return [self._change_notifier._reader]  # type: ignore[attr-defined]

    return QuietPool


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C reaches the whole process group, and only the parent should act on it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _default_jobs() -> int:
    # Forking a process that runs other threads (the language server) can deadlock a child.
    if threading.active_count() > 1 or not hasattr(os, "fork"):
        return 1
    # A daemonic process (a flake8 -j worker) may not start children. One that never imported
    # multiprocessing is no pool's worker, and need not pay for the import to learn it.
    running = sys.modules.get("multiprocessing")
    if running is not None and running.current_process().daemon:
        return 1
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        available = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        available = os.cpu_count() or 1
    return max(1, min(available, 8))
