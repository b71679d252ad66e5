"""A byte-level test that keeps files which cannot matter away from any parser.

A file matters when it may hold a registration, a guarded collection or a string that
looks like an architecture name (quoted, in the configured name shape). Collections
and predicates reached only by import from a kept file are parsed on demand.
"""
from __future__ import annotations

import re
from typing import Callable, List

from .config import Config

_GLOB_CHARS = re.compile(r"[*?\[\]]")


def make_prefilter(config: Config) -> Callable[[bytes], bool]:
    """A fast predicate over a file's bytes for this configuration."""
    tokens: List[bytes] = []
    for registry in config.registries:
        tokens.append(registry.lstrip("@").rsplit("::", 1)[-1].encode())
    for pattern in config.guard + config.families:
        pieces = [p for p in _GLOB_CHARS.split(pattern.rsplit("::", 1)[-1]) if len(p) >= 3]
        if pieces:
            tokens.append(max(pieces, key=len).encode())
    quoted = re.compile(rb"""["'](?:%s)["']""" % config.name_pattern.encode())

    def keep(data: bytes) -> bool:
        if any(token in data for token in tokens):
            return True
        return quoted.search(data) is not None

    return keep
