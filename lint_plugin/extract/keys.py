"""Which collections a module looks up with a Python class name: `MAP[type(model).__name__]`.

A table keyed by `type(x).__name__` (or `x.__class__.__name__`) is asked for the class a model
object has at run time, never for a checkpoint's architecture string: a name the registry serves
with another name's class (a config alias) can never be looked up there. lmdeploy's calibration
tables are read so (`model_type = type(model).__name__`, then `model_type not in LAYER_TYPE_MAP`
and `LAYER_TYPE_MAP[model_type]`).

Read only where the bytes hold such a key (`key_lines`), and only in the statements that
write one (a function, a method, a top-level statement: `near_keys`), since walking a large
module whole cost more than the rest of its extraction: a name holding a class name (assigned
one there) and the collections it looks up (`NAME[key]`, `key in NAME`, `NAME.get(key)`), by the
name the module uses for them.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, Iterator, List, Optional, Set, Tuple

# around one: a class name used as a key, or assigned to be one: `[type(m).__name__]`,
# `.get(m.__class__.__name__`, `type(m).__name__ in`, `= type(m).__name__` (not the many
# `f"{type(self).__name__}"` of messages)
_CLASS_NAME = rb"(?:type\([^()\n]*\)|[\w.\])]+\.__class__)\.__name__"
_AS_A_KEY = re.compile(rb"(?:\[|\.get\(|[^=!<>]=)[ \t]*" + _CLASS_NAME
                       + rb"|" + _CLASS_NAME + rb"[ \t]+(?:not[ \t]+)?in\b")
_AROUND = 100  # bytes before a match that a key's expression may take (`type(self.model.language_model)`)


def key_lines(source: bytes) -> Set[int]:
    """The lines where a class name is used as a key or assigned to be one: where `class_name_keyed`
    looks (empty for nearly every file, whose class names are in messages)."""
    lines: Set[int] = set()
    line, at = 1, 0
    found = source.find(b".__name__")
    while found != -1:
        if source[found - 1:found] == b")" or source.endswith(b"__class__", 0, found):
            if _AS_A_KEY.search(source, max(0, found - _AROUND), found + 21):
                line += source.count(b"\n", at, found)
                at = found
                lines.add(line)
        found = source.find(b".__name__", found + 9)
    return lines


Absolute = Callable[[Optional[str], int], Optional[str]]  # a from-import's module, made absolute (`ModuleContext`)


def class_name_keyed(tree: ast.Module, lines: Set[int], absolute: Optional[Absolute] = None) -> Tuple[str, ...]:
    """The names (as this module writes them) of the collections it looks up with a class name, read in
    the statements that span `lines` (`key_lines`)."""
    return keyed_tables(near_keys(tree.body, lines), _is_class_name, absolute)


def keyed_tables(scopes: List[ast.stmt], is_key: Callable[[ast.AST, Set[str]], bool],
                 absolute: Optional[Absolute] = None) -> Tuple[str, ...]:
    """The names (as written) of the collections `scopes` look up with a key `is_key` recognises (given the
    names assigned one there): `NAME[key]`, `key in NAME`, `NAME.get(key)`. A name a function imports itself
    (`from pkg.handler import KEYS` in its body) is written `=pkg.handler:KEYS`, where `absolute` is given: the
    module's own imports do not say where it comes from."""
    assigned: List[ast.Assign] = []
    lookups: List[ast.AST] = []
    local: Dict[str, str] = {}
    for node in _walk(scopes):  # once: a scope that spans a key's line may be a long function
        if isinstance(node, ast.Assign):
            assigned.append(node)
        elif isinstance(node, (ast.Subscript, ast.Compare, ast.Call)):
            lookups.append(node)
        elif isinstance(node, ast.ImportFrom) and absolute is not None and node.col_offset:
            base = absolute(node.module, node.level)
            if base is not None:
                local.update({alias.asname or alias.name: f"={base}:{alias.name}" for alias in node.names})
    holders: Set[str] = set()
    for assignment in assigned:
        if is_key(assignment.value, holders):
            holders.update(t.id for t in assignment.targets if isinstance(t, ast.Name))
    found: List[str] = []
    for node in lookups:
        if isinstance(node, ast.Subscript) and is_key(node.slice, holders):
            found += _table(node.value)
        elif isinstance(node, ast.Compare) and is_key(node.left, holders):
            found += [n for op, right in zip(node.ops, node.comparators) if isinstance(op, (ast.In, ast.NotIn))
                      for n in _table(right)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and is_key(node.args[0], holders):
            found += _table(node.func.value)
    return tuple(sorted({local.get(name, name) for name in found}))


def near_keys(body: List[ast.stmt], lines: Set[int]) -> List[ast.stmt]:
    """The statements of `body` that span one of `lines`, a class's own statements instead of the class."""
    found: List[ast.stmt] = []
    for stmt in body:
        end = getattr(stmt, "end_lineno", None) or stmt.lineno
        if any(stmt.lineno <= line <= end for line in lines):
            found += near_keys(stmt.body, lines) if isinstance(stmt, ast.ClassDef) else [stmt]
    return found


def _walk(scopes: List[ast.stmt]) -> Iterator[ast.AST]:
    for scope in scopes:
        yield from ast.walk(scope)


def _is_class_name(node: ast.AST, holders: Set[str]) -> bool:
    """`type(x).__name__`, `x.__class__.__name__`, or a name assigned one."""
    if isinstance(node, ast.Name):
        return node.id in holders
    if not (isinstance(node, ast.Attribute) and node.attr == "__name__"):
        return False
    inner = node.value
    if isinstance(inner, ast.Attribute) and inner.attr == "__class__":
        return True
    return isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "type"


def _table(node: ast.AST) -> List[str]:
    """`NAME` or `module.NAME`, as written; `NAME.keys()` is `NAME` too."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys":
        node = node.func.value
    parts: List[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [".".join([node.id] + parts[::-1])]
    return []
