"""How architecture names are spelt, as the byte prefilter and the readers both judge it.

Kept apart from the readers (and free of their imports) so that the prefilter loads alone.
"""
from __future__ import annotations

import codecs
import re
from typing import Callable, FrozenSet, Iterable, Sequence

_EMBEDDABLE = re.compile(r"[\[\]A-Za-z0-9_*+?{},-]*")
# transformers' factories (`AutoModel`, `AutoModelForCausalLM`, `AutoConfig`): a checkpoint's `auto_map` writes them
# beside its classes, and a script binds one to build with (`model_cls = AutoModelForCausalLM`); no checkpoint is
# one, and no project serves a model with one (`AutoformerForPrediction` is a model)
_FACTORY_TEXT = r"Auto[A-Z]"
_NOT_A_FACTORY = f"(?!{_FACTORY_TEXT})"
# `...ForCausalLM`, `ChatGLMModel`, `QWenLMHeadModel`, and a diffusion pipeline (`QwenImagePipeline`: the class
# name a checkpoint's model_index.json gives, what a diffusion server's registry is keyed by); not a task alone
# (`ForCausalLM`, `Model`: a table of suffixes, `_architecture_to_auto_class = {"ForCausalLM": ...}`, registers
# no model)
_ARCHITECTURE = re.compile(_NOT_A_FACTORY + r"(?!For[A-Z])\w+?(?:For[A-Z]\w*|Model|LM|Pipeline)")
# a model class (`...For<Task>`, `...Model`, `...LM`): what a registering decorator must be on to register
MODEL_CLASS = re.compile(_NOT_A_FACTORY + r"_*[A-Z]\w*(?:For[A-Z]\w*|Model|LM)")


_FACTORY = re.compile(_FACTORY_TEXT)
# a class named for mixture-of-experts layers or models (`FusedMoE`, `Qwen3MoeSparseMoeBlock`, `AfmoeExperts`): a
# model module that imports or defines one builds them (`kinship/code.py`, `project/model_types.py`)
EXPERT_LAYER = re.compile(r"Mo[Ee]|Experts")


def names_test(shape: "re.Pattern[str]") -> Callable[[str], bool]:
    """Does a string read as an architecture name: the configured shape, and not transformers' factories
    (`AutoModelForCausalLM`), whatever the shape takes?"""
    return lambda text: shape.fullmatch(text) is not None and _FACTORY.match(text) is None


def embeddable(name_pattern: str) -> bool:
    """May the name shape be embedded in a byte expression between quotes and mean the same there?

    Only character classes of letters and digits, and quantifiers: nothing that can match a quote
    or a newline (`.`, `[^...]`, `\\S`), no flag, group or escape a byte expression reads otherwise.
    """
    return _EMBEDDABLE.fullmatch(name_pattern) is not None and "[]" not in name_pattern


def an_architecture(names: Iterable[str]) -> bool:
    """Is any of these names spelt like an architecture? A registry found by shape counts only when at
    least half of its names are (`mostly_architectures`), so a file spelling none registers nothing so."""
    return any(_ARCHITECTURE.fullmatch(n) for n in names)


def mostly_architectures(names: Sequence[str]) -> bool:
    """Are at least half of a registry's names spelt like architectures (`...For<Task>`, `...Model`)?

    Real registries hold a few odd names (vLLM's `MiniCPMV`, `Ovis`); registries of other things
    (`EngineArgs`, `DataTypeTag`, `FeatureExtractor`s) hold almost none.
    """
    return 2 * sum(1 for n in names if _ARCHITECTURE.fullmatch(n)) >= len(names)


# A string that may read otherwise than its bytes spell it: name characters up to an escape, or a
# string of name characters followed, across blanks, continuations and comments only, by another
# string (implicit concatenation). One expression per quote character: a literal first byte. Each
# stretch between the strings has one way to be matched (a comment runs to its line's end, a
# continuation is one token), so a near miss costs linear time, not a choice at every blank.
_BETWEEN = rb"(?:[ \t\f\r\n]|\\\r?\n|\\\r(?!\n)|#[^\r\n]*(?=[\r\n]|\Z))*"
_RESPELT = tuple(re.compile(quote + rb"(?:[A-Za-z0-9_]*\\[xuUN0-7]|[A-Za-z0-9_]+" + quote +
                            _BETWEEN + rb"[rRbBuU]{0,2}[\"'])")
                 for quote in (rb'"', rb"'"))
_PREFIX = frozenset(b"rRbBuUfF")
_BLANK = frozenset(b" \t\f\r\n\\")


def respelt(data: bytes) -> FrozenSet[str]:
    """The values of string literals, and runs of adjacent ones, whose bytes do not spell them (escapes,
    implicit concatenation) and which hold nothing but name characters, as the parser reads them: the
    quoted-name expressions of the prefilter see the others. A superset: a run read from a closing quote
    gives a value no name has."""
    found = set()
    for pattern in _RESPELT:
        for match in pattern.finditer(data):
            start = match.start()
            while start > 0 and data[start - 1] in _PREFIX:  # `r"..."`: the prefix says how to read it
                start -= 1
            value = _run_value(data, start)
            if value:
                found.add(value)
    return frozenset(found)


def _run_value(data: bytes, position: int) -> str:
    """The value of the run of adjacent string literals starting at `position` (a quote), if every piece
    is a plain or escaped run of name characters; "" otherwise."""
    pieces = []
    while position < len(data):
        start = position
        while position < len(data) and data[position] in _PREFIX:
            position += 1
        if position >= len(data) or data[position] not in b"\"'":
            break
        quote = data[position:position + 3] if data[position:position + 3] in (b'"""', b"'''") else \
            data[position:position + 1]
        end = data.find(quote, position + len(quote))
        if end == -1:
            return ""
        body = data[position + len(quote):end]
        if b"\n" in body or (b"\\" in body and quote[:1] * 2 in body):
            return ""
        raw = b"r" in data[start:position].lower()
        try:
            text = body.decode("utf-8") if raw or b"\\" not in body else codecs.decode(body, "unicode_escape")
        except (UnicodeDecodeError, ValueError):
            return ""
        if not _NAME_CHARACTERS.fullmatch(text):
            return ""
        pieces.append(text)
        position = end + len(quote)
        while position < len(data) and (data[position] in _BLANK or data[position] == 35):
            if data[position] == 35:  # a comment, to its line's end
                newline = data.find(b"\n", position)
                position = len(data) if newline == -1 else newline
            position += 1
    return "".join(pieces)


_NAME_CHARACTERS = re.compile(r"\w*", re.ASCII)
