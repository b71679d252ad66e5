"""Finding the literal a request names: the assignment, membership test or decorator at its line,
and within it the parts that are literals archsync can edit, or a refusal saying why there are none."""
from __future__ import annotations

import ast
import dataclasses
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

import libcst as cst

from ...diagnostics import FixRequest
from ...extract.shapes import COLLECTION_CALLS, SET_METHODS
from .document import Document, Span
from .results import Refuse

_CODE = cst.Module(body=[])  # writes a parsed node's own text back (its whitespace is its own)
_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


class OneNameTest(Refuse):
    """The request names a test of one name (`arch == "X"`, `arch != "X"`), which `equality.py` may rewrite
    as a test against a tuple: `target` is its `== "X"` part."""

    def __init__(self, target: cst.ComparisonTarget, span: Span) -> None:
        super().__init__("a test of one name")
        self.target = target
        self.span = span


def _other_name_test(node: cst.CSTNode) -> bool:
    """`x.startswith(...)`, `x.endswith(...)` or `"A" in x`: a test of a name by another form than `==`."""
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Attribute) and node.func.attr.value in ("startswith", "endswith")
    return isinstance(node, cst.Comparison) and isinstance(node.left, _STRINGS)


def _string_value(node: cst.BaseExpression) -> str:
    """The text a plain string literal holds, or "" for anything else."""
    try:
        value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    except Exception:  # libcst raises what `ast.literal_eval` does
        return ""
    return value if isinstance(value, str) else ""


def walk(root: Optional[cst.CSTNode], within: Optional[Callable[[cst.CSTNode], bool]] = None,
         scope: str = "") -> Iterator[Tuple[cst.CSTNode, str]]:
    """Every node under `root` (into only the nodes `within` accepts), with the dotted name of the
    classes and functions around it (`scope`: those around `root`)."""
    stack = [(root, scope)] if root is not None else []
    while stack:
        node, scope = stack.pop()
        yield node, scope
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            scope = f"{scope}.{node.name.value}" if scope else node.name.value
        stack.extend((child, scope) for child in reversed(node.children) if within is None or within(child))


def walk_at(root: Optional[cst.CSTNode], doc: Document, span: Span, line: int,
            scope: str = "") -> Iterator[Tuple[cst.CSTNode, str]]:
    """`walk`, into only the nodes whose text spans `line`: what a request at that line can name is there,
    and a large statement around it (when the whole file is parsed) is not walked whole for each."""
    return walk(root, lambda node: _spans_line(doc, span, node, line), scope)


def _spans_line(doc: Document, span: Span, node: cst.CSTNode, line: int) -> bool:
    try:
        start, end = span(node)
    except (KeyError, IndexError):  # no position of its own, or one past the text (a last newline)
        return True
    return doc.line_of(start) <= line <= doc.line_of(end)


def _assigned(node: cst.CSTNode) -> Tuple[List[str], Optional[cst.BaseExpression]]:
    """The plain names an assignment statement binds, and the value it binds them to."""
    if isinstance(node, cst.Assign):
        return [t.target.value for t in node.targets if isinstance(t.target, cst.Name)], node.value
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)) and isinstance(node.target, cst.Name):
        return [node.target.value], node.value
    return [], None


