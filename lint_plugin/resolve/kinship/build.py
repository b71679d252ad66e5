"""Building a project's kinship, and which of its names some evidence may tie together (`related`)."""
from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from ..values import Registration
from .code import backbones, experts, headless, no_models, shared_configs, wrappers
from .evidence import MIN_CONFIDENCE, MIN_SUPPORT, ROOT_BASES, ClassEdge, ConfigUse, Family, ModuleClasses, Wrapping
from .model import Kinship
from .names import variant_keys

RelatedInputs = Tuple[object, ...]  # all that which names are related reads of a kinship (`related_inputs`)
Related = Tuple[RelatedInputs, Mapping[str, FrozenSet[str]]]  # those inputs, and what they gave


def build_kinship(registrations: Sequence[Registration], edges: Iterable[ClassEdge],
                  lists: Iterable[FrozenSet[str]], modules: Sequence[ModuleClasses] = (),
                  configs: Iterable[ConfigUse] = (), families: Sequence[Family] = (),
                  siblings: Sequence[Tuple[str, str]] = (), builds: Iterable[Wrapping] = ()) -> Kinship:
    """Kinship from the registrations, the class edges of the project, the lists it keeps, its modules,
    the config classes its model classes are built with, the ties it states (families, siblings) and the
    language models its classes build whole."""
    return build_kinship_from(registrations, edges, lists, modules, configs, families, siblings, builds=builds)[0]


def build_kinship_from(registrations: Sequence[Registration], edges: Iterable[ClassEdge],
                       lists: Iterable[FrozenSet[str]], modules: Sequence[ModuleClasses] = (),
                       configs: Iterable[ConfigUse] = (), families: Sequence[Family] = (),
                       siblings: Sequence[Tuple[str, str]] = (), earlier: Optional[Related] = None,
                       builds: Iterable[Wrapping] = (), host_experts: Mapping[str, bool] = {},
                       host_edges: Iterable[ClassEdge] = ()) -> Tuple[Kinship, Related]:
    """`build_kinship`, with which names are related taken from `earlier` (a run's, kept for the next) when
    what they are read from is the same: a language server's check after an edit that moved lines or
    changed a list of no registered name asks again with the same inputs. Returns what to keep, too.

    `host_experts` and `host_edges` are what hosts' snapshots say of their classes (`project/hosts.py`): a class the
    project defines itself is as its own code says."""
    implementations: Dict[str, str] = {}
    registered_class: Dict[str, str] = {}
    serving: Dict[str, Set[str]] = {}  # name -> the classes of all its registrations
    for r in registrations:
        serving.setdefault(r.name, set()).add(r.implementation.rpartition(":")[2] if r.implementation else r.name)
        if r.name in registered_class:
            continue
        implementations[r.name] = r.implementation
        registered_class[r.name] = r.implementation.rpartition(":")[2] if r.implementation else r.name
    classes: Dict[str, List[ClassEdge]] = {}
    for edge in edges:
        classes.setdefault(edge.child, []).append(edge)
    holding: Dict[str, Set[int]] = {}
    for at, held in enumerate(lists):
        for name in held:
            holding.setdefault(name, set()).add(at)
    # every class a registration names; a host's class, from what its snapshot read of its module (read before the
    # host's edges join: the project's modules say nothing of a host's class, and must not say "dense" of it)
    moe = {**host_experts, **experts(set().union(*serving.values()), classes, modules)}
    classes = with_host_edges(classes, host_edges)
    kinship = Kinship({n: i for n, i in implementations.items() if i}, {c: tuple(e) for c, e in classes.items()},
                      registered_class, {n: frozenset(at) for n, at in holding.items()},
                      backbones=backbones(set(registered_class.values()), classes, modules),
                      wraps=wrappers(set(registered_class.values()), builds, classes),
                      configs=shared_configs(set(registered_class.values()), configs),
                      experts={c: moe[c] for c in set(registered_class.values()) if c in moe},
                      moe_names=frozenset(n for n, found in serving.items() if any(moe.get(c) for c in found)),
                      headless=headless(registered_class, classes, modules),
                      no_models=no_models(set(registered_class.values()), classes, modules),
                      families=tuple(families), siblings=tuple(siblings))
    inputs = related_inputs(kinship)
    related = earlier[1] if earlier is not None and earlier[0] == inputs else related_of(kinship)
    return dataclasses.replace(kinship, related=related), (inputs, related)


