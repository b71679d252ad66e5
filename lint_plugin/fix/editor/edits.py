"""Edits as (start, end, replacement) offsets into the text: spliced in, composed across rounds
against the original text, and turned into the line/column `TextEdit`s a front end applies."""
from __future__ import annotations

import bisect
import re
from typing import List, Sequence, Tuple

from .results import TextEdit

Edit = Tuple[int, int, str]  # start offset, end offset, replacement
NEWLINE = re.compile(r"\r\n?|\n")  # where a line ends, as for Python


def touch(a: Edit, b: Edit) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def splice(text: str, edits: Sequence[Edit]) -> str:
    parts, last = [], 0
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
        parts.append(text[last:start])
        parts.append(new)
        last = end
    parts.append(text[last:])
    return "".join(parts)


def compose(composed: List[Edit], text: str, planned: Sequence[Edit]) -> List[Edit]:
    """Fold edits made on `text` (the original with `composed` applied) into `composed`."""
    for edit in sorted(planned, key=lambda e: (e[0], e[1]), reverse=True):
        composed = _compose_one(composed, text, edit)
        text = splice(text, [edit])
    return composed


def _compose_one(composed: List[Edit], text: str, edit: Edit) -> List[Edit]:
    start, end, new = edit
    spans = []  # (original start, original end, text, current start, current end)
    delta = 0
    for o_start, o_end, o_text in composed:
        spans.append((o_start, o_end, o_text, o_start + delta, o_start + delta + len(o_text)))
        delta += len(o_text) - (o_end - o_start)
    touched = [s for s in spans if s[3] <= end and start <= s[4]]
    kept = [s[:3] for s in spans if s not in touched]

    def original_offset(current: int) -> int:
        return current - sum(len(s[2]) - (s[1] - s[0]) for s in spans if s[4] <= current)

    low = min([start] + [s[3] for s in touched])
    high = max([end] + [s[4] for s in touched])
    o_low = touched[0][0] if touched and touched[0][3] == low else original_offset(low)
    o_high = touched[-1][1] if touched and touched[-1][4] == high else original_offset(high)
    merged = text[low:start] + new + text[end:high]
    kept.append((o_low, o_high, merged))
    return sorted(kept, key=lambda e: (e[0], e[1]))


def text_edit(text: str, starts: List[int], edit: Edit) -> TextEdit:
    def position(offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    (start_line, start_column), (end_line, end_column) = position(edit[0]), position(edit[1])
    return TextEdit(start_line, start_column, end_line, end_column, edit[2])
