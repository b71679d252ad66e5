"""The validated settings of one project: `Config` and the contracts it declares.

Plain frozen values: every stage reads them, none changes them, and `fingerprint()`
binds caches to everything that can change a result.
"""
from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Tuple

DEFAULT_NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"
DEFAULT_SIBLINGS = (("ForConditionalGeneration", "ForCausalLM"),)


class ConfigError(Exception):
    """A configuration problem the user must fix; the message says where."""


class UnresolvedName(ConfigError):
    """A contract names a collection or predicate the project holds none (or several) of.

    `where` is the key that names it (`pyproject.toml: tool.archsync.mirror[0].collections`):
    a copy of the project at another revision may leave that one contract out (`leaving_out`).
    """

    def __init__(self, message: str, where: str, name: str) -> None:
        super().__init__(message)
        self.where = where
        self.name = name


@dataclass(frozen=True)
class Mirror:
    """Collections that must hold the same names (optionally only those of `families`)."""

    collections: Tuple[str, ...]
    families: Tuple[str, ...]
    origin: str  # "file: key path", for messages


@dataclass(frozen=True)
class Cover:
    """Every name of each family must be in each collection (ARC101, without the overlap test)."""

    collections: Tuple[str, ...]
    families: Tuple[str, ...]
    origin: str


@dataclass(frozen=True)
class Subset:
    """Every name in `of` must be in `into` (a collection, or "registered")."""

    of: str
    into: str
    origin: str


@dataclass(frozen=True)
class Exemption:
    """A deliberate difference, recorded with its reason."""

    subject: str
    members: Tuple[str, ...]
    codes: Tuple[str, ...]
    reason: str
    origin: str
    line: int  # line of its table in `origin`'s file (1 when unknown)
    from_pack: bool


DEFAULT_REGISTRIES = ("EntryClass",)


@dataclass(frozen=True)
class Config:
    """Validated settings; every field has a working default."""

    root: Path
    src: Tuple[str, ...] = (".",)
    exclude: Tuple[str, ...] = ()
    guard: Tuple[str, ...] = ("*_ARCHS",)
    # False until the configuration sets `guard`: then the guard globs alone name the subjects,
    # instead of `*_ARCHS` plus every collection that holds a registered name
    guard_set: bool = False
    families: Tuple[str, ...] = ()
    registries: Tuple[str, ...] = DEFAULT_REGISTRIES  # `registries` adds to these ("!EntryClass" drops it)
    name_pattern: str = DEFAULT_NAME_PATTERN
    cache_dir: str = ".archsync_cache"
    config_maps: Tuple[str, ...] = ()  # `path.py::NAME` dicts from architecture name to config class
    universe_from: Tuple[str, ...] = ()  # installed packages (or paths) whose registrations count as registered
    siblings: Tuple[Tuple[str, str], ...] = DEFAULT_SIBLINGS
    extends: Tuple[str, ...] = ()
    mirrors: Tuple[Mirror, ...] = ()
    covers: Tuple[Cover, ...] = ()
    subsets: Tuple[Subset, ...] = ()
    exemptions: Tuple[Exemption, ...] = ()
    prefilter: bool = True  # False (`--no-prefilter`): parse every file; the results must not change
    kinship: str = "strong"  # ARC105: "strong" evidence only, "all" of it, or "off"
    select: Tuple[str, ...] = ()  # codes or prefixes reported project-wide (empty: all)
    ignore: Tuple[str, ...] = ()  # codes or prefixes never reported, by any front end
    source: str = field(default="defaults", compare=False)
    # the list settings the project's own table gives (not its packs): held to matching something
    stated: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()

    @property
    def name_regex(self) -> "re.Pattern[str]":
        return re.compile(self.name_pattern)

    @property
    def qualified_registries(self) -> Tuple[str, ...]:
        """Registries named `path.py::NAME`: collections whose names are registered."""
        return tuple(r for r in self.registries if "::" in r and not r.startswith("!"))

    @property
    def named_collections(self) -> Tuple[str, ...]:
        """Collection names the configuration refers to (kept by the prefilter)."""
        names = [c for m in self.mirrors for c in m.collections] + [c for v in self.covers for c in v.collections]
        names += [s.of for s in self.subsets] + [s.into for s in self.subsets if s.into != "registered"]
        return tuple(dict.fromkeys(names))

    @property
    def named_families(self) -> Tuple[str, ...]:
        """Predicates the configuration names (`families`, covers, scoped mirrors)."""
        names = [f for f in self.families if not f.startswith("!")] + [f for v in self.covers for f in v.families]
        names += [f for m in self.mirrors for f in m.families]
        return tuple(dict.fromkeys(names))

    def leaving_out(self, missing: UnresolvedName) -> "Config":
        """This configuration without the contract (or qualified registry) that `missing` is about."""
        def kept(origin: str) -> bool:
            return not missing.where.startswith(origin + ".")

        registry = missing.where.endswith("tool.archsync.registries")
        return dataclasses.replace(
            self, mirrors=tuple(m for m in self.mirrors if kept(m.origin)),
            covers=tuple(c for c in self.covers if kept(c.origin)),
            subsets=tuple(s for s in self.subsets if kept(s.origin)),
            registries=tuple(r for r in self.registries if not (registry and r == missing.name)))

    def fingerprint(self) -> str:
        """A stable digest of everything that affects results (for caches)."""
        import hashlib  # here, as for every digest: a run without caches needs none, nor OpenSSL's load

        data = {k: v for k, v in self.__dict__.items() if k not in ("root", "source", "cache_dir")}
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()[:16]
