"""What archsync keeps in its cache directory, so that a directory holding anything else is not taken for one.

`cache-dir` may name any directory inside the project, so it may name one that holds the project's
own files (a source package, docs, build output). archsync writes a `.gitignore` of `*` into its
cache directory: written there, it would hide from git every module added later. So a `cache-dir`
that holds anything archsync does not write there is a configuration error, and the markers are
written only into a directory archsync created (`project/writer.py`). The names are those of the
index and result caches (`project/cache_paths.py`), the writer's temporaries and the markers.
"""
from __future__ import annotations

import os
import re
from typing import Dict, List

# Keep the cache out of version control and backups, as other tools do; the tag first: it records
# that archsync made the directory (https://bford.info/cachedir/)
MARKERS: Dict[str, bytes] = {
    "CACHEDIR.TAG": b"Signature: 8a477f597d28d172789f06886806bc55\n# archsync cache\n",
    ".gitignore": b"# Created by archsync.\n*\n",
}
CACHE_FILE = re.compile(r"(?:index|result)-.+\.json")
TEMPORARY = re.compile(r"\.(?P<name>.+)\.archsync-(?P<pid>\d+)-[0-9a-f]+\.tmp")


def foreign_entries(directory: str) -> List[str]:
    """The names in `directory` that archsync never writes there, sorted (a subdirectory, a link or any
    other file); [] for a directory holding only archsync's files, or none."""
    with os.scandir(directory) as entries:
        return sorted(entry.name for entry in entries if not _ours(entry))


def _ours(entry: "os.DirEntry[str]") -> bool:
    if not entry.is_file(follow_symlinks=False):
        return False
    name = entry.name
    return name in MARKERS or CACHE_FILE.fullmatch(name) is not None or TEMPORARY.fullmatch(name) is not None
