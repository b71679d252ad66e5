"""The pipeline: discover -> prefilter -> facts -> resolve -> check -> diagnostics.

Every front end (CLI, flake8 plugin, `show`) calls `run`; nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from . import checks, contracts, hygiene
from .cache import IndexCache
from .config import Config, ConfigError, find_root, load_config
from .config_classes import ConfigClasses, type_family, type_predicates
from .diagnostics import Diagnostic
from .discovery import discover
from .exemptions import apply_exemptions, one_per_pair
from .fixes import attach_fixes
from .families import names_lineage
from .index import ProjectIndex
from .noqa import suppressed
from .resolve import Collection, Occurrence, Predicate, Resolver, matches_pattern


@dataclass(frozen=True)
class Model:
    """The resolved project: what the rules and `archsync show` look at."""

    collections: Tuple[Collection, ...]  # guarded or named by a contract
    families: Tuple[Predicate, ...]  # lineage and configured families, type families included
    predicates: Dict[str, Predicate]  # every resolved predicate, by name
    registered: Dict[str, Occurrence]
    named: Dict[str, Collection]  # collections the configuration names, by the name it uses
    registries: Tuple[Collection, ...]  # `path.py::NAME` registries, resolved
    covers: Tuple[Tuple[Collection, Predicate], ...]  # (collection, family) pairs of [[cover]]
    overlapping: Tuple[Predicate, ...]  # families ARC101 applies wherever they meet a collection


@dataclass(frozen=True)
class Report:
    """What one run found, with the figures the front ends may show."""

    root: Path
    config: Config
    diagnostics: Tuple[Diagnostic, ...]
    model: Model
    files: int
    parsed: int
    warnings: Tuple[str, ...] = ()


def run(path: Path, overrides: Optional[Mapping[str, bytes]] = None, use_cache: bool = True) -> Report:
    """Check the project that holds `path`; may raise ConfigError."""
    root = find_root(path)
    return run_with(load_config(root), overrides, use_cache)


def run_with(config: Config, overrides: Optional[Mapping[str, bytes]] = None, use_cache: bool = True) -> Report:
    files = discover(config)
    cache = IndexCache(config.root / config.cache_dir, config.fingerprint()) if use_cache else None
    index = ProjectIndex(config, files, overrides, cache)
    model = build_model(index)
    found = _broken_files(index) + check_model(model, config) + _duplicates(index, model)
    found = apply_exemptions(found, config.exemptions, "pyproject.toml")
    found = attach_fixes(one_per_pair(found), model.collections, config.siblings)
    kept = tuple(sorted(d for d in found if not suppressed(config.root, d, overrides)))
    index.save_cache()
    warnings = tuple(cache.warnings) if cache is not None else ()
    return Report(config.root, config, kept, model, len(files), index.parsed, warnings)


def build_model(index: ProjectIndex) -> Model:
    """Resolve registrations, predicates, families and collections across modules."""
    config = index.config
    resolver = Resolver(index)
    registries = tuple(_qualified_registry(index, resolver, r) for r in config.registries if "::" in r)
    registered = _registered(index, registries)
    predicates = _predicates(index, resolver, frozenset(registered))
    typed = _type_families(index, registered)
    predicates.update({p.subject: p for p in typed if p.subject not in predicates})
    overlapping = tuple(
        p for p in predicates.values()
        if matches_pattern(config.families, p.path, p.subject) or names_lineage(p.subject, p.names)
    )
    named = {name: _named_collection(index, resolver, name, where) for name, where in _contract_names(config)}
    for mirror in config.mirrors:
        for family in mirror.families:
            _named_family(config, predicates, family, f"{mirror.origin}.families")
    collections = tuple(dict.fromkeys(_guarded_collections(index, resolver) + list(named.values())))
    covers = tuple((named[c], _named_family(config, predicates, f, f"{cover.origin}.families"))
                   for cover in config.covers for c in cover.collections for f in cover.families)
    families = tuple(dict.fromkeys(overlapping + tuple(typed)))
    return Model(collections, families, predicates, registered, named, registries, covers, overlapping)


def check_model(model: Model, config: Config) -> List[Diagnostic]:
    """Every rule over the resolved model: pure, no I/O."""
    found = _partly_analysed(tuple(dict.fromkeys(model.collections + model.registries)), model.families)
    found += checks.family_member_missing(model.collections, model.overlapping, model.covers)
    found += checks.sibling_variant_missing(model.collections, model.overlapping, model.registered, config.siblings)
    for mirror in config.mirrors:
        found += contracts.mirror_drift(mirror, [model.named[c] for c in mirror.collections], model.predicates)
    for subset in config.subsets:
        whole = None if subset.into == "registered" else model.named[subset.into]
        found += contracts.subset_broken(subset, model.named[subset.of], whole, model.registered)
    for collection in model.collections:
        found += hygiene.unknown_names(collection.subject, collection.subject, collection.members.members,
                                       model.registered)
    for family in model.overlapping:
        found += hygiene.unknown_names(family.subject, f"{family.subject}()", family.own, model.registered)
    return found


def _registered(index: ProjectIndex, registries: Sequence[Collection]) -> Dict[str, Occurrence]:
    """Registered names: registry statements and decorators, then qualified registry collections."""
    registered: Dict[str, Occurrence] = {}
    for facts in sorted(index.facts, key=lambda f: f.path):
        for registration in facts.registrations:
            for m in registration.names:
                registered.setdefault(m.name, Occurrence(m.name, facts.path, m.line, m.column))
    for registry in registries:
        for occurrence in registry.members.members:
            registered.setdefault(occurrence.name, occurrence)
    return registered


def _qualified_registry(index: ProjectIndex, resolver: Resolver, registry: str) -> Collection:
    return _named_collection(index, resolver, registry, f"{Path(index.config.source).name}: tool.archsync.registries")


def _predicates(index: ProjectIndex, resolver: Resolver, universe: frozenset) -> Dict[str, Predicate]:
    name_regex = index.config.name_regex
    name_ok = lambda name: name_regex.fullmatch(name) is not None  # noqa: E731
    found: Dict[str, Predicate] = {}
    for facts in sorted(index.facts, key=lambda f: f.path):
        for fact in facts.predicates:
            predicate = resolver.predicate(facts.module, fact.name, name_ok, universe)
            if predicate is not None and (predicate.names or predicate.own):
                found.setdefault(predicate.subject, predicate)
    return found


def _type_families(index: ProjectIndex, registered: Dict[str, Occurrence]) -> List[Predicate]:
    """Type-dispatch predicates the configuration names, resolved to architectures."""
    wanted = index.config.named_families
    chosen = [(facts, fact) for facts, fact in type_predicates(index) if matches_pattern(wanted, facts.path, fact.name)]
    if not chosen:
        return []
    classes = ConfigClasses(index)
    modules = index.module_by_path()
    return [type_family(classes, facts, fact, registered, modules) for facts, fact in chosen]


def _contract_names(config: Config) -> List[Tuple[str, str]]:
    """(collection name, the configuration key that names it), first mention of each."""
    named: Dict[str, str] = {}
    for mirror in config.mirrors:
        for name in mirror.collections:
            named.setdefault(name, f"{mirror.origin}.collections")
    for cover in config.covers:
        for name in cover.collections:
            named.setdefault(name, f"{cover.origin}.collections")
    for subset in config.subsets:
        named.setdefault(subset.of, f"{subset.origin}.of")
        if subset.into != "registered":
            named.setdefault(subset.into, f"{subset.origin}.in")
    return list(named.items())


def _named_family(config: Config, predicates: Dict[str, Predicate], name: str, where: str) -> Predicate:
    found = [p for p in predicates.values() if matches_pattern([name], p.path, p.subject)]
    if len(found) != 1:
        what = "no predicate" if not found else "several predicates"
        raise ConfigError(f"{_in_file(config, where)}: {what} named {name!r} in the project")
    return found[0]


def _in_file(config: Config, where: str) -> str:
    """A contract's origin as an error names it: the project's file by its full path."""
    label = Path(config.source).name + ": "
    return config.source + ": " + where[len(label):] if where.startswith(label) else where


def _guarded_collections(index: ProjectIndex, resolver: Resolver) -> List[Collection]:
    guard = index.config.guard
    return [
        resolver.collection(facts, fact)
        for facts in sorted(index.facts, key=lambda f: f.path)
        for fact in facts.collections
        if matches_pattern(guard, facts.path, fact.name)
    ]


def _named_collection(index: ProjectIndex, resolver: Resolver, name: str, where: str) -> Collection:
    """The one collection a contract names (`NAME` or `path/glob.py::NAME`); `where` is its key."""
    matches = [
        (facts, fact) for facts in sorted(index.facts, key=lambda f: f.path)
        for fact in facts.collections if matches_pattern([name], facts.path, fact.name)
    ]
    if not matches:
        raise ConfigError(f"{_in_file(index.config, where)}: no collection named {name!r} in the project")
    if len(matches) > 1:
        found = ", ".join(f"{facts.path}::{fact.name}" for facts, fact in matches[:4])
        raise ConfigError(f"{_in_file(index.config, where)}: {name!r} names several collections ({found}); "
                          f"write it as 'path/to/module.py::NAME'")
    return resolver.collection(*matches[0])


def _duplicates(index: ProjectIndex, model: Model) -> List[Diagnostic]:
    """ARC301 needs each literal as written, so it reads the facts, not the resolved sets."""
    found: List[Diagnostic] = []
    by_place = {(c.path, c.subject) for c in model.collections} | {(f.path, f.subject) for f in model.overlapping}
    for facts in index.facts:
        for fact in facts.collections:
            if (facts.path, fact.name) in by_place:
                found += hygiene.duplicate_members(fact.name, fact.name, facts.path, fact.parts)
        for predicate in facts.predicates:
            if (facts.path, predicate.name) in by_place:
                found += hygiene.duplicate_members(predicate.name, f"{predicate.name}()", facts.path, predicate.tests)
    return found


def _partly_analysed(collections, families) -> List[Diagnostic]:
    """ARC901: say where the analysis could not follow; what was read still takes part."""
    found = []
    subjects = [(c.subject, c.subject, c.path, c.line, c.column, c.members.unknown, len(c.members.names))
                for c in collections]
    subjects += [(f.subject, f"{f.subject}()", f.path, f.line, f.column, f.unknown, len(f.names)) for f in families]
    for subject, label, path, line, column, unknown, count in subjects:
        if not unknown:
            continue
        reasons = "; ".join(dict.fromkeys(unknown[:3]))
        more = f"; and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        found.append(Diagnostic(
            path, line, column, "ARC901",
            f"{label} is only partly analysed: {reasons}{more} "
            f"({count} name{' read still takes' if count == 1 else 's read still take'} part)",
            subject=subject,
        ))
    return found


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
