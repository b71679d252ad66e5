"""The noqa texts a report looked up, kept for the next report of a long-lived process.

Finding a line's token range parses its file (`noqa_ranges.py`): on SGLang the files with
findings hold 20,000 lines, and parsing them was half of what an editor's check cost. Between
two checks most of those files have not changed, so the language server keeps, for each file a
report read, the text it read and the range texts of the lines it asked for: a report that reads
the same text asks again only for lines it has not seen. A file no finding points into any more
is forgotten at the end of the report (`settle`), so what is kept is what the last report read.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional, Set, Tuple


class KeptRanges:
    """By path: (the text a report read, line -> the text of its token range, None for the line itself)."""

    def __init__(self) -> None:
        self._files: Dict[str, Tuple[str, Dict[int, Optional[str]]]] = {}
        self._asked: Set[str] = set()

    def range_text(self, path: str, text: str, line: int,
                   compute: Callable[[str, int], Optional[str]]) -> Optional[str]:
        """`compute(text, line)`, or what it gave for this text and line before."""
        self._asked.add(path)
        kept = self._files.get(path)
        if kept is None or (kept[0] is not text and kept[0] != text):
            kept = self._files[path] = (text, {})
        lines = kept[1]
        if line not in lines:
            lines[line] = compute(text, line)
        return lines[line]

    def settle(self) -> None:
        """A report ended: forget the files it did not look into."""
        self._files = {p: kept for p, kept in self._files.items() if p in self._asked}
        self._asked = set()
