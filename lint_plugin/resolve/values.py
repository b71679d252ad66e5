"""What resolution produces: names as written, resolved sets, collections and predicates.

Frozen values with no reference to the index, so the rules are pure functions of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import FrozenSet, Optional, Tuple

from ..diagnostics import place
from ..extract.facts import MODEL_TYPE_SCHEME, Pattern

MODEL_TYPE = MODEL_TYPE_SCHEME  # `Collection.keyed` of a list a checkpoint's model type is tested against
CLASS_NAME = "class-name"  # `Collection.keyed` of a list looked up with a Python class (or its name)


@dataclass(frozen=True)
class Occurrence:
    """A name as written somewhere in the project."""

    name: str
    path: str
    line: int
    column: int


@dataclass(frozen=True)
class Registration:
    """One place that registers a name: which registry, and the class it runs when written."""

    where: Occurrence
    registry: str  # `EntryClass`, a registry dict's name, `register_model()`, `@register_auto_model`
    implementation: str = ""  # `module:Class` or `Class`; "" when not written

    @property
    def name(self) -> str:
        return self.where.name


@dataclass(frozen=True)
class ResolvedSet:
    """The names a collection or test holds, and what could not be followed."""

    members: Tuple[Occurrence, ...]
    unknown: Tuple[str, ...] = ()
    patterns: Tuple[Pattern, ...] = ()
    classes: bool = False  # some members are classes (`[LlavaQwenForCausalLM]`), each by its name
    named_class: bool = False  # what a reference to a class itself gives: its one member is that class

    @cached_property  # asked for again and again by the model and the rules
    def names(self) -> FrozenSet[str]:
        return frozenset(m.name for m in self.members)


# Why an inert test's names change nothing (`extract/subjects.py`): `inventory`, `why` and the rules say it alike
INERT_WHY = "branch does nothing, or what its chain's `else` does, and no later branch could take its names"


@dataclass(frozen=True)
class Collection:
    """A resolved collection: module-level, function-local, inline or a decorator's arguments.

    `literals` are its own literals as written (not those of collections it refers to),
    each in source order: what a duplicate is judged on.
    """

    subject: str
    path: str
    line: int
    column: int
    members: ResolvedSet
    literals: Tuple[Tuple[Occurrence, ...], ...] = ()
    scope: str = "module"  # module, class, local, inline or decorator
    declared: bool = True  # named by `guard` or a contract; False: a subject because it holds registered names
    unread: str = ""  # why nothing reads it (`consumers.py`), or ""
    # what it is looked up with when not an architecture string: "class-name" (`type(model).__name__`), or
    # MODEL_TYPE (a checkpoint's `model_type`: its members are the architectures its model types name)
    keyed: str = ""
    # the names the other branches of its if/elif chain hold (`elif t in [C]`): handled there on purpose
    beside: FrozenSet[str] = frozenset()
    # in a plugin of several hosts, those it serves (`host_scope.py`); None: every host
    hosts: Optional[FrozenSet[str]] = None
    # a dict of its own whose values differ from key to key (`Literal.valued`): a table of per-name values
    table: bool = False
    # in such a table whose values are strings, each name and the string it maps to (`Literal.values`)
    values: Tuple[Tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return self.subject

    @property
    def not_completed(self) -> str:
        """Why the completion rules never ask it to hold more, or "" (`completable`)."""
        if self.unread:
            return f"nothing reads the subject ({self.unread.partition(': ')[2] or self.unread})"
        if self.completable:
            return ""
        if self.scope == "inert":
            return f"the subject's {INERT_WHY}"
        return "the subject tests one name or dispatches on it: not a list to complete"

    @property
    def completable(self) -> bool:
        """Is it a list the completion rules (ARC101, ARC104, ARC105) may ask to hold more?

        Declared subjects are. Found by shape, a test of one name is a special case, and a
        dispatch (a test whose branch writes an architecture name) tells names apart on purpose, and
        an inert test (its branch does nothing or what the `else` does, and no later branch could take its
        names) and a list nothing reads gate nothing.
        """
        if self.unread:
            return False
        return self.declared or (len(self.written) > 1 and self.scope not in ("dispatch", "inert"))

    @property
    def written(self) -> FrozenSet[str]:
        """The names it holds as it writes them: a list of model types holds model types (one model type may
        name several architectures: a test of one is still a test of one)."""
        if self.keyed == MODEL_TYPE:
            return frozenset(o.name for literal in self.literals for o in literal)
        return self.members.names


@dataclass(frozen=True)
class Predicate:
    """A resolved predicate: the names it matches and the predicates it delegates to."""

    key: str  # module:qualname, unique in the project
    subject: str
    path: str
    line: int
    column: int
    names: FrozenSet[str]  # the family: own and delegated names, registered ones only
    own: Tuple[Occurrence, ...]  # names in its own tests, registered or not
    delegates: FrozenSet[str]  # keys of predicates it delegates to, transitively
    unknown: Tuple[str, ...] = ()  # what its own tests depend on that could not be followed
    conditions: Tuple[Tuple[str, str], ...] = ()  # (name, condition) for names matched only sometimes
    literals: Tuple[Tuple[Occurrence, ...], ...] = ()  # its own test literals as written

    @property
    def label(self) -> str:
        """How messages name it: `is_qwen3_5()`."""
        return f"{self.subject}()"

    @property
    def where(self) -> str:
        """How evidence names it: `is_qwen3_5() (pkg/config.py:12)`."""
        return f"{self.subject}() ({place(self.path, self.line)})"

    def condition_of(self, name: str) -> Optional[str]:
        return next((c for n, c in self.conditions if n == name), None)


@dataclass(frozen=True)
class Dispatch:
    """An if/elif chain of a module, by the names each of its branches tests."""

    path: str
    line: int
    subjects: Tuple[str, ...]  # the subjects its tests are
    branches: Tuple[FrozenSet[str], ...]  # what each of those holds
    searched: FrozenSet[str] = frozenset()  # collections its tests search by name (`elif arch in HYBRID_ARCHS`)
    tests: int = 0  # how many tests it has, those of branches that name no model too

    @property
    def names(self) -> FrozenSet[str]:
        return frozenset().union(*self.branches)
