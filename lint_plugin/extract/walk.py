"""The nodes of a function body that the module reader acts on, in source order, found fast.

Walking function bodies with `ast.iter_child_nodes` was the largest cost of reading a parsed
file: it yields every node, expression contexts and operators included, through two generators
per node. This walk visits the same nodes in the same order (nested functions, classes and
lambdas left out, as before), never descends into leaves, and yields only the kinds the reader
acts on, so what the reader sees is unchanged.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Tuple

# What `ModuleReader._function_body` reads; every other node passes through it untouched.
ACTED_ON = frozenset({ast.ImportFrom, ast.Assign, ast.AugAssign, ast.Call, ast.Compare, ast.BoolOp, ast.If,
                      ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.BinOp})
_NESTED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda})
# Nodes that hold no other node a walk could act on: never pushed.
_LEAVES = frozenset({ast.Name, ast.Constant, ast.alias, ast.Pass, ast.Break, ast.Continue, ast.Global,
                     ast.Nonlocal})
_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})  # expression contexts and operators: always leaves


def _node_classes(root: type) -> Iterator[type]:
    cls: type
    for cls in root.__subclasses__():
        yield cls
        yield from _node_classes(cls)


# per node class: the fields that may hold nodes, last first
_FIELDS: Dict[type, Tuple[str, ...]] = {
    kind: tuple(reversed([f for f in kind._fields if f not in _LEAF_FIELDS]))  # type: ignore[attr-defined]
    for kind in _node_classes(ast.AST)}


def acted_on(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `function`'s body the reader acts on (`ACTED_ON`), in source order."""
    stack: List[ast.AST] = list(reversed(function.body))  # type: ignore[attr-defined]
    push = stack.append
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in _NESTED:
            continue
        if kind in ACTED_ON:
            yield node
        for name in _FIELDS[kind]:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in reversed(value):
                    if isinstance(item, ast.AST) and type(item) not in _LEAVES:
                        push(item)
            elif isinstance(value, ast.AST) and type(value) not in _LEAVES:
                push(value)
