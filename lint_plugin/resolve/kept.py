"""Resolved collections and predicates a long-lived process keeps from one run for the next.

The language server resolves the whole project again after an edit that changes a file's facts
(lines moved, a name added), though most of what resolution finds does not depend on that
file. Each result the resolver gives comes with the modules its resolution read and the facts
they gave (`references.Reads`); the next run takes it as it is when every one of those modules
gives the very same facts again (the same objects: the session keeps the records of unchanged
files as they were), asking them in the order the resolution did, so it asks nothing a
resolution would not. A result that depends on the order it was met in (a cycle, a chain cut at
its limit) is never kept. Predicates are resolved against the names the project registers: they
are kept for the same registered names only. Another configuration forgets everything (the
session clears it).
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Tuple

from ..extract.facts import CollectionFact, FileFacts
from .references import Reads, Resolver
from .source import ModuleSource
from .values import Collection, Predicate, ResolvedSet


class KeptResolutions:
    """The last run's results by key, with what each read."""

    def __init__(self) -> None:
        self._collections: Dict[Tuple[str, str], Tuple[ResolvedSet, Reads]] = {}
        self._predicates: Dict[str, Tuple[Optional[Predicate], Reads]] = {}
        self._made: Dict[Tuple[str, str], Tuple[FileFacts, CollectionFact, ResolvedSet, Collection]] = {}
        self._universe: Optional[FrozenSet[str]] = None  # what the kept predicates were resolved against
        self._checked: Optional[FrozenSet[str]] = None  # a universe found equal to it, this run

    def collection(self, key: Tuple[str, str], source: ModuleSource) -> Optional[Tuple[ResolvedSet, Reads]]:
        kept = self._collections.get(key)
        return kept if kept is not None and _unchanged(kept[1], source) else None

    def made(self, facts: FileFacts, fact: CollectionFact, members: ResolvedSet) -> Optional[Collection]:
        """The collection the last run made of this very fact of these very facts, with these members."""
        kept = self._made.get((facts.module, fact.name))
        if kept is None or kept[0] is not facts or kept[1] is not fact or kept[2] is not members:
            return None
        return kept[3]

    def predicate(self, key: str, universe: FrozenSet[str], source: ModuleSource
                  ) -> Optional[Tuple[Optional[Predicate], Reads]]:
        kept = self._predicates.get(key)
        if kept is None or not self._same_universe(universe):
            return None
        return kept if _unchanged(kept[1], source) else None

    def _same_universe(self, universe: FrozenSet[str]) -> bool:
        if universe is self._checked:
            return True
        if universe is self._universe or universe == self._universe:
            self._checked = universe
            return True
        return False

    def keep(self, resolver: Resolver, universe: Optional[FrozenSet[str]]) -> None:
        """Keep what a run's resolver found (its results, not tainted ones), and nothing older."""
        collections, predicates = resolver.kept_results()
        self._collections = {k: (v, resolver.reads[k]) for k, v in collections.items() if k in resolver.reads}
        self._predicates = {k: (v, resolver.reads[k]) for k, v in predicates.items() if k in resolver.reads} \
            if universe is not None else {}
        self._made = dict(resolver.made)
        self._universe, self._checked = universe, None

    def clear(self) -> None:
        self._collections, self._predicates, self._made, self._universe, self._checked = {}, {}, {}, None, None


def _unchanged(reads: Reads, source: ModuleSource) -> bool:
    """Does every module read give the same facts? Asked in order, stopping at the first that does not."""
    return all(source.module(module) is facts for module, facts in reads.items())
