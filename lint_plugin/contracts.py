"""Declared contracts (ARC102 mirror, ARC103 subset): pure functions over resolved values."""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence

from .config import Mirror, Subset
from .diagnostics import Diagnostic
from .resolve import Collection, Occurrence, Predicate


def mirror_drift(mirror: Mirror, collections: Sequence[Collection],
                 families: Mapping[str, Predicate]) -> List[Diagnostic]:
    """ARC102: a name in one mirrored collection and not another, reported where it is missing."""
    scope: Optional[frozenset] = None
    if mirror.families:
        scope = frozenset().union(*(families[f].names for f in mirror.families if f in families))
    diagnostics = []
    for lacking in collections:
        held = lacking.members.names
        for other in collections:
            if other is lacking:
                continue
            for name in sorted(other.members.names - held):
                if scope is not None and name not in scope:
                    continue
                if any(d.member == name and d.subject == lacking.subject for d in diagnostics):
                    continue
                diagnostics.append(Diagnostic(
                    path=lacking.path, line=lacking.line, column=lacking.column, code="ARC102",
                    message=(f"'{name}' is in {other.subject} ({other.path}:{other.line}) but missing from "
                             f"{lacking.subject}, which must mirror it ({mirror.origin})"),
                    subject=lacking.subject, member=name,
                ))
    return diagnostics


def subset_broken(subset: Subset, part: Collection, whole: Optional[Collection],
                  registered: Mapping[str, Occurrence]) -> List[Diagnostic]:
    """ARC103: a name of `of` is not in `in` (a collection, or the registered names)."""
    held = whole.members.names if whole is not None else frozenset(registered)
    target = whole.subject if whole is not None else "the registered architectures"
    first: Dict[str, Occurrence] = {}
    for occurrence in part.members.members:
        first.setdefault(occurrence.name, occurrence)
    return [
        Diagnostic(
            path=part.path, line=part.line, column=part.column, code="ARC103",
            message=f"'{name}' is in {part.subject} but not in {target} ({subset.origin})",
            subject=part.subject, member=name,
        )
        for name in sorted(first) if name not in held
    ]
