"""Contracts over resolved collections and families: pure functions, no I/O."""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, List, Sequence, Tuple

from .diagnostics import Diagnostic
from .resolve import Collection, Predicate


def family_member_missing(collections: Sequence[Collection], families: Sequence[Predicate]) -> List[Diagnostic]:
    """ARC101: a guarded collection holds part of a family but not all of it.

    One diagnostic per (collection, missing name), naming every family that implies
    the name, except delegating families whose reporting parts already name it.
    """
    found: Dict[Tuple[Collection, str], List[Predicate]] = defaultdict(list)
    for collection in collections:
        held = collection.members.names
        for family in families:
            if not (held & family.names):
                continue
            for name in family.names - held:
                found[(collection, name)].append(family)
    diagnostics = []
    for (collection, name), reporters in found.items():
        keys = {f.key for f in reporters}
        reporters = [f for f in reporters if not (f.delegates & keys)]
        reporters.sort(key=lambda f: (f.path, f.line, f.subject))
        evidence = " and ".join(f.label for f in reporters)
        diagnostics.append(Diagnostic(
            path=collection.path, line=collection.line, column=collection.column, code="ARC101",
            message=f"'{name}' is matched by {evidence} but missing from {collection.subject}",
            subject=collection.subject, member=name,
        ))
    return diagnostics
