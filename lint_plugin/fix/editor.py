"""Byte-safe edits to collections of architecture names: add a missing name, drop a duplicate.

libcst finds the literal and where each member, comma and bracket sits; the change itself
is spliced into the original text, so every byte outside an inserted or deleted span is
untouched by construction (libcst never regenerates the file). The result is re-parsed
before it is returned, and the edits are also reported against the original text so that
other front ends (JSON, flake8, an editor) can carry them.

`TextEdit` positions are 1-based lines and 1-based columns counted in characters of the
decoded text (a BOM is not part of it); lines end at "\\r\\n", "\\r" or "\\n", as for Python.
"""
from __future__ import annotations

import ast
import bisect
import keyword
import re
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, TypeVar

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..diagnostics import FixRequest
from ..extract.shapes import COLLECTION_CALLS, EMPTY_CALL_LITERALS, SET_METHODS

# -- public API ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class TextEdit:
    """Replace [start, end) of the original text with `new_text`, so any front end can apply it."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int
    new_text: str


@dataclass(frozen=True)
class Refusal:
    """A request left alone, with a one-line explanation for the user."""

    request: FixRequest
    reason: str


@dataclass(frozen=True)
class FixResult:
    """The new file bytes, what was applied or refused, and the edits against the original."""

    source: bytes
    applied: Tuple[FixRequest, ...]
    refused: Tuple[Refusal, ...]
    edits: Tuple[TextEdit, ...]


_Edit = Tuple[int, int, str]  # start offset, end offset, replacement
_Span = Callable[[cst.CSTNode], Tuple[int, int]]

_NEWLINE = re.compile(r"\r\n?|\n")
_NARROWEST_LIMIT = 79  # PEP 8's line length: every project allows at least this much
_DID_NOT_PARSE = "internal error: the edit did not parse"
_TOO_DEEP = "the code is nested too deeply for archsync to edit"
_CONTAINERS = (cst.Set, cst.List, cst.Tuple, cst.Dict, cst.Call)


class _Refuse(Exception):
    """Raised while planning one request; its message becomes the Refusal reason."""


def apply_fixes(source: bytes, requests: Sequence[FixRequest]) -> FixResult:
    """Apply what can be applied; every byte not part of an edit is kept as it was.

    Requests are planned against the current text in rounds: requests whose edits would
    touch an edit already planned in this round wait for the next one, so each edit is
    computed on text that already holds the earlier ones (idempotent and order-stable).
    """
    requests = tuple(requests)
    lines = _BYTE_LINES.findall(source)
    feeds = {i: [c for c, byte in enumerate(_leading(text), 1) if byte == 0x0c] for i, text in enumerate(lines, 1)}
    feeds = {line: columns for line, columns in feeds.items() if columns}
    if feeds:  # libcst does not keep a form feed that starts a line: edit without them, then put them back
        masked = b"".join(_without_feeds(text) if i in feeds else text for i, text in enumerate(lines, 1))
        return _with_form_feeds(source, feeds, _apply(masked, requests))
    return _apply(source, requests)


_BYTE_LINES = re.compile(rb"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+$")
_LEADING = re.compile(rb"[ \t\x0c]*")


def _leading(line: bytes) -> bytes:
    match = _LEADING.match(line)
    return match.group() if match else b""


def _without_feeds(line: bytes) -> bytes:
    lead = _leading(line)
    return lead.replace(b"\x0c", b"") + line[len(lead):]


def _with_form_feeds(source: bytes, feeds: Dict[int, List[int]], result: FixResult) -> FixResult:
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
        shift = sum(len(_NEWLINE.findall(e.new_text)) - (e.end_line - e.start_line)
                    for e in result.edits if e.end_line < line)
        text = lines[line + shift - 1]
        for column in columns:
            text = text[:column - 1] + b"\x0c" + text[column - 1:]
        lines[line + shift - 1] = text
    data = b"".join(lines)
    try:
        ast.parse(data)
    except Exception:  # pragma: no cover - a form feed in leading whitespace is whitespace
        return FixResult(source, (), tuple(Refusal(r, _DID_NOT_PARSE) for r in result.applied), ())
    return FixResult(data, result.applied, result.refused, tuple(edits))


def _apply(source: bytes, requests: Tuple[FixRequest, ...]) -> FixResult:
    try:
        doc = _Document.parse(source)
    except _Refuse as exc:
        return FixResult(source, (), tuple(Refusal(r, str(exc)) for r in requests), ())
    original, original_starts = doc.text, doc.starts
    applied: Dict[int, FixRequest] = {}
    refused: Dict[int, Refusal] = {}
    composed: List[_Edit] = []  # against the original text
    added: Set[Tuple[str, str]] = set()  # (collection, name) added so far: kept in request order
    pending = list(enumerate(requests))
    while pending:
        planned: List[_Edit] = []
        deferred = []
        for index, request in pending:
            try:
                edits = _plan(doc, request, _current_offset(original_starts, composed, request), added)
            except _Refuse as exc:
                refused[index] = Refusal(request, str(exc))
                continue
            except RecursionError:
                refused[index] = Refusal(request, _TOO_DEEP)
                continue
            if not edits:
                continue
            if any(_touch(a, b) for a in edits for b in planned):
                deferred.append((index, request))
                continue
            planned.extend(edits)
            applied[index] = request
            if request.action == "add":
                added.add((request.target, request.name))
        if not planned:
            break
        composed = _compose(composed, doc.text, planned)
        try:
            doc = doc.edited(planned)
        except (_Refuse, RecursionError):
            return _internal_error(source, requests)
        pending = deferred
    if not applied:
        return FixResult(source, (), _in_order(refused), ())
    try:
        data = doc.text.encode(doc.encoding)
        cst.parse_module(data)
        ast.parse(data)
    except Exception:  # whatever the parsers raise, the edit is not trusted
        return _internal_error(source, requests)
    if _splice(original, composed) != doc.text:  # pragma: no cover - guards the composition
        return _internal_error(source, requests)
    text_edits = tuple(_text_edit(original, original_starts, edit) for edit in composed)
    return FixResult(data, _in_order(applied), _in_order(refused), text_edits)


def _internal_error(source: bytes, requests: Sequence[FixRequest]) -> FixResult:
    return FixResult(source, (), tuple(Refusal(r, _DID_NOT_PARSE) for r in requests), ())


_T = TypeVar("_T")


def _in_order(by_index: Dict[int, _T]) -> Tuple[_T, ...]:
    return tuple(by_index[i] for i in sorted(by_index))


# -- the parsed document ------------------------------------------------------------------------

class _Document:
    """One state of the file: its text, its libcst tree, and node positions on demand.

    Positions are computed one top-level statement at a time (libcst's position pass over
    a large file costs seconds), at the offset given by the code of the statements before
    it; that the statements' code adds up to the text is checked once per state. Between
    rounds only the statements that were edited are parsed again.
    """

    def __init__(self, module: cst.Module, text: str, codes: Optional[List[str]] = None) -> None:
        self.module, self.text, self.encoding = module, text, module.encoding
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
            not module.has_trailing_newline and not footer and _NEWLINE.fullmatch(joined[len(text):]) is not None
            and joined.startswith(text)))
        self._spans: Dict[int, Tuple[cst.CSTNode, _Span]] = {}

    @classmethod
    def parse(cls, data: bytes) -> "_Document":
        try:
            module = cst.parse_module(data)
            doc = cls(module, data.decode(module.encoding))
        except RecursionError:
            raise _Refuse(_TOO_DEEP) from None
        except Exception as exc:  # libcst raises ParserSyntaxError, and others on odd input
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise _Refuse(f"libcst cannot parse the file: {first}") from exc
        try:
            same = doc.text.encode(doc.encoding) == data and (doc.indexed or module.bytes == data)
        except (UnicodeError, LookupError):  # a codec that cannot write back what it read (`idna`)
            raise _Refuse(f"its encoding ({doc.encoding}) cannot write the file back as it was, so archsync "
                          f"will not edit it") from None
        if not same:
            raise _Refuse("libcst does not reproduce this file byte for byte, so archsync will not edit it")
        return doc

    def edited(self, edits: Sequence[_Edit]) -> "_Document":
        """The document with `edits` applied, re-parsing only the statements they touch."""
        text = _splice(self.text, edits)
        body, codes = list(self.module.body), list(self.codes)
        by_statement: Dict[int, List[_Edit]] = {}
        for edit in edits:
            index = bisect.bisect_right(self.offsets, edit[0]) - 1
            if not self.indexed or index < 0 or not self.offsets[index] < edit[0] <= edit[1] < (
                    self.offsets[index] + len(codes[index])):
                return _Document.parse(text.encode(self.encoding))
            by_statement.setdefault(index, []).append(edit)
        for index, group in by_statement.items():
            base = self.offsets[index]
            code = _splice(codes[index], [(start - base, end - base, new) for start, end, new in group])
            try:
                stmt = cst.parse_statement(code, config=self.module.config_for_parsing)
            except Exception:
                raise _Refuse(_DID_NOT_PARSE) from None
            if self.module.code_for_node(stmt) != code:  # pragma: no cover - libcst round-trips statements
                return _Document.parse(text.encode(self.encoding))
            body[index], codes[index] = stmt, code
        return _Document(self.module.with_changes(body=body), text, codes)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def root_at(self, offset: int) -> Tuple[Optional[cst.CSTNode], _Span]:
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

    def _span_map(self, module: cst.Module, first_line: int) -> _Span:
        ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        starts = self.starts

        def span(node: cst.CSTNode) -> Tuple[int, int]:
            code_range = ranges[node]
            start, end = code_range.start, code_range.end
            return (starts[first_line + start.line - 2] + start.column,
                    starts[first_line + end.line - 2] + end.column)

        return span


def _no_span(node: cst.CSTNode) -> Tuple[int, int]:  # pragma: no cover - never called without a root
    raise _Refuse("internal error: no position")


def _line_starts(text: str) -> List[int]:
    return [0] + [m.end() for m in _NEWLINE.finditer(text)]


def _current_offset(starts: List[int], composed: List[_Edit], request: FixRequest) -> int:
    """Where the request's original position is now, after the edits of earlier rounds."""
    if request.action not in ("add", "remove"):
        raise _Refuse(f"unknown fix action {request.action!r}")
    line = request.line
    column = request.column if request.action == "remove" else 1
    if not isinstance(line, int) or not 1 <= line <= len(starts):
        raise _Refuse(f"line {line} is not in the file")
    line_end = starts[line] - 1 if line < len(starts) else None  # a stale column stays on its line
    offset = starts[line - 1] + max(column, 1) - 1
    if line_end is not None:
        offset = min(offset, line_end)
    delta = 0
    for start, end, text in composed:
        if end <= offset:
            delta += len(text) - (end - start)
        elif start <= offset:  # rewritten by an earlier round: look where the rewrite begins
            return start + delta
        else:
            break
    return offset + delta


