"""The fix a rule attaches to its diagnostic: which literal to edit and where a new name goes.

Rules build the request (they know which collection answers the diagnostic); `lint_plugin.fix`
turns it into text edits.
"""
from __future__ import annotations

import os
from typing import AbstractSet, Sequence, Tuple

from ..diagnostics import FixRequest
from ..resolve import Collection, Occurrence


def add_to(collection: Collection, name: str, siblings: Sequence[Tuple[str, str]]) -> FixRequest:
    """Add `name` to the literal of `collection`, after its best peer."""
    return FixRequest("add", collection.path, collection.subject, collection.line, name,
                      rank_peers(name, collection.members.names, siblings), collection.column)


def remove(subject: str, duplicate: Occurrence) -> FixRequest:
    """Remove the duplicate string written at `duplicate`."""
    return FixRequest("remove", duplicate.path, subject, duplicate.line, duplicate.name, (), duplicate.column)


def rank_peers(name: str, held: AbstractSet[str], siblings: Sequence[Tuple[str, str]],
               limit: int = 3) -> Tuple[str, ...]:
    """Names to place `name` after: its sibling variant first, then the closest by prefix."""
    sibling_names = set()
    for first, second in siblings:
        for suffix, other in ((first, second), (second, first)):
            if name.endswith(suffix):
                sibling_names.add(name[: -len(suffix)] + other)
    ranked = sorted(held, key=lambda peer: (peer not in sibling_names,
                                            -len(os.path.commonprefix([name, peer])), peer))
    return tuple(peer for peer in ranked[:limit] if peer in sibling_names or os.path.commonprefix([name, peer]))
