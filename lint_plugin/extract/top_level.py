"""A module's bytes with the top-level functions and classes that cannot matter left out: parse less.

A file read for one kind of fact alone (its lists of model types: `resolve/model_types.py`) needs the
functions and classes that spell what that fact is written with, and its module-level statements (the
imports and constants those refer to); the rest is most of its bytes. Each other column-0 `def` or
`class` (its decorators with it) is blanked, and so is each other method of a class that is kept
(its first line becomes `pass`, so the class keeps a body): the lines are kept empty, so what is kept
stays at its line and column, and its facts are the whole file's facts there. A layout the bytes
misjudge (a column-0 line inside a string) leaves a text that does not parse, and the caller reads
the whole file.
"""
from __future__ import annotations

import functools
import re
from typing import List, Pattern, Sequence, Tuple

_DEFINITION = re.compile(rb"[ \t]*(?:(?:async[ \t]+)?def\b|(class)\b)")
_HEADER_END = re.compile(rb":[ \t]*(?:#[^\n]*)?\n")  # the end of a class's header (`class A(Base):`)
_BODY = re.compile(rb"\n?([ \t]+)[^ \t\r\n#]")  # its first indented line after that: its body's indentation


def blocks_spelling(source: bytes, words: Sequence[bytes]) -> bytes:
    """`source` with every column-0 function and class that spells none of `words` blanked, and in a class
    that does, every method that does not (its first line a `pass`, so the class still has a body)."""
    pieces: List[bytes] = []
    kept = _blank(source, tuple(words), 0, len(source), b"", pieces)
    pieces.append(source[kept:])
    return b"".join(pieces)


@functools.lru_cache(maxsize=None)
def _statements(indent: bytes) -> Pattern[bytes]:
    """Where a statement at `indent` starts: a line there that is no comment, blank or closing bracket."""
    return re.compile(rb"^%s[^ \t\r\n#)\]}]" % re.escape(indent), re.MULTILINE)


def _blank(source: bytes, words: Tuple[bytes, ...], begin: int, end: int, indent: bytes, pieces: List[bytes]
           ) -> int:
    """Blank the definitions at `indent` in `source[begin:end]` that spell none of `words`, appending what is
    kept before each to `pieces`; returns where the kept text resumes."""
    starts = [m.start() for m in _statements(indent).finditer(source, begin, end)] + [end]
    kept, at = begin, 0
    while at < len(starts) - 1:
        last = at  # the statement's last line at `indent`: past its decorators, what they decorate
        while source[starts[last] + len(indent):starts[last] + len(indent) + 1] == b"@" and last + 1 < len(starts) - 1:
            last += 1
        start, stop = starts[at], starts[last + 1]
        definition = _DEFINITION.match(source, starts[last])
        if definition is not None and all(source.find(word, start, stop) == -1 for word in words):
            lines = source.count(b"\n", start, stop)
            stub = indent + b"pass\n" if indent and lines else indent + b"pass" if indent else b""
            pieces += [source[kept:start], stub + b"\n" * (lines - (1 if stub.endswith(b"\n") else 0))]
            kept = stop
        elif definition is not None and definition.group(1):  # a class that spells it: its methods
            header = _HEADER_END.search(source, starts[last], stop)
            body = _BODY.match(source, header.end()) if header is not None else None
            if body is not None and len(body.group(1)) > len(indent):
                pieces.append(source[kept:body.start(1)])
                kept = _blank(source, words, body.start(1), stop, body.group(1), pieces)
        at = last + 1
    return kept
