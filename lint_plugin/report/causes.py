"""One finding per cause: the places of a file that one cause leaves behind, reported once.

A predicate that grew a name, a host list a copy fell behind, a class an alias names: each leaves
several lists of one file without one or more names, and a check that printed each place as its own
finding (ten for SGLang's `is_qwen3_5()` in `overrides.py`, five for a stale copy of vLLM's list)
buries the one thing to fix under its repetitions. Findings of one code in one file whose messages
say the same but for the name and the list (the same family, sibling, kin, host list) have one
cause: they are reported once, at the first place, with the others listed in the message and kept
in `related` (for SARIF's related locations, JSON and the editor), each with its own fix.

Only codes whose message states the cause beside the name (`Rule.one_per_cause`) are grouped: two
duplicates in one list, or two unknown names, are two slips. The grouping is a view of the report:
exemptions, `# noqa`, baselines and fixes still see each place, and a place suppressed by them is
in no group.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic
from ..rules.codes import ONE_PER_CAUSE

__all__ = ["causes", "findings", "merged", "other_places", "places_of"]


def causes(diagnostics: Iterable[Diagnostic], codes: FrozenSet[str] = ONE_PER_CAUSE) -> List[Tuple[Diagnostic, ...]]:
    """`diagnostics` in their order, those of one cause in one file (of a code in `codes`) together, at the first."""
    groups: Dict[object, List[Diagnostic]] = {}
    for d in diagnostics:
        key = _cause(d, codes)
        groups.setdefault(id(d) if key is None else key, []).append(d)
    return [tuple(group) for group in groups.values()]


def findings(diagnostics: Iterable[Diagnostic]) -> List[Diagnostic]:
    """What a front end reports of `diagnostics`: one finding per cause, for the codes that state theirs."""
    return [merged(group) for group in causes(diagnostics)]


def merged(group: Sequence[Diagnostic]) -> Diagnostic:
    """A cause's places as one finding: the first, its message naming the rest, which it keeps as `related`."""
    first, rest = group[0], tuple(group[1:])
    return replace(first, message=first.message + _also(first, rest), related=rest) if rest else first


def places_of(diagnostic: Diagnostic) -> Tuple[Diagnostic, ...]:
    """Every place a finding stands for: itself and the others of its cause."""
    return (diagnostic, *diagnostic.related)


def other_places(diagnostics: Sequence[Diagnostic]) -> Dict[int, Tuple[Diagnostic, ...]]:
    """For each of `diagnostics` (by id) in a cause of several places, the others: where each place is shown apart
    (the editor), it links to them, and a fix of the cause makes all their edits."""
    return {id(d): tuple(o for o in group if o is not d)
            for group in causes(diagnostics) if len(group) > 1 for d in group}


def _cause(d: Diagnostic, codes: FrozenSet[str]) -> Optional[Tuple[str, str, str]]:
    """What a finding says but for its name and its list: equal for findings of one cause."""
    if d.code not in codes or not d.subject or not d.member or d.related:
        return None
    said = d.message.replace(f"'{d.member}'", "'\0'").replace(d.subject, "\0\0")
    return (d.path, d.code, said)


# the other lists a message names; the rest are counted (JSON, SARIF and `related` hold every one)
_NAMED = 8


def _also(first: Diagnostic, rest: Tuple[Diagnostic, ...]) -> str:
    """`; the same for 'B' there, and for 'A', 'B' in X (line 12) and Y (line 30)`."""
    by_list: Dict[Tuple[str, int], List[str]] = {}
    for d in rest:
        by_list.setdefault((d.subject or "", d.line), []).append(d.member or "")
    here = by_list.pop((first.subject or "", first.line), [])
    parts: List[str] = []
    if here:
        parts.append(f"{_names(here)} there")
    runs: List[Tuple[List[str], List[str]]] = []  # consecutive lists missing the same names
    for (subject, line), names in list(by_list.items())[:_NAMED]:
        where = f"{subject} (line {line})"
        if runs and runs[-1][0] == names:
            runs[-1][1].append(where)
        else:
            runs.append((names, [where]))
    parts += [f"{_names(names)} in {_and(wheres)}" for names, wheres in runs]
    unnamed = len(by_list) - _NAMED
    more = f"; and {unnamed} more list{'s' if unnamed != 1 else ''} of this file" if unnamed > 0 else ""
    return "; the same for " + ", and for ".join(parts) + more


def _names(names: List[str]) -> str:
    return ", ".join(f"'{name}'" for name in names)


def _and(items: List[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
