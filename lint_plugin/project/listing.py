"""Directory listings, read once per run.

A run walks the tree twice: once for the projects it covers (`projects.py`), once for each
project's files (`discovery.py`). Inside `shared()` (a whole run), each directory is listed,
and each directory is asked whether it holds a pyproject.toml or is a virtual environment,
once; outside it nothing is kept, so a long-lived process (the language server) always sees
the tree as it is now. Per thread: another thread's run never sees this one's listings.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Dict, Iterator, List, Optional, Tuple

DIRECTORY, FILE, OTHER = 1, 2, 0
Entry = Tuple[str, str, int]  # (name, path, DIRECTORY / FILE / OTHER), links never DIRECTORY or FILE

_LOCAL = threading.local()


@contextmanager
def shared() -> Iterator[None]:
    """Within this block (re-entrant), listings and directory probes are read once."""
    outer = getattr(_LOCAL, "memo", None)
    if outer is None:
        _LOCAL.memo = ({}, {})
    try:
        yield
    finally:
        if outer is None:
            _LOCAL.memo = None


def _memo() -> Optional[Tuple[Dict[str, List[Entry]], Dict[Tuple[str, str], bool]]]:
    memo: Optional[Tuple[Dict[str, List[Entry]], Dict[Tuple[str, str], bool]]] = getattr(_LOCAL, "memo", None)
    return memo


def entries(directory: str) -> List[Entry]:
    """The directory's entries sorted by name; [] if it cannot be listed."""
    memo = _memo()
    if memo is not None and directory in memo[0]:
        return memo[0][directory]
    found: List[Entry] = []
    try:
        with os.scandir(directory) as listing:
            for entry in listing:
                try:
                    kind = DIRECTORY if entry.is_dir(follow_symlinks=False) else \
                        FILE if entry.is_file(follow_symlinks=False) else OTHER
                except OSError:
                    kind = OTHER
                found.append((entry.name, entry.path, kind))
    except OSError:
        found = []
    found.sort()
    if memo is not None:
        memo[0][directory] = found
    return found


def holds(directory: str, name: str) -> bool:
    """Does `directory` hold a file `name` (`pyproject.toml`) or anything called so (`pyvenv.cfg`)?"""
    memo = _memo()
    key = (directory, name)
    if memo is not None and key in memo[1]:
        return memo[1][key]
    path = os.path.join(directory, name)
    found = os.path.isfile(path) if name == "pyproject.toml" else os.path.exists(path)
    if memo is not None:
        memo[1][key] = found
    return found
