"""ARC105's findings for each subject, left for the next run while what they read is unchanged (ARC105's
part of `RunMemory`).

The language server checks the whole project again after an edit that moves a file's lines, and
ARC105's weighing of every candidate of every subject was a quarter of that. What a subject's
findings read is known (`arc105_kin_missing.check`): the subject itself and its namesakes (with
their lines), the names weighed, the multimodal names, which names are registered, and of the
kinship its registered classes, implementations, list company and related names (every field but
three, compared whole), and for each class of a name held or weighed, its entries of those three,
`classes`, `backbones` and `configs`, with its bases' presence as classes. A subject's findings
are taken again when all of that is equal (`reusable`).

The edited file's class edges carry new lines, so its classes' entries change. When an entry
changed in its lines alone (the same edges and config uses, from the same files), whether a name
is reported does not change: the evidence's kinds, weights and kin are read from what the edges
say, never from where they are; only the messages, which name path:line, do. Then the names the
subject's findings name are weighed again, and no other (the rest stays unreported). Any other
change to a class it reads weighs the subject again; one to what all subjects share weighs all.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import AbstractSet, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Collection, Model
from ..resolve.kinship import ClassEdge, ConfigUse, Kinship
from ..resolve.said_kinds import SaidKinds


@dataclass(frozen=True)
class Weighed:
    """One subject's findings and what they were weighed from."""

    collection: Collection
    others: Tuple[Collection, ...]  # its namesakes
    names: Tuple[str, ...]  # the names weighed
    found: Tuple[Diagnostic, ...]
    # the lists of its directory looked up with a class name (what `_not_in_own_tables` read): the
    # subsystem's own tables, which an edit to another file may change
    tables: Tuple[FrozenSet[str], ...] = ()


@dataclass(frozen=True)
class Changed:
    """Classes whose kinship entries changed since the last check: in what they say, or in their lines alone."""

    classes: FrozenSet[str]
    moved: FrozenSet[str]


_NOTHING = Changed(frozenset(), frozenset())
_BY_CLASS = ("classes", "configs", "backbones")  # compared class by class; every other field of Kinship, whole
_WHOLE = tuple(f.name for f in dataclasses.fields(Kinship) if f.name not in _BY_CLASS)


@dataclass(frozen=True)
class Arc105Memory:
    """The last check's findings by subject, with the inputs every subject shares."""

    level: str
    registered: FrozenSet[str]
    said: SaidKinds
    kinship: Kinship
    subjects: Mapping[Tuple[str, str], Weighed]  # by (path, subject)


def earlier_for(kept: Optional[Arc105Memory], model: Model) -> "Tuple[Optional[Arc105Memory], Changed]":
    """The last check's findings if every input the subjects share is unchanged, and the classes whose
    kinship entries changed since (a subject reading one of them is weighed again)."""
    if kept is None or kept.level != model.config.kinship or kept.said != model.said \
            or kept.registered != model.registered.keys():
        return None, _NOTHING
    before, now = kept.kinship, model.kinship
    if any(getattr(before, f) != getattr(now, f) for f in _WHOLE):  # the related names too: a cheap check
        return None, _NOTHING
    classes = changed_keys(before.classes, now.classes)
    configs = changed_keys(before.configs, now.configs)
    said = {k for k in classes if _edges(before.classes.get(k)) != _edges(now.classes.get(k))}
    said.update(k for k in configs if _use(before.configs.get(k)) != _use(now.configs.get(k)))
    said.update(changed_keys(before.backbones, now.backbones))  # a backbone names no line: any change counts
    return kept, Changed(frozenset(said), frozenset((classes | configs) - said))


def remembered(model: Model, subjects: Mapping[Tuple[str, str], Weighed]) -> Arc105Memory:
    """What this check weighed, for the next one."""
    return Arc105Memory(model.config.kinship, frozenset(model.registered), model.said, model.kinship,
                        subjects)


def reusable(kept: Optional[Arc105Memory], changed: Changed, kinship: Kinship, collection: Collection,
             others: Tuple[Collection, ...], held: AbstractSet[str], names: Tuple[str, ...],
             tables: Tuple[FrozenSet[str], ...] = ()) -> "Tuple[Optional[Weighed], bool]":
    """The subject's kept findings, if they were weighed from what it holds and reads now; and whether
    a class it reads moved its lines (then the names the findings name are weighed again)."""
    if kept is None:
        return None, False
    weighed = kept.subjects.get((collection.path, collection.subject))
    if weighed is None or weighed.names != names or not (weighed.collection is collection
                                                         or weighed.collection == collection) \
            or weighed.others != others or weighed.tables != tables:
        return None, False
    if not changed.classes and not changed.moved:
        return weighed, False
    reads = _reads(kinship, held, names)
    if not reads.isdisjoint(changed.classes):
        return None, False
    return weighed, not reads.isdisjoint(changed.moved)


def _reads(kinship: Kinship, held: Iterable[str], names: Sequence[str]) -> Set[str]:
    """The classes whose kinship entries weighing `names` against `held` may read: each name's class
    and that class's bases (asked whether they are classes too)."""
    found: Set[str] = set()
    for group in (held, names):
        for name in group:
            cls = kinship.registered_class.get(name, name)
            found.add(cls)
            found.update(edge.base for edge in kinship.classes.get(cls, ()))
    return found


def changed_keys(before: Mapping[str, object], now: Mapping[str, object]) -> Set[str]:
    """The keys whose entries differ (an entry added or removed too)."""
    if before is now:
        return set()
    found = {key for key, value in now.items() if before.get(key, _MISSING) != value}
    found.update(key for key in before if key not in now)
    return found


def _edges(edges: Optional[Sequence[ClassEdge]]) -> Optional[List[Tuple[str, str, int, str]]]:
    """A class's edges without their lines (in any order: a file's signals are a set)."""
    return sorted((e.child, e.base, e.methods, e.path) for e in edges) if edges is not None else None


def _use(use: Optional[ConfigUse]) -> Optional[Tuple[str, str, str]]:
    return (use.child, use.config, use.path) if use is not None else None


_MISSING = object()