# -- finding the target -------------------------------------------------------------------------

def _walk(root: Optional[cst.CSTNode]) -> Iterator[Tuple[cst.CSTNode, str]]:
    """Every node under `root`, with the dotted name of the classes and functions around it."""
    stack = [(root, "")] if root is not None else []
    while stack:
        node, scope = stack.pop()
        yield node, scope
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            scope = f"{scope}.{node.name.value}" if scope else node.name.value
        stack.extend((child, scope) for child in reversed(node.children))


def _assigned(node: cst.CSTNode) -> Tuple[List[str], Optional[cst.BaseExpression]]:
    """The plain names an assignment statement binds, and the value it binds them to."""
    if isinstance(node, cst.Assign):
        return [t.target.value for t in node.targets if isinstance(t.target, cst.Name)], node.value
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)) and isinstance(node.target, cst.Name):
        return [node.target.value], node.value
    return [], None


def _target(doc: _Document, request: FixRequest, offset: int) -> Tuple[List[cst.CSTNode], bool, _Span]:
    """The literal nodes `request` may edit, whether they are a decorator's arguments, and spans."""
    root, span = doc.root_at(offset)
    line, label = doc.line_of(offset), request.target
    if label.startswith("@"):
        decorator_name, _, function = label[1:].partition(":")
        for node, _ in _walk(root):
            if not isinstance(node, (cst.FunctionDef, cst.ClassDef)) or not _same_name(node.name.value, function):
                continue
            for decorator in node.decorators:
                call = decorator.decorator
                func = call.func if isinstance(call, cst.Call) else call
                if _same_name(_dotted(func) or "", decorator_name) and doc.line_of(span(decorator)[0]) == line:
                    if not isinstance(call, cst.Call):
                        raise _Refuse(f"@{decorator_name} on {function} has no argument list to add "
                                      f"{request.name!r} to")
                    return [call], True, span
        raise _Refuse(f"no @{decorator_name}(...) decorator on {function} at line {request.line}")
    if "#" in label:  # "<function>#<n>": a literal in a name test, or a local one it tests
        function = label.rpartition("#")[0]
        # `x in [...]`, not `"A" in x` (a name tested against a string or a list of them)
        tests = [(target.comparator, scope) for node, scope in _walk(root) if isinstance(node, cst.Comparison)
                 and not isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString))
                 for target in node.comparisons if isinstance(target.operator, (cst.In, cst.NotIn))
                 and _on_line(doc, span, target.comparator, line)]
        tests += [(value, scope) for node, scope in _walk(root) for value in [_assigned(node)[1]]
                  if value is not None and _assigned(node)[0] and doc.line_of(span(node)[0]) == line]
        tests.sort(key=lambda t: (doc.line_of(_outer(span, t[0])[0]) != line, not _same_name(t[1], function)))
        if not tests and any(isinstance(node, (cst.Comparison, cst.Call)) and _on_line(doc, span, node, line)
                             for node, _ in _walk(root)):
            raise _Refuse(f"{label} tests one name at a time (`==`, `startswith`, `\"A\" in arch`), not a literal "
                          f"list archsync can edit; add a test for {request.name!r} by hand")
        if not tests:
            raise _Refuse(f"no membership test against a literal at line {request.line}")
        return _leaves(doc, tests[0][0], label), False, span
    name = label.rpartition(".")[2].partition("@")[0]  # `X@2`: another arm's binding of `X`, found by its line
    for node, _ in _walk(root):
        names, value = _assigned(node)
        if name in names and value is not None and doc.line_of(span(node)[0]) == line:
            return _leaves(doc, value, label), False, span
    raise _Refuse(f"no assignment to {label} at line {request.line}")


