"""Module-level reading: assignments, growth, registrations, decorators, class attributes, and the
functions whose bodies test names (subjects) or register them."""
from __future__ import annotations

import ast
import bisect
import re
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from .context import ModuleContext, dotted_name, is_str, short
from .facts import (
    CLASS,
    DECORATOR,
    MODEL_TYPE_SCHEME,
    ClassFact,
    CollectionFact,
    Literal,
    MappingFact,
    Member,
    Part,
    PredicateFact,
    Ref,
    RegistrationFact,
    TypePredicateFact,
    Unknown,
)
from .model_type_keys import MODEL_TYPE_SHAPE
from .named_strings import named_strings
from .predicates import read_predicate
from .registrations import (
    Registered,
    call_registration,
    class_registrations,
    dict_registrations,
    keyword_registrations,
    named_table_registrations,
    registers,
    subscript_registration,
)
from .shapes import GROWTH_METHODS
from .spelling import mostly_architectures
from .subjects import ScopeSubjects
from .types import read_class, read_type_predicate
from .values import collection_parts, filtered, operand
from .walk import acted_on

_CONSTANT_NAME = re.compile(r"_*[A-Z][A-Z0-9_]*")
REGISTER_MODEL = b"register_model"
_REGISTER_MODEL = re.compile(r"(?:^|\.)register_model\w*$")  # `ModelRegistry.register_model`, vLLM's plugin API
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TESTING = (ast.If, ast.While, ast.Assert, ast.Expr, ast.Return)  # module-level statements whose tests are read


Branch = Tuple[Tuple[int, int], ...]  # (id of an if/try statement, which of its arms) from the module down


def module_level_statements(body: Sequence[ast.stmt], branch: Branch = ()) -> Iterator[Tuple[ast.stmt, Branch]]:
    """Top-level statements, looking inside module-level if/try/with blocks, with the arm each is in."""
    for stmt in body:
        yield stmt, branch
        if isinstance(stmt, ast.With):
            yield from module_level_statements(stmt.body, branch)
        elif isinstance(stmt, ast.If):
            yield from module_level_statements(stmt.body, branch + ((id(stmt), 0),))
            yield from module_level_statements(stmt.orelse, branch + ((id(stmt), 1),))
        elif isinstance(stmt, ast.Try):
            yield from module_level_statements(stmt.body + stmt.orelse, branch + ((id(stmt), 0),))
            for arm, handler in enumerate(stmt.handlers, 1):
                yield from module_level_statements(handler.body, branch + ((id(stmt), arm),))
            yield from module_level_statements(stmt.finalbody, branch)


def _alternatives(first: Branch, second: Branch) -> bool:
    """Are two arms exclusive (`if` and `else`, `try` and `except`): only one of them runs?"""
    for (node_a, arm_a), (node_b, arm_b) in zip(first, second):
        if node_a != node_b:
            return False
        if arm_a != arm_b:
            return True
    return False


