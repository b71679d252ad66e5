"""The text flake8 searches for the noqa comment of a line, tokenizing no more of the file than needed.

flake8 maps each line to the text of its token range (`FileProcessor._noqa_line_mapping`):
ranges end at NL/NEWLINE tokens, so a backslash-continued statement or a multi-line string is
one range while a bracketed statement is read line by line. Tokenizing a whole large file in
Python cost as much as the rest of a report, so a file that parses is tokenized from a line
where the tokenizer is as it is when it reads the whole file (`_Statements.restart`), and only
as far as the lines asked for: a file that parses tokenizes without error, so stopping early
misses nothing. A file that does not parse is tokenized whole, and an error leaves every line
to itself, as flake8 does.
"""
from __future__ import annotations

import ast
import bisect
import io
import tokenize
import warnings
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from .flake8_text import physical_lines

_FAILED = (tokenize.TokenError, SyntaxError, IndentationError)


class RangeReader:
    """The text of a line's token range, for one report. It asks file after file (`stage.report`), so the
    last file's parse and ranges are kept until it asks of another, and dropped with the report (a large
    file's tree is large)."""

    def __init__(self) -> None:
        self._text: Optional[str] = None
        self._statements: Optional[_Statements] = None
        self._whole: Optional[TokenRanges] = None

    def text(self, text: str, line: int) -> Optional[str]:
        """The text of `line`'s token range in `text`, or None where flake8 takes the line itself."""
        if text is not self._text and text != self._text:
            self._text, self._statements, self._whole = text, _statements(text), None
        if self._statements is None:
            return self._whole_ranges(text).get(line)
        try:
            return self._statements.ranges(self._statements.restart(line)).get(line)
        except _FAILED:  # not seen on any real file: tokenized whole, as flake8 would
            return self._whole_ranges(text).get(line)

    def _whole_ranges(self, text: str) -> "TokenRanges":
        if self._whole is None:
            self._whole = TokenRanges(text, physical_lines(text), whole=True)
        return self._whole


class TokenRanges:
    """Line -> the text of its token range, from line `first` on, read as far as asked.

    `whole`: read every token at once, so that an error anywhere leaves every line to itself.
    """

    def __init__(self, text: str, lines: Sequence[str], first: int = 1, whole: bool = False) -> None:
        self._lines = lines
        self._mapping: Dict[int, str] = {}
        self._offset = first - 1
        self._low, self._high = len(lines) + 2, -1
        self._reached = 0  # the last line of the last range read
        stream = io.StringIO(text)
        for _ in range(first - 1):  # lines as `readline` counts them, as the tokens do
            stream.readline()
        self._tokens: Optional[Iterator[tokenize.TokenInfo]] = tokenize.generate_tokens(stream.readline)
        if whole:
            try:
                self._tokens = iter(list(self._tokens))
            except _FAILED:
                self._tokens = None

    def get(self, line: int) -> Optional[str]:
        """Raises what the tokenizer raises (`_FAILED`) if it fails before `line`'s range ends."""
        while self._tokens is not None and self._reached < line:
            token = next(self._tokens, None)
            if token is None:
                self._tokens = None
                break
            kind, (start, _), (end, _) = token.type, token.start, token.end
            if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            self._low = min(self._low, start + self._offset)
            self._high = max(self._high, end + self._offset)
            if kind in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(self._lines[self._low - 1: self._high])
                for number in range(self._low, self._high + 1):
                    self._mapping[number] = joined
                self._reached = self._high
                self._low, self._high = len(self._lines) + 2, -1
        return self._mapping.get(line)


class _Statements:
    """A parsed text's statements, to find where tokenizing may start for a line."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.text = text
        self.lines = physical_lines(text)  # what ranges join, as flake8 joins them
        self._physical = text.split("\n")  # what the parser's line numbers count
        self._inner: Dict[int, Tuple[List[Any], List[int]]] = {0: self._sorted(tree.body)}
        self._ranges: Dict[int, TokenRanges] = {}

    def ranges(self, first: int) -> TokenRanges:
        if first not in self._ranges:
            self._ranges[first] = TokenRanges(self.text, self.lines, first)
        return self._ranges[first]

    def restart(self, line: int) -> int:
        """A line at or before `line` where the tokenizer is as it is when it reads the whole text.

        The first line of a statement that opens its line starts a logical line: no bracket,
        string or continuation is open there. The innermost such statement holding `line` (else
        the last module-level one before it) holds every line up to `line`: none is indented less
        than its first, so the outer blocks' indentation, unknown to a tokenizer started there, is
        never needed.
        """
        body, starts = self._inner[0]
        index = bisect.bisect_right(starts, line) - 1
        first = next((node.lineno for node in reversed(body[:index + 1]) if self._opens(node)), 1)
        while index >= 0:
            node = body[index]
            if (node.end_lineno or node.lineno) < line:
                break  # between two statements of a block: the statement holding the block holds `line`
            if self._opens(node):
                first = max(first, node.lineno)
            if id(node) not in self._inner:
                self._inner[id(node)] = self._sorted(_inner(node))
            body, starts = self._inner[id(node)]
            index = bisect.bisect_right(starts, line) - 1
        return first

    def _opens(self, node: Any) -> bool:
        head = self._physical[node.lineno - 1]
        return bool(node.col_offset == len(head) - len(head.lstrip(" \t\f")))

    @staticmethod
    def _sorted(nodes: List[Any]) -> Tuple[List[Any], List[int]]:
        ordered = sorted(nodes, key=lambda node: node.lineno)
        return ordered, [node.lineno for node in ordered]


def _inner(node: Any) -> List[Any]:
    """The statements and `except` clauses right inside a compound statement."""
    inner: List[Any] = []
    for field in ("body", "orelse", "finalbody", "handlers"):
        inner += getattr(node, field, None) or []
    for case in getattr(node, "cases", None) or []:
        inner += case.body
    return inner


def _statements(text: str) -> Optional[_Statements]:
    """None if the text does not parse, or holds a line break that `readline` does not count as
    the parser does (a carriage return)."""
    if "\r" in text:
        return None
    try:
        with warnings.catch_warnings():  # the analysed code's warnings are not ours to show
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return _Statements(tree, text)
