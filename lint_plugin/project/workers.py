"""Spread per-file work over the cores: a fork pool used only when the work is worth it.

Workers inherit the job's state at fork time (no pickling of configuration). Inside a
daemonic process (a flake8 -j worker) no children may be started, and a process with other
threads must not fork, so there work runs serially.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
import threading
from typing import Any, Callable, List, Optional, Sequence

_STATE: Any = None  # what worker functions read; set before the pool forks


def state() -> Any:
    return _STATE


class WorkPool:
    """`map` runs in worker processes when there is enough work, else in this process."""

    def __init__(self, job_state: Any, jobs: Optional[int] = None, min_items: int = 48) -> None:
        self.job_state = job_state
        self.jobs = jobs if jobs is not None else _default_jobs()
        self.min_items = min_items
        self._pool: Optional["multiprocessing.pool.Pool"] = None

    def map(self, function: Callable[[Any], Any], items: Sequence[Any],
            costs: Optional[Sequence[int]] = None) -> List[Any]:
        """`function` of each item, in order. With `costs` (a size per item), the costliest are
        handed out first and in small chunks, so no worker is left with a large file at the end."""
        global _STATE
        _STATE = self.job_state
        # A pool is started only for enough work; once it runs, any batch of two or more uses it
        if self.jobs <= 1 or len(items) < (2 if self._pool is not None else self.min_items):
            return [function(item) for item in items]
        try:
            if self._pool is None:
                try:
                    self._pool = _start(self.jobs)
                except (OSError, ValueError, AssertionError):
                    self.jobs = 1
                    return [function(item) for item in items]
            if costs is None:
                return self._pool.map(function, items, chunksize=max(1, len(items) // (self.jobs * 8)))
            order = sorted(range(len(items)), key=lambda i: -costs[i])
            results = self._pool.map(function, [items[i] for i in order],
                                     chunksize=max(1, len(items) // (self.jobs * 32)))
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
    masking = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masking else None
    try:
        return multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts)
    finally:
        if before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C reaches the whole process group, and only the parent should act on it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _default_jobs() -> int:
    # Forking a process that runs other threads (the language server) can deadlock a child.
    if multiprocessing.current_process().daemon or threading.active_count() > 1 \
            or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        available = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        available = os.cpu_count() or 1
    return max(1, min(available, 8))
