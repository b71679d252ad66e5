"""Expressions that denote a set of names: literals, dicts, calls, operators, references."""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Tuple

from .context import ModuleContext, dotted_name, is_str, short
from .facts import Literal, Member, Part, Unknown
from .shapes import COLLECTION_CALLS, SET_METHODS

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_ENV_CALLS = {"os.getenv", "os.environ.get", "getenv", "environ.get"}
# a project's own module of environment variables: `envs.SGLANG_EXTERNAL_MM_MODEL_ARCH.get()`
_ENVS_MODULE_READ = re.compile(r"(?:.*\.)?envs?\.[A-Z][A-Z0-9_]*\.get")
_MAX_DEPTH = 60


def collection_parts(ctx: ModuleContext, node: ast.expr, local: Dict[str, ast.expr],
                     depth: int = 0) -> Optional[Tuple[Part, ...]]:
    """The parts of a string-collection expression, or None if it is not one."""
    if depth > _MAX_DEPTH:
        return (Unknown("expression nested too deeply", node.lineno),)
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        return _sequence(ctx, node, local, depth)
    if isinstance(node, ast.Dict):
        return _dict_literal(ctx, node, local, depth)
    if isinstance(node, ast.Call):
        return _call(ctx, node, local, depth)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.Add)):
        left = collection_parts(ctx, node.left, local, depth + 1)
        right = collection_parts(ctx, node.right, local, depth + 1)
        if left is None and right is None:
            return None
        return or_unknown(left, node.left) + or_unknown(right, node.right)
    kept = filtered(node)
    if kept is not None:  # `[m for m in [A, B] if m is not None]`: what the literal it filters holds, at most
        return collection_parts(ctx, kept, local, depth + 1)
    if isinstance(node, _COMPREHENSIONS):
        return (Unknown("built by a comprehension", node.lineno),)
    if isinstance(node, ast.Name) and node.id in local:
        return collection_parts(ctx, local[node.id], {}, depth + 1)
    if isinstance(node, (ast.Name, ast.Attribute)):
        ref = ctx.ref(node)
        return (ref,) if ref is not None else None
    return None


def filtered(node: ast.expr) -> Optional[ast.expr]:
    """The literal a comprehension keeps some of its elements of, as they are (`[m for m in [A, B] if m is not
    None]`, optional imports), or None: one loop over a literal, whose element is its target."""
    if not isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) or len(node.generators) != 1:
        return None
    loop = node.generators[0]
    if loop.is_async or not isinstance(loop.target, ast.Name) or not isinstance(node.elt, ast.Name) \
            or node.elt.id != loop.target.id or not isinstance(loop.iter, (ast.List, ast.Tuple, ast.Set)):
        return None
    return loop.iter


def operand(ctx: ModuleContext, node: ast.expr, local: Dict[str, ast.expr], depth: int) -> Tuple[Part, ...]:
    return or_unknown(collection_parts(ctx, node, local, depth + 1), node)


def or_unknown(parts: Optional[Tuple[Part, ...]], node: ast.expr) -> Tuple[Part, ...]:
    if parts is not None:
        return parts
    return (Unknown(f"cannot follow `{short(node)}`", node.lineno),)


def _sequence(ctx: ModuleContext, node: ast.expr, local: Dict[str, ast.expr], depth: int) -> Optional[Tuple[Part, ...]]:
    members: List[Member] = []
    parts: List[Part] = []
    for element in node.elts:  # type: ignore[attr-defined]
        if is_str(element):
            members.append(Member(element.value, element.lineno, ctx.column(element)))
        elif isinstance(element, ast.Starred):
            parts.extend(operand(ctx, element.value, local, depth))
        elif isinstance(element, (ast.Name, ast.Attribute)):
            ref = ctx.ref(element)
            parts.append(ref if ref is not None else Unknown(f"cannot follow `{short(element)}`", element.lineno))
        else:
            return None  # not a collection of names (numbers, tuples, calls...)
    if not members and not parts and node.elts:  # type: ignore[attr-defined]
        return None
    return (Literal(tuple(members)),) + tuple(parts)


