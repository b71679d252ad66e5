"""The project index: facts for every file that can matter, loaded once.

Files the byte prefilter drops are remembered and parsed only if another file imports
a name from them, so cross-module references still resolve.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional

from .config import Config
from .discovery import SourceFile
from .extract import extract_file
from .facts import FileFacts
from .prefilter import make_prefilter


class ProjectIndex:
    """Facts by module name, with on-demand extraction of prefiltered-out modules."""

    def __init__(self, config: Config, files: Iterable[SourceFile],
                 overrides: Optional[Mapping[str, bytes]] = None) -> None:
        self.config = config
        self.overrides = dict(overrides or {})
        self._files: Dict[str, SourceFile] = {}
        self._facts: Dict[str, FileFacts] = {}
        self.unreadable: Dict[str, str] = {}
        keep = make_prefilter(config)
        for source in files:
            self._files.setdefault(source.module, source)
            data = self._read(source)
            if data is not None and keep(data):
                self._facts[source.module] = self._extract(source, data)
        self._by_suffix: Optional[Dict[str, List[str]]] = None

    @property
    def facts(self) -> List[FileFacts]:
        """Facts of every file extracted so far (prefilter survivors first)."""
        return list(self._facts.values())

    def module(self, name: str) -> Optional[FileFacts]:
        """Facts of a module, extracting it now if the prefilter skipped it."""
        found = self._facts.get(name)
        if found is not None:
            return found
        source = self._files.get(name) or self._by_unique_suffix(name)
        if source is None:
            return None
        if source.module in self._facts:
            return self._facts[source.module]
        data = self._read(source)
        facts = self._extract(source, data) if data is not None else FileFacts(source.rel, source.module)
        self._facts[source.module] = facts
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
        return extract_file(data, source.rel, source.module, self.config.registries, source.is_package)
