"""Which host each list serves, in a plugin of several hosts.

A plugin of one host (vllm-ascend) serves that host everywhere: every list may be told of the host's
names. ROCm's ATOM registers into vLLM and into SGLang at once, and keeps lists and registrations for
each (`atom/plugin/vllm/register.py`, `atom/plugin/sglang/models/*.py`): a name only the SGLang side
registers is nothing a vLLM list should hold. There a file serves the hosts it imports or names (a
directory or its file spelling the host: `plugin/sglang/`), a list also those its own name spells
(`_VLLM_MODEL_REGISTRY_OVERRIDES`, `_prepare_model_atom_sglang`), and a name registered only by a
host, or only in files that serve it, is asked only of the lists that serve that host. A name the
project registers anywhere else (its own engine's table) is asked of every list. Where the files that
serve a host register models of their own into it (ATOM's SGLang model package), that host's lists are
about those models (`registered_into`): a model the host serves without the plugin is not theirs to hold.
"""
from __future__ import annotations

import dataclasses
import re
from typing import AbstractSet, Dict, FrozenSet, Iterable, Mapping, Sequence, Set, Tuple

from ..extract.facts import FileFacts
from .values import Collection, Registration

_WORD = re.compile(r"[a-z0-9]+")


def serving(facts: Iterable[FileFacts], hosts: Sequence[str]) -> Dict[str, FrozenSet[str]]:
    """By path, the hosts each file serves, where the project has two hosts or more (else none)."""
    hosts = tuple(dict.fromkeys(hosts))
    if len(hosts) < 2:
        return {}
    found: Dict[str, FrozenSet[str]] = {}
    for f in facts:
        imported = {module.partition(".")[0] for _, module, _ in f.imports}
        found[f.path] = frozenset(h for h in hosts if h in imported or h in _words(f.path))
    return found


def host_scoped(collections: Tuple[Collection, ...], served: Mapping[str, FrozenSet[str]],
                hosts: Sequence[str]) -> Tuple[Collection, ...]:
    """The collections, each saying which hosts it serves (`Collection.hosts`) where files serve hosts
    (`serving`); unchanged otherwise (None: every host)."""
    if not served:
        return collections
    return tuple(dataclasses.replace(c, hosts=served.get(c.path, frozenset()) | frozenset(
        h for h in hosts if h in _words(c.subject))) for c in collections)


def _words(text: str) -> Set[str]:
    return set(_WORD.findall(text.lower()))


def host_only(registrations: Iterable[Registration], hosts: AbstractSet[str],
              served: Mapping[str, FrozenSet[str]]) -> Dict[str, FrozenSet[str]]:
    """By name, the hosts that register it, for each name registered only by hosts (their files are
    `vllm/...`) or in files that serve them (`served`)."""
    by: Dict[str, Set[str]] = {}
    own: Set[str] = set()
    for registration in registrations:
        path = registration.where.path
        top = path.partition("/")[0]
        found = {top} if top in hosts else served.get(path, frozenset())
        if found:
            by.setdefault(registration.name, set()).update(found)
        else:
            own.add(registration.name)
    return {name: frozenset(found) for name, found in by.items() if name not in own}


def registered_into(registrations: Iterable[Registration], served: Mapping[str, FrozenSet[str]]
                    ) -> Dict[str, FrozenSet[str]]:
    """By host, the names the project's own files that serve it register (ATOM's SGLang model package):
    the models the plugin's part for that host brings to it."""
    by: Dict[str, Set[str]] = {}
    for registration in registrations:
        for host in served.get(registration.where.path, ()):
            by.setdefault(host, set()).add(registration.name)
    return {host: frozenset(names) for host, names in by.items()}


def out_of_sight(collection: Collection, name: str, only: Mapping[str, FrozenSet[str]],
                 brought: Mapping[str, FrozenSet[str]] = {}, not_taken_up: AbstractSet[str] = frozenset()) -> str:
    """Why the collection is not told of `name`, or "": only a library the project serves models of registers it,
    and the project names it nowhere (`Model.not_taken_up`); only hosts it does not serve register the name;
    or the plugin's part for the hosts it serves registers models of its own into them, none of them `name`
    (its lists are about those models: a model the host serves without the plugin is not theirs to hold)."""
    if name in not_taken_up:
        return f"only {' and '.join(sorted(only.get(name, ())))} registers it, and the project names it " \
               f"nowhere: a model the project has not taken up"
    if collection.hosts is None:
        return ""
    hosts = only.get(name)
    if hosts is not None and not hosts & collection.hosts:
        return f"only {' and '.join(sorted(hosts))} registers it, a host the subject does not serve"
    own = sorted(h for h in collection.hosts if h in brought)
    if own and not any(name in brought[h] for h in own):
        return f"the project's files for {' and '.join(own)} register models of their own there, not it: the " \
               f"subject is about those"
    return ""
