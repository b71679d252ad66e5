"""One path convention for every front end: a path is shown from the directory the front end runs in.

The engine's paths are project-relative: a diagnostic's, its fix's, and the places its message
names (`diagnostics.place`). A person or a program reading what archsync prints opens them from
where archsync ran, as with ruff and flake8: run from SGLang's repository root, whose project is
`python/`, every path starts with `python/`. A path outside that directory is written with `..`
(text), or as an absolute file URI (SARIF); the language server's documents are absolute URIs.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable, List, Optional

from ..diagnostics import Diagnostic, placed, unmarked


def display_path(root: Path, rel: str, cwd: Optional[str] = None) -> str:
    """A project-relative path as the user reads it: relative to `cwd` (default: the current directory)."""
    path = os.path.join(str(root), rel)
    try:
        return os.path.relpath(path, cwd)
    except ValueError:  # another drive on Windows
        return path


def from_here(root: Path) -> Callable[[str], str]:
    """What each project-relative path of `root` is, seen from the current directory."""
    cwd = os.getcwd()
    return lambda rel: display_path(root, rel, cwd)


def seen_from_here(diagnostics: Iterable[Diagnostic], root: Path) -> List[Diagnostic]:
    """Diagnostics with every path they hold (their own, their fix's, their message's) seen from here."""
    where = from_here(root)
    return [d.seen(where) for d in diagnostics]


def text_from_here(text: str, root: Path) -> str:
    """Text that names places (`diagnostics.place`), as read from here."""
    return unmarked(placed(text, from_here(root)))
