"""Reading a file or saying why not: how every stage reads project files.

Every stage that reads project files (the index, its workers, the fixer, noqa, the
front ends) calls `read_file`; every write goes through `writer` (the guarded writer).
"""
from __future__ import annotations

import io
import tokenize
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


def encode_as_source(text: str) -> bytes:
    """An editor's text as the file would hold it: in the encoding its coding cookie declares.

    Editors and flake8 hand over decoded text; encoding it as UTF-8 when the file says
    `# -*- coding: latin-1 -*-` would shift every column after a non-ASCII character once the
    engine decodes the bytes per the cookie, and fixes would land in the wrong place. The cookie
    is found as Python finds it (`tokenize`, as `extract/source_text.py` reads it back).
    """
    data = text.encode("utf-8", "surrogateescape")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        # a byte-order mark is in the text already; a codec that does not exist or cannot hold the
        # text is left for the reader to refuse, as Python would
        return data if encoding in ("utf-8", "utf-8-sig") else text.encode(encoding)
    except (SyntaxError, LookupError, UnicodeError):
        return data
