"""Where a test sits inside another test of the same value: only the outer list's names reach it.

    if arch in SUPPORTED_ARCHS:
        if arch == "BaichuanForCausalLM": ...
        elif arch in ["LlavaForConditionalGeneration", "InternVLForConditionalGeneration"]: ...

The inner list is asked only of the names `SUPPORTED_ARCHS` holds: a name the outer list lacks never
gets there, so completing the inner list alone changes nothing (lmdeploy's TurboMind support check,
whose inner tests refine the support its table already gives). The same holds after an early exit,
`if arch not in SUPPORTED: return` (or `raise`, `continue`, `break`) or `assert arch in SUPPORTED`, for the
rest of its block; in the `elif`s and `else` of `if arch not in SUPPORTED`; and in the terms of an `and`
after `arch in SUPPORTED` (of an `or` after `arch not in SUPPORTED`).

A gate is the outer test's list: a name (`SUPPORTED_ARCHS`, `TABLE.keys()`) or a literal of the same
scope, tested with `in` against the value the inner test reads (`_value_read`: `arch`,
`config.architectures[0]` spelt the same way). A test of another value, or of the same value through
another name, is no gate: nothing is assumed about what reaches it.

A loose gate is a term of an `or` that an `if` tests (`if mt in {"qwen2_moe", "qwen3_moe"} or other:`): its
names reach the branch, and others may. Nothing follows for a name it lacks; a name it holds that a test
inside leaves out was left out by choice (`if mt in {"qwen2_moe", "qwen3_next"}:` picks among them).
"""
from __future__ import annotations

import ast
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

Position = Tuple[int, int]  # (line, column) as the parser gives them


class Gate(NamedTuple):
    """The statements from `start` to `end` run only for values of `value` that the list `tested` holds (`strict`),
    or for those and others (a term of an `or`)."""

    value: str
    tested: ast.expr  # the outer list: a name, `NAME.keys()`, or a literal
    start: Position
    end: Position
    strict: bool = True


class Gates(NamedTuple):
    """The gates of one function body, and where it binds a name again (a value read after is another)."""

    found: Tuple[Gate, ...]
    bound: Tuple[Tuple[str, Position], ...]  # (name, where the statement binding it starts)

    def around(self, site: Position) -> bool:
        """Is `site` inside any gate (of any value)? Most tests are in none, and their value is never read."""
        return any(gate.start <= site <= gate.end for gate in self.found)


def gates(body: Sequence[ast.stmt], booleans: Sequence[ast.BoolOp], value_read: Callable[[ast.expr], str]) -> Gates:
    """The gates of a function body: the branch of each `if v in LIST` (an `and` of tests counts), the `else`
    and `elif`s of each `if v not in LIST` (an `or` counts), the rest of the block after such a test whose
    branch always leaves it and after `assert v in LIST`, and the terms of an `and` after `v in LIST` (of an
    `or` after `v not in LIST`; `booleans`: those of the body, as its walk found them). Nested functions and
    classes are their own scopes, and are left out."""
    found: List[Gate] = []
    bound: List[Tuple[str, Position]] = []
    for node in booleans:  # `v in LIST and <term>`: the term runs only for what LIST holds
        positive = isinstance(node.op, ast.And)
        for at, term in enumerate(node.values[:-1]):
            for value, tested in _membership(term, positive=positive, value_read=value_read):
                found.append(Gate(value, tested, _start(node.values[at + 1]), _end(node.values[-1])))
    for block in _blocks(body):
        bound.extend((name, _start(stmt)) for stmt in block for name in _binds(stmt))
        for at, stmt in enumerate(block):
            if isinstance(stmt, ast.Assert) and at + 1 < len(block):  # `assert arch in SUPPORTED`: as an early exit
                for value, tested in _membership(stmt.test, positive=True, value_read=value_read):
                    found.append(Gate(value, tested, _start(block[at + 1]), _end(block[-1])))
            if not isinstance(stmt, ast.If):
                continue
            for value, tested in _membership(stmt.test, positive=True, value_read=value_read):
                found.append(Gate(value, tested, _start(stmt.body[0]), _end(stmt.body[-1])))
            if isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.Or):
                for term in stmt.test.values:
                    for value, tested in _membership(term, positive=True, value_read=value_read):
                        found.append(Gate(value, tested, _start(stmt.body[0]), _end(stmt.body[-1]), strict=False))
            if stmt.orelse:  # `if v not in LIST: ... elif v in [...]`: what reaches the `elif` is in LIST
                for value, tested in _membership(stmt.test, positive=False, value_read=value_read):
                    found.append(Gate(value, tested, _start(stmt.orelse[0]), _end(stmt.orelse[-1])))
            if at + 1 < len(block) and not stmt.orelse and _leaves(stmt.body):
                for value, tested in _membership(stmt.test, positive=False, value_read=value_read):
                    found.append(Gate(value, tested, _start(block[at + 1]), _end(block[-1])))
    return Gates(tuple(found), tuple(bound))


