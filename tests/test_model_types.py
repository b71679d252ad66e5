"""Lists of model types, in process: where a model type is tested, and which architectures one names."""
from __future__ import annotations

import json

import pytest

from conftest import archsync, write
from lint_plugin.config import DEFAULT_NAME_PATTERN
from lint_plugin.extract import model_type_keys
from lint_plugin.extract.facts import MODEL_TYPE_SCHEME, FileFacts, Literal, Member, RegistrationFact
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.extract.model_chains import may_build_per_name
from lint_plugin.extract.subjects import ALTERNATIVES, REFERENCE
from lint_plugin.frontends import model_type_snapshot
from lint_plugin.project.model_types import ModelTypeTable, load_table, read_auto_mappings, table_document, table_from
from lint_plugin.resolve.model_types import model_types


def _facts(source: str, name_pattern: str = DEFAULT_NAME_PATTERN) -> FileFacts:
    return extract_file(source.encode(), "pkg/m.py", "pkg.m", [], False, name_pattern)


def _typed(source: str, name_pattern: str = DEFAULT_NAME_PATTERN):
    facts = _facts(source, name_pattern)
    return {c.name: [m.name for p in c.parts if isinstance(p, Literal) for m in p.members]
            for c in facts.collections if c.name in facts.type_keyed}


# -- where a model type is tested -------------------------------------------------------------------

def test_every_key_that_spells_model_type_makes_its_list_one_of_model_types():
    source = ('def plan(config, cfg_dict):\n'
              '    if config.model_type in ("qwen3_moe", "qwen2_moe"):\n'
              '        return 1\n'
              '    if config.text_config.model_type in ["gemma3", "gemma3_text"]:\n'
              '        return 2\n'
              '    if getattr(config, "model_type", None) in {"llama4", "llama4_text"}:\n'
              '        return 3\n'
              '    if cfg_dict["model_type"] == "glm4" or cfg_dict.get("model_type") == "glm4_moe":\n'
              '        return 4\n'
              '    llm_model_type = config.llm_config.model_type\n'
              '    if llm_model_type not in ("internlm2", "qwen2"):\n'
              '        return 5\n')
    assert _typed(source) == {"plan#1": ["qwen3_moe", "qwen2_moe"], "plan#2": ["gemma3", "gemma3_text"],
                              "plan#3": ["llama4", "llama4_text"], "plan#4": ["glm4", "glm4_moe"],
                              "plan#5": ["internlm2", "qwen2"]}


def test_a_table_looked_up_with_a_model_type_is_one_and_a_name_that_does_not_say_so_is_not_read():
    source = ('MOE_TYPES = ["qwen3_moe", "qwen2_moe"]\n'
              'PACKED = {"qwen3_moe": 1, "deepseek_v3": 2}\n'
              'OTHER = ["bert", "t5"]\n'
              '\n'
              'def plan(config):\n'
              '    packed = PACKED.get(config.model_type)\n'
              '    mt = config.model_type\n'
              '    if mt in ("llama", "mistral"):\n'
              '        return packed\n'
              '    return config.model_type in MOE_TYPES or "bert" in OTHER\n')
    facts = _facts(source)
    assert facts.type_keyed == ("MOE_TYPES", "PACKED")
    assert [c.name for c in facts.collections] == ["MOE_TYPES", "PACKED", "OTHER"]  # `mt in (...)` is not read


def test_class_names_under_a_variable_named_model_type_are_architectures_not_model_types():
    # lmdeploy's calibration: `model_type = type(model).__name__`, tested against class names
    source = ('def calibrate(model):\n'
              '    model_type = type(model).__name__\n'
              '    if model_type in ("LlamaForCausalLM", "InternLM2ForCausalLM"):\n'
              '        return 1\n')
    facts = _facts(source)
    assert facts.type_keyed == ()
    assert [c.name for c in facts.collections] == ["calibrate#1"]