def _outer(span: _Span, node: cst.CSTNode) -> Tuple[int, int]:
    """The node's offsets including its parentheses (libcst's positions leave them out)."""
    lpar, rpar = getattr(node, "lpar", ()), getattr(node, "rpar", ())
    start, end = span(node)
    return (span(lpar[0])[0] if lpar else start, span(rpar[-1])[1] if rpar else end)


def _on_line(doc: _Document, span: _Span, node: cst.CSTNode, line: int) -> bool:
    start, end = _outer(span, node)
    return doc.line_of(start) <= line <= doc.line_of(end)


def _same_name(found: str, wanted: str) -> bool:
    return found == wanted or found.rpartition(".")[2] == wanted.rpartition(".")[2]


def _leaves(doc: _Document, node: cst.BaseExpression, label: str) -> List[cst.CSTNode]:
    """The literal nodes written in this expression that can be edited, or a refusal."""
    if isinstance(node, (cst.Set, cst.List, cst.Tuple, cst.Dict)):
        return [node]
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        raise _Refuse(f"{label} is built by a comprehension, not a literal archsync can edit")
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitOr, cst.Add)):
        return _editable_parts(doc, [node.left, node.right], node, label)
    if isinstance(node, cst.Call):
        fname = _dotted(node.func)
        simple = all(arg.keyword is None and not arg.star for arg in node.args)
        if fname in COLLECTION_CALLS and simple and len(node.args) <= 1:
            if not node.args:
                if fname == "sorted":
                    raise _Refuse(f"{label} is built by a call to sorted() with no argument")
                return [node]
            arg = node.args[0].value
            if isinstance(arg, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                raise _Refuse(f"{label} is built by a comprehension, not a literal archsync can edit")
            try:
                return _leaves(doc, arg, label)
            except _Refuse:
                raise _Refuse(f"{label} is built by a call to {fname}() of `{_short(doc, arg)}`, "
                              "not a literal archsync can edit") from None
        first = node.args[0] if node.args else None
        if fname == "dict" and all(arg.keyword is not None or arg.star == "**" for arg in node.args[1:]) and (
                first is None or first.star != "*"):
            # dict(mapping, **kwargs): the mapping when it is a literal, and the keywords
            inner = [first.value] if first and not first.star and isinstance(first.value, cst.Dict) else []
            keywords = any(arg.keyword is not None for arg in node.args)
            return inner + ([node] if keywords or not inner else [])
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in SET_METHODS:
            return _editable_parts(doc, [node.func.value] + [arg.value for arg in node.args], node, label)
        called = fname or _short(doc, node.func)
        raise _Refuse(f"{label} is built by a call to {called}(), not a literal archsync can edit")
    if isinstance(node, (cst.Name, cst.Attribute)):
        dotted = _dotted(node) or _short(doc, node)
        origin = _imported_from(doc.module, dotted.partition(".")[0])
        where = f"it is imported from {origin}" if origin else f"`{dotted}` is not a literal"
        raise _Refuse(f"{label} is bound to `{dotted}` and {where}; add the name where `{dotted}` is defined")
    raise _Refuse(f"{label} is built by `{_short(doc, node)}`, not a literal archsync can edit")


def _editable_parts(doc: _Document, parts: Sequence[cst.BaseExpression], whole: cst.CSTNode,
                    label: str) -> List[cst.CSTNode]:
    leaves: List[cst.CSTNode] = []
    for part in parts:
        try:
            leaves.extend(_leaves(doc, part, label))
        except _Refuse:
            pass
    if not leaves:
        raise _Refuse(f"{label} is built by `{_short(doc, whole)}`, which has no literal part archsync can edit")
    return leaves


def _imported_from(module: cst.Module, name: str) -> Optional[str]:
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                base = "." * len(small.relative) + (_dotted(small.module) or "")
                for alias in small.names:
                    local = alias.asname.name if alias.asname else alias.name
                    if isinstance(local, cst.Name) and local.value == name:
                        return base
            elif isinstance(small, cst.Import):
                for alias in small.names:
                    local = alias.asname.name if alias.asname else alias.name
                    if (_dotted(local) or "").partition(".")[0] == name:
                        return _dotted(alias.name)
    return None


def _dotted(node: Optional[cst.CSTNode]) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr.value}" if inner else None
    return None


