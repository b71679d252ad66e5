"""The rule codes, read from the rule modules' names without importing them.

The configuration and the command line validate codes (`ignore = ["ARC9"]`, `--select`) on
every run, and a warm run imports nothing else of the rules: the codes come from the file
names (`arc101_family_member_missing.py` is ARC101), which the registry holds to its rules.
"""
from __future__ import annotations

import os
import re
from typing import FrozenSet, List, Match, Tuple

_MODULE = re.compile(r"arc(\d{3})_([a-z0-9_]+)")


def rule_modules() -> List[Tuple[str, "Match[str]"]]:
    """(module name, its match) of every rule module, in code order."""
    found = []
    for entry in os.listdir(os.path.dirname(os.path.abspath(__file__))):
        name, dot, extension = entry.rpartition(".")
        match = _MODULE.fullmatch(name) if dot and extension == "py" else None
        if match is not None:
            found.append((name, match))
    return sorted(found, key=lambda item: item[1].group(1))


CODES: FrozenSet[str] = frozenset(f"ARC{match.group(1)}" for _, match in rule_modules())
# The codes of the rules that judge a change (`Rule.check_new`): only a run against a baseline commit reports them,
# so an exemption limited to them is never stale in a run without one (the registry holds this to its rules)
JUDGED_AGAINST_A_BASELINE: FrozenSet[str] = frozenset({"ARC107"})
# The codes whose message states the cause beside the name (a family, a mirror, a sibling, a kin, a host list): the
# findings of one cause in one file are reported once (`report/causes.py`; a test holds this to `Rule.one_per_cause`)
ONE_PER_CAUSE: FrozenSet[str] = frozenset({"ARC101", "ARC102", "ARC103", "ARC104", "ARC105", "ARC106", "ARC107"})
