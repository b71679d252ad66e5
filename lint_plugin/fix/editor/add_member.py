"""Planning an add: the literal to add to, the new element's text (quotes, and a mapping's value,
copied from its neighbours; a class by its name, imported where the file does not bind it), and its
place: after its peer, in sorted order, or last."""
from __future__ import annotations

import ast
import bisect
import keyword
from typing import Callable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ...diagnostics import FixRequest
from .containers import Container, Item, container_of
from .document import Document
from .edits import NEWLINE, Edit
from .equality import membership_of
from .layout import insert_after, insert_before, insert_empty
from .locate import OneNameTest, dotted_name, locate_literals
from .results import Refuse


def plan_add(doc: Document, request: FixRequest, offset: int, added: Set[Tuple[str, str]]) -> List[Edit]:
    try:
        nodes, decorator, span = locate_literals(doc, request, offset)
    except OneNameTest as test:
        return membership_of(doc, request, test, _quote)
    containers = [container_of(doc.text, span, node, decorator) for node in nodes]
    name, label = request.name, request.target
    if request.reference:
        return _plan_class(doc, request, containers, added)
    if any(name in container.keys() for container in containers):
        return []
    try:
        name.encode(doc.encoding)
    except UnicodeError:
        raise Refuse(f"{name!r} cannot be written in this file's encoding ({doc.encoding})") from None
    container, anchor = _after_peer(containers, request.peers, lambda item: item.key, label, added) \
        or (containers[-1], None)
    element = _element_text(doc.text, container, anchor, name, label, containers)
    if anchor is not None:
        return insert_after(doc.text, container, anchor, element)
    slot = _sorted_slot(container, name)
    if slot is not None:
        where, index = slot
        if where == "after":
            return insert_after(doc.text, container, index, element)
        return insert_before(doc.text, container, index, element)
    items = container.items
    if container.kind == "args":  # a new positional argument goes before any keyword argument
        positional = [i for i, item in enumerate(items) if item.key is not None]
        if positional:
            return insert_after(doc.text, container, positional[-1], element)
        if items:
            return insert_before(doc.text, container, 0, element)
    elif items:
        return insert_after(doc.text, container, len(items) - 1, element)
    return insert_empty(container, element)


def _after_peer(containers: Sequence[Container], peers: Sequence[str], key: Callable[[Item], Optional[str]],
                label: str, added: Set[Tuple[str, str]]) -> Optional[Tuple[Container, Optional[int]]]:
    """The container and the index of the first peer found (by `key`), past the names added after it before this
    one (not between them and the peer); None when no peer is there."""
    for peer in peers:
        hits = [(c, i) for c in containers for i, item in enumerate(c.items) if key(item) == peer]
        if hits:
            container, anchor = hits[0]
            while anchor + 1 < len(container.items) and (label, key(container.items[anchor + 1])) in added:
                anchor += 1
            return container, anchor
    return None


def _plan_class(doc: Document, request: FixRequest, containers: Sequence[Container],
                added: Set[Tuple[str, str]]) -> List[Edit]:
    """Add a class to a literal of classes: its name after its peer (or last), and an import of it from the
    module `request.reference` names where the file binds no such name."""
    name, label = request.name, request.target
    if any(item.reference == name for container in containers for item in container.items):
        return []
    container = containers[-1]
    if container.kind not in ("list", "tuple", "set") or any(item.reference is None for item in container.items):
        raise Refuse(f"{label} is not a literal of classes alone: archsync will not add the class {name} to it")
    module = request.reference.partition(":")[0]
    bound = first_binding(doc.tree, name)
    if bound is not None and bound > request.line:
        raise Refuse(f"{name} is bound below {label} in {request.path} (line {bound}): the list cannot name it "
                     f"before it exists; move one of them, then add the class")
    imported = [] if bound is not None else [_import(doc, module, name, request)]
    found = _after_peer([container], request.peers, lambda item: item.reference, label, added)
    anchor = found[1] if found else len(container.items) - 1 if container.items else None
    edits = insert_after(doc.text, container, anchor, name) if anchor is not None else insert_empty(container, name)
    return imported + edits