def _short(doc: _Document, node: cst.CSTNode) -> str:
    text = " ".join(doc.module.code_for_node(node).split())
    return text if len(text) <= 60 else text[:57] + "..."


# -- the container model ------------------------------------------------------------------------

@dataclass
class _Item:
    """One element of a container, with offsets in the current text."""

    start: int
    end: int  # end of the element itself, without its comma
    comma: Optional[int]  # offset of its comma
    key: Optional[str] = None  # the member name it contributes, if any
    key_start: int = -1
    string: Optional[cst.SimpleString] = None
    value: Optional[cst.BaseExpression] = None  # dict / keyword value
    between: Tuple[int, int] = (0, 0)  # offsets of the text between key and value (": " or "=")

    @property
    def stop(self) -> int:
        return self.comma + 1 if self.comma is not None else self.end


@dataclass
class _Container:
    kind: str  # set, list, tuple, dict, kwargs (dict(...) call), args (decorator), empty:<call>
    items: List[_Item]
    open_end: Optional[int]  # just after the opening bracket (None for a bare tuple)
    close: Optional[int]  # the closing bracket

    def keys(self) -> List[str]:
        return [item.key for item in self.items if item.key is not None]


def _string_value(node: cst.CSTNode) -> Optional[str]:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - libcst evaluates every valid literal
            return None
        return value if isinstance(value, str) else None
    return None


