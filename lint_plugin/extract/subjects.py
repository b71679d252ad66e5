"""Literals that code tests a value against, inside functions and at module level: subjects by shape.

`elif model_arch in ["A", "B"]`, `arch == "A" or arch == "B"`, `arch not in LOCAL`,
`any(a in LOCAL for a in archs)`, `"A" in config.architectures`: each literal becomes a
collection named after where it is, never after its line, so configuration that names it
survives edits elsewhere: `function.variable` for a local list, `function#2` for the second
literal tested in the function (module level: `<module>#1`).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set, Tuple

from .context import ModuleContext, is_str, names_a_list
from .facts import INLINE, LOCAL, CollectionFact, Literal, Member, Part
from .values import collection_parts

_LITERALS = (ast.Set, ast.List, ast.Tuple, ast.Call, ast.Dict)


class ScopeSubjects:
    """The subjects of one scope (a function, or the module's top level), numbered in source order."""

    def __init__(self, ctx: ModuleContext, scope: str) -> None:
        self.ctx = ctx
        self.scope = scope
        self.found: List[CollectionFact] = []
        self._inline = 0
        self._named: Set[str] = set()
        self._seen: Set[int] = set()  # ids of compares already read as part of a chain

    def compare(self, node: ast.Compare, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        """`x in [...]`, `x in local`, `x == "A"`, `"A" in x.architectures`."""
        if id(node) in self._seen:
            return
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                if is_str(node.left) and names_a_list(right):
                    self._members([node.left], node)
                elif isinstance(right, ast.Name) and right.id in local:
                    self._local(right.id, *local[right.id])
                elif isinstance(right, _LITERALS):
                    self._literal(right)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            strings = [side for side in (node.left, node.comparators[0]) if is_str(side)]
            if len(strings) == 1:
                self._members(strings, node)

    def chain(self, node: ast.BoolOp) -> None:
        """`x == "A" or x == "B"` (and `x != "A" and x != "B"`): one literal of every compared name."""
        wanted = ast.Eq if isinstance(node.op, ast.Or) else ast.NotEq
        strings: List[ast.expr] = []
        compares = []
        for value in node.values:
            if not (isinstance(value, ast.Compare) and len(value.ops) == 1 and isinstance(value.ops[0], wanted)):
                return
            sides = [side for side in (value.left, value.comparators[0]) if is_str(side)]
            if len(sides) != 1:
                return
            strings.extend(sides)
            compares.append(value)
        if len(strings) > 1 and self._members(strings, node):
            self._seen.update(id(c) for c in compares)

    def _members(self, strings: List[ast.expr], node: ast.expr) -> bool:
        members = tuple(Member(s.value, s.lineno, self.ctx.column(s)) for s in strings)  # type: ignore[attr-defined]
        if not any(self.ctx.is_name(m.name) for m in members):
            return False
        self._add(self._next(), node.lineno, self.ctx.column(node), (Literal(members),), INLINE)
        return True

    def _literal(self, literal: ast.expr) -> None:
        parts = _name_parts(self.ctx, literal)
        if parts is not None:
            self._add(self._next(), literal.lineno, self.ctx.column(literal), parts, INLINE)

    def _local(self, variable: str, line: int, value: ast.expr) -> None:
        name = f"{self.scope}.{variable}"
        if name in self._named or not isinstance(value, _LITERALS):
            return
        parts = _name_parts(self.ctx, value)
        if parts is not None:
            self._named.add(name)
            self._add(name, line, self.ctx.column(value), parts, LOCAL)

    def _next(self) -> str:
        self._inline += 1
        return f"{self.scope}#{self._inline}"

    def _add(self, name: str, line: int, column: int, parts: Tuple[Part, ...], scope: str) -> None:
        self.found.append(CollectionFact(name, line, column, parts, scope))


def _name_parts(ctx: ModuleContext, literal: ast.expr) -> Optional[Tuple[Part, ...]]:
    """The parts of a literal that holds at least one architecture-shaped string, else None."""
    parts = collection_parts(ctx, literal, {})
    names = (m.name for p in (parts or ()) if isinstance(p, Literal) for m in p.members)
    return parts if parts and any(ctx.is_name(name) for name in names) else None
