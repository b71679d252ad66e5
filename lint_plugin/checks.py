"""Family coverage rules (ARC101, ARC104): pure functions over resolved values."""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, Iterable, List, Mapping, Sequence, Tuple

from .diagnostics import Diagnostic
from .resolve import Collection, Occurrence, Predicate


def family_member_missing(collections: Sequence[Collection], families: Sequence[Predicate],
                          covers: Sequence[Tuple[Collection, Predicate]] = ()) -> List[Diagnostic]:
    """ARC101: a guarded collection holds part of a family but not all of it.

    A declared cover (collection, family) needs all of the family without the overlap.
    One diagnostic per (collection, missing name), naming every family that implies
    the name, except delegating families whose reporting parts already name it.
    """
    found: Dict[Tuple[Collection, str], List[Predicate]] = defaultdict(list)
    pairs = [(c, f) for c in collections for f in families if c.members.names & f.names]
    pairs += [pair for pair in covers if pair not in pairs]
    for collection, family in pairs:
        for name in family.names - collection.members.names:
            found[(collection, name)].append(family)
    diagnostics = []
    for (collection, name), reporters in found.items():
        keys = {f.key for f in reporters}
        reporters = [f for f in reporters if not (f.delegates & keys)]
        reporters.sort(key=lambda f: (f.path, f.line, f.subject))
        evidence = " and ".join(f.label + _condition(f, name) for f in reporters)
        diagnostics.append(Diagnostic(
            path=collection.path, line=collection.line, column=collection.column, code="ARC101",
            message=f"'{name}' is matched by {evidence} but missing from {collection.subject}",
            subject=collection.subject, member=name,
        ))
    return diagnostics


def sibling_variant_missing(collections: Sequence[Collection], families: Sequence[Predicate],
                            registered: Mapping[str, Occurrence],
                            siblings: Sequence[Tuple[str, str]]) -> List[Diagnostic]:
    """ARC104: a collection or family holds one variant of a registered pair but not the other.

    Families are judged on their own literal, so a predicate that only delegates
    never repeats what the predicate owning the literal reports.
    """
    diagnostics: List[Diagnostic] = []
    if not registered or not siblings:
        return diagnostics
    subjects = [(c.subject, c.subject, c.path, c.line, c.column, c.members.names) for c in collections]
    subjects += [(f.subject, f"{f.subject}()", f.path, f.line, f.column, frozenset(o.name for o in f.own))
                 for f in families if f.own]
    for subject, label, path, line, column, held in subjects:
        for name, sibling in sorted(_missing_siblings(held, registered, siblings)):
            where = registered[sibling]
            diagnostics.append(Diagnostic(
                path=path, line=line, column=column, code="ARC104",
                message=(f"'{sibling}' is missing from {label}, which holds its sibling '{name}' "
                         f"('{sibling}' is registered at {where.path}:{where.line})"),
                subject=subject, member=sibling,
            ))
    return diagnostics


def _missing_siblings(held: Iterable[str], registered: Mapping[str, Occurrence],
                      siblings: Sequence[Tuple[str, str]]) -> Iterable[Tuple[str, str]]:
    held = frozenset(held)
    found = {}
    for name in held:
        for first, second in siblings:
            for suffix, other in ((first, second), (second, first)):
                if name.endswith(suffix) and len(name) > len(suffix):
                    sibling = name[: -len(suffix)] + other
                    if sibling in registered and sibling not in held:
                        found.setdefault(sibling, name)
    return [(name, sibling) for sibling, name in found.items()]


def _condition(family: Predicate, name: str) -> str:
    condition = family.condition_of(name)
    return f" [only {condition}]" if condition else ""
