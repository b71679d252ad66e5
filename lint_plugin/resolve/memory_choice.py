"""The files the last run chose (`selection.py`), left for the next run to choose again cheaply (a part of
`RunMemory`).

Choosing files reads every file's byte signals and the facts of the files it chooses; an edit in
the editor changes one file, most often only where its lines are. The choice is a sequence of
batches, each decided by the universe of registered names, the signals, and the facts read after
the batches before it. The next run replays the batches, checking first that each input a batch's
decision read is the same: the same object (the session keeps unchanged files' records as they
were), or equal in every part the choice reads (`signal_view`, `facts_view`: no line numbers).
Where one differs, the replay stops and the choice is made from the start
(`selection.choose_files`): a batch is only replayed once all it depends on is known unchanged,
so what was replayed is what that run chooses too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, FrozenSet, List, Optional, Sequence, Tuple

from ..config import Config
from ..extract.bindings import Reachers
from ..extract.facts import FileFacts, Literal, Part, Pattern, PatternRef, Ref
from ..project.index import ProjectIndex
from ..project.prefilter import Signals

Read = Tuple[Tuple[str, Optional[FileFacts]], ...]  # (module, the facts the choice read of it), in order
PathsRead = Tuple[str, str, FrozenSet[str]]  # (module, top package, the dotted paths it writes from it)


@dataclass(frozen=True)
class Choice:
    """What one choice read and chose: every input of each decision, and each batch chosen."""

    config: Config
    modules: Tuple[str, ...]  # every readable module, in the index's order
    signals: Tuple[Signals, ...]  # theirs, in that order
    universe: FrozenSet[str]
    initial: FrozenSet[str]  # the modules the index kept in full before the choice
    batches: Tuple[Tuple[str, ...], ...]  # chosen in turn; batch 0: by signals alone
    reads: Tuple[Read, ...]  # after each batch, the facts read to decide the next
    # the dotted paths read from the bytes of files that plainly import a top package of the project
    paths: Tuple[PathsRead, ...] = ()
    # the unchosen modules by what their imports reach (`bindings.Reachers`): built from the signals and paths
    # above, so a replay that holds has them as they were; who reads a subject asks them (`consumers.py`)
    reachers: Optional[Reachers] = None


def replay(last: Optional[Choice], index: ProjectIndex, universe: FrozenSet[str],
           initial: AbstractSet[str]) -> Optional[Choice]:
    """Choose the last run's batches again if every input says so, and return the choice as this run made
    it; None when one differs (some leading batches may then be chosen already: the ones the choice from
    the start chooses first)."""
    if last is None or index.config != last.config or universe != last.universe or initial != last.initial:
        return None
    modules: List[str] = []
    signals: List[Signals] = []
    for module, now in index.signals():
        modules.append(module)
        signals.append(now)
    if tuple(modules) != last.modules:
        return None
    for now, before in zip(signals, last.signals):
        if now is not before and signal_view(now) != signal_view(before):
            return None
    if any(index.dotted_paths(module, head) != paths for module, head, paths in last.paths):
        return None
    reads: List[Read] = []
    for batch, read in zip(last.batches, last.reads):
        index.choose(batch)
        again = tuple((module, index.facts_of(module)) for module, _ in read)
        for (_, now_facts), (_, facts) in zip(again, read):
            if now_facts is not facts and (now_facts is None or facts is None
                                           or facts_view(now_facts) != facts_view(facts)):
                return None
        reads.append(again)
    # the same choice, with this run's objects, which the next run's will be compared to
    return Choice(last.config, last.modules, tuple(signals), universe, last.initial, last.batches, tuple(reads),
                  last.paths, last.reachers)


def signal_view(signals: Signals) -> Tuple[object, ...]:
    """What the choice reads of a file's signals (its model classes' names, not their edges, whose lines move; the
    names it imports, for the lists of classes it may write)."""
    return signals.guarded, signals.registers, signals.quoted, signals.shape_tests, signals.imports, \
        signals.model_types, signals.classes, signals.imported


def facts_view(facts: FileFacts) -> Tuple[object, ...]:
    """What the choice reads of a chosen file's facts: names, values and references, no lines."""
    return (facts.module,
            tuple((name, value) for name, value, _ in facts.constants),
            tuple((c.name, _parts(c.parts)) for c in facts.collections),
            tuple((p.name, _parts(p.tests), tuple((r.module, r.name) for r in p.delegates)) for p in facts.predicates),
            facts.star_imports,
            tuple(local for local, _, _ in facts.imports))


def _parts(parts: Sequence[Part]) -> Tuple[object, ...]:
    return tuple(("literal", tuple(m.name for m in p.members)) if isinstance(p, Literal)
                 else ("ref", p.module, p.name) if isinstance(p, Ref)
                 else ("pattern", p.kind, p.text) if isinstance(p, Pattern)
                 else ("pattern-ref", p.kind, p.ref.module, p.ref.name) if isinstance(p, PatternRef)
                 else ("unknown",) for p in parts)
