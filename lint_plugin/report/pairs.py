"""At most one diagnostic per (file, subject, member): a user never reads one problem twice.

The file is part of the key: two modules may each define `_LIMIT_ARCHS`, and each is its own problem.
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from ..diagnostics import Diagnostic
from ..rules import RULES

# Registry order is the priority: the first rule that speaks about a pair is reported.
_RANK = {rule.code: i for i, rule in enumerate(r for r in RULES if r.one_per_pair)}


def one_per_pair(diagnostics: Sequence[Diagnostic]) -> List[Diagnostic]:
    best: Dict[Tuple[str, str, str], Diagnostic] = {}
    rest = []
    for diagnostic in diagnostics:
        if diagnostic.subject is None or diagnostic.member is None or diagnostic.code not in _RANK:
            rest.append(diagnostic)
            continue
        key = (diagnostic.path, diagnostic.subject, diagnostic.member)
        current = best.get(key)
        if current is None or _RANK[diagnostic.code] < _RANK[current.code]:
            best[key] = diagnostic
    return rest + list(best.values())
