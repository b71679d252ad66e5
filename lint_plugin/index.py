"""The project index: facts for every file that can matter, loaded once.

Passes keep the parser away from most files. The first reads bytes (or trusts the
cache), takes registrations from their statements alone and parses files that may
hold guarded or named collections. Once the registered names are known, the second
parses files that quote one of them, and the third files that test or delegate to a
collection, constant or predicate defined in a parsed file. Any other module is parsed
on demand when a parsed file imports a name from it, so references still resolve.
"""
from __future__ import annotations

import os
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

from .cache import CachedFile, IndexCache, digest
from .config import Config
from .discovery import SourceFile
from .extract import extract_file, extract_registrations
from .facts import FileFacts
from .parallel import WorkPool, state
from .prefilter import Prefilter


class ProjectIndex:
    """Facts by module name, with on-demand extraction of modules the passes skipped."""

    def __init__(self, config: Config, files: Iterable[SourceFile],
                 overrides: Optional[Mapping[str, bytes]] = None, cache: Optional[IndexCache] = None) -> None:
        self.config = config
        self.overrides = dict(overrides or {})
        self.cache = cache
        self.unreadable: Dict[str, str] = {}
        self._prefilter = Prefilter(config)
        self._files: Dict[str, SourceFile] = {}
        self._records: Dict[str, CachedFile] = {}  # by module
        # Modules the passes chose, which alone are scanned for facts (whatever else the
        # cache holds), so a warm run sees exactly what a cold run sees.
        self._chosen: Dict[str, bool] = {}  # module -> True: all facts, False: registrations only
        self._dirty = False
        self._by_last: Optional[Dict[str, List[str]]] = None
        self._build(files)

    # -- building -------------------------------------------------------------------
    def _build(self, files: Iterable[SourceFile]) -> None:
        cached = self.cache.load() if self.cache is not None else {}
        pool = WorkPool(_JobState(self.config, self._prefilter))
        try:
            self._pass_one(files, cached, pool)
            # Pass two: files quoting a registered name (any name-shaped string while
            # nothing is registered).
            universe = self.universe | self._qualified_registry_names()
            self._choose_all(pool, [
                module for module, record in self._records.items()
                if record.signals.quoted and (record.signals.quoted & universe if universe else True)
            ])
            # Pass three: files that test or delegate to a collection, constant or
            # predicate defined in a parsed file.
            known = {name for module, full in self._chosen.items() if full
                     for name in _defined_names(self._facts_of(module))}
            self._choose_all(pool, [module for module, record in self._records.items()
                                    if record.signals.referenced & known])
        finally:
            pool.close()

    def _pass_one(self, files: Iterable[SourceFile], cached: Dict[str, CachedFile], pool: WorkPool) -> None:
        """Records for every file (from the cache when fresh); parse what may hold guarded collections."""
        stale: List[tuple] = []
        for source in files:
            if source.module in self._files:
                continue
            self._files[source.module] = source
            entry = cached.get(source.rel)
            if source.rel in self.overrides:
                data = self.overrides[source.rel]
                self._records[source.module] = _scanned(_JobState(self.config, self._prefilter), source, data,
                                                        len(data), 0, None)
                continue
            try:
                stat = os.stat(source.path)
            except OSError as exc:
                self.unreadable[source.rel] = exc.strerror or str(exc)
                continue
            if entry is not None and self.cache is not None and self.cache.is_fresh(entry, stat):
                self._records[source.module] = entry
            else:
                stale.append((source, stat.st_size, stat.st_mtime_ns, entry))
        for (source, _, _, entry), result in zip(stale, pool.map(_scan_worker, stale)):
            if isinstance(result, str):
                self.unreadable[source.rel] = result
                continue
            self._records[source.module] = result
            # a file re-hashed only because its mtime is recent changes nothing to store
            if entry is None or (entry.size, entry.mtime_ns, entry.digest) != (result.size, result.mtime_ns,
                                                                                result.digest):
                self._dirty = True
        for module, record in self._records.items():
            if record.signals.guarded:
                self._chosen[module] = True
            elif record.signals.registers:
                self._chosen.setdefault(module, False)
        self._parse_missing(pool)

    def _choose_all(self, pool: WorkPool, modules: Iterable[str]) -> None:
        for module in modules:
            self._chosen[module] = True
        self._parse_missing(pool)

    def _parse_missing(self, pool: WorkPool) -> None:
        """Facts for chosen files that lack them (full, or registrations only), in parallel."""
        wanted = [self._files[m] for m, full in self._chosen.items()
                  if self._facts_of(m) is None or (full and self._records[m].partial)]
        jobs = [(s.path, s.rel, s.module, s.is_package, self._chosen[s.module], self.overrides.get(s.rel))
                for s in wanted]
        for source, result in zip(wanted, pool.map(_parse_worker, jobs)):
            if isinstance(result, str):
                self.unreadable[source.rel] = result
                continue
            facts, partial = result
            self._store(source, facts, partial)

    def _store(self, source: SourceFile, facts: FileFacts, partial: bool) -> None:
        record = self._records.get(source.module)
        if record is not None:
            self._records[source.module] = CachedFile(record.size, record.mtime_ns, record.digest,
                                                      record.signals, facts, partial)
            self._dirty = True

    # -- queries --------------------------------------------------------------------
    def _qualified_registry_names(self) -> frozenset:
        """Names of `path::NAME` registries, so pass two keeps files that quote them."""
        qualified = [r for r in self.config.registries if "::" in r]
        if not qualified:
            return frozenset()
        from .resolve import Resolver, matches_pattern  # resolve depends on this module

        resolver = Resolver(self)
        return frozenset(
            occurrence.name
            for facts in self.facts for fact in facts.collections
            if matches_pattern(qualified, facts.path, fact.name)
            for occurrence in resolver.collection(facts, fact).members.members
        )

    @property
    def universe(self) -> frozenset:
        """Every name registered by a registry statement or decorator."""
        return frozenset(m.name for f in self.facts for r in f.registrations for m in r.names)

    @property
    def facts(self) -> List[FileFacts]:
        """Facts of the chosen files: what the rules scan (registrations only where chosen so)."""
        found = []
        for module, full in self._chosen.items():
            facts = self._facts_of(module)
            if facts is None:
                continue
            if not full and (facts.collections or facts.predicates or facts.constants):
                facts = FileFacts(facts.path, facts.module, registrations=facts.registrations, error=facts.error)
            found.append(facts)
        return found

    @property
    def parsed(self) -> int:
        """Files whose facts the rules scan in full."""
        return sum(1 for full in self._chosen.values() if full)

    def module(self, name: str) -> Optional[FileFacts]:
        """Complete facts of a module, extracting it now if the passes skipped it."""
        source = self._files.get(name) or self._by_unique_suffix(name)
        if source is None:
            return None
        record = self._records.get(source.module)
        if record is None:
            return FileFacts(source.rel, source.module)
        facts = self._facts_of(source.module)
        if facts is not None and not self._records[source.module].partial:
            return facts
        return self._complete(source)

    def _facts_of(self, module: str) -> Optional[FileFacts]:
        """A record's facts, decoding stored ones on first use."""
        record = self._records[module]
        if record.facts is None and record.encoded is not None:
            record = self._records[module] = record.decoded(self._files[module].rel)
            if record.facts is None:
                self._dirty = True  # dropped undecodable facts: they will be stored again
        return record.facts

    def module_by_path(self) -> Dict[str, str]:
        return {source.rel: module for module, source in self._files.items()}

    def save_cache(self) -> None:
        if self.cache is not None and self._dirty:
            by_path = {self._files[m].rel: r for m, r in self._records.items()
                       if self._files[m].rel not in self.overrides}
            self.cache.save(by_path)

    # -- helpers ----------------------------------------------------------------------
    def _complete(self, source: SourceFile, data: Optional[bytes] = None) -> FileFacts:
        data = self._read(source) if data is None else data
        facts = self._extract(source, data) if data is not None else FileFacts(source.rel, source.module)
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

    def _read(self, source: SourceFile) -> Optional[bytes]:
        if source.rel in self.overrides:
            return self.overrides[source.rel]
        try:
            with open(source.path, "rb") as handle:
                return handle.read()
        except OSError as exc:
            self.unreadable[source.rel] = exc.strerror or str(exc)
            return None

    def _extract(self, source: SourceFile, data: bytes) -> FileFacts:
        return extract_file(data, source.rel, source.module, self.config.registries, source.is_package,
                            self.config.name_pattern)


