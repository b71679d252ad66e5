"""Namesakes: one list name bound in several modules, a copy kept for another backend or caller.

`_NEURON_SUPPORTED_MODELS` in two model loaders, `check_vl_llm()`'s `supported_archs` in two
modules: each copy was written from the other, and a name one copy holds beside names both hold
is what the other may have missed. Inline tests (`function#2`) and decorator arguments are
numbered or named after where they are, not what they are, and have no namesakes.
"""
from __future__ import annotations

from collections import defaultdict
from typing import AbstractSet, Dict, List, Sequence, Tuple

from .values import Collection

_NAMED = frozenset({"module", "class", "local"})  # scopes whose subject is a name someone chose


def namesakes(collections: Sequence[Collection]) -> Dict[Tuple[str, str], Tuple[Collection, ...]]:
    """(path, subject) -> the collections of the same name and scope in other modules."""
    by_name: Dict[Tuple[str, str], List[Collection]] = defaultdict(list)
    for c in collections:
        if c.scope in _NAMED:
            by_name[(c.subject, c.scope)].append(c)
    found: Dict[Tuple[str, str], Tuple[Collection, ...]] = {}
    for group in by_name.values():
        if len({c.path for c in group}) < 2:
            continue
        for c in group:
            found[(c.path, c.subject)] = tuple(o for o in group if o.path != c.path)
    return found


def shared_names(collection: Collection, other: Collection, registered: AbstractSet[str]) -> AbstractSet[str]:
    """The registered names both hold: what makes `other` a copy of `collection`, not a stranger."""
    return collection.members.names & other.members.names & registered
