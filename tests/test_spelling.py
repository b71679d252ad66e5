"""Strings whose bytes do not spell their value, as the prefilter reads them (`extract/spelling.py`)."""
from __future__ import annotations

import pytest

from lint_plugin.extract.spelling import respelt


@pytest.mark.parametrize("source, values", [
    (b'x = "Qwen3" "ForCausalLM"\n', {"Qwen3ForCausalLM"}),
    (b'x = ("Qwen3"  # the text model\n     "ForCausalLM")\n', {"Qwen3ForCausalLM"}),
    (b'x = "Qwen3" \\\n    "ForCausalLM"\n', {"Qwen3ForCausalLM"}),
    (b'x = "Qwen3" \\\r\n    "ForCausalLM"\r\n', {"Qwen3ForCausalLM"}),
    (b"x = 'Qwen3' r'ForCausalLM'\n", {"Qwen3ForCausalLM"}),
    (b'x = "Qwen3\\x46orCausalLM"\n', {"Qwen3ForCausalLM"}),
    (b'x = "Qwen3ForCausalLM"\n', set()),  # spelt by its bytes: the quoted-name expressions see it
    (b'x = "Qwen3" + "ForCausalLM"\n', set()),  # an operator, not a run of literals
])
def test_runs_of_literals_and_escapes_are_read_as_the_parser_reads_them(source, values):
    assert respelt(source) == values


def test_a_string_before_a_long_comment_is_read_in_linear_time():
    """A string then a comment of many `# ` pieces and no string after it: every way of splitting the
    comment was tried before (2**n; n=18 took a minute, real vLLM modules never finished)."""
    source = b'x = "abc"  ' + b"# " * 200 + b"no string follows\ny = 1\n"
    assert respelt(source) == set()