def locate_literals(doc: Document, request: FixRequest, offset: int) -> Tuple[List[cst.CSTNode], bool, Span]:
    """The literal nodes `request` may edit, whether they are a decorator's arguments, and spans.

    `X = _X`, where a top-level statement before it assigns `_X`, is another name for `_X`: the
    literal edited is `_X`'s (each step goes to an earlier statement, so a chain ends).
    """
    root, span, scope = doc.root_at(offset)
    line, label = doc.line_of(offset), request.target
    if label.startswith("@"):
        decorator_name, _, function = label[1:].partition(":")
        for node, _ in walk(root, scope=scope):
            if not isinstance(node, (cst.FunctionDef, cst.ClassDef)) or not _same_name(node.name.value, function):
                continue
            for decorator in node.decorators:
                call = decorator.decorator
                func = call.func if isinstance(call, cst.Call) else call
                if _same_name(dotted_name(func) or "", decorator_name) and doc.line_of(span(decorator)[0]) == line:
                    if not isinstance(call, cst.Call):
                        raise Refuse(f"@{decorator_name} on {function} has no argument list to add "
                                      f"{request.name!r} to")
                    return [call], True, span
        raise Refuse(f"no @{decorator_name}(...) decorator on {function} at line {request.line}")
    if "#" in label:  # "<function>#<n>": a literal in a name test, or a local one it tests
        function = label.rpartition("#")[0]
        # `x in [...]`, not `"A" in x` (a name tested against a string or a list of them)
        around = list(walk_at(root, doc, span, line, scope))
        tests = [(target.comparator, scope) for node, scope in around if isinstance(node, cst.Comparison)
                 and not isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString))
                 for target in node.comparisons if isinstance(target.operator, (cst.In, cst.NotIn))
                 and on_line(doc, span, target.comparator, line)]
        # `set(config.architectures) & {...}`: the written side of an intersection
        tests += [(side, scope) for node, scope in around if isinstance(node, cst.BinaryOperation)
                  and isinstance(node.operator, cst.BitAnd) for side in (node.left, node.right)
                  if isinstance(side, (cst.Set, cst.List, cst.Tuple)) and on_line(doc, span, side, line)]
        tests += [(value, scope) for node, scope in around for value in [_assigned(node)[1]]
                  if value is not None and _assigned(node)[0] and doc.line_of(span(node)[0]) == line]
        tests.sort(key=lambda t: (doc.line_of(_outer(span, t[0])[0]) != line, not _same_name(t[1], function)))
        if not tests:
            equalities = [target for node, _ in around if isinstance(node, cst.Comparison)
                          and len(node.comparisons) == 1 and not isinstance(node.left, _STRINGS)
                          for target in node.comparisons if isinstance(target.operator, (cst.Equal, cst.NotEqual))
                          and isinstance(target.comparator, cst.SimpleString) and on_line(doc, span, target, line)]
            # the test of the name the new one is kin to; with none named, the only test of one name there
            # is (`arch.startswith("A") or arch == "C"` does not say which form a new name takes)
            chosen = [t for t in equalities if _string_value(t.comparator) in request.peers]
            if not chosen and len(equalities) == 1 and not any(
                    _other_name_test(node) and on_line(doc, span, node, line) for node, _ in around):
                chosen = equalities
            if len(chosen) == 1:
                raise OneNameTest(chosen[0], span)
        if not tests and any(isinstance(node, (cst.Comparison, cst.Call)) and on_line(doc, span, node, line)
                             for node, _ in around):
            raise Refuse(f"{label} tests one name at a time (`==`, `startswith`, `\"A\" in arch`), not a literal "
                          f"list archsync can edit; add a test for {request.name!r} by hand")
        if not tests:
            raise Refuse(f"no membership test against a literal at line {request.line}")
        return _leaves(doc, tests[0][0], label), False, span
    name = label.rpartition(".")[2].partition("@")[0]  # `X@2`: another arm's binding of `X`, found by its line
    for node, _ in walk_at(root, doc, span, line, scope):
        names, value = _assigned(node)
        if name in names and value is not None and doc.line_of(span(node)[0]) == line:
            bound = _bound_before(doc, value.value, offset) if isinstance(value, cst.Name) else None
            if bound is not None:
                return locate_literals(doc, dataclasses.replace(request, target=bound[2], line=bound[1]), bound[0])
            return _leaves(doc, value, label), False, span
    raise Refuse(f"no assignment to {label} at line {request.line}")