def _container(text: str, span: _Span, node: cst.CSTNode, decorator: bool) -> _Container:
    if isinstance(node, (cst.Set, cst.List, cst.Dict)):
        start, end = span(node)
        kind = "dict" if isinstance(node, cst.Dict) else "set" if isinstance(node, cst.Set) else "list"
        _expect(text, start, "{[")
        _expect(text, end - 1, "}]")
        return _Container(kind, [_item(span, el, kind) for el in node.elements], start + 1, end - 1)
    if isinstance(node, cst.Tuple):
        items = [_item(span, el, "tuple") for el in node.elements]
        if not node.lpar:
            return _Container("tuple", items, None, None)
        opening, closing = span(node.lpar[-1])[0], span(node.rpar[0])[1] - 1
        _expect(text, opening, "(")
        _expect(text, closing, ")")
        return _Container("tuple", items, opening + 1, closing)
    assert isinstance(node, cst.Call)
    fname = _dotted(node.func) or ""
    kind = "args" if decorator else "kwargs" if fname == "dict" else f"empty:{fname}"
    opening = _open_paren(text, span(node.func)[1])
    closing = span(node)[1] - 1
    _expect(text, closing, ")")
    return _Container(kind, [_item(span, arg, kind) for arg in node.args], opening + 1, closing)


def _expect(text: str, offset: int, chars: str) -> None:
    if not (0 <= offset < len(text) and text[offset] in chars):  # pragma: no cover - a libcst surprise
        raise _Refuse("internal error: the literal is not where libcst placed it")


def _open_paren(text: str, offset: int) -> int:
    while offset < len(text):
        char = text[offset]
        if char == "(":
            return offset
        if char == "#":
            match = _NEWLINE.search(text, offset)
            offset = match.start() if match else len(text)
        elif char in " \t\f\r\n\\":
            offset += 1
        else:
            break
    raise _Refuse("internal error: no argument list after the call")


def _item(span: _Span, element: cst.CSTNode, kind: str) -> _Item:
    start, end = span(element)
    comma = getattr(element, "comma", None)
    item = _Item(start, end, span(comma)[0] if isinstance(comma, cst.Comma) else None)
    key_node: Optional[cst.CSTNode] = None
    key: Optional[str] = None
    if isinstance(element, cst.Arg) and kind == "kwargs":
        if element.keyword is not None and not element.star:
            key_node, key, item.value = element.keyword, element.keyword.value, element.value
    elif isinstance(element, cst.Element):
        key_node = element.value
    elif isinstance(element, cst.DictElement):
        key_node, item.value = element.key, element.value
    elif isinstance(element, cst.Arg) and element.keyword is None and not element.star:
        key_node = element.value
    if key_node is not None and key is None:
        key = _string_value(key_node)
        item.string = key_node if isinstance(key_node, cst.SimpleString) and key is not None else None
    if key_node is not None and key is not None:
        item.key, item.key_start = key, span(key_node)[0]
        if item.value is not None:
            item.between = (span(key_node)[1], span(item.value)[0])
    return item


# -- planning -----------------------------------------------------------------------------------

def _plan(doc: _Document, request: FixRequest, offset: int, added: Set[Tuple[str, str]]) -> List[_Edit]:
    if request.action == "add":
        return _plan_add(doc, request, offset, added)
    return _plan_remove(doc, request, offset)


