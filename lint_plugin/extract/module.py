"""Module-level reading: assignments, growth, registrations, decorators, inline literals."""
from __future__ import annotations

import ast
import bisect
import re
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from .context import ModuleContext, dotted_name, is_str, short
from .facts import (
    ClassFact,
    CollectionFact,
    Literal,
    MappingFact,
    Member,
    Part,
    PredicateFact,
    RegistrationFact,
    TypePredicateFact,
    Unknown,
)
from .predicates import read_predicate
from .shapes import GROWTH_METHODS
from .types import read_class, read_type_predicate
from .values import collection_parts, operand

_CONSTANT_NAME = re.compile(r"_*[A-Z][A-Z0-9_]*")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def module_level_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Top-level statements, looking inside module-level if/try/with blocks."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.With)):
            yield from module_level_statements(stmt.body)
            if isinstance(stmt, ast.If):
                yield from module_level_statements(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                yield from module_level_statements(block)
            for handler in stmt.handlers:
                yield from module_level_statements(handler.body)


class ModuleReader:
    """Reads one parsed module into collections, predicates, registrations and constants."""

    def __init__(self, ctx: ModuleContext, registries: Sequence[str], quoted_lines: Sequence[int]) -> None:
        self.ctx = ctx
        self.registry_names = frozenset(r for r in registries if not r.startswith("@") and "::" not in r)
        self.registry_decorators = frozenset(r[1:] for r in registries if r.startswith("@"))
        self.quoted_lines = sorted(quoted_lines)
        self.collections: Dict[str, Tuple[int, int, List[Part]]] = {}  # name -> (line, column, parts)
        self.anonymous: List[CollectionFact] = []
        self.predicates: List[PredicateFact] = []
        self.registrations: List[RegistrationFact] = []
        self.constants: List[Tuple[str, str, int]] = []
        self.classes: List[ClassFact] = []
        self.type_predicates: List[TypePredicateFact] = []
        self.mappings: List[MappingFact] = []

    def read(self, tree: ast.Module) -> None:
        statements = list(module_level_statements(tree.body))
        for stmt in statements:  # imports first: later statements refer to them
            self.ctx.add_import(stmt)
        for stmt in statements:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                self._assignment(stmt)
            elif isinstance(stmt, ast.AugAssign):
                self._augmented(stmt, None)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._growth_call(stmt.value, None)
            elif isinstance(stmt, _FUNCTIONS):
                self._function(stmt, stmt.name, None)
            elif isinstance(stmt, ast.ClassDef):
                self.classes.append(read_class(self.ctx, stmt))
                self._decorators(stmt, stmt.name)
                for item in stmt.body:
                    if isinstance(item, _FUNCTIONS):
                        self._function(item, f"{stmt.name}.{item.name}", stmt.name)
            if isinstance(stmt, (ast.If, ast.While, ast.Assert, ast.Expr, ast.Return)):
                self._inline_literals(stmt, "<module>", {})

    def collection_facts(self) -> Tuple[CollectionFact, ...]:
        named = tuple(CollectionFact(name, line, column, tuple(parts))
                      for name, (line, column, parts) in self.collections.items())
        return named + tuple(self.anonymous)

    # -- assignments ------------------------------------------------------------
    def _assignment(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        else:
            assert isinstance(stmt, ast.AnnAssign)
            if stmt.value is None:
                return
            targets, value = [stmt.target], stmt.value
        for target in targets:
            if isinstance(target, ast.Subscript):
                self._subscript_store(target, None)
                continue
            if not isinstance(target, ast.Name):
                continue
            name = target.id
            if name in self.registry_names:
                self._registration(name, value)
                continue
            if is_str(value):
                self.constants.append((name, value.value, stmt.lineno))  # type: ignore[attr-defined]
                continue
            if isinstance(value, ast.Dict):
                self._mapping(name, stmt.lineno, value)
            parts = collection_parts(self.ctx, value, {})
            if parts is None and _CONSTANT_NAME.fullmatch(name) and isinstance(value, (ast.Call, ast.Subscript)):
                parts = (Unknown(f"assigned the result of `{short(value)}`", stmt.lineno),)
            if parts is not None:
                self.collections[name] = (stmt.lineno, self.ctx.column(stmt), list(parts))
            else:
                self.collections.pop(name, None)

    def _mapping(self, name: str, line: int, value: ast.Dict) -> None:
        """Keys to class references, kept for `config-maps` (architecture -> config class)."""
        entries = []
        for key, item in zip(value.keys, value.values):
            if key is not None and is_str(key) and isinstance(item, (ast.Name, ast.Attribute)):
                ref = self.ctx.ref(item)
                if ref is not None:
                    entries.append((key.value, ref))  # type: ignore[attr-defined]
        if entries:
            self.mappings.append(MappingFact(name, line, tuple(entries)))

    def _registration(self, registry: str, value: ast.expr) -> None:
        elements = value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else [value]
        names = []
        for element in elements:
            class_name = None
            if isinstance(element, ast.Name):
                target = self.ctx.imports.get(element.id)
                class_name = target[1] if target and target[1] else element.id
            elif isinstance(element, ast.Attribute):
                class_name = element.attr
            if class_name:
                names.append(Member(class_name, element.lineno, self.ctx.column(element)))
        if names:
            self.registrations.append(RegistrationFact(registry, tuple(names)))

    # -- growth: NAME.update(...), NAME["X"] = ..., NAME |= ... --------------------
    def _grow(self, name: str, parts: Sequence[Part]) -> None:
        if name in self.collections:
            self.collections[name][2].extend(parts)

    def _subscript_store(self, target: ast.Subscript, function: Optional[str]) -> None:
        if isinstance(target.value, ast.Name) and target.value.id in self.collections:
            key = target.slice
            if is_str(key):
                self._grow(target.value.id, [Literal((Member(key.value, key.lineno, self.ctx.column(key)),))])  # type: ignore[attr-defined]
            else:
                where = f" in {function}()" if function else ""
                self._grow(target.value.id, [Unknown(f"grown by `{short(target)} = ...`{where}", target.lineno)])

    def _augmented(self, stmt: ast.AugAssign, function: Optional[str]) -> None:
        if isinstance(stmt.target, ast.Name) and stmt.target.id in self.collections \
                and isinstance(stmt.op, (ast.BitOr, ast.Add)):
            if function is None:
                self._grow(stmt.target.id, operand(self.ctx, stmt.value, {}, 0))
            else:
                self._grow(stmt.target.id, [Unknown(f"grown in {function}()", stmt.lineno)])

    def _growth_call(self, call: ast.Call, function: Optional[str]) -> None:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in GROWTH_METHODS
                and isinstance(func.value, ast.Name) and func.value.id in self.collections):
            return
        name = func.value.id
        if function is not None:
            self._grow(name, [Unknown(f"grown by {name}.{func.attr}() in {function}()", call.lineno)])
            return
        if func.attr in ("add", "append") and len(call.args) == 1:
            self._grow(name, operand(self.ctx, ast.Set(elts=[call.args[0]], lineno=call.lineno,
                                                          col_offset=call.col_offset), {}, 0))
        elif func.attr in ("update", "extend"):
            for arg in call.args:
                self._grow(name, operand(self.ctx, arg, {}, 0))
            if call.keywords:
                self._grow(name, [Literal(tuple(
                    Member(k.arg, getattr(k, "lineno", call.lineno),
                           self.ctx.column(k) if hasattr(k, "col_offset") else 1)
                    for k in call.keywords if k.arg))])
        else:
            self._grow(name, [Unknown(f"grown by {name}.{func.attr}()", call.lineno)])

    # -- functions ----------------------------------------------------------------
    def _function(self, node: ast.AST, qualname: str, class_name: Optional[str]) -> None:
        self._decorators(node, qualname)
        predicate = read_predicate(self.ctx, node, qualname, class_name)
        if predicate is not None:
            self.predicates.append(predicate)
        elif self._mentions(node, b"isinstance("):
            typed = read_type_predicate(self.ctx, node, qualname)
            if typed is not None:
                self.type_predicates.append(typed)
        if self._touches_quoted(node) or self._mentions_collections(node):
            self._function_body(node, qualname)

    def _function_body(self, node: ast.AST, qualname: str) -> None:
        """Inline literals tested by `in`, function-local collections, and growth of module ones."""
        local: Dict[str, Tuple[int, ast.expr]] = {}
        for child in _walk_function(node):
            if isinstance(child, ast.Assign):
                for target in child.targets:
                    if isinstance(target, ast.Name):
                        local[target.id] = (child.lineno, child.value)
                    elif isinstance(target, ast.Subscript):
                        self._subscript_store(target, qualname)
            elif isinstance(child, ast.AugAssign):
                self._augmented(child, qualname)
            elif isinstance(child, ast.Call):
                self._growth_call(child, qualname)
            elif isinstance(child, ast.Compare):
                self._membership(child, qualname, local)

    def _inline_literals(self, node: ast.AST, scope: str, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        if not self._touches_quoted(node):
            return
        for child in ast.walk(node):
            if isinstance(child, ast.Compare):
                self._membership(child, scope, local)

    def _membership(self, node: ast.Compare, scope: str, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        """`x in [...]` or `x in local_set`: an anonymous collection named `scope@line`."""
        for op, right in zip(node.ops, node.comparators):
            if not isinstance(op, (ast.In, ast.NotIn)):
                continue
            line, literal = right.lineno, right
            if isinstance(right, ast.Name) and right.id in local:
                line, literal = local[right.id]
            if not isinstance(literal, (ast.Set, ast.List, ast.Tuple, ast.Call, ast.Dict)):
                continue
            parts = collection_parts(self.ctx, literal, {})
            names = (m.name for p in (parts or ()) if isinstance(p, Literal) for m in p.members)
            if parts and any(self.ctx.is_name(name) for name in names):
                name = f"{scope}@{line}"
                if all(c.name != name for c in self.anonymous):
                    self.anonymous.append(CollectionFact(name, line, self.ctx.column(literal), parts))

    def _decorators(self, node: ast.AST, target: str) -> None:
        """`@_register_for("A", "B")`: a collection `@_register_for:target`, or registrations."""
        for decorator in getattr(node, "decorator_list", ()):
            if not isinstance(decorator, ast.Call):
                continue
            name = dotted_name(decorator.func)
            if name is None:
                continue
            members = [Member(a.value, a.lineno, self.ctx.column(a)) for a in decorator.args if is_str(a)]  # type: ignore[attr-defined]
            short_name = name.rsplit(".", 1)[-1]
            if short_name in self.registry_decorators or name in self.registry_decorators:
                members += [Member(k.value.value, k.value.lineno, self.ctx.column(k.value))  # type: ignore[attr-defined]
                            for k in decorator.keywords if k.arg == "name" and is_str(k.value)]
                if members:
                    self.registrations.append(RegistrationFact(f"@{short_name}", tuple(members)))
            elif members and any(self.ctx.is_name(m.name) for m in members):
                self.anonymous.append(CollectionFact(f"@{short_name}:{target.rsplit('.', 1)[-1]}",
                                                     decorator.lineno, self.ctx.column(decorator) - 1 or 1,
                                                     (Literal(tuple(members)),)))

    # -- pruning ------------------------------------------------------------------
    def _touches_quoted(self, node: ast.AST) -> bool:
        """Does the node's line span hold a quoted name? Lets most functions go unwalked."""
        start = getattr(node, "lineno", 0)
        end = getattr(node, "end_lineno", start) or start
        i = bisect.bisect_left(self.quoted_lines, start)
        return i < len(self.quoted_lines) and self.quoted_lines[i] <= end

    def _mentions(self, node: ast.AST, text: bytes) -> bool:
        start = getattr(node, "lineno", 1)
        end = getattr(node, "end_lineno", start) or start
        return any(text in line for line in self.ctx.lines[start - 1:end])

    def _mentions_collections(self, node: ast.AST) -> bool:
        if not self.collections:
            return False
        start = getattr(node, "lineno", 1)
        end = getattr(node, "end_lineno", start) or start
        text = b"\n".join(self.ctx.lines[start - 1:end])
        return any(name.encode() in text for name in self.collections)


def _walk_function(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of a function body, in source order, nested functions and classes excluded."""
    stack: List[ast.AST] = list(reversed(node.body))  # type: ignore[attr-defined]
    while stack:
        child = stack.pop()
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield child
        stack.extend(reversed(list(ast.iter_child_nodes(child))))
