"""Code evidence is about models: classes that build none (a converter's) share nothing a list of models is about.

auto-round ships a copy of llama.cpp's GGUF converter, whose `@ModelBase.register(...)` classes are the only ones
it registers (`class DeepseekV2Model(TextModel)`, `class TextModel(ModelBase)`, `class ModelBase:`); its tables of
model patches were told which checkpoints share a converter class (nine ARC105 findings there, all wrong, before
this). A class builds no model when neither it nor any base the project gives it defines `forward` or `__call__`,
and every line of its bases ends within the project at a class that names no base.
"""
from __future__ import annotations

import pytest

from conftest import archsync, places, write

_CONVERTERS = (
    "class ModelBase{root}:\n    _registry = {{}}\n\n    @classmethod\n    def register(cls, *names):\n"
    "        def wrap(model):\n            for name in names:\n                cls._registry[name] = model\n"
    "            return model\n        return wrap\n{method}\n\n"
    "class TextModel(ModelBase):\n    def set_gguf_parameters(self):\n        pass\n\n\n"
    "@ModelBase.register(\"KestrelV2ForCausalLM\", \"KestrelV3ForCausalLM\")\nclass KestrelModel(TextModel):\n"
    "    def modify_tensors(self, data):\n        return data\n\n\n"
    "@ModelBase.register(\"WrenForCausalLM\")\nclass WrenModel(TextModel):\n    def modify_tensors(self, data):\n"
    "        return data\n")
_PATCHES = ("PATCHED_ARCHS = {\n    \"KestrelV2ForCausalLM\": \"pkg.modeling.kestrel_v2\",\n"
            "    \"WrenForCausalLM\": \"pkg.modeling.wren\",\n}\n\n\n"
            "def patch_for(config):\n    return PATCHED_ARCHS.get(config.architectures[0])\n")
_FINDING = ("pkg/modeling/patches.py:1:1: ARC105 'KestrelV3ForCausalLM' may belong in PATCHED_ARCHS: it runs the same "
            "implementation as 'KestrelV2ForCausalLM' (pkg.convert.models:KestrelModel); is a newer generation of "
            "'KestrelV2ForCausalLM' (confidence 0.95)")


def _project(root, base="", method=""):
    write(root / "pyproject.toml", "")
    for package in ("pkg", "pkg/convert", "pkg/modeling"):
        write(root / package / "__init__.py", "")
    write(root / "pkg/convert/models.py", _CONVERTERS.format(root=base, method=method))
    write(root / "pkg/modeling/patches.py", _PATCHES)


@pytest.mark.parametrize("base", ["", "()", "(object)"])
def test_what_classes_that_build_no_model_share_is_set_aside(tmp_path, base):
    _project(tmp_path, base)
    assert places("--no-cache", cwd=tmp_path) == []
    lines = archsync("why", "--no-cache", "PATCHED_ARCHS", "KestrelV3ForCausalLM", cwd=tmp_path).lines
    alone = tmp_path / "alone"  # Wren's converter on a base of its own: one class is set aside
    _project(alone, base)
    converters = (alone / "pkg/convert/models.py").read_text(encoding="utf-8")
    write(alone / "pkg/convert/models.py",
          converters.replace("class WrenModel(TextModel)", "class WrenModel(ModelBase)"))
    assert "set aside: KestrelModel builds no model (no `forward` or `__call__` in it or in the bases the project " \
           "gives it, down to one that names no base: a converter's class): what it shares says nothing of the code " \
           "the models run" in archsync("why", "--no-cache", "PATCHED_ARCHS", "KestrelV3ForCausalLM", cwd=alone).lines
    assert "set aside: KestrelModel, WrenModel build no model (no `forward` or `__call__` in them or in the bases " \
           "the project gives them, down to one that names no base: a converter's classes): what they share says " \
           "nothing of the code the models run" in lines, lines
    assert "  0.90  implementation  runs the same implementation as 'KestrelV2ForCausalLM' " \
           "(pkg.convert.models:KestrelModel)" in lines, lines


@pytest.mark.parametrize("base, method", [
    ("", "\n    def forward(self, x):\n        return x\n"),  # the root runs a model
    ("", "\n    async def __call__(self, x):\n        return x\n"),
    ("(nn.Module)", ""),  # a base the project does not define may bring the model's code
    ("(Base)", ""),  # a base whose bases the signals do not give
])
def test_classes_that_may_build_a_model_share_their_code(tmp_path, base, method):
    _project(tmp_path, base, method)
    assert places("--no-cache", cwd=tmp_path) == [_FINDING]


_SHARED = ("SHARED_KEYS = {\n    \"KestrelV2ForConditionalGeneration\": (\"position_ids\",),\n"
           "    \"WrenForCausalLM\": (\"slope_rate\",),\n}\n\n\n"
           "def shared_keys(model):\n    return SHARED_KEYS.get(type(model).__name__, ())\n")


@pytest.mark.parametrize("method, found", [
    ("", ["pkg/modeling/cache.py:1:1: ARC104 'KestrelV2ForCausalLM' is missing from SHARED_KEYS, which holds its "
          "sibling 'KestrelV2ForConditionalGeneration' ('KestrelV2ForCausalLM' is registered at "
          "pkg/convert/models.py:18)"]),
    ("\n    def forward(self, x):\n        return x\n", []),  # a model of class KestrelModel is never looked up so
])
def test_a_table_looked_up_with_a_class_name_is_asked_for_names_a_converter_registers(tmp_path, method, found):
    """A model object's class is `transformers`' (spelt as the architecture) where the registry's classes build no
    model: that the converter registers the text model to a class of another name says nothing of the lookup."""
    _project(tmp_path, "", method)
    converters = (tmp_path / "pkg/convert/models.py").read_text(encoding="utf-8")
    write(tmp_path / "pkg/convert/models.py", converters.replace(
        '"KestrelV3ForCausalLM")', '"KestrelV3ForCausalLM")\n@ModelBase.register("KestrelV2ForConditionalGeneration")'))
    write(tmp_path / "pkg/modeling/cache.py", _SHARED)
    assert [p for p in places("--no-cache", cwd=tmp_path) if "SHARED_KEYS" in p] == found
