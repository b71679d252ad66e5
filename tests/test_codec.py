"""The cache codec: every fact of every fixture file survives encode -> JSON -> decode unchanged."""
import json
from pathlib import Path

import pytest

from lint_plugin.config import DEFAULT_NAME_PATTERN
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.project.codec import decode_facts, encode_facts

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SOURCES = sorted(FIXTURES.rglob("*.py"))

TYPE_DISPATCH = b'''
from typing import Optional
from .configs import A, B, C
import pkg.configs as cfgs


class Text(A):
    config_class = B


class Model(Text):
    body_cls = cfgs.Body

    def __init__(self, config: Optional["C"], quant=None):
        pass


def hybrid(model_config):
    config = model_config.hf_config
    if isinstance(config, A) and model_config.is_draft:
        return None
    if isinstance(config, A | B | cfgs.D):
        return config
    if isinstance(config, C):
        return config if config.layers else None
    return None
'''


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_facts_round_trip(path):
    facts = extract_file(path.read_bytes(), "m.py", "pkg.m", ["EntryClass", "@register_auto_model"], False,
                         DEFAULT_NAME_PATTERN)
    assert decode_facts(json.loads(json.dumps(encode_facts(facts)))) == facts


def test_classes_and_type_predicates_round_trip():
    facts = extract_file(TYPE_DISPATCH, "pkg/m.py", "pkg.m", ["EntryClass"], False, DEFAULT_NAME_PATTERN)
    assert [c.name for c in facts.classes] == ["Text", "Model"]
    assert facts.classes[1].config.name == "C" and facts.classes[1].wrapped[0].name == "Body"
    (hybrid,) = facts.type_predicates
    assert [(t.target.name, t.condition, t.exclude) for t in hybrid.tests] == [
        ("A", "unless model_config.is_draft", True), ("A", None, False), ("B", None, False), ("D", None, False),
        ("C", "when config.layers", False),
    ]
    assert decode_facts(json.loads(json.dumps(encode_facts(facts)))) == facts


def test_a_malformed_entry_is_rejected():
    facts = extract_file(TYPE_DISPATCH, "pkg/m.py", "pkg.m", ["EntryClass"], False, DEFAULT_NAME_PATTERN)
    encoded = encode_facts(facts)
    encoded[9][0][1] = "not a line"
    with pytest.raises(ValueError):
        decode_facts(encoded)
