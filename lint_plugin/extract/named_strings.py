"""Names that stand for one written string: what a test like `model_type == LLAMA` compares with.

Some servers spell the names they dispatch on once, as constants or enum members, and test
against those names:

    class ModelType(enum.Enum):
        LLAMA = {"type": "llama", "name": "Llama"}

    for data in ModelType:                       # each member exported as a module name
        globals()[data.name] = data.value["type"]

    if model_type == LLAMA: ...                  # or `== ModelType.LLAMA.value`, `== LLAMA_TYPE`

Read without running anything: a module-level `NAME = "text"` bound once; an enum's member whose
value is a string (`ModelType.LLAMA`, `ModelType.LLAMA.value`); and a module-level loop over an
enum whose only statement stores, under each member's name in `globals()` or `locals()` (or a
name bound to either), the member's value or one written key of it. Each name maps to the
string node where the text is written, so a name found through it points at its spelling.
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Dict, Iterable, List, Optional

from .context import dotted_name, is_str

_NAMESPACES = ("globals", "locals")
# the names read: a constant's (`LLAMA`), or dotted from a capitalised enum (`ModelType.llama.value`); the
# prefilter finds a chain's tests by this shape (`model_chains._ELIF_TEST`)
NAMED = rb"_*[A-Z][A-Za-z0-9_.]*"
_NAMED = re.compile(NAMED.decode())
_CONSTANT = re.compile(r"_*[A-Z][A-Z0-9_]*")


def named_strings(body: Iterable[ast.stmt]) -> Dict[str, ast.Constant]:
    """Module-level names (dotted for enum members) bound to one written string, and the string."""
    statements = list(body)
    found: Dict[str, ast.Constant] = {}
    bound = Counter(target.id for stmt in statements if isinstance(stmt, ast.Assign)
                    for target in stmt.targets if isinstance(target, ast.Name))
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and is_str(stmt.value) and bound[stmt.targets[0].id] == 1:
            found[stmt.targets[0].id] = stmt.value  # type: ignore[assignment]
    enums = {stmt.name: _members(stmt) for stmt in statements if isinstance(stmt, ast.ClassDef) and _is_enum(stmt)}
    for name, members in enums.items():
        for member, value in members.items():
            if is_str(value):
                found[f"{name}.{member}"] = found[f"{name}.{member}.value"] = value  # type: ignore[assignment]
    namespaces = {target.id for stmt in statements if isinstance(stmt, ast.Assign) and _is_namespace(stmt.value)
                  for target in stmt.targets if isinstance(target, ast.Name)}
    for stmt in statements:
        if isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Name) and stmt.iter.id in enums:
            for member, text in _exported(stmt, enums[stmt.iter.id], namespaces).items():
                found.setdefault(member, text)
    return {name: text for name, text in found.items()
            if (_CONSTANT if "." not in name else _NAMED).fullmatch(name) is not None}


def _is_enum(node: ast.ClassDef) -> bool:
    """`class ModelType(enum.Enum)`, `(str, Enum)`, `(StrEnum)`: a base whose name ends in `Enum`."""
    return any((dotted_name(base) or "").endswith("Enum") for base in node.bases)


def _members(node: ast.ClassDef) -> Dict[str, ast.expr]:
    return {stmt.targets[0].id: stmt.value for stmt in node.body
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)}


def _is_namespace(value: ast.expr) -> bool:
    """`globals()` or `locals()` (at module level, the same dict)."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _NAMESPACES \
        and not value.args and not value.keywords


def _exported(loop: ast.For, members: Dict[str, ast.expr], namespaces: Iterable[str]) -> Dict[str, ast.Constant]:
    """`for m in E: globals()[m.name] = m.value["type"]`: each member's name bound to that string."""
    if not isinstance(loop.target, ast.Name) or len(loop.body) != 1 or loop.orelse:
        return {}
    stmt, item = loop.body[0], loop.target.id
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript)):
        return {}
    store = stmt.targets[0]
    names = store.value
    if not (_is_namespace(names) or (isinstance(names, ast.Name) and names.id in namespaces)) \
            or ast.dump(store.slice) != ast.dump(_attribute(item, "name")):
        return {}
    key = _key(stmt.value, item)
    if key is None:
        return {}
    exported: Dict[str, ast.Constant] = {}
    for member, value in members.items():
        text = value if not key else _entry(value, key[0])
        if text is not None and is_str(text):
            exported[member] = text  # type: ignore[assignment]
    return exported


def _attribute(name: str, attr: str) -> ast.Attribute:
    return ast.Attribute(value=ast.Name(id=name, ctx=ast.Load()), attr=attr, ctx=ast.Load())


def _key(value: ast.expr, item: str) -> Optional[List[str]]:
    """`m.value` -> [] (the value itself); `m.value["type"]` -> ["type"]; anything else None."""
    if ast.dump(value) == ast.dump(_attribute(item, "value")):
        return []
    if isinstance(value, ast.Subscript) and is_str(value.slice) \
            and ast.dump(value.value) == ast.dump(_attribute(item, "value")):
        return [value.slice.value]  # type: ignore[attr-defined]
    return None


def _entry(value: ast.expr, key: str) -> Optional[ast.expr]:
    if isinstance(value, ast.Dict):
        for k, v in zip(value.keys, value.values):
            if k is not None and is_str(k) and k.value == key:  # type: ignore[attr-defined]
                return v
    return None