def first_binding(tree: ast.Module, name: str) -> Optional[int]:
    """The first line where the module binds `name` at its top level (an import, a class, an assignment), in any
    branch (`if TYPE_CHECKING:`, `try:`), or None."""
    lines: List[int] = []
    statements: List[ast.AST] = list(tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((alias.asname or alias.name.partition(".")[0]) == name for alias in node.names):
                lines.append(node.lineno)
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name == name:
                lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                lines.append(node.lineno)
        for field in ("body", "orelse", "finalbody", "handlers"):
            statements.extend(s for s in getattr(node, field, ()) if isinstance(s, (ast.stmt, ast.excepthandler)))
    return min(lines) if lines else None


def _import(doc: Document, module: str, name: str, request: FixRequest) -> Edit:
    """Joined to a one-line `from module import ...` above the literal; else `from module import name` on a line of
    its own after the last import at the top level above it, else at the top, after the docstring and `__future__`
    imports."""
    if not module or module.startswith(".") or not all(part.isidentifier() for part in module.split(".")):
        raise Refuse(f"{name} is not imported in {request.path}, and archsync does not know a module to import "
                     f"it from: add the import, then the class")
    tree = doc.tree
    above = [s for s in tree.body if s.lineno < request.line]
    imports = [s for s in above if isinstance(s, (ast.Import, ast.ImportFrom))]
    for existing in reversed(imports):  # `from module import A` already: `from module import A, name`
        if isinstance(existing, ast.ImportFrom) and existing.module == module and not existing.level:
            joined = _join(doc, existing, name)
            if joined is not None:
                return joined
    after: Optional[ast.stmt] = None
    if imports:
        after = imports[-1]
    else:
        lead = [s for s in above[:2] if (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                         and isinstance(s.value.value, str))
                or (isinstance(s, ast.ImportFrom) and s.module == "__future__")]
        after = lead[-1] if lead else None
    starts = doc.starts
    newline = NEWLINE.search(doc.text)
    line_end = newline.group() if newline else "\n"
    statement = f"from {module} import {name}"
    if after is None:
        return (0, 0, statement + line_end)
    end_line = after.end_lineno or after.lineno
    if end_line < len(starts):
        return (starts[end_line], starts[end_line], statement + line_end)
    return (len(doc.text), len(doc.text), line_end + statement + line_end)


def _join(doc: Document, statement: ast.ImportFrom, name: str) -> Optional[Edit]:
    """`, name` at the end of a one-line `from module import A, B` (or `(A, B)`) with nothing after it on its line."""
    if statement.end_lineno != statement.lineno or statement.end_col_offset is None \
            or any(alias.name == "*" for alias in statement.names):
        return None
    start = doc.starts[statement.lineno - 1]
    newline = NEWLINE.search(doc.text, start)
    line = doc.text[start:newline.start() if newline else len(doc.text)]
    if not line.isascii() or line[statement.end_col_offset:].strip():
        return None  # a column is a byte offset: only where the two agree; `; x = 1` or a comment after it
    end = start + statement.end_col_offset
    if line[:statement.end_col_offset].endswith(")"):
        inside = line[:statement.end_col_offset - 1].rstrip()
        at = start + len(inside)
        return (at, at, " " + name) if inside.endswith(",") else (at, at, ", " + name)
    return (end, end, ", " + name)


def _element_text(text: str, container: Container, anchor: Optional[int], name: str, label: str,
                  containers: Sequence[Container]) -> str:
    """The source text of the new element, in the style of its neighbours."""
    if container.kind not in ("dict", "kwargs"):
        return _quote(name, _style(container, anchor, containers))
    if anchor is None:
        raise Refuse(f"{label} maps names to values, and with no peer entry to copy archsync "
                      f"cannot tell what {name!r} should map to")
    peer = container.items[anchor]
    between = text[peer.between[0]:peer.between[1]]
    value = text[peer.between[1]:peer.end]
    if peer.value is None or not _simple(peer.value) or NEWLINE.search(value):
        raise Refuse(f"{label}: the value of {peer.key!r} is not a simple name, attribute or constant, "
                      f"so archsync cannot derive the value for {name!r}")
    if container.kind == "kwargs":
        if not name.isidentifier() or keyword.iskeyword(name):
            raise Refuse(f"{name!r} is not a valid keyword argument for the dict(...) call of {label}")
        return name + (between if "#" not in between and not NEWLINE.search(between) else "=") + value
    key = _quote(name, _style(container, anchor, containers))
    return key + (between if "#" not in between and not NEWLINE.search(between) else ": ") + value


def _simple(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Name, cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.Attribute):
        return dotted_name(node) is not None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, (cst.Integer, cst.Float))
    return False


def _style(container: Container, anchor: Optional[int],
           containers: Sequence[Container]) -> Optional[cst.SimpleString]:
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


def _sorted_slot(container: Container, name: str) -> Optional[Tuple[str, int]]:
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
