"""Byte-level tests that keep files which cannot matter away from any parser.

A file matters when it may hold a guarded collection (its bytes contain a literal
piece of a `guard` glob), a registration (a registry name), or a quoted string that
is a registered architecture name (any name-shaped string while nothing is
registered). Families are limited to registered names, so a predicate listing only
unregistered strings cannot be a family. Anything else that is referenced by name
from a kept file is parsed on demand by the index.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import FrozenSet, List, Optional, Sequence, Tuple

from ..config import Config

# Glob characters, plus the '@' and ':' of anonymous (`function@line`) and decorator
# (`@decorator:function`) collection names, which never appear in the source as written.
_NOT_IN_SOURCE = re.compile(r"[*?\[\]@:]")


@dataclass(frozen=True)
class Signals:
    """What the bytes of one file say about it, before any parsing."""

    guarded: bool  # may define a guarded collection or a configured family
    registers: bool  # mentions a registry name
    quoted: FrozenSet[str]  # quoted strings in the architecture-name shape
    # identifiers tested by `in NAME` or called as `return NAME(` / `or NAME(`: a
    # predicate defined here may test names that live in another file
    referenced: FrozenSet[str] = frozenset()


class Prefilter:
    """Computes `Signals` for a file's bytes under one configuration."""

    def __init__(self, config: Config) -> None:
        self.registry_tokens = [r.lstrip("@").encode() for r in config.registries if "::" not in r]
        qualified = tuple(r for r in config.registries if "::" in r)
        self.guard_tokens: List[bytes] = []
        for pattern in config.guard + config.named_families + config.named_collections + qualified + config.config_maps:
            pieces = [p for p in _NOT_IN_SOURCE.split(pattern.rsplit("::", 1)[-1]) if len(p) >= 3]
            if pieces:
                self.guard_tokens.append(max(pieces, key=len).encode())
        # One expression per quote character: a literal first byte lets the regex
        # engine skip ahead, about 5x faster than a ["'] class on real trees.
        name = config.name_pattern.encode()
        self.quoted = (re.compile(rb'"(%s)"' % name), re.compile(rb"'(%s)'" % name))
        # Literal first bytes again keep these fast (an alternation at the start is ~6x slower).
        self.references = (re.compile(rb" in \(?\s*(?:\w+\.)*(\w+)"),
                           re.compile(rb"return (\w+)\("), re.compile(rb" or (\w+)\("))
        tokens = b"|".join(re.escape(t) for t in self.registry_tokens) if self.registry_tokens else rb"(?!x)x"
        self.registration = re.compile(rb"^(?:%s)[ \t]*(?::[^=\n]*)?=(?!=)" % tokens, re.M)

    def signals(self, data: bytes) -> Signals:
        return Signals(
            guarded=any(token in data for token in self.guard_tokens),
            registers=any(token in data for token in self.registry_tokens),
            quoted=_matches(self.quoted, data, "utf-8"),
            referenced=_matches(self.references, data, "ascii"),
        )

    def registration_snippets(self, data: bytes) -> Optional[List[Tuple[int, bytes]]]:
        """(first line, text) of each column-0 registration statement, or None if unsure.

        Lets a model file that only registers classes skip a full parse. None means
        "parse the whole file": an indented registration, or unbalanced brackets.
        """
        snippets = []
        for match in self.registration.finditer(data):
            start = match.start()
            end = _statement_end(data, match.end())
            if end is None:
                return None
            snippets.append((data.count(b"\n", 0, start) + 1, data[start:end]))
        if not snippets:
            return None
        return snippets


def _statement_end(data: bytes, position: int) -> Optional[int]:
    depth = 0
    limit = min(len(data), position + 20000)
    while position < limit:
        char = data[position]
        if char in b"([{":
            depth += 1
        elif char in b")]}":
            depth -= 1
            if depth < 0:
                return None
        elif char in b"\"'#\\":
            return None  # strings, comments and continuations: let the parser decide
        elif char == 10 and depth == 0:
            return position
        position += 1
    return position if position == len(data) and depth == 0 else None


def _matches(patterns: Sequence["re.Pattern[bytes]"], data: bytes, encoding: str) -> FrozenSet[str]:
    return frozenset(m.group(1).decode(encoding, "replace") for p in patterns for m in p.finditer(data))
