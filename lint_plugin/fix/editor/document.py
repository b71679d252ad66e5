"""The file being edited, one state per round: its text, and libcst's parse of the parts a request needs.

Parsing is what an edit of a large file costs, so libcst parses only the region a request's line is
in (`outline.py`: the innermost statements on that line, found from the standard parser's tree),
and between rounds only the regions a round edited are parsed again. Where no region can be told,
or libcst will not parse one alone, the whole file is parsed, as it always was.
"""
from __future__ import annotations

import ast
import bisect
import dataclasses
import io
import tokenize
from itertools import accumulate
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ...extract.source_text import Refused, source_text
from .edits import NEWLINE, Edit, splice
from .outline import Outline, Region, parse_tree
from .results import DID_NOT_PARSE, TOO_DEEP, Refuse

Span = Callable[[cst.CSTNode], Tuple[int, int]]  # a node -> its (start, end) offsets in the text


class NotPython(Exception):
    """The standard parser does not read the file: no edit can be checked, so none is made."""


class Piece:
    """One region of the text and libcst's parse of it; node positions on demand."""

    def __init__(self, region: Region, code: str, module: cst.Module, root: Optional[cst.CSTNode]) -> None:
        self.region, self.code, self.module, self.root = region, code, module, root
        self._span: Optional[Span] = None

    def span(self) -> Span:
        if self._span is None:
            ranges = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
            parsed = self.region.prefix + self.code + self.region.suffix
            starts = _line_starts(parsed)
            skip, base, length = len(self.region.prefix), self.region.start, len(self.code)

            def offset(line: int, column: int) -> int:  # within the code: the prefix and suffix are no text
                return base + min(max(starts[line - 1] + column - skip, 0), length)

            def span(node: cst.CSTNode) -> Tuple[int, int]:
                code_range = ranges[node]
                return (offset(code_range.start.line, code_range.start.column),
                        offset(code_range.end.line, code_range.end.column))

            self._span = span
        return self._span


class Document:
    """One state of the file: its text, its statements (the standard parser's), and the regions
    libcst parsed in it (`whole`: the file, when no region would do).

    `edited_regions` are the regions edited since the file was read, where they are now: the
    standard parser checks those alone at the end (`check_with_ast`), or the whole text once an
    edit was made in the whole file's parse.
    """

    def __init__(self, text: str, encoding: str, tree: Optional[ast.Module] = None,
                 pieces: Optional[Dict[Region, Piece]] = None, whole: Optional[Piece] = None,
                 edited_regions: Tuple[Region, ...] = (), edited_whole: bool = False) -> None:
        self.text, self.encoding = text, encoding
        self._starts: Optional[List[int]] = None
        self._tree = tree
        self._pieces: Dict[Region, Piece] = pieces if pieces is not None else {}
        self._whole = whole
        self.edited_regions, self.edited_whole = edited_regions, edited_whole

    @classmethod
    def parse(cls, data: bytes) -> "Document":
        """The file as read: refused when Python would not read it or it cannot be written back byte for
        byte; `NotPython` when the standard parser does not read it."""
        decoded = source_text(data)
        if isinstance(decoded, Refused):  # nothing is fixed in a file Python would not read
            raise Refuse(f"Python would not read the file: {decoded.reason}")
        tree, _ = parse_tree(data)
        if tree is None:  # libcst's refusal, if it has one, says more than "did not parse"
            _parse_whole(data)
            raise NotPython()
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]  # libcst's `Module.encoding`
        try:
            same = decoded.encode(encoding) == data
        except (UnicodeError, LookupError):  # a codec that cannot write back what it read (`idna`)
            raise Refuse(f"its encoding ({encoding}) cannot write the file back as it was, so archsync "
                          f"will not edit it") from None
        if not same:  # pragma: no cover - a strict decoding is written back as it was read
            raise Refuse(_UNFAITHFUL)
        return cls(decoded, encoding, tree)

    @property
    def starts(self) -> List[int]:
        """The offset where each line starts: computed when asked (a state after the last edit of a fix
        is only checked, and a large file's lines cost as much as parsing a region)."""
        if self._starts is None:
            self._starts = _line_starts(self.text)
        return self._starts

    @property
    def tree(self) -> ast.Module:
        """The standard parser's tree of this state (read again only for a later round)."""
        if self._tree is None:
            self._tree, _ = parse_tree(self.text.encode(self.encoding))
            if self._tree is None:
                raise Refuse(DID_NOT_PARSE)
        return self._tree

    def root_at(self, offset: int) -> Tuple[Optional[cst.CSTNode], Span, str]:
        """The statement holding `offset` as libcst parsed it, a node -> (start, end) offsets map, and the
        dotted name of the classes and functions around the statement."""
        if self._whole is None:
            region = Outline(self.tree, self.text, self.starts).region(self.line_of(offset))
            if region is not None and region.start == region.end:  # no statement on the line
                return None, _no_span, ""
            piece = self._pieces.get(region) if region is not None else None
            if piece is None and region is not None:
                piece = _parse_region(region, self.text[region.start:region.end])
                if piece is not None:
                    self._pieces[region] = piece
            if piece is not None:
                return piece.root, piece.span(), piece.region.scope
            self._whole = _parse_whole(self.text.encode(self.encoding), self.text)
        return self._whole.root, self._whole.span(), ""

    def edited(self, edits: Sequence[Edit]) -> "Document":
        """The document with `edits` applied, re-parsing only the regions they are in."""
        text = splice(self.text, edits)
        by_piece: Dict[Region, List[Edit]] = {}
        for edit in edits:
            holding = [p for p in self._pieces.values() if p.region.start < edit[0] <= edit[1] <= p.region.end]
            if self._whole is not None or not holding:
                return self._edited_whole(text)
            smallest = min(holding, key=lambda p: p.region.end - p.region.start)
            by_piece.setdefault(smallest.region, []).append(edit)
        pieces: Dict[Region, Piece] = {}
        edited: List[Region] = []
        for region, group in by_piece.items():
            code = splice(self._pieces[region].code, [(s - region.start, e - region.start, new) for s, e, new in group])
            moved = dataclasses.replace(region, start=_moved(region.start, edits),
                                        end=_moved(region.start, edits) + len(code))
            piece = _parse_region(moved, code)
            if piece is None:
                raise Refuse(DID_NOT_PARSE)
            pieces[moved] = piece
            edited.append(moved)
        for region, piece in self._pieces.items():
            if region not in by_piece and not any(_touch(region, edit) for edit in edits):
                moved = dataclasses.replace(region, start=_moved(region.start, edits), end=_moved(region.end, edits))
                pieces.setdefault(moved, Piece(moved, piece.code, piece.module, piece.root))
        for region in self.edited_regions:
            if any(_overlap(region, edit) and not region.start < edit[0] <= edit[1] <= region.end for edit in edits):
                return self._edited_whole(text)  # pragma: no cover - regions are statements; edits are in one
            edited.append(dataclasses.replace(region, start=_moved(region.start, edits), end=_moved(region.end, edits)))
        return Document(text, self.encoding, None, pieces, None, tuple(dict.fromkeys(edited)), self.edited_whole)

    def _edited_whole(self, text: str) -> "Document":
        try:
            whole = _parse_whole(text.encode(self.encoding), text)
        except Refuse:
            raise Refuse(DID_NOT_PARSE) from None
        return Document(text, self.encoding, None, {}, whole, (), True)

    def check_with_ast(self) -> None:
        """Raise unless the standard parser reads what was edited: each edited region alone (a region is
        whole statements, or a header and `pass`), or the whole text."""
        if self.edited_whole:
            ast.parse(self.text.encode(self.encoding))
            return
        for region in self.edited_regions:
            ast.parse(region.prefix + self.text[region.start:region.end] + region.suffix)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