def test_a_model_type_a_config_spells_its_own_way_sits_among_the_lowercase_ones():
    # vLLM's `is_deepseek_mla()`: `"AXK1"` is its config's `model_type`; a list of class names under a
    # model-type key, or of words mostly not in the model-type shape, is not a list of model types
    source = ('def is_deepseek_mla(config):\n'
              '    if config.model_type in ("AXK1", "deepseek_v3", "kimi_k2"):\n'
              '        return True\n'
              '    if config.model_type in ("RefinedWeb", "RefinedWebModel", "falcon"):\n'
              '        return False\n'
              '    if config.model_type in ("Qwen2Model", "llama"):\n'
              '        return None\n'
              '    return config.model_type in ("deepseek v3", "kimi_k2", "glm4")\n')
    assert _typed(source) == {"is_deepseek_mla#1": ["AXK1", "deepseek_v3", "kimi_k2"]}


def test_a_project_whose_name_pattern_takes_model_types_reads_them_as_its_own_names():
    source = 'def plan(config):\n    return config.model_type in ("qwen3_moe", "qwen2_moe")\n'
    assert _typed(source) == {"plan#1": ["qwen3_moe", "qwen2_moe"]}
    assert _typed(source, r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*") == {}


def test_the_tests_of_one_if_elif_chain_are_grouped_and_a_branch_writing_a_model_type_is_a_dispatch():
    source = ('def plan(config):\n'
              '    if config.model_type in ("deepseek_v2", "glm4_moe"):\n'
              '        return 1\n'
              '    elif config.model_type in ("deepseek_v3", "kimi_k2"):\n'
              '        return 2\n'
              '    if config.model_type in ("qwen2_moe", "qwen3_moe"):\n'
              '        kind = "qwen2moe"\n')
    facts = _facts(source)
    assert facts.chains == (("+2", "plan#1", "plan#2"),)  # how many tests the chain has, then its lists
    assert [(c.name, c.scope) for c in facts.collections] == [
        ("plan#1", "inline"), ("plan#2", "inline"), ("plan#3", "dispatch")]


def test_the_lists_an_or_searches_by_name_are_its_alternatives_and_a_list_it_excludes_is_not():
    """A name either side admits is taken (`rules/chains.py`); one a `not in` side keeps out is not admitted there."""
    source = ('_TYPES = frozenset({"whisper", "musicgen"})\n'
              '_ARCHS = frozenset({"WhisperForConditionalGeneration", "Blip2ForConditionalGeneration"})\n'
              '_KEEP = ("LlamaForCausalLM", "Qwen2ForCausalLM")\n\n\n'
              'def can_chat(config, names):\n'
              '    normalized = config.get("model_type", "").lower()\n'
              '    if normalized in _TYPES or any(n in _ARCHS for n in names) or names[0] not in _KEEP:\n'
              '        return False\n'
              '    return True\n')
    assert _facts(source).chains == ((ALTERNATIVES, REFERENCE + "_TYPES", REFERENCE + "_ARCHS"),)


# -- which architectures a model type names ----------------------------------------------------------

TABLE = ModelTypeTable("transformers 0.0", {
    "llama": ("LlamaForCausalLM", "LlamaModel"),
    "qwen3_5": ("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration"),
    "deepseek_v3": ("DeepseekV3ForCausalLM",),
    "mistral": ("MistralForCausalLM",),
    "llava": ("LlavaForConditionalGeneration",),
    "mistral3": ("LlavaForConditionalGeneration", "Mistral3ForConditionalGeneration"),
})


def test_a_model_type_names_the_classes_the_table_lists_else_the_architectures_spelling_its_stem():
    registered = ["LlamaForCausalLM", "LLaMAForCausalLM", "LlamaModel", "Qwen3_5ForCausalLM",
                  "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration", "DeepseekV3ForCausalLM",
                  "KimiK2ForCausalLM"]
    types = model_types(TABLE, registered, ["qwen3_5_moe", "kimi_k2"])
    assert {t: sorted(n) for t, n in types.names.items()} == {
        "llama": ["LlamaForCausalLM"],  # its checkpoint class: not its second spelling, nor its bare model
        "qwen3_5": ["Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration"],
        "qwen3_5_moe": ["Qwen3_5MoeForConditionalGeneration"],  # spelt, and written by the project
        "deepseek_v3": ["DeepseekV3ForCausalLM"],
        "kimi_k2": ["KimiK2ForCausalLM"],
    }
    assert types.written_as("LLaMAForCausalLM") == "llama"
    assert types.written_as("Qwen3_5MoeForConditionalGeneration") == "qwen3_5_moe"


def test_a_name_without_a_task_is_spelt_whole():
    # remote-code checkpoints the table does not know (`MiniCPMV`), draft models (`Qwen3NextMTP`)
    types = model_types(TABLE, ["MiniCPMV", "Qwen3NextMTP", "Qwen3NextForCausalLM"], ["minicpmv", "qwen3_next_mtp"])
    assert {t: sorted(n) for t, n in types.names.items()} == {
        "minicpmv": ["MiniCPMV"], "qwen3_next_mtp": ["Qwen3NextMTP"]}


def test_an_architecture_two_model_types_name_is_written_as_neither():
    types = model_types(TABLE, ["LlavaForConditionalGeneration", "Mistral3ForConditionalGeneration"], [])
    assert types.written_as("LlavaForConditionalGeneration") is None
    assert types.written_as("Mistral3ForConditionalGeneration") == "mistral3"
    assert sorted(types.names["mistral3"]) == ["LlavaForConditionalGeneration", "Mistral3ForConditionalGeneration"]


# -- the table archsync ships ------------------------------------------------------------------------

AUTO = b'''from collections import OrderedDict

MODEL_MAPPING_NAMES = OrderedDict(
    [
        ("llama", "LlamaModel"),
        ("qwen3_5", "Qwen3_5Model"),
    ]
)
MODEL_FOR_CAUSAL_LM_MAPPING_NAMES = OrderedDict(
    [
        ("llama", "LlamaForCausalLM"),
        ("qwen3_5", "Qwen3_5ForCausalLM"),  # VLM compatibility
        ("mt5", ("MT5ForConditionalGeneration", "MT5Model")),
    ]
)
OTHER = OrderedDict([("not", "Read")])
'''


def test_the_table_is_read_from_the_auto_mappings_and_round_trips():
    mappings = read_auto_mappings(AUTO)
    assert mappings == {"llama": ("LlamaForCausalLM", "LlamaModel"), "qwen3_5": ("Qwen3_5ForCausalLM", "Qwen3_5Model"),
                        "mt5": ("MT5ForConditionalGeneration", "MT5Model")}
    table = ModelTypeTable("transformers 9.9", mappings)
    assert table_from(json.loads(table_document(table))) == table


def test_the_generator_writes_the_table_from_a_transformers_source(tmp_path, capsys):
    package = tmp_path / "src" / "transformers"
    (package / "models" / "auto").mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "9.9.0"\n')
    (package / "models" / "auto" / "modeling_auto.py").write_bytes(AUTO)
    out, host = tmp_path / "types.json", tmp_path / "transformers.json"
    assert model_type_snapshot.main([str(tmp_path / "src"), "--date", "2026-09-30", "--out", str(out),
                                     "--host-out", str(host)]) == 0
    assert capsys.readouterr().out == (f"wrote {out}: 3 model types of transformers 9.9.0; {host}: 3 architectures "
                                       f"of transformers v9.9.0 of 2026-09-30 (huggingface/transformers)\n")
    assert load_table(out).source == "transformers 9.9.0"
    assert load_table(tmp_path / "missing.json") == ModelTypeTable("", {})


def test_the_shipped_table_is_readable_and_dated_by_its_release():
    table = load_table()
    assert table.source.startswith("transformers ")
    assert "Qwen3_5MoeForConditionalGeneration" in table.types["qwen3_5_moe"]


# -- an if/elif chain that builds a model per name: a registry --------------------------------------

def test_a_chain_that_builds_a_model_per_tested_name_registers_them_in_their_scheme():
    source = ('class Server:\n'
              '    def init_model(self, kvargs):\n'
              '        if self.model_type == "bloom":\n'
              '            self.model = BloomTpPartModel(kvargs)\n'
              '        elif self.model_type in ("llama", "mistral"):\n'
              '            if kvargs.get("quant"):\n'
              '                self.model = LlamaTpPartModelWQuant(kvargs)\n'
              '            else:\n'
              '                self.model = LlamaTpPartModel(kvargs)\n'
              '        elif self.model_type == "Yi":\n'  # a model type spelt like an architecture: neither
              '            self.model = YiTpPartModel(kvargs)\n'
              '        elif self.model_type == "qwen" and "visual" in kvargs:\n'  # served, when it holds too
              '            self.model = QWenVLTpPartModel(kvargs)\n'
              '\n'
              'def load(config):\n'
              '    if config.architectures[0] == "DeepseekV3ForCausalLM":\n'
              '        return KDeepseekV3ForCausalLM(config)\n'
              '    elif config.architectures[0] in ["Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM"]:\n'
              '        return KQwen2MoeForCausalLM(config)\n'
              '    elif config.architectures[0] == "Phi3ForCausalLM" and config.max_position_embeddings > 4096:\n'
              '        return Phi3LongRoPEModel(config)\n'
              '    if config.model_type == "gemma3":\n'  # one branch: no registry
              '        return Gemma3Model(config)\n')
    assert may_build_per_name(source.encode())  # the prefilter keeps the file
    facts = _facts(source)
    assert [(r.registry, [m.name for m in r.names], r.implementations, r.scheme) for r in facts.registrations] == [
        ("Server.init_model:self.model", ["bloom", "llama", "mistral", "qwen"],
         ("BloomTpPartModel", "LlamaTpPartModel", "LlamaTpPartModel", "QWenVLTpPartModel"), MODEL_TYPE_SCHEME),
        ("load:return", ["DeepseekV3ForCausalLM", "Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM", "Phi3ForCausalLM"],
         ("KDeepseekV3ForCausalLM", "KQwen2MoeForCausalLM", "KQwen2MoeForCausalLM", "Phi3LongRoPEModel"), ""),
    ]
    # every test of a registering chain tells names apart (a dispatch); a test after it is a test of its own
    assert [(c.name, c.scope) for c in facts.collections] == [
        ("Server.init_model#1", "dispatch"), ("Server.init_model#2", "dispatch"), ("Server.init_model#3", "dispatch"),
        ("Server.init_model#4", "dispatch"), ("load#1", "dispatch"), ("load#2", "dispatch"), ("load#3", "dispatch"),
        ("load#4", "inline")]


def test_a_chain_that_chooses_a_model_class_per_tested_name_registers_them_as_one_that_builds():
    """unsloth's loader binds the class and builds it later (`dispatch_model = FastMistralModel`), one of two by a
    condition where a branch serves a dense and a MoE model: chosen as surely as an instance is built."""
    source = ('from .fast import FastLlamaModel, FastMistralModel, FastQwen3Model, FastQwen3MoeModel\n\n\n'
              'def from_pretrained(config):\n'
              '    model_type = config.model_type\n'
              '    if model_type == "llama":\n'
              '        dispatch_model = FastLlamaModel\n'
              '    elif model_type == "mistral":  # the sliding-window path\n'
              '        dispatch_model = FastMistralModel\n'
              '    elif model_type in ("qwen3", "qwen3_moe"):\n'
              '        dispatch_model = FastQwen3Model if model_type == "qwen3" else FastQwen3MoeModel\n'
              '    else:\n'
              '        raise NotImplementedError(model_type)\n'
              '    return dispatch_model.from_pretrained(config)\n')
    assert may_build_per_name(source.encode())
    assert [(r.registry, [m.name for m in r.names], r.implementations, r.scheme)
            for r in _facts(source).registrations] == [
        ("from_pretrained:dispatch_model", ["llama", "mistral", "qwen3", "qwen3_moe"],
         ("pkg.fast:FastLlamaModel", "pkg.fast:FastMistralModel", "pkg.fast:FastQwen3Model", "pkg.fast:FastQwen3Model"),
         MODEL_TYPE_SCHEME)]


def test_a_chain_that_chooses_among_another_packages_classes_registers_nothing(tmp_path):
    """A script picking one of `transformers`' own classes to load (LLaMA-Factory's merge of a Qwen-Omni thinker)
    serves nothing of the project's: the classes it binds come from another package (whose registrations the
    project, serving transformers' models, reads from archsync's snapshot)."""
    write(tmp_path / "pyproject.toml", "")
    merge = ('def merge(config, path):\n'
             '    if config.model_type == "qwen2_5_omni":\n'
             '        from {module} import Qwen2_5OmniThinkerForConditionalGeneration\n\n'
             '        thinker_class = Qwen2_5OmniThinkerForConditionalGeneration\n'
             '    elif config.model_type == "qwen3_omni_moe":\n'
             '        from {module} import Qwen3OmniMoeThinkerForConditionalGeneration\n\n'
             '        thinker_class = Qwen3OmniMoeThinkerForConditionalGeneration\n'
             '    else:\n'
             '        raise ValueError(config.model_type)\n'
             '    return thinker_class.from_pretrained(path)\n')
    write(tmp_path / "pkg/merge.py", merge.format(module="transformers.models.qwen_omni"))
    document = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    assert [r["path"] for r in document["registries"]] == ["transformers/models/auto/modeling_auto.py"] * 9
    write(tmp_path / "pkg/merge.py", merge.format(module="pkg.thinkers"))
    assert archsync("inventory", "--no-cache", cwd=tmp_path).lines[:2] == [
        "Registered architectures: 2", "  pkg/merge.py: merge:thinker_class (if/elif chain, 2 names)"]


def test_a_chain_that_binds_transformers_factories_registers_nothing(tmp_path):
    """A script that picks which of `transformers`' auto factories loads a checkpoint (openvino.genai's benchmark
    loader: `model_cls = AutoModelForCausalLM` for one model type, `AutoModelForImageTextToText` for another) serves
    no model of its own, wherever the factories' names come from (a star import, a name bound elsewhere)."""
    write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "pkg/load.py", 'def load(config, path):\n    if config.model_type == "gemma3n":\n'
                                    '        model_cls = AutoModelForCausalLM\n'
                                    '    elif config.model_type == "smolvlm":\n'
                                    '        model_cls = AutoModelForImageTextToText\n'
                                    '    else:\n        model_cls = AutoModel\n'
                                    '    return model_cls.from_pretrained(path)\n')
    assert archsync("inventory", "--no-cache", cwd=tmp_path).lines[0] == "Registered architectures: 0"


