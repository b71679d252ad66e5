"""Which `...regist...("...")` calls in a file's bytes may register an architecture name.

The prefilter's first registration shape, a registering name called with a string (or a list),
catches `register_model("LlamaForCausalLM", ...)` and also every `self.register_buffer("inv_freq",
...)` of PyTorch model code and `register_connector("SharedStorageConnector", ...)` of plugin
tables: a third of the files SGLang parsed in full for their registrations held only those.
Extraction reads a call as a registration only when its first argument is a string in the name
shape (`registrations.call_registration`), and keeps the registrations of one callee only when
at least half of their names are spelt like architectures (`mostly_architectures`); a decorator
it reads only on a class, with every argument (`class_registrations`). So a call that is no
decorator and whose first argument is a list, or a plain string that is no architecture name,
registers nothing unless another call in the file may register too, which makes the file a
candidate anyway. Anything less plain (escapes, implicit concatenation, a comment, a
parenthesised argument, a call that may be a decorator) still counts.
"""
from __future__ import annotations

import re
from typing import Callable

from ..extract.spelling import mostly_architectures

# Bytes a decorator's expression may hold between its `@` and the registering name: a dotted
# path, blanks, line continuations, opening parentheses (`@(register)(...)`).
_DECORATOR_PATH = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_. \t\r\n\f\\(")
_AT = ord("@")
# What follows the call's `(` (the match's end is just past its first quote or bracket): the rest
# of a string of plain characters, closed by the same quote and followed by the end of the argument.
_PLAIN_REST = {ord('"'): re.compile(rb'([^"\\\r\n\x80-\xff]*)"\s*[,)]'),
               ord("'"): re.compile(rb"([^'\\\r\n\x80-\xff]*)'\s*[,)]")}
_LIST = ord("[")


def may_register(data: bytes, start: int, end: int, is_name: Callable[[str], object]) -> bool:
    """May the call the shape matched at `data[start:end]` register a name?

    The match starts in the registering name and runs past the call's `(` into its first argument,
    which is read again here from its opening character.
    """
    if _decorated(data, start):
        return True
    position = data.find(b"(", start, end) + 1  # the call's own: the name before it holds none
    while data[position] in b" \t\r\n\f":
        position += 1
    first = data[position]
    if first == _LIST:
        return False  # a list is no string: `call_registration` reads none of it
    rest = _PLAIN_REST.get(first)
    if rest is None:
        return True  # `((...`: a parenthesised string is still a string
    plain = rest.match(data, position + 1)
    if plain is None:
        return True
    text = plain.group(1).decode("ascii")
    return bool(is_name(text)) and mostly_architectures((text,))


def _decorated(data: bytes, start: int) -> bool:
    """Is there an `@` before the registering name, past nothing but what a decorator's path holds?"""
    position = start
    while position > 0 and data[position - 1] in _DECORATOR_PATH:
        position -= 1
    return position > 0 and data[position - 1] == _AT
