"""How often a name stands alone in a file's bytes, up to twice: what the search for a subject's readers
counts (`resolve/consumers.py`), and so what a run that searched a file depends on in it.

A run records the counts it took of each file it searched; a later run, or a check of whether the last
run still stands (`pipeline/run.py`, `session.py`), counts the same names in the file's bytes now: the
same counts, and the search would go as it went. Light on purpose: a warm check imports it.
"""
from __future__ import annotations

from typing import Iterable, Tuple

Counts = Tuple[Tuple[str, int], ...]  # (name, times written as a word, at most ENOUGH), by name
ENOUGH = 2  # a name written twice is read somewhere besides where it is defined

_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def counted(data: bytes, names: Iterable[str]) -> Counts:
    """How often each name stands alone in `data`, at most `ENOUGH` times."""
    return tuple((name, words(name.encode(), data, ENOUGH)) for name in sorted(set(names)))


def stand(data: bytes, counts: Counts) -> bool:
    """Do `data` give the names these counts?"""
    return counted(data, (name for name, _ in counts)) == counts


def words(word: bytes, data: bytes, enough: int) -> int:
    """How often `word` stands alone in `data` (no ASCII word character either side, as a bytes `\\b`
    says), counted up to `enough`. A substring search: four times faster than a pattern with look-arounds."""
    found, at, end = 0, data.find(word), len(word)
    while at >= 0:
        if (at == 0 or data[at - 1] not in _WORD) and (at + end == len(data) or data[at + end] not in _WORD):
            found += 1
            if found >= enough:
                break
        at = data.find(word, at + 1)
    return found
