"""Which files beyond the index's first pass can matter, and so get parsed in full.

The index has parsed every file that may define a guarded or named collection and read
every registration. More passes widen that, from byte signals alone: files quoting a
registered name (any name-shaped string while nothing is registered), then, until nothing
changes, files that test, delegate to or import a collection, constant or predicate defined
in a parsed file. Anything else is extracted on demand when resolution reaches it, so this
policy decides speed, never results (`--no-prefilter` parses everything; the tests compare).
"""
from __future__ import annotations

from typing import FrozenSet, Iterator, Optional

from ..config import matches_pattern
from ..extract.facts import FileFacts
from ..project.index import ProjectIndex
from .references import Resolver


def choose_files(index: ProjectIndex) -> None:
    universe = index.universe | _qualified_registry_names(index)
    index.choose([module for module, signals in index.signals()
                  if signals.quoted and (signals.quoted & universe if universe else True)])
    # Until nothing changes: files that test, call or import what a chosen file defines. A
    # constant module, a tuple of its constants in a second, the test in a third: all chosen.
    known = {name for module, _ in index.signals() if index.is_chosen(module)
             for name in _defined_names(index.facts_of(module))}
    while True:
        wanted = [module for module, signals in index.signals() if not index.is_chosen(module)
                  and (signals.referenced & known or signals.imported & known)]
        if not wanted:
            return
        index.choose(wanted)
        known |= {name for module in wanted for name in _defined_names(index.facts_of(module))}


def _qualified_registry_names(index: ProjectIndex) -> FrozenSet[str]:
    """Names of `path::NAME` registries, so files quoting them are kept."""
    qualified = index.config.qualified_registries
    if not qualified:
        return frozenset()
    resolver = Resolver(index)
    return frozenset(
        occurrence.name
        for facts in index.facts for fact in facts.collections
        if matches_pattern(qualified, facts.path, fact.name)
        for occurrence in resolver.collection(facts, fact).members.members
    )


def _defined_names(facts: Optional[FileFacts]) -> Iterator[str]:
    """Names a parsed file defines; none for a chosen file that could not be read."""
    if facts is None:
        return
    yield from (c.name for c in facts.collections)
    yield from (name for name, _, _ in facts.constants)
    yield from (p.name for p in facts.predicates)
