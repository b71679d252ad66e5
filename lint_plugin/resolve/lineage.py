"""Which predicates are families by default: those that name an architecture lineage.

`is_qwen3_5` matching only names that contain "qwen3" then "5" names a lineage; a
capability test across lineages (`is_multimodal_model`) does not, and treating it as
a family would tell every multimodal whitelist to hold every multimodal model.
"""
from __future__ import annotations

import functools
import re
from typing import Iterable, List

_VERB_PREFIXES = ("is",)
_TASK_SUFFIX = re.compile(r"For[A-Z]")


def lineage_words(predicate_name: str) -> List[str]:
    """`is_qwen3_5` -> ['qwen3', '5']; the leading `is` and underscores are not words."""
    words = [w.lower() for w in predicate_name.rsplit(".", 1)[-1].split("_") if w]
    if words and words[0] in _VERB_PREFIXES:
        words = words[1:]
    return words


def names_lineage(predicate_name: str, names: Iterable[str]) -> bool:
    """Every name's stem contains the predicate's words, in order, ignoring case and underscores.

    The stem is the name before its task suffix (`Qwen3_5` of `Qwen3_5ForCausalLM`), so a
    method called `condition` does not name the lineage of `...ForConditionalGeneration`.
    """
    words = lineage_words(predicate_name)
    names = list(names)
    if not words or not names:
        return False
    return all(_contains_in_order(stem(name).lower().replace("_", ""), words) for name in names)


def outside_lineage(predicate_name: str, names: Iterable[str]) -> List[str]:
    """The names whose stem lacks the predicate's lineage words: why it is no family."""
    words = lineage_words(predicate_name)
    return sorted(n for n in names if not _contains_in_order(stem(n).lower().replace("_", ""), words))


_FIRST_WORD = re.compile(r"[A-Z]+[a-z]*\d*|[a-z]+\d*")
_LETTERS = re.compile(r"[A-Z]+[a-z]*|[a-z]+")


@functools.lru_cache(maxsize=1 << 14)  # asked for each held name of each subject, for each candidate
def first_word(name: str, generations: bool = True) -> str:
    """The first word of a name: `Qwen3` of `Qwen3NextForCausalLM` (`Qwen` without `generations`)."""
    match = (_FIRST_WORD if generations else _LETTERS).match(name)
    return match.group(0) if match else name


def stem(name: str) -> str:
    """`Qwen3_5MoeForCausalLM` -> `Qwen3_5Moe`; a name without a `For<Task>` suffix is its own stem."""
    match = _TASK_SUFFIX.search(name)
    return name[: match.start()] if match and match.start() > 0 else name


def _contains_in_order(text: str, words: List[str]) -> bool:
    position = 0
    for word in words:
        found = text.find(word, position)
        if found < 0:
            return False
        position = found + len(word)
    return True
