"""Functions whose result tests a value against architecture names: family predicates."""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from .context import ModuleContext, is_str, names_a_list, short
from .facts import Literal, Member, Part, Pattern, PatternRef, PredicateFact, Ref, Unknown, names_a_piece
from .values import collection_parts

_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_PATTERN_METHODS = {"startswith": "prefix", "endswith": "suffix"}
# Calls that are never a delegation to another predicate (`any(...)` and `bool(...)` are read inside).
NEVER_DELEGATES = frozenset({"isinstance", "issubclass", "hasattr", "getattr", "callable", "len", "all", "type",
                            "str", "int", "float", "bool", "any", "sorted", "set", "frozenset", "list", "tuple"})


class _Tests:
    """What a predicate's result depends on: name tests and delegated predicates."""

    def __init__(self) -> None:
        self.parts: List[Part] = []
        self.delegates: List[Ref] = []


def read_predicate(ctx: ModuleContext, node: ast.AST, qualname: str,
                   class_name: Optional[str]) -> Optional[PredicateFact]:
    """A PredicateFact when every value the function returns is a name test (or a constant
    reached after one), e.g. `return x in S`, or `for a in archs: if a in S: return True`.

    The reader (the function's locals and its own imports) is made for the first value to test: most
    functions return nothing, or only constants, and are no predicate without it."""
    reader: Optional[_TestReader] = None
    found = _Tests()
    tested = False
    for stmt, guard in _returns_with_guards(node):
        value = stmt.value
        if value is None or (isinstance(value, ast.Constant) and value.value in (False, None)):
            continue
        if isinstance(value, ast.Constant) and value.value is True and guard is None:
            continue
        if reader is None:
            reader = _reader(ctx, node, class_name)
        if isinstance(value, ast.Constant) and value.value is True:
            if reader.test(guard, found):  # type: ignore[arg-type]
                tested = True
            continue
        if not reader.test(value, found):
            return None  # returns something that is not a name test: not a predicate
        tested = True
    if not tested or not (found.parts or found.delegates):
        return None
    return PredicateFact(qualname, node.lineno, ctx.column(node), tuple(found.parts), tuple(found.delegates))  # type: ignore[attr-defined]


def _reader(ctx: ModuleContext, node: ast.AST, class_name: Optional[str]) -> "_TestReader":
    """What reads a function's tests: its module's context with the function's own imports, and its locals."""
    local: Dict[str, ast.expr] = {}
    for stmt in node.body:  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            local[stmt.targets[0].id] = stmt.value
    return _TestReader(ctx.scoped(list(_imports(node))), local, class_name, node)


def _statements(node: ast.AST) -> Iterator[ast.stmt]:
    """Every statement of a function's body, in blocks too, nested definitions left out."""
    stack: List[ast.stmt] = list(node.body)  # type: ignore[attr-defined]
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in _BLOCK_FIELDS:
                stack.extend(getattr(child, field, None) or ())


def _imports(node: ast.AST) -> Iterator[ast.stmt]:
    """The function's own imports (`from m import NAME` in its body): names its tests may use."""
    return (s for s in _statements(node) if isinstance(s, (ast.Import, ast.ImportFrom)))


def _returns_with_guards(node: ast.AST) -> Iterator[Tuple[ast.Return, Optional[ast.expr]]]:
    """(return statement, the `if` test directly guarding it or None), nested defs excluded.

    Walks statements only: a return is never inside an expression, which keeps this
    cheap on large functions.
    """
    stack: List[Tuple[ast.stmt, Optional[ast.expr]]] = [(s, None) for s in node.body]  # type: ignore[attr-defined]
    while stack:
        child, guard = stack.pop()
        if isinstance(child, ast.Return):
            yield child, guard
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        elif isinstance(child, ast.If):
            stack.extend((s, child.test) for s in child.body)
            stack.extend((s, None) for s in child.orelse)
        else:
            for field in _BLOCK_FIELDS:
                block = getattr(child, field, None)
                if block:
                    stack.extend((s, None) for s in block)


