"""The file being edited, one state per round: its text, its libcst tree, and node offsets on demand.

Parsing is what an edit of a large file costs, so positions are computed one top-level statement
at a time, and between rounds only the statements a round edited are parsed again.
"""
from __future__ import annotations

import ast
import bisect
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ...extract.source_text import Refused, source_text
from .edits import NEWLINE, Edit, splice
from .results import DID_NOT_PARSE, TOO_DEEP, Refuse

Span = Callable[[cst.CSTNode], Tuple[int, int]]  # a node -> its (start, end) offsets in the text


class Document:
    """One state of the file: its text, its libcst tree, and node positions on demand.

    Positions are computed one top-level statement at a time (libcst's position pass over
    a large file costs seconds), at the offset given by the code of the statements before
    it; that the statements' code adds up to the text is checked once per state. Between
    rounds only the statements that were edited are parsed again.
    """

    def __init__(self, module: cst.Module, text: str, codes: Optional[List[str]] = None,
                 reparsed: Optional[FrozenSet[int]] = frozenset()) -> None:
        self.module, self.text, self.encoding = module, text, module.encoding
        # the statements parsed again since the file was read whole (None: the text was parsed whole
        # again), so the standard parser need only check those
        self.reparsed = reparsed
        self.starts = _line_starts(text)
        self.codes = codes if codes is not None else [module.code_for_node(stmt) for stmt in module.body]
        position = sum(len(module.code_for_node(line)) for line in module.header)
        self.offsets: List[int] = []
        for code in self.codes:
            self.offsets.append(position)
            position += len(code)
        joined = text[:self.offsets[0]] + "".join(self.codes) if self.codes else ""
        footer = "".join(module.code_for_node(line) for line in module.footer)
        self.indexed = bool(self.codes) and (joined + footer == text or (
            not module.has_trailing_newline and not footer and NEWLINE.fullmatch(joined[len(text):]) is not None
            and joined.startswith(text)))
        self._spans: Dict[int, Tuple[cst.CSTNode, Span]] = {}

    @classmethod
    def parse(cls, data: bytes, reparsed: Optional[FrozenSet[int]] = frozenset()) -> "Document":
        decoded = source_text(data)
        if isinstance(decoded, Refused):  # nothing is fixed in a file Python would not read
            raise Refuse(f"Python would not read the file: {decoded.reason}")
        try:
            module = cst.parse_module(data)
            doc = cls(module, data.decode(module.encoding), reparsed=reparsed)
        except RecursionError:
            raise Refuse(TOO_DEEP) from None
        except Exception as exc:  # libcst raises ParserSyntaxError, and others on odd input
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise Refuse(f"libcst cannot parse the file: {first}") from exc
        try:
            same = doc.text.encode(doc.encoding) == data and (doc.indexed or module.bytes == data)
        except (UnicodeError, LookupError):  # a codec that cannot write back what it read (`idna`)
            raise Refuse(f"its encoding ({doc.encoding}) cannot write the file back as it was, so archsync "
                          f"will not edit it") from None
        if not same:
            raise Refuse("libcst does not reproduce this file byte for byte, so archsync will not edit it")
        return doc

    def edited(self, edits: Sequence[Edit]) -> "Document":
        """The document with `edits` applied, re-parsing only the statements they touch."""
        text = splice(self.text, edits)
        body, codes = list(self.module.body), list(self.codes)
        by_statement: Dict[int, List[Edit]] = {}
        for edit in edits:
            index = bisect.bisect_right(self.offsets, edit[0]) - 1
            if not self.indexed or index < 0 or not self.offsets[index] < edit[0] <= edit[1] < (
                    self.offsets[index] + len(codes[index])):
                return Document.parse(text.encode(self.encoding), reparsed=None)
            by_statement.setdefault(index, []).append(edit)
        for index, group in by_statement.items():
            base = self.offsets[index]
            code = splice(codes[index], [(start - base, end - base, new) for start, end, new in group])
            try:
                stmt = cst.parse_statement(code, config=self.module.config_for_parsing)
            except Exception:
                raise Refuse(DID_NOT_PARSE) from None
            if self.module.code_for_node(stmt) != code:  # pragma: no cover - libcst round-trips statements
                return Document.parse(text.encode(self.encoding), reparsed=None)
            body[index], codes[index] = stmt, code
        reparsed = None if self.reparsed is None else self.reparsed | frozenset(by_statement)
        return Document(self.module.with_changes(body=body), text, codes, reparsed)

    def check_with_ast(self) -> None:
        """Raise unless the standard parser reads the text: each statement parsed again, alone (a
        top-level statement's syntax does not depend on the others), or the whole text."""
        if self.reparsed is None or not self.indexed:
            ast.parse(self.text.encode(self.encoding))
            return
        for index in sorted(self.reparsed):
            ast.parse(self.codes[index])

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def root_at(self, offset: int) -> Tuple[Optional[cst.CSTNode], Span]:
        """The top-level statement holding `offset`, and a node -> (start, end) offsets map."""
        if not self.indexed:  # e.g. a file without a final newline: one position pass over it all
            if -1 not in self._spans:
                self._spans[-1] = (self.module, self._span_map(self.module, 1))
            return self._spans[-1]
        index = bisect.bisect_right(self.offsets, offset) - 1
        if index < 0:
            return None, _no_span
        if index not in self._spans:
            mini = cst.Module(body=[self.module.body[index]], header=[], footer=[], encoding=self.encoding,
                              default_indent=self.module.default_indent,
                              default_newline=self.module.default_newline, has_trailing_newline=True)
            self._spans[index] = (self.module.body[index], self._span_map(mini, self.line_of(self.offsets[index])))
        return self._spans[index]

    def _span_map(self, module: cst.Module, first_line: int) -> Span:
        ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        starts = self.starts

        def span(node: cst.CSTNode) -> Tuple[int, int]:
            code_range = ranges[node]
            start, end = code_range.start, code_range.end
            return (starts[first_line + start.line - 2] + start.column,
                    starts[first_line + end.line - 2] + end.column)

        return span


def _no_span(node: cst.CSTNode) -> Tuple[int, int]:  # pragma: no cover - never called without a root
    raise Refuse("internal error: no position")


def _line_starts(text: str) -> List[int]:
    return [0] + [m.end() for m in NEWLINE.finditer(text)]
