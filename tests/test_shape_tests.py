"""A file that tests a value against a piece of a registered name is kept by the prefilter (in-process).

`def is_llama(c): return c.architectures[0].startswith("Llama")` quotes no registered name, yet it
is a family of every `Llama...` name. The bytes keep the strings such tests may use
(`Signals.shape_tests`), and `resolve.selection` keeps the file when one is a piece of a registered
name. Every case is also read by extraction: whatever the parser reads as a test of a name, the
bytes must have kept the file for, however the source is written.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lint_plugin.config import Config
from lint_plugin.extract.facts import Pattern
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.project.prefilter import Prefilter
from lint_plugin.resolve.selection import _PieceTest

NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"
UNIVERSE = frozenset({"LlamaForCausalLM", "Gemma3ForConditionalGeneration", "MisoForCausalLM", "AfmoeForCausalLM"})

KEPT = [  # a test of a piece of a registered name, written in every way the parser reads the same
    'def f(c):\n    return c.architectures[0].startswith("Llama")\n',
    "def f(c):\n    return c.architectures[0].endswith(('ForCausalLM', 'Other'))\n",
    'def f(arch):\n    return "Gemma3" in arch\n',
    'def f(arch):\n    return (\n        "Gemma3"\n        in arch\n    )\n',
    'def f(arch):\n    return """Gemma3""" in arch\n',
    "def f(arch):\n    return 'Mi\\x73o' in arch\n",  # an escape
    'def f(arch):\n    return ("Gem"\n            "ma3" in arch)\n',  # implicit concatenation
    'def f(arch):\n    return "Gem" \\\n        "ma3" in arch\n',
    'def f(arch):\n    return r"Llama" in arch\n',
    'def f(arch):\n    return arch.startswith( "Llama" )\n',
    'def f(arch):\n    return arch.endswith("LM")\n',  # `CausalLM`: a word begins at its capital
]
DROPPED = [  # tests of other strings, or of nothing registered
    'def f(arch):\n    return "moe" in arch.lower()\n',  # a piece of no registered name
    'def f(arch):\n    return "M" in arch\n',  # one character: in too many names to be a test of any
    'def f(arch):\n    return arch.startswith("Qwen")\n',  # a piece of no registered name
    'def f(text):\n    return "<tool_call>" in text\n',
    'def f(arch):\n    return "moe" in arch\n',  # inside `Afmoe`, where no word begins
    'def f(arch):\n    return arch.endswith("ration")\n',  # inside `Generation`
    '# the "in-batch" requests, as the docs say\nX = 1\n',  # a quoted piece (`"Llama"`) anywhere keeps its
    # file: a predicate elsewhere may test a value against it through a constant
]


def kept(source: str) -> bool:
    signals = Prefilter(Config(root=Path("/"), name_pattern=NAME_PATTERN)).signals(source.encode())
    return _PieceTest(UNIVERSE)(signals.shape_tests)


def parsed_pieces(source: str):
    facts = extract_file(source.encode(), "m.py", "m", ["EntryClass"], False, NAME_PATTERN)
    return [t for p in facts.predicates for t in p.tests if isinstance(t, Pattern)
            and any(t.matches(name) for name in UNIVERSE)]


@pytest.mark.parametrize("source", KEPT)
def test_a_test_of_a_piece_of_a_registered_name_keeps_its_file(source):
    assert parsed_pieces(source), source
    assert kept(source), source


@pytest.mark.parametrize("source", DROPPED)
def test_a_test_of_other_strings_keeps_nothing(source):
    assert parsed_pieces(source) == [], source
    assert not kept(source), source


def test_nothing_registered_keeps_nothing():
    signals = Prefilter(Config(root=Path("/"), name_pattern=NAME_PATTERN)).signals(KEPT[0].encode())
    assert not _PieceTest(frozenset())(signals.shape_tests)