_UNFAITHFUL = "libcst does not reproduce this file byte for byte, so archsync will not edit it"


def _parse_region(region: Region, code: str) -> Optional[Piece]:
    """libcst's parse of a region, with its statement; None when libcst does not parse it alone as it
    is written (then the whole file is parsed instead)."""
    parsed = region.prefix + code + region.suffix
    try:
        module = cst.parse_module(parsed)
    except RecursionError:
        raise Refuse(TOO_DEEP) from None
    except Exception:  # libcst raises ParserSyntaxError, and others on odd input
        return None
    if module.code != parsed or len(module.body) != 1:
        return None
    root: cst.CSTNode = module.body[0]
    if region.wrapped:
        if not (isinstance(root, cst.If) and isinstance(root.body, cst.IndentedBlock) and len(root.body.body) == 1):
            return None  # pragma: no cover - the prefix's block holds the statement
        root = root.body.body[0]
    if region.arm:
        if not (isinstance(root, cst.If) and isinstance(root.orelse, cst.If)):
            return None  # pragma: no cover - the prefix's `if` is followed by the `elif` arm
        root = root.orelse
    return Piece(region, code, module, root)


def _parse_whole(data: bytes, text: Optional[str] = None) -> Piece:
    """libcst's parse of the whole file, or its refusal."""
    try:
        module = cst.parse_module(data)
    except RecursionError:
        raise Refuse(TOO_DEEP) from None
    except Exception as exc:  # libcst raises ParserSyntaxError, and others on odd input
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Refuse(f"libcst cannot parse the file: {first}") from exc
    text = text if text is not None else data.decode(module.encoding, "replace")
    code = module.code
    # libcst's code of a file ending in a bare "\r" can lose or add the last line end
    if code != text and not (NEWLINE.fullmatch(code[len(text):]) and code.startswith(text)) and not (
            NEWLINE.fullmatch(text[len(code):]) and text.startswith(code)):
        raise Refuse(_UNFAITHFUL)
    return Piece(Region(0, len(text)), text, module, module)


def _moved(offset: int, edits: Sequence[Edit]) -> int:
    """Where an offset that no edit spans is once the edits are made (an insertion at it goes before it)."""
    return offset + sum(len(new) - (end - start) for start, end, new in edits if end <= offset)


def _overlap(region: Region, edit: Edit) -> bool:
    return edit[0] < region.end and region.start < edit[1] or region.start < edit[0] < region.end


def _touch(region: Region, edit: Edit) -> bool:
    """The edit is in the region or at one of its ends: a parse of it kept from before would be stale."""
    return edit[0] <= region.end and region.start <= edit[1]


def _no_span(node: cst.CSTNode) -> Tuple[int, int]:  # pragma: no cover - never called without a root
    raise Refuse("internal error: no position")


def _line_starts(text: str) -> List[int]:
    """Where each line starts (a line ends at `NEWLINE`): where there is no carriage return, from the
    lengths of the lines `str.split` gives, five times faster than the expression's matches."""
    if "\r" in text:
        return [0] + [m.end() for m in NEWLINE.finditer(text)]
    return [0, *accumulate(len(line) + 1 for line in text.split("\n")[:-1])]
