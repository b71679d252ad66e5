"""The project index: facts for every file that can matter, loaded once.

Two passes keep the parser away from most files: the first reads bytes, takes
registrations from their statements alone and parses files that may hold guarded
collections; once the registered names are known, the second parses the files that
quote one of them. Any other module is parsed on demand when a kept file imports a
name from it, so cross-module references still resolve.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional, Set

from .config import Config
from .discovery import SourceFile
from .extract import extract_file, extract_registrations
from .facts import FileFacts
from .prefilter import Prefilter


class ProjectIndex:
    """Facts by module name, with on-demand extraction of prefiltered-out modules."""

    def __init__(self, config: Config, files: Iterable[SourceFile],
                 overrides: Optional[Mapping[str, bytes]] = None) -> None:
        self.config = config
        self.overrides = dict(overrides or {})
        self.unreadable: Dict[str, str] = {}
        self._files: Dict[str, SourceFile] = {}
        self._facts: Dict[str, FileFacts] = {}
        self._partial: Set[str] = set()  # modules holding registrations only
        self._by_suffix: Optional[Dict[str, List[str]]] = None
        self._build(files)

    def _build(self, files: Iterable[SourceFile]) -> None:
        prefilter = Prefilter(self.config)
        quoting: Dict[str, frozenset] = {}
        referencing: Dict[str, frozenset] = {}
        for source in files:
            self._files.setdefault(source.module, source)
            data = self._read(source)
            if data is None:
                continue
            signals = prefilter.signals(data)
            if signals.guarded:
                self._facts[source.module] = self._extract(source, data)
                continue
            if signals.registers:
                self._facts[source.module] = self._registrations(prefilter, source, data)
            if signals.quoted:
                quoting[source.module] = signals.quoted
            referenced = prefilter.referenced(data)
            if referenced:
                referencing[source.module] = referenced
        # Pass two: files quoting a registered name (any name-shaped string while
        # nothing is registered).
        universe = self.universe | self._qualified_registry_names()
        for module, quoted in quoting.items():
            if (quoted & universe if universe else quoted) and self._is_pending(module):
                self._complete(self._files[module])
        # Pass three: files that test or delegate to a collection,
        # constant or predicate defined in a parsed file.
        known = {name for facts in self._facts.values() if facts.module not in self._partial
                 for name in _defined_names(facts)}
        for module, referenced in referencing.items():
            if referenced & known and self._is_pending(module):
                self._complete(self._files[module])

    def _is_pending(self, module: str) -> bool:
        return module not in self._facts or module in self._partial

    def _registrations(self, prefilter: Prefilter, source: SourceFile, data: bytes) -> FileFacts:
        snippets = prefilter.registration_snippets(data)
        facts = None
        if snippets is not None:
            facts = extract_registrations(snippets, source.rel, source.module, self.config.registries)
        if facts is None or any(b" as " + m.name.encode() in data for r in facts.registrations for m in r.names):
            return self._extract(source, data)  # aliased class names need the import table
        self._partial.add(source.module)
        return facts

    def _qualified_registry_names(self) -> frozenset:
        """Names of `path::NAME` registries, so pass two keeps files that quote them."""
        qualified = [r for r in self.config.registries if "::" in r]
        if not qualified:
            return frozenset()
        from .resolve import Resolver, matches_pattern  # resolve depends on this module

        resolver = Resolver(self)
        return frozenset(
            occurrence.name
            for facts in list(self._facts.values()) for fact in facts.collections
            if matches_pattern(qualified, facts.path, fact.name)
            for occurrence in resolver.collection(facts, fact).members.members
        )

    @property
    def universe(self) -> frozenset:
        """Every registered architecture name."""
        return frozenset(m.name for f in self._facts.values() for r in f.registrations for m in r.names)

    @property
    def facts(self) -> List[FileFacts]:
        """Facts of every file extracted so far."""
        return list(self._facts.values())

    def module(self, name: str) -> Optional[FileFacts]:
        """Complete facts of a module, extracting it now if the passes skipped it."""
        found = self._facts.get(name)
        if found is not None and name not in self._partial:
            return found
        source = self._files.get(name) or self._by_unique_suffix(name)
        if source is None:
            return None
        if source.module in self._facts and source.module not in self._partial:
            return self._facts[source.module]
        return self._complete(source)

    def _complete(self, source: SourceFile) -> FileFacts:
        data = self._read(source)
        facts = self._extract(source, data) if data is not None else FileFacts(source.rel, source.module)
        self._facts[source.module] = facts
        self._partial.discard(source.module)
        return facts

    def _by_unique_suffix(self, name: str) -> Optional[SourceFile]:
        """`pkg.mod` when the project only knows it as `src.pkg.mod` (a src layout)."""
        if self._by_suffix is None:
            self._by_suffix = {}
            for module in self._files:
                parts = module.split(".")
                for i in range(1, len(parts)):
                    self._by_suffix.setdefault(".".join(parts[i:]), []).append(module)
        candidates = self._by_suffix.get(name, [])
        return self._files[candidates[0]] if len(candidates) == 1 else None

    def _read(self, source: SourceFile) -> Optional[bytes]:
        if source.rel in self.overrides:
            return self.overrides[source.rel]
        try:
            return source.path.read_bytes()
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