def _bound_before(doc: Document, name: str, offset: int) -> Optional[Tuple[int, int, str]]:
    """(offset, line, name) of the last top-level assignment of `name` in a statement before the line of
    `offset` (the offset is its line's start)."""
    found = None
    line = doc.line_of(offset)
    for stmt in doc.tree.body:
        if (stmt.end_lineno or stmt.lineno) >= line:
            break
        targets: List[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and stmt.value is not None:
            targets = [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            found = (doc.starts[stmt.lineno - 1], stmt.lineno, name)
    return found


def _outer(span: Span, node: cst.CSTNode) -> Tuple[int, int]:
    """The node's offsets including its parentheses (libcst's positions leave them out)."""
    lpar, rpar = getattr(node, "lpar", ()), getattr(node, "rpar", ())
    start, end = span(node)
    return (span(lpar[0])[0] if lpar else start, span(rpar[-1])[1] if rpar else end)


def on_line(doc: Document, span: Span, node: cst.CSTNode, line: int) -> bool:
    start, end = _outer(span, node)
    return doc.line_of(start) <= line <= doc.line_of(end)


def _same_name(found: str, wanted: str) -> bool:
    return found == wanted or found.rpartition(".")[2] == wanted.rpartition(".")[2]


def _leaves(doc: Document, node: cst.BaseExpression, label: str) -> List[cst.CSTNode]:
    """The literal nodes written in this expression that can be edited, or a refusal."""
    if isinstance(node, (cst.Set, cst.List, cst.Tuple, cst.Dict)):
        return [node]
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        kept = _filtered(node)
        if kept is not None and isinstance(kept, (cst.Set, cst.List, cst.Tuple)):
            return [kept]  # `[m for m in [A, B] if m is not None]`: the literal it filters
        raise Refuse(f"{label} is built by a comprehension, not a literal archsync can edit")
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.BitOr, cst.Add)):
        return _editable_parts(doc, [node.left, node.right], node, label)
    if isinstance(node, cst.Call):
        fname = dotted_name(node.func)
        simple = all(arg.keyword is None and not arg.star for arg in node.args)
        if fname in COLLECTION_CALLS and simple and len(node.args) <= 1:
            if not node.args:
                if fname == "sorted":
                    raise Refuse(f"{label} is built by a call to sorted() with no argument")
                return [node]
            arg = node.args[0].value
            try:
                return _leaves(doc, arg, label)
            except Refuse as refused:
                if isinstance(arg, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
                    raise refused from None
                raise Refuse(f"{label} is built by a call to {fname}() of `{_short(doc, arg)}`, "
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
        raise Refuse(f"{label} is built by a call to {called}(), not a literal archsync can edit")
    if isinstance(node, (cst.Name, cst.Attribute)):
        dotted = dotted_name(node) or _short(doc, node)
        origin = _imported_from(doc.tree, dotted.partition(".")[0])
        where = f"it is imported from {origin}" if origin else "this file assigns it nothing before"
        raise Refuse(f"{label} is bound to `{dotted}` and {where}; add the name where `{dotted}` is defined")
    raise Refuse(f"{label} is built by `{_short(doc, node)}`, not a literal archsync can edit")


def _filtered(node: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """As `extract.values.filtered`: what a one-loop comprehension keeps its own elements of (a literal there)."""
    if not isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return None
    loop = node.for_in
    if loop.inner_for_in is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name) \
            or not isinstance(node.elt, cst.Name) or node.elt.value != loop.target.value:
        return None
    return loop.iter


def _editable_parts(doc: Document, parts: Sequence[cst.BaseExpression], whole: cst.CSTNode,
                    label: str) -> List[cst.CSTNode]:
    leaves: List[cst.CSTNode] = []
    for part in parts:
        try:
            leaves.extend(_leaves(doc, part, label))
        except Refuse:
            pass
    if not leaves:
        raise Refuse(f"{label} is built by `{_short(doc, whole)}`, which has no literal part archsync can edit")
    return leaves


def _imported_from(tree: ast.Module, name: str) -> Optional[str]:
    """Where the file's top-level imports take `name` from."""
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name != "*" and (alias.asname or alias.name) == name:
                    return "." * stmt.level + (stmt.module or "")
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if (alias.asname or alias.name).partition(".")[0] == name:
                    return alias.name
    return None


def dotted_name(node: Optional[cst.CSTNode]) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = dotted_name(node.value)
        return f"{inner}.{node.attr.value}" if inner else None
    return None


def _short(doc: Document, node: cst.CSTNode) -> str:
    text = " ".join(_CODE.code_for_node(node).split())
    return text if len(text) <= 60 else text[:57] + "..."
