"""Which host each list serves, in a plugin of several hosts.

A plugin of one host (vllm-ascend) serves that host everywhere: every list may be told of the host's
names. ROCm's ATOM registers into vLLM and into SGLang at once, and keeps lists for each (`atom/plugin/
vllm/register.py`, `atom/plugin/sglang/prepare.py`): a name only SGLang registers is nothing a vLLM
list should hold. There a list serves the hosts its module imports, or names (a directory, its file or
the list itself spelling the host: `plugin/sglang/`, `_VLLM_MODEL_REGISTRY_OVERRIDES`,
`_prepare_model_atom_sglang`); a name only hosts it does not serve register is not asked of it.
"""
from __future__ import annotations

import dataclasses
import re
from typing import AbstractSet, Dict, FrozenSet, Iterable, Mapping, Sequence, Set, Tuple

from ..extract.facts import FileFacts
from .values import Collection, Registration

_WORD = re.compile(r"[a-z0-9]+")


def host_scoped(facts: Iterable[FileFacts], collections: Tuple[Collection, ...],
                hosts: Sequence[str]) -> Tuple[Collection, ...]:
    """The collections, each saying which hosts it serves (`Collection.hosts`) where the project has two
    hosts or more; unchanged otherwise (None: every host)."""
    hosts = tuple(dict.fromkeys(hosts))
    if len(hosts) < 2:
        return collections
    imported = {f.path: {module.partition(".")[0] for _, module, _ in f.imports} for f in facts}
    return tuple(dataclasses.replace(c, hosts=frozenset(
        h for h in hosts if h in imported.get(c.path, ()) or h in _words(c.path) or h in _words(c.subject)))
        for c in collections)


def _words(text: str) -> Set[str]:
    return set(_WORD.findall(text.lower()))


def host_only(registrations: Iterable[Registration], hosts: AbstractSet[str]) -> Dict[str, FrozenSet[str]]:
    """By name, the hosts that register it, for each name no file of the project registers (a host's
    registrations are read from its package's files: `vllm/...`)."""
    by: Dict[str, Set[str]] = {}
    own: Set[str] = set()
    for registration in registrations:
        top = registration.where.path.partition("/")[0]
        if top in hosts:
            by.setdefault(registration.name, set()).add(top)
        else:
            own.add(registration.name)
    return {name: frozenset(found) for name, found in by.items() if name not in own}


def out_of_sight(collection: Collection, name: str, only: Mapping[str, FrozenSet[str]]) -> bool:
    """Is `name` registered only by hosts the collection does not serve?"""
    if collection.hosts is None:
        return False
    hosts = only.get(name)
    return hosts is not None and not hosts & collection.hosts
