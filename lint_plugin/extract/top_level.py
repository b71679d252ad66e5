"""A module's bytes with the top-level functions and classes that cannot matter left out: parse less.

A file read for one kind of fact alone (its lists of model types: `resolve/model_types.py`) needs the
functions and classes that spell what that fact is written with, and its module-level statements (the
imports and constants those refer to); the rest is most of its bytes. Each other column-0 `def` or
`class` (its decorators with it) is blanked, and so is each other method of a class that is kept
(its first line becomes `pass`, so the class keeps a body): the lines are kept empty, so what is kept
stays at its line and column, and its facts are the whole file's facts there. Statements are found
as `bodies.py` finds them (a line inside a string or continuing another starts none); a layout the
bytes still misjudge leaves a text that does not parse, and the caller reads the whole file.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from .bodies import DEFINITION, Layout, class_body, statement_blocks


def blocks_spelling(source: bytes, words: Sequence[bytes]) -> bytes:
    """`source` with every column-0 function and class that spells none of `words` blanked, and in a class
    that does, every method that does not (its first line a `pass`, so the class still has a body)."""
    pieces: List[bytes] = []
    kept = _blank(source, Layout(source), tuple(words), 0, len(source), b"", pieces)
    pieces.append(source[kept:])
    return b"".join(pieces)


def _blank(source: bytes, layout: Layout, words: Tuple[bytes, ...], begin: int, end: int, indent: bytes,
           pieces: List[bytes]) -> int:
    """Blank the definitions at `indent` in `source[begin:end]` that spell none of `words`, appending what is
    kept before each to `pieces`; returns where the kept text resumes (the statements as `bodies.py` finds
    them: a line inside a string starts none)."""
    kept = begin
    for start, definition_at, stop in statement_blocks(source, layout, begin, end, indent):
        definition = DEFINITION.match(source, definition_at)
        if definition is not None and all(source.find(word, start, stop) == -1 for word in words):
            lines = source.count(b"\n", start, stop)
            stub = indent + b"pass\n" if indent and lines else indent + b"pass" if indent else b""
            pieces += [source[kept:start], stub + b"\n" * (lines - (1 if stub.endswith(b"\n") else 0))]
            kept = stop
        elif definition is not None and definition.group(2):  # a class that spells it: its methods
            body = class_body(source, layout, definition_at, stop, indent)
            if body is not None:
                pieces.append(source[kept:body[0]])
                kept = _blank(source, layout, words, body[0], stop, body[1], pieces)
    return kept
