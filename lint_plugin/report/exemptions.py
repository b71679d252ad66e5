"""Exemptions from the configuration, and stale ones (ARC202)."""
from __future__ import annotations

import fnmatch
from typing import List, Optional, Sequence, Set, Tuple

from ..config import Exemption
from ..diagnostics import Diagnostic
from ..rules import arc202_stale_exemption as stale
from ..rules.codes import JUDGED_AGAINST_A_BASELINE


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
        if exemption.codes and JUDGED_AGAINST_A_BASELINE.issuperset(exemption.codes):
            continue  # what only a run against a baseline reports: a run without one cannot say it is stale
        for member in exemption.members:
            if (index, member) not in used:
                kept.append(stale.diagnostic(exemption, member, config_path))
    return kept


def _exempting(diagnostic: Diagnostic, exemptions: Sequence[Exemption]) -> Optional[Tuple[int, str]]:
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