class _TestReader:
    def __init__(self, ctx: ModuleContext, local: Dict[str, ast.expr], class_name: Optional[str],
                 function: ast.AST) -> None:
        self.ctx = ctx
        self.local = local
        self.class_name = class_name
        self.function = function
        self._bound: Optional[Set[str]] = None

    def constant(self, node: ast.expr) -> Optional[Ref]:
        """A reference to a module-level value (`GOLF`, `names.GOLF`), not to a name the function binds
        (a parameter, a local, a loop variable): what `arch == GOLF` tests `arch` against."""
        if isinstance(node, ast.Name):
            if self._bound is None:
                self._bound = _bound_names(self.function)
            if node.id in self._bound:
                return None
        return self.ctx.ref(node) if isinstance(node, (ast.Name, ast.Attribute)) else None

    def test(self, node: ast.expr, into: _Tests) -> bool:
        """Add what `node` matches to `into`; False if it is no name test."""
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            found = False
            for value in node.values:
                found = self.test(value, into) or found
            return found
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            return self._guard_chain(node, into)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return self._compare(node.left, node.ops[0], node.comparators[0], into)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            return self._intersection(node, into)
        if isinstance(node, ast.Call):
            return self._call(node, into)
        return False

    def _guard_chain(self, node: ast.BoolOp, into: _Tests) -> bool:
        """`hasattr(c, ...) and c.architectures[0] in S`: the names of its one name test."""
        candidates = []
        for value in node.values:
            sub = _Tests()
            if self.test(value, sub) and sub.parts and not sub.delegates:
                candidates.append(sub.parts)
        if len(candidates) != 1:
            return False
        into.parts.extend(candidates[0])
        return True

    def _compare(self, left: ast.expr, op: ast.cmpop, right: ast.expr, into: _Tests) -> bool:
        if isinstance(op, ast.In):
            if is_str(left):
                return self._string_in(left, right, into)
            parts = collection_parts(self.ctx, right, self.local)
            if parts is None or all(isinstance(p, Unknown) for p in parts):
                return False
            into.parts.extend(parts)
            return True
        if isinstance(op, ast.Eq):
            for side, other in ((left, right), (right, left)):
                if is_str(side) and not is_str(other):
                    into.parts.append(Literal((self._member(side),)))
                    return True
                if isinstance(side, (ast.List, ast.Tuple)) and side.elts and all(is_str(e) for e in side.elts):
                    # slice equality: archs[:1] == ["A"]
                    into.parts.append(Literal(tuple(self._member(e) for e in side.elts)))
                    return True
            # `arch == GOLF`: read as `arch in (GOLF,)` is, when one side alone is a module-level value
            refs = [self.constant(left), self.constant(right)]
            if (refs[0] is None) != (refs[1] is None):
                into.parts.append(refs[0] or refs[1])  # type: ignore[arg-type]
                return True
        return False

    def _string_in(self, left: ast.expr, right: ast.expr, into: _Tests) -> bool:
        """`"A" in config.architectures` (a list: exact) or `"Sub" in arch` (a string: substring)."""
        text = left.value  # type: ignore[attr-defined]
        if names_a_list(right):
            into.parts.append(Literal((self._member(left),)))
        elif names_a_piece(text):
            into.parts.append(Pattern("substring", text, left.lineno))
        else:
            return False  # `"_" in path`: a test of some other string
        return True

    def _intersection(self, node: ast.BinOp, into: _Tests) -> bool:
        """`set(archs) & S`: the side that holds names."""
        for side in (node.right, node.left):
            parts = collection_parts(self.ctx, side, self.local)
            if parts and any(isinstance(p, Literal) and p.members for p in parts):
                into.parts.extend(parts)
                return True
        for side in (node.right, node.left):
            if isinstance(side, (ast.Name, ast.Attribute)):
                parts = collection_parts(self.ctx, side, self.local)
                if parts:
                    into.parts.extend(parts)
                    return True
        return False

    def _call(self, node: ast.Call, into: _Tests) -> bool:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("any", "bool") and len(node.args) == 1:
            arg = node.args[0]
            inner = arg.elt if isinstance(arg, ast.GeneratorExp) else arg
            return self.test(inner, into)
        if isinstance(func, ast.Attribute) and func.attr in _PATTERN_METHODS and len(node.args) == 1:
            return self._affix(node, _PATTERN_METHODS[func.attr], node.args[0], into)
        if not node.args or node.keywords or (isinstance(func, ast.Name) and func.id in NEVER_DELEGATES):
            return False
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in ("self", "cls") and self.class_name:
            into.delegates.append(Ref(self.ctx.module, f"{self.class_name}.{func.attr}", node.lineno))
            return True
        if isinstance(func, (ast.Name, ast.Attribute)):
            ref = self.ctx.ref(func)
            if ref is not None:
                into.delegates.append(ref)
                return True
        return False

    def _affix(self, node: ast.Call, kind: str, arg: ast.expr, into: _Tests) -> bool:
        """`x.startswith("A")`, `x.startswith(("A", PREFIX))`, `x.endswith(SUFFIXES)`: patterns, those named
        elsewhere read when resolved. A pattern that is neither (a parameter, a call) is said, not dropped."""
        texts = list(arg.elts) if isinstance(arg, ast.Tuple) else [arg]
        parts: List[Part] = []
        for text in texts:
            ref = None if is_str(text) else self.constant(text)
            if is_str(text) and names_a_piece(text.value):  # type: ignore[attr-defined]
                parts.append(Pattern(kind, text.value, text.lineno))  # type: ignore[attr-defined]
            elif ref is not None:
                parts.append(PatternRef(kind, ref))
            elif not is_str(text):
                parts.append(Unknown(f"cannot follow the pattern of `{short(node)}`", node.lineno))
        into.parts.extend(parts)
        return bool(parts)

    def _member(self, node: ast.expr) -> Member:
        return Member(node.value, node.lineno, self.ctx.column(node))  # type: ignore[attr-defined]


def _bound_names(function: ast.AST) -> Set[str]:
    """Names the function binds to values of its own: parameters, and every name it assigns or loops over
    (its imports bind module-level values of other modules: `scoped` reads them)."""
    args = function.args  # type: ignore[attr-defined]
    found = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    found.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    found.update(child.id for child in ast.walk(function)
                 if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store))
    return found
