"""What a walk sees of one directory: its subdirectories, `*.py` files and the files that make a
directory a project or a virtual environment.

Kept apart from `listing.py` (which memoises listings for a run) and free of heavy imports, so that a
check answered from a record made on another checkout (`frontends/carried.py`) lists a directory
exactly as the run it replays did, without loading anything a real run needs.
"""
from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:
    from typing import List, Optional, Tuple

    Entry = Tuple[str, str, int]  # (name, path, DIRECTORY / FILE / OTHER), links never DIRECTORY or FILE

DIRECTORY, FILE, OTHER = 1, 2, 0
PROBED = frozenset({"pyproject.toml", "pyvenv.cfg"})  # files besides `*.py` a walk asks about


def scan(directory: str) -> Optional[List[Entry]]:
    """The directory's entries a walk can use, sorted by name; None if it cannot be listed. Other
    files (most of a tree outside its Python packages: sources, docs, data) are left out."""
    found: List[Entry] = []
    try:
        with os.scandir(directory) as listing:
            for entry in listing:
                name = entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        kind = DIRECTORY
                    elif name.endswith(".py") or name in PROBED:
                        kind = FILE if entry.is_file(follow_symlinks=False) else OTHER
                    else:
                        continue
                except OSError:
                    kind = OTHER
                found.append((name, entry.path, kind))
    except OSError:
        return None
    found.sort()
    return found
