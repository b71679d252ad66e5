"""Dispatches that test names standing for strings (`model_type == LLAMA`), in process, through extraction."""
from __future__ import annotations

from lint_plugin.config import DEFAULT_NAME_PATTERN
from lint_plugin.extract.facts import FileFacts
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.extract.model_chains import may_build_per_name


def _facts(source: str) -> FileFacts:
    return extract_file(source.encode(), "pkg/m.py", "pkg.m", [], False, DEFAULT_NAME_PATTERN)


def _registered(source: str):
    return [(r.registry, [(m.name, m.line) for m in r.names], list(r.implementations))
            for r in _facts(source).registrations]


_DISPATCH = '''
def get_model(config):
    model_type = config.model_type
    if model_type == {first}:
        return FlashCausalLM(model_class=LlamaForCausalLM)
    elif model_type == {second}:
        return FlashCausalLM(model_class=MistralForCausalLM)
'''


def test_an_enum_exported_by_a_loop_names_what_the_chain_tests_and_the_names_point_at_their_spelling():
    source = ('import enum\n'
              'class ModelType(enum.Enum):\n'
              '    LLAMA = {"type": "llama", "name": "Llama"}\n'
              '    MISTRAL = {"type": "mistral", "name": "Mistral"}\n'
              '__GLOBALS = locals()\n'
              'for data in ModelType:\n'
              '    __GLOBALS[data.name] = data.value["type"]\n'
              + _DISPATCH.format(first="LLAMA", second="MISTRAL"))
    assert _registered(source) == [("get_model:return", [("llama", 3), ("mistral", 4)],
                                    ["LlamaForCausalLM", "MistralForCausalLM"])]
    assert may_build_per_name(source.encode())


def test_constants_and_enum_members_of_strings_are_read_as_their_strings():
    enum = ('from enum import Enum\n'
            'class Kind(str, Enum):\n'
            '    LLAMA = "llama"\n'
            '    MISTRAL = "mistral"\n')
    assert _registered(enum + _DISPATCH.format(first="Kind.LLAMA", second="Kind.MISTRAL.value"))[0][1] == \
        [("llama", 3), ("mistral", 4)]
    constants = 'LLAMA_TYPE = "llama"\nMISTRAL_TYPE = "mistral"\n'
    assert _registered(constants + _DISPATCH.format(first="LLAMA_TYPE", second="MISTRAL_TYPE"))[0][1] == \
        [("llama", 1), ("mistral", 2)]


def test_a_name_bound_twice_or_not_in_a_constant_shape_is_not_read():
    rebound = 'LLAMA = "llama"\nMISTRAL = "mistral"\nMISTRAL = "mixtral"\n'
    assert _registered(rebound + _DISPATCH.format(first="LLAMA", second="MISTRAL")) == []
    lower = 'llama = "llama"\nmistral = "mistral"\n'
    assert _registered(lower + _DISPATCH.format(first="llama", second="mistral")) == []
    exported_other_key = ('import enum\n'
                          'class ModelType(enum.Enum):\n'
                          '    LLAMA = {"type": "llama"}\n'
                          '    MISTRAL = {"type": "mistral"}\n'
                          'for data in ModelType:\n'
                          '    globals()[data.value["type"]] = data.name\n')
    assert _registered(exported_other_key + _DISPATCH.format(first="LLAMA", second="MISTRAL")) == []


def test_early_returns_after_the_chain_that_test_the_same_value_join_it_and_others_do_not():
    source = ('def get_model(config, quantize):\n'
              '    model_type = config.model_type\n'
              '    if model_type == "llama":\n'
              '        return FlashCausalLM(model_class=LlamaForCausalLM)\n'
              '    elif model_type == "mistral":\n'
              '        return FlashCausalLM(model_class=MistralForCausalLM)\n'
              '    if model_type == "qwen2":\n'
              '        return FlashCausalLM(model_class=Qwen2ForCausalLM)\n'
              '    if quantize == "gptq":\n'
              '        return GPTQModel(config)\n'
              '    if model_type == "gemma":\n'
              '        helper = FlashCausalLM(model_class=GemmaForCausalLM)\n')
    assert _registered(source) == [("get_model:return", [("llama", 3), ("mistral", 5), ("qwen2", 7)],
                                    ["LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM"])]
    lone_only = source.replace("    elif model_type", "    if model_type")
    assert _registered(lone_only) == []  # no chain of two: nothing says these tests dispatch