class ModuleReader:
    """Reads one parsed module into collections, predicates, registrations and constants."""

    def __init__(self, ctx: ModuleContext, registries: Sequence[str], quoted_lines: Sequence[int]) -> None:
        self.ctx = ctx
        self.registry_names = frozenset(r for r in registries if not r.startswith("@") and "::" not in r)
        self.registry_decorators = frozenset(r[1:] for r in registries if r.startswith("@"))
        self.quoted_lines = sorted(quoted_lines)
        self.collections: Dict[str, Tuple[int, int, List[Part]]] = {}  # name -> (line, column, parts)
        self.branches: Dict[str, Branch] = {}  # name -> the if/try arm of the binding in `collections`
        self.anonymous: List[CollectionFact] = []
        self.predicates: List[PredicateFact] = []
        self.registrations: List[RegistrationFact] = []
        self.by_shape: List[RegistrationFact] = []  # found by shape: judged as a registry before they count
        self.constants: List[Tuple[str, str, int]] = []
        self.classes: List[ClassFact] = []
        self.type_predicates: List[TypePredicateFact] = []
        self.mappings: List[MappingFact] = []
        self.registers_into: List[str] = []
        self.type_keyed: List[str] = []  # the subjects found by shape that a model type is tested against
        self.chains: List[Tuple[str, ...]] = []  # subjects tested in the branches of one if/elif chain
        self.gates: List[Tuple[str, str]] = []  # (subject, the list only whose names reach it): `gates.py`

    def read(self, tree: ast.Module) -> None:
        statements = list(module_level_statements(tree.body))
        for stmt, _ in statements:  # imports first: later statements refer to them
            self.ctx.add_import(stmt)
        self.ctx.named = named_strings(stmt for stmt, _ in statements)
        top = ScopeSubjects(self.ctx, "<module>")
        for stmt, branch in statements:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                self._assignment(stmt, branch)
            elif isinstance(stmt, ast.If) and isinstance(stmt.test, ast.NamedExpr):
                # `if extra := envs.EXTRA_ARCH.get(): ARCHS.append(extra)`: the name is bound as by `=`
                bound = ast.Assign(targets=[stmt.test.target], value=stmt.test.value)
                self._assignment(ast.copy_location(bound, stmt), branch)
            elif isinstance(stmt, ast.AugAssign):
                self._augmented(stmt, None)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._growth_call(stmt.value, None)
                self._call(stmt.value)
            elif isinstance(stmt, _FUNCTIONS):
                self._function(stmt, stmt.name, None)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt)
            if isinstance(stmt, _TESTING) and self._touches_quoted(stmt):
                for child in ast.walk(stmt):
                    self._test(child, top, {})
        self.anonymous.extend(top.found)
        self.type_keyed += top.type_keyed
        self.chains += top.chains
        self._chain_registrations(top)

    def _class(self, node: ast.ClassDef) -> None:
        """Its bases and config class, registering decorators, attribute lists, and its methods."""
        self.classes.append(read_class(self.ctx, node))
        self._decorators(node, node.name)
        for decorator, members, typed in class_registrations(self.ctx, node, tuple(self.registry_decorators)):
            self.registrations.append(RegistrationFact(f"@{decorator}", tuple(members),
                                                       (f"{self.ctx.module}:{node.name}",) * len(members),
                                                       MODEL_TYPE_SCHEME if typed else ""))
        for item in node.body:
            if isinstance(item, _FUNCTIONS):
                self._function(item, f"{node.name}.{item.name}", node.name)
            elif isinstance(item, (ast.Assign, ast.AnnAssign)) and item.value is not None \
                    and (self._touches_quoted(item) or self._imported_classes(item.value)):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        self._class_attribute(f"{node.name}.{target.id}", item, item.value)

    def _class_attribute(self, name: str, stmt: ast.stmt, value: ast.expr) -> None:
        """`_VLM_ARCHITECTURES = ("A", "B")` in a class body (one string, `model_type = "x"`, names the class), or
        a list of classes other modules define (`models = [LlavaQwenForCausalLM]`: a processor's models)."""
        parts = collection_parts(self.ctx, value, {})
        names = [m.name for p in (parts or ()) if isinstance(p, Literal) for m in p.members]
        if parts and (any(self.ctx.is_name(n) for n in names) or self._imported_classes(value)):
            self.anonymous.append(CollectionFact(name, stmt.lineno, self.ctx.column(stmt), parts, CLASS))

    def _imported_classes(self, value: ast.expr) -> bool:
        """Is `value` a list of names in the shape of classes, each imported from another module (or a comprehension
        keeping some of them: `[m for m in [A, B] if m is not None]`)?"""
        value = filtered(value) or value
        if not isinstance(value, (ast.List, ast.Tuple, ast.Set)) or not value.elts:
            return False
        for element in value.elts:
            ref = self.ctx.ref(element) if isinstance(element, (ast.Name, ast.Attribute)) else None
            if ref is None or ref.module == self.ctx.module or not self.ctx.is_name(ref.name):
                return False
        return True

    def collection_facts(self) -> Tuple[CollectionFact, ...]:
        named = tuple(CollectionFact(name, line, column, tuple(parts))
                      for name, (line, column, parts) in self.collections.items())
        return named + tuple(self.anonymous)

    # -- assignments ------------------------------------------------------------
    def _assignment(self, stmt: ast.stmt, branch: Branch = ()) -> None:
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
                self._register(_registry_of(target), subscript_registration(self.ctx, target, value))
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
                self._register(name, dict_registrations(self.ctx, value))
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
                self._register(name, keyword_registrations(self.ctx, value))
            parts = collection_parts(self.ctx, value, {})
            if parts is None and _CONSTANT_NAME.fullmatch(name) and isinstance(value, (ast.Call, ast.Subscript)):
                parts = (Unknown(f"assigned the result of `{short(value)}`", stmt.lineno),)
            if parts is not None and name in self.collections and _alternatives(self.branches.get(name, ()), branch):
                # `if ...: X = {...} else: X = {...}`: one arm runs, which one is not known here; the
                # first is `X` (what references see), each other one a subject of its own, `X@2`...
                alternative = f"{name}@{sum(1 for a in self.anonymous if a.name.startswith(name + '@')) + 2}"
                self.anonymous.append(CollectionFact(alternative, stmt.lineno, self.ctx.column(stmt), tuple(parts)))
            elif parts is not None and name in self.collections and self._rebinds_itself(name, parts):
                # `_X = frozenset(_X)`, `_X = _X | {...}`: the new value is built from the old one, as
                # Python evaluates it; the literal to edit stays where it was written
                line, column, previous = self.collections[name]
                self.collections[name] = (line, column, [q for p in parts for q in (
                    previous if self._is_own(name, p) else [p])])
            elif parts is not None:
                self.collections[name] = (stmt.lineno, self.ctx.column(stmt), list(parts))
                self.branches[name] = branch
            else:
                self.collections.pop(name, None)

    def _is_own(self, name: str, part: Part) -> bool:
        return isinstance(part, Ref) and part.module == self.ctx.module and part.name == name

    def _rebinds_itself(self, name: str, parts: Sequence[Part]) -> bool:
        return any(self._is_own(name, p) for p in parts)

    def _mapping(self, name: str, line: int, value: ast.Dict) -> None:
        """Keys to class references, kept for `config-maps` (architecture -> config class), and
        architecture names to architecture names: a rename table, whose keys are checkpoint aliases."""
        entries: List[Tuple[str, Ref]] = []
        renames: List[Tuple[str, str]] = []
        words: List[str] = []
        for key, item in zip(value.keys, value.values):
            if key is not None and is_str(key) and isinstance(item, ast.Constant) and isinstance(item.value, str) \
                    and MODEL_TYPE_SHAPE.fullmatch(item.value):
                words.append(item.value)
            if key is not None and is_str(key) and isinstance(item, (ast.Name, ast.Attribute)):
                ref = self.ctx.ref(item)
                if ref is not None:
                    entries.append((key.value, ref))  # type: ignore[attr-defined]
            elif isinstance(key, ast.Constant) and isinstance(item, ast.Constant) and isinstance(key.value, str) \
                    and isinstance(item.value, str) and self.ctx.is_name(key.value) and self.ctx.is_name(item.value):
                renames.append((key.value, item.value))
        if entries or renames or words:
            self.mappings.append(MappingFact(name, line, tuple(entries), tuple(renames), tuple(dict.fromkeys(words))))

    def _registration(self, registry: str, value: ast.expr) -> None:
        """What a registry the configuration names holds: the keys of a dict, or the classes of `EntryClass`."""
        table = named_table_registrations(self.ctx, value)
        if table is not None:
            entries, typed = table
            if entries:
                self.registrations.append(RegistrationFact(registry, tuple(m for m, _ in entries),
                                                           tuple(impl for _, impl in entries),
                                                           MODEL_TYPE_SCHEME if typed else ""))
            return
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
                if isinstance(arg, ast.Dict):
                    self._register(name, dict_registrations(self.ctx, arg))
            if call.keywords:
                self._register(name, keyword_registrations(self.ctx, call))
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
        # a registration in a body names what it registers in quotes, but `register_model(name, cls)`
        # says the module registers into the registry it imported (`registers_into`)
        if self._touches_quoted(node) or self._mentions_collections(node) or self._mentions(node, REGISTER_MODEL):
            self._function_body(node, qualname)

    def _function_body(self, node: ast.AST, qualname: str) -> None:
        """Subjects, registrations, and growth of module collections, in one walk of the body."""
        local: Dict[str, Tuple[int, ast.expr]] = {}
        imported: Dict[str, Tuple[str, Optional[str]]] = {}
        subjects = ScopeSubjects(self.ctx, qualname)
        for child in acted_on(node):
            if isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                imported.update({a.asname or a.name: (child.module, a.name) for a in child.names})
            elif isinstance(child, ast.Assign):
                for target in child.targets:
                    if isinstance(target, ast.Name):
                        local[target.id] = (child.lineno, child.value)
                        if isinstance(child.value, ast.Dict):  # `classes = {"X": X, ...}`, then `classes[name]`
                            self._register(f"{qualname}.{target.id}", dict_registrations(self.ctx, child.value))
                    elif isinstance(target, ast.Subscript):
                        self._subscript_store(target, qualname)
                        self._register(_registry_of(target), subscript_registration(self.ctx, target, child.value))
            elif isinstance(child, ast.AugAssign):
                self._augmented(child, qualname)
            elif isinstance(child, ast.Call):
                self._growth_call(child, qualname)
                self._call(child, imported)
                subjects.affix(child)
            else:
                self._test(child, subjects, local)
        self.anonymous.extend(subjects.found)
        self.type_keyed += subjects.type_keyed
        self.chains += subjects.chains
        self.gates += subjects.gated(node.body)  # type: ignore[attr-defined]
        self._chain_registrations(subjects)

    def _chain_registrations(self, subjects: ScopeSubjects) -> None:
        """A chain that builds a model per tested name registers them (`model_chains.py`): `scope:target`."""
        for found in subjects.registrations:
            self.registrations.append(RegistrationFact(
                f"{subjects.scope}:{found.target}", found.names, found.classes, MODEL_TYPE_SCHEME if found.typed
                else ""))

    def _test(self, node: ast.AST, subjects: ScopeSubjects, local: Dict[str, Tuple[int, ast.expr]]) -> None:
        if isinstance(node, ast.Compare):
            subjects.compare(node, local)
        elif isinstance(node, ast.BoolOp):
            subjects.boolean(node)
            subjects.alternatives(node)
            subjects.chain(node)
        elif isinstance(node, ast.Call):
            subjects.affix(node)
        elif isinstance(node, ast.If):
            subjects.branch(node)
        elif isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            subjects.iterated(node, local)
        elif isinstance(node, ast.BinOp):
            subjects.intersected(node, local)

    def _call(self, call: ast.Call, local_imports: Optional[Dict[str, Tuple[str, Optional[str]]]] = None) -> None:
        name = dotted_name(call.func)
        if name is None or not registers(name):
            return
        self._register(f"{name.rsplit('.', 1)[-1]}()", call_registration(self.ctx, call))
        head = name.partition(".")[0]
        target = (local_imports or {}).get(head) or self.ctx.imports.get(head)
        if target is not None and _REGISTER_MODEL.search(name) and target[0] not in self.registers_into:
            self.registers_into.append(target[0])  # `ModelRegistry.register_model(...)`, ModelRegistry imported

    def _register(self, registry: str, found: List[Registered]) -> None:
        if found:
            fact = RegistrationFact(registry, tuple(m for m, _ in found), tuple(impl for _, impl in found))
            self.registrations.append(fact)
            self.by_shape.append(fact)

    def registration_facts(self) -> Tuple[RegistrationFact, ...]:
        """The registrations, less those found by shape in a registry of something else.

        Registries found by shape are judged as a whole, per registry name in the file: a table
        of lazy imports (`{"LLM": ("vllm.entrypoints", "LLM")}`), of kernel tags or of ComfyUI
        nodes binds names to classes too, but its names are not architecture-shaped.
        """
        shaped: Dict[str, List[str]] = {}
        for fact in self.by_shape:
            shaped.setdefault(fact.registry, []).extend(m.name for m in fact.names)
        unlike = {id(f) for f in self.by_shape if not mostly_architectures(shaped[f.registry])}
        return tuple(r for r in self.registrations if id(r) not in unlike)

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
            on_class = isinstance(node, ast.ClassDef)
            if on_class and registers(name):
                continue  # read with the class (`_class`): its names are registrations
            if short_name in self.registry_decorators or name in self.registry_decorators:
                if not on_class:  # a class's registrations are read with the class
                    members += [Member(k.value.value, k.value.lineno, self.ctx.column(k.value))  # type: ignore[attr-defined]
                                for k in decorator.keywords if k.arg == "name" and is_str(k.value)]
                    if members:
                        self.registrations.append(RegistrationFact(f"@{short_name}", tuple(members)))
            elif members and any(self.ctx.is_name(m.name) for m in members):
                self.anonymous.append(CollectionFact(f"@{short_name}:{target.rsplit('.', 1)[-1]}",
                                                     decorator.lineno, self.ctx.column(decorator) - 1 or 1,
                                                     (Literal(tuple(members)),), DECORATOR))

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
        return self.ctx.mentions(start, end, (text,))

    def _mentions_collections(self, node: ast.AST) -> bool:
        if not self.collections:
            return False
        start = getattr(node, "lineno", 1)
        end = getattr(node, "end_lineno", start) or start
        return self.ctx.mentions(start, end, (name.encode() for name in self.collections), words=True)


def _registry_of(target: ast.Subscript) -> str:
    """How a registration by item is named: the registry it stores into."""
    return dotted_name(target.value) or "registry"
