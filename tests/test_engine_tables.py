"""The table of an engine of its own: a table of strings whose values are the keys its part's decorators file
classes under (lmdeploy's TurboMind `SUPPORTED_ARCHS`). The keys are read from every file's bytes
(`Signals.keys`), so the table is known whichever files are parsed; `fixtures/kinship/own_strings` runs the
whole engine, and ARC105 sets aside there what another part's registry shares.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence, Tuple

import pytest

from lint_plugin.config import Config
from lint_plugin.project.prefilter import Prefilter, Signals
from lint_plugin.resolve import Collection, Occurrence, ResolvedSet
from lint_plugin.resolve.engine_tables import engine_tables


def keys(source: str) -> Tuple[str, ...]:
    return tuple(sorted(Prefilter(Config(root=Path("/"))).signals(source.encode()).keys))


@pytest.mark.parametrize("source, found", [
    ('@INPUT_MODELS.register_module(name="deepseek2")\nclass DeepSeek2Model(LlamaModel):\n    pass\n', ("deepseek2",)),
    ("@register_model('qwen2-moe')\nclass Qwen2MoeReader:\n    pass\n", ("qwen2-moe",)),
    ('@MODELS.register_module(name="llama")\n@MODELS.register_module(name="llama3")\nclass Llama:\n    pass\n',
     ("llama", "llama3")),
    # not a decorator: a call that registers, whose key says nothing of the class below
    ('INPUT_MODELS.register_module(name="deepseek2")(DeepSeek2Model)\n', ()),
    ('@INPUT_MODELS.register_module(name=NAME)\nclass DeepSeek2Model:\n    pass\n', ()),
])
def test_the_keys_decorators_file_classes_under_are_read_from_the_bytes(source, found):
    assert keys(source) == found


def table(path: str, subject: str, values: Sequence[Tuple[str, str]]) -> Collection:
    members = ResolvedSet(tuple(Occurrence(name, path, line, 1) for line, (name, _) in enumerate(values, 2)))
    return Collection(subject, path, 1, 1, members, table=True, values=tuple(values))


SUPPORTED = table("eng/turbo/supported.py", "SUPPORTED_ARCHS", [
    ("LlamaForCausalLM", "llama"), ("QwenForCausalLM", "qwen"), ("DeepseekV2ForCausalLM", "deepseek2"),
    ("InternLM3ForCausalLM", "llama")])


def signals(*keys: str) -> Signals:
    return Signals(False, True, frozenset(), keys=frozenset(keys))


def test_a_table_whose_values_are_mostly_keys_of_its_part_is_an_engine_table():
    files = [("eng/turbo/readers/llama.py", signals("llama", "qwen")),
             ("eng/turbo/readers/ds.py", signals("deepseek2"))]
    assert engine_tables([SUPPORTED], files) == {("eng/turbo/supported.py", "SUPPORTED_ARCHS")}
    # half of its values are keys: still one (the prefilter need not have read every reader)
    assert engine_tables([SUPPORTED], files[:1]) == {("eng/turbo/supported.py", "SUPPORTED_ARCHS")}


@pytest.mark.parametrize("files", [
    [("eng/turbo/readers/llama.py", signals("llama"))],  # one key: a template's name may match one
    [("eng/pytorch/models/llama.py", signals("llama", "qwen", "deepseek2"))],  # keys of another part
    [("eng/turbo/tests/test_readers.py", signals("llama", "qwen", "deepseek2"))],  # a test's decorators
    [("eng/turbo/readers/all.py", signals("llama3", "qwen2", "glm4"))],  # other keys
])
def test_a_table_is_no_engine_table_without_two_keys_of_its_own_part(files):
    assert engine_tables([SUPPORTED], files) == frozenset()
