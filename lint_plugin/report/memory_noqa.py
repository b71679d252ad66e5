"""The noqa texts a report looked up, left for the next report (the report stage's part of `RunMemory`).

Finding a line's token range parses its file (`noqa_ranges.py`): on SGLang the files with
findings hold 20,000 lines, and parsing them was half of what an editor's check cost. Between
two checks most of those files have not changed, so the language server keeps, for each file a
report read, the text it read and the range texts of the lines it asked for: a report that reads
the same text asks again only for lines it has not seen. A file no finding points into any more
is left out of what the report leaves, so what is kept is what the last report read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Mapping, Optional, Tuple

Ranges = Tuple[str, Mapping[int, Optional[str]]]  # the text read, and line -> its token range (None: itself)


@dataclass(frozen=True)
class NoqaMemory:
    """By path: the text a report read, and the range texts of the lines it asked for."""

    files: Mapping[str, Ranges] = field(default_factory=dict)


class NoqaLookups:
    """One report's lookups, from what the last report left; `left` is what this one leaves."""

    def __init__(self, earlier: NoqaMemory) -> None:
        self._earlier = earlier.files
        self._files: Dict[str, Tuple[str, Dict[int, Optional[str]]]] = {}

    def range_text(self, path: str, text: str, line: int,
                   compute: Callable[[str, int], Optional[str]]) -> Optional[str]:
        """`compute(text, line)`, or what it gave for this text and line before."""
        mine = self._files.get(path)
        if mine is None or (mine[0] is not text and mine[0] != text):
            before = self._earlier.get(path)
            same = before is not None and (before[0] is text or before[0] == text)
            mine = self._files[path] = (text, dict(before[1]) if same and before is not None else {})
        lines = mine[1]
        if line not in lines:
            lines[line] = compute(text, line)
        return lines[line]

    def left(self) -> NoqaMemory:
        """What this report leaves: the files it looked into, nothing older."""
        return NoqaMemory(dict(self._files))
