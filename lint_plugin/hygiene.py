"""Name hygiene (ARC201 unknown name, ARC301 duplicate): pure functions."""
from __future__ import annotations

import difflib
from typing import Iterable, List, Mapping, Sequence

from .diagnostics import Diagnostic
from .facts import Literal, Part
from .resolve import Occurrence


def unknown_names(subject: str, label: str, occurrences: Iterable[Occurrence],
                  registered: Mapping[str, Occurrence]) -> List[Diagnostic]:
    """ARC201: a name nothing registers, with a did-you-mean when one is close."""
    if not registered:
        return []
    diagnostics = []
    seen = set()
    for occurrence in occurrences:
        name = occurrence.name
        if name in registered or name in seen:
            continue
        seen.add(name)
        close = difflib.get_close_matches(name, list(registered), n=1, cutoff=0.88)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        diagnostics.append(Diagnostic(
            path=occurrence.path, line=occurrence.line, column=occurrence.column, code="ARC201",
            message=f"'{name}' in {label} is not a registered architecture{hint}",
            subject=subject, member=name,
        ))
    return diagnostics


def duplicate_members(subject: str, label: str, path: str, parts: Sequence[Part]) -> List[Diagnostic]:
    """ARC301: the same name written twice in one literal (the later one is reported)."""
    diagnostics = []
    for part in parts:
        if not isinstance(part, Literal):
            continue
        seen: dict = {}
        for member in part.members:
            if member.name in seen:
                first = seen[member.name]
                diagnostics.append(Diagnostic(
                    path=path, line=member.line, column=member.column, code="ARC301",
                    message=f"'{member.name}' is listed twice in {label} (first at line {first.line})",
                    subject=subject, member=member.name,
                ))
            else:
                seen[member.name] = member
    return diagnostics

