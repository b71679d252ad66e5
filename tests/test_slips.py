"""What a slip of a registered name is (ARC201 reports it beside the right spelling), and what is not one."""
from __future__ import annotations

import pytest

from lint_plugin.resolve.slips import is_variant, slip_of

REGISTERED = frozenset({"Qwen3NextForCausalLM", "OlmoForCausalLM", "OlmoeForCausalLM", "Grok1ForCausalLM",
                        "DeepseekV2ForCausalLM", "Qwen3MoeForCausalLM"})


@pytest.mark.parametrize("name, meant", [
    ("Qwen3NextForCasualLM", "Qwen3NextForCausalLM"),  # two adjacent letters of a word swapped
    ("Qwen3NextForCauslLM", "Qwen3NextForCausalLM"),  # one dropped inside a word
    ("Qwen3NexxtForCausalLM", "Qwen3NextForCausalLM"),  # one doubled
    ("Qwen3NextForCausalLMM", "Qwen3NextForCausalLM"),  # a key struck twice, a one-letter word too
    ("OlmeoForCausalLM", "OlmoeForCausalLM"),  # the last letter of a word swapped with the one before it
])
def test_a_slip_names_the_registered_name_it_was_meant_to_be(name, meant):
    assert slip_of(name, REGISTERED) == meant


@pytest.mark.parametrize("name", [
    "Qwen3NextForCausalLM",  # registered: no slip of anything
    "Owen3NextForCausalLM",  # the first letter of a word is another key, not a slip of one
    "Qwen3NexForCausalLM",  # the last letter of a word dropped: where another word may begin or end
    "OlmoeForCausalLM",  # registered, and no slip of `Olmo` either: an `e` added at a word's end
    "Grok1VForCausalLM",  # a word added: a variant
    "DeepseekV3ForCausalLM",  # a number changed: a variant
    "Qwen3MoEForCausalLM",  # case is no slip
])
def test_no_slip(name):
    assert slip_of(name, REGISTERED) is None


def test_a_variant_differs_by_whole_words_only():
    assert is_variant("Grok1VForCausalLM", "Grok1ForCausalLM")
    assert is_variant("Qwen3MoeForCausalLM", "Qwen3ForCausalLM")
    assert is_variant("Qwen2VLForConditionalGeneration", "Qwen3VLForConditionalGeneration")
    assert not is_variant("Qwen3NextForCasualLM", "Qwen3NextForCausalLM")
    assert not is_variant("Qwen3NextForCausalLM", "Qwen3NextForCausalLM")
