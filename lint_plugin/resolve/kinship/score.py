"""How sure a set of evidence makes ARC105, and whether the project also treats the two alike."""
from __future__ import annotations

from typing import Dict, Sequence

from .evidence import CONFIG_CLASS, COOCCURRENCE, MIN_TOGETHER, SHARED_BASE, Evidence
from .model import Kinship

# ties in the code that are not code run alike: they add weight, never the second kind "strong" asks for
_WEAK_CODE = frozenset({SHARED_BASE, CONFIG_CLASS})


def corroborated(kinship: Kinship, name: str, evidence: Sequence[Evidence]) -> bool:
    """Does the project also treat them together? Two kinds of evidence, or company in two of its lists.

    Code says what runs alike; lists say what the project treats alike. A popular base held
    alone in lists that never name its thin clones (`LlamaForCausalLM` without `Phi3ForCausalLM`)
    is a list of checkpoints someone validated, not a list that forgot one.
    """
    kinds = {e.kind for e in evidence if e.kind not in _WEAK_CODE}
    return COOCCURRENCE in kinds or len(kinds) >= 2 or any(kinship.together(e.kin, name) >= MIN_TOGETHER
                                                             for e in evidence)


def confidence(evidence: Sequence[Evidence]) -> float:
    """How sure the evidence makes us: independent kinds combine, the best of each kind counts."""
    best: Dict[str, float] = {}
    for e in evidence:
        best[e.kind] = max(best.get(e.kind, 0.0), e.weight)
    doubt = 1.0
    for weight in best.values():
        doubt *= 1.0 - weight
    return round(1.0 - doubt, 3)
