"""Where a file's bytes spell the literals the byte readers' expressions start with, in one pass.

Each expression of the prefilter and of the import reader starts with a literal (`egist`,
`swith(`, `import`, a registry name, a newline and a capital at column 0). Run alone, each
expression scans the whole file for its literal: about twenty scans of every file's bytes. With a
compiled multi-pattern matcher (`ahocorasick_rs`, an Aho-Corasick automaton in Rust: the `fast`
extra), one pass finds every literal's positions and each
expression is tried only there. Without it, `Scan` answers as the expressions always did (their
own `finditer`, `in` for a literal): the same matches, since an expression that starts with a
literal can match nowhere else, so the same signals either way (`tests/test_anchors.py`).
"""
from __future__ import annotations

import importlib
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple


def _compiled_matcher() -> Any:
    """The compiled matcher's class, or None: it is optional, and the pure-Python path answers the same."""
    try:
        return importlib.import_module("ahocorasick_rs").BytesAhoCorasick
    except ImportError:  # pragma: no cover - exercised where the wheel is absent
        return None


_MATCHER: Any = _compiled_matcher()
COMPILED = _MATCHER is not None


class Anchored:
    """An expression every match of which starts with one of `literals`: it may match only where one
    is spelt. Written as the literal then the rest (`of`), or, for an expression whose branches start
    differently, with the literal each branch starts with listed beside it."""

    def __init__(self, literals: Sequence[bytes], source: bytes) -> None:
        self.literals = tuple(literals)
        self.pattern = re.compile(source)

    @classmethod
    def of(cls, literal: bytes, rest: bytes) -> "Anchored":
        return cls((literal,), re.escape(literal) + rest)


class Anchors:
    """The literals of a set of expressions, found together in one pass where the matcher is compiled."""

    def __init__(self, literals: Iterable[bytes], compiled: Optional[bool] = None) -> None:
        self.literals = tuple(sorted(set(literals)))
        use = COMPILED if compiled is None else compiled
        if use and _MATCHER is None:
            raise RuntimeError("the compiled matcher (ahocorasick_rs) is not installed")
        self._matcher: Any = _MATCHER(list(self.literals)) if use and self.literals else None

    @property
    def compiled(self) -> bool:
        return self._matcher is not None

    def scan(self, data: bytes) -> "Scan":
        """The positions of every literal in `data` (compiled), or a scan that searches as it is asked."""
        if self._matcher is None:
            return Scan(data, None)
        found: List[List[int]] = [[] for _ in self.literals]
        add = [starts.append for starts in found]
        for index, start, _ in self._matcher.find_matches_as_indexes(data, overlapping=True):
            add[index](start)
        return Scan(data, {literal: starts for literal, starts in zip(self.literals, found) if starts})


class Scan:
    """One file's bytes with, when the matcher is compiled, where each literal starts (ascending)."""

    __slots__ = ("data", "positions", "_padded")

    def __init__(self, data: bytes, positions: Optional[Dict[bytes, List[int]]]) -> None:
        self.data = data
        self.positions = positions
        self._padded: Optional[bytes] = None

    @property
    def padded(self) -> bytes:
        """The bytes after a newline, one copy for every column-0 expression: `^` under `re.M` tries
        every line start and is about 6x slower than a leading newline."""
        if self._padded is None:
            self._padded = b"\n" + self.data
        return self._padded

    def has(self, literal: bytes) -> bool:
        """Do the bytes spell `literal` (one of the scanned literals)?"""
        if self.positions is None:
            return literal in self.data
        return literal in self.positions

    def starts(self, literal: bytes) -> Iterable[int]:
        """Every position where the bytes spell `literal`, ascending (overlaps included)."""
        if self.positions is not None:
            return self.positions.get(literal, ())
        return self._found(literal)

    def _found(self, literal: bytes) -> Iterator[int]:
        start = self.data.find(literal)
        while start != -1:
            yield start
            start = self.data.find(literal, start + 1)

    def count(self, literal: bytes) -> int:
        """How many times the bytes spell `literal`, overlaps apart (as `bytes.count` counts)."""
        if self.positions is None:
            return self.data.count(literal)
        count, end = 0, 0
        for start in self.positions.get(literal, ()):
            if start >= end:
                count += 1
                end = start + len(literal)
        return count

    def finditer(self, expression: Anchored, padded: bool = False) -> Iterator["re.Match[bytes]"]:
        """The matches `expression.pattern.finditer` finds in the file's bytes (`padded`: in `b"\\n" +
        data`, as the column-0 expressions read them), tried only where one of its literals starts."""
        text = self.padded if padded else self.data
        if self.positions is None:
            yield from expression.pattern.finditer(text)
            return
        match_at = expression.pattern.match
        starts = self._starts(expression.literals)
        if padded:  # the newline put first is spelt nowhere in the file's bytes: try it too
            starts = [-1] + starts
        shift, end = (1 if padded else 0), 0
        for start in starts:
            start += shift
            if start < end:
                continue  # inside the previous match: `finditer` resumes past it
            found = match_at(text, start)
            if found is not None:
                end = found.end()
                yield found

    def _starts(self, literals: Tuple[bytes, ...]) -> List[int]:
        assert self.positions is not None
        lists = [self.positions[lit] for lit in literals if lit in self.positions]
        if len(lists) == 1:
            return lists[0]
        return sorted(set().union(*lists)) if lists else []
