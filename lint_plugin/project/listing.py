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

from .entries import DIRECTORY, FILE, OTHER, scan

Entry = Tuple[str, str, int]  # (name, path, DIRECTORY / FILE / OTHER), links never DIRECTORY or FILE

_LOCAL = threading.local()
_UNLISTED: List[Entry] = []  # the listing of a directory that cannot be listed (one object, told apart by identity)


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
    """The directory's entries a walk can use, sorted by name ([] if it cannot be listed): its
    directories, `*.py` files and what `holds` asks about (`entries.scan`)."""
    return _listed(directory, _memo())


def _listed(directory: str, memo: Optional[Tuple[Dict[str, List[Entry]], Dict[Tuple[str, str], bool]]]
            ) -> List[Entry]:
    if memo is not None and directory in memo[0]:
        return memo[0][directory]
    found = scan(directory)
    if found is None:
        found = _UNLISTED
    if memo is not None:
        memo[0][directory] = found
    return found


def listed() -> Dict[str, List[Entry]]:
    """Every directory listed so far inside `shared()`, with its entries ({} outside it): what the run
    saw of the tree, for a record of the run that must tell when that changed (`frontends/replay.py`)."""
    memo = _memo()
    return dict(memo[0]) if memo is not None else {}


def holds(directory: str, name: str) -> bool:
    """Does `directory` hold a file `name` (`pyproject.toml`) or anything called so (`pyvenv.cfg`)?

    Links are followed (a linked pyproject.toml makes a project). Inside `shared()` the answer comes
    from the directory's listing, which the walk reads next anyway; a name the listing shows as a
    link or special file, or a directory that cannot be listed, is asked of the file system.
    """
    memo = _memo()
    if memo is None:
        return _probe(directory, name)
    key = (directory, name)
    if key not in memo[1]:
        listed = _listed(directory, memo)
        kind = next((k for n, _, k in listed if n == name), None) if listed is not _UNLISTED else OTHER
        if kind is None:
            memo[1][key] = False
        elif kind == FILE:
            memo[1][key] = True
        elif kind == DIRECTORY:
            memo[1][key] = name != "pyproject.toml"  # a directory is no pyproject.toml, but it exists
        else:
            memo[1][key] = _probe(directory, name)
    return memo[1][key]


def _probe(directory: str, name: str) -> bool:
    path = os.path.join(directory, name)
    return os.path.isfile(path) if name == "pyproject.toml" else os.path.exists(path)
