"""Clones: a list that holds a model beside two subclasses of it that define no method treats the model's
clones alike, so another such subclass belongs there too (ARC105); a dict whose values differ from key to key
is a table of per-name values, where code identity says nothing; one of strings keeps each name's string.

`Literal.valued` is read when a file is parsed; the fixture `kinship/clone_precedent` runs the whole engine.
"""
from __future__ import annotations

import json
from typing import Dict

import pytest

from conftest import FIXTURES, archsync
from lint_plugin.config.settings import DEFAULT_NAME_PATTERN
from lint_plugin.extract.facts import Literal
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.project.codec import decode_facts, encode_facts


def valued(source: str) -> Dict[str, bool]:
    facts = extract_file(source.encode(), "pkg/m.py", "pkg.m", [], False, DEFAULT_NAME_PATTERN)
    return {c.name: any(p.valued for p in c.parts if isinstance(p, Literal)) for c in facts.collections}


@pytest.mark.parametrize("source, table", [
    ('PAD = {"AForCausalLM": "<pad>", "BForCausalLM": "<unk>"}\n', True),
    ('PAD = dict(AForCausalLM=("m", "A"), BForCausalLM=("m", "B"))\n', True),
    ('PAD = {"AForCausalLM": True, "BForCausalLM": True}\n', False),
    ('PAD = dict(AForCausalLM=None, BForCausalLM=None)\n', False),
    ('PAD = {"AForCausalLM", "BForCausalLM"}\n', False),
    ('PAD = ["AForCausalLM", "BForCausalLM"]\n', False),
])
def test_a_dict_is_a_table_where_its_values_differ_from_key_to_key(source, table):
    assert valued(source) == {"PAD": table}


def test_the_cache_keeps_whether_a_literal_is_a_table():
    source = 'PAD = {"AForCausalLM": "<pad>", "BForCausalLM": "<unk>"}\nARCHS = ["AForCausalLM", "BForCausalLM"]\n'
    facts = extract_file(source.encode(), "pkg/m.py", "pkg.m", [], False, DEFAULT_NAME_PATTERN)
    stored = decode_facts(json.loads(json.dumps(encode_facts(facts))))  # as the index cache writes and reads it
    assert stored == facts
    assert [p.valued for c in stored.collections for p in c.parts] == [True, False]


@pytest.mark.parametrize("source, values", [
    ('KEY = dict(AForCausalLM="alpha", BForCausalLM="beta")\n', ("alpha", "beta")),
    ('KEY = {"AForCausalLM": "alpha", "BForCausalLM": "beta", **MORE}\n', ("alpha", "beta")),
    ('KEY = {"AForCausalLM": "alpha", "BForCausalLM": BETA}\n', ()),  # one value is no string: none kept
    ('KEY = dict(AForCausalLM=("m", "A"), BForCausalLM=("m", "B"))\n', ()),
    ('KEY = {"AForCausalLM": "alpha", "BForCausalLM": "alpha"}\n', ()),  # the same for all: no table
])
def test_a_table_of_strings_keeps_the_string_of_each_name(source, values):
    """The string each name maps to, where every name maps to one (`Literal.values`, `rules/arc105`)."""
    facts = extract_file(source.encode(), "pkg/m.py", "pkg.m", [], False, DEFAULT_NAME_PATTERN)
    literal = [p for c in facts.collections for p in c.parts if isinstance(p, Literal)]
    assert [p.values for p in literal] == [values]
    assert decode_facts(json.loads(json.dumps(encode_facts(facts)))) == facts  # as the index cache keeps them


def test_why_names_the_clone_the_subject_holds():
    lines = archsync("why", "--no-cache", "LATENT_ATTENTION_ARCHS", "MagpieForCausalLM",
                     cwd=FIXTURES / "kinship" / "clone_precedent").lines
    assert "the project treats them alike: the subject holds 'HeronForCausalLM', 'IbisForCausalLM' beside " \
           "'KestrelForCausalLM', each running the code of 'KestrelForCausalLM' as 'MagpieForCausalLM' does" in lines
    for subject, name in (("FAST_DEFAULT_ARCHS", "MagpieForCausalLM"), ("IMAGE_PAD_TOKENS", "WrenTinyForCausalLM")):
        lines = archsync("why", "--no-cache", subject, name, cwd=FIXTURES / "kinship" / "clone_precedent").lines
        assert "the project does not treat them alike: one kind of evidence, fewer than two lists hold both, and " \
               "the subject holds fewer than two other names that run the same code" in lines
