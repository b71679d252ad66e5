"""Today's findings as `[[tool.archsync.exempt]]` tables, for a maintainer to review.

Adopting archsync on a tree that already drifts: each finding an exemption can express
becomes one, with a reason that says it was recorded, not decided. The tables are text to
append to pyproject.toml (the rest of the file keeps every byte), one per (subject, code), the
members sorted. An exemption matches a subject and a member by glob, so both are written with
`*`, `?` and `[` escaped, and as TOML basic strings with every control character escaped.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..diagnostics import Diagnostic
from ..rules import BY_CODE
from ..rules import arc202_stale_exemption as stale
from .escape import printable


@dataclass(frozen=True)
class Recording:
    """The tables to append, the findings they exempt, and those left with the reason why."""

    text: str  # "" when there is nothing to record
    tables: int
    recorded: Tuple[Diagnostic, ...]
    left: Tuple[Tuple[Diagnostic, str], ...]


def reason_for(date: str) -> str:
    """The reason every recorded exemption carries until a maintainer writes the real one."""
    return f"recorded by archsync on {date}: review"


def header(date: str) -> str:
    """The comment above what one run records."""
    return (f"\n# Recorded by `archsync check --add-exemptions` on {date}: the findings of that day. For each, fix\n"
            f"# the code (ARC202 then says the exemption is stale) or write down why the difference is deliberate.\n")


def record(diagnostics: Sequence[Diagnostic], date: str) -> Recording:
    """Exemption tables for every finding that one can express; the others with why not.

    One table per subject and set of members, naming the codes found for exactly those members.
    """
    members: Dict[Tuple[str, str], Set[str]] = defaultdict(set)
    found: Dict[Tuple[str, str], List[Diagnostic]] = defaultdict(list)
    recorded: List[Diagnostic] = []
    left: List[Tuple[Diagnostic, str]] = []
    for diagnostic in diagnostics:
        why = _not_exemptable(diagnostic)
        if why is not None or diagnostic.subject is None or diagnostic.member is None:
            left.append((diagnostic, why or ""))
            continue
        key = (diagnostic.subject, diagnostic.code)
        members[key].add(_glob_literal(diagnostic.member))
        found[key].append(diagnostic)
        recorded.append(diagnostic)
    merged: Dict[Tuple[str, Tuple[str, ...]], List[str]] = defaultdict(list)
    for (subject, code), names in members.items():
        merged[(subject, tuple(sorted(names)))].append(code)
    tables = [_table(subject, names, sorted(codes), [d for c in codes for d in found[(subject, c)]], date)
              for (subject, names), codes in sorted(merged.items())]
    return Recording("".join(tables), len(tables), tuple(recorded), tuple(left))


def _not_exemptable(diagnostic: Diagnostic) -> Optional[str]:
    if diagnostic.code == stale.RULE.code:
        return "a stale exemption is not exempted: remove it from pyproject.toml"
    if diagnostic.subject is None or diagnostic.member is None:
        return "not about one name in a subject, which is all an exemption can say"
    if _toml_string(diagnostic.subject) is None or _toml_string(diagnostic.member) is None:
        return "its name holds a character TOML cannot hold (a lone surrogate)"
    return None


def _table(subject: str, members: Sequence[str], codes: Sequence[str], found: Sequence[Diagnostic],
           date: str) -> str:
    quoted = [_quote(m) for m in members]
    one_line = f"members = [{', '.join(quoted)}]"
    listed = one_line if len(one_line) <= 100 else "members = [\n" + "".join(f"    {q},\n" for q in quoted) + "]"
    paths = ", ".join(sorted({printable(d.path) for d in found}))
    rules = ", ".join(f"{code} {BY_CODE[code].name}" if code in BY_CODE else code for code in codes)
    return (f"\n# {rules} in {paths}\n"
            f"[[tool.archsync.exempt]]\n"
            f"subject = {_quote(_glob_literal(subject))}\n"
            f"{listed}\n"
            f"codes = [{', '.join(_quote(c) for c in codes)}]\n"
            f"reason = {_quote(reason_for(date))}\n")


def _glob_literal(name: str) -> str:
    """`name` as a glob that matches only itself (`fnmatch` has no escape character: brackets are)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _quote(text: str) -> str:
    quoted = _toml_string(text)
    assert quoted is not None, "checked by _not_exemptable"
    return quoted


def _toml_string(text: str) -> Optional[str]:
    """A TOML basic string holding exactly `text`; None if TOML cannot (a lone surrogate)."""
    out = []
    for char in text:
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            return None
        if char in '"\\':
            out.append("\\" + char)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
