"""The project index: one record per file (byte signals, and facts once parsed), loaded once.

The index keeps the parser away from most files. Building it reads every file's bytes
(or trusts the cache), takes registrations from their statements alone, and parses the
files that may hold guarded or named collections. Which other files deserve a full
parse is a policy of the stage above (`resolve.selection`), which calls `choose`. Any
other module is extracted on demand when resolution asks for it (`module`), so
references still resolve.
"""
from __future__ import annotations

import os
from types import TracebackType
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Set, Tuple, Type, Union

from ..config import Config
from ..extract.bindings import Reachers, dotted_paths, may_bind
from ..extract.facts import FileFacts
from .cache import CachedFile, IndexCache
from .codec import encode_facts
from .discovery import SourceFile
from .file_facts import JobState, complete_facts, facts_for, model_type_facts, registrations_alone
from .file_stamp import file_stamp
from .files import Unreadable, digest, read_file
from .git_blobs import WORTH_ASKING, git_index
from .mentions import Counts
from .prefilter import Prefilter, Signals, stored_signals
from .results import TYPED, TYPED_REGISTERED, RecordState, record_key
from .workers import PARSE_WEIGHT, WorkPool, state

_ScanJob = Tuple[SourceFile, int, int, Optional[CachedFile]]
_ParseJob = Tuple[SourceFile, bool, Optional[bytes]]
_TypedJob = Tuple[SourceFile, Optional[bytes]]


