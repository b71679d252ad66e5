"""Resolved collections and predicates one run leaves for the next (a part of `RunMemory`).

The language server resolves the whole project again after an edit that changes a file's facts
(lines moved, a name added), though most of what resolution finds does not depend on that
file. Each result the resolver gives comes with the modules its resolution read and the facts
they gave (`references.Reads`); the next run takes it as it is when every one of those modules
gives the very same facts again (the same objects: the session keeps the records of unchanged
files as they were), asking them in the order the resolution did, so it asks nothing a
resolution would not. A result that depends on the order it was met in (a cycle, a chain cut at
its limit) is never kept. Predicates are resolved against the names the project registers: they
are kept for the same registered names only. Another configuration starts from an empty memory.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import FrozenSet, Mapping, Optional, Tuple

from ..extract.facts import CollectionFact, FileFacts
from .references import Reads, Resolver
from .source import ModuleSource
from .values import Collection, Predicate, ResolvedSet

Made = Tuple[FileFacts, CollectionFact, ResolvedSet, Collection]


@dataclass(frozen=True)
class ResolutionMemory:
    """The last run's results by key, with what each read."""

    collections: Mapping[Tuple[str, str], Tuple[ResolvedSet, Reads]] = field(default_factory=dict)
    predicates: Mapping[str, Tuple[Optional[Predicate], Reads]] = field(default_factory=dict)
    made: Mapping[Tuple[str, str], Made] = field(default_factory=dict)
    universe: Optional[FrozenSet[str]] = None  # what the kept predicates were resolved against

    def collection(self, key: Tuple[str, str], source: ModuleSource) -> Optional[Tuple[ResolvedSet, Reads]]:
        kept = self.collections.get(key)
        return kept if kept is not None and _unchanged(kept[1], source) else None

    def made_from(self, facts: FileFacts, fact: CollectionFact, members: ResolvedSet) -> Optional[Collection]:
        """The collection the last run made of this very fact of these very facts, with these members."""
        kept = self.made.get((facts.module, fact.name))
        if kept is None or kept[0] is not facts or kept[1] is not fact or kept[2] is not members:
            return None
        return kept[3]

    def predicate(self, key: str, source: ModuleSource) -> Optional[Tuple[Optional[Predicate], Reads]]:
        """The kept predicate, for a resolver that checked its universe is this memory's (`resolved_against`)."""
        kept = self.predicates.get(key)
        return kept if kept is not None and _unchanged(kept[1], source) else None

    def resolved_against(self, universe: FrozenSet[str]) -> bool:
        """Were the kept predicates resolved against these registered names?"""
        return universe is self.universe or universe == self.universe


def remembered(resolver: Resolver, universe: Optional[FrozenSet[str]]) -> ResolutionMemory:
    """What a run's resolver found (its results, not tainted ones), for the next run; nothing older."""
    collections, predicates = resolver.kept_results()
    return ResolutionMemory(
        {k: (v, resolver.reads[k]) for k, v in collections.items() if k in resolver.reads},
        {k: (v, resolver.reads[k]) for k, v in predicates.items() if k in resolver.reads} if universe is not None
        else {},
        dict(resolver.made), universe)


def _unchanged(reads: Reads, source: ModuleSource) -> bool:
    """Does every module read give the same facts? Asked in order, stopping at the first that does not."""
    return all(source.module(module) is facts for module, facts in reads.items())
