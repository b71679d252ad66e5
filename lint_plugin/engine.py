"""The pipeline: discover -> prefilter -> facts -> resolve -> check -> diagnostics.

Every front end (CLI, flake8 plugin) calls `run`; nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Mapping, Optional, Tuple

from . import checks
from .config import Config, find_root, load_config
from .diagnostics import Diagnostic
from .discovery import discover
from .families import names_lineage
from .index import ProjectIndex
from .noqa import suppressed
from .resolve import Collection, Predicate, Resolver, matches_pattern


@dataclass(frozen=True)
class Report:
    """What one run found, with the figures the front ends may show."""

    root: Path
    config: Config
    diagnostics: Tuple[Diagnostic, ...]
    files: int
    parsed: int


def run(path: Path, overrides: Optional[Mapping[str, bytes]] = None) -> Report:
    """Check the project that holds `path`; may raise ConfigError."""
    root = find_root(path)
    config = load_config(root)
    return run_with(config, overrides)


def run_with(config: Config, overrides: Optional[Mapping[str, bytes]] = None) -> Report:
    files = discover(config)
    index = ProjectIndex(config, files, overrides)
    resolver = Resolver(index)
    diagnostics = list(_broken_files(index))
    universe = index.universe
    collections = _guarded_collections(index, resolver)
    families = _families(index, resolver, universe)
    diagnostics += checks.family_member_missing(collections, families)
    kept = tuple(sorted(d for d in diagnostics if not suppressed(config.root, d, overrides)))
    return Report(config.root, config, kept, len(files), len(index.facts))


def _guarded_collections(index: ProjectIndex, resolver: Resolver) -> List[Collection]:
    guard = index.config.guard
    return [
        resolver.collection(facts, fact)
        for facts in list(index.facts)
        for fact in facts.collections
        if matches_pattern(guard, facts.path, fact.name)
    ]


def _families(index: ProjectIndex, resolver: Resolver, universe) -> List[Predicate]:
    name_regex = index.config.name_regex
    name_ok = lambda name: name_regex.fullmatch(name) is not None  # noqa: E731
    families = []
    for facts in list(index.facts):
        for fact in facts.predicates:
            predicate = resolver.predicate(facts.module, fact.name, name_ok, universe)
            if predicate is None or not predicate.names:
                continue
            if matches_pattern(index.config.families, facts.path, fact.name) or names_lineage(
                fact.name, predicate.names
            ):
                families.append(predicate)
    return families


def _broken_files(index: ProjectIndex) -> List[Diagnostic]:
    found = [
        Diagnostic(facts.path, 1, 1, "ARC902", f"file not analysed: {facts.error}")
        for facts in index.facts if facts.error
    ]
    found += [
        Diagnostic(rel, 1, 1, "ARC902", f"file not analysed: cannot read: {reason}")
        for rel, reason in index.unreadable.items()
    ]
    return found