class ProjectIndex:
    """Records by module name, with on-demand extraction of modules nothing chose.

    Use it as a context manager while choosing files: the worker pool lives until exit.
    `known` are records a long-lived caller kept from its last run (the language server,
    `project/memory.py`), by path: a file's is taken as its bytes now without a stat (the caller's
    watcher vouches for it); an open buffer's is reused only if its digest is the buffer's.
    """

    def __init__(self, config: Config, files: Iterable[SourceFile],
                 overrides: Optional[Mapping[str, bytes]] = None, cache: Optional[IndexCache] = None,
                 known: Optional[Mapping[str, CachedFile]] = None,
                 known_typed: Optional[Mapping[str, Tuple[str, FileFacts]]] = None) -> None:
        self.config = config
        self.overrides = dict(overrides or {})
        self.cache = cache
        self.unreadable: Dict[str, str] = {}
        self._prefilter = Prefilter(config)
        self._files: Dict[str, SourceFile] = {}
        self._records: Dict[str, CachedFile] = {}  # by module
        # Modules chosen for their facts, which alone are scanned for them (whatever else the
        # cache holds), so a warm run sees exactly what a cold run sees.
        self._chosen: Dict[str, bool] = {}  # module -> True: all facts, False: registrations only
        # What the prefilter's policy keeps, the same way: the files that may matter. Under
        # `--no-prefilter` every file is chosen, and this still says which may matter (ARC902).
        self._candidates: Dict[str, bool] = {}
        self._completed: Set[str] = set()  # modules resolution asked for in full (`module`)
        self._consulted: Set[str] = set()  # modules whose bytes said they bind no name asked of them (`may_define`)
        self._typed: Dict[str, FileFacts] = {}  # modules read for their lists of model types alone (`model_typed`)
        # by path, (digest, counts) of each file the search for readers counted names in (`resolve/consumers.py`):
        # what the run depends on in those bytes, besides their records
        self.mentioned: Dict[str, Tuple[str, Counts]] = {}
        self._facts: Optional[List[FileFacts]] = None  # `facts`, until a file is chosen or its facts change
        self._dirty = False
        self._by_last: Optional[Dict[str, List[str]]] = None
        # Without a cache nothing reads a file's digest: hashing 50 MB was a tenth of a cold scan. A caller
        # that keeps records (`known`) compares them by digest, so its runs always make them.
        self._job = JobState(config, self._prefilter, digests=cache is not None or known is not None)
        self._pool = WorkPool(self._job)
        self._known = known or {}
        # by path, (digest, facts) of the files a kept run read in part for their lists of model types
        self._known_typed = known_typed or {}
        # the modules not chosen, by what their imports reach, when this run's selection built it (not replayed)
        self.reachers: Optional[Reachers] = None
        try:  # before `with` takes over: an error or Ctrl-C in the scan must not leave workers behind
            cached = self.cache.load() if self.cache is not None else {}
            if known_typed is None and self.cache is not None:
                self._known_typed = self.cache.typed  # what the last run that wrote the cache read so
            self._scan(files, cached)
        except BaseException:
            self._pool.close()
            raise

    def __enter__(self) -> "ProjectIndex":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self._pool.close()

    # -- building -------------------------------------------------------------------
    def _scan(self, files: Iterable[SourceFile], cached: Dict[str, CachedFile]) -> None:
        """Records for every file (from the cache when fresh); parse what may hold guarded collections."""
        stale: List[_ScanJob] = []
        stats: Dict[str, os.stat_result] = {}
        for source in files:
            if source.module in self._files:
                continue
            self._files[source.module] = source
            entry = cached.get(source.rel)
            known = self._known.get(source.rel)
            if source.rel in self.overrides:
                data = self.overrides[source.rel]
                self._records[source.module] = _scanned(self._job, source, data, len(data), 0, known)
                continue
            if known is not None:
                self._records[source.module] = known
                continue
            try:
                stat = os.stat(source.path)
            except OSError as exc:
                self.unreadable[source.rel] = exc.strerror or str(exc)
                continue
            if entry is not None and self.cache is not None and self.cache.is_fresh(entry, stat):
                self._records[source.module] = entry
            else:
                stale.append((source, stat.st_size, file_stamp(stat), entry))
                stats[source.rel] = stat
        stale = self._read_unless_git_holds(stale, stats)
        for (source, _, _, entry), result in zip(stale, self._pool.map(_scan_worker, stale, [j[1] for j in stale])):
            if isinstance(result, Unreadable):
                self.unreadable[source.rel] = result.reason
                continue
            self._records[source.module] = result
            # a file re-hashed only because its mtime is recent changes nothing to store
            if entry is None or (entry.size, entry.stamp, entry.digest) != (result.size, result.stamp,
                                                                                result.digest):
                self._dirty = True
        for module, record in self._records.items():
            if record.signals.guarded:
                self._candidates[module] = True
            elif record.signals.registers:
                self._candidates.setdefault(module, False)
        self._chosen = dict(self._candidates) if self.config.prefilter else dict.fromkeys(self._records, True)
        self._parse_missing()

    def _read_unless_git_holds(self, stale: List[_ScanJob], stats: Dict[str, os.stat_result]) -> List[_ScanJob]:
        """The stale files to read: those git does not hold as the bytes their entry was made from (a fresh
        checkout with the cache restored: `git_blobs.py`); the others take their entry under the new stamp."""
        if self.cache is None or len(stale) < WORTH_ASKING:
            return stale
        index = git_index(str(self.config.root))
        if index is None:
            return stale
        unread = []
        for job in stale:
            source, size, stamp, entry = job
            if entry is not None and index.holds(source.rel, stats[source.rel], entry.digest, entry.size):
                self._records[source.module] = CachedFile(size, stamp, entry.digest, entry.signals, entry.facts,
                                                          entry.partial, entry.encoded)
                self._dirty = True  # stored under the new stamp, so the next run trusts it unread
            else:
                unread.append(job)
        return unread

    def choose(self, modules: Iterable[str]) -> None:
        """Read the full facts of these modules (in parallel) and let the rules scan them."""
        for module in modules:
            self._candidates[module] = self._chosen[module] = True
        self._facts = None
        self._parse_missing()

    def _parse_missing(self) -> None:
        """Facts for chosen files that lack them (full, or registrations only)."""
        wanted = [self._files[m] for m, full in self._chosen.items()
                  if self.facts_of(m) is None or (full and self._records[m].partial)]
        jobs: List[_ParseJob] = [(s, self._chosen[s.module], self.overrides.get(s.rel)) for s in wanted]
        costs = [self._records[s.module].size for s in wanted]
        for source, result in zip(wanted, self._pool.map(_parse_worker, jobs, costs, PARSE_WEIGHT)):
            if isinstance(result, Unreadable):
                self.unreadable[source.rel] = result.reason
                continue
            facts, partial = result
            self._store(source, facts, partial)

    def _store(self, source: SourceFile, facts: FileFacts, partial: bool) -> None:
        record = self._records.get(source.module)
        if record is not None:
            self._facts = None
            self._records[source.module] = CachedFile(record.size, record.stamp, record.digest,
                                                      record.signals, facts, partial)
            self._dirty = True

    # -- queries --------------------------------------------------------------------
    def signals(self) -> Iterator[Tuple[str, Signals]]:
        """(module, byte signals) of every readable file, for the policy that chooses files."""
        for module, record in self._records.items():
            yield module, record.signals

    def spelling(self, token: bytes) -> Iterator[Tuple[str, bytes]]:
        """(path, bytes) of each readable file the prefilter found naming a registry (a configured one, or
        one by shape) whose bytes spell `token`: what an error about a `registries` entry quotes."""
        for module, record in self._records.items():
            if record.signals.registers:
                data = self._bytes_of(self._files[module])
                if not isinstance(data, Unreadable) and token in data:
                    yield self._files[module].rel, data

    def is_chosen(self, module: str) -> bool:
        """Was this module chosen for its facts (in full or for its registrations)?"""
        return module in self._chosen

    def is_chosen_whole(self, module: str) -> bool:
        """Was this module chosen for all its facts (not its registrations alone)?"""
        return self._chosen.get(module, False)

    def is_candidate(self, module: str) -> bool:
        """Does the prefilter's policy keep all of this module (whether or not it is in force)?"""
        return self._candidates.get(module, False)

    def meets_parse_error(self, module: str) -> bool:
        """Would the policy meet this module's parse error (ARC902)? It parses all of a module it
        keeps in full, and of one kept for its registrations only what they need."""
        full = self._candidates.get(module)
        if full is None:
            return False
        if full or self.config.prefilter:
            return True  # a registrations-only module has an error only if its statements did not do
        source = self._files[module]
        data = self._bytes_of(source)
        return isinstance(data, Unreadable) or registrations_alone(self._prefilter, self.config, source, data) is None

    @property
    def universe(self) -> FrozenSet[str]:
        """Every name registered in the files the policy keeps, as the policy sees them."""
        table = self._prefilter.table
        return frozenset(name for module in self._candidates for f in (self.facts_of(module),) if f is not None
                         for r in f.registrations for _, _, name in table.registered(r))

    @property
    def facts(self) -> List[FileFacts]:
        """Facts of the chosen files: what the rules scan (registrations only where chosen so)."""
        if self._facts is None:
            self._facts = self._chosen_facts()
        return list(self._facts)

    def _chosen_facts(self) -> List[FileFacts]:
        found = []
        for module in self._records:  # in discovery order, whichever pass chose them
            full = self._chosen.get(module)
            if full is None:
                continue
            facts = self.facts_of(module)
            if facts is None:
                continue
            if not full and (facts.collections or facts.predicates or facts.constants):
                facts = FileFacts(facts.path, facts.module, registrations=facts.registrations, error=facts.error)
            found.append(facts)
        return found

    @property
    def pooled(self) -> bool:
        """Did this index spread its work over worker processes (`workers.WorkPool`)? Never needed
        for a result: a run gives the same records either way."""
        return self._pool.started

    @property
    def parsed(self) -> int:
        """Files whose facts the rules scan in full."""
        return sum(1 for full in self._chosen.values() if full)

    def module(self, name: str) -> Optional[FileFacts]:
        """Complete facts of a module, extracting it now if nothing chose it (a `ModuleSource`)."""
        source = self._files.get(name) or self._by_unique_suffix(name)
        if source is None:
            return None
        if source.module not in self._records:
            return FileFacts(source.rel, source.module)
        self._completed.add(source.module)
        facts = self.facts_of(source.module)
        if facts is not None and not self._records[source.module].partial:
            return facts
        return self._complete(source)

    def model_typed(self, name: str) -> Optional[FileFacts]:
        """Facts of a module not chosen whole, read for its lists of model types alone (`resolve/model_types.py`):
        from its module-level statements and the functions that spell `model_type`, a quarter of the bytes
        of such files, unless all its facts are at hand. The index cache keeps them by digest for the next
        run (`known_typed`); the result cache keys such a module by these facts (`record_states`), so a
        comment appended leaves the stored run standing."""
        source = self._files.get(name)
        if source is None or name not in self._records:
            return None
        facts = self.facts_of(name)
        if facts is not None and not self._records[name].partial:
            return facts
        if name not in self._typed:
            kept = self._known_typed.get(source.rel)
            if kept is not None and kept[0] and kept[0] == self._records[name].digest:
                typed: Optional[FileFacts] = kept[1]  # the same bytes a kept run read so: the same facts
            else:
                data = self._bytes_of(source)
                typed = None if isinstance(data, Unreadable) else model_type_facts(self.config, source, data)
                self._dirty = self._dirty or typed is not None  # the index cache keeps them for the next run
            if typed is None:
                return self.module(name)
            self._typed[name] = typed
        return self._typed[name]

    def read_for_types(self, names: Iterable[str]) -> None:
        """Read these modules for their lists of model types (`model_typed`) in one batch, spread over the
        workers where that pays: asked for one at a time, as the resolver would, they were read in this
        process alone (31 files of SGLang, 0.15 s)."""
        wanted = []
        for name in names:
            source = self._files.get(name)
            if source is None or name not in self._records or name in self._typed:
                continue
            facts = self.facts_of(name)
            kept = self._known_typed.get(source.rel)
            if (facts is not None and not self._records[name].partial) or \
                    (kept is not None and kept[0] and kept[0] == self._records[name].digest):
                continue  # `model_typed` has them at hand
            wanted.append(source)
        jobs: List[_TypedJob] = [(s, self.overrides.get(s.rel)) for s in wanted]
        costs = [self._records[s.module].size for s in wanted]
        for source, result in zip(wanted, self._pool.map(_typed_worker, jobs, costs, PARSE_WEIGHT)):
            if isinstance(result, FileFacts):
                self._typed[source.module] = result
                self._dirty = True  # the index cache keeps them for the next run
            # else unreadable, or its text did not parse: `model_typed` reads it as it would have

    def complete_many(self, wanted: Iterable[Tuple[str, str]]) -> None:
        """Extract in one batch, over the workers where that pays, the modules that resolution is about
        to ask for in full, each to find a name (`(module, name)`) its bytes may bind (as `may_define`
        judges them): asked one at a time as the resolver reaches them, they were extracted in this process
        alone (27 files of SGLang, 60 ms). What resolution asks of each, and so each module's level in the
        result cache's key, is unchanged: a module extracted here and never asked is no dependency."""
        sources: Dict[str, SourceFile] = {}
        for module, name in wanted:
            source = self._recorded(module)
            if source is None or source.module in sources or self._complete_at_hand(source.module):
                continue
            data = self._bytes_of(source)
            if not isinstance(data, Unreadable) and may_bind(data, name):
                sources[source.module] = source
        wanted_sources = list(sources.values())
        jobs: List[_TypedJob] = [(s, self.overrides.get(s.rel)) for s in wanted_sources]
        costs = [self._records[s.module].size for s in wanted_sources]
        for source, result in zip(wanted_sources, self._pool.map(_complete_worker, jobs, costs, PARSE_WEIGHT)):
            if isinstance(result, FileFacts):
                self._store(source, result, partial=False)
            # else unreadable: `module` reads it, and says why, if resolution asks for it

    def facts_at_hand(self, module: str) -> Optional[FileFacts]:
        """A module's complete facts if a run has them already, else None; asks nothing of it."""
        source = self._recorded(module)
        return self.facts_of(source.module) if source is not None and self._complete_at_hand(source.module) else None

    def lookup(self, module: str, name: str) -> Optional[FileFacts]:
        """Facts enough to tell what `module` binds `name` to (`ModuleSource.lookup`): those of a module read
        for its lists of model types alone where they define it (the lists themselves), else all its facts."""
        typed = self._typed.get(module)
        if typed is not None and module not in self._completed and _defines(typed, name):
            return typed
        return self.module(module)

    def may_define(self, module: str, name: str) -> bool:
        """May `module` define a function `name` or import it (`ModuleSource.may_define`)? Asked of its
        bytes only where its facts are not at hand: a module the policy did not choose is not parsed to
        learn that it does not. Such a module is then keyed by its bytes (`record_states`)."""
        source = self._recorded(module)
        if source is None or self._complete_at_hand(source.module):
            return True
        data = self._bytes_of(source)
        if isinstance(data, Unreadable) or may_bind(data, name):
            return True
        self._consulted.add(source.module)
        return False

    def model_class_file(self, module: str, name: str) -> Optional[str]:
        """`ModuleSource.model_class_file`: from the byte signals every record holds (a part of its key)."""
        source = self._recorded(module)
        return source.rel if source is not None and name in self._records[source.module].signals.classes else None

    def _recorded(self, module: str) -> Optional[SourceFile]:
        """The project's file of `module` (or of `src.module`), when the run holds a record of it."""
        source = self._files.get(module) or self._by_unique_suffix(module)
        return source if source is not None and source.module in self._records else None

    def _complete_at_hand(self, module: str) -> bool:
        """Does the record of `module` hold all its facts (decoded or not), not its registrations alone?"""
        record = self._records[module]
        return (record.facts is not None or record.encoded is not None) and not record.partial

    def facts_of(self, module: str) -> Optional[FileFacts]:
        """A record's facts as they are (None before parsing), decoding stored ones on first use."""
        record = self._records[module]
        if record.facts is None and record.encoded is not None:
            record = self._records[module] = record.decoded(self._files[module].rel)
            if record.facts is None:
                self._dirty = True  # dropped undecodable facts: they will be stored again
        return record.facts

    def record_states(self, before: Optional[Mapping[str, RecordState]] = None) -> Dict[str, RecordState]:
        """What this run read from each readable file (by path): the result cache's dependencies.

        A module's level is what was asked of it: its signals alone (0), its registrations (1,
        chosen for them) or all its facts (2, chosen, or reached by resolution). Facts a record
        holds from an earlier run and this one never asked for are no part of its key.
        `before`: the states of the stored run of this code and configuration; a file asked for its
        signals alone, then and now, with the same bytes has the same key (nine files in ten).
        """
        states = {}
        for module, record in self._records.items():
            source = self._files[module]
            if source.rel in self.unreadable or source.rel in self.overrides:
                continue
            level = self._level(module)
            last = before.get(source.rel) if before is not None else None
            if level == 0 and last is not None and last.level == 0 and record.digest and last.digest == record.digest:
                states[source.rel] = RecordState(record.size, record.stamp, record.digest, 0, last.record)
                continue
            facts: Optional[List[Any]] = None
            if level == 3:  # read by its bytes: keyed by them (as `fresh_key` keys them)
                facts = [record.digest]
            elif level in (TYPED, TYPED_REGISTERED):  # read in part for its lists of model types: keyed by those
                registered = self._encoded(record) if level == TYPED_REGISTERED else None
                if level == TYPED_REGISTERED and registered is None:
                    continue
                facts = [registered, encode_facts(self._typed[module])]
            elif level:
                facts = self._encoded(record)
                if facts is None or (level == 2 and record.partial):
                    continue  # asked for and not there: nothing to key it by, so never reused
            partial = record.partial and level not in (3, TYPED)  # 5: partial as its registrations are (1)
            key = record_key(level, stored_signals(record.signals), partial, facts)
            states[source.rel] = RecordState(record.size, record.stamp, record.digest, level, key)
        return states

    def records(self) -> Iterator[Tuple[str, CachedFile, int]]:
        """(path, record, level) of every readable file as this run leaves it, buffers included:
        what a long-lived caller keeps for its next run (`known`), and what this run asked of each."""
        for module, record in self._records.items():
            rel = self._files[module].rel
            if rel not in self.unreadable:
                yield rel, record, self._level(module)

    def _level(self, module: str) -> int:
        """What this run asked of a module: its signals (0), its registrations (1), all its facts (2), or,
        beside at most its registrations, whether its bytes bind a name (3: keyed by its bytes), or its lists
        of model types, read in part (4, and 5 with its registrations)."""
        if self._chosen.get(module) or module in self._completed:
            return 2
        if module in self._consulted:
            return 3
        if module in self._typed:
            return TYPED_REGISTERED if module in self._chosen else TYPED
        return 1 if module in self._chosen else 0

    def typed_facts(self) -> Dict[str, Tuple[str, FileFacts]]:
        """By path, the digest and facts of each module read in part for its lists of model types
        (`model_typed`): what a caller that keeps its runs gives the next one (`known_typed`)."""
        return {self._files[module].rel: (self._records[module].digest, facts) for module, facts in self._typed.items()}

    @staticmethod
    def _encoded(record: CachedFile) -> Optional[List[Any]]:
        """A record's facts as the result cache keys them, or None when it holds none."""
        if record.encoded is not None:
            return record.encoded
        return encode_facts(record.facts) if record.facts is not None else None

    def dotted_paths(self, module: str, head: str) -> FrozenSet[str]:
        """The dotted paths a module's bytes write from its plain import of the top package `head`."""
        source = self._files[module]
        data = self._bytes_of(source)
        return frozenset() if isinstance(data, Unreadable) else dotted_paths(data, head)

    def package(self, module: str) -> str:
        """The package a module's relative imports start from (itself, for a package's `__init__`)."""
        source = self._files[module]
        return module if source.is_package else module.rpartition(".")[0]

    def path_of(self, module: str) -> str:
        """The path of a module of the project, from its root."""
        return self._files[module].rel

    def module_by_path(self) -> Dict[str, str]:
        return {source.rel: module for module, source in self._files.items()}

    def save_cache(self) -> None:
        if self.cache is not None and self._dirty:
            by_path = {self._files[m].rel: r for m, r in self._records.items()
                       if self._files[m].rel not in self.overrides}
            self.cache.save(by_path, self.typed_facts())

    def paths(self) -> Iterator[Tuple[str, SourceFile]]:
        """(path, file) of every file of the project, in the order discovered."""
        for source in self._files.values():
            yield source.rel, source

    def read(self, source: SourceFile) -> Union[bytes, Unreadable]:
        """A file's bytes as the run sees them: an unsaved buffer, else the disk."""
        return self._bytes_of(source)

    def digest_of(self, source: SourceFile) -> str:
        """The digest of a file's bytes as its record holds it, or "" (a run without caches takes none)."""
        record = self._records.get(source.module)
        return record.digest if record is not None else ""

    # -- helpers ----------------------------------------------------------------------
    def _bytes_of(self, source: SourceFile) -> Union[bytes, Unreadable]:
        """A file's bytes: the editor's unsaved buffer, else what is on disk."""
        return self.overrides[source.rel] if source.rel in self.overrides else read_file(source.path)

    def _complete(self, source: SourceFile) -> FileFacts:
        data = self._bytes_of(source)
        if isinstance(data, Unreadable):
            self.unreadable[source.rel] = data.reason
            facts = FileFacts(source.rel, source.module)
        else:
            facts = complete_facts(self._prefilter, self.config, source, data)
        self._store(source, facts, partial=False)
        return facts

    def _by_unique_suffix(self, name: str) -> Optional[SourceFile]:
        """`pkg.mod` when the project only knows it as `src.pkg.mod` (a src layout)."""
        if self._by_last is None:
            self._by_last = {}
            for module in self._files:
                self._by_last.setdefault(module.rsplit(".", 1)[-1], []).append(module)
        suffix = "." + name
        # Only one leading directory may be missing (`src.pkg.mod` for `pkg.mod`), so an
        # outside package (`transformers`) never resolves to a project module of that name.
        candidates = [m for m in self._by_last.get(name.rsplit(".", 1)[-1], ())
                      if m.endswith(suffix) and "." not in m[: -len(suffix)]]
        return self._files[candidates[0]] if len(candidates) == 1 else None