@pytest.mark.parametrize("source, holds", [
    # a branch of an `elif` testing strings builds a model: the file may hold a chain that registers
    ('if a == "X":\n    m = XModel(c)\nelif a == "Y":\n    m = YModel(c)\n', True),
    ('if a == "X": m = XModel(c)\nelif a == "Y": m = YModel(c)\n', True),  # on the test's own line
    ('    elif "Y" == arch:\n        if q:\n            return m.YForCausalLM (c)\n', True),  # deeper, and by module
    # the test's brackets span lines, and close at the `elif`'s own indentation
    ('    elif arch in (\n        "Y",\n    ):\n        self.model = KYForCausalLM(c)\n', True),
    # a model file: strings tested in an `elif`, models built elsewhere (the next branch is no part of it)
    ('    if act == "gelu":\n        f = gelu\n    elif act == "silu":\n        f = silu\n'
     '    else:\n        self.mlp = LlamaModel(c)\n', False),
    ('    elif kind == "x":\n        ok = a == LlamaModel(c)\n', False),  # compared, not built
    ('    elif kind == "x":\n        self.model = build(c)\n', False),  # no model class
    ('    elif kind == "x":\n        cls = XModel\n', True),  # the class itself, built later
    ('    elif kind == "x":\n        cls = XModel  # later\n', True),
    ('    elif kind == "x":\n        cls = XModel if q else XMoeModel\n', True),
    ('    elif kind == "x":\n        cls = XModel.config_class\n', False),  # an attribute of one: no class
    ('    if kind == "x":\n        self.model = XModel(c)\n', False),  # one branch: no `elif`
])
def test_the_prefilter_keeps_a_file_where_an_elif_branch_builds_a_model(source: str, holds: bool):
    assert may_build_per_name(source.encode()) is holds


