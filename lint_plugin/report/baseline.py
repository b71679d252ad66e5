"""Which findings a change introduced: the current ones that a baseline run did not have.

A finding is matched by what it is about, never by where it is printed: lines inserted above a
list move its diagnostics without making them new. The identity is (code, file, subject,
name), the same fields `archsync fix` uses to tell a diagnostic it resolved. The message is
left out: it quotes the lines of other places (`is_qwen3_5() (model_config.py:142)`), which
move with edits elsewhere. Subjects are named after where they are, never after their line
(`NAME`, `Class.attr`, `fn#2`); only an ordinal (`fn#2`, `NAME@2`) moves when a test or an
arm is added before it, so what is left unmatched is matched again with ordinals dropped. A
file renamed since the baseline is a new file: its findings are new.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic

Identity = Tuple[str, str, Optional[str], Optional[str]]


def identity(diagnostic: Diagnostic) -> Identity:
    """What a finding is, whatever line it is on."""
    return (diagnostic.code, diagnostic.path, diagnostic.subject, diagnostic.member)


@dataclass(frozen=True)
class Comparison:
    """The findings a baseline does not account for, and how many it does."""

    new: Tuple[Diagnostic, ...]
    known: int


def compare(current: Sequence[Diagnostic], baseline: Sequence[Diagnostic]) -> Comparison:
    """Split `current` into new findings and those already in `baseline`.

    Counted as a multiset: a name listed a third time where the baseline listed it twice is one
    new ARC301, and the copy reported last (in output order) is the one shown as new.
    """
    unmatched, leftover = _match(list(current), list(baseline), identity)
    unmatched, _ = _match(unmatched, leftover, _without_ordinal)
    kept = {id(d) for d in unmatched}
    new = tuple(d for d in current if id(d) in kept)
    return Comparison(new, len(current) - len(new))


_ORDINAL = re.compile(r"(?<=\w)[#@]\d+")


def _without_ordinal(diagnostic: Diagnostic) -> Identity:
    """The identity with `fn#2` read as `fn`, `NAME@2` as `NAME`: the second may be the third after an edit."""
    subject = _ORDINAL.sub("", diagnostic.subject) if diagnostic.subject else diagnostic.subject
    return (diagnostic.code, diagnostic.path, subject, diagnostic.member)


def _match(current: List[Diagnostic], baseline: List[Diagnostic], key: Callable[[Diagnostic], Identity]
           ) -> Tuple[List[Diagnostic], List[Diagnostic]]:
    """(current findings no baseline one matches, baseline findings left over), earlier ones matched first."""
    pool: Dict[Identity, List[Diagnostic]] = defaultdict(list)
    for diagnostic in baseline:
        pool[key(diagnostic)].append(diagnostic)
    unmatched = []
    for diagnostic in current:
        candidates = pool.get(key(diagnostic))
        if candidates:
            candidates.pop(0)
        else:
            unmatched.append(diagnostic)
    return unmatched, [d for found in pool.values() for d in found]
