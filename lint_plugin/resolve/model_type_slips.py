"""A model type spelt as a known one but for its separators, where the code around it spells them as the table does.

Model types are words the checkpoints' configs choose (`qwen3_moe`, `deepseek_v2`), and a test of one
compares strings: `model_type == "qwen3moe"` never matches, and the branch it guards is dead. Remote code may
choose any word, so a model type nothing knows is no error (ARC201 stays off where checkpoints may name remote
code); but one that is a known model type with a separator dropped, added or changed (`qwen3moe`, `deepseek-v2`)
is a slip where the same code writes its other model types exactly as transformers' table does. Three things
say the code follows the table's spelling, not a scheme of its own: the other model types its function tests (its
if/elif chain, or the list alone at module level) are, twice over, model types the table knows, two at least;
the spelling it varies is not among them (a function that tests `"minimax_m2"` and then `"minimax-m2"` renames
one to the other on purpose: vLLM's GGUF loader); and no two model types of the table are one word but for
their separators, so the one meant is never in doubt. Nor is it a slip where a dict of the same module maps names
to it (Olive's copy of AMD Quark: `MODEL_NAME_PATTERN_MAP = {"Qwen2Moe": "qwen2moe", ...}` turns class names into
the keys its layer tables use): the module's own word. ms-swift's own model types (`'deepseek-v2'`, `'yi'`,
`'openbuddy'`) are a scheme of its own, most of them no model type of the table: not checked.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Dict, Iterable, List, Set, Tuple

from .model_types import squashed
from .values import MODEL_TYPE, Collection, Occurrence

MIN_KNOWN = 2  # the other model types the code writes as the table does, at least


@dataclass(frozen=True)
class ModelTypeSlip:
    """One slip: where it is written, and the model type it varies."""

    collection: Collection
    written: Occurrence  # the model type as the code writes it
    meant: str  # the model type of the table it varies


def model_type_slips(collections: Iterable[Collection], known: AbstractSet[str],
                     own_words: AbstractSet[Tuple[str, str]] = frozenset()) -> List[ModelTypeSlip]:
    """Each model type a list of model types writes that is a slip of one `known` (the module docstring), but for
    a word its module maps names to (`own_words`: (path, word))."""
    by_words: Dict[str, Set[str]] = {}
    for model_type in known:
        by_words.setdefault(squashed(model_type), set()).add(model_type)
    groups: Dict[Tuple[str, str], List[Collection]] = {}
    for c in collections:
        if c.keyed == MODEL_TYPE:
            groups.setdefault((c.path, c.subject.rpartition("#")[0] or c.subject), []).append(c)
    found: List[ModelTypeSlip] = []
    for members in groups.values():
        written = {o.name for c in members for literal in c.literals for o in literal}
        for c in members:
            for literal in c.literals:
                for occurrence in literal:
                    meant = _meant(occurrence.name, written, known, by_words)
                    if meant and (occurrence.path, occurrence.name) not in own_words:
                        found.append(ModelTypeSlip(c, occurrence, meant))
    return found


def _meant(name: str, written: AbstractSet[str], known: AbstractSet[str], by_words: Dict[str, Set[str]]) -> str:
    if name in known or name != name.lower():  # a config's own word in capitals (`AXK1`) is chosen, not slipped
        return ""
    meant = by_words.get(squashed(name), set())
    if len(meant) != 1 or not meant.isdisjoint(written):
        return ""
    others = written - {name}
    spelt_so = len(others & known)
    if spelt_so < MIN_KNOWN or spelt_so < 2 * len(others - known):
        return ""
    return next(iter(meant))
