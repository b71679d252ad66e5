"""What a check of a project reads from disk, stamped, to tell when any of it changed.

The language server's own file watcher, for editors that do not watch files for it: it
compares two `stamps` of a project rather than subscribing to the operating system
(no dependency, the same on every platform, and nothing to leak when a project closes).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple, Union

from ..config import ConfigError, load_config
from .discovery import discover

PYPROJECT = "pyproject.toml"

# st_mtime_ns, st_ctime_ns, st_size, st_ino: a rewrite within one mtime tick, or a file
# replaced by another (an editor's save by rename), still changes one of them.
Stamp = Tuple[int, int, int, int]


def stamps(root: Path) -> Dict[str, Stamp]:
    """Root-relative path -> stamp of pyproject.toml and of every source file a check would read.

    With a broken configuration nothing can be checked until pyproject.toml is repaired, so it
    alone is stamped then (the check after the repair reads every file afresh).
    """
    paths = [(PYPROJECT, str(root / PYPROJECT))]
    try:
        config = load_config(root)
    except ConfigError:
        pass
    else:
        paths += [(f.rel, f.path) for f in discover(config)]
    found: Dict[str, Stamp] = {}
    for rel, path in paths:
        value = stamp(path)
        if value is not None:  # absent (deleted, a project without pyproject.toml): absent in the stamps too
            found[rel] = value
    return found


def stamp(path: Union[str, Path]) -> Optional[Stamp]:
    """One file's stamp; None if there is no file to stamp."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def changed(before: Mapping[str, Stamp], after: Mapping[str, Stamp]) -> List[str]:
    """Paths created, deleted or modified between two stamps of one project, sorted.

    When pyproject.toml changed, which files a check reads may have changed with it (an
    `exclude`, a broken table): a file that only entered or left that set is no change on disk.
    """
    if before.get(PYPROJECT) != after.get(PYPROJECT):
        return sorted({PYPROJECT} | {rel for rel in before.keys() & after.keys() if before[rel] != after[rel]})
    return sorted(rel for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel))
