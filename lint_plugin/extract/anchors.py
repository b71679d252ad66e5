"""Where a file's bytes spell the literals the byte readers' expressions start with, in one pass.

Each expression of the prefilter and of the import reader starts with a literal (`egist`,
`swith(`, `import`, a registry name, a newline and a capital at column 0). Run alone, each
expression scans the whole file for its literal: about twenty scans of every file's bytes. With a
compiled multi-pattern matcher (`ahocorasick_rs`, an Aho-Corasick automaton in Rust: the `fast`
extra), one pass finds every literal's positions and each expression is tried only there. Without
it, `Scan` answers as the expressions always did (their own `finditer`, `in` for a literal): the
same matches, since an expression that starts with a literal can match nowhere else, so the same
signals either way (`tests/test_anchors.py`). Expressions that start at a quote are no use here:
quotes are too frequent for a pass that hands each hit to Python.
"""
from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple


def _compiled_matcher() -> Any:
    """A builder of the compiled matcher, or None: it is optional, and the pure-Python path answers the same.

    Leftmost-longest matching, not every overlapping match: only then does the matcher use its
    vectorised search for the literals' starts (about 45 ms over SGLang's 48 MB against 100 ms);
    the occurrences it steps over are inside a match it reports, and `Anchors` adds them back."""
    try:
        module = importlib.import_module("ahocorasick_rs")
    except ImportError:  # pragma: no cover - exercised where the wheel is absent
        return None
    longest = getattr(module, "MATCHKIND_LEFTMOST_LONGEST", None) or module.MatchKind.LeftmostLongest
    return lambda literals: module.BytesAhoCorasick(literals, matchkind=longest)


_MATCHER: Any = _compiled_matcher()
COMPILED = _MATCHER is not None


@dataclass(frozen=True)
class Anchored:
    """An expression every match of which starts with one of `literals`: it may match only where one
    is spelt. Written as the literal then the rest (`of`), or, for an expression whose branches start
    differently, with the literal each branch starts with listed beside it (`branches`)."""

    literals: Tuple[bytes, ...]
    pattern: "re.Pattern[bytes]"

    @classmethod
    def of(cls, literal: bytes, rest: bytes) -> "Anchored":
        return cls((literal,), re.compile(re.escape(literal) + rest))

    @classmethod
    def branches(cls, literals: Sequence[bytes], source: bytes) -> "Anchored":
        return cls(tuple(literals), re.compile(source))


class Anchors:
    """The literals of a set of expressions, found together in one pass where the matcher is compiled."""

    def __init__(self, literals: Iterable[bytes], compiled: Optional[bool] = None) -> None:
        self.literals = tuple(sorted(set(literals)))
        use = COMPILED if compiled is None else compiled
        if use and _MATCHER is None:
            raise RuntimeError("the compiled matcher (ahocorasick_rs) is not installed")
        # an empty literal is spelt everywhere, which the matcher cannot report: the searches answer then
        use = use and bool(self.literals) and all(self.literals)
        self._matcher, self._inside = _prepared(self.literals, bool(use))

    @property
    def compiled(self) -> bool:
        return self._matcher is not None

    def scan(self, data: bytes) -> "Scan":
        """The positions of every literal in `data` (compiled), or a scan that searches as it is asked."""
        if self._matcher is None:
            return Scan(data, None)
        literals, inside = self.literals, self._inside
        found: Dict[int, List[int]] = {}
        for index, start, _ in self._matcher.find_matches_as_indexes(data):  # by position: each list ascends
            starts = found.get(index)
            if starts is None:
                found[index] = [start]
            else:
                starts.append(start)
        stepped: Set[int] = set()
        reported = [(index, found[index][:]) for index in found if inside[index]]
        for index, starts in reported:  # never the occurrences added here: no match was reported there
            for start in starts:
                for other, offset, surely in inside[index]:  # the literals this match stepped over
                    if surely or data.startswith(literals[other], start + offset):
                        found.setdefault(other, []).append(start + offset)
                        stepped.add(other)
        for index in stepped:
            found[index].sort()
        return Scan(data, {literals[index]: starts for index, starts in found.items()})


@functools.lru_cache(maxsize=8)  # one configuration's literals, check after check: a server's, a test run's
def _prepared(literals: Tuple[bytes, ...], compiled: bool) -> Tuple[Any, Tuple[Tuple[Tuple[int, int, bool], ...], ...]]:
    """The compiled matcher of `literals` (None when not `compiled`) and what may start inside each one's
    match: a pure function of the literals (the matcher is never changed once built), built once, since
    `_inside` is quadratic in their number and a language server makes an index per check."""
    matcher = _MATCHER(list(literals)) if compiled else None
    return matcher, tuple(_inside(literal, literals) for literal in literals)


def _inside(literal: bytes, literals: Tuple[bytes, ...]) -> Tuple[Tuple[int, int, bool], ...]:
    """The literals that may start inside a leftmost-longest match of `literal` (the matcher resumes
    past its end): (index, offset, surely), in order of offset; `surely` when `literal` contains it
    whole there, else it starts with what is left of `literal` and runs past its end, to be checked.
    A longer literal cannot start at the same place: the longest is the one reported."""
    found = []
    for offset in range(len(literal)):
        rest = literal[offset:]
        for index, other in enumerate(literals):
            if offset == 0 and len(other) >= len(literal):
                continue
            if rest.startswith(other):
                found.append((index, offset, True))
            elif other.startswith(rest):
                found.append((index, offset, False))
    return tuple(found)


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
            return expression.pattern.finditer(text)
        return iter(self._anchored(expression, text, padded))

    def _anchored(self, expression: Anchored, text: bytes, padded: bool) -> List["re.Match[bytes]"]:
        match_at = expression.pattern.match
        starts = self._starts(expression.literals)
        if padded:  # the newline put first is spelt nowhere in the file's bytes: try it too
            starts = [-1] + starts
        shift, end = (1 if padded else 0), 0
        found: List["re.Match[bytes]"] = []
        for start in starts:
            start += shift
            if start < end:
                continue  # inside the previous match: `finditer` resumes past it
            match = match_at(text, start)
            if match is not None:
                end = match.end()
                found.append(match)
        return found

    def _starts(self, literals: Tuple[bytes, ...]) -> List[int]:
        assert self.positions is not None
        if len(literals) == 1:
            return self.positions.get(literals[0], [])
        # a position twice (two literals start there) is tried once: a failed match fails again, and
        # a match's end is past it
        return sorted(start for literal in literals for start in self.positions.get(literal, ()))