def _dict_literal(ctx: ModuleContext, node: ast.Dict, local: Dict[str, ast.expr],
                  depth: int) -> Optional[Tuple[Part, ...]]:
    """A dict keyed by name: its keys are the collection; `**other` adds other's keys."""
    members: List[Member] = []
    parts: List[Part] = []
    for key, value in zip(node.keys, node.values):
        if key is None:
            parts.extend(operand(ctx, value, local, depth))
        elif is_str(key):
            members.append(Member(key.value, key.lineno, ctx.column(key)))  # type: ignore[attr-defined]
        elif isinstance(key, (ast.Name, ast.Attribute)):
            ref = ctx.ref(key)
            parts.append(ref if ref is not None else Unknown(f"cannot follow key `{short(key)}`", key.lineno))
        else:
            return None
    if node.keys and not members and not parts:
        return None
    keyed = [value for key, value in zip(node.keys, node.values) if key is not None and is_str(key)]
    return (_table(members, keyed, node.values),) + tuple(parts)


def _call(ctx: ModuleContext, node: ast.Call, local: Dict[str, ast.expr], depth: int) -> Optional[Tuple[Part, ...]]:
    func = node.func
    if isinstance(func, ast.Name) and func.id in COLLECTION_CALLS and not node.keywords:
        if not node.args:
            return (Literal(()),)
        if len(node.args) == 1:
            return collection_parts(ctx, node.args[0], local, depth + 1)
        return None
    if isinstance(func, ast.Name) and func.id == "dict":
        return _dict_call(ctx, node, local, depth)
    if isinstance(func, ast.Attribute) and func.attr in SET_METHODS and not node.keywords:
        base = collection_parts(ctx, func.value, local, depth + 1)
        if base is None:
            return None
        parts = list(base)
        for arg in node.args:
            parts.extend(operand(ctx, arg, local, depth))
        return tuple(parts)
    env = _environment_read(node)
    if env is not None:
        return (Unknown(f"read from an environment variable by {dotted_name(env.func)}()", env.lineno),)
    return None


def _environment_read(node: ast.expr) -> Optional[ast.Call]:
    """An `os.environ.get(...)` / `os.getenv(...)` / `envs.NAME.get()` anywhere inside a call expression."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            name = dotted_name(child.func)
            if name in _ENV_CALLS or (name is not None and _ENVS_MODULE_READ.fullmatch(name)):
                return child
    return None


def _dict_call(ctx: ModuleContext, node: ast.Call, local: Dict[str, ast.expr],
               depth: int) -> Optional[Tuple[Part, ...]]:
    """`dict(Name=..., **other)`: keyword names are the keys."""
    members: List[Member] = []
    parts: List[Part] = []
    for arg in node.args:
        parts.extend(operand(ctx, arg, local, depth))
    for keyword in node.keywords:
        if keyword.arg is None:
            parts.extend(operand(ctx, keyword.value, local, depth))
        else:
            line = getattr(keyword, "lineno", node.lineno)
            column = ctx.column(keyword) if hasattr(keyword, "col_offset") else ctx.column(node)
            members.append(Member(keyword.arg, line, column))
    keyed = [k.value for k in node.keywords if k.arg is not None]
    return (_table(members, keyed, keyed),) + tuple(parts)


def _table(members: List[Member], keyed: List[ast.expr], values: List[ast.expr]) -> Literal:
    """The literal of a dict: its members, whether its `values` differ from key to key, and the string each
    member maps to where every member maps to one (`keyed`: the values of the members, in order)."""
    valued = _per_key(values)
    strings = tuple(v.value for v in keyed if is_str(v)) if valued else ()  # type: ignore[attr-defined]
    return Literal(tuple(members), valued, strings if len(strings) == len(members) == len(keyed) else ())


def _per_key(values: List[ast.expr]) -> bool:
    """Do a dict's values differ from key to key (a table of per-name values, not a set of names)?"""
    first = None
    for value in values:
        dumped = ast.dump(value)
        if first is None:
            first = dumped
        elif dumped != first:
            return True
    return False
