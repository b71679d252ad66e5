"""The resolved project: every value the rules look at, built from the index in one place.

`build_model` is the only caller of the resolver and the config-class reader; what it
returns holds no reference to the index, so every rule is a pure function of a `Model`.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import AbstractSet, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ..config import Config, UnresolvedName, matches_pattern
from ..diagnostics import place
from ..extract.facts import CollectionFact, FileFacts, Literal, Ref, TypePredicateFact, Unknown
from ..extract.model_chains import is_chain_registry
from ..extract.spelling import names_test
from ..extract.subjects import ALTERNATIVES, LOOSE, REFERENCE, TESTS
from ..project.hosts import LIBRARY, HostList
from ..project.index import ProjectIndex
from ..project.mentions import Counts
from ..project.model_types import ModelTypeTable
from ..project.prefilter import Signals
from ..project.universe import Universe
from .config_classes import ConfigClasses, type_family
from .consumers import class_name_keyed, unread
from .engine_tables import engine_tables
from .foreign import foreign_registries, modules_registered_into
from .handlers import with_handlers
from .host_scope import host_only, host_scoped, registered_into, serving
from .imports import imported
from .kinship import (
    ClassEdge,
    Family,
    Kinship,
    variant,
)
from .lineage import names_lineage
from .memory import ResolveMemory
from .memory_kinship import KinshipMemory, kinship_with
from .memory_resolutions import remembered
from .model_types import ModelTypes, as_architectures, model_types, typed_lists
from .references import Resolver
from .said_kinds import NOTHING_SAID, SaidKinds
from .served import is_not_served
from .support_tables import support_table_registrations
from .values import CLASS_NAME, MODEL_TYPE, Collection, Dispatch, Occurrence, Predicate, Registration


@dataclass(frozen=True)
class Model:
    """The resolved project: what the rules and `archsync show` look at."""

    config: Config
    collections: Tuple[Collection, ...]  # guarded or named by a contract
    families: Tuple[Predicate, ...]  # lineage and configured families, type families included
    predicates: Dict[str, Predicate]  # every resolved predicate, by name
    registered: Dict[str, Occurrence]  # each registered name, where it is first registered
    named: Dict[str, Collection]  # collections the configuration names, by the name it uses
    registries: Tuple[Collection, ...]  # `path.py::NAME` registries, resolved
    covers: Tuple[Tuple[Collection, Predicate], ...]  # (collection, family) pairs of [[cover]]
    overlapping: Tuple[Predicate, ...]  # families ARC101 applies wherever they meet a collection
    unanalysed: Tuple[Tuple[str, str], ...] = ()  # (path, why) of files that could not be analysed
    # registries outside the project that the project registers into (a vLLM plugin's
    # `ModelRegistry`): the universe is not all here, so a name missing from it proves nothing
    external_registries: Tuple[str, ...] = ()
    registrations: Tuple[Registration, ...] = ()  # every registration, the project's then its dependencies'
    universe_packages: Tuple[str, ...] = ()  # dependencies read by `universe-from`
    # kinds the code itself gives names: members of lists and registries named multimodal
    # (`multimodal_model_archs`, `_MULTIMODAL_MODELS`, `check_vl_llm`), models with no generation head
    said: SaidKinds = NOTHING_SAID
    # model classes defined in a module that registers its classes by statement or decorator, and
    # left out of that registration: a registration forgotten or removed, never an alias
    unregistered_classes: FrozenSet[str] = frozenset()
    kinship: Kinship = Kinship()  # what belongs together: implementations, classes, list company
    # checkpoint names the project knows, never typos: the keys of the `config-maps` dicts (a config is read
    # for them) and of rename tables (`{"OldForCausalLM": "NewForCausalLM"}`, the new name registered)
    mapped: FrozenSet[str] = frozenset()
    # the hosts whose registrations come from archsync's snapshots (`project/hosts.py`), as labels
    host_snapshots: Tuple[str, ...] = ()
    # names another path serves without registering them by shape: the keys of an engine's support
    # table (lmdeploy's TurboMind `SUPPORTED_ARCHS = dict(BaiChuanForCausalLM="baichuan", ...)`); never unknown
    served: FrozenSet[str] = frozenset()
    # the model types the registered architectures have: how a list of model types is read and written
    model_types: ModelTypes = ModelTypes()
    # (snapshot label, list) of the lists of the hosts read from archsync's snapshots: what a plugin's copy follows
    host_lists: Tuple[Tuple[str, HostList], ...] = ()
    # by path, the if/elif chains whose tests are subjects: where a list's names may be handled one by one
    dispatches: Mapping[str, Tuple[Dispatch, ...]] = dataclasses.field(default_factory=dict)
    hosts: Tuple[str, ...] = ()  # the packages of the hosts the project registers into (snapshots, `universe-from`)
    # by path, the hosts each file serves, in a project of several hosts (`host_scope.py`)
    serving: Mapping[str, FrozenSet[str]] = dataclasses.field(default_factory=dict)
    # (path, line, name) of each list a checkpoint's model type is tested against: read as the registered
    # architectures its model types name, so none is checked where nothing is registered (`inventory` says so)
    type_lists: Tuple[Tuple[str, int, str], ...] = ()
    # by (path, subject), the lists an inline test sits inside a test of, on the same value (`if arch in SUPPORTED:
    # ... elif arch in [...]`): only the names those hold reach it (`extract/gates.py`)
    gates: Mapping[Tuple[str, str], Tuple[Collection, ...]] = dataclasses.field(default_factory=dict)
    # the architectures a `transformers` release defines (`project/model_types.py`): names that exist, never a
    # slip of another, whoever registers them (`MistralForCausalLM` is no typo of `MixtralForCausalLM`)
    public: FrozenSet[str] = frozenset()
    # (path, subject) of the tables in which a part of the project names, for each name, a class of its own engine
    # (`engine_tables.py`): what another part's registry shares says nothing of them
    engine_tables: FrozenSet[Tuple[str, str]] = frozenset()
    # by class, the module defining it, for the classes registrations serve names with, where a list of classes
    # may be told to hold one (`rules/schemes.py`: a fix imports it from there)
    class_modules: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # by (path, subject), the literals of the same function that an enclosing test of the same value tests, whose
    # names reach the inline test, alone or among others (`if mt in {...} or other:`, `extract/gates.py`)
    admitting: Mapping[Tuple[str, str], Tuple[Collection, ...]] = dataclasses.field(default_factory=dict)
    # where the project serves a library's models: the names its files write anywhere, quoted, imported, defined or
    # subclassed (optimum-habana's port of Qwen2.5-VL subclasses transformers' class), read from their bytes
    written: FrozenSet[str] = frozenset()
    # (path, word) of each lower-case word a module's dict maps names to (`{"Qwen2Moe": "qwen2moe"}`): the module's
    # own scheme, never a slip of a model type (`model_type_slips.py`)
    own_words: FrozenSet[Tuple[str, str]] = frozenset()

    @functools.cached_property
    def host_only(self) -> Dict[str, FrozenSet[str]]:
        """By name, the hosts registering it, for each name only hosts or files serving them register."""
        return host_only(self.registrations, frozenset(self.hosts), self.serving)

    @functools.cached_property
    def not_taken_up(self) -> FrozenSet[str]:
        """Names only a library host registers (transformers', for a project that serves its models: `project/
        hosts.py`) that the project names nowhere: no subject holds it (as a name or a model type), no file writes
        it (`written`). The library registers every model it implements, and a project takes up some: a list is not
        told of one the project never names, which would be a model to support, not a list left behind (a plugin's
        host registers what the plugin serves: no such doubt)."""
        if LIBRARY not in self.hosts:
            return frozenset()
        named = self.written.union(*(c.members.names for c in self.collections))
        return frozenset(n for n, hosts in self.host_only.items() if LIBRARY in hosts and n not in named)

    @functools.cached_property
    def brought(self) -> Dict[str, FrozenSet[str]]:
        """By host, the names the project's files serving it register into it (`host_scope.py`)."""
        return registered_into(self.registrations, self.serving)

    @functools.cached_property
    def registered_in(self) -> Dict[str, FrozenSet[str]]:
        """By path, the names the file registers (a registry table, a decorator, a chain that builds models)."""
        found: Dict[str, Set[str]] = {}
        for registration in self.registrations:
            found.setdefault(registration.where.path, set()).add(registration.name)
        return {path: frozenset(names) for path, names in found.items()}

    @functools.cached_property
    def tables_by_directory(self) -> Dict[str, Tuple[Collection, ...]]:
        """By directory, the lists there looked up with a class name holding two registered names or more."""
        found: Dict[str, List[Collection]] = {}
        for c in self.collections:
            if c.keyed == CLASS_NAME and len(c.members.names & self.registered.keys()) > 1:
                found.setdefault(c.path.rpartition("/")[0], []).append(c)
        return {directory: tuple(tables) for directory, tables in found.items()}


_NO_UNIVERSE = Universe((), ())
_NO_MODEL_TYPES = ModelTypes()


def build_model(index: ProjectIndex, universe: Universe = _NO_UNIVERSE, memory: Optional[ResolveMemory] = None
                ) -> Tuple[Model, Optional[ResolveMemory]]:
    """Resolve registrations, predicates, families and collections across modules.

    `universe` holds what dependencies named by `universe-from` register. `memory`: what the last
    run left of its resolution and kinship, taken where still valid; given one, the memory this run
    leaves is returned with the model (`memory.py`).
    """
    config = index.config
    resolver = Resolver(index, memory.resolutions if memory is not None else None)
    registries = tuple(_named_collection(index, resolver, r, f"{_label(config)}tool.archsync.registries")
                       for r in config.qualified_registries)
    foreign = frozenset(f for f in foreign_registries(index.facts, _packages(index, universe))
                        if f[1] not in config.registries)  # named a registry: one
    support = tuple(support_table_registrations(index.facts, resolver, lambda path: not is_not_served(path),
                                                names_test(config.name_regex)))
    registrations = _registrations(index, registries, universe, foreign) or support
    registered: Dict[str, Occurrence] = {}
    for registration in registrations:
        registered.setdefault(registration.name, registration.where)
    places = frozenset(r.where for r in registrations)
    resolved_against = frozenset(registered)
    predicates = _predicates(index, resolver, resolved_against)
    typed = _type_families(index, registered)
    predicates.update({p.subject: p for p in typed if p.subject not in predicates})
    vetoed = [f[1:] for f in config.families if f.startswith("!")]  # "!NAME": never a family
    overlapping = tuple(
        p for p in predicates.values()
        if (matches_pattern(config.families, p.path, p.subject) or names_lineage(p.subject, p.names))
        and not matches_pattern(vetoed, p.path, p.subject)
    )
    named = {name: _named_collection(index, resolver, name, where) for name, where in _contract_names(config)}
    for mirror in config.mirrors:
        for family in mirror.families:
            _named_family(config, predicates, family, f"{mirror.origin}.families")
    families_at = {(p.path, p.subject) for p in overlapping}
    type_lists = typed_lists(index)
    types = model_types(universe.model_types, registered, (m.name for _, fact in type_lists for p in fact.parts
                                                           if isinstance(p, Literal) for m in p.members))
    subjects = [c for c in _subjects(index, resolver, registered, places, foreign, type_lists, types)
                if (c.path, c.subject.rpartition("#")[0]) not in families_at]  # a family's own test is the family
    counted = memory.mentions if memory is not None else {}  # what the last run's search for readers counted
    files = _with_typed(index, type_lists)
    served = serving(files, universe.packages)
    collections, dispatches = _chained(files, with_handlers(host_scoped(_read_or_not(index, _one_per_list(
        resolver, tuple(dict.fromkeys(subjects + list(named.values())))), counted), served, universe.packages)))
    covers = tuple((named[c], _named_family(config, predicates, f, f"{cover.origin}.families"))
                   for cover in config.covers for c in cover.collections for f in cover.families)
    families = tuple(dict.fromkeys(overlapping + tuple(typed)))
    # in the order they were always read: a module read on demand may be one that does not parse
    unanalysed, external = _unanalysed(index, registered.keys()), _external_registries(index, universe)
    multimodal = _multimodal(index, resolver, registrations)
    kinship, kinship_memory = _kinship(index, registrations, collections, registered, overlapping,
                                       memory.kinship if memory is not None else None, dict(universe.experts),
                                       host_edges(universe))
    said = SaidKinds(multimodal, kinship.headless)
    model = Model(config, collections, families, predicates, registered, named, registries, covers, overlapping,
                  unanalysed, external, registrations, universe.installed,
                  said, _unregistered_classes(index, registered), kinship,
                  _mapped(index, registered), tuple(label for _, label in universe.snapshots),
                  _served(support, registered), types, universe.host_lists, dispatches, universe.packages, served,
                  _lists_of_known_types(type_lists, universe.model_types, types),
                  _gated(files, collections), universe.model_types.architectures,
                  engine_tables(collections, ((index.path_of(m), signals) for m, signals in index.signals())),
                  _class_modules(index, registrations, collections), _admitting(files, collections),
                  _written(index) if LIBRARY in universe.packages else frozenset(), _own_words(index))
    if memory is None:
        return model, None
    return model, dataclasses.replace(memory, resolutions=remembered(resolver, resolved_against),
                                      kinship=kinship_memory, mentions=dict(index.mentioned))


def _class_modules(index: ProjectIndex, registrations: Iterable[Registration], collections: Iterable[Collection]
                   ) -> Dict[str, str]:
    """By class, a module of the project it can be imported from: the module a registration names with it
    (`{"LlamaForCausalLM": LlamaForCausalLM}` imported from `pkg.models`), or the one it is registered in (`EntryClass
    = [KiloForCausalLM]`). Only for a project with a list of classes: what a fix that adds a class imports."""
    if not any(c.members.classes for c in collections):
        return {}
    modules = index.module_by_path()
    known = frozenset(modules.values())
    found: Dict[str, str] = {}
    for registration in registrations:
        if registration.implementation:
            module, _, cls = registration.implementation.rpartition(":")
        else:  # `EntryClass = [KiloForCausalLM]`: the class of the name, where it is registered
            module, cls = modules.get(registration.where.path, ""), registration.name
        if module in known:  # not a module named relative to a models package (`("llama", "LlamaForCausalLM")`)
            found.setdefault(cls, module)
    return found


def _lists_of_known_types(type_lists: Sequence[Tuple[FileFacts, CollectionFact]], table: ModelTypeTable,
                          types: ModelTypes) -> Tuple[Tuple[str, int, str], ...]:
    """(path, line, name) of the lists tested against a model type that hold one the table knows or one tied to a
    registered architecture: a value named `*_model_type` may hold something else (a role, `"reward"`; a
    sub-module, `"vision_model"`; an embedding kind, `"sbert"`), and a list of those names no model."""
    return tuple((facts.path, fact.line, fact.name) for facts, fact in type_lists
                 if any(m.name in table.types or m.name in types.names
                        for p in fact.parts if isinstance(p, Literal) for m in p.members))


def _read_or_not(index: ProjectIndex, collections: Tuple[Collection, ...],
                 counted: Mapping[str, Tuple[str, Counts]]) -> Tuple[Collection, ...]:
    """The collections, each saying how it is read (`consumers.py`): whether anything reads one found
    by shape (a declared one is a gating list by its name or by configuration, read or not), and what a
    module-level one is looked up with."""
    why = unread([c for c in collections if c.completable and not c.declared], index, counted)
    keyed = class_name_keyed(_served_facts(index))
    modules = index.module_by_path() if keyed else {}
    found = []
    for c in collections:
        if (c.path, c.subject) in why:
            c = dataclasses.replace(c, unread=why[(c.path, c.subject)])
        if (modules.get(c.path), c.subject) in keyed:
            c = dataclasses.replace(c, keyed=CLASS_NAME)
        found.append(c)
    return tuple(found)


def _with_typed(index: ProjectIndex, typed: Sequence[Tuple[FileFacts, CollectionFact]]) -> List[FileFacts]:
    """The chosen files' facts, and those of the files read for their lists of model types alone."""
    return index.facts + list(_read_for_types(index, typed).values())


def _read_for_types(index: ProjectIndex, typed: Sequence[Tuple[FileFacts, CollectionFact]]) -> Dict[str, FileFacts]:
    """By path, the facts of the files read for their lists of model types alone (none chose them whole)."""
    return {facts.path: facts for facts, _ in typed if not index.is_chosen_whole(facts.module)}


def _chained(files: Sequence[FileFacts], collections: Tuple[Collection, ...]
             ) -> Tuple[Tuple[Collection, ...], Dict[str, Tuple[Dispatch, ...]]]:
    """The collections, each tested in a branch of an if/elif chain (or beside another in one `or`) knowing
    what the other branches (alternatives) hold, a list of the module a branch searches (`elif arch in
    _INTERN_S2_ARCHS:`) included; and by path, those chains."""
    at = {(c.path, c.subject): i for i, c in enumerate(collections)}
    beside: Dict[int, FrozenSet[str]] = {}
    chains: Dict[str, List[Dispatch]] = {}
    for facts in files:
        for chain in facts.chains:
            referenced = [at[key] for name in chain if name.startswith(REFERENCE)
                          for key in ((facts.path, name[len(REFERENCE):]),) if key in at]
            # an `or`'s lists are alternatives whether written in it or searched by name; a chain's searched ones
            # are what their branches take
            found = [at[(facts.path, name)] for name in chain if (facts.path, name) in at] + \
                (referenced if chain[0] == ALTERNATIVES else [])
            searched = frozenset().union(*(collections[i].members.names for i in referenced))
            for i in found:
                others = frozenset().union(*(collections[j].members.names for j in found if j != i))
                beside[i] = beside.get(i, frozenset()) | others | searched
            if found and chain[0] != ALTERNATIVES:  # an `or`'s lists take a name either holds: no dispatch
                chains.setdefault(facts.path, []).append(Dispatch(
                    facts.path, min(collections[i].line for i in found), tuple(collections[i].subject for i in found),
                    tuple(collections[i].members.names for i in found),
                    frozenset(name[len(REFERENCE):] for name in chain if name.startswith(REFERENCE)),
                    next((int(name[len(TESTS):]) for name in chain if name.startswith(TESTS)), 0)))
    dispatches = {path: tuple(found) for path, found in chains.items()}
    if not beside:
        return collections, dispatches
    return tuple(dataclasses.replace(c, beside=beside[i]) if i in beside else c
                 for i, c in enumerate(collections)), dispatches


def _gated(files: Sequence[FileFacts], collections: Tuple[Collection, ...]
           ) -> Dict[Tuple[str, str], Tuple[Collection, ...]]:
    """By (path, subject), the collections only whose names reach the inline test (`FileFacts.gates`). A gate
    written as a name is the function's own list of that name, else the module's, else the one its import
    names; one that is no collection here (holds no registered name, or is not resolved) is left out."""
    gated = [facts for facts in files if facts.gates]
    if not gated:
        return {}
    at = {(c.path, c.subject): c for c in collections}
    paths = {facts.module: facts.path for facts in files}
    found: Dict[Tuple[str, str], List[Collection]] = {}
    for facts in gated:
        imported = {local: (module, name) for local, module, name in facts.imports if name is not None}
        for subject, gate in facts.gates:
            if (facts.path, subject) not in at or gate.startswith(LOOSE):
                continue
            if gate.startswith(REFERENCE):
                name = gate[len(REFERENCE):]
                module, attribute = imported.get(name, ("", ""))
                keys = [(facts.path, f"{subject.partition('#')[0]}.{name}"), (facts.path, name),
                        (paths.get(module, ""), attribute)]
            else:
                keys = [(facts.path, gate)]
            collection = next((at[key] for key in keys if key in at), None)
            if collection is not None:
                found.setdefault((facts.path, subject), []).append(collection)
    return {key: tuple(gates) for key, gates in found.items()}


def _written(index: ProjectIndex) -> FrozenSet[str]:
    """The names the project's files write, from their bytes: quoted, imported, defined, or a base of a class."""
    found: Set[str] = set()
    for _, signals in index.signals():
        found |= signals.quoted | signals.imported | signals.classes
        found.update(text.split(":", 2)[1] for text in signals.bases)
    return frozenset(found)


def _admitting(files: Sequence[FileFacts], collections: Tuple[Collection, ...]
               ) -> Dict[Tuple[str, str], Tuple[Collection, ...]]:
    """By (path, subject), the literals of its own function an enclosing test of the same value tests, strictly or
    as a term of an `or` (`FileFacts.gates`, `Model.admitting`)."""
    at = {(c.path, c.subject): c for c in collections}
    found: Dict[Tuple[str, str], List[Collection]] = {}
    for facts in files:
        for subject, gate in facts.gates:
            literal = gate[len(LOOSE):] if gate.startswith(LOOSE) else gate
            collection = at.get((facts.path, literal))
            if (facts.path, subject) in at and collection is not None:
                found.setdefault((facts.path, subject), []).append(collection)
    return {key: tuple(gates) for key, gates in found.items()}


def _kinship(index: ProjectIndex, registrations: Sequence[Registration], collections: Sequence[Collection],
             registered: Mapping[str, Occurrence], families: Sequence[Predicate],
             last: Optional[KinshipMemory], host_experts: Mapping[str, bool], host_edges: Sequence[ClassEdge]
             ) -> Tuple[Kinship, KinshipMemory]:
    """Kinship from registrations, the class edges and imports in every file's bytes, the lists' company,
    the ties the project states (its families and its `siblings`) and what hosts' snapshots say of their classes'
    experts."""
    lists = [held for c in collections for held in (c.members.names & registered.keys(),) if len(held) > 1]
    stated = [Family(f.where, f.names) for f in families]
    # a one-off run builds it as a language server's first check does (and its caller keeps nothing)
    return kinship_with(last, index, registrations, lists, stated, index.config.siblings, host_experts, host_edges)


def host_edges(universe: Universe) -> Tuple[ClassEdge, ...]:
    """The hosts' lineage as class edges, where the names say the two are one model's versions (a generation, a
    dense/MoE twin: `Qwen3VLMoeForConditionalGeneration(Qwen3VLForConditionalGeneration)`). A modular file's base is
    where its code is copied from, and a few bases lend theirs to dozens of other models (34 subclass
    `LlamaForCausalLM`, 13 `MixtralForCausalLM`): as a config class many models are built with, that ties nothing.
    Each child is generated whole from its modular file, so it defines its own code (one method at least, as a
    subclass that overrides): of its base's lineage, not a second name of its model."""
    return tuple(ClassEdge(e.child, e.base, 1, e.path, e.line) for e in universe.lineage if variant(e.child, e.base))


def _registrations(index: ProjectIndex, registries: Sequence[Collection], universe: Universe,
                   foreign: AbstractSet[Tuple[str, str]]) -> Tuple[Registration, ...]:
    """Every registration, in the order that decides where a name counts as registered.

    Registrations by statement, shape or decorator come first, then qualified registry
    collections, then a dependency's (`universe-from`), then the chains that build a model per name
    (`model_chains.py`: such a chain may build what a registry serves). `registries = ["!GLOB"]` drops the
    registrations found in registries whose name (or `path::name`) matches; a table of another
    package's classes (`foreign`) registers nothing.
    """
    dropped = [r[1:] for r in index.config.registries if r.startswith("!")]
    # a decorator's registry keyed by model type counts where its names mostly are model types
    # (`keyed_by_model_type`); a chain's tests read the model type itself
    decorated = [r for f in index.facts for r in f.registrations
                 if r.scheme == MODEL_TYPE and not is_chain_registry(r.registry)]
    dropped_types = {r.registry for r in decorated} - universe.model_types.keyed_by_model_type(decorated)
    found: List[Registration] = []
    chains: List[Registration] = []  # a chain that builds a model per name (`model_chains.py`): after the rest
    for facts in _in_path_order(index):
        if is_not_served(facts.path):
            continue  # a test's or an example's table is what it expects or shows, not what the project serves
        for r in _of(facts, dropped, universe.model_types, dropped_types):
            if (facts.module, r.registry) not in foreign:
                (chains if is_chain_registry(r.registry) else found).append(r)
    for registry in registries:
        found += [Registration(o, registry.subject) for o in registry.members.members]
    for facts in universe.facts:
        found += _of(facts, dropped, universe.model_types)
    return tuple(found + chains)


def _of(facts: FileFacts, dropped: Sequence[str], table: ModelTypeTable,
        dropped_types: AbstractSet[str] = frozenset()) -> List[Registration]:
    """A file's registrations; a model type registered (`@ModelRegistry("llama")`) registers the checkpoint
    architectures it names (`ModelTypeTable.registered`), written where the model type is, unless its
    registry is one of `dropped_types` (names of its own, only some of them model types)."""
    return [Registration(Occurrence(name, facts.path, m.line, m.column), r.registry, r.implementation(i))
            for r in facts.registrations if not (dropped and matches_pattern(dropped, facts.path, r.registry))
            and not (r.scheme == MODEL_TYPE and r.registry in dropped_types)
            for i, m, name in table.registered(r)]


def _predicates(index: ProjectIndex, resolver: Resolver, universe: FrozenSet[str]) -> Dict[str, Predicate]:
    is_name = names_test(index.config.name_regex)
    found: Dict[str, Predicate] = {}
    if resolver.kept is None:  # a caller that keeps results resolves only what changed: nothing to batch
        _extract_delegates(index)
    for facts in _served_facts(index):
        for fact in facts.predicates:
            predicate = resolver.predicate(facts.module, fact.name, is_name,
                                           universe)
            if predicate is not None and (predicate.names or predicate.own):
                found.setdefault(predicate.subject, predicate)
    return found


_WAVES = 4  # delegation chains are short; a link past these is extracted when resolution reaches it


def _extract_delegates(index: ProjectIndex) -> None:
    """Extract in batches the modules the predicates delegate to (`is_qwen3_5()` calling
    `_hf_arch(config)` from another module), wave by wave along the delegations and imports: what
    `Resolver.predicate` would extract one module at a time, in this process, as it reached each."""
    wanted = [(ref.module, ref.name) for facts in _served_facts(index) for fact in facts.predicates
              for ref in fact.delegates]
    seen: Set[Tuple[str, str]] = set()
    for _ in range(_WAVES):
        wanted = [pair for pair in dict.fromkeys(wanted) if pair not in seen]
        if not wanted:
            return
        seen.update(wanted)
        index.complete_many(wanted)
        further: List[Tuple[str, str]] = []
        for module, name in wanted:
            facts = index.facts_at_hand(module)
            if facts is None:
                continue
            target = imported(facts, name)
            if target is not None and target[1] is not None:
                further.append((target[0], target[1]))
            further += [(ref.module, ref.name) for fact in facts.predicates if fact.name == name
                        for ref in fact.delegates]
        wanted = further


def _type_families(index: ProjectIndex, registered: Dict[str, Occurrence]) -> List[Predicate]:
    """Type-dispatch predicates the configuration names, resolved to architectures."""
    wanted = index.config.named_families
    chosen: List[Tuple[FileFacts, TypePredicateFact]] = [
        (facts, fact) for facts in _in_path_order(index) for fact in facts.type_predicates
        if matches_pattern(wanted, facts.path, fact.name)]
    if not chosen:
        return []
    classes = ConfigClasses(index, _config_maps(index))
    modules = index.module_by_path()
    return [type_family(classes, facts, fact, registered, modules) for facts, fact in chosen]


def _config_maps(index: ProjectIndex) -> Dict[str, Ref]:
    """Architecture -> config class, from the dicts `config-maps` names (the first entry of a name)."""
    mapped: Dict[str, Ref] = {}
    for facts in index.facts:
        for mapping in facts.mappings:
            if matches_pattern(index.config.config_maps, facts.path, mapping.name):
                for key, ref in mapping.entries:
                    mapped.setdefault(key, ref)
    return mapped


def _mapped(index: ProjectIndex, registered: Mapping[str, Occurrence]) -> FrozenSet[str]:
    """Names the project maps: the keys of its config maps, and those its rename tables turn into a
    registered name (a file quoting a registered name is never left out by the prefilter)."""
    renamed = (old for facts in _served_facts(index) for m in facts.mappings for old, new in m.renames
               if new in registered)
    return frozenset(_config_maps(index)).union(renamed)


def _own_words(index: ProjectIndex) -> FrozenSet[Tuple[str, str]]:
    """(path, word) for each word a module's dicts map names to: read where the slip is, so the prefilter, which
    keeps every file that holds a list of model types, changes nothing."""
    return frozenset((facts.path, word) for facts in index.facts for m in facts.mappings for word in m.words)


def _served(support: Sequence[Registration], registered: Mapping[str, Occurrence]) -> FrozenSet[str]:
    """The names of the support tables (`support_tables.py`) that hold a registered name: a table of what
    an engine serves, read whether or not the prefilter is on (a file quoting a registered name is kept)."""
    tables: Dict[Tuple[str, str], List[str]] = {}
    for registration in support:
        tables.setdefault((registration.where.path, registration.registry), []).append(registration.name)
    return frozenset(n for names in tables.values() if any(n in registered for n in names) for n in names)


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
        raise UnresolvedName(f"{_in_file(config, where)}: {what} named {name!r} in the project", where, name)
    return found[0]


def _in_file(config: Config, where: str) -> str:
    """A contract's origin as an error names it: the project's file by its full path."""
    label = _label(config)
    return config.source + ": " + where[len(label):] if where.startswith(label) else where


def _label(config: Config) -> str:
    """How a setting's origin starts (`pyproject.toml: `), as the configuration's loader writes it."""
    return place(Path(config.source).name) + ": "


def _packages(index: ProjectIndex, universe: Universe) -> FrozenSet[str]:
    """The top-level packages the project holds (and `src/pkg` layouts' `pkg`), and its hosts' (`universe-from`, a
    snapshot's): a plugin's table of its host's classes is its registry. Not transformers, whose registrations a
    project serving its models reads: the transformers classes a script picks among are still transformers'."""
    found = {package for package in universe.packages if package != LIBRARY}
    for module in index.module_by_path().values():
        found.update(module.split(".")[:2])
    return frozenset(found)


def _subjects(index: ProjectIndex, resolver: Resolver, registered: Dict[str, Occurrence],
              places: FrozenSet[Occurrence], foreign: AbstractSet[Tuple[str, str]],
              typed: Sequence[Tuple[FileFacts, CollectionFact]] = (), types: ModelTypes = _NO_MODEL_TYPES
              ) -> List[Collection]:
    """The collections the rules check.

    With `guard` set, the collections it names. Without it, `*_ARCHS` and every other collection
    (module level, class attribute, function-local, inline, decorator arguments) that holds a
    registered name, except the registries themselves (every name of which is a registration).
    A list of model types (`typed`) is read as the registered architectures its model types name.
    """
    config = index.config
    registries = {(facts.module, r.registry) for facts in index.facts for r in facts.registrations} - set(foreign)
    lists_of_types = {(facts.path, fact.name) for facts, fact in typed}
    extra = _read_for_types(index, typed)

    def resolved(facts: FileFacts, fact: CollectionFact, declared: bool) -> Collection:
        collection = resolver.collection(facts, fact)
        if (facts.path, fact.name) in lists_of_types:
            return as_architectures(collection, types, declared)
        return collection

    found = []
    for facts in sorted(_in_path_order(index) + list(extra.values()), key=lambda f: f.path):
        for fact in facts.collections:
            if facts.path in extra and (facts.path, fact.name) not in lists_of_types:
                continue  # a file read for its lists of model types is read for nothing else
            if _is_registry(facts, fact, registries) and not matches_pattern(config.guard, facts.path, fact.name):
                continue  # a registry dict (`_TEXT_GENERATION_MODELS`, `{**A, **B}`), not a list that gates
            if matches_pattern(config.guard, facts.path, fact.name):
                found.append(resolved(facts, fact, True))
            elif not config.guard_set and fact.name not in _NEVER_SUBJECTS and not is_not_served(facts.path):
                collection = resolved(facts, fact, False)
                members = collection.members.members
                if collection.members.named_class:
                    continue  # another name for a class (`Eagle3DeepseekV3ForCausalLM = Eagle3DeepseekV2ForCausalLM`)
                if any(o.name in registered for o in members) and not all(o in places for o in members):
                    found.append(dataclasses.replace(collection, declared=False))
    return found


def _one_per_list(resolver: Resolver, collections: Tuple[Collection, ...]) -> Tuple[Collection, ...]:
    """One subject per list: a collection that is another name for a subject (`A = _A`) is that subject.

    The names are written once, in the subject's literal: what it lacks or holds twice is one
    finding, and one list of the project's company. The subject is declared if either was.
    """
    made = {(facts.path, fact.name): (facts, fact) for facts, fact, _, _ in resolver.made.values()}
    at = {(c.path, c.subject): c for c in collections}
    target: Dict[Tuple[str, str], Tuple[str, str]] = {}
    for key in at:
        if key in made:
            alias = resolver.alias_of(*made[key])
            if alias is not None and alias in at and alias != key:
                target[key] = alias
    if not target:
        return collections
    roots: Dict[Tuple[str, str], bool] = {}  # the subjects kept, and whether an alias of each was declared
    for key, collection in at.items():
        seen = {key}
        while key in target and target[key] not in seen:
            key = target[key]
            seen.add(key)
        roots[key] = roots.get(key, False) or collection.declared
    return tuple(c if c.declared or not roots[(c.path, c.subject)] else dataclasses.replace(c, declared=True)
                 for c in collections if (c.path, c.subject) in roots)


def _named_collection(index: ProjectIndex, resolver: Resolver, name: str, where: str) -> Collection:
    """The one collection a contract names (`NAME` or `path/glob.py::NAME`); `where` is its key."""
    matches = [(facts, fact) for facts in _in_path_order(index) for fact in facts.collections
               if matches_pattern([name], facts.path, fact.name)]
    if not matches:
        raise UnresolvedName(f"{_in_file(index.config, where)}: no collection named {name!r} in the project",
                             where, name)
    if len(matches) > 1:
        found = ", ".join(f"{facts.path}::{fact.name}" for facts, fact in matches[:4])
        raise UnresolvedName(f"{_in_file(index.config, where)}: {name!r} names several collections ({found}); "
                             f"write it as 'path/to/module.py::NAME'", where, name)
    return resolver.collection(*matches[0])


_MULTIMODAL_WORDS = frozenset({"multimodal", "mm", "vl", "vlm", "vision", "visual", "image", "video", "omni"})
# Words that say nothing beyond "these are models": `_MULTIMODAL_MODELS`, `check_vl_llm.supported_archs`.
_GENERIC_WORDS = frozenset({"", "model", "models", "arch", "archs", "architecture", "architectures", "name", "names",
                            "list", "set", "registry", "supported", "all", "known", "hf", "check", "is", "get", "llm",
                            "llms", "lm", "type", "types", "class", "classes", "map", "mapping", "of", "the"})


@functools.lru_cache(maxsize=1 << 14)  # asked of every collection's name in every run
def _lists_multimodal_models(name: str, namespace: FrozenSet[str] = frozenset()) -> bool:
    """Does a collection's name say it lists the multimodal models, and nothing narrower?

    `multimodal_model_archs` does; `multimodal_piecewise_cuda_graph_supported_model_archs`, a
    feature list about some multimodal models that may allow a text model too, does not. Words
    of the module's `namespace` narrow nothing: `SGLANG_` in `SGLANG_SUPPORTED_VISION_MODEL_LIST`.
    """
    words = _words(name) - namespace
    return bool(words & _MULTIMODAL_WORDS) and words <= _MULTIMODAL_WORDS | _GENERIC_WORDS


@functools.lru_cache(maxsize=1 << 14)  # every collection's name, in every run
def _words(name: str) -> FrozenSet[str]:
    return frozenset(re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()))


def _namespace(facts: FileFacts) -> FrozenSet[str]:
    """The words every module-level list of names in the file shares, when it has two or more: the
    module's prefix (`SGLANG_SUPPORTED_MODELS`, `SGLANG_SUPPORTED_VISION_MODEL_LIST`), saying where the
    lists are used and nothing of what each holds."""
    lists = [_words(c.name) for c in facts.collections
             if c.scope == "module" and any(isinstance(part, Literal) and part.members for part in c.parts)]
    return frozenset.intersection(*lists) - _MULTIMODAL_WORDS if len(lists) > 1 else frozenset()


def _multimodal(index: ProjectIndex, resolver: Resolver, registrations: Sequence[Registration]) -> FrozenSet[str]:
    """Members of every collection or registry whose name (with its function's) says it lists multimodal models."""
    names = {r.name for r in registrations if _lists_multimodal_models(r.registry)}
    for facts in _served_facts(index):
        namespace: Optional[FrozenSet[str]] = None
        for fact in facts.collections:
            if _MULTIMODAL_WORDS & _words(fact.name):
                namespace = _namespace(facts) if namespace is None else namespace
                if _lists_multimodal_models(fact.name, namespace):
                    names |= resolver.collection(facts, fact).members.names
    return frozenset(names)


_MODEL_CLASS = re.compile(r"_*[A-Z]\w*(?:For[A-Z]\w*|Model|LM)")


def _unregistered_classes(index: ProjectIndex, registered: Dict[str, Occurrence]) -> FrozenSet[str]:
    by_module = dict(index.signals())
    names = set()
    for facts in index.facts:
        statement = [r for r in facts.registrations if (r.registry in index.config.registries or r.registry[:1] == "@")
                     and r.scheme != MODEL_TYPE]  # a model type registered names no class of the module
        if statement and facts.module in by_module:
            names |= {c for c in by_module[facts.module].classes if _MODEL_CLASS.fullmatch(c)}
    return frozenset(n for n in names if n not in registered)


def _external_registries(index: ProjectIndex, universe: Universe) -> Tuple[str, ...]:
    """Modules outside the project whose registries the project registers into (and no `universe-from` reads:
    a host known from archsync's snapshot stays outside, as the snapshot may be older than the host). A test
    or an example registers nothing the project serves (`is_not_served`), into a host or its own registry."""
    found = {module for module in modules_registered_into(index.facts)
             if index.module(module) is None and module.partition(".")[0] not in universe.installed}
    return tuple(sorted(found))


# Module attributes that list names of the module's own objects, never architectures to gate on.
_NEVER_SUBJECTS = frozenset({"__all__", "__slots__"})


def _is_registry(facts: FileFacts, fact: CollectionFact, registries: AbstractSet[Tuple[str, str]]) -> bool:
    """A collection that registers names, or that is made of registries and nothing else."""
    if (facts.module, fact.name) in registries:
        return True
    refs = [p for p in fact.parts if isinstance(p, Ref)]
    others = [p for p in fact.parts
              if not isinstance(p, (Ref, Unknown)) and not (isinstance(p, Literal) and not p.members)]
    return bool(refs) and not others and all((r.module, r.name) in registries for r in refs)


def _unanalysed(index: ProjectIndex, registered: AbstractSet[str]) -> Tuple[Tuple[str, str], ...]:
    """Files that may matter and do not parse, then files that cannot be read (known once resolution is done).

    While nothing is registered, every file quoting a name-shaped string is read (any of them may be a
    name), but a name no registration serves reaches no rule: a file that does not parse matters then
    only where it may register names, hold a collection the configuration names, or test a model type
    (a vendored Python 2 script quoting `'PropertyGroup'` does not). A test or an example matters only
    so, whatever is registered (`_served_facts`)."""
    signals = dict(index.signals())
    found = [(facts.path, facts.error) for facts in index.facts
             if facts.error and index.meets_parse_error(facts.module)
             and ((registered and not is_not_served(facts.path))
                  or _may_matter_unregistered(signals.get(facts.module)))]
    found += [(rel, f"cannot read: {reason}") for rel, reason in index.unreadable.items()]
    return tuple(found)


def _may_matter_unregistered(signals: Optional[Signals]) -> bool:
    return signals is None or signals.registers or signals.guarded or signals.model_types


def _in_path_order(index: ProjectIndex) -> List[FileFacts]:
    return sorted(index.facts, key=lambda f: f.path)


def _served_facts(index: ProjectIndex) -> List[FileFacts]:
    """The facts of the files the project runs, in path order. A test or an example gates nothing it
    does (`served.py`): what such a file says counts only where the bytes alone choose it, for the
    collections the configuration names (and a file that does not parse, ARC902, only where it may hold
    one of those), so no predicate, table or rename of one is read, no registration of one counts
    (`_registrations`), and a file of them quoting a registered name is never parsed for it
    (`selection.py`)."""
    return [facts for facts in _in_path_order(index) if not is_not_served(facts.path)]
