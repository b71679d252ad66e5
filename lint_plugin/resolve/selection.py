"""Which files beyond the index's first pass can matter, and so get parsed in full.

The index has parsed every file that may define a guarded or named collection and read
every registration. More passes widen that, from byte signals alone: files quoting a
registered name (any name-shaped string while nothing is registered), then, until nothing
changes, files that test, delegate to or import a collection, constant or predicate defined
in a parsed file that can carry a name onward (not a type alias, not a list of prompts).
Anything else is extracted on demand when resolution reaches it, so this policy decides
speed, never results (`--no-prefilter` parses everything; the tests compare).
"""
from __future__ import annotations

import re
from typing import AbstractSet, Callable, Dict, FrozenSet, Optional, Sequence, Set

from ..config import matches_pattern
from ..extract.facts import FileFacts, Literal, Part, Pattern, Ref
from ..project.index import ProjectIndex
from .references import Resolver

_PIECE = re.compile(r"[A-Za-z][\w.\-]*")  # a constant that may be a name pattern (`"Qwen3"`, `"VL"`)


def choose_files(index: ProjectIndex) -> None:
    universe = index.universe | _qualified_registry_names(index)
    index.choose([module for module, signals in index.signals()
                  if signals.quoted and (signals.quoted & universe if universe else True)])
    # Until nothing changes: files that test, call or import what a chosen file defines. A
    # constant module, a tuple of its constants in a second, the test in a third: all chosen.
    name_ok = index.config.name_regex.fullmatch
    chosen = [index.facts_of(module) for module, _ in index.signals() if index.is_candidate(module)]
    known = _names_that_carry(chosen, frozenset(), name_ok)
    while True:
        wanted = [module for module, signals in index.signals() if not index.is_candidate(module)
                  and (signals.referenced & known or signals.imported & known)]
        if not wanted:
            return
        index.choose(wanted)
        chosen += [index.facts_of(module) for module in wanted]
        known = _names_that_carry(chosen, known, name_ok)


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


def _names_that_carry(chosen: Sequence[Optional[FileFacts]], known: FrozenSet[str],
                      name_ok: Callable[[str], object]) -> FrozenSet[str]:
    """Names defined in chosen files whose value can carry an architecture name onward.

    A constant whose value is a name, or a pattern piece (no spaces); a collection that holds a
    name or refers to a name that carries one; a predicate that tests a name or a pattern, or
    tests or delegates to a name that carries one or that may lead out of the chosen files (see
    `_Closed`). Type aliases (`VllmConfig = Any`), prose (`prompts = ["Hello, my name is", ...]`)
    and predicates of other things (`get_bool_env_var`: `value in ("true", "1")`) carry
    nothing: a file importing or calling them has nothing to add. References are followed
    until nothing changes.
    """
    found = set(known)
    collections = []
    predicates = []
    closed = _Closed()
    for facts in chosen:
        if facts is None:
            continue  # chosen, but unreadable
        found.update(name for name, value, _ in facts.constants if name_ok(value) or _PIECE.fullmatch(value))
        collections += [c for c in facts.collections if c.name not in found]
        predicates += [p for p in facts.predicates if p.name not in found]
        closed.add(facts)
    while True:
        carrying = [c.name for c in collections if c.name not in found
                    and any(_carries(part, found, name_ok) for part in c.parts)]
        carrying += [p.name for p in predicates if p.name not in found
                     and (any(_carries(part, found, name_ok) or (isinstance(part, Ref) and closed.may_lead_out(part))
                              for part in p.tests)
                          or any(ref.name in found or closed.may_lead_out(ref) for ref in p.delegates))]
        if not carrying:
            return frozenset(found)
        found.update(carrying)


class _Closed:
    """What the chosen files define, to tell a predicate's reference that can lead nowhere else.

    A reference leads nowhere when a chosen file defines its name as a constant, collection or
    predicate (whether that carries is then known), or when it names what a chosen module does
    not define, import or take from a star import (a local variable, a builtin, a function that
    is no predicate). Anything else may lead to a file nothing chose, which may hold anything.
    """

    def __init__(self) -> None:
        self.defined: Set[str] = set()
        self.modules: Dict[str, Set[str]] = {}  # chosen module without star imports -> names it imports

    def add(self, facts: FileFacts) -> None:
        self.defined.update(name for name, _, _ in facts.constants)
        self.defined.update(c.name for c in facts.collections)
        self.defined.update(p.name for p in facts.predicates)
        if not facts.star_imports:
            self.modules.setdefault(facts.module, set()).update(local for local, _, _ in facts.imports)

    def may_lead_out(self, ref: Ref) -> bool:
        if ref.name in self.defined:
            return False
        imported = self.modules.get(ref.module)
        return imported is None or ref.name.partition(".")[0] in imported


def _carries(part: Part, found: AbstractSet[str], name_ok: Callable[[str], object]) -> bool:
    if isinstance(part, Literal):
        return any(name_ok(m.name) for m in part.members)
    if isinstance(part, Ref):
        return part.name in found
    return isinstance(part, Pattern)
