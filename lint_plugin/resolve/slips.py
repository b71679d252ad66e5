"""How two architecture names differ: a slip of the keys inside a word, or a variant by whole words.

Names are read as words, the way `starts_a_word` cuts them (`Qwen3NextForCausalLM`: Qwen, 3, Next,
For, Causal, L, M). A *slip* changes letters inside one word and nothing else: two adjacent letters
swapped (`Casual` for `Causal`) or one dropped (`Causl`), never the first or last letter of the
word, where a different word begins or ends (`Olmoe` is not `Olmo` with an `e` dropped), or one
doubled (`Causaal`, `CausalLMM`: a key struck twice). A *variant* differs by whole words: some
added (`Grok1V`, `Grok1A`, `Qwen3Moe`, `DeepseekV2`, `Phi3Small` beside `Grok1`, `Qwen3`,
`Deepseek`, `Phi3`) or numbers changed (`Qwen2VL` / `Qwen3VL`). A slip is a typo whatever a list
holds; a variant is a name spelt on purpose.
"""
from __future__ import annotations

import string
from typing import AbstractSet, Iterator, List, Optional, Tuple

from ..extract.facts import starts_a_word

_LOWER = frozenset(string.ascii_lowercase)


def words(name: str) -> Tuple[str, ...]:
    """`Qwen3_5MoeForCausalLM` -> Qwen, 3, 5, Moe, For, Causal, L, M (what is no letter or digit separates)."""
    found: List[str] = []
    start = None
    for at, char in enumerate(name):
        if not char.isalnum():
            if start is not None:
                found.append(name[start:at])
            start = None
        elif start is None or starts_a_word(name, at):
            if start is not None:
                found.append(name[start:at])
            start = at
    if start is not None:
        found.append(name[start:])
    return tuple(found)


def is_variant(name: str, other: str) -> bool:
    """Do the two names differ by whole words only: words added to one, or numbers changed?"""
    mine, theirs = _lettered(name), _lettered(other)
    return name != other and (_within(mine, theirs) or _within(theirs, mine))


def slip_of(name: str, registered: AbstractSet[str]) -> Optional[str]:
    """The registered name `name` is a slip of, if one is (the first in order, if several)."""
    found = sorted(source for source in set(slip_sources(name)) if source in registered and source != name)
    return found[0] if found else None


def slip_sources(name: str) -> Iterator[str]:
    """Every name of which `name` is a slip: at most 28 for each letter of `name`, so a name is judged
    against any number of registered names at the cost of set lookups."""
    size = len(name)
    for at in range(size - 1):
        first, second = name[at], name[at + 1]
        if first in _LOWER and second in _LOWER and first != second and at > 0 and name[at - 1].isalpha():
            yield name[:at] + second + first + name[at + 2:]  # swapped back (the word's first letter stays)
        if first == second and first.isalpha():
            yield name[:at] + name[at + 1:]  # doubled: once
    for at in range(1, size):
        if name[at - 1].isalpha() and name[at] in _LOWER:
            for letter in string.ascii_lowercase:
                yield name[:at] + letter + name[at:]  # dropped: put back, neither first nor last of its word


def _lettered(name: str) -> Tuple[str, ...]:
    """The words of a name that are not numbers: what a variant of another generation keeps."""
    return tuple(w for w in words(name) if not w.isdigit())


def _within(shorter: Tuple[str, ...], longer: Tuple[str, ...]) -> bool:
    """Is `shorter` `longer` with some words left out (a subsequence, in order)?"""
    if len(shorter) > len(longer):
        return False
    remaining = iter(longer)
    return all(any(w == other for other in remaining) for w in shorter)
