"""What the language server keeps of one project between checks, so an edit costs what it changed.

Each check reports what `archsync check` reports on the same bytes (the open buffers saved), as
a run of `pipeline.run` would, but from what the last check left rather than from disk:

- the configuration, read again when pyproject.toml's stamp changes;
- the discovered files, walked again when the set of files the watcher stamps changes (a file
  created or deleted);
- every file's record, decoded (`project/memory.py`), read again when its stamp changes, and an
  open buffer's when its text does; the index cache on disk is read by the first check only;
- the last run itself: when every file that changed since gives the record the run had, at the
  level the run asked of it (a comment, a function body the record holds nothing of), the rules
  would find what they found, and only the report stage runs again (it reads the buffers'
  `# noqa` comments). The result cache makes the same judgement on disk (`project/results.py`);
- when the run is needed, the last run's resolution: each collection and predicate it resolved,
  taken again while every module it read gives the same facts (`resolve/memory_resolutions.py`),
  so an edit that moves a file's lines re-resolves only what was resolved through that file;
- the files the last run chose and its kinship, taken again while what they read is the same, the
  lines of class edges and config uses aside (`resolve/memory_choice.py`, `resolve/memory_kinship.py`);
  ARC105's findings per subject, by what they read (`rules/memory_arc105.py`);
- the `# noqa` lookups of the last report, by file text (`report/memory_noqa.py`).

All of it is one value, `_State`: the configuration and files it was read under, and the run's
memory (`pipeline/memory.py`), which each check takes and replaces.

The stamps come from the server's watcher (`project/stamps.py`, updated by its poll and the
client's events), so a check trusts what the watcher last saw: a change on disk it has not seen
yet is seen at its next poll, which checks again. Without a watcher each check stamps the
project itself (a walk and a stat of every file), which is still cheaper than a run.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple

from .config import Config, load_config
from .extract.facts import FileFacts
from .pipeline import Inputs, OnDisk, Report, RunMemory, analyse
from .project.cache import CachedFile, IndexCache
from .project.discovery import SourceFile, discover, with_unsaved
from .project.file_facts import JobState, facts_for, model_type_facts
from .project.files import Unreadable, digest, read_file
from .project.listing import shared
from .project.memory import RecordMemory
from .project.mentions import stand
from .project.prefilter import Prefilter
from .project.results import TYPED, TYPED_REGISTERED
from .project.stamps import PYPROJECT, Stamp, stamp
from .project.universe import read_universe
from .report.stage import report_again
from .rules.codes import CODES


@dataclass(frozen=True)
class _State:
    """What a session keeps of its project between checks: the configuration and the files it was
    read under, and what the last run left (`RunMemory`)."""

    config: Optional[Config] = None
    fingerprint: str = ""  # the configuration's, which the memory was made under
    pyproject: Optional[Stamp] = None  # pyproject.toml's stamp when the configuration was read
    files: Optional[Tuple[SourceFile, ...]] = None  # as discovered, while the watcher's set of files holds
    watched: Mapping[str, Stamp] = field(default_factory=dict)  # the stamps the files were discovered under
    memory: RunMemory = RunMemory()


class Session:
    """One project, checked again and again with the editor's buffers standing in for files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._state = _State()

    def check(self, overrides: Mapping[str, bytes], stamps: Optional[Mapping[str, Stamp]] = None) -> Report:
        """The project's report with `overrides` standing in for files; may raise ConfigError.

        `stamps` are the watcher's latest (`project/stamps.stamps`), pyproject.toml's included;
        None when nothing watches the files, and then the project is stamped now.
        """
        with shared():
            state, files, now = self._inputs(self._state, stamps)
        self._state = state
        config = state.config
        assert config is not None
        files = with_unsaved(config, files, overrides)  # a new buffer is analysed before it is saved
        inputs = Inputs(config, tuple(files), read_universe(config), overrides, stamps=now)
        memory = state.memory
        records = memory.records or RecordMemory()
        known = records.known(files, overrides, now)
        again = _again(inputs, memory, known)
        if again is not None:
            self._state = dataclasses.replace(state, memory=again[1])
            return again[0]
        # the first run reads the disk cache
        cache = IndexCache(config.root, config.cache_dir, state.fingerprint) \
            if not records and (self.root / PYPROJECT).is_file() else None
        memory = dataclasses.replace(memory, last=None)
        self._state = dataclasses.replace(state, memory=memory)  # a run that fails leaves no last run to repeat
        done = analyse(inputs, memory, OnDisk(cache), known)  # with the records `_again` made of edited files
        assert done.memory is not None
        self._state = dataclasses.replace(state, memory=done.memory)
        return done.report

    # -- inputs -------------------------------------------------------------------------------

    def _inputs(self, state: _State, stamps: Optional[Mapping[str, Stamp]]
                ) -> Tuple[_State, List[SourceFile], Mapping[str, Stamp]]:
        """The configuration, the files and their stamps: kept while the stamps say nothing changed.

        pyproject.toml is stamped by each check (one stat): a configuration saved a moment ago counts
        at once, as the file a check starts from. Each stamp is taken before what it stamps is read.
        """
        state = self._configured(state, stamp(self.root / PYPROJECT))
        assert state.config is not None
        now: Mapping[str, Stamp]
        if stamps is None:
            files = discover(state.config)
            now = {f.rel: s for f in files for s in (stamp(f.path),) if s is not None}
        else:
            if state.files is None or stamps.keys() != state.watched.keys():  # a file created or deleted
                state = dataclasses.replace(state, files=tuple(discover(state.config)), watched=stamps)
            assert state.files is not None
            files, now = list(state.files), stamps
        return state, files, now

    def _configured(self, state: _State, pyproject: Optional[Stamp]) -> _State:
        """The configuration, read again when pyproject.toml changed; another one forgets the memory."""
        if state.config is not None and pyproject == state.pyproject:
            return state
        self._state = state = dataclasses.replace(state, config=None)  # a configuration that fails to load is no one
        config = load_config(self.root, CODES)
        fingerprint = config.fingerprint()
        if fingerprint != state.fingerprint:  # every record may read otherwise: the next run reads them all
            state = dataclasses.replace(state, memory=RunMemory(), fingerprint=fingerprint)
        return dataclasses.replace(state, config=config, pyproject=pyproject, files=None)


