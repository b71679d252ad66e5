"""A name another branch of the same if/elif chain tests is handled there, never missing here.

`if t in ["A", "B"]: ... elif t in ["C"]: ...` tells names apart on purpose: each branch does
something else with its own. So no completion rule (ARC101, ARC102, ARC104, ARC105) asks one
branch's list to hold a name another branch of its chain holds: the first branch that holds a name
takes it, and adding it to an earlier one would change what the later one does.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Collection, Model


def not_taken_by_another_branch(model: Model, found: List[Diagnostic]) -> List[Diagnostic]:
    """`found`, less each name a list is asked to hold that another branch of its chain holds."""
    chained: Dict[Tuple[str, str], Collection] = {(c.path, c.subject): c for c in model.collections if c.beside}
    if not chained:
        return found
    kept = []
    for diagnostic in found:
        collection = chained.get((diagnostic.path, diagnostic.subject or ""))
        if collection is not None and diagnostic.fix is not None and diagnostic.fix.action == "add" \
                and diagnostic.member in collection.beside:
            continue
        kept.append(diagnostic)
    return kept
