"""Parse less: the bodies no fact can come from are parsed as `pass`, and the facts are the whole file's.

`lint_plugin/extract/bodies.py` decides from the bytes which function and method bodies the reader
could read something in; the others become `pass` and blank lines before the parser sees them. The
facts must be exactly those of the whole parse: for the example below (each body's fate beside it),
for every file of the fixtures and of a generated benchmark tree, and, in `test_fuzz.py`, for
archsync-shaped, mutated and grammatical Python. The one allowed difference: a syntax error inside a
stubbed body is not seen (no fact is read there).
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Sequence

import pytest

from lint_plugin.extract.bodies import stubbed, verified
from lint_plugin.extract.facts import FileFacts
from lint_plugin.extract.from_bytes import NEVER, extract_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gen import generate  # noqa: E402

NAME_PATTERN = r"[A-Z][A-Za-z0-9_]*(?:For[A-Za-z]+|Model|LM)"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

SOURCE = b'''"""Serving helpers."""
import logging

logger = logging.getLogger(__name__)
_HYBRID_ARCHS = {"Qwen3_5ForCausalLM"}
LIMIT = 4


def page_size(config):  # kept: a quoted name
    if config.architectures[0] == "DeepseekV3ForCausalLM":
        return 1
    return 16


def is_hybrid(config):  # kept: a module-level collection
    return config.architectures[0] in _HYBRID_ARCHS


def is_mamba(config):  # kept: may delegate to a predicate
    return _is_ssm(config) or is_hybrid(config)


def warm_up(model):  # stubbed: returns a plain value
    logger.info("warming up")
    steps = LIMIT * 2
    return steps


class Runner(Base):
    """Runs a model."""

    def __init__(self, config: RunnerConfig):  # stubbed: its signature is read, not its body
        self.config = config

    def describe(self):  # stubbed: a docstring's code is no return
        """Example:
        return self.config in ARCHS
        """
        return {
            "name": self.name,
        }

    def close(self):  # stubbed: returns nothing
        if self.open:
            return
        self.open = False

    def build(self, config):  # stubbed: a call with a keyword argument is no test
        return make_model(config, dtype=self.dtype)

    def size(self, config):  # kept: `**` raises a power here, no keyword: may delegate
        return round_up(config.size / 1024**3, 2)

    def registers(self, name):  # kept: may register into an imported registry
        ModelRegistry.register_model(name, self.model_class)

    def typed(self, config):  # kept: a type test on a config
        return isinstance(config, (LlamaConfig, MistralConfig))
'''

EXPECTED = b'''"""Serving helpers."""
import logging

logger = logging.getLogger(__name__)
_HYBRID_ARCHS = {"Qwen3_5ForCausalLM"}
LIMIT = 4


def page_size(config):  # kept: a quoted name
    if config.architectures[0] == "DeepseekV3ForCausalLM":
        return 1
    return 16


def is_hybrid(config):  # kept: a module-level collection
    return config.architectures[0] in _HYBRID_ARCHS


def is_mamba(config):  # kept: may delegate to a predicate
    return _is_ssm(config) or is_hybrid(config)


def warm_up(model):  # stubbed: returns a plain value
    pass




class Runner(Base):
    """Runs a model."""

    def __init__(self, config: RunnerConfig):  # stubbed: its signature is read, not its body
        pass

    def describe(self):  # stubbed: a docstring's code is no return
        pass






    def close(self):  # stubbed: returns nothing
        pass



    def build(self, config):  # stubbed: a call with a keyword argument is no test
        pass

    def size(self, config):  # kept: `**` raises a power here, no keyword: may delegate
        return round_up(config.size / 1024**3, 2)

    def registers(self, name):  # kept: may register into an imported registry
        ModelRegistry.register_model(name, self.model_class)

    def typed(self, config):  # kept: a type test on a config
        return isinstance(config, (LlamaConfig, MistralConfig))
'''


def _interest(source: bytes, name_pattern: str = NAME_PATTERN) -> list:
    return [m.start() for q in (b'"', b"'") for m in re.finditer(q + b"(%s)" % name_pattern.encode() + q, source)]


def test_each_body_is_kept_or_stubbed_as_its_comment_says():
    stub = stubbed(SOURCE, _interest(SOURCE))
    assert stub is not None and stub.text == EXPECTED
    assert stub.lines == (24, 33, 36, 44, 49)  # each `pass`
    assert verified(ast.parse(stub.text), stub.lines)


def test_the_example_gives_the_whole_files_facts():
    assert_stubbing_changes_no_fact(SOURCE)


def test_a_string_that_spells_a_function_is_left_as_written():
    source = b'HELP = """\ndef warm_up(model):\n    return model\n"""\n'
    assert stubbed(source, []) is None


def test_a_class_whose_header_may_end_in_a_comment_is_left_whole():
    """A header misread from a comment would make the blocks of a method's body look like methods."""
    source = b"class Runner(Base,  # see page_size():\n             Other):\n    def close(self):\n        return\n"
    assert stubbed(source, []) is None


def test_a_nul_byte_in_a_body_leaves_the_file_refused_as_python_refuses_it():
    source = SOURCE.replace(b"steps = LIMIT * 2", b"steps = LIMIT \0* 2")
    facts = assert_stubbing_changes_no_fact(source)
    assert facts.error is not None and "null bytes" in facts.error


def test_a_stub_the_tree_does_not_hold_where_it_was_put_is_refused():
    stub = stubbed(SOURCE, _interest(SOURCE))
    assert stub is not None
    tree = ast.parse(stub.text)
    assert not verified(tree, stub.lines + (9,))  # line 9 is `def page_size`, kept whole


def assert_stubbing_changes_no_fact(source: bytes, registries: Sequence[str] = ("EntryClass", "@register"),
                                   name_pattern: str = NAME_PATTERN, path: str = "m.py") -> FileFacts:
    """The facts with every body that can be stubbed stubbed are the whole parse's, but where the whole file
    does not parse for an error inside a stubbed body; returns them."""
    facts = extract_file(source, path, "m", registries, False, name_pattern, stub_from=0)
    whole = extract_file(source, path, "m", registries, False, name_pattern, stub_from=NEVER)
    if whole.error is not None and facts.error is None:
        stub = stubbed(source, _interest(source, name_pattern))
        assert stub is not None
        text = stub.text
        if "nested too deeply" in whole.error:
            return facts  # an expression too deep to parse, in a body not parsed
        line = int(re.search(r"line (\d+)", whole.error).group(1)) if "line" in whole.error else 0
        changed = {n for n, (a, b) in enumerate(zip(source.split(b"\n"), text.split(b"\n")), 1) if a != b}
        assert line in changed or not changed or line > len(text.split(b"\n")) - 1, whole.error
        return facts
    assert facts == whole
    return facts


@pytest.mark.parametrize("path", sorted(p for p in FIXTURES.rglob("*.py")), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_file_gives_the_whole_files_facts(path):
    assert_stubbing_changes_no_fact(path.read_bytes(), path=path.name)


def test_every_file_of_a_generated_tree_gives_the_whole_files_facts(tmp_path):
    generate(tmp_path, size=1, seed=7)
    files = sorted(tmp_path.rglob("*.py"))
    assert len(files) > 100
    for path in files:
        assert_stubbing_changes_no_fact(path.read_bytes(), path=path.name)
