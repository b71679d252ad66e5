"""A file's text as Python reads it (PEP 263, PEP 3120), or why Python would refuse it.

Every stage that turns a project file's bytes into text asks here (the parser, the `# noqa`
reader, the fixer, the language server), so none of them reads names from a file Python will
not run, and all of them agree on the text of one it runs. The verdict is `tokenize`'s: a coding
cookie on line 1 or 2 (line 2 only after a blank or comment line), else UTF-8; a cookie naming a
codec Python does not know is an error, and so is a UTF-8 byte-order mark beside a cookie for
another encoding; then the whole file is decoded strictly. The rest of this module only puts
the refusal in words, naming the line and the byte.
"""
from __future__ import annotations

import codecs
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Iterator, Optional, Tuple, Union

__all__ = ["Refused", "source_text"]

# PEP 263's declaration and what may come before it, as `tokenize` matches them (on bytes here:
# a line that is not UTF-8 must still be described)
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")
_NOT_UTF8 = "is not UTF-8, and no encoding is declared before it (PEP 263)"


@dataclass(frozen=True)
class Refused:
    """Why Python would not read the file's bytes as source ("cannot decode: ...")."""

    reason: str


def source_text(data: bytes) -> Union[str, Refused]:
    """The text Python compiles from `data` (a byte-order mark dropped), or why it would refuse them."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return Refused(f"cannot decode: {_undetected(data)}")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        return Refused(f"cannot decode: {_undecoded(data, encoding, exc)}")
    except (UnicodeError, LookupError) as exc:  # `rot13`, `idna`: codecs, but not of source text
        line = (_declared(data) or (1, ""))[0]
        return Refused(f"cannot decode: line {line} declares {encoding!r}, which cannot decode it ({exc})")


def _undetected(data: bytes) -> str:
    """Why `tokenize` found no usable declaration: a line it reads is not UTF-8, the codec is
    unknown, or a byte-order mark says UTF-8 while the cookie says otherwise."""
    for number, line, cookie in _declaration_lines(data):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            byte = f"byte 0x{line[exc.start]:02x} on line {number}"
            if cookie is not None:  # the interpreter itself reads such a line; `tokenize` and the tools on it do not
                return f"{byte} is not UTF-8, which a line declaring the encoding must be (PEP 263)"
            return f"{byte} {_NOT_UTF8}"
        if cookie is not None:
            try:
                codecs.lookup(cookie)
            except LookupError:
                return f"line {number} declares an unknown encoding, {cookie!r}"
            return f"it starts with a UTF-8 byte-order mark, but line {number} declares {cookie!r}"
    return "Python finds no usable encoding declaration"  # not reached: tokenize refuses for the reasons above


def _undecoded(data: bytes, encoding: str, exc: UnicodeDecodeError) -> str:
    seen = exc.object[:exc.start]  # the bytes the codec read (after a byte-order mark)
    line = seen.count(b"\n") + seen.count(b"\r") - seen.count(b"\r\n") + 1
    byte = f"byte 0x{exc.object[exc.start]:02x} on line {line}"
    declared = _declared(data)
    if declared is None:
        return f"{byte} {_NOT_UTF8}"
    return f"{byte} is not {encoding}, the encoding line {declared[0]} declares"


def _declared(data: bytes) -> Optional[Tuple[int, str]]:
    """(line, codec) of the coding cookie, where `tokenize` finds one."""
    return next(((number, cookie) for number, _, cookie in _declaration_lines(data) if cookie is not None), None)


def _declaration_lines(data: bytes) -> Iterator[Tuple[int, bytes, Optional[str]]]:
    """(number, bytes, cookie) of the lines `tokenize` reads for a declaration: the first, and
    the second only after a blank or comment line without one."""
    lines = io.BytesIO(data[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) else data)
    for number in (1, 2):
        line = lines.readline()
        if not line:
            return
        match = _COOKIE.match(line)
        yield number, line, match.group(1).decode("ascii") if match else None
        if match or not _BLANK.match(line):
            return
