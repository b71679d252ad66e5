"""Literals that code tests a value against, inside functions and at module level: subjects by shape.

`elif model_arch in ["A", "B"]`, `arch == "A" or arch == "B"`, `arch not in LOCAL`,
`any(a in LOCAL for a in archs)` and the reverse, `any(a in config.architectures for a in LOCAL)`,
`set(config.architectures) & LOCAL`, `"A" in config.architectures`, `config.architectures == ["A"]`
(a one-name list: the checkpoint names that one architecture), and tests by shape whose
pattern is a name (`"A" in arch`, `arch.startswith(("A", "B"))`): each literal becomes a
collection named after where it is, never after its line, so configuration that names it
survives edits elsewhere: `function.variable` for a local list, `function#2` for the second
literal tested in the function (module level: `<module>#1`).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set, Tuple

from .context import ModuleContext, is_str
from .facts import DISPATCH, INERT, INLINE, LOCAL, CollectionFact, Literal, Member, Part
from .gates import gate_name, gated, gates
from .model_chains import BuildingChain, ChainRegistration, building_chain
from .model_type_keys import is_model_type, model_types_only, normalised, written_as_model_types
from .values import collection_parts

_LITERALS = (ast.Set, ast.List, ast.Tuple, ast.Call, ast.Dict)
_WRITTEN = (ast.Set, ast.List, ast.Tuple, ast.Dict, ast.Constant)  # a value written out, not one tested


class ScopeSubjects:
    """The subjects of one scope (a function, or the module's top level), numbered in source order."""

    def __init__(self, ctx: ModuleContext, scope: str) -> None:
        self.ctx = ctx
        self.scope = scope
        self.found: List[CollectionFact] = []
        self._inline = 0
        self._named: Set[str] = set()
        self._seen: Set[int] = set()  # ids of compares already read as part of a chain
        self._dispatch: Set[int] = set()  # ids of the nodes in tests whose branch writes a name
        self._inert: Set[int] = set()  # ids of the nodes in tests whose branch does nothing
        self.type_keyed: List[str] = []  # the names of those found that a model type is tested against
        self._chained: Set[int] = set()  # ids of the tests of the if/elif chains numbered
        # where each such test is written, and its chain's number: a node written inside one is in its test
        self._chain_spans: List[Tuple[Tuple[Tuple[int, int], Tuple[int, int]], int]] = []
        self._chains: Dict[int, List[str]] = {}  # chain number -> the names found in its tests
        self._building: List[BuildingChain] = []  # chains that build a model per name (`model_chains.py`)
        # each inline test found, and the test it is written in (`gates.py`); the boolean operations walked
        self._sites: List[Tuple[str, ast.expr]] = []
        self._booleans: List[ast.BoolOp] = []
        self._literals: Dict[int, str] = {}  # id of a literal tested in place -> the subject it is

    def compare(self, node: ast.Compare, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        """`x in [...]`, `x in local`, `x == "A"`, `"A" in x.architectures`, `"A" in arch_string`."""
        if id(node) in self._seen:
            return
        typed = is_model_type(node.left, set())  # `config.model_type in (...)`: a list of model types
        site = node if len(node.ops) == 1 else None
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                if is_str(node.left) and not isinstance(right, _LITERALS):
                    self._members([node.left], node, site=site)
                elif isinstance(right, ast.Name) and right.id in local:
                    self._local(right.id, *local[right.id], typed=typed)
                elif isinstance(right, _LITERALS):
                    self._literal(right, typed, site)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            strings = _equal_strings(node.left, node.comparators[0])
            if strings:
                self._members(strings, node, _tests_a_model_type(node), site)

    def iterated(self, node: ast.expr, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        """`any(a in config.architectures for a in LOCAL)`: the names iterated are those tested."""
        element = getattr(node, "elt", None)
        for generator in getattr(node, "generators", ()):
            target = generator.target
            if isinstance(target, ast.Name) and isinstance(element, ast.Compare) and \
                    isinstance(element.left, ast.Name) and element.left.id == target.id and \
                    all(isinstance(op, (ast.In, ast.NotIn)) for op in element.ops):
                self._tested(generator.iter, local)

    def intersected(self, node: ast.BinOp, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        """`set(config.architectures) & LOCAL` (either side): the names a value is tested against."""
        if isinstance(node.op, ast.BitAnd):
            for side in (node.left, node.right):
                self._tested(side, local)

    def _tested(self, value: ast.expr, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        if isinstance(value, ast.Name) and value.id in local:
            self._local(value.id, *local[value.id])
        elif isinstance(value, (ast.Set, ast.List, ast.Tuple)):
            self._literal(value)

    def alternatives(self, node: ast.BoolOp) -> None:
        """Note an `or` of tests (`arch & {"A", "B"} or model_type in {"a", "c"}`): the lists found in it are
        alternatives, a name either holds taken (`ALTERNATIVES`, read as a chain's are by `chains`), and so are
        the collections it searches by name (`model_type in _TYPES or any(a in _ARCHS for a in archs)`)."""
        if isinstance(node.op, ast.Or) and id(node) not in self._seen:
            number = len(self._chains)
            self._chains[number] = [ALTERNATIVES] + [REFERENCE + name for name in _searched(node, (ast.In,))]
            self._chain_spans.append((_span(node), number))

    def chain(self, node: ast.BoolOp) -> None:
        """`x == "A" or x == "B"` (and `x != "A" and x != "B"`): one literal of every compared name.

        An `or` chain may also test by shape where the pattern is a name: `"A" in arch`,
        `arch.startswith("B")`.
        """
        strings: List[ast.expr] = []
        for value in node.values:
            sides = _tested_strings(value, isinstance(node.op, ast.Or))
            if sides is None:
                return
            strings.extend(sides)
        if len(set(map(_tested_expression, node.values))) > 1:
            return  # `"A" in archs or path.endswith("A")`: two tests of two values, each read alone
        typed = all(_tests_a_model_type(v) for v in node.values)
        if len(strings) > 1 and self._members(strings, node, typed, node):
            self._seen.update(id(v) for v in node.values)

    def branch(self, node: ast.If) -> None:
        """Note an `if` whose branch writes a name: its test is a dispatch. A name is an architecture
        (`arch = "ANextN"`, `architectures = ["Glm4ForCausalLM"]`), or where the test is of a model type,
        a model type (`model_type = "deepseek2"`)."""
        self._chain(node)
        written = [text for stmt in node.body if isinstance(stmt, (ast.Assign, ast.AnnAssign))
                   and stmt.value is not None for text in (_written_string(stmt.value),) if text is not None]
        typed = bool(written) and any(is_model_type(n, set()) for n in ast.walk(node.test))
        if any(self._names(text, typed) for text in written):
            self._dispatch.update(id(n) for n in ast.walk(node.test))
        elif (_does_nothing(node.body) and _only_literal_tests_after(node)) or _does_what_the_else_does(node):
            self._inert.update(id(n) for n in ast.walk(node.test))

    def _chain(self, node: ast.If) -> None:
        """Number the tests of an `if`/`elif` chain, once, from its first `if`."""
        if id(node.test) in self._chained:
            return
        # a chain that builds a model per name, or a lone `if` after one that joins it: its tests dispatch
        building = building_chain(self.ctx, node)
        if building is not None:
            self._building.append(building)
        joined = building is None and any(b.join(self.ctx, node) for b in self._building)
        if building is not None or joined:
            tests = building.tests() if building is not None else (node.test,)
            self._dispatch.update(id(n) for test in tests for n in ast.walk(test))
        number = len(self._chains)
        self._chains[number] = []
        branch: Optional[ast.If] = node
        arms = 0
        while branch is not None:
            arms += 1
            self._chained.add(id(branch.test))
            self._chain_spans.append((_span(branch.test), number))
            self._chains[number] += [REFERENCE + name for name in _searched(branch.test)]
            rest = branch.orelse
            branch = rest[0] if len(rest) == 1 and isinstance(rest[0], ast.If) else None
        self._chains[number].append(f"{TESTS}{arms}")

    @property
    def registrations(self) -> List[ChainRegistration]:
        """What the scope's dispatches register (`model_chains.py`)."""
        return [found for building in self._building for found in building.registrations(self.ctx)]

    @property
    def chains(self) -> List[Tuple[str, ...]]:
        """The names found in the tests of each `if`/`elif` chain with two of them or more: lists that tell
        names apart, each branch doing something else with its own. A collection a test searches by name
        (`elif arch in HYBRID_ARCHS`) is there too, as `REFERENCE` and its name: that branch takes whatever
        the collection holds; and how many tests the chain has, as `TESTS` and the number."""
        return [tuple(names) for names in self._chains.values()
                if sum(1 for n in names if n[:1] not in (REFERENCE, TESTS) and n != ALTERNATIVES) > 1
                or names[:1] == [ALTERNATIVES] and len(names) > 2]

    def _names(self, text: Optional[str], typed: bool) -> bool:
        return text is not None and (self.ctx.is_name(text) or (typed and model_types_only([text])))

    def affix(self, node: ast.Call) -> None:
        """`arch.startswith("A")`, `arch.endswith(("A", "B"))`, where the patterns are names."""
        if id(node) not in self._seen:
            strings = _affix_strings(node)
            if strings:
                self._members(strings, node, site=node)

    def _members(self, strings: List[ast.expr], node: ast.expr, typed: bool = False,
                 site: Optional[ast.expr] = None) -> bool:
        members = tuple(Member(s.value, s.lineno, self.ctx.column(s)) for s in strings)  # type: ignore[attr-defined]
        typed = typed and written_as_model_types([m.name for m in members], self.ctx.is_name)
        if not typed and not any(self.ctx.is_name(m.name) for m in members):
            return False
        self._add(self._next(), node.lineno, self.ctx.column(node), (Literal(members),), self._scope_of(node), typed,
                  site)
        self._in_chain(node)
        return True

    def _literal(self, literal: ast.expr, typed: bool = False, site: Optional[ast.expr] = None) -> None:
        parts, typed = _name_parts(self.ctx, literal, typed)
        if parts is not None:
            self._add(self._next(), literal.lineno, self.ctx.column(literal), parts, self._scope_of(literal), typed,
                      site)
            self._literals[id(literal)] = self.found[-1].name
            self._in_chain(literal)

    def _in_chain(self, node: ast.expr) -> None:
        """The subject just found is in the chain whose test it is written in, and in the `or` it is in."""
        start, end = _span(node)
        for alternatives in (False, True):
            number = next((n for (first, last), n in self._chain_spans if first <= start and end <= last
                           and (self._chains[n][:1] == [ALTERNATIVES]) is alternatives), None)
            if number is not None:
                self._chains[number].append(self.found[-1].name)

    def _scope_of(self, node: ast.expr) -> str:
        if id(node) in self._dispatch:
            return DISPATCH
        return INERT if id(node) in self._inert else INLINE

    def _local(self, variable: str, line: int, value: ast.expr, typed: bool = False) -> None:
        name = f"{self.scope}.{variable}"
        if name in self._named or not isinstance(value, _LITERALS):
            return
        parts, typed = _name_parts(self.ctx, value, typed)
        if parts is not None:
            self._named.add(name)
            self._add(name, line, self.ctx.column(value), parts, LOCAL, typed)

    def _next(self) -> str:
        self._inline += 1
        return f"{self.scope}#{self._inline}"

    def _add(self, name: str, line: int, column: int, parts: Tuple[Part, ...], scope: str,
             typed: bool = False, site: Optional[ast.expr] = None) -> None:
        self.found.append(CollectionFact(name, line, column, parts, scope))
        if typed:
            self.type_keyed.append(name)
        if site is not None:
            self._sites.append((name, site))

    def boolean(self, node: ast.BoolOp) -> None:
        """Note an `and` or `or` walked: a term after `v in LIST and` runs only for what LIST holds (`gates.py`)."""
        self._booleans.append(node)

    def gated(self, body: List[ast.stmt]) -> List[Tuple[str, str]]:
        """(subject, gate) for each inline test found in `body` that sits where only the values another list
        holds reach (`gates.py`): the gate is that list, as `REFERENCE` and its name or as the subject it is; after
        `LOOSE` where the values that list holds reach it among others (a term of an `or`)."""
        if not self._sites:
            return []
        within = gates(body, self._booleans, _value_read)
        if not within.found:
            return []
        found = []
        for name, test in self._sites:
            position = (test.lineno, test.col_offset)
            if not within.around(position):
                continue
            for tested, strict in gated(position, _site_value(test), within):
                written = gate_name(tested)
                gate = REFERENCE + written if written is not None else self._literals.get(id(tested))
                if gate is not None and gate != name:
                    found.append((name, gate if strict else LOOSE + gate))
        return found


def _does_nothing(body: List[ast.stmt]) -> bool:
    """`pass`, `...` or a string: a branch kept to say something, not to do it."""
    return all(isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))
               for stmt in body)


def _only_literal_tests_after(node: ast.If) -> bool:
    """Could no later branch of the chain take a name this test holds? No `else`, and each later `elif`
    tests against written strings only (a name there is in one list or the other, and the first one wins
    only where both hold it).

    Then which names the branch holds changes nothing; before an `else` or a test of another kind, it
    keeps its names from them (an exclusion list), which is a reason to hold one.
    """
    return _else_after_literal_tests(node) == []


def _does_what_the_else_does(node: ast.If) -> bool:
    """Does the branch do what its chain's `else` does, each later `elif` testing written strings only? A name
    it holds and the others' tests do not reaches that `else` without it, and the same code runs: which names
    it holds changes nothing (`elif arch in [...]: return (3, 1, 4)` ... `else: return (3, 1, 4)`)."""
    rest = _else_after_literal_tests(node)
    if not rest or len(rest) != len(node.body) or any(type(a) is not type(b) for a, b in zip(node.body, rest)):
        return False  # told apart at once, before any walk
    return not any(isinstance(n, _DEFINITIONS) for stmt in node.body for n in ast.walk(stmt)) and all(
        ast.dump(mine) == ast.dump(theirs) for mine, theirs in zip(node.body, rest))  # (a definition may be stubbed)


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _else_after_literal_tests(node: ast.If) -> Optional[List[ast.stmt]]:
    """The body of the chain's `else` after `node` (empty if none), or None if a later `elif` tests
    something other than written strings."""
    rest = node.orelse
    while len(rest) == 1 and isinstance(rest[0], ast.If):
        if not _tests_written_strings(rest[0].test):
            return None
        rest = rest[0].orelse
    return rest


def _tests_written_strings(test: ast.expr) -> bool:
    """`x in ["A", "B"]`, `x == "A"`, or an `and`/`or` of such tests."""
    if isinstance(test, ast.BoolOp):
        return all(_tests_written_strings(v) for v in test.values)
    if not isinstance(test, ast.Compare):
        return False
    return any(is_str(side) or (isinstance(side, (ast.List, ast.Tuple, ast.Set)) and bool(side.elts)
                                and all(is_str(e) for e in side.elts))
               for side in (test.left, *test.comparators))


def _tested_strings(value: ast.expr, either: bool) -> Optional[List[ast.expr]]:
    """The strings one term of a chain tests against, or None if it is no such test.

    In an `or` chain (`either`): `x == "A"`, `"A" in x`, `x.startswith("A")`; in an `and`
    chain: `x != "A"`.
    """
    if isinstance(value, ast.Compare) and len(value.ops) == 1:
        op, left, right = value.ops[0], value.left, value.comparators[0]
        if isinstance(op, ast.Eq if either else ast.NotEq):
            return _equal_strings(left, right)
        if either and isinstance(op, ast.In) and is_str(left) and not isinstance(right, _LITERALS):
            return [left]
        return None
    if either and isinstance(value, ast.Call):
        return _affix_strings(value)
    return None


def _tested_expression(value: ast.expr) -> str:
    """What one term of a chain tests (`_tested_strings` took it): `x` of `x == "A"`, `"A" in x` and
    `x.startswith("A")`, however it is read (`_value_read`). The terms of one list test one value; a name in
    terms that test two values (`"A" in archs or path.endswith("A")`) is no duplicate."""
    if isinstance(value, ast.Compare):
        left, right = value.left, value.comparators[0]
        if isinstance(value.ops[0], ast.In):
            return _value_read(right)
        return _value_read(right if is_str(left) or _one_string_list(left) else left)
    assert isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
    return _value_read(value.func.value)


def _value_read(node: ast.expr) -> str:
    """A value as the path it is read by, normalising calls and ways of reading a key aside:
    `str(cfg.model_type).lower()`, `getattr(cfg, "model_type", "")`, `cfg["model_type"]` and
    `cfg.get("model_type")` all read `cfg.model_type`."""
    if isinstance(node, ast.Call):
        func, args = node.func, node.args
        if normalised(node):
            return _value_read(args[0] if isinstance(func, ast.Name) else func.value)  # type: ignore[attr-defined]
        if isinstance(func, ast.Name) and func.id == "getattr" and len(args) >= 2 and is_str(args[1]):
            return f"{_value_read(args[0])}.{args[1].value}"  # type: ignore[attr-defined]
        if isinstance(func, ast.Attribute) and func.attr == "get" and args and is_str(args[0]):
            return f"{_value_read(func.value)}.{args[0].value}"  # type: ignore[attr-defined]
    if isinstance(node, ast.Subscript) and is_str(node.slice):
        return f"{_value_read(node.value)}.{node.slice.value}"  # type: ignore[attr-defined]
    if isinstance(node, ast.Attribute):
        return f"{_value_read(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return ast.dump(node)


def _equal_strings(left: ast.expr, right: ast.expr) -> Optional[List[ast.expr]]:
    """The string one side of `==` / `!=` compares the other with: `x == "A"`, `archs == ["A"]`.

    A list of one string is what `config.architectures` holds for one architecture; a list of
    several is one combination, not a set of names, and is left alone.
    """
    found = []
    for side, other in ((left, right), (right, left)):
        if is_str(side) and not is_str(other):
            found.append(side)
        elif _one_string_list(side) and not isinstance(other, _WRITTEN):
            found.append(side.elts[0])  # type: ignore[attr-defined]
    return found if len(found) == 1 else None


def _compared_value(node: ast.Compare) -> str:
    """The value a comparison of one operator tests: `arch` of `arch in [...]`, `arch == "A"` and `"A" == arch`,
    `config.architectures` of `"A" in config.architectures`."""
    left, right = node.left, node.comparators[0]
    return _value_read(right if is_str(left) or _one_string_list(left) else left)


def _site_value(test: ast.expr) -> str:
    """The value an inline test tests: a comparison's, the first term's of an `or` chain (all test one value),
    or that of `x.startswith(...)`."""
    if isinstance(test, ast.Compare):
        return _compared_value(test)
    return _tested_expression(test.values[0] if isinstance(test, ast.BoolOp) else test)


def _span(node: ast.expr) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """Where an expression is written: (line, column) of its start and of its end."""
    return (node.lineno, node.col_offset), (node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)


def _written_string(value: ast.expr) -> Optional[str]:
    """The string an assignment writes: `"A"`, or a list of one, `["A"]` (what `architectures` holds)."""
    if is_str(value):
        return value.value  # type: ignore[attr-defined, no-any-return]
    return value.elts[0].value if _one_string_list(value) else None  # type: ignore[attr-defined]


def _one_string_list(node: ast.expr) -> bool:
    return isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 1 and is_str(node.elts[0])


def _affix_strings(call: ast.Call) -> Optional[List[ast.expr]]:
    """The patterns of `x.startswith(P)` / `x.endswith(P)`, P a string or a tuple of strings."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in ("startswith", "endswith")
            and len(call.args) == 1 and not call.keywords):
        return None
    arg = call.args[0]
    strings = arg.elts if isinstance(arg, ast.Tuple) else [arg]
    return list(strings) if strings and all(is_str(s) for s in strings) else None


def _name_parts(ctx: ModuleContext, literal: ast.expr, typed: bool) -> Tuple[Optional[Tuple[Part, ...]], bool]:
    """The parts of a literal that holds at least one architecture-shaped string, else None; and whether it is
    a list of model types (`typed`: a model type is tested against it, and its strings are all model types)."""
    parts = collection_parts(ctx, literal, {})
    names = [m.name for p in (parts or ()) if isinstance(p, Literal) for m in p.members]
    if typed and parts and written_as_model_types(names, ctx.is_name):
        return parts, True
    return (parts if parts and any(ctx.is_name(name) for name in names) else None), False


def _tests_a_model_type(test: ast.expr) -> bool:
    """`x.model_type == "a"` (either way round): one side a model type (`model_type_keys.py`)."""
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and \
        any(is_model_type(side, set()) for side in (test.left, test.comparators[0]))


REFERENCE = "="  # in a chain's names (`ScopeSubjects.chains`): a collection one of its tests searches by name
LOOSE = "~"  # before a gate (`FileFacts.gates`): the gate's names reach the test, and others may (`gates.py`)
ALTERNATIVES = "|"  # a chain's first name: its lists are the alternatives of one `or`, not branches
# in a chain's names, once: how many tests the chain has, a branch that names no model among them
# (`elif cfg.get("thinker_config") is not None:`): a change that adds one decides what the chain does with a model
TESTS = "+"


def _searched(test: ast.expr, ops: Tuple[type, ...] = (ast.In, ast.NotIn)) -> List[str]:
    """The collections `test` searches by name: `x in NAME`, `x in mod.NAME`, `any(a in NAME for a in ...)` (and
    `x not in NAME`, unless `ops` leaves it out: an `or`'s alternatives are what it admits)."""
    found = []
    for node in ast.walk(test):
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators):
                if isinstance(op, ops):
                    if isinstance(right, ast.Name):
                        found.append(right.id)
                    elif isinstance(right, ast.Attribute):
                        found.append(right.attr)
    return found
