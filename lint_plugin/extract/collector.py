"""The cyclic garbage collector, paused while a file is parsed and read, and while a run analyses.

A parse allocates one object per syntax node; none of them is in a reference cycle, and all but
the facts are freed by reference counting when the tree is dropped. The values a run builds
(records, facts, the model, diagnostics) are frozen values that form no cycles either. The
collector would still walk them, and every long-lived object of the process with them, again
and again as they pile up: on a tree of 6,000 files that was half of the time spent parsing,
and grew faster than the tree. Paused (`extract_file`, and the pipeline around a whole run), it
runs again when the pause that stopped it ends. Worker processes forked during a run inherit
the pause, and end with the run.

The `archsync` command (`frontends/cli.py:console`) keeps the collector off for its whole process, the
language server's aside: a command is one run, and the process ends after it.

Nothing here is kept between calls: the collector's own switch is the state. A pause that finds
the collector already stopped (by an outer pause, or a `Held` one) leaves it to whoever stopped
it, which only ever delays a collection.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused() -> Iterator[None]:
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Held:
    """The collector paused across many runs, as an editor's typing starts them, until `release`.

    A long-lived process that keeps every file's facts (the language server) has a large heap:
    resumed after each run, the collector walks all a run made (tens of milliseconds, on the
    run's thread, before its result goes out), and now and then everything. Held while runs
    follow one another and released once they stop, it collects while nobody waits. The front
    end that owns it (the server) owns this state.
    """

    def __init__(self) -> None:
        self._holding = False

    def hold(self) -> None:
        if not self._holding and gc.isenabled():
            gc.disable()
            self._holding = True

    def release(self) -> None:
        if self._holding:
            self._holding = False
            gc.enable()
