"""The last run's kinship, left for the next run (a part of `RunMemory`), built again only for what an edit changed.

Kinship (`kinship.build_kinship`) reads every file's byte signals (class edges, config uses,
imports, classes), the registrations' names and classes, and the project's lists: a fifth of a
check after an edit that moves a file's lines, though such an edit changes only where its classes
are. Most of what kinship holds says nothing of lines: the names' classes and implementations,
the lists' company, the backbones (edges' files, not lines) and which names are related. The
edges and the config uses do, and so do the messages made of them.

When every input is as the last run had it apart from lines (`_view`: each file's signals the same
object, or equal with the lines of its edges and config uses left out; the same registrations'
names and classes; the same lists), those parts are taken as they were, and the parts with lines
are made from this run's signals as `build_kinship` makes them: every edge by its class, and for
each class the last run tied to a config class, its first use of it by path and line. Anything
else builds it all again. (A new input of `build_kinship`, or a new field of `Kinship` made from
lines, must be added here: the other fields are taken as the last run made them.)
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from ..project.index import ProjectIndex
from ..project.prefilter import Signals
from .kinship import (
    ClassEdge,
    ConfigUse,
    Family,
    Kinship,
    ModuleClasses,
    Related,
    Wrapping,
    build_kinship_from,
    parse_builds,
    parse_configs,
    parse_edges,
    with_host_edges,
)
from .values import Registration


@dataclass(frozen=True)
class KinshipMemory:
    """One run's kinship and the inputs it was built from."""

    modules: Tuple[str, ...]
    signals: Tuple[Signals, ...]
    registrations: Tuple[Tuple[str, str], ...]  # (name, implementation), in order
    lists: Tuple[FrozenSet[str], ...]
    edges: Mapping[str, Tuple[ClassEdge, ...]]  # by module, in order: the modules with edges
    uses: Mapping[str, Tuple[ConfigUse, ...]]  # by module, in order: the modules with config uses
    related: Related  # which names are related, and what that was read from
    kinship: Kinship
    # what the hosts' snapshots said of their classes: experts, and edges (`build_kinship_from`)
    hosts: Tuple[Tuple[Tuple[str, bool], ...], Tuple[ClassEdge, ...]] = ((), ())


def kinship_with(last: Optional[KinshipMemory], index: ProjectIndex, registrations: Sequence[Registration],
                 lists: Sequence[FrozenSet[str]], families: Sequence[Family],
                 siblings: Sequence[Tuple[str, str]], host_experts: Mapping[str, bool] = {},
                 host_edges: Sequence[ClassEdge] = ()) -> Tuple[Kinship, KinshipMemory]:
    """What `build_kinship` gives for this index, registrations, lists and stated ties (which it holds as
    they are given: taken from this run), from `last` where it still holds; and what to keep of it."""
    pairs = list(index.signals())
    modules = tuple(module for module, _ in pairs)
    signals = tuple(s for _, s in pairs)
    rows = tuple((r.name, r.implementation) for r in registrations)
    hosts = (tuple(host_experts.items()), tuple(host_edges))
    paths: Optional[Dict[str, str]] = None
    if last is not None and last.modules == modules and last.registrations == rows and last.lists == tuple(lists) \
            and last.hosts == hosts:
        changed = [i for i, (now, before) in enumerate(zip(signals, last.signals)) if now is not before]
        if all(_view(signals[i]) == _view(last.signals[i]) for i in changed):
            paths = {module: rel for rel, module in index.module_by_path().items()}
            edges, uses = dict(last.edges), dict(last.uses)
            for i in changed:
                module, path = modules[i], paths[modules[i]]
                if module in edges:
                    edges[module] = parse_edges(path, signals[i].bases)
                if module in uses:
                    uses[module] = parse_configs(path, signals[i].configs)
            kinship = dataclasses.replace(_with_lines(last.kinship, edges, uses, host_edges), families=tuple(families),
                                          siblings=tuple(siblings))
            return kinship, KinshipMemory(modules, signals, rows, last.lists, edges, uses, last.related, kinship, hosts)
    paths = paths or {module: rel for rel, module in index.module_by_path().items()}
    edges, uses = {}, {}
    found: List[ModuleClasses] = []
    builds: List[Wrapping] = []
    for module, signal in pairs:
        if signal.builds:  # compared whole by `_view`, lines too: a moved one builds kinship again
            builds += parse_builds(paths[module], signal.builds)
        if signal.bases:
            edges[module] = parse_edges(paths[module], signal.bases)
        if signal.configs:
            uses[module] = parse_configs(paths[module], signal.configs)
        if signal.classes:  # a module that defines no class builds no model on a backbone
            found.append(ModuleClasses(paths[module], signal.imported, signal.classes, signal.roots, signal.runs))
    kinship, related = build_kinship_from(registrations, [e for t in edges.values() for e in t], lists, found,
                                          [u for t in uses.values() for u in t], families, siblings,
                                          last.related if last is not None else None, builds, host_experts,
                                          host_edges)
    return kinship, KinshipMemory(modules, signals, rows, tuple(lists), edges, uses, related, kinship, hosts)


def _with_lines(kinship: Kinship, edges: Mapping[str, Tuple[ClassEdge, ...]],
                uses: Mapping[str, Tuple[ConfigUse, ...]], host_edges: Sequence[ClassEdge]) -> Kinship:
    """`kinship` with the edges and config uses of this run, as `build_kinship` orders and chooses them."""
    classes: Dict[str, List[ClassEdge]] = {}
    for found in edges.values():
        for edge in found:
            classes.setdefault(edge.child, []).append(edge)
    by_class: Dict[str, List[ConfigUse]] = {}
    for found_uses in uses.values():
        for use in found_uses:
            if use.child in kinship.configs:
                by_class.setdefault(use.child, []).append(use)
    return dataclasses.replace(
        kinship, classes={c: tuple(e) for c, e in with_host_edges(classes, host_edges).items()},
        configs={cls: min(found_uses, key=lambda u: (u.path, u.line)) for cls, found_uses in by_class.items()})


def _view(signals: Signals) -> Tuple[object, ...]:
    """A file's signals, the lines of its edges and config uses left out (every other field whole: kinship
    reads the imports and classes, and whatever it may read next is compared too)."""
    return (sorted(text.rpartition(":")[0] for text in signals.bases),
            sorted(text.rpartition(":")[0] for text in signals.configs),
            *(getattr(signals, f) for f in _OTHER_SIGNALS))


_OTHER_SIGNALS = tuple(f.name for f in dataclasses.fields(Signals) if f.name not in ("bases", "configs"))