def _defines(facts: FileFacts, name: str) -> bool:
    """Do the facts bind `name`: a collection, a constant, a predicate or an import of that name?"""
    return any(c.name == name for c in facts.collections) or any(c[0] == name for c in facts.constants) \
        or any(p.name == name for p in facts.predicates) or any(local == name for local, _, _ in facts.imports)


def _scan_worker(job: _ScanJob) -> Union[CachedFile, Unreadable]:
    """Read one file: digest, byte signals, and the facts the first pass needs."""
    source, size, stamp, entry = job
    data = read_file(source.path)
    if isinstance(data, Unreadable):
        return data
    return _scanned(state(), source, data, size, stamp, entry)


def _scanned(job: JobState, source: SourceFile, data: bytes, size: int, stamp: int,
             entry: Optional[CachedFile]) -> CachedFile:
    file_digest = digest(data) if job.digests else ""
    if entry is not None and entry.digest == file_digest:
        return CachedFile(size, stamp, file_digest, entry.signals, entry.facts, entry.partial, entry.encoded)
    signals = job.prefilter.signals(data)
    facts: Optional[FileFacts] = None
    partial = False
    if signals.guarded or signals.registers:
        facts, partial = facts_for(job, source, data, full=signals.guarded)
    return CachedFile(size, stamp, file_digest, signals, facts, partial)


def _parse_worker(job: _ParseJob) -> Union[Tuple[FileFacts, bool], Unreadable]:
    source, full, data = job
    read = _buffer_or_disk(source, data)
    return read if isinstance(read, Unreadable) else facts_for(state(), source, read, full)


def _complete_worker(job: _TypedJob) -> Union[FileFacts, Unreadable]:
    source, data = job
    read = _buffer_or_disk(source, data)
    return read if isinstance(read, Unreadable) else complete_facts(state().prefilter, state().config, source, read)


def _typed_worker(job: _TypedJob) -> Union[Optional[FileFacts], Unreadable]:
    source, data = job
    read = _buffer_or_disk(source, data)
    return read if isinstance(read, Unreadable) else model_type_facts(state().config, source, read)


def _buffer_or_disk(source: SourceFile, data: Optional[bytes]) -> Union[bytes, Unreadable]:
    """A job's bytes: the editor's unsaved buffer it carries, else the file on disk."""
    return read_file(source.path) if data is None else data
