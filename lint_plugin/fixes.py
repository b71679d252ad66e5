"""Which literal edit would fix each diagnostic (the plan; `fixer.py` does the editing)."""
from __future__ import annotations

import dataclasses
import os
from typing import Dict, List, Sequence, Tuple

from .diagnostics import Diagnostic, FixRequest
from .resolve import Collection

ADDING = ("ARC101", "ARC102", "ARC103", "ARC104")
REMOVING = ("ARC301",)


def attach_fixes(diagnostics: Sequence[Diagnostic], collections: Sequence[Collection],
                 siblings: Sequence[Tuple[str, str]]) -> List[Diagnostic]:
    """Give each fixable diagnostic its FixRequest; the rest pass through unchanged."""
    by_place: Dict[Tuple[str, str, int], Collection] = {(c.path, c.subject, c.line): c for c in collections}
    fixed = []
    for d in diagnostics:
        request = None
        if d.code in ADDING and d.member is not None and d.subject is not None:
            collection = by_place.get((d.path, d.subject, d.line))
            if collection is not None:
                peers = rank_peers(d.member, collection.members.names, siblings)
                request = FixRequest("add", d.path, d.subject, collection.line, d.member, peers)
        elif d.code in REMOVING and d.member is not None and d.subject is not None:
            request = FixRequest("remove", d.path, d.subject, d.line, d.member, (), d.column)
        fixed.append(dataclasses.replace(d, fix=request) if request else d)
    return fixed


def rank_peers(name: str, held, siblings: Sequence[Tuple[str, str]], limit: int = 3) -> Tuple[str, ...]:
    """Names to place `name` after: its sibling variant first, then the closest by prefix."""
    sibling_names = set()
    for first, second in siblings:
        for suffix, other in ((first, second), (second, first)):
            if name.endswith(suffix):
                sibling_names.add(name[: -len(suffix)] + other)
    ranked = sorted(held, key=lambda peer: (peer not in sibling_names,
                                            -len(os.path.commonprefix([name, peer])), peer))
    return tuple(peer for peer in ranked[:limit] if peer in sibling_names or os.path.commonprefix([name, peer]))


def plan_edits(source: bytes, requests: Sequence[FixRequest]):
    """Run the fixer for requests on one file's bytes; returns its FixResult.

    Imported lazily: libcst is only needed when something is to be fixed.
    """
    from .fixer import AddMember, RemoveMember, apply_fixes

    converted = [
        AddMember(r.target, r.line, r.name, r.peers) if r.action == "add" else RemoveMember(r.line, r.column, r.name)
        for r in requests
    ]
    return apply_fixes(source, converted)


def fix_payloads(root, diagnostics: Sequence[Diagnostic], overrides=None) -> Dict[int, dict]:
    """For each fixable diagnostic (by index), its fix as JSON: the request and its text edits.

    Each fix is planned alone against the file as it is, so a front end can offer any of
    them independently. A fix the fixer refuses carries its reason instead of edits.
    """
    payloads: Dict[int, dict] = {}
    sources: Dict[str, bytes] = {}
    for i, d in enumerate(diagnostics):
        if d.fix is None:
            continue
        if d.fix.path not in sources:
            try:
                sources[d.fix.path] = (overrides or {}).get(d.fix.path) or (root / d.fix.path).read_bytes()
            except OSError:
                sources[d.fix.path] = b""
        result = plan_edits(sources[d.fix.path], [d.fix])
        payload = d.fix.to_json()
        payload["edits"] = [dataclasses.asdict(e) for e in result.edits]
        if result.refused:
            payload["refused"] = result.refused[0].reason
        payloads[i] = payload
    return payloads