def gated(site: Position, value: str, within: Gates) -> Iterator[Tuple[ast.expr, bool]]:
    """(list, strict) of the gates around a test of `value` written at `site`: the lists every value reaching it is
    in (strict), or that some values reaching it are in (loose); unless the value's name is bound again between the
    gate's test and the site (`arch = other`)."""
    root = value.partition(".")[0]
    for gate in within.found:
        if gate.value == value and gate.start <= site <= gate.end and \
                not any(name == root and gate.start <= where <= site for name, where in within.bound):
            yield gate.tested, gate.strict


def _binds(stmt: ast.stmt) -> Iterator[str]:
    """The names a statement binds as a whole (`x = ...`, `x += ...`, `for x in ...`, `with ... as x`)."""
    targets: List[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                yield node.id


def gate_name(tested: ast.expr) -> Optional[str]:
    """The name a gate's list is written as (`SUPPORTED_ARCHS`, `SUPPORTED_ARCHS.keys()`), or None (a literal)."""
    if isinstance(tested, ast.Call) and not tested.args and not tested.keywords and \
            isinstance(tested.func, ast.Attribute) and tested.func.attr == "keys":
        tested = tested.func.value
    return tested.id if isinstance(tested, ast.Name) else None


_LISTS = (ast.List, ast.Tuple, ast.Set)


def _membership(test: ast.expr, positive: bool, value_read: Callable[[ast.expr], str]
                ) -> Iterator[Tuple[str, ast.expr]]:
    """(value, list) of each test `value in list` (`positive`) or `value not in list` that decides the branch:
    the whole test, a term of an `and` (positive) or of an `or` (negative), `not (v in L)`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if positive else ast.Or):
        for term in test.values:
            yield from _membership(term, positive, value_read)
        return
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        yield from _membership(test.operand, not positive, value_read)
        return
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In if positive else ast.NotIn)):
        return
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant) or isinstance(left, _LISTS):
        return  # `"A" in archs`: a test of one name, not a list the value must be in
    if gate_name(right) is not None or (isinstance(right, _LISTS) and right.elts):
        yield value_read(left), right


def _leaves(body: Sequence[ast.stmt]) -> bool:
    """Does the block always leave what encloses it: its last statement returns, raises, continues or breaks?"""
    return isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _blocks(body: Sequence[ast.stmt]) -> Iterator[Sequence[ast.stmt]]:
    """Every statement list of a body, nested ones included (not those of nested functions and classes)."""
    pending: List[Sequence[ast.stmt]] = [body]
    while pending:
        block = pending.pop()
        yield block
        for stmt in block:
            if isinstance(stmt, _NESTED):
                continue
            for field in ("body", "orelse", "finalbody"):
                nested = getattr(stmt, field, None)
                if isinstance(nested, list) and nested and isinstance(nested[0], ast.stmt):
                    pending.append(nested)
            for handler in getattr(stmt, "handlers", ()):
                pending.append(handler.body)
            for case in getattr(stmt, "cases", ()):
                pending.append(case.body)


def _start(node: ast.AST) -> Position:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _end(node: ast.AST) -> Position:
    return node.end_lineno or node.lineno, node.end_col_offset or node.col_offset  # type: ignore[attr-defined]
