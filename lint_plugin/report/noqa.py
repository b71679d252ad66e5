"""`# noqa` comments, read exactly as flake8 reads them, so the CLI agrees with flake8."""
from __future__ import annotations

import ast
import bisect
import io
import os
import re
import tokenize
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

from ..diagnostics import Diagnostic
from ..project.files import Unreadable, read_file

# Same expressions as flake8's defaults.NOQA_INLINE_REGEXP and NOQA_FILE.
_NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
_NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)


def suppressed(root: Path, diagnostic: Diagnostic, overrides: Optional[Mapping[str, bytes]] = None) -> bool:
    """True when the reported line carries a `# noqa` that covers the diagnostic's code."""
    data = overrides.get(diagnostic.path) if overrides else None
    text = data.decode("utf-8", "replace") if data is not None else _text(str(root / diagnostic.path))
    view = _view(text)
    if view is None:
        return False  # the common case: no `noqa` anywhere, nothing to tokenize
    lines, file_wide = view
    if file_wide:
        return True
    if not 0 < diagnostic.line <= len(lines):
        return False
    searched = _noqa_line(text, diagnostic.line)
    match = _NOQA_INLINE.search(lines[diagnostic.line - 1] if searched is None else searched)
    if match is None:
        return False
    codes = match.group("codes")
    if codes is None:
        return True
    listed = [c for c in re.split(r"[,\s]", codes) if c]
    return diagnostic.code in listed or diagnostic.code.startswith(tuple(listed))


@lru_cache(maxsize=64)
def _view(text: str) -> Optional[Tuple[List[str], bool]]:
    """(lines, whole file exempt) of a text holding `noqa`, else None; once per text."""
    if "noqa" not in text.lower():
        return None
    lines = text.splitlines(keepends=True)
    return lines, any(_NOQA_FILE.match(line) for line in lines)


def _text(path: str) -> str:
    """The file as it is now (keyed by size and mtime, so long-lived processes see edits)."""
    try:
        stat = os.stat(path)
    except OSError:
        return ""
    return _read(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=256)
def _read(path: str, size: int, mtime_ns: int) -> str:
    data = read_file(path)
    return "" if isinstance(data, Unreadable) else data.decode("utf-8", "replace")


def _noqa_line(text: str, line: int) -> Optional[str]:
    """The text flake8 searches for the `# noqa` of `line`, or None where it takes the line itself.

    Tokenizing a whole file in Python cost as much as the rest of a report, so a text that parses
    is tokenized only from a line where the tokenizer is as it is when it reads the whole text
    (`_restart`) until the token range of `line` ends: a text that parses tokenizes without
    error, so stopping early misses nothing. A text that does not parse is tokenized whole.
    """
    tree = _parsed(text)
    if tree is None:
        return _noqa_lines(text).get(line)
    return _noqa_lines(text, _restart(tree, text, line), line).get(line)


@lru_cache(maxsize=16)
def _parsed(text: str) -> Optional[ast.Module]:
    """The parsed text; None if it does not parse, or holds a line break that `readline` does not
    count as the parser does (a carriage return)."""
    if "\r" in text:
        return None
    try:
        with warnings.catch_warnings():  # the analysed code's warnings are not ours to show
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _restart(tree: ast.Module, text: str, line: int) -> int:
    """A line at or before `line` where tokenizing may start, as fresh as at the top of the text.

    The first line of a statement that opens its line starts a logical line: no bracket, string or
    continuation is open there. The innermost such statement holding `line` (else the last
    module-level one before it) holds every line up to `line`: none is indented less than its
    first, so the outer blocks' indentation, unknown to a tokenizer started there, is never needed.
    """
    physical = text.split("\n")

    def opens(node: Any) -> bool:
        head = physical[node.lineno - 1]
        return bool(node.col_offset == len(head) - len(head.lstrip(" \t\f")))

    body: List[Any] = list(tree.body)
    index = bisect.bisect_right([node.lineno for node in body], line) - 1
    first = next((node.lineno for node in reversed(body[:index + 1]) if opens(node)), 1)
    while index >= 0:
        node = body[index]
        if (node.end_lineno or node.lineno) < line:
            break  # between two statements of this block: the one holding the block holds `line`
        if opens(node):
            first = max(first, node.lineno)
        body = _inner(node)
        index = bisect.bisect_right([inner.lineno for inner in body], line) - 1
    return first


def _inner(node: Any) -> List[Any]:
    """The statements and `except` clauses right inside a compound statement, in line order."""
    inner: List[Any] = []
    for field in ("body", "orelse", "finalbody", "handlers"):
        inner += getattr(node, field, None) or []
    for case in getattr(node, "cases", None) or []:
        inner += case.body
    return sorted(inner, key=lambda child: child.lineno)


@lru_cache(maxsize=64)
def _noqa_lines(text: str, first: int = 1, until: Optional[int] = None) -> Dict[int, str]:
    """Line -> the text flake8 searches for `# noqa` (its FileProcessor._noqa_line_mapping).

    Token ranges end at NL/NEWLINE tokens, so a backslash-continued statement or a
    multi-line string is one range while a bracketed statement is read line by line.
    From line `first` (1: the whole text) and, given `until`, only until its range ends.
    """
    lines = text.splitlines(keepends=True)
    mapping: Dict[int, str] = {}
    stream = io.StringIO(text)
    for _ in range(first - 1):  # lines as `readline` counts them, as the tokens do
        stream.readline()
    try:
        tokens: Iterator[tokenize.TokenInfo] = tokenize.generate_tokens(stream.readline)
        if until is None:
            tokens = iter(list(tokens))  # an error anywhere leaves every line to itself
        low, high, offset = len(lines) + 2, -1, first - 1
        for kind, _, (start, _), (end, _), _ in tokens:
            if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            low, high = min(low, start + offset), max(high, end + offset)
            if kind in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(lines[low - 1: high])
                for number in range(low, high + 1):
                    mapping[number] = joined
                if until is not None and high >= until:
                    break
                low, high = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return {} if until is None else _noqa_lines(text)
    return mapping
