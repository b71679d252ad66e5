"""The part of a file libcst parses for a request: the innermost statements written on the request's line.

libcst's parse of a whole file costs seconds on a large one (a settings module of 450 KB), and a
request names one literal on one line. The standard parser's tree (read once per file, and needed
anyway to check that the file is Python) says which statements that line is in; the region is the
innermost run of them that holds everything written on the line, at any depth (a method of a class
of thousands of lines is not parsed whole). When the line is a compound statement's header (an
`elif` test, a decorator, a signature) the region is the header alone, with `pass` for its body.

The region's code is the file's text between two offsets, so every position libcst reports in it
is a position of the file; `prefix` and `suffix` are what make it parse alone (an enclosing `if`
block for an indented statement of several logical lines, a body for a header), never written
anywhere. Where the tree does not say clearly (a decorator's `@` on another line than its
expression), there is no region, and the caller parses the whole file, as before.
"""
from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

_WRAPPER = "if 1:\n"  # an indented statement of several logical lines parses inside a block
_ARM = "if 1: pass\n"  # an `elif` arm parses after an `if`
_STUB = "pass"
_BLANK = " \t\x0c"


@dataclass(frozen=True)
class Region:
    """text[start:end], parsed alone as `prefix + code + suffix`; `scope` names the classes and
    functions around it, dotted, as `locate.walk` names them."""

    start: int
    end: int
    prefix: str = ""
    suffix: str = ""
    scope: str = ""
    wrapped: bool = False  # the statement is the block of the prefix's `if 1:`
    arm: bool = False  # the statement is the `elif` arm of the prefix's `if 1: pass`


EMPTY = Region(0, 0)  # a line no statement is written on (a comment, a blank line): nothing to find


class Outline:
    """The statements of one state of the file, from the standard parser's tree."""

    def __init__(self, tree: ast.Module, text: str, starts: Sequence[int]) -> None:
        self.tree, self.text, self.starts = tree, text, starts

    def region(self, line: int) -> Optional[Region]:
        """The region holding every statement written on `line`; None when the tree does not say."""
        body: Sequence[ast.stmt] = self.tree.body
        scope = ""
        while True:
            firsts = self._first_lines(body)
            run = [s for s, first in zip(body, firsts) if first <= line <= _end_line(s)]
            if not run:
                return EMPTY
            if len(run) > 1 or not _blocks(run[0]):  # one logical line of simple statements
                if any(_blocks(s) for s in run):  # pragma: no cover - a compound statement shares no line
                    return None
                return Region(self._offset(run[0].lineno, run[0].col_offset),
                              self._offset(_end_line(run[-1]), _end_column(run[-1])), scope=scope)
            statement = run[0]
            inner = next((block for block in _blocks(statement) if self._first_lines(block)[0] <= line
                          <= _end_line(block[-1]) and self._starts_line(block[0]) is not None), None)
            if inner is None:
                return self._own_lines(statement, line, scope)
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                scope = f"{scope}.{statement.name}" if scope else statement.name
            body = inner

    def _own_lines(self, statement: ast.stmt, line: int, scope: str) -> Optional[Region]:
        """A compound statement on one of its own lines: its header alone when the line is in it
        (a body that starts a line of its own is cut off and `pass` stands for it), else all of it."""
        start = self._starts_line(statement)
        if start is None:
            return None
        indented = start > self._line_start(start)
        body = getattr(statement, "body", None)
        first = body[0] if body else None
        elif_ = isinstance(statement, ast.If) and self.text.startswith("elif", start)
        decorated = bool(getattr(statement, "decorator_list", None))
        if first is not None and line < self._first_lines([first])[0]:
            body_start = self._starts_line(first)
            if body_start is not None:
                cut = self._line_start(body_start)
                suffix = self.text[cut:body_start] + _STUB + "\n"
                if elif_:  # `elif test:` is read as `if test:`
                    return Region(start + 2, cut, suffix=suffix, scope=scope)
                if decorated and indented:  # decorator lines and the `def` line: logical lines of one block
                    return Region(self._line_start(start), cut, _WRAPPER, suffix, scope, wrapped=True)
                return Region(start, cut, suffix=suffix, scope=scope)
        end = self._offset(_end_line(statement), _end_column(statement))
        if not indented and not elif_:
            return Region(start, end, scope=scope)
        begin = self._line_start(start)
        prefix = (_WRAPPER if indented else "") + (self.text[begin:start] + _ARM if elif_ else "")
        return Region(begin, end, prefix, scope=scope, wrapped=indented, arm=elif_)

    def _first_lines(self, body: Sequence[ast.stmt]) -> List[int]:
        """The first line of each statement: a decorated one's first `@`. When that `@` is not where the
        first decorator is (`@(` a line above it), the line after the statement before it, or 1: the
        statement is then never a region of its own (`_starts_line`), and a line above it is not lost."""
        firsts, previous = [], 1
        for statement in body:
            first = statement.lineno
            decorators = getattr(statement, "decorator_list", None)
            if decorators:
                first = min([first] + [d.lineno for d in decorators])
                if not self._line(first).lstrip(_BLANK).startswith("@"):
                    first = previous
            firsts.append(first)
            previous = _end_line(statement) + 1
        return firsts

    def _starts_line(self, statement: ast.stmt) -> Optional[int]:
        """The offset of the statement's first character (a decorated one's `@`) when only blanks are
        before it on its line; else None (after `;`, after a header's colon, `@` not where it is expected)."""
        decorators = getattr(statement, "decorator_list", None)
        if decorators:
            line = min([statement.lineno] + [d.lineno for d in decorators])
            begin = self.starts[line - 1]
            offset = begin + len(self._line(line)) - len(self._line(line).lstrip(_BLANK))
            return offset if self.text.startswith("@", offset) else None
        offset = self._offset(statement.lineno, statement.col_offset)
        return offset if self.text[self._line_start(offset):offset].strip(_BLANK) == "" else None

    def _line(self, line: int) -> str:
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[self.starts[line - 1]:end]

    def _line_start(self, offset: int) -> int:
        return self.starts[bisect.bisect_right(self.starts, offset) - 1]

    def _offset(self, line: int, column: int) -> int:
        """The text offset of the parser's (line, column): its column counts UTF-8 bytes."""
        text = self._line(line)
        if not text.isascii():
            column = len(text.encode("utf-8")[:column].decode("utf-8", "ignore"))
        return self.starts[line - 1] + column


def _blocks(statement: ast.stmt) -> List[List[ast.stmt]]:
    """The statement lists a compound statement holds (none for a simple statement)."""
    blocks: List[List[ast.stmt]] = []
    for field in ("body", "orelse", "finalbody"):
        value = getattr(statement, field, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            blocks.append(value)
    blocks += [handler.body for handler in getattr(statement, "handlers", ())]
    blocks += [case.body for case in getattr(statement, "cases", ())]
    return blocks


def _end_line(statement: ast.stmt) -> int:
    return statement.end_lineno or statement.lineno


def _end_column(statement: ast.stmt) -> int:
    return statement.end_col_offset if statement.end_col_offset is not None else statement.col_offset


def parse_tree(data: bytes) -> Tuple[Optional[ast.Module], Optional[BaseException]]:
    """The standard parser's tree of the bytes, or what it raised."""
    try:
        return ast.parse(data), None
    except Exception as exc:  # SyntaxError, ValueError (a NUL byte), RecursionError, MemoryError
        return None, exc
