"""Exemptions, stale exemptions (ARC202) and the one-diagnostic-per-pair rule."""
from __future__ import annotations

import fnmatch
from typing import Dict, List, Sequence, Set, Tuple

from .config import Exemption
from .diagnostics import Diagnostic

# When several rules speak about the same (subject, member), the first one here wins.
PRIORITY = ("ARC101", "ARC102", "ARC103", "ARC104", "ARC201", "ARC301")


def apply_exemptions(diagnostics: Sequence[Diagnostic], exemptions: Sequence[Exemption],
                     config_path: str) -> List[Diagnostic]:
    """Drop exempted diagnostics; add ARC202 for project exemptions that drop nothing."""
    used: Set[Tuple[int, str]] = set()
    kept = []
    for diagnostic in diagnostics:
        hit = _exempting(diagnostic, exemptions)
        if hit is None:
            kept.append(diagnostic)
        else:
            used.add(hit)
    for index, exemption in enumerate(exemptions):
        if exemption.from_pack:
            continue  # a pack's exemptions are the pack's to maintain
        for member in exemption.members:
            if (index, member) not in used:
                kept.append(Diagnostic(
                    path=config_path, line=exemption.line, column=1, code="ARC202",
                    message=(f"exemption for '{member}' in {exemption.subject} no longer suppresses anything "
                             f"({exemption.origin}); remove it"),
                    subject=exemption.subject, member=member,
                ))
    return kept


def _exempting(diagnostic: Diagnostic, exemptions: Sequence[Exemption]):
    if diagnostic.member is None or diagnostic.subject is None:
        return None
    for index, exemption in enumerate(exemptions):
        if exemption.codes and diagnostic.code not in exemption.codes:
            continue
        if not fnmatch.fnmatchcase(diagnostic.subject, exemption.subject):
            continue
        for member in exemption.members:
            if fnmatch.fnmatchcase(diagnostic.member, member):
                return index, member
    return None


def one_per_pair(diagnostics: Sequence[Diagnostic]) -> List[Diagnostic]:
    """At most one diagnostic per (subject, member): a user never reads a problem twice."""
    rank = {code: i for i, code in enumerate(PRIORITY)}
    best: Dict[Tuple[str, str], Diagnostic] = {}
    rest = []
    for diagnostic in diagnostics:
        if diagnostic.subject is None or diagnostic.member is None or diagnostic.code not in rank:
            rest.append(diagnostic)
            continue
        key = (diagnostic.subject, diagnostic.member)
        current = best.get(key)
        if current is None or rank[diagnostic.code] < rank[current.code]:
            best[key] = diagnostic
    return rest + list(best.values())
