"""What the language server keeps of one project between checks, so an edit costs what it changed.

Each check reports what `archsync check` reports on the same bytes (the open buffers saved), as
a run of `pipeline.run` would, but from what the last check left rather than from disk:

- the configuration, read again when pyproject.toml's stamp changes;
- the discovered files, walked again when the set of files the watcher stamps changes (a file
  created or deleted);
- every file's record, decoded (`project/kept.py`), read again when its stamp changes, and an
  open buffer's when its text does; the index cache on disk is read by the first check only;
- the last run itself: when every file that changed since gives the record the run had, at the
  level the run asked of it (a comment, a function body the record holds nothing of), the rules
  would find what they found, and only the report stage runs again (it reads the buffers'
  `# noqa` comments). The result cache makes the same judgement on disk (`project/results.py`);
- when the run is needed, the last run's resolution: each collection and predicate it resolved,
  taken again while every module it read gives the same facts (`resolve/kept.py`), so an edit
  that moves a file's lines re-resolves only what was resolved through that file;
- the files the last run chose and its kinship, taken again while what they read is the same, the
  lines of class edges and config uses aside (`resolve/kept_choice.py`, `resolve/kept_kinship.py`);
  ARC105 keeps each subject's findings itself, by what they read (`rules/kin_kept.py`);
- the `# noqa` lookups of the last report, by file text (`report/noqa_kept.py`).

The stamps come from the server's watcher (`project/stamps.py`, updated by its poll and the
client's events), so a check trusts what the watcher last saw: a change on disk it has not seen
yet is seen at its next poll, which checks again. Without a watcher each check stamps the
project itself (a walk and a stat of every file), which is still cheaper than a run.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple

from .config import Config, load_config
from .diagnostics import Diagnostic
from .pipeline import Report, analyse
from .project.cache import CachedFile, IndexCache
from .project.discovery import SourceFile, discover, with_unsaved
from .project.file_facts import JobState, facts_for
from .project.files import Unreadable, digest, read_file
from .project.kept import KeptRecords
from .project.listing import shared
from .project.prefilter import Prefilter
from .project.stamps import PYPROJECT, Stamp, stamp
from .project.universe import Universe, read_universe
from .report.noqa_kept import KeptRanges
from .report.stage import report
from .resolve.kept import KeptResolutions
from .resolve.kept_choice import KeptChoice
from .resolve.kept_kinship import KeptKinship
from .rules.codes import CODES


@dataclass(frozen=True)
class _LastRun:
    """What the last full run read and found: enough to tell whether a new run would find the same."""

    rels: Tuple[str, ...]  # the files it read, in discovery order (unsaved buffers included)
    universe: Universe
    records: Dict[str, CachedFile]  # by path, as the run left them (buffers' by their text)
    levels: Mapping[str, int]  # by path: what the run asked of each file (`ProjectIndex.records`)
    found: Tuple[Diagnostic, ...]  # what the rules found, before the report stage
    report: Report


class Session:
    """One project, checked again and again with the editor's buffers standing in for files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._config: Optional[Config] = None
        self._fingerprint = ""  # the configuration's, which the kept records and the last run were made under
        self._pyproject: Optional[Stamp] = None  # pyproject.toml's stamp when the configuration was read
        self._files: Optional[List[SourceFile]] = None
        self._watched: Mapping[str, Stamp] = {}  # the stamps the files were discovered under
        self._kept = KeptRecords()
        self._last: Optional[_LastRun] = None
        self._ranges = KeptRanges()  # the noqa lookups of the last report: its files seldom change
        self._resolutions = KeptResolutions()  # the last run's resolution, by what each result read
        self._choice = KeptChoice()  # the files the last run chose, by what each choice read
        self._kinship = KeptKinship()  # the last run's kinship, by the signals it read

    def check(self, overrides: Mapping[str, bytes], stamps: Optional[Mapping[str, Stamp]] = None) -> Report:
        """The project's report with `overrides` standing in for files; may raise ConfigError.

        `stamps` are the watcher's latest (`project/stamps.stamps`), pyproject.toml's included;
        None when nothing watches the files, and then the project is stamped now.
        """
        with shared():
            config, files, now = self._inputs(stamps)
        files = with_unsaved(config, files, overrides)  # a new buffer is analysed before it is saved
        universe = read_universe(config)
        known = self._kept.known(files, overrides, now)
        again = self._again(config, files, overrides, universe, known, now)
        if again is not None:
            return again
        self._last = None
        cache = IndexCache(config.root, config.cache_dir, self._fingerprint) \
            if not self._kept and (self.root / PYPROJECT).is_file() else None  # the first run reads the disk cache
        done = analyse(config, files, overrides, cache, universe, known=known, ranges=self._ranges,
                       resolutions=self._resolutions, choice=self._choice, kinship=self._kinship)
        records: Dict[str, CachedFile] = {}
        levels: Dict[str, int] = {}
        for rel, record, level in done.index.records():
            records[rel], levels[rel] = record, level
        self._kept.keep(records.items(), overrides, now)
        self._last = _LastRun(tuple(f.rel for f in files), universe, records, levels, done.found, done.report)
        if cache is not None and cache.warnings:
            return dataclasses.replace(done.report, warnings=tuple(cache.warnings) + done.report.warnings)
        return done.report

    # -- inputs -------------------------------------------------------------------------------

    def _inputs(self, stamps: Optional[Mapping[str, Stamp]]) -> Tuple[Config, List[SourceFile], Mapping[str, Stamp]]:
        """The configuration, the files and their stamps: kept while the stamps say nothing changed.

        pyproject.toml is stamped by each check (one stat): a configuration saved a moment ago counts
        at once, as the file a check starts from. Each stamp is taken before what it stamps is read.
        """
        pyproject = stamp(self.root / PYPROJECT)
        config = self._configured(pyproject)
        now: Mapping[str, Stamp]
        if stamps is None:
            files = discover(config)
            now = {f.rel: s for f in files for s in (stamp(f.path),) if s is not None}
        else:
            if self._files is None or stamps.keys() != self._watched.keys():
                self._files, self._watched = discover(config), stamps  # a file created or deleted
            files, now = self._files, stamps
        return config, files, now

    def _configured(self, pyproject: Optional[Stamp]) -> Config:
        """The configuration, read again when pyproject.toml changed; another one forgets every record."""
        if self._config is not None and pyproject == self._pyproject:
            return self._config
        self._config = None
        config = load_config(self.root, CODES)
        fingerprint = config.fingerprint()
        if fingerprint != self._fingerprint:  # every record may read otherwise: the next run reads them all
            self._kept.clear()
            self._resolutions.clear()
            self._choice.clear()
            self._kinship.clear()
            self._last = None
            self._fingerprint = fingerprint
        self._config, self._pyproject, self._files = config, pyproject, None
        return config

    # -- the last run again ---------------------------------------------------------------------

    def _again(self, config: Config, files: List[SourceFile], overrides: Mapping[str, bytes], universe: Universe,
               known: Dict[str, CachedFile], now: Mapping[str, Stamp]) -> Optional[Report]:
        """The last run's findings, reported again, if every file still gives the records it read.

        A record it made for nothing (the file reads otherwise) is left in `known` for the run."""
        last = self._last
        # without the prefilter, ARC902 is judged from the bytes of more files than their records say
        if last is None or not config.prefilter or last.universe != universe \
                or tuple(f.rel for f in files) != last.rels:
            return None
        prefilter: Optional[Prefilter] = None
        records = dict(last.records)
        for source in files:
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
            record, same = _record_again(config, prefilter, source, data, data_digest, before,
                                         last.levels[source.rel])
            if not same:
                known[source.rel] = record  # the run that follows need not read it again
                return None
            records[source.rel] = record
        self._last = dataclasses.replace(last, records=records)
        self._kept.keep(records.items(), overrides, now)
        # it reads the buffers' noqa comments again (the other files' as the last report left them)
        diagnostics = report(last.found, config, overrides, kept=self._ranges)
        return dataclasses.replace(last.report, config=config, diagnostics=diagnostics, reused=True)


def _record_again(config: Config, prefilter: Prefilter, source: SourceFile, data: bytes, data_digest: str,
                  before: CachedFile, level: int) -> Tuple[CachedFile, bool]:
    """The record of `data` as far as `level` reads it (signals, then registrations or all facts), and
    whether it is `before`'s that far: then the run that read `before` would read this one alike."""
    signals = prefilter.signals(data)
    if level == 0:
        return CachedFile(len(data), 0, data_digest, signals), signals == before.signals
    facts, partial = facts_for(JobState(config, prefilter), source, data, full=level == 2)
    old = before.decoded(source.rel)
    if signals == old.signals and partial == old.partial and facts == old.facts:
        return CachedFile(len(data), 0, data_digest, old.signals, old.facts, old.partial, old.encoded), True
    return CachedFile(len(data), 0, data_digest, signals, facts, partial), False