def _plan_add(doc: _Document, request: FixRequest, offset: int, added: Set[Tuple[str, str]]) -> List[_Edit]:
    nodes, decorator, span = _target(doc, request, offset)
    containers = [_container(doc.text, span, node, decorator) for node in nodes]
    name, label = request.name, request.target
    if any(name in container.keys() for container in containers):
        return []
    try:
        name.encode(doc.encoding)
    except UnicodeError:
        raise _Refuse(f"{name!r} cannot be written in this file's encoding ({doc.encoding})") from None
    container, anchor = containers[-1], None
    for peer in request.peers:
        hits = [(c, i) for c in containers for i, item in enumerate(c.items) if item.key == peer]
        if hits:
            container, anchor = hits[0]
            while anchor + 1 < len(container.items) and (label, container.items[anchor + 1].key) in added:
                anchor += 1  # after the names added before this one, not between them and the peer
            break
    element = _element_text(doc.text, container, anchor, name, label, containers)
    if anchor is not None:
        return _insert_after(doc.text, container, anchor, element)
    slot = _sorted_slot(container, name)
    if slot is not None:
        where, index = slot
        if where == "after":
            return _insert_after(doc.text, container, index, element)
        return _insert_before(doc.text, container, index, element)
    items = container.items
    if container.kind == "args":  # a new positional argument goes before any keyword argument
        positional = [i for i, item in enumerate(items) if item.key is not None]
        if positional:
            return _insert_after(doc.text, container, positional[-1], element)
        if items:
            return _insert_before(doc.text, container, 0, element)
    elif items:
        return _insert_after(doc.text, container, len(items) - 1, element)
    return _insert_empty(container, element)


def _element_text(text: str, container: _Container, anchor: Optional[int], name: str, label: str,
                  containers: Sequence[_Container]) -> str:
    """The source text of the new element, in the style of its neighbours."""
    if container.kind not in ("dict", "kwargs"):
        return _quote(name, _style(container, anchor, containers))
    if anchor is None:
        raise _Refuse(f"{label} maps names to values, and with no peer entry to copy archsync "
                      f"cannot tell what {name!r} should map to")
    peer = container.items[anchor]
    between = text[peer.between[0]:peer.between[1]]
    value = text[peer.between[1]:peer.end]
    if peer.value is None or not _simple(peer.value) or _NEWLINE.search(value):
        raise _Refuse(f"{label}: the value of {peer.key!r} is not a simple name, attribute or constant, "
                      f"so archsync cannot derive the value for {name!r}")
    if container.kind == "kwargs":
        if not name.isidentifier() or keyword.iskeyword(name):
            raise _Refuse(f"{name!r} is not a valid keyword argument for the dict(...) call of {label}")
        return name + (between if "#" not in between and not _NEWLINE.search(between) else "=") + value
    key = _quote(name, _style(container, anchor, containers))
    return key + (between if "#" not in between and not _NEWLINE.search(between) else ": ") + value


def _simple(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Name, cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.Attribute):
        return _dotted(node) is not None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, (cst.Integer, cst.Float))
    return False


def _style(container: _Container, anchor: Optional[int],
           containers: Sequence[_Container]) -> Optional[cst.SimpleString]:
    """The string to copy quotes from: the peer's, else the first in the literal."""
    if anchor is not None and container.items[anchor].string is not None:
        return container.items[anchor].string
    for candidate in [container, *containers]:
        for item in candidate.items:
            if item.string is not None:
                return item.string
    return None


def _quote(name: str, style: Optional[cst.SimpleString]) -> str:
    """`name` as a string literal with the prefix and quotes of `style`."""
    if style is not None:
        prefix = "".join(c for c in style.prefix if c in "rRuU")
        text = f"{prefix}{style.quote}{name}{style.quote}"
        try:
            if ast.literal_eval(text) == name and "\n" not in text and "\r" not in text:
                return text
        except (SyntaxError, ValueError):
            pass
        quote = style.quote[0]
    else:
        quote = '"'
    text = repr(name)
    if quote == '"' and "'" not in name and '"' not in name and text.startswith("'"):
        text = '"' + text[1:-1] + '"'
    return text


def _sorted_slot(container: _Container, name: str) -> Optional[Tuple[str, int]]:
    """Where `name` goes if the string members are sorted (plainly or ignoring case)."""
    members = [(i, item.key) for i, item in enumerate(container.items) if item.key is not None]
    if len(members) < 2:
        return None
    for fold in (str, str.casefold):
        keys = [fold(key) for _, key in members]
        if all(a <= b for a, b in zip(keys, keys[1:])):
            position = bisect.bisect_right(keys, fold(name))
            return ("before", members[0][0]) if position == 0 else ("after", members[position - 1][0])
    return None


# -- layout -------------------------------------------------------------------------------------