def test_a_decorators_registry_is_keyed_by_model_type_where_most_of_its_names_are_model_types():
    """More than half: LightLLM's keys include remote-code model types no transformers mapping holds (4 of 7 here
    are known); TurboMind's are its own names, half of them a model type by coincidence."""
    def registry(name: str, *types: str) -> RegistrationFact:
        return RegistrationFact(name, tuple(Member(t, 1, 1) for t in types), (), MODEL_TYPE_SCHEME)

    table = load_table()
    assert table.keyed_by_model_type([
        registry("@ModelRegistry", "llama", "qwen2", "mistral", "internvl_chat"),
        registry("@ModelRegistry", "deepseek_v3", "chatglm", "qwen"),
        registry("@INPUT_MODELS", "llama", "deepseek2"), registry("@INPUT_MODELS", "qwen3_5-moe", "qwen2"),
    ]) == frozenset({"@ModelRegistry"})


def test_a_model_type_normalised_before_the_test_is_still_one():
    source = ('def plan(config):\n'
              '    if str(getattr(config, "model_type", "")).lower() in {"deepseek_v3", "deepseek_v32"}:\n'
              '        return 1\n'
              '    if config.model_type.strip() == "glm4" or config.model_type.casefold() == "glm4_moe":\n'
              '        return 2\n')
    assert _typed(source) == {"plan#1": ["deepseek_v3", "deepseek_v32"], "plan#2": ["glm4", "glm4_moe"]}
    assert model_type_keys.tests_a_model_type(source.encode())  # the prefilter's signal too


