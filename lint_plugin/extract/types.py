"""Classes and type-dispatch predicates: what the runtime decides by config class.

`class Qwen3_5TextConfig(Qwen3NextConfig)` gives a base; `def __init__(self, config:
Qwen3_5TextConfig)` or `config_class = X` binds a model class to its config class; and
`if isinstance(config, A | B): return config` makes a predicate whose family is every
registered architecture built with A, B or a subclass of them.
"""
from __future__ import annotations

import ast
from typing import Iterator, List, Optional

from .context import ModuleContext, is_str, short
from .facts import ClassFact, Ref, TypePredicateFact, TypeTest

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def read_class(ctx: ModuleContext, node: ast.ClassDef) -> ClassFact:
    bases = tuple(r for r in (ctx.ref(b) for b in node.bases) if r is not None)
    config: Optional[Ref] = None
    note: Optional[str] = None
    wrapped: List[Ref] = []
    for item in node.body:
        if isinstance(item, ast.Assign):
            names = [t.id for t in item.targets if isinstance(t, ast.Name)]
            if "config_class" in names:
                config = _class_ref(ctx, item.value) or config
                if config is None:
                    note = f"config_class = {short(item.value)} is chosen at run time"
            elif len(names) == 1 and names[0].endswith(("_cls", "_class")) \
                    and isinstance(item.value, (ast.Name, ast.Attribute)):
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
    return ClassFact(node.name, node.lineno, bases, config, None if config else note, tuple(wrapped))


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
    """The isinstance tests on a config, in order: those that return something, and guards."""
    tests: List[TypeTest] = []
    for stmt in _branches(node.body):  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            extra = _extra_condition(stmt.value)
            for target in _isinstance_targets(ctx, stmt.value):
                tests.append(TypeTest(target, f"when {extra}" if extra else None))
        elif isinstance(stmt, ast.If):
            targets = _isinstance_targets(ctx, stmt.test)
            if not targets:
                continue
            extra = _extra_condition(stmt.test)
            if not any(not _is_nothing(r.value) for r in _all_returns(stmt.body)):
                # a guard that returns None: for these classes, when its condition holds
                tests.extend(TypeTest(t, f"unless {extra}" if extra else None, exclude=True) for t in targets)
                continue
            condition = f"when {extra}" if extra else _branch_condition(stmt.body)
            tests.extend(TypeTest(t, condition) for t in targets)
    if not any(not t.exclude for t in tests):
        return None
    return TypePredicateFact(qualname, node.lineno, ctx.column(node), tuple(tests))  # type: ignore[attr-defined]


def _branches(body: List[ast.stmt]) -> Iterator[ast.stmt]:
    """Returns and ifs in source order; `elif` / `else` branches follow their `if`."""
    for stmt in _statements(body):
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _branches(stmt.orelse)


def _isinstance_targets(ctx: ModuleContext, test: ast.expr) -> List[Ref]:
    """Classes in `isinstance(<something named *config*>, A | B)` within a condition."""
    found: List[Ref] = []
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        for value in test.values:
            found.extend(_isinstance_targets(ctx, value))
        return found
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
    """Why a branch may still return None: the checks guarding its first non-None return."""
    guards: List[str] = []  # earlier `if cond: return None` inside the branch
    for stmt in body:
        if isinstance(stmt, ast.Return):
            if _is_nothing(stmt.value):
                break
            if isinstance(stmt.value, ast.IfExp) and _is_nothing(stmt.value.orelse):
                guards.append(f"when {short(stmt.value.test)}")
            break
        if isinstance(stmt, ast.If):
            if any(not _is_nothing(r.value) for r in _all_returns(stmt.body)):
                guards.append(f"when {short(stmt.test)}")
                break
            if any(not _is_nothing(r.value) for r in _all_returns(stmt.orelse)):
                guards.append(_negated(stmt.test))
                break
            if any(True for _ in _all_returns(stmt.body)):
                guards.append(_negated(stmt.test))
    return " and ".join(guards) or None


def _negated(test: ast.expr) -> str:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return f"when {short(test.operand)}"
    return f"unless {short(test)}"
