"""Whether a module-level value may be a collection, told from its bytes: the `names` gate of `bodies.py`.

A body that names a module-level collection is kept whole (the reader reads what grows or tests it), so
every module name whose value the reader may take for a collection must be found; a name it never takes
for one need not be. The reader (`values.collection_parts`, `ModuleReader._assignment`) takes a display, a
reference, a call of a collection builder or of a set method, a call that reads an environment variable,
a `+` or `|` of those, and, for a name spelt as a constant, any call or subscript. It never takes a
string, a number, a boolean, a comparison, a conditional, a `lambda`, other arithmetic, or a display of
numbers alone. Whatever the bytes leave unsure is taken for a collection.
"""
from __future__ import annotations

import functools
import re
from typing import List, Tuple

from .literals import STRINGS_SOURCE
from .shapes import COLLECTION_CALLS, SET_METHODS

_COLLECTING = frozenset(name.encode() for name in COLLECTION_CALLS + SET_METHODS + ("dict",))
# what a call reading an environment variable spells (`values._environment_read`): `os.environ.get`,
# `os.getenv`, `envs.NAME.get()`
_ENVIRONMENT = (b"environ", b"getenv", b"env.", b"envs.")
# a value that is never a collection: a number, a string, a keyword, alone on its line
_SCALAR = re.compile(rb"(?:-?\d[\w.]*|True|False|None|\"[^\"\\\r\n]*\"|'[^'\\\r\n]*')[ \t]*(?:#[^\r\n]*)?\r?$",
                     re.MULTILINE)
# The tokens that shape a value at its top level: strings and comments (skipped whole, so a bracket or
# an operator inside one is none), continuations, brackets, the statement's end, and the operators and
# keywords whose node is never a collection (a comparison, `and`, `not`, `x if c else y`, `lambda`), or
# may be one (`+`, `|`, a tuple's `,`), or is arithmetic. Compiled on first use: most runs ask no module value.
_TOKENS_SOURCE = (
    rb"(?P<skip>" + STRINGS_SOURCE + rb"|\\\r?\n)"
    rb"|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<end>\r?\n|;)"
    rb"|(?P<never>(?<![\w.])(?:and|or|not|if|lambda|in|is|await|yield)(?!\w)|:=|==|!=|<=|>=|->)"
    rb"|(?P<maybe>[+|,])"
    rb"|(?P<arith>\*\*|//|<<|>>|[-*/%&^~<>@])")


@functools.lru_cache(maxsize=None)
def _tokens() -> "re.Pattern[bytes]":
    return re.compile(_TOKENS_SOURCE, re.DOTALL)

# Values the reader never takes for a collection are short (a boolean, a number, a call of a few arguments);
# a table runs to thousands of tokens, whose scan would cost more than the parse it saves.
_MOST_TOKENS = 100
_NUMBERS_ONLY = re.compile(rb"#[^\r\n]*|([A-Za-z_\"'])")  # group 1: what a display of numbers never spells
_DIGIT = re.compile(rb"[0-9]")
_COMMENT = re.compile(rb"#[^\r\n]*")
_OPENING = (b"[", b"(", b"{")
_BLANKS = re.compile(rb"(?:[ \t]|\\\r?\n)*")  # between `=` and the value: blanks, continued lines
_STRING = re.compile(rb"[rRbBuUfF]{0,2}[\"']")
_CALLEE = re.compile(rb"(?:^|[^\w.])(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)[ \t]*$")  # the name a call's `(` follows


def may_be_collection(source: bytes, value: int, stop: int, constant: bool) -> bool:
    """May the value written from `value` (the statement ending by `stop`) be a collection to the reader?
    `constant`: a target is spelt as a constant (`_MODELS`), for which a call or a subscript is one."""
    blanks = _BLANKS.match(source, value)  # matches, if only the empty string
    value = blanks.end() if blanks is not None else value
    if _SCALAR.match(source, value):
        return False
    if source[value:value + 1] in _OPENING and _spells_something(source, value, stop):
        return True  # a display of names or strings (what follows it changes nothing the gate needs)
    groups: List[Tuple[int, int]] = []  # the brackets at the value's top level: (opening, after closing)
    depth, opened, end = 0, value, stop
    never = maybe = arith = False
    for count, token in enumerate(_tokens().finditer(source, value, stop)):
        if count == _MOST_TOKENS:
            return True  # a long value: a table, a call with many arguments; taken for one unread
        kind = token.lastgroup
        if kind == "skip":
            continue
        if kind == "open":
            if depth == 0:
                opened = token.start()
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth < 0:
                return True  # not a value the bytes say where ends
            if depth == 0:
                groups.append((opened, token.end()))
        elif depth:
            continue
        elif kind == "end":
            end = token.start()
            break
        elif kind == "never":
            never = True
        elif kind == "maybe":
            maybe = True
        else:
            arith = True
    if depth or never:
        return depth != 0  # an unclosed bracket: unsure
    if maybe or arith:
        return maybe
    return _trailed(source, value, end, groups, constant)


def _trailed(source: bytes, value: int, end: int, groups: List[Tuple[int, int]], constant: bool) -> bool:
    """An operand alone: a name, a display, a string, or one of those with calls and subscripts after it."""
    text = source[value:end].rstrip()
    if not groups:
        return _STRING.match(text) is None  # a string (or strings side by side) is none; a name may be one
    last_open, last_close = groups[-1]
    if _COMMENT.sub(b"", source[last_close:value + len(text)]).strip():
        return True  # an attribute of a call's result, or something the bytes do not say
    if len(groups) == 1 and last_open == value:
        return _spells_something(source, value, last_close)  # a display, or a value in brackets
    bracket = source[last_open:last_open + 1]
    if bracket == b"[":
        return constant  # a subscript: for a constant, what it gives is not known
    if bracket != b"(":
        return True
    before = source[groups[-2][1] if len(groups) > 1 else value:last_open]
    callee = _CALLEE.search(before)
    if callee is None:
        return True
    call = source[value:last_close]
    return constant or callee.group(1) in _COLLECTING or any(word in call for word in _ENVIRONMENT)


def _spells_something(source: bytes, start: int, stop: int) -> bool:
    """Does the display hold anything but numbers (a name, a string), or nothing at all (an empty list
    grows later)?"""
    return any(match.group(1) for match in _NUMBERS_ONLY.finditer(source, start, stop)) \
        or _DIGIT.search(source, start, stop) is None