_OR_REGISTRY = ('_MODELS = {\n'
                '    "DeepseekV2ForCausalLM": ("ds", "DeepseekV2ForCausalLM"),\n'
                '    "DeepseekV3ForCausalLM": ("ds", "DeepseekV2ForCausalLM"),\n'
                '    "DeepseekV32ForCausalLM": ("ds", "DeepseekV2ForCausalLM"),\n'
                '}\n')
_FUSED = ('def fused_norm(config):\n'
          '    archs = set(config.architectures)\n'
          '    return bool(archs & {"DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"}) or str(\n'
          '        getattr(config, "model_type", "")).lower() in {"deepseek_v2", "deepseek_v3", "deepseek_v32"}\n')


def test_a_list_beside_another_in_one_or_is_not_asked_for_what_the_other_takes(tmp_path):
    """`archs & {V2, V3} or model_type in {..., "deepseek_v32"}`: V3.2 is taken by the second test; tested
    apart, the first list is asked for it (ATOM's mxfp4 norm-quant check, `deepseek_v2.py`)."""
    write(tmp_path / "pyproject.toml", '[project]\nname = "p"\n')
    write(tmp_path / "p" / "__init__.py", "")
    write(tmp_path / "p" / "ds.py",
          "class DeepseekV2ForCausalLM:\n    def forward(self, input_ids):\n        return input_ids\n")
    write(tmp_path / "p" / "registry.py", _OR_REGISTRY)
    write(tmp_path / "p" / "layer.py", "from p.quant import fused_norm\n\n\ndef build(config):\n"
                                       "    return fused_norm(config)\n")
    write(tmp_path / "p" / "quant.py", _FUSED)
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == []
    write(tmp_path / "p" / "quant.py", _FUSED.replace(" or str(\n        getattr", "\n    _ = str(getattr"))
    assert [line.partition(" may belong")[0] for line in archsync("check", "--no-cache", cwd=tmp_path).lines] \
        == ["p/quant.py:3:25: ARC105 'DeepseekV32ForCausalLM'"]
