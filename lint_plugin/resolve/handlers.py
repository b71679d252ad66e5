"""Handlers: classes that each name, under one attribute, the model classes they serve (`models = [...]`).

SGLang's multimodal processors subclass one base, and each lists its models (`models =
[Qwen2VLForConditionalGeneration, ...]`); the engine maps each model class to the processor that lists it.
Which handler serves a model is a choice among them: a name one handler lists is served there, never missing
from another (`Collection.beside`), and the other handlers' lists are not the tables of a subsystem that
leaves the model out (`rules/kin_guards.py`, "own tables").
"""
from __future__ import annotations

import dataclasses
from typing import Dict, FrozenSet, List, Tuple

from ..extract.facts import CLASS
from .values import Collection


def handles(collection: Collection) -> bool:
    """Is it a class's list of classes (`Processor.models`)?"""
    return collection.scope == CLASS and collection.members.classes


def alternatives(first: Collection, second: Collection) -> bool:
    """Are they two handlers' lists under one attribute (`KiloProcessor.models`, `PicoProcessor.models`)?"""
    return handles(first) and handles(second) and _attribute(first) == _attribute(second) \
        and (first.path, first.subject) != (second.path, second.subject)


def with_handlers(collections: Tuple[Collection, ...]) -> Tuple[Collection, ...]:
    """The collections, each handler's list knowing what the other handlers under its attribute list."""
    by_attribute: Dict[str, List[int]] = {}
    for i, c in enumerate(collections):
        if handles(c):
            by_attribute.setdefault(_attribute(c), []).append(i)
    beside: Dict[int, FrozenSet[str]] = {}
    for group in by_attribute.values():
        for i in group:
            others = frozenset().union(*(collections[j].members.names for j in group
                                         if alternatives(collections[i], collections[j])))
            if others:
                beside[i] = collections[i].beside | others
    if not beside:
        return collections
    return tuple(dataclasses.replace(c, beside=beside[i]) if i in beside else c for i, c in enumerate(collections))


def _attribute(collection: Collection) -> str:
    return collection.subject.rpartition(".")[2]
