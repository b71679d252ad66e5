"""Reading a file or saying why not, and replacing one atomically: the only file I/O of the project.

Every stage that reads project files (the index, its workers, the fixer, noqa, the
front ends) calls `read_file`; every write (the cache, `archsync fix`) goes through
`write_atomic`, so a reader never sees a torn file.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union


@dataclass(frozen=True)
class Unreadable:
    """Why a file could not be read (the operating system's words)."""

    reason: str


def read_file(path: Union[str, Path]) -> Union[bytes, Unreadable]:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        return Unreadable(exc.strerror or str(exc))


def digest(data: bytes) -> str:
    """The content key of a file's bytes (caches and "changed since it was read")."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def write_atomic(target: Path, data: bytes, mode: Optional[int] = None) -> None:
    """Replace `target` with `data` through a temporary file in its directory and a rename.

    `mode` is given to the new file (a fixed file keeps its permissions); OSError propagates.
    """
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if mode is not None:
            os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
