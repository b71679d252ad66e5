"""When a cache may trust that a file has not changed, as git's index does (kept apart so the warm
path's imports stay few).

A file is trusted when its size and stamp match what was recorded and its mtime is older than the
record by more than `RACY_NS` (an edit within the same clock tick as the record would not move
it). The stamp covers the mtime, the ctime and the inode: a copy that restores the mtime (`cp -p`,
`rsync -t`, tar extraction) still moves the ctime, which no tool sets back, and a save by rename
gives a new inode. Anything else is hashed and compared, so a stamp that changed without the
content (a `chmod`, a fresh clone) costs one hash, never a wrong answer.
"""
from __future__ import annotations

import os

RACY_NS = 2_000_000_000  # mtimes this close to the record are verified by hash
_MASK = (1 << 63) - 1
_MIX = 0x9E3779B97F4A7C15  # an odd 64-bit constant: a multiply spreads each part over the whole


def file_stamp(stat: os.stat_result) -> int:
    """One integer for the file's (mtime, ctime, inode), the same in every process and Python version."""
    value = 0
    for part in (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino):
        value = ((value ^ (part & _MASK)) * _MIX) & _MASK
    return value


def trusted(recorded_size: int, recorded_stamp: int, stat: os.stat_result, recorded_ns: int) -> bool:
    """Are the file's bytes those recorded at `recorded_ns`, without reading them?"""
    return (recorded_size == stat.st_size and recorded_stamp == file_stamp(stat)
            and stat.st_mtime_ns < recorded_ns - RACY_NS)
