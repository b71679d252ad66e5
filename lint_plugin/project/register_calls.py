"""Which `...regist...("...")` calls in a file's bytes may register an architecture name.

The prefilter's first registration shape, a registering name called with a string (or a list),
catches `register_model("LlamaForCausalLM", ...)` and also every `self.register_buffer("inv_freq",
...)` of PyTorch model code and `register_connector("SharedStorageConnector", ...)` of plugin
tables: a third of the files SGLang parsed in full for their registrations held only those.
Extraction reads a call as a registration only when its first argument is a string in the name
shape, or any string with a list of architecture names among the later arguments (the engine's own
key, `register_model("qwen_3_moe", QWenV3Moe, ["Qwen3MoeForCausalLM"])`: `registrations.call_registration`),
and keeps the registrations of one callee only when
at least half of their names are spelt like architectures (`mostly_architectures`); a decorator
it reads only on a model class (`...ForCausalLM`, `...Model`, `...LM`), with every argument
(`class_registrations`), and one of them a string in the name shape. So a call that is no
decorator and whose first argument is a list, or a plain string that is no architecture name,
registers nothing unless another call in the file may register too, which makes the file a
candidate anyway; nor does a decorator on a function or on a class of another name
(`@CustomOp.register("rms_norm") class RMSNorm`), nor one in a file that spells no string a name
could be. Anything less plain (escapes, implicit concatenation, a comment, a parenthesised
argument, a decorated statement the bytes cannot tell) still counts.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from ..extract.spelling import MODEL_CLASS, mostly_architectures

# Bytes a decorator's expression may hold between its `@` and the registering name: a dotted
# path, blanks, line continuations, opening parentheses (`@(register)(...)`).
_DECORATOR_PATH = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_. \t\r\n\f\\(")
_AT = ord("@")
# What follows the call's `(` (the match's end is just past its first quote or bracket): the rest
# of a string of plain characters, closed by the same quote and followed by the end of the argument.
_PLAIN_REST = {ord('"'): re.compile(rb'([^"\\\r\n\x80-\xff]*)"\s*[,)]'),
               ord("'"): re.compile(rb"([^'\\\r\n\x80-\xff]*)'\s*[,)]")}
_LIST = ord("[")
_KEYWORD = re.compile(rb"name\s*=")  # a decorator's `name=` keyword (`@register_module(name="qwen3_5")`)
# The statement a decorator is on: the first line after it that opens a class or a function (a line of
# the decorator's own arguments opens neither: a keyword there is inside a string, which is looked for)
_DECORATED = re.compile(rb"\n[ \t]*(?:(class)\b(?:[ \t]+(\w+)[ \t]*[(:])?|(?:async[ \t]+)?def\b)")
_STRING_ACROSS_LINES = re.compile(rb"\"\"\"|'''|\\\r?\n")
_QUOTED_TYPE = re.compile(rb"([\"'])([a-z][a-z0-9_.\-]*)\1")


def may_register(data: bytes, start: int, end: int, is_name: Callable[[str], object],
                 names_spelt: Optional[bool] = None) -> bool:
    """May the call the shape matched at `data[start:end]` register a name?

    The match starts in the registering name and runs past the call's `(` into its first argument,
    which is read again here from its opening character. `names_spelt`: whether the file spells any
    string in the name shape (None: not asked, and a decorator always may register). A decorator that
    quotes a string in the model-type shape (`@ModelRegistry("llama")`) may register model types, whether or
    not the table knows them: whether its registry is keyed by model type is a vote of all its keys
    (`ModelTypeTable.keyed_by_model_type`), which must count the same keys whatever files are parsed.
    """
    if _decorated(data, start):  # a registry keyed by model type registers no name spelt as one, too
        return names_spelt is None or ((names_spelt or _quotes_a_model_type(data, start, end))
                                       and _on_a_model_class(data, end))
    position = data.find(b"(", start, end) + 1  # the call's own: the name before it holds none
    while data[position] in b" \t\r\n\f":
        position += 1
    first = data[position]
    if _KEYWORD.match(data, position):
        return False  # `register(name="...")`: a call registers by its first positional argument only
    if first == _LIST:
        return False  # a list is no string: `call_registration` reads none of it
    rest = _PLAIN_REST.get(first)
    if rest is None:
        return True  # `((...`: a parenthesised string is still a string
    plain = rest.match(data, position + 1)
    if plain is None:
        return True
    text = plain.group(1).decode("ascii")
    if is_name(text) and mostly_architectures((text,)):
        return True
    return _lists_architectures(data, plain.end(), is_name)  # keyed by a name of its own (`"qwen_3_moe"`)


def _lists_architectures(data: bytes, start: int, is_name: Callable[[str], object]) -> bool:
    """Does a list of the call's later arguments quote an architecture (`register_model("qwen_3_moe", QWen3Moe,
    ["Qwen3MoeForCausalLM"])`, `support_architectures=[...]`)? Read up to the call's closing parenthesis, or a
    bound: a superset of `registrations.call_registration`'s."""
    depth, end = 1, min(len(data), start + _CALL_WINDOW)
    for position in range(start, end):
        byte = data[position]
        if byte in b"([{":
            depth += 1
        elif byte in b")]}":
            depth -= 1
            if depth == 0:
                end = position
                break
    return any(is_name(m.group(1).decode("ascii")) and MODEL_CLASS.fullmatch(m.group(1).decode("ascii"))
               for m in _LISTED.finditer(data, start, end))


_CALL_WINDOW = 4000  # bytes of a registering call's arguments read for a list of architectures
# a string in a list or tuple of the arguments (the first element, or one after a comma)
_LISTED = re.compile(rb"""[\[(,]\s*[\"']([A-Za-z_][A-Za-z0-9_]*)[\"']""")


def _quotes_a_model_type(data: bytes, start: int, end: int) -> bool:
    """Does the decorator whose registering call the shape matched at `data[start:end]` quote a string in the
    model-type shape before the statement it is on (`@ModelRegistry("llama")`, `(["deepseek_v2", ...])`,
    `(name="llama")`)? What `registrations.class_registrations` may read as model types holds one (most of its
    keys are so spelt)."""
    statement = _DECORATED.search(data, end)
    return _QUOTED_TYPE.search(data, start, statement.start() if statement is not None else len(data)) is not None


def filed_under(data: bytes, start: int, end: int) -> str:
    """The key a decorator whose registering call the shape matched at `data[start:end]` files its class under,
    its first argument or `name=` (`@INPUT_MODELS.register_module(name="deepseek2")`), or "" (no decorator)."""
    if not _decorated(data, start):
        return ""
    key = _KEY_ARGUMENT.match(data, data.find(b"(", start, end))
    return key.group(2).decode("ascii") if key else ""


_KEY_ARGUMENT = re.compile(rb"\(\s*(?:name\s*=\s*)?([\"'])([\w.\-]+)\1")


def _decorated(data: bytes, start: int) -> bool:
    """Is there an `@` before the registering name, past nothing but what a decorator's path holds?"""
    position = start
    while position > 0 and data[position - 1] in _DECORATOR_PATH:
        position -= 1
    return position > 0 and data[position - 1] == _AT


def _on_a_model_class(data: bytes, position: int) -> bool:
    """May the decorator whose call runs at `position` be on a model class (`class LlamaForCausalLM`)?
    Not when the statement it is on is a function, or a class named otherwise; a string that may run
    across lines before that statement leaves it unsure (yes)."""
    found = _DECORATED.search(data, position)
    if found is None or _STRING_ACROSS_LINES.search(data, position, found.start()) is not None:
        return True
    if found.group(1) is None:
        return False  # a function: its decorators register nothing by shape
    name = found.group(2)
    return name is None or MODEL_CLASS.fullmatch(name.decode("ascii")) is not None
