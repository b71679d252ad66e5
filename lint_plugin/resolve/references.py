"""Cross-module resolution: collections to exact name sets, predicates to families."""
from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Set, Tuple

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
        self._active: Set[Tuple[str, str]] = set()  # collections whose frames are open
        self._predicate_depth = 0

    # -- collections -----------------------------------------------------------
    def parts(self, facts: FileFacts, parts: Iterable[Part]) -> ResolvedSet:
        """The union of `parts` written in `facts`, references followed."""
        frame = _Frame(None, facts, iter(parts))
        self._walk([frame])
        return frame.result()

    def ref(self, ref: Ref) -> ResolvedSet:
        """The names a reference stands for, through any chain of collections and imports."""
        key = (ref.module, ref.name)
        if key not in self._collections:
            self._walk([self._open(ref)])
        return self._collections[key]

    def _walk(self, stack: List["_Frame"]) -> None:
        """Resolve depth first with an explicit stack: a chain of any length costs no recursion.

        A frame's parts are read in order; a reference not yet known pushes a frame of its
        own, whose result is memoised and merged into its parent when its parts run out.
        A reference back into a frame still open is a cycle, reported where it closes.
        """
        while stack:
            frame = stack[-1]
            child = None
            for part in frame.parts:
                if isinstance(part, Literal):
                    frame.members.extend(Occurrence(m.name, frame.path, m.line, m.column) for m in part.members)
                elif isinstance(part, Unknown):
                    frame.unknown.append(f"{part.reason} ({frame.path}:{part.line})")
                elif isinstance(part, Pattern):
                    frame.patterns.append(part)
                else:
                    key = (part.module, part.name)
                    if key in self._collections:
                        frame.merge(self._collections[key])
                    elif key in self._active:
                        frame.unknown.append(f"`{part.name}` refers to itself ({part.module})")
                        # every frame inside the cycle holds only part of what it would from its own
                        # start: memoise the cycle's first collection alone (a mutual `a = b | ..`,
                        # `b = a | ..` must not leave `b` with what `a` had not read yet)
                        for inner in reversed(stack):
                            if inner.key == key:
                                break
                            inner.cyclic = True
                    else:
                        child = self._open(part)
                        break
            if child is not None:
                stack.append(child)
                continue
            stack.pop()
            result = frame.result()
            if frame.key is not None:
                self._active.discard(frame.key)
                if not frame.cyclic:
                    self._collections[frame.key] = result
            if stack:
                stack[-1].merge(result)

    def _open(self, ref: Ref) -> "_Frame":
        """A frame for what `ref` names: a collection to read, or a constant or a reason, already whole."""
        key = (ref.module, ref.name)
        found = locate(self.source, ref.module, ref.name, _defines_value)
        if isinstance(found, str):
            frame = _Frame(key, None, iter(()))
            frame.unknown.append(found)
            return frame
        facts, name = found.facts, found.name
        collection = next((c for c in facts.collections if c.name == name), None)
        if collection is None:
            value, line = next((v, line) for n, v, line in facts.constants if n == name)
            frame = _Frame(key, facts, iter(()))
            frame.members.append(Occurrence(value, facts.path, line, 1))
            return frame
        self._active.add(key)
        return _Frame(key, facts, iter(collection.parts))

    def collection(self, facts: FileFacts, collection: CollectionFact) -> Collection:
        literals = tuple(tuple(Occurrence(m.name, facts.path, m.line, m.column) for m in part.members)
                         for part in collection.parts if isinstance(part, Literal))
        return Collection(collection.name, facts.path, collection.line, collection.column,
                          self.ref(Ref(facts.module, collection.name, collection.line)), literals, collection.scope)

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


class _Frame:
    """One collection being resolved: where its parts come from, and what they gave so far."""

    def __init__(self, key: Optional[Tuple[str, str]], facts: Optional[FileFacts], parts: Iterator[Part]) -> None:
        self.key = key  # memoised under this key when done (None: an anonymous union of parts)
        self.path = facts.path if facts is not None else ""
        self.parts = parts
        self.members: List[Occurrence] = []
        self.unknown: List[str] = []
        self.patterns: List[Pattern] = []
        self.cyclic = False  # inside a cycle that started above it: its result is not its own whole value

    def merge(self, resolved: ResolvedSet) -> None:
        self.members.extend(resolved.members)
        self.unknown.extend(resolved.unknown)
        self.patterns.extend(resolved.patterns)

    def result(self) -> ResolvedSet:
        return ResolvedSet(tuple(self.members), tuple(self.unknown), tuple(self.patterns))
