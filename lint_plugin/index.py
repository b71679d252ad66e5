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
from typing import Dict, Iterable, List, Mapping, Optional

from .cache import CachedFile, IndexCache, digest
from .config import Config
from .discovery import SourceFile
from .extract import extract_file, extract_registrations
from .facts import FileFacts
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
        for source in files:
            if source.module in self._files:
                continue
            self._files[source.module] = source
            record = self._record(source, cached.get(source.rel))
            if record is None:
                continue
            self._records[source.module] = record
            if record.signals.guarded:
                self._choose(source, full=True)
            elif record.signals.registers:
                self._choose(source, full=False)
        # Pass two: files quoting a registered name (any name-shaped string while
        # nothing is registered).
        universe = self.universe | self._qualified_registry_names()
        for module, record in list(self._records.items()):
            quoted = record.signals.quoted
            if quoted and (quoted & universe if universe else True):
                self._choose(self._files[module], full=True)
        # Pass three: files that test or delegate to a collection, constant or
        # predicate defined in a parsed file.
        known = {name for module, full in self._chosen.items() if full
                 for name in _defined_names(self._records[module].facts)}
        for module, record in list(self._records.items()):
            if record.signals.referenced & known:
                self._choose(self._files[module], full=True)

    def _choose(self, source: SourceFile, full: bool) -> None:
        if self._chosen.get(source.module):
            return
        self._chosen[source.module] = full
        record = self._records[source.module]
        if full and (record.facts is None or record.partial):
            self._complete(source)
        elif not full and record.facts is None:
            self._registrations(source)

    def _record(self, source: SourceFile, entry: Optional[CachedFile]) -> Optional[CachedFile]:
        """This file's cache record: reused when its bytes are unchanged, else made anew."""
        if source.rel in self.overrides:
            data = self.overrides[source.rel]
            return CachedFile(len(data), 0, digest(data), self._prefilter.signals(data))
        try:
            stat = os.stat(source.path)
        except OSError as exc:
            self.unreadable[source.rel] = exc.strerror or str(exc)
            return None
        if entry is not None and self.cache is not None and self.cache.is_fresh(entry, stat):
            return entry
        data = self._read(source)
        if data is None:
            return None
        self._dirty = True
        file_digest = digest(data)
        if entry is not None and entry.digest == file_digest:
            return CachedFile(stat.st_size, stat.st_mtime_ns, file_digest, entry.signals, entry.facts, entry.partial)
        return CachedFile(stat.st_size, stat.st_mtime_ns, file_digest, self._prefilter.signals(data))

    def _registrations(self, source: SourceFile) -> None:
        """Registrations from their statements alone when safe (a partial record), else a full parse."""
        data = self._read(source) or b""
        snippets = self._prefilter.registration_snippets(data)
        facts = None
        if snippets is not None:
            facts = extract_registrations(snippets, source.rel, source.module, self.config.registries)
        if facts is None or any(b" as " + m.name.encode() in data for r in facts.registrations for m in r.names):
            self._complete(source, data)  # aliased class names need the import table
        else:
            self._store(source, facts, partial=True)

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
            facts = self._records[module].facts
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
        if record.facts is not None and not record.partial:
            return record.facts
        return self._complete(source)

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
