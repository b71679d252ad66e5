"""What a list's name says about its members (issue 27): a list the code calls multimodal makes its
names multimodal for the kind guard (`resolve/model.py::_multimodal`), whatever they are spelt like."""
from __future__ import annotations

from conftest import archsync, write

_REGISTRY = '''_MODELS = {
    "Gemma3ForConditionalGeneration": ("gemma3", "Gemma3ForConditionalGeneration"),
    "Gemma3ForCausalLM": ("gemma3", "Gemma3ForCausalLM"),
    "Qwen2_5_VLForConditionalGeneration": ("qwen2_5_vl", "Qwen2_5_VLForConditionalGeneration"),
    "MiniCPMV": ("minicpmv", "MiniCPMV"),
    "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
    "Qwen2ForCausalLM": ("qwen2", "Qwen2ForCausalLM"),
}
'''

# an engine module whose lists share its prefix: `KESTREL_` says where they are used, `VISION` what one holds
_ENGINE = '''KESTREL_SUPPORTED_MODELS = ["LlamaForCausalLM", "Qwen2ForCausalLM"]
KESTREL_SUPPORTED_CHAT_MODELS = ["LlamaForCausalLM", "Qwen2ForCausalLM", "Gemma3ForCausalLM"]
KESTREL_SUPPORTED_VISION_MODEL_LIST = [
    "Qwen2_5_VLForConditionalGeneration",
    "Gemma3ForConditionalGeneration",
    "MiniCPMV",
]


def match(architecture):
    return architecture in KESTREL_SUPPORTED_VISION_MODEL_LIST
'''

_TWIN = ("serve/engines/kestrel.py:3:1: ARC104 'Gemma3ForCausalLM' is missing from "
         "KESTREL_SUPPORTED_VISION_MODEL_LIST, which holds its sibling 'Gemma3ForConditionalGeneration' "
         "('Gemma3ForCausalLM' is registered at serve/registry.py:3)")


def _project(root, engine: str):
    write(root / "pyproject.toml", "")
    write(root / "serve/__init__.py", "")
    write(root / "serve/registry.py", _REGISTRY)
    write(root / "serve/engines/__init__.py", "")
    write(root / "serve/engines/kestrel.py", engine)
    return root


def test_a_vision_list_among_lists_sharing_a_prefix_is_a_list_of_multimodal_models(tmp_path):
    """`MiniCPMV` is spelt like a text model; the module's vision list says it is not, so a text-only
    twin is no fifth of the list's kind and is not asked for."""
    assert archsync("check", "--no-cache", cwd=_project(tmp_path, _ENGINE)).lines == []


def test_a_prefix_the_other_lists_do_not_share_narrows_the_list(tmp_path):
    """Alone in its module, `KESTREL_` is a word of this list's purpose: its names keep their spelt kinds."""
    engine = _ENGINE.replace("KESTREL_SUPPORTED_MODELS", "SUPPORTED_MODELS").replace(
        "KESTREL_SUPPORTED_CHAT_MODELS", "CHAT_MODELS")
    assert archsync("check", "--no-cache", cwd=_project(tmp_path, engine)).lines == [_TWIN]