# -- the last run again ---------------------------------------------------------------------

def _again(inputs: Inputs, memory: RunMemory, known: Dict[str, CachedFile]) -> Optional[Tuple[Report, RunMemory]]:
    """The last run's findings, reported again, if every file still gives the records it read; with the
    memory that leaves. A record it made for nothing (the file reads otherwise) is left in `known`."""
    last, config, overrides = memory.last, inputs.config, inputs.overrides
    # without the prefilter, ARC902 is judged from the bytes of more files than their records say
    if last is None or not config.prefilter or last.universe != inputs.universe \
            or tuple(f.rel for f in inputs.files) != last.rels:
        return None
    prefilter: Optional[Prefilter] = None
    records = dict(last.records)
    typed = dict(memory.records.typed) if memory.records is not None else {}
    counted_in = memory.resolve.mentions if memory.resolve is not None else {}  # what the last run's reader search read
    for source in inputs.files:
        before = records.get(source.rel)
        if before is None:
            return None  # unreadable last time
        data = overrides.get(source.rel)
        if data is None:
            trusted = known.get(source.rel)
            if trusted is not None and trusted.digest == before.digest:
                continue
            read = read_file(source.path)  # changed on disk (or its buffer closed): what does it hold now?
            if isinstance(read, Unreadable):
                return None
            data = read
        data_digest = digest(data)
        if data_digest == before.digest:
            continue  # the bytes the run read (a file touched, an edit undone)
        prefilter = prefilter or Prefilter(config)
        kept = typed.get(source.rel)
        record, same = _record_again(config, prefilter, source, data, data_digest, before, last.levels[source.rel],
                                     kept[1] if kept is not None else None)
        if not same or not stand(data, counted_in.get(source.rel, ("", ()))[1]):  # a subject's reader came or went
            known[source.rel] = record  # the run that follows need not read it again
            return None
        records[source.rel] = record
        if kept is not None:
            typed[source.rel] = (data_digest, kept[1])  # these bytes read as those did
    # it reads the buffers' noqa comments again (the other files' as the last report left them)
    from .report.memory_noqa import NoqaMemory

    diagnostics, noqa = report_again(last.found, config, overrides, True, memory.noqa or NoqaMemory())
    stamps = inputs.stamps or {}
    left = dataclasses.replace(memory, records=(memory.records or RecordMemory()).after(records.items(), overrides,
                                                                                         stamps, typed),
                               noqa=noqa, last=dataclasses.replace(last, records=records))
    return dataclasses.replace(last.report, config=config, diagnostics=diagnostics, reused=True), left


def _record_again(config: Config, prefilter: Prefilter, source: SourceFile, data: bytes, data_digest: str,
                  before: CachedFile, level: int, typed: Optional[FileFacts] = None) -> Tuple[CachedFile, bool]:
    """The record of `data` as far as `level` reads it (signals, then registrations or all facts, and the
    lists of model types the last run read in part, `typed`), and whether it is `before`'s that far: then the
    run that read `before` would read this one alike."""
    signals = prefilter.signals(data)
    if level in (TYPED, TYPED_REGISTERED) and model_type_facts(config, source, data) != typed:
        return CachedFile(len(data), 0, data_digest, signals), False
    if level in (0, TYPED):
        return CachedFile(len(data), 0, data_digest, signals), signals == before.signals
    facts, partial = facts_for(JobState(config, prefilter), source, data, full=level == 2)
    old = before.decoded(source.rel)
    if signals == old.signals and partial == old.partial and facts == old.facts:
        return CachedFile(len(data), 0, data_digest, old.signals, old.facts, old.partial, old.encoded), True
    return CachedFile(len(data), 0, data_digest, signals, facts, partial), False
