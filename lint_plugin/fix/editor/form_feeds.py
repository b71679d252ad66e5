"""libcst does not keep a form feed that starts a line: such a file is edited with those form feeds
taken out, and they are put back into the result (an edit that would touch one is refused)."""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Tuple

from .edits import NEWLINE
from .results import DID_NOT_PARSE, FixResult, Refusal, TextEdit

_BYTE_LINES = re.compile(rb"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+$")
_LEADING = re.compile(rb"[ \t\x0c]*")


def leading_form_feeds(source: bytes) -> Tuple[Dict[int, List[int]], bytes]:
    """The 1-based columns of the form feeds in each line's leading whitespace, by line (lines without
    one left out), and `source` without them."""
    if b"\x0c" not in source:  # nearly every file: no line to look at
        return {}, source
    lines = _BYTE_LINES.findall(source)
    feeds = {i: [c for c, byte in enumerate(_leading(text), 1) if byte == 0x0c] for i, text in enumerate(lines, 1)}
    feeds = {line: columns for line, columns in feeds.items() if columns}
    if not feeds:
        return feeds, source
    return feeds, b"".join(_without_feeds(text) if i in feeds else text for i, text in enumerate(lines, 1))


def _leading(line: bytes) -> bytes:
    match = _LEADING.match(line)
    return match.group() if match else b""


def _without_feeds(line: bytes) -> bytes:
    lead = _leading(line)
    return lead.replace(b"\x0c", b"") + line[len(lead):]


def with_form_feeds(source: bytes, feeds: Dict[int, List[int]], result: FixResult) -> FixResult:
    """`result`, planned on `source` without its line-leading form feeds, with them put back.

    They sit in leading whitespace, which no edit writes into: each line keeps its own, moved down
    by the lines the edits above it add; an edit reaching into a line's leading form feeds refuses.
    """
    if not result.applied:
        return FixResult(source, (), result.refused, ())

    def original(line: int, column: int) -> Tuple[int, int]:
        for feed in feeds.get(line, ()):
            if feed <= column:
                column += 1
        return line, column

    edits = []
    for e in result.edits:
        if any(line in feeds and column <= len(feeds[line])
               for line, column in ((e.start_line, e.start_column), (e.end_line, e.end_column))):
            refusal = "an edit would touch a form feed at the start of a line; archsync will not edit it"
            return FixResult(source, (), tuple(Refusal(r, refusal) for r in result.applied) + result.refused, ())
        edits.append(TextEdit(*original(e.start_line, e.start_column), *original(e.end_line, e.end_column),
                              e.new_text))
    lines = _BYTE_LINES.findall(result.source)
    for line, columns in feeds.items():
        shift = sum(len(NEWLINE.findall(e.new_text)) - (e.end_line - e.start_line)
                    for e in result.edits if e.end_line < line)
        text = lines[line + shift - 1]
        for column in columns:
            text = text[:column - 1] + b"\x0c" + text[column - 1:]
        lines[line + shift - 1] = text
    data = b"".join(lines)
    try:
        ast.parse(data)
    except Exception:  # pragma: no cover - a form feed in leading whitespace is whitespace
        return FixResult(source, (), tuple(Refusal(r, DID_NOT_PARSE) for r in result.applied), ())
    return FixResult(data, result.applied, result.refused, tuple(edits))
