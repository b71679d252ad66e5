"""Classes and type-dispatch predicates: what the runtime decides by config class.

`class Qwen3_5TextConfig(Qwen3NextConfig)` gives a base; `def __init__(self, config:
Qwen3_5TextConfig)` or `config_class = X` binds a model class to its config class; and
`if isinstance(config, A | B): return config` makes a predicate whose family is every
registered architecture built with A, B or a subclass of them.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Tuple

from ..facts import ClassFact, Ref, TypePredicateFact, TypeTest
from .context import ModuleContext, is_str, short

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def read_class(ctx: ModuleContext, node: ast.ClassDef) -> ClassFact:
    bases = tuple(r for r in (ctx.ref(b) for b in node.bases) if r is not None)
    config: Optional[Ref] = None
    wrapped: List[Ref] = []
    for item in node.body:
        if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "config_class" for t in item.targets):
            config = _class_ref(ctx, item.value) or config
        elif isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name) \
                and item.targets[0].id.endswith(("_cls", "_class")) and isinstance(item.value, (ast.Name, ast.Attribute)):
            ref = ctx.ref(item.value)
            if ref is not None:
                wrapped.append(ref)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) \
                and item.target.id == "config_class" and item.value is not None:
            config = _class_ref(ctx, item.value) or config
        elif isinstance(item, _FUNCTIONS) and item.name == "__init__" and config is None:
            for arg in item.args.args + item.args.kwonlyargs:
                if arg.arg == "config" and arg.annotation is not None:
                    config = _class_ref(ctx, arg.annotation)
    return ClassFact(node.name, node.lineno, bases, config, tuple(wrapped))


def _class_ref(ctx: ModuleContext, node: ast.expr) -> Optional[Ref]:
    """A class named by an annotation: `X`, `m.X`, `"X"`, `Optional[X]`, `X | None`."""
    if is_str(node):
        try:
            node = ast.parse(node.value, mode="eval").body  # type: ignore[attr-defined]
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)) \
            and (node.value.attr if isinstance(node.value, ast.Attribute) else node.value.id) in ("Optional",):
        return _class_ref(ctx, node.slice)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [s for s in (node.left, node.right) if not (isinstance(s, ast.Constant) and s.value is None)]
        return _class_ref(ctx, sides[0]) if len(sides) == 1 else None
    if isinstance(node, (ast.Name, ast.Attribute)):
        return ctx.ref(node)
    return None


def read_type_predicate(ctx: ModuleContext, node: ast.AST, qualname: str) -> Optional[TypePredicateFact]:
    """The isinstance tests on a config that make the function return something (not None)."""
    tests: List[TypeTest] = []
    excluded: Dict[Tuple[str, str], str] = {}
    for stmt in _statements(node.body):  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            for target in _isinstance_targets(ctx, stmt.value):
                tests.append(TypeTest(target, None))
        elif isinstance(stmt, ast.If):
            targets = _isinstance_targets(ctx, stmt.test)
            if not targets:
                continue
            extra = _extra_condition(stmt.test)
            returns = list(_all_returns(stmt.body))
            positive = [r for r in returns if not _is_nothing(r.value)]
            if not positive:
                for target in targets:  # a guard that returns None for some configs of this class
                    excluded[(target.module, target.name)] = f"unless {extra}" if extra else "excluded by a guard"
                continue
            condition = f"when {extra}" if extra else _branch_condition(stmt.body)
            for target in targets:
                tests.append(TypeTest(target, condition))
    if not tests:
        return None
    final = tuple(
        TypeTest(t.target, t.condition or excluded.get((t.target.module, t.target.name)))
        for t in tests
    )
    return TypePredicateFact(qualname, node.lineno, ctx.column(node), final)  # type: ignore[attr-defined]


def _isinstance_targets(ctx: ModuleContext, test: ast.expr) -> List[Ref]:
    """Classes in `isinstance(<something named *config*>, A | B)` within a condition."""
    found: List[Ref] = []
    for node in _conjuncts(test):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2 and "config" in short(node.args[0]).lower():
            found.extend(r for r in (ctx.ref(c) for c in _classes(node.args[1])) if r is not None)
    return found


def _conjuncts(test: ast.expr) -> Iterator[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for value in test.values:
            yield from _conjuncts(value)
    else:
        yield test


def _extra_condition(test: ast.expr) -> Optional[str]:
    others = [c for c in _conjuncts(test)
              if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "isinstance")]
    return " and ".join(short(c) for c in others) or None


def _classes(node: ast.expr) -> Iterator[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        yield from _classes(node.left)
        yield from _classes(node.right)
    elif isinstance(node, ast.Tuple):
        for element in node.elts:
            yield from _classes(element)
    elif isinstance(node, (ast.Name, ast.Attribute)):
        yield node


def _is_nothing(value: Optional[ast.expr]) -> bool:
    return value is None or (isinstance(value, ast.Constant) and value.value in (None, False))


def _statements(body: List[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements in order, entering blocks but not nested functions or classes."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.If):
            continue  # an if is judged as a whole by the caller
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(stmt, field, None)
            if block:
                yield from _statements(block)


def _all_returns(body: List[ast.stmt]) -> Iterator[ast.Return]:
    """Every return in a block, nested blocks included, nested functions and classes not."""
    for stmt in body:
        if isinstance(stmt, ast.Return):
            yield stmt
        elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(stmt, field, None)
                if block:
                    yield from _all_returns(block)


def _branch_condition(body: List[ast.stmt]) -> Optional[str]:
    """Why a branch may still return None: the test guarding its first non-None return."""
    for stmt in body:
        if isinstance(stmt, ast.Return) and not _is_nothing(stmt.value):
            if isinstance(stmt.value, ast.IfExp) and _is_nothing(stmt.value.orelse):
                return f"when {short(stmt.value.test)}"
            return None
        if isinstance(stmt, ast.If):
            inner = list(_all_returns(stmt.body))
            if any(not _is_nothing(r.value) for r in inner):
                return f"when {short(stmt.test)}"
            if any(not _is_nothing(r.value) for r in _all_returns(stmt.orelse)):
                if isinstance(stmt.test, ast.UnaryOp) and isinstance(stmt.test.op, ast.Not):
                    return f"when {short(stmt.test.operand)}"
                return f"unless {short(stmt.test)}"
        elif isinstance(stmt, ast.Return):
            return None
    return None
