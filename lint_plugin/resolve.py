"""Cross-module resolution: collections to exact name sets, predicates to families."""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from .facts import CollectionFact, FileFacts, Literal, Part, Pattern, PredicateFact, Ref, Unknown
from .index import ProjectIndex


@dataclass(frozen=True)
class Occurrence:
    """A name as written somewhere in the project."""

    name: str
    path: str
    line: int
    column: int


@dataclass(frozen=True)
class ResolvedSet:
    """The names a collection or test holds, and what could not be followed."""

    members: Tuple[Occurrence, ...]
    unknown: Tuple[str, ...] = ()
    patterns: Tuple[Pattern, ...] = ()

    @property
    def names(self) -> FrozenSet[str]:
        return frozenset(m.name for m in self.members)


@dataclass(frozen=True)
class Collection:
    """A resolved module-level collection."""

    subject: str
    path: str
    line: int
    column: int
    members: ResolvedSet


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

    @property
    def label(self) -> str:
        return f"{self.subject}() ({self.path}:{self.line})"

    def condition_of(self, name: str) -> Optional[str]:
        return next((c for n, c in self.conditions if n == name), None)


# References and delegations are followed this many links deep: deeper chains are
# reported as partly analysed instead of exhausting the interpreter's stack.
MAX_CHAIN = 200


class Resolver:
    """Resolves `Ref`s through the index, memoised, with cycle protection."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self._collections: Dict[Tuple[str, str], ResolvedSet] = {}
        self._predicates: Dict[str, Optional[Predicate]] = {}
        self._active: Set[Tuple[str, str]] = set()
        self._predicate_depth = 0

    # -- collections -----------------------------------------------------------
    def parts(self, facts: FileFacts, parts: Iterable[Part]) -> ResolvedSet:
        members: List[Occurrence] = []
        unknown: List[str] = []
        patterns: List[Pattern] = []
        for part in parts:
            if isinstance(part, Literal):
                members.extend(Occurrence(m.name, facts.path, m.line, m.column) for m in part.members)
            elif isinstance(part, Unknown):
                unknown.append(f"{part.reason} ({facts.path}:{part.line})")
            elif isinstance(part, Pattern):
                patterns.append(part)
            else:
                resolved = self.ref(part)
                members.extend(resolved.members)
                unknown.extend(resolved.unknown)
                patterns.extend(resolved.patterns)
        return ResolvedSet(tuple(members), tuple(unknown), tuple(patterns))

    def ref(self, ref: Ref) -> ResolvedSet:
        key = (ref.module, ref.name)
        if key in self._collections:
            return self._collections[key]
        if key in self._active:
            return ResolvedSet((), (f"`{ref.name}` refers to itself ({ref.module})",))
        if len(self._active) >= MAX_CHAIN:
            return ResolvedSet((), (f"`{ref.name}` is more than {MAX_CHAIN} references deep ({ref.module})",))
        self._active.add(key)
        try:
            result = self._lookup(ref)
        finally:
            self._active.discard(key)
        self._collections[key] = result
        return result

    def _lookup(self, ref: Ref) -> ResolvedSet:
        facts = self.index.module(ref.module)
        if facts is None:
            return ResolvedSet((), (f"`{ref.name}` comes from {ref.module}, outside the project",))
        for collection in facts.collections:
            if collection.name == ref.name:
                return self.parts(facts, collection.parts)
        for name, value, line in facts.constants:
            if name == ref.name:
                return ResolvedSet((Occurrence(value, facts.path, line, 1),))
        target = _imported(facts, ref.name)
        if target is not None:
            module, attribute = target
            if attribute is None:
                return ResolvedSet((), (f"`{ref.name}` is a module ({facts.path})",))
            return self.ref(Ref(module, attribute, ref.line))
        if self.index.module(f"{ref.module}.{ref.name}") is not None:
            return ResolvedSet((), (f"`{ref.name}` is a module ({facts.path})",))
        for star in facts.star_imports:
            if _defines(self.index.module(star), ref.name):
                return self.ref(Ref(star, ref.name, ref.line))
        if facts.star_imports:
            return ResolvedSet((), (f"`{ref.name}` may come from a star import in {facts.path}",))
        return ResolvedSet((), (f"cannot resolve `{ref.name}` in {facts.path}",))

    def collection(self, facts: FileFacts, collection: CollectionFact) -> Collection:
        return Collection(collection.name, facts.path, collection.line, collection.column,
                          self.ref(Ref(facts.module, collection.name, collection.line)))

    # -- predicates ------------------------------------------------------------
    def predicate(self, module: str, qualname: str, name_ok: Callable[[str], bool],
                  universe: FrozenSet[str]) -> Optional[Predicate]:
        """The predicate `qualname` defined (or imported) in `module`, resolved."""
        key = f"{module}:{qualname}"
        if key in self._predicates:
            return self._predicates[key]
        if self._predicate_depth >= MAX_CHAIN:
            return None  # a delegation chain this deep is not followed further
        self._predicates[key] = None  # cycle guard
        self._predicate_depth += 1
        facts = self.index.module(module)
        result: Optional[Predicate] = None
        if facts is not None:
            fact = next((p for p in facts.predicates if p.name == qualname), None)
            if fact is not None:
                result = self._predicate(facts, fact, name_ok, universe)
            else:
                target = _imported(facts, qualname)
                if target is not None and target[1] is not None:
                    result = self.predicate(target[0], target[1], name_ok, universe)
        self._predicate_depth -= 1
        self._predicates[key] = result
        return result

    def _predicate(self, facts: FileFacts, fact: PredicateFact, name_ok: Callable[[str], bool],
                   universe: FrozenSet[str]) -> Predicate:
        tests = self.parts(facts, fact.tests)
        own = tuple(o for o in tests.members if name_ok(o.name))
        names = {o.name for o in own}
        if universe:
            names &= universe
        if tests.patterns:
            names |= {n for n in universe if any(p.matches(n) for p in tests.patterns)}
        unknown = list(tests.unknown)
        delegates: Set[str] = set()
        for ref in fact.delegates:
            part = self.predicate(ref.module, ref.name, name_ok, universe)
            if part is not None:
                names |= part.names
                delegates.add(part.key)
                delegates |= part.delegates
        if tests.patterns and not universe:
            unknown.append(f"a pattern test ({tests.patterns[0].kind} {tests.patterns[0].text!r}) "
                           f"matches nothing while nothing is registered")
        return Predicate(f"{facts.module}:{fact.name}", fact.name, facts.path, fact.line, fact.column,
                         frozenset(names), own, frozenset(delegates), tuple(unknown))


def _defines(facts: Optional[FileFacts], name: str) -> bool:
    """Does a module bind `name` at module level (a collection, constant or import)?"""
    if facts is None:
        return False
    return (any(c.name == name for c in facts.collections) or any(c[0] == name for c in facts.constants)
            or any(i[0] == name for i in facts.imports))


def _imported(facts: FileFacts, name: str) -> Optional[Tuple[str, Optional[str]]]:
    for local, module, attribute in facts.imports:
        if local == name:
            return module, attribute
    return None


def matches_pattern(patterns: Iterable[str], path: str, name: str) -> bool:
    """`NAME_GLOB` matches the name; `PATH_GLOB::NAME_GLOB` also needs the path to match."""
    for pattern in patterns:
        path_glob, sep, name_glob = pattern.rpartition("::")
        if sep and not fnmatch.fnmatchcase(path, path_glob):
            continue
        if fnmatch.fnmatchcase(name, name_glob):
            return True
    return False
