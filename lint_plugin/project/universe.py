"""Architectures registered by an installed dependency, read statically: a plugin's universe.

A vLLM plugin (vllm-gaudi, tpu-inference, vllm-ascend) serves vLLM's models; their names are
registered in vLLM, not in the plugin. `universe-from = ["vllm"]` reads vLLM's registrations
from its files, wherever it is installed, without importing it: the package directory is looked
up on this interpreter's `sys.path`, in the project's own virtual environment (`.venv/`, `venv/`,
`$VIRTUAL_ENV`), or taken as a path relative to the project root. Without it, a project whose
packaging declares a host's plugin entry points gets the snapshot of that host archsync ships
(`hosts.py`), and a project that imports transformers and has no host may get transformers'
(`with_library`: the model built says whether it serves transformers' models, `resolve/chosen.py`).
`universe-from = ["transformers"]` reads an installed transformers' auto mappings, as that snapshot is written.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import FrozenSet, Iterable, List, Optional, Sequence, Tuple

from ..config import Config
from ..extract.facts import FileFacts
from ..extract.from_bytes import extract_file
from .discovery import discover_under
from .files import Unreadable, read_file
from .hosts import LIBRARY, SNAPSHOTS, HostList, Lineage, SnapshotError, declared_hosts, load_snapshot
from .model_types import AUTO, Library, ModelTypeTable, library_facts, load_table
from .prefilter import Prefilter, Signals


@dataclass(frozen=True)
class Universe:
    """Registrations read from dependencies, and what could not be found."""

    facts: Tuple[FileFacts, ...]  # registrations only; paths are `<package>/...`
    packages: Tuple[str, ...]  # the top-level modules they cover (`vllm`)
    warnings: Tuple[str, ...] = ()
    # (package, `Snapshot.label`) of each host read from archsync's snapshots: its package is in `packages`,
    # and still outside the project for ARC201 (a snapshot can be older than the host the project runs on)
    snapshots: Tuple[Tuple[str, str], ...] = ()
    # which architectures each model type names, from the `transformers` table archsync ships (`model_types.py`)
    model_types: ModelTypeTable = field(default_factory=lambda: ModelTypeTable("", {}))
    # (`Snapshot.label`, list) of each list a snapshot holds: the host's own lists, which a plugin may copy
    host_lists: Tuple[Tuple[str, HostList], ...] = ()
    # (class, whether its module builds mixture-of-experts layers), for the hosts' classes a snapshot knows that of
    experts: Tuple[Tuple[str, bool], ...] = ()
    lineage: Tuple[Lineage, ...] = ()  # which of the hosts' classes subclasses which, where a snapshot knows

    @property
    def names(self) -> FrozenSet[str]:
        """Every architecture the dependencies register (a model type's, as the checkpoints it names)."""
        return frozenset(name for f in self.facts for r in f.registrations
                         for _, _, name in self.model_types.registered(r))

    @property
    def installed(self) -> Tuple[str, ...]:
        """The packages read from their installed source (`universe-from`), exactly."""
        return tuple(p for p in self.packages if p not in dict(self.snapshots))


def read_universe(config: Config) -> Universe:
    if not config.universe_from:
        return _from_snapshots(config)
    facts: List[FileFacts] = []
    packages: List[str] = []
    warnings: List[str] = []
    experts: List[Tuple[str, bool]] = []
    lineage: List[Lineage] = []
    prefilter = Prefilter(config)
    for entry in config.universe_from:
        directory = locate_package(config, entry)
        if directory is None:
            warnings.append(f"universe-from: package {entry!r} not found on this interpreter's path or in the "
                            f"project's virtual environment; names it registers count as unknown")
            continue
        package = os.path.basename(os.path.normpath(directory))
        packages.append(package)
        if package == LIBRARY:  # its auto mappings are its registry: read as archsync's snapshot of it is written
            library = _read_library(Path(directory))
            if library is None:
                warnings.append(f"universe-from: {directory} holds no readable {AUTO}; names {LIBRARY} registers "
                                f"count as unknown")
            else:
                facts.append(library.facts)
                experts += library.experts
                lineage += library.lineage
            continue
        for source in discover_under(directory, package):
            data = read_file(source.path)
            if isinstance(data, Unreadable) or not prefilter.signals(data).registers:
                continue
            found = extract_file(data, source.rel, source.module, config.registries, source.is_package,
                                 config.name_pattern)
            if found.registrations:
                facts.append(FileFacts(found.path, found.module, registrations=found.registrations))
    return Universe(tuple(facts), tuple(packages), tuple(warnings), (), load_table(), experts=tuple(experts),
                    lineage=tuple(lineage))


def _read_library(package: Path) -> Optional[Library]:
    """The installed transformers' registrations (its auto mappings) and what its modules say of its classes."""
    data = read_file(str(package.parent / AUTO))
    try:
        found = library_facts(data, package) if not isinstance(data, Unreadable) else None
    except (SyntaxError, ValueError):
        return None
    return found if found is not None and found.facts.registrations else None


def with_hosts_registered_into(universe: Universe, modules: Iterable[str], root: Path) -> Universe:
    """`universe` with the snapshot of each host whose registry the project registers into (`ModelRegistry.
    register_model(...)` from `vllm`) and whose entry points it does not declare: it serves the host's models as a
    declared plugin does. A host whose package the project holds (the host's own tree) is no host of it."""
    hosts = sorted({m.partition(".")[0] for m in modules} - set(universe.packages))
    hosts = [h for h in hosts if (SNAPSHOTS / f"{h}.json").is_file() and not (root / h).is_dir()]
    if not hosts:
        return universe
    return _merged(universe, _from_snapshots_of(hosts))


def _merged(universe: Universe, added: Universe) -> Universe:
    """`universe` with the hosts' snapshots `added` holds (`_from_snapshots_of`)."""
    return dataclasses.replace(universe, facts=universe.facts + added.facts,
                               packages=universe.packages + added.packages,
                               warnings=universe.warnings + added.warnings,
                               snapshots=universe.snapshots + added.snapshots,
                               host_lists=universe.host_lists + added.host_lists,
                               experts=universe.experts + added.experts,
                               lineage=universe.lineage + added.lineage)


def with_library(universe: Universe, signals: Iterable[Signals], root: Path) -> Optional[Universe]:
    """`universe` with archsync's snapshot of transformers, for a project that may serve transformers' models: it
    imports it and has no host (transformers' own tree is no user of it); else None. Whether it does is asked of
    what it registers (`resolve/chosen.py`): optimum-habana, LLaMA-Factory and llm-compressor register nothing, and
    optimum-intel only its own drafts, so what they load is what transformers' auto mappings map, and their lists
    of architectures and model types are about those models; SGLang and vLLM import transformers too, and their
    lists are about the models they register."""
    if universe.packages or (root / LIBRARY).is_dir() or (root / "src" / LIBRARY).is_dir() \
            or not any(_imports_library(s.imports) for s in signals):
        return None
    return _merged(universe, _from_snapshots_of([LIBRARY]))


def _imports_library(bindings: FrozenSet[str]) -> bool:
    """`import transformers`, `from transformers(.x) import y`, `import transformers.x as y`: `bindings.py`'s
    `^transformers`, `0:transformers:y`, `0:transformers.x:y`."""
    return any(b == "^" + LIBRARY or b.startswith(("0:" + LIBRARY + ":", "0:" + LIBRARY + ".")) for b in bindings)


def _from_snapshots(config: Config) -> Universe:
    """The snapshots of the hosts the project's packaging declares plugin entry points of."""
    return _from_snapshots_of(declared_hosts(config.root))


def _from_snapshots_of(hosts: Iterable[str]) -> Universe:
    """The snapshots of `hosts`, with a warning for each that cannot be read."""
    facts: List[FileFacts] = []
    packages: List[str] = []
    labels: List[Tuple[str, str]] = []
    lists: List[Tuple[str, HostList]] = []
    experts: List[Tuple[str, bool]] = []
    lineage: List[Lineage] = []
    warnings: List[str] = []
    for host in hosts:
        try:
            snapshot = load_snapshot(host)
        except SnapshotError as error:
            warnings.append(str(error))
            continue
        facts += snapshot.facts
        packages.append(host)
        labels.append((host, snapshot.label))
        lists += [(snapshot.label, listed) for listed in snapshot.lists]
        experts += snapshot.experts
        lineage += snapshot.lineage
    return Universe(tuple(facts), tuple(packages), tuple(warnings), tuple(labels), load_table(), tuple(lists),
                    tuple(experts), tuple(lineage))


def locate_package(config: Config, entry: str) -> Optional[str]:
    """The directory of an installed package (never imported), or of a path the entry names."""
    if "/" in entry or entry.startswith("."):
        path = os.path.normpath(os.path.join(str(config.root), entry))
        return path if os.path.isdir(path) else None
    for base in _search_path(str(config.root)):
        candidate = os.path.join(base, entry)
        if os.path.isfile(os.path.join(candidate, "__init__.py")):
            return candidate
    return None


def _search_path(root: str) -> Sequence[str]:
    import glob  # here: most projects read no dependency

    environments = [os.path.join(root, ".venv"), os.path.join(root, "venv"), os.environ.get("VIRTUAL_ENV", "")]
    found = [p for env in environments if env for p in sorted(glob.glob(os.path.join(env, "lib", "python*",
                                                                                     "site-packages")))]
    return [p for p in found + list(sys.path) if p and os.path.isdir(p)]
