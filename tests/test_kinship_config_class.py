"""The config-class evidence of the kinship model: the bytes that say it, and what it ties (in-process).

Two model classes built with one config class (`def __init__(self, config: Qwen3MoeConfig)`,
`config_class = X`) read the same kind of checkpoint. The bytes say it (`Signals.configs`), as they
say the bases, so a model file read for its registrations alone still does; whatever the parser reads
as the config class (`ClassFact.config`), the bytes read too. A config class many served models are
built with, or one that names no model, ties nothing; what it ties is weak, never enough alone.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

from conftest import as_read
from lint_plugin.config import Config
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.project.prefilter import Prefilter
from lint_plugin.resolve import Occurrence
from lint_plugin.resolve.kinship import (
    CONFIG_CLASS,
    SUBCLASS,
    ConfigUse,
    Evidence,
    Kinship,
    build_kinship,
    confidence,
    corroborated,
    parse_configs,
)
from lint_plugin.resolve.values import Registration

READ = [  # (source, the config class): every way a served model class names it
    ("class Qwen3MoeForCausalLM(nn.Module):\n    def __init__(\n        self,\n        config: Qwen3MoeConfig,\n"
     "        quant_config: Optional[QuantizationConfig] = None,\n        prefix: str = \"\",\n    ) -> None:\n"
     "        super().__init__()\n", "Qwen3MoeConfig"),
    ("class AForCausalLM(nn.Module):\n    def __init__(self, config: Optional[AConfig] = None):\n        pass\n",
     "AConfig"),
    ("import transformers\nclass AForCausalLM(nn.Module):\n    def __init__(self, config: 'transformers.AConfig', "
     "x=(1, 2)):\n"
     "        pass\n", "AConfig"),
    ("from srv import configs\nclass AForCausalLM(nn.Module):\n"
     "    def __init__(self, *, config: configs.AConfig | None = None):\n"
     "        pass\n", "AConfig"),
    ("class AModel(PreTrainedModel):\n    config_class = AConfig\n\n    def forward(self):\n        pass\n",
     "AConfig"),
    ("class AModel(PreTrainedModel):\n    config_class = AConfig\n", "AConfig"),
    ("class AForCausalLM(nn.Module):\n    def __init__(self, config: AConfig):  # the HF config\n"
     "        self.config: Other = config\n", "AConfig"),
]
NOT_READ = [  # no config class, or not the model class's own
    "class AForCausalLM(nn.Module):\n    def __init__(self, *, vllm_config: VllmConfig, prefix=''):\n"
    "        config = vllm_config.model_config.hf_config\n",
    "class AForCausalLM(nn.Module):\n    def __init__(self, quant_config: QuantConfig, config=None):\n        pass\n",
    "class AForCausalLM(nn.Module):\n    def __init__(self, config):\n        self.config: AConfig = config\n",
    "class AForCausalLM(nn.Module):\n    def load(self, config: AConfig):\n        pass\n",
    "class AForCausalLM(nn.Module):\n    def forward(self):\n        config_class = AConfig\n",
    "class Helper(nn.Module):\n    def __init__(self, config: AConfig):\n        pass\n",  # not a model class
    "if True:\n    class AForCausalLM(nn.Module):\n        def __init__(self, config: AConfig):\n            pass\n",
]


def signals(source: str):
    return Prefilter(Config(root=Path("/"))).signals(source.encode())


def parsed(source: str) -> str:
    facts = extract_file(source.encode(), "m.py", "m", ["EntryClass"], False, r"[A-Z]\w*")
    return "".join(c.config.name for c in facts.classes if c.config is not None)


@pytest.mark.parametrize("source,config", READ)
def test_the_bytes_read_the_config_class_a_model_class_is_built_with(source, config):
    uses = parse_configs("m.py", signals(source).configs)
    assert [(u.config, u.line) for u in uses] == [(config, source.count("\n", 0, source.index("class")) + 1)]
    assert parsed(source) == config  # the parser reads the same


@pytest.mark.parametrize("source", NOT_READ)
def test_the_bytes_read_no_config_class_where_there_is_none(source):
    assert signals(source).configs == frozenset()


def registered(*names: str) -> Sequence[Registration]:
    return [Registration(Occurrence(n, "registry.py", i + 1, 1), "EntryClass") for i, n in enumerate(names)]


def build(uses: Sequence[ConfigUse], names: Sequence[str], lists=()) -> Kinship:
    return build_kinship(registered(*names), [], lists, (), uses)


def use(child: str, config: str, path: str = "models/m.py", line: int = 3) -> ConfigUse:
    return ConfigUse(child, config, path, line)


KIMI = [use("KimiLinearForCausalLM", "KimiLinearConfig", "models/kimi_linear.py", 15),
        use("KimiK3LinearForCausalLM", "KimiLinearConfig", "models/kimi_k3.py", 9)]


def test_two_served_classes_built_with_one_config_class_are_kin():
    kinship = build(KIMI, ["KimiLinearForCausalLM", "KimiK3LinearForCausalLM", "LlamaForCausalLM"])
    assert kinship.candidates({"KimiLinearForCausalLM", "LlamaForCausalLM"}) == {"KimiK3LinearForCausalLM"}
    assert as_read(kinship.evidence("KimiK3LinearForCausalLM", {"KimiLinearForCausalLM", "LlamaForCausalLM"})) == [
        Evidence(CONFIG_CLASS, 0.25, "KimiLinearForCausalLM", "is built with the same config class KimiLinearConfig "
                                                              "as 'KimiLinearForCausalLM' (models/kimi_linear.py:15)")]


def test_it_is_weak_and_corroborates_nothing_alone():
    """0.25 is below even `kinship = "all"` (0.30), and it is not the project treating the two alike."""
    kinship = build(KIMI, ["KimiLinearForCausalLM", "KimiK3LinearForCausalLM"])
    evidence = kinship.evidence("KimiK3LinearForCausalLM", {"KimiLinearForCausalLM"})
    assert confidence(evidence) == 0.25
    assert not corroborated(kinship, "KimiK3LinearForCausalLM", evidence)
    thin = Evidence(SUBCLASS, 0.85, "KimiLinearForCausalLM", "runs the code of 'KimiLinearForCausalLM'")
    assert not corroborated(kinship, "KimiK3LinearForCausalLM", [thin, *evidence])  # as a shared base


def test_a_config_class_many_served_models_are_built_with_ties_nothing():
    llamas = ["LlamaForCausalLM", "ArceeForCausalLM", "DeciLMForCausalLM", "SolarForCausalLM"]
    assert build([use(n, "LlamaConfig") for n in llamas], llamas).related == {}
    three = build([use(n, "LlamaConfig") for n in llamas[:3]], llamas)  # a few: still kin
    assert three.candidates({"LlamaForCausalLM"}) == {"ArceeForCausalLM", "DeciLMForCausalLM"}


def test_only_served_classes_count_toward_the_many():
    """The backbone built with the same config (`KimiLinearModel`) is no second model."""
    uses = [*KIMI, use("KimiLinearModel", "KimiLinearConfig"), use("KimiLinearDecoderLayer", "KimiLinearConfig")]
    kinship = build(uses, ["KimiLinearForCausalLM", "KimiK3LinearForCausalLM"])
    assert kinship.candidates({"KimiLinearForCausalLM"}) == {"KimiK3LinearForCausalLM"}


@pytest.mark.parametrize("config", ["PretrainedConfig", "EngineConfig", "TConfig", "Config", "Qwen3Moe"])
def test_a_config_class_that_names_no_model_ties_nothing(config):
    names = ["XverseForCausalLM", "OrionForCausalLM"]
    assert build([use(n, config) for n in names], names).related == {}


def test_a_class_written_twice_with_different_config_classes_says_nothing():
    uses = [*KIMI, use("KimiK3LinearForCausalLM", "KimiK3Config", "models/kimi_k3_v2.py")]
    kinship = build(uses, ["KimiLinearForCausalLM", "KimiK3LinearForCausalLM"])
    assert kinship.related == {}
