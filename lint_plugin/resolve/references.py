"""Cross-module resolution: collections to exact name sets, predicates to families."""
from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple, Union

from ..extract.facts import CollectionFact, FileFacts, Literal, Part, Pattern, PredicateFact, Ref, Unknown
from .imports import MAX_CHAIN, Found, locate
from .source import ModuleSource
from .values import Collection, Occurrence, Predicate, ResolvedSet


def _defines_value(facts: FileFacts, name: str) -> bool:
    return any(c.name == name for c in facts.collections) or any(c[0] == name for c in facts.constants)


def _defines_predicate(facts: FileFacts, name: str) -> bool:
    return any(p.name == name for p in facts.predicates)


class Resolver:
    """Resolves `Ref`s through a module source, memoised, with cycle protection."""

    def __init__(self, source: ModuleSource) -> None:
        self.source = source
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
            result = self._value(locate(self.source, ref.module, ref.name, _defines_value))
        finally:
            self._active.discard(key)
        self._collections[key] = result
        return result

    def _value(self, found: Union[Found, str]) -> ResolvedSet:
        if isinstance(found, str):
            return ResolvedSet((), (found,))
        facts, name = found.facts, found.name
        collection = next((c for c in facts.collections if c.name == name), None)
        if collection is not None:
            return self.parts(facts, collection.parts)
        value, line = next((v, line) for n, v, line in facts.constants if n == name)
        return ResolvedSet((Occurrence(value, facts.path, line, 1),))

    def collection(self, facts: FileFacts, collection: CollectionFact) -> Collection:
        literals = tuple(tuple(Occurrence(m.name, facts.path, m.line, m.column) for m in part.members)
                         for part in collection.parts if isinstance(part, Literal))
        return Collection(collection.name, facts.path, collection.line, collection.column,
                          self.ref(Ref(facts.module, collection.name, collection.line)), literals)

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
        found = locate(self.source, module, qualname, _defines_predicate)
        result: Optional[Predicate] = None
        if isinstance(found, Found) and f"{found.facts.module}:{found.name}" != key:
            result = self.predicate(found.facts.module, found.name, name_ok, universe)  # memoised where defined
        elif isinstance(found, Found):
            fact = next(p for p in found.facts.predicates if p.name == found.name)
            result = self._predicate(found.facts, fact, name_ok, universe)
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
        literals = tuple(tuple(Occurrence(m.name, facts.path, m.line, m.column) for m in part.members)
                         for part in fact.tests if isinstance(part, Literal))
        return Predicate(f"{facts.module}:{fact.name}", fact.name, facts.path, fact.line, fact.column,
                         frozenset(names), own, frozenset(delegates), tuple(unknown), (), literals)
