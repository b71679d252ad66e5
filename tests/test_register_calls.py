"""Which registering calls make a file one that may register names (in-process).

`self.register_buffer("inv_freq", ...)` registers nothing (its string cannot be a name), so a
model file holding only such calls is no registration candidate and is not parsed for them;
anything that may register still is. Every case is also read by extraction: a file the byte test
leaves out must register nothing there either.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lint_plugin.config import Config
from lint_plugin.extract.facts import MODEL_TYPE_SCHEME
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.project.model_types import load_table
from lint_plugin.project.prefilter import Prefilter

NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"

LAYER = "class Rotary:\n    def __init__(self, t):\n        {call}\n"
MODEL = "class LlamaForCausalLM:\n    pass\n\n\n{call}\n"

NEVER = [  # calls that cannot register, whatever else the file holds
    'self.register_buffer("inv_freq", t, persistent=False)',
    "self.register_buffer('inv_freq', t)",
    'self.register_parameter(\n            "weight", t)',
    'self.register_buffer(  "cos_sin_cache"  ,t)',
    'self.register_buffer("it\'s")',
    'register_backend(["triton", "Flash"], t)',  # a list is no string
    # a name, but none of an architecture: alone, such registrations are no registry
    'KVConnectorFactory.register_connector("SharedStorageConnector", "pkg.shared", "SharedStorageConnector")',
    'register_impl("FlashAttention", FlashAttentionImpl)',
    'doc = "call self.register_buffer(\'inv_freq\') once"',  # no call at all
]
MAY = [  # calls that may register, or that the bytes cannot tell apart from one
    'register("LlamaForCausalLM", LlamaForCausalLM)',
    'ModelRegistry.register("LlamaForCausalLM", "pkg.llama:LlamaForCausalLM")',
    'register(("LlamaForCausalLM"), LlamaForCausalLM)',  # a parenthesised string is a string
    'register("llama" "ForCausalLM", LlamaForCausalLM)',  # implicit concatenation
    'register("Llama\\x46orCausalLM", LlamaForCausalLM)',  # an escape
    'register("llama"  # comment\n    , LlamaForCausalLM)',
    'register("llama" + "X", LlamaForCausalLM)',
    'register("caf\u00e9", LlamaForCausalLM)',  # not ASCII
]
DECORATED = [  # a decorator on a model class reads every argument: it may register, as may one the bytes cannot tell
    '@register("llama", "LlamaForCausalLM")\nclass LlamaForCausalLM:\n    pass\n',
    '@register("LlamaForCausalLM", doc="""\ndef helper""")\nclass LlamaForCausalLM:\n    pass\n',
    '@register("LlamaForCausalLM")\nclass \\\n        LlamaForCausalLM:\n    pass\n',
    '@models.register(["llama", "LlamaForCausalLM"])\nclass LlamaForCausalLM:\n    pass\n',
    '@(\n    register("llama", "LlamaForCausalLM"))\nclass LlamaForCausalLM:\n    pass\n',
    '@models. \\\n  register("llama", "LlamaForCausalLM")\nclass LlamaForCausalLM:\n    pass\n',
]

# Shapes that register nothing: a registering decorator on a function or on a class that is no model
# class, one in a file that spells no string a name could be, a dict entry or item store in a file
# that spells no architecture (its registry could not count: `registration_facts`)
UNREGISTERING = [
    '@CustomOp.register("SiluAndMul")\nclass SiluAndMul:\n    pass\n',
    '@register_fake("sgl_kernel::fwd")\ndef fwd(x):\n    return x\n',
    '@register_pre_permute("standard", "deep_gemm")\n@other\nasync def permute(x):\n    return x\n',
    '@register_transcription_adapter("GraniteSpeech")\nclass GraniteSpeechAdapter(Base):\n    pass\n',
    'TABLE = {"Flash": FlashBackend, "Triton": TritonBackend}\n',
    "HOOKS['Default'] = DefaultHook\n",
]

def prefilter(name_pattern: str = NAME_PATTERN) -> Prefilter:
    return Prefilter(Config(root=Path("/"), name_pattern=name_pattern))


def registrations(source: str, name_pattern: str = NAME_PATTERN):
    return extract_file(source.encode(), "m.py", "m", ["EntryClass"], False, name_pattern).registrations


@pytest.mark.parametrize("call", NEVER)
def test_a_call_that_cannot_register_makes_no_candidate(call):
    for template in (LAYER, MODEL):
        source = template.format(call=call)
        assert not prefilter().signals(source.encode()).registers, source
        assert registrations(source) == ()


@pytest.mark.parametrize("call", MAY)
def test_a_call_that_may_register_still_does(call):
    source = MODEL.format(call=call)
    assert prefilter().signals(source.encode()).registers, source


@pytest.mark.parametrize("source", DECORATED)
def test_a_decorator_on_a_model_class_may_register(source):
    assert prefilter().signals(source.encode()).registers, source
    assert registrations(source) != ()


def test_one_call_that_may_register_among_many_that_cannot():
    source = LAYER.format(call='self.register_buffer("inv_freq", t)') + \
        'register("LlamaForCausalLM", LlamaForCausalLM)\n'
    assert prefilter().signals(source.encode()).registers
    assert registrations(source) != ()


def test_names_that_are_no_architecture_count_beside_one_that_is():
    """Half of a callee's names spelt like architectures make it a registry: the file is parsed, and
    every name it registers that way counts."""
    source = MODEL.format(call='register("FlashAttention", LlamaForCausalLM)\n'
                               'register("LlamaForCausalLM", LlamaForCausalLM)')
    assert prefilter().signals(source.encode()).registers
    assert [m.name for r in registrations(source) for m in r.names] == ["FlashAttention", "LlamaForCausalLM"]


def test_the_configured_name_shape_decides():
    """Under a shape that takes names starting in lower case, `"llamaModel"` may be one."""
    source = MODEL.format(call='register("llamaModel", LlamaForCausalLM)')
    assert not prefilter().signals(source.encode()).registers
    assert registrations(source) == ()
    assert prefilter(r"[a-z][A-Za-z]*").signals(source.encode()).registers
    assert registrations(source, r"[a-z][A-Za-z]*") != ()


def test_a_model_file_whose_other_calls_cannot_register_is_read_from_its_statements():
    """`EntryClass` beside `register_buffer` calls: the registration statement alone is parsed."""
    data = (LAYER.format(call='self.register_buffer("inv_freq", t)') + "EntryClass = [Rotary]\n").encode()
    snippets = prefilter().registration_snippets(data)
    assert snippets == [(4, b"EntryClass = [Rotary]")]
    assert prefilter().registration_snippets(data + b'register("LlamaForCausalLM", Rotary)\n') is None


@pytest.mark.parametrize("source", UNREGISTERING)
def test_a_shape_that_cannot_register_makes_no_candidate(source):
    """Files of PyTorch ops and kernels (`@CustomOp.register("rms_norm")`, `@register_fake(...)`) were
    parsed whole for registrations they cannot hold: 50 of SGLang's files, 60 of vLLM's."""
    assert not prefilter().signals(source.encode()).registers, source
    assert [name for r in registrations(source) for _, _, name in load_table().registered(r)] == []


def test_a_registry_keyed_by_model_type_may_register_the_architectures_its_model_types_name():
    source = '@ModelRegistry(["deepseek_v2", "deepseek_v3"])\nclass Deepseek2TpPartModel:\n    pass\n'
    assert prefilter().signals(source.encode()).registers
    (registration,) = registrations(source)
    assert (registration.registry, [m.name for m in registration.names], registration.scheme) == (
        "@ModelRegistry", ["deepseek_v2", "deepseek_v3"], MODEL_TYPE_SCHEME)
    assert [name for _, _, name in load_table().registered(registration)] == [
        "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"]


@pytest.mark.parametrize("source", [
    '@ModelRegistry(["internvl_chat"])\nclass InternVLChatTpPartModel:\n    pass\n',
    '@register("rms_norm")\nclass LlamaModel:\n    pass\n',
])
def test_a_model_type_the_table_does_not_know_is_read_and_registers_nothing(source):
    """Whether a registry is keyed by model type is a vote of all its keys, a remote-code model type
    (`internvl_chat`) among them: the prefilter reads every key that vote counts, or `--no-prefilter` would
    count more (LightLLM at 2025-07: 23 of 37 keys known, fewer unknown ones in the files the prefilter read)."""
    assert prefilter().signals(source.encode()).registers
    (registration,) = registrations(source)
    assert registration.scheme == MODEL_TYPE_SCHEME
    assert [name for _, _, name in load_table().registered(registration)] == []


def test_a_decorator_keyed_by_model_type_reads_its_key_first_and_what_follows_qualifies_it():
    """optimum-neuron's `@register_neuron_model_for_inference("qwen3_moe", "text-generation")`: the task is no
    second model type (it made the registry one of names of its own, which registers nothing)."""
    source = ('@register_neuron_model_for_inference("qwen3_moe", "text-generation")\n'
              'class Qwen3MoeNeuronModelForCausalLM:\n    pass\n\n\n'
              '@register_neuron_model_for_inference(["qwen3", "qwen2"], "feature-extraction")\n'
              'class Qwen3NeuronModelForEmbedding:\n    pass\n')
    assert prefilter().signals(source.encode()).registers
    assert [[m.name for m in r.names] for r in registrations(source)] == [["qwen3_moe"], ["qwen3", "qwen2"]]
    assert [name for r in registrations(source) for _, _, name in load_table().registered(r)] == [
        "Qwen3MoeForCausalLM", "Qwen3ForCausalLM", "Qwen2ForCausalLM"]


def test_a_decorator_naming_its_model_type_by_keyword_may_register_and_a_call_by_keyword_cannot():
    """lmdeploy's `@INPUT_MODELS.register_module(name='qwen3_5')`: the prefilter once missed it, and a check
    with it found one ARC104 fewer than `--no-prefilter`. A call registers by its first positional argument."""
    source = "@INPUT_MODELS.register_module(name='qwen3_5')\nclass Qwen3_5Model:\n    pass\n"
    assert prefilter().signals(source.encode()).registers
    assert [name for r in registrations(source) for _, _, name in load_table().registered(r)] == [
        "Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration"]
    call = LAYER.format(call='self.register_module(name="Qwen3_5ForCausalLM", module=Block)')
    assert not prefilter().signals(call.encode()).registers
    assert registrations(call) == ()
