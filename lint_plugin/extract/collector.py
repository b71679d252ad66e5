"""The cyclic garbage collector, paused while a file is parsed and read, and while a run analyses.

A parse allocates one object per syntax node; none of them is in a reference cycle, and all but
the facts are freed by reference counting when the tree is dropped. The values a run builds
(records, facts, the model, diagnostics) are frozen values that form no cycles either. The
collector would still walk them, and every long-lived object of the process with them, again
and again as they pile up: on a tree of 6,000 files that was half of the time spent parsing,
and grew faster than the tree. Paused (`extract_file`, and the pipeline around a whole run), it
runs again when the outermost pause ends. Worker processes forked during a run inherit the
pause, and end with the run. Pausing is process-wide: a nested or concurrent pause (another
thread of the language server) leaves the collector to the outermost one, which only ever
delays a collection.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import ContextManager, Iterator, Optional

_LOCK = threading.Lock()
_PAUSES = 0  # pauses in progress, all threads together
_RESUME = True  # whether the outermost pause found the collector running (and so restarts it)


@contextmanager
def paused() -> Iterator[None]:
    global _PAUSES, _RESUME
    with _LOCK:
        if _PAUSES == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _LOCK:
            _PAUSES -= 1
            if _PAUSES == 0 and _RESUME:
                gc.enable()


class Held:
    """The collector paused across many runs, as an editor's typing starts them, until `release`.

    A long-lived process that keeps every file's facts (the language server) has a large heap:
    resumed after each run, the collector walks all a run made (tens of milliseconds, on the
    run's thread, before its result goes out), and now and then everything. Held while runs
    follow one another and released once they stop, it collects while nobody waits.
    """

    def __init__(self) -> None:
        self._pause: Optional[ContextManager[None]] = None

    def hold(self) -> None:
        if self._pause is None:
            self._pause = paused()
            self._pause.__enter__()

    def release(self) -> None:
        if self._pause is not None:
            pause, self._pause = self._pause, None
            pause.__exit__(None, None, None)
