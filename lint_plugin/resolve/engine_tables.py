"""Tables in which a part of the project names, for each architecture, a class of its own engine.

lmdeploy runs a model with one of two engines. Its PyTorch engine's registry binds `DeepseekV3ForCausalLM`
to DeepSeek-V2's class; its TurboMind engine keeps `SUPPORTED_ARCHS = dict(DeepseekV2ForCausalLM="deepseek2",
...)`, whose values are the keys under which that engine files its own readers
(`@INPUT_MODELS.register_module(name="deepseek2")`, in the same part of the project: `resolve/parts.py`).
Such a table is the second engine's registry under another name: what the first engine's classes share says
nothing of which checkpoints the second one's readers take (TurboMind never took DeepSeek-V3's; archsync
asked for it at 32 of lmdeploy's commits). The keys are read from every file's bytes (`Signals.keys`), so the
table is known whichever files are parsed.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, Set, Tuple

from ..project.prefilter import Signals
from .parts import part_of
from .served import is_not_served
from .values import Collection

# a table names two of its part's keys at least, and half of its values are keys: a table of chat templates or
# tokens whose values happen to match a key is none
MIN_KEYS = 2


def engine_tables(collections: Iterable[Collection], signals: Iterable[Tuple[str, Signals]]
                  ) -> FrozenSet[Tuple[str, str]]:
    """(path, subject) of each table of strings whose values are mostly keys a decorator of the same part of
    the project files classes under. `signals`: (path, signals) of every file."""
    keys = _keys_by_part(signals)
    found = set()
    for c in collections:
        if not c.values:
            continue
        values = {value for _, value in c.values}
        known = values & keys.get(part_of(c.path), frozenset())
        if len(known) >= MIN_KEYS and 2 * len(known) >= len(values):
            found.add((c.path, c.subject))
    return frozenset(found)


def _keys_by_part(signals: Iterable[Tuple[str, Signals]]) -> Dict[str, FrozenSet[str]]:
    """By part, the keys decorators of the files the project runs file classes under."""
    found: Dict[str, Set[str]] = {}
    for path, signal in signals:
        if signal.keys and not is_not_served(path):
            found.setdefault(part_of(path), set()).update(signal.keys)
    return {part: frozenset(keys) for part, keys in found.items()}