def _line_start(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def _starts_line(text: str, offset: int) -> bool:
    return text[_line_start(text, offset):offset].strip(" \t\f") == ""


def _newline_before(text: str, line_start: int) -> str:
    return "\r\n" if text[line_start - 2:line_start] == "\r\n" else text[line_start - 1]


def _separator(text: str, container: _Container, prefer: int) -> str:
    """The whitespace written after commas on a line, e.g. " " (or "" for `"A","B"`)."""
    items = container.items
    for i in [prefer] + list(range(len(items))):
        comma = items[i].comma if 0 <= i < len(items) - 1 else None
        if comma is not None:
            gap = text[comma + 1:items[i + 1].start]
            if gap.strip(" \t") == "":
                return gap
    return " "


def _insert_after(text: str, container: _Container, index: int, element: str) -> List[_Edit]:
    item = container.items[index]
    last = index == len(container.items) - 1
    following = container.close if last else container.items[index + 1].start
    if _starts_line(text, item.start) and following is not None:
        indent = text[_line_start(text, item.start):item.start]
        if _NEWLINE.search(text, item.stop, following):  # one element per line: add a line
            eol = _NEWLINE.search(text, item.stop)
            assert eol is not None
            comma = "," if (not last or item.comma is not None) else ""
            edits = [(eol.end(), eol.end(), indent + element + comma + eol.group())]
            if comma == "":
                edits.insert(0, (item.end, item.end, ","))
            return edits
        if last and container.open_end is not None and _NEWLINE.search(text, container.open_end, item.start) \
                and not _wrapped(text, container):
            newline = _newline_before(text, _line_start(text, item.start))  # closing bracket hangs
            if item.comma is not None:
                return [(item.stop, item.stop, newline + indent + element + ",")]
            return [(item.end, item.end, "," + newline + indent + element)]
    separator = _separator(text, container, index)
    if _wrapped(text, container) and _too_wide(text, container, item, len(separator + element + ",")):
        # a literal wrapped several names a line: a line of its own after the peer's, not past its width
        items = container.items
        while index + 1 < len(items) and not _NEWLINE.search(text, item.end, items[index + 1].start):
            index += 1
            item = items[index]
        eol = _NEWLINE.search(text, item.end)
        newline = eol.group() if eol else "\n"
        indent = _continuation_indent(text, container)
        if item.comma is not None:
            return [(item.stop, item.stop, newline + indent + element + ",")]
        return [(item.end, item.end, "," + newline + indent + element)]
    if item.comma is not None:
        return [(item.stop, item.stop, separator + element + ",")]
    return [(item.end, item.end, "," + separator + element)]


def _wrapped(text: str, container: _Container) -> bool:
    """Does the literal span lines with more than one element on some line (`("A", "B",\\n "C")`)?"""
    items = container.items
    if len(items) < 3 or not _NEWLINE.search(text, items[0].start, items[-1].start):
        return False
    return any(not _NEWLINE.search(text, a.end, b.start) for a, b in zip(items, items[1:]))


def _too_wide(text: str, container: _Container, item: _Item, added: int) -> bool:
    """Would `added` characters on `item`'s line make it wider than the literal's lines (and 79 columns)?"""
    first = _line_start(text, container.items[0].start)
    last_eol = _NEWLINE.search(text, container.items[-1].end)
    body = text[first:last_eol.start() if last_eol else len(text)]
    width = max([_NARROWEST_LIMIT] + [len(line) for line in _NEWLINE.split(body)])
    start = _line_start(text, item.start)
    eol = _NEWLINE.search(text, item.start)
    return len(text[start:eol.start() if eol else len(text)]) + added > width


def _continuation_indent(text: str, container: _Container) -> str:
    """The indent of the literal's continuation lines, or the column of its first element."""
    for item in container.items[1:]:
        if _starts_line(text, item.start):
            return text[_line_start(text, item.start):item.start]
    first = container.items[0].start
    return " " * (first - _line_start(text, first))


def _insert_before(text: str, container: _Container, index: int, element: str) -> List[_Edit]:
    item = container.items[index]
    if _starts_line(text, item.start):
        start = _line_start(text, item.start)
        eol = _NEWLINE.search(text, item.start)
        newline = eol.group() if eol else "\n"
        return [(start, start, text[start:item.start] + element + "," + newline)]
    return [(item.start, item.start, element + "," + _separator(text, container, index))]


def _insert_empty(container: _Container, element: str) -> List[_Edit]:
    assert container.open_end is not None
    if container.kind.startswith("empty:"):
        opening, closing = EMPTY_CALL_LITERALS[container.kind[len("empty:"):]]
        element = opening + element + closing
    elif container.kind == "tuple":
        element += ","
    return [(container.open_end, container.open_end, element)]


# -- removing a duplicate -----------------------------------------------------------------------

def _plan_remove(doc: _Document, request: FixRequest, offset: int) -> List[_Edit]:
    root, span = doc.root_at(offset)
    line = doc.line_of(offset)
    counts = []
    for node, _ in _walk(root):
        if not isinstance(node, _CONTAINERS) or not _on_line(doc, span, node, line):
            continue
        container = _container(doc.text, span, node, isinstance(node, cst.Call))
        for index, item in enumerate(container.items):
            if item.key == request.name and item.key_start == offset:
                if container.keys().count(request.name) < 2:
                    return []  # not (or no longer) a duplicate in its literal
                copies = [i for i, other in enumerate(container.items) if other.key == request.name]
                kept = next(i for i in copies if i != index)  # one copy stays: the first other than this one
                return _remove_copies(doc.text, container, [i for i in copies if i != kept])
        counts.append(container.keys().count(request.name))
    if 1 in counts and not any(count > 1 for count in counts):
        return []  # already removed: the name is there once
    raise _Refuse(f"no string {request.name!r} at line {request.line}, column {request.column}")


def _remove_copies(text: str, container: _Container, indices: List[int]) -> List[_Edit]:
    """Edits deleting every later copy of a name (three copies: two go), each run of them at once."""
    if len(indices) == 1:
        return _remove(text, container, indices[0])
    items, edits = container.items, []
    runs: List[List[int]] = []
    for index in indices:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        first, last = items[run[0]], items[run[-1]]
        if run[-1] + 1 < len(items):
            following = items[run[-1] + 1]
            if _starts_line(text, first.start) and _starts_line(text, following.start):
                edits.append((_line_start(text, first.start), _line_start(text, following.start), ""))
            else:
                edits.append((first.start, following.start, ""))
        elif run[0] == 0:  # the whole literal but what follows: nothing precedes the run
            edits.append((first.start, last.stop, ""))
        else:  # the run ends the literal: keep the comma style of what stays
            kept = items[run[0] - 1]
            edits.append((kept.stop, last.stop, "") if last.comma is not None else (kept.end, last.end, ""))
    return edits


def _remove(text: str, container: _Container, index: int) -> List[_Edit]:
    """Edits deleting one element with its comma, keeping the layout of the rest."""
    items = container.items
    item = items[index]
    previous = items[index - 1] if index > 0 else None
    keep_comma = container.kind == "tuple" and len(items) == 2  # ("A",) must stay a tuple
    line_start = _line_start(text, item.start)
    eol = _NEWLINE.search(text, item.stop)
    rest = text[item.stop:eol.start() if eol else len(text)].strip(" \t\f")
    if _starts_line(text, item.start) and (rest == "" or rest.startswith("#")) and eol:
        edits = [(line_start, eol.end(), "")]  # the element's own line(s)
        if item.comma is None and previous is not None and previous.comma is not None and not keep_comma:
            edits.insert(0, (previous.comma, previous.comma + 1, ""))
        return edits
    if item.comma is not None:
        if index + 1 < len(items) and not _NEWLINE.search(text, item.stop, items[index + 1].start):
            return [(item.start, items[index + 1].start, "")]
        if previous is not None and not _NEWLINE.search(text, previous.stop, item.start):
            return [(previous.stop, item.stop, "")]
        end = item.stop
        while end < len(text) and text[end] in " \t":
            end += 1
        return [(item.start, end, "")]
    assert previous is not None and previous.comma is not None
    between = text[previous.stop:item.start]
    if "#" in between:
        edits = [(item.start, item.end, "")]
        if not keep_comma:
            edits.insert(0, (previous.comma, previous.comma + 1, ""))
        return edits
    return [(previous.stop if keep_comma else previous.comma, item.end, "")]


# -- edits --------------------------------------------------------------------------------------

def _touch(a: _Edit, b: _Edit) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _splice(text: str, edits: Sequence[_Edit]) -> str:
    parts, last = [], 0
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
        parts.append(text[last:start])
        parts.append(new)
        last = end
    parts.append(text[last:])
    return "".join(parts)


def _compose(composed: List[_Edit], text: str, planned: Sequence[_Edit]) -> List[_Edit]:
    """Fold edits made on `text` (the original with `composed` applied) into `composed`."""
    for edit in sorted(planned, key=lambda e: (e[0], e[1]), reverse=True):
        composed = _compose_one(composed, text, edit)
        text = _splice(text, [edit])
    return composed


def _compose_one(composed: List[_Edit], text: str, edit: _Edit) -> List[_Edit]:
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


def _text_edit(text: str, starts: List[int], edit: _Edit) -> TextEdit:
    def position(offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    (start_line, start_column), (end_line, end_column) = position(edit[0]), position(edit[1])
    return TextEdit(start_line, start_column, end_line, end_column, edit[2])
