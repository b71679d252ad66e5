"""A model type spelt as one transformers knows but for its separators (`resolve/model_type_slips.py`, ARC201).

ARC201's own examples hold the chain it reports and a scheme of the project's own it leaves alone; these hold
where the rule is off for architectures (a project serving transformers' models), a rename in one function, and
a list with too few of transformers' model types to say how the code spells them.
"""
from __future__ import annotations

import pytest

from conftest import archsync, write

_CHAIN = ("from transformers import AutoModelForCausalLM\n\n\n"
          "def mlp_kernel(config):\n"
          "    if config.model_type == \"llama\":\n        return \"swiglu\"\n"
          "    elif config.model_type == \"{second}\":\n        return \"swiglu\"\n"
          "    elif config.model_type == \"{third}\":\n        return \"geglu\"\n"
          "    raise NotImplementedError(config.model_type)\n")


def _check(root):
    return archsync("check", "--no-cache", cwd=root).lines


def test_a_slip_is_reported_where_the_project_serves_transformers_models(tmp_path):
    """unsloth's LoRA kernel chain tests `"qwen3moe"`: ARC201 is off there for architectures (a checkpoint may name
    remote code), but no remote code chooses a known model type with its separator dropped."""
    write(tmp_path / "kit" / "kernels.py", _CHAIN.format(second="mistral", third="qwen3moe"))
    assert _check(tmp_path) == [
        "kit/kernels.py:9:31: ARC201 'qwen3moe' in mlp_kernel#3 is not a model type; did you mean 'qwen3_moe'? (the "
        "model types tested beside it are spelt as transformers spells them)"]


@pytest.mark.parametrize("second, third", [
    ("minimax_m2", "minimax-m2"),  # the known spelling tested too: a rename on purpose (vLLM's GGUF loader)
    ("yi", "qwen3moe"),  # one other of transformers' model types, one of the project's: its spelling is not said
    ("mistral", "qwen3_moe"),  # as transformers spells it
])
def test_no_slip_where_the_code_does_not_say_how_it_spells_model_types(tmp_path, second, third):
    write(tmp_path / "kit" / "kernels.py", _CHAIN.format(second=second, third=third))
    assert _check(tmp_path) == []


_LAYER_TABLES = ("from transformers import AutoModelForCausalLM\n\n"
                 "KV_LAYERS = {\n    \"llama\": [\"*k_proj\", \"*v_proj\"],\n"
                 "    \"qwen2moe\": [\"*k_proj\", \"*v_proj\"],\n"
                 "    \"qwen2\": [\"*k_proj\", \"*v_proj\"],\n    \"mistral\": [\"*k_proj\", \"*v_proj\"],\n}\n"
                 "{scheme}\n\n"
                 "def kv_layers(model):\n    return KV_LAYERS[model.config.model_type]\n")


def test_a_word_the_module_maps_class_names_to_is_its_own_scheme_not_a_slip(tmp_path):
    """A quantizer's layer tables keyed by `qwen2moe`, a word its own table maps class names to (Olive's copy of
    Quark: `MODEL_NAME_PATTERN_MAP = {"Qwen2Moe": "qwen2moe", ...}`): renaming the key would break the lookup."""
    scheme = "NAME_PATTERNS = {\"Llama\": \"llama\", \"Qwen2Moe\": \"qwen2moe\", \"QWen2\": \"qwen2\"}\n"
    write(tmp_path / "kit" / "layers.py", _LAYER_TABLES.replace("{scheme}", scheme))
    assert _check(tmp_path) == []
    write(tmp_path / "kit" / "layers.py", _LAYER_TABLES.replace("{scheme}", ""))  # nothing maps to it: a slip
    assert _check(tmp_path) == [
        "kit/layers.py:5:5: ARC201 'qwen2moe' in KV_LAYERS is not a model type; did you mean 'qwen2_moe'? (the model "
        "types tested beside it are spelt as transformers spells them)"]
