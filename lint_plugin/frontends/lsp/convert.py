"""The engine's values in LSP's terms: 1-based lines and code-point columns as 0-based lines and
UTF-16 units (or the negotiated encoding), the token a diagnostic spans, and the diagnostic itself
(with the places its message names, as `paths.py` shows them and as locations)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import List, Optional, Tuple

from lsprotocol import types
from pygls.uris import from_fs_path

from ...diagnostics import Diagnostic
from ...report.escape import printable
from ...rules import BY_CODE
from ..paths import from_here

SOURCE = "archsync"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"\w+")
_STRING_START = re.compile(r"(?i:[rbuf]{0,2})('''|\"\"\"|'|\")")


def split_lines(text: str) -> List[str]:
    """Lines as LSP (and Python's tokenizer) count them: breaks are \\r\\n, \\r and \\n only."""
    return _LINE_BREAK.split(text)


class Positions:
    """Converts the engine's 1-based (line, character column) to LSP positions for one text."""

    def __init__(self, text: str, units=None) -> None:
        self.lines = split_lines(text)
        # The engine and the fixer do not count a byte-order mark; the editor's line 0 holds it.
        self.bom = 1 if text.startswith("\ufeff") else 0
        self._units = units or utf16_units

    def char_index(self, line: int, column: int) -> Tuple[int, int]:
        """0-based (line, code point index into self.lines[line]), clamped into the text."""
        line0 = line - 1
        if line0 < 0:
            return 0, 0
        if line0 >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        char = max(column - 1, 0) + (self.bom if line0 == 0 else 0)
        return line0, min(char, len(self.lines[line0]))

    def position(self, line0: int, char: int) -> types.Position:
        return types.Position(line=line0, character=self._units(self.lines[line0][:char]))

    def at(self, line: int, column: int) -> types.Position:
        return self.position(*self.char_index(line, column))

    def token_range(self, line: int, column: int) -> types.Range:
        """The range of the token that starts at (line, column): a name, a string, else the rest of the line."""
        line0, start = self.char_index(line, column)
        return types.Range(start=self.position(line0, start),
                           end=self.position(line0, _token_end(self.lines[line0], start)))


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _token_end(text: str, start: int) -> int:
    if start >= len(text):
        return start
    string = _STRING_START.match(text, start)
    if string is not None:
        quote = string.group(1)
        i = string.end()
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                return i + len(quote)
            i += 1
        return len(text.rstrip())
    word = _WORD.match(text, start)
    if word is not None:
        return word.end()
    return max(len(text.rstrip()), start)


def to_lsp(d: Diagnostic, positions: Positions, root: Path, related: bool = False,
           cause: Tuple[Diagnostic, ...] = ()) -> types.Diagnostic:
    """`d`, found in the project at `root`, as the editor shows it: the places its message names seen from
    the server's working directory, as the command line shows them, and (when the client takes
    `related`) each of them as a location that opens, then the other places of its `cause` in the file, each
    with its own message; `data` holds the subject and the member."""
    shown = d.seen(from_here(root))
    others = [_also_here(root, o, o.seen(from_here(root)).text) for o in cause]
    return types.Diagnostic(
        range=positions.token_range(d.line, d.column),
        message=printable(shown.text),
        severity=types.DiagnosticSeverity(BY_CODE[d.code].level.lsp) if d.code in BY_CODE
        else types.DiagnosticSeverity.Error,
        code=d.code,
        source=SOURCE,
        related_information=[_related(root, path, line, shown_place) for (path, line), shown_place
                             in zip(d.places, shown.places)] + others if related and (d.places or others) else None,
        data={"subject": d.subject, "member": d.member},
    )


def _also_here(root: Path, place: Diagnostic, text: str) -> types.DiagnosticRelatedInformation:
    """Another place of a diagnostic's cause, at the start of its line: what it lacks there."""
    start = types.Position(line=max(place.line - 1, 0), character=0)
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=from_fs_path(os.path.join(str(root), place.path)) or "",
                                range=types.Range(start, start)),
        message=printable(f"the same cause: {text}"))


def _related(root: Path, rel: str, line: Optional[int],
             shown: Tuple[str, Optional[int]]) -> types.DiagnosticRelatedInformation:
    """A place a message names, as a location: the start of its line (or of the file)."""
    start = types.Position(line=max((line or 1) - 1, 0), character=0)
    where = printable(shown[0] + (f":{line}" if line is not None else ""))
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=from_fs_path(os.path.join(str(root), rel)) or "", range=types.Range(start, start)),
        message=where)