def with_host_edges(classes: Mapping[str, Sequence[ClassEdge]], host_edges: Iterable[ClassEdge]
                    ) -> Dict[str, List[ClassEdge]]:
    """The project's class edges, and a host's for each class the project defines no edge of."""
    found = {cls: list(edges) for cls, edges in classes.items()}
    for edge in host_edges:
        if edge.child not in classes:
            found.setdefault(edge.child, []).append(edge)
    return found


def related_inputs(kinship: Kinship) -> RelatedInputs:
    """All that `related_of` reads: of the edges, their bases; of the backbones, all; of the configs, the class."""
    return (tuple(kinship.registered_class.items()), tuple(kinship.implementations.items()),
            tuple((cls, tuple(e.base for e in edges)) for cls, edges in kinship.classes.items()),
            kinship.company,
            tuple(kinship.backbones.items()),
            tuple((cls, w.owner) for cls, w in kinship.wraps.items()),
            tuple((c, u.config) for c, u in kinship.configs.items()))


def related_of(kinship: Kinship) -> Dict[str, FrozenSet[str]]:
    names = list(kinship.registered_class)
    built_on: Dict[str, List[str]] = {}  # class -> the classes built on its backbone
    for ties in kinship.backbones.values():
        for tie in ties:
            built_on.setdefault(tie.owner, []).append(tie.child)
    for cls, wrapping in kinship.wraps.items():
        built_on.setdefault(wrapping.owner, []).append(cls)
    groups: Dict[Tuple[str, str], List[str]] = {}
    for name in names:
        cls = kinship.registered_class[name]
        keys = [("class", cls)]
        if name in kinship.implementations:
            keys.append(("implementation", kinship.implementations[name]))
        keys += [("base", e.base) for e in kinship.classes.get(cls, ()) if e.base not in ROOT_BASES]
        keys += [("base", cls)]  # a name is kin to the names whose class subclasses its own
        keys += [("variant", key) for key in variant_keys(name)]
        keys += [("backbone", f"{tie.owner}->{cls}") for tie in kinship.backbones.get(cls, ())]
        if cls in kinship.wraps:
            keys.append(("backbone", f"{kinship.wraps[cls].owner}->{cls}"))
        keys += [("backbone", f"{cls}->{child}") for child in built_on.get(cls, ())]
        if cls in kinship.configs:
            keys.append(("config", kinship.configs[cls].config))
        for key in keys:
            groups.setdefault(key, []).append(name)
    related: Dict[str, Set[str]] = {name: set() for name in names}
    for members in groups.values():
        if 1 < len(members) <= 50:  # a base every model shares (`nn.Module`) ties nothing
            for name in members:
                related[name].update(members)
    for kin, name in _often_together(kinship.company):
        if kin in related and name in related:
            related[kin].add(name)
            related[name].add(kin)
    return {name: frozenset(kin - {name}) for name, kin in related.items() if len(kin) > 1}


def _often_together(company: Mapping[str, FrozenSet[int]]) -> Iterator[Tuple[str, str]]:
    """(kin, name): `name` is in most of the lists that hold `kin`, and `kin` in enough lists to say so.

    Only a name held by `MIN_SUPPORT` lists or more is asked, and only of the names its own lists
    hold: a list whose names each appear once (one registry's worth in one table) costs its length,
    never its length squared.
    """
    members: Dict[int, List[str]] = {}
    for name, lists in company.items():
        for at in lists:
            members.setdefault(at, []).append(name)
    for kin, lists in company.items():
        support = len(lists)
        if support < MIN_SUPPORT:
            continue
        both = Counter(name for at in lists for name in members[at] if name != kin)
        for name, count in both.items():
            if count / support >= MIN_CONFIDENCE:
                yield kin, name
