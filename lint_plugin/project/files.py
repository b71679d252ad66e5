"""Reading a file or saying why not: how every stage reads project files.

Every stage that reads project files (the index, its workers, the fixer, noqa, the
front ends) calls `read_file`; every write goes through `writer` (the guarded writer).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Union


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
    import hashlib  # here: a run without caches hashes nothing, and importing hashlib loads OpenSSL

    return hashlib.blake2b(data, digest_size=16).hexdigest()


_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def encode_as_source(text: str) -> bytes:
    """An editor's text as the file would hold it: in the encoding its coding cookie declares.

    Editors and flake8 hand over decoded text; encoding it as UTF-8 when the file says
    `# -*- coding: latin-1 -*-` would shift every column after a non-ASCII character once the
    engine decodes the bytes per the cookie, and fixes would land in the wrong place.
    """
    for line in text.splitlines()[:2]:
        match = _COOKIE.match(line)
        if match:
            try:
                return text.encode(match.group(1))
            except (LookupError, UnicodeError):
                break  # a codec that does not exist or cannot hold the text: as Python would fail, UTF-8
        if line.strip() and not line.lstrip().startswith("#"):
            break
    return text.encode("utf-8", "surrogateescape")