def _defined_names(facts: FileFacts) -> Iterable[str]:
    yield from (c.name for c in facts.collections)
    yield from (name for name, _, _ in facts.constants)
    yield from (p.name for p in facts.predicates)


class _JobState:
    """What workers need: the configuration and its prefilter (inherited at fork)."""

    def __init__(self, config: Config, prefilter: Prefilter) -> None:
        self.config = config
        self.prefilter = prefilter


def _scan_worker(job: tuple):
    """Read one file: digest, byte signals, and the facts pass one needs (or an error text)."""
    source, size, mtime_ns, entry = job
    try:
        with open(source.path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return exc.strerror or str(exc)
    return _scanned(state(), source, data, size, mtime_ns, entry)


def _scanned(job: "_JobState", source: SourceFile, data: bytes, size: int, mtime_ns: int,
             entry: Optional[CachedFile]) -> CachedFile:
    file_digest = digest(data)
    if entry is not None and entry.digest == file_digest:
        return CachedFile(size, mtime_ns, file_digest, entry.signals, entry.facts, entry.partial, entry.encoded)
    signals = job.prefilter.signals(data)
    facts, partial = None, False
    if signals.guarded or signals.registers:
        facts, partial = _facts_for(job, source, data, full=signals.guarded)
    return CachedFile(size, mtime_ns, file_digest, signals, facts, partial)


def _parse_worker(job: tuple):
    path, rel, module, is_package, full, data = job
    if data is None:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            return exc.strerror or str(exc)
    return _facts_for(state(), SourceFile(path, rel, module, is_package), data, full)


def _facts_for(job: "_JobState", source: SourceFile, data: bytes, full: bool) -> Tuple[FileFacts, bool]:
    """(facts, partial): all facts, or registrations from their statements alone when safe."""
    config = job.config
    if not full:
        snippets = job.prefilter.registration_snippets(data)
        if snippets is not None:
            facts = extract_registrations(snippets, source.rel, source.module, config.registries)
            # aliased class names (`import X as Name`) need the import table: parse it all
            if facts is not None and not any(b" as " + m.name.encode() in data
                                             for r in facts.registrations for m in r.names):
                return facts, True
    return extract_file(data, source.rel, source.module, config.registries, source.is_package,
                        config.name_pattern), False
