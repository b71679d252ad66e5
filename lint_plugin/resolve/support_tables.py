"""A project that registers nothing by shape may still say what it serves: a `SUPPORTED_ARCHS` table.

Early lmdeploy kept one per engine (`SUPPORTED_ARCHS = dict(LlamaForCausalLM="llama", ...)` beside
`_SUPPORTED_ARCHS = dict(LlamaForCausalLM=True, ...)`), and no registry dict, registration call or
registering decorator: with nothing registered no rule can say anything. Only then, and only a
module-level table named exactly so (`SUPPORTED_ARCHS`, `_SUPPORTED_MODELS`,
`SUPPORTED_ARCHITECTURES`; not a backend's `_NEURON_SUPPORTED_MODELS` nor `_PREVIOUSLY_SUPPORTED_MODELS`),
registers its names. A table that is also a subject by its name (`*_ARCHS`) stays one. A table its module
looks up with a Python class name (`model.__class__.__name__ in _SUPPORTED_MODELS`: the classes a tracer
copied from `transformers` handles, in llm-compressor) says which loaded classes a step takes, not which
checkpoints the project serves, and registers nothing.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, List

from ..extract.facts import MODULE, FileFacts
from .references import Resolver
from .values import Registration

_SUPPORT_TABLE = re.compile(r"(?i)_?supported_(?:archs|architectures|models)")


def names_support_table(name: str) -> bool:
    """Is a collection named as the project's table of what it supports?"""
    return _SUPPORT_TABLE.fullmatch(name) is not None


def support_table_registrations(facts: Iterable[FileFacts], resolver: Resolver,
                                served: Callable[[str], bool], name_ok: Callable[[str], object]) -> List[Registration]:
    """The names of every support table in a served file (not tests or examples), in path order."""
    found: List[Registration] = []
    for file_facts in sorted(facts, key=lambda f: f.path):
        if not served(file_facts.path):
            continue
        for fact in file_facts.collections:
            if fact.scope != MODULE or not names_support_table(fact.name) or fact.name in file_facts.class_keyed:
                continue
            members = [o for o in resolver.collection(file_facts, fact).members.members if name_ok(o.name)]
            if len(members) > 1:
                found += [Registration(o, fact.name) for o in members]
    return found
