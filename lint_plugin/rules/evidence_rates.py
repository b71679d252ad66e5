"""What each pattern of ARC105's evidence has meant in the project's own lists, each member left out.

Every list a project keeps says which registered names belong together for one purpose. Hide one
member (and take the list out of the company counts) and weigh the evidence tying it to the rest:
that pattern of evidence (the kinds present, with their weights) meant "belongs" once. Weigh each
name the evidence ties to the list and the list lacks: that pattern meant "lacks" once, or the list
is behind, which is the drift ARC105 looks for (so the share held is a floor). Counted over every
list the completion rules may complete that holds three registered names or more. `archsync why`
prints the count for the pattern it weighs; `python -m bench.base_rates` prints the table.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Mapping, Sequence, Tuple

from ..resolve import Model
from ..resolve.kinship import Evidence

Pattern = Tuple[str, ...]
MIN_HELD = 3  # a list of two names says little about what a third would mean


@dataclass(frozen=True)
class EvidenceRates:
    """How many times each pattern was met held by its list, and lacked by it."""

    held: Mapping[Pattern, int] = field(default_factory=dict)
    lacked: Mapping[Pattern, int] = field(default_factory=dict)

    def of(self, pattern: Pattern) -> Tuple[int, int]:
        return self.held.get(pattern, 0), self.lacked.get(pattern, 0)


def pattern_of(evidence: Sequence[Evidence]) -> Pattern:
    """The kinds of evidence present, with their weights (`subclass:0.85`), whatever names they tie."""
    return tuple(sorted({f"{e.kind}:{e.weight:.2f}" for e in evidence}))


def evidence_rates(model: Model) -> EvidenceRates:
    """Count, over the model's lists, each member left out and each name they lack, by pattern."""
    kinship, registered = model.kinship, model.registered
    position: Dict[int, int] = {}  # a list's place among those kinship counts company over (`resolve/model.py`)
    for c in model.collections:
        if len(c.members.names & registered.keys()) > 1:
            position[id(c)] = len(position)
    held_counts: Counter[Pattern] = Counter()
    lacked_counts: Counter[Pattern] = Counter()
    for c in model.collections:
        held = c.members.names & registered.keys()
        if not c.completable or len(held) < MIN_HELD:
            continue
        apart = position[id(c)]
        without = dataclasses.replace(kinship, company={n: lists - {apart} for n, lists in kinship.company.items()})
        for name in held:
            found = without.evidence(name, held - {name})
            if found:
                held_counts[pattern_of(found)] += 1
        for name in kinship.candidates(held) - c.members.names:
            found = without.evidence(name, held)
            if found:
                lacked_counts[pattern_of(found)] += 1
    return EvidenceRates(dict(held_counts), dict(lacked_counts))
