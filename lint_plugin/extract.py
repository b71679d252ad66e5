"""Facts from one file's syntax tree: collections, predicates, registrations, imports.

Uses the stdlib parser: extraction needs positions, not concrete syntax, and the
stdlib parser is about 9x faster than libcst (which `fix` uses for edits). Names from
other modules are left as `Ref`s for `index.py` to resolve.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from .facts import (
    CollectionFact,
    FileFacts,
    Literal,
    Member,
    Part,
    PredicateFact,
    Ref,
    RegistrationFact,
    Unknown,
)

_COLLECTION_CALLS = {"set", "frozenset", "tuple", "list", "sorted"}


def extract_file(source: bytes, path: str, module: str, registries: Sequence[str], is_package: bool) -> FileFacts:
    """Parse `source` and read its facts; a file that does not parse carries `error`."""
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return FileFacts(path=path, module=module, error=_parse_error(exc))
    lines = source.splitlines()
    reader = _ModuleReader(module, is_package, lines, frozenset(registries))
    try:
        reader.read(tree)
    except RecursionError:
        return FileFacts(path=path, module=module, error="expression nested too deeply to analyse")
    return FileFacts(
        path=path,
        module=module,
        collections=tuple(reader.collections),
        predicates=tuple(reader.predicates),
        registrations=tuple(reader.registrations),
        imports=tuple((local, target[0], target[1]) for local, target in sorted(reader.imports.items())),
        constants=tuple(reader.constants),
    )


def extract_registrations(snippets: Sequence[Tuple[int, bytes]], path: str, module: str,
                          registries: Sequence[str]) -> Optional[FileFacts]:
    """Registrations from column-0 statements alone; None if a snippet does not parse."""
    reader = _ModuleReader(module, False, [], frozenset(registries))
    for first_line, text in snippets:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            return None
        ast.increment_lineno(tree, first_line - 1)
        for stmt in tree.body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                reader._assignment(stmt)
    return FileFacts(path=path, module=module, registrations=tuple(reader.registrations))


def _parse_error(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    if isinstance(exc, ValueError):
        return f"cannot parse: {exc}"
    return "expression nested too deeply to parse"


def _module_level_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Top-level statements, looking inside module-level if/try/with blocks."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.With)):
            yield from _module_level_statements(stmt.body)
            if isinstance(stmt, ast.If):
                yield from _module_level_statements(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                yield from _module_level_statements(block)
            for handler in stmt.handlers:
                yield from _module_level_statements(handler.body)


class _ModuleReader:
    def __init__(self, module: str, is_package: bool, lines: List[bytes], registries: frozenset) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.lines = lines
        self.registries = registries
        self.imports: Dict[str, Tuple[str, Optional[str]]] = {}
        self.collections: List[CollectionFact] = []
        self.predicates: List[PredicateFact] = []
        self.registrations: List[RegistrationFact] = []
        self.constants: List[Tuple[str, str, int]] = []

    # -- positions -------------------------------------------------------------
    def column(self, node: ast.AST) -> int:
        """1-based character column (ast gives a UTF-8 byte offset)."""
        line_no = getattr(node, "lineno", 1)
        offset = getattr(node, "col_offset", 0)
        if 0 < line_no <= len(self.lines):
            return len(self.lines[line_no - 1][:offset].decode("utf-8", "replace")) + 1
        return offset + 1

    # -- module ----------------------------------------------------------------
    def read(self, tree: ast.Module) -> None:
        statements = list(_module_level_statements(tree.body))
        for stmt in statements:  # imports first: later statements refer to them
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.imports[alias.asname] = (alias.name, None)
                    else:
                        top = alias.name.partition(".")[0]
                        self.imports.setdefault(top, (top, None))
            elif isinstance(stmt, ast.ImportFrom):
                base = self._absolute(stmt.module, stmt.level)
                if base is None:
                    continue
                for alias in stmt.names:
                    if alias.name != "*":
                        self.imports[alias.asname or alias.name] = (base, alias.name)
        for stmt in statements:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                self._assignment(stmt)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, stmt.name, None)
            elif isinstance(stmt, ast.ClassDef):
                for item in stmt.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self._function(item, f"{stmt.name}.{item.name}", stmt.name)

    def _absolute(self, module: Optional[str], level: int) -> Optional[str]:
        if level == 0:
            return module
        parts = self.package.split(".") if self.package else []
        if level - 1 > len(parts):
            return None
        base = parts[: len(parts) - (level - 1)]
        if module:
            base.append(module)
        return ".".join(base) or None

    def _assignment(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        else:
            assert isinstance(stmt, ast.AnnAssign)
            if stmt.value is None:
                return
            targets, value = [stmt.target], stmt.value
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            name = target.id
            if name in self.registries:
                self._registration(name, value)
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                self.constants.append((name, value.value, stmt.lineno))
                continue
            parts = self.collection_parts(value, {})
            if parts is not None:
                self.collections.append(CollectionFact(name, stmt.lineno, self.column(stmt), parts))

    def _registration(self, registry: str, value: ast.expr) -> None:
        elements = value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else [value]
        names = []
        for element in elements:
            class_name = None
            if isinstance(element, ast.Name):
                target = self.imports.get(element.id)
                class_name = target[1] if target and target[1] else element.id
            elif isinstance(element, ast.Attribute):
                class_name = element.attr
            if class_name:
                names.append(Member(class_name, element.lineno, self.column(element)))
        if names:
            self.registrations.append(RegistrationFact(registry, tuple(names)))

    # -- collections -----------------------------------------------------------
    def ref(self, node: ast.expr) -> Optional[Ref]:
        """A reference to a module-level name, here or in an imported module."""
        if isinstance(node, ast.Name):
            target = self.imports.get(node.id)
            if target is None:
                return Ref(self.module, node.id, node.lineno)
            module, attribute = target
            if attribute is None:
                return None  # a bare module is not a collection
            return Ref(module, attribute, node.lineno)
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node.value)
            if dotted is None:
                return None
            head, _, rest = dotted.partition(".")
            target = self.imports.get(head)
            if target is None:
                return None
            module = target[0] if target[1] is None else f"{target[0]}.{target[1]}"
            return Ref(f"{module}.{rest}" if rest else module, node.attr, node.lineno)
        return None

    def collection_parts(self, node: ast.expr, local: Dict[str, ast.expr], depth: int = 0) -> Optional[Tuple[Part, ...]]:
        """The parts of a string-collection expression, or None if it is not one."""
        if depth > 50:
            return (Unknown("expression nested too deeply", node.lineno),)
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            return self._literal_parts(node, local, depth)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in _COLLECTION_CALLS and not node.keywords:
                if not node.args:
                    return (Literal(()),)
                if len(node.args) == 1:
                    inner = self.collection_parts(node.args[0], local, depth + 1)
                    if inner is not None:
                        return inner
                    if isinstance(node.args[0], (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                        return (Unknown(f"{func.id}() of a comprehension", node.lineno),)
                return None
            if isinstance(func, ast.Attribute) and func.attr == "union" and not node.keywords:
                base = self.collection_parts(func.value, local, depth + 1)
                if base is None:
                    return None
                parts = list(base)
                for arg in node.args:
                    parts.extend(self._operand(arg, local, depth))
                return tuple(parts)
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.Add)):
            left = self.collection_parts(node.left, local, depth + 1)
            right = self.collection_parts(node.right, local, depth + 1)
            if left is None and right is None:
                return None
            return self._or_unknown(left, node.left) + self._or_unknown(right, node.right)
        if isinstance(node, ast.Name) and node.id in local:
            return self.collection_parts(local[node.id], {}, depth + 1)
        if isinstance(node, (ast.Name, ast.Attribute)):
            ref = self.ref(node)
            return (ref,) if ref is not None else None
        return None

    def _operand(self, node: ast.expr, local: Dict[str, ast.expr], depth: int) -> Tuple[Part, ...]:
        return self._or_unknown(self.collection_parts(node, local, depth + 1), node)

    @staticmethod
    def _or_unknown(parts: Optional[Tuple[Part, ...]], node: ast.expr) -> Tuple[Part, ...]:
        if parts is not None:
            return parts
        return (Unknown(f"cannot follow `{_short(node)}`", node.lineno),)

    def _literal_parts(self, node: ast.expr, local: Dict[str, ast.expr], depth: int) -> Optional[Tuple[Part, ...]]:
        members: List[Member] = []
        parts: List[Part] = []
        names_seen = False
        for element in node.elts:  # type: ignore[attr-defined]
            if isinstance(element, ast.Constant) and isinstance(element.value, str):
                members.append(Member(element.value, element.lineno, self.column(element)))
                names_seen = True
            elif isinstance(element, ast.Starred):
                parts.extend(self._operand(element.value, local, depth))
            elif isinstance(element, (ast.Name, ast.Attribute)):
                ref = self.ref(element)
                parts.append(ref if ref is not None else Unknown(f"cannot follow `{_short(element)}`", element.lineno))
            else:
                return None  # not a collection of names (numbers, tuples, calls...)
        if not names_seen and not parts and node.elts:  # type: ignore[attr-defined]
            return None
        if not names_seen and parts and all(isinstance(p, Ref) for p in parts) and not isinstance(node, ast.Set):
            # A list/tuple of bare names is usually classes or functions, not strings.
            return tuple(parts)
        return (Literal(tuple(members)),) + tuple(parts)

    # -- predicates ------------------------------------------------------------
    def _function(self, node: ast.AST, qualname: str, class_name: Optional[str]) -> None:
        returns = [r for r in _returns(node) if r.value is not None]
        if len(returns) != 1:
            return
        local: Dict[str, ast.expr] = {}
        for stmt in node.body:  # type: ignore[attr-defined]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                local[stmt.targets[0].id] = stmt.value
        tests: List[Part] = []
        delegates: List[Ref] = []
        if not self._test(returns[0].value, local, class_name, tests, delegates):
            return
        if tests or delegates:
            self.predicates.append(
                PredicateFact(qualname, node.lineno, self.column(node), tuple(tests), tuple(delegates))  # type: ignore[attr-defined]
            )

    def _test(self, node: ast.expr, local: Dict[str, ast.expr], class_name: Optional[str],
              tests: List[Part], delegates: List[Ref]) -> bool:
        """Add what `node` matches to tests/delegates; False if it is no name test."""
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            found = False
            for value in node.values:
                found = self._test(value, local, class_name, tests, delegates) or found
            return found
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            # A guard chain: the names matched are those of its one name test.
            candidates = []
            for value in node.values:
                sub_tests: List[Part] = []
                sub_delegates: List[Ref] = []
                if self._test(value, local, class_name, sub_tests, sub_delegates) and sub_tests and not sub_delegates:
                    candidates.append(sub_tests)
            if len(candidates) != 1:
                return False
            tests.extend(candidates[0])
            return True
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            op, right = node.ops[0], node.comparators[0]
            if isinstance(op, ast.In) and not _is_str(node.left):
                parts = self.collection_parts(right, local)
                if parts is None or all(isinstance(p, Unknown) for p in parts):
                    return False
                tests.extend(parts)
                return True
            if isinstance(op, ast.Eq):
                for side in (node.left, right):
                    if _is_str(side):
                        tests.append(Literal((Member(side.value, side.lineno, self.column(side)),)))  # type: ignore[attr-defined]
                        return True
            return False
        if isinstance(node, ast.Call) and node.args and not node.keywords:
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls") and class_name:
                delegates.append(Ref(self.module, f"{class_name}.{func.attr}", node.lineno))
                return True
            if isinstance(func, (ast.Name, ast.Attribute)):
                ref = self.ref(func)
                if ref is not None:
                    delegates.append(ref)
                    return True
        return False


_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _returns(node: ast.AST) -> Iterator[ast.Return]:
    """Return statements of a function, not of functions or classes nested in it.

    Walks statements only: a return is never inside an expression, and skipping
    expressions makes this cheap on large functions.
    """
    stack: List[ast.AST] = list(node.body)  # type: ignore[attr-defined]
    while stack:
        child = stack.pop()
        if isinstance(child, ast.Return):
            yield child
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        else:
            for field in _BLOCK_FIELDS:
                block = getattr(child, field, None)
                if block:
                    stack.extend(block)


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _dotted(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _short(node: ast.expr) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every parsed tree
        text = type(node).__name__
    return text if len(text) <= 60 else text[:57] + "..."
