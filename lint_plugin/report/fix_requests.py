"""Which literal edit would fix each diagnostic: the request only (`lint_plugin.fix` edits)."""
from __future__ import annotations

import dataclasses
import os
from typing import AbstractSet, Dict, List, Sequence, Tuple

from ..diagnostics import Diagnostic, FixRequest
from ..resolve import Collection
from ..rules import BY_CODE


def attach_fixes(diagnostics: Sequence[Diagnostic], collections: Sequence[Collection],
                 siblings: Sequence[Tuple[str, str]]) -> List[Diagnostic]:
    """Give each fixable diagnostic its FixRequest; the rest pass through unchanged."""
    by_place: Dict[Tuple[str, str, int], Collection] = {(c.path, c.subject, c.line): c for c in collections}
    fixed = []
    for d in diagnostics:
        request = None
        action = BY_CODE[d.code].fix if d.code in BY_CODE else None
        if action == "add" and d.member is not None and d.subject is not None:
            collection = by_place.get((d.path, d.subject, d.line))
            if collection is not None:
                peers = rank_peers(d.member, collection.members.names, siblings)
                request = FixRequest("add", d.path, d.subject, collection.line, d.member, peers)
        elif action == "remove" and d.member is not None and d.subject is not None:
            request = FixRequest("remove", d.path, d.subject, d.line, d.member, (), d.column)
        fixed.append(dataclasses.replace(d, fix=request) if request else d)
    return fixed


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
