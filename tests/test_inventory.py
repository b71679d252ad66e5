"""`archsync inventory` says what archsync saw, and what to set when it saw too little."""
from __future__ import annotations

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    FIXTURES,
    archsync,
    flake8,
    flake8_lines,
    places,
    set_config,
    write,
)

FOV = FIXTURES / "fov"


def test_json_lists_every_registry_shape_with_its_names():
    result = archsync("inventory", "--format", "json", "--no-cache", cwd=FOV / "registries")
    assert result.returncode == EXIT_CLEAN, result
    document = result.json
    assert (document["version"], document["root"]) == (2, str((FOV / "registries").resolve()))
    assert document["registries"] == [
        {"path": "serve/models/delta.py", "name": "@register_auto_model", "shape": "decorator", "names": 2},
        {"path": "serve/models/delta.py", "name": "@register_models", "shape": "decorator", "names": 2},
        {"path": "serve/registry/plugins.py", "name": "_LOADERS", "shape": "dict", "names": 2},
        {"path": "serve/registry/plugins.py", "name": "register_model()", "shape": "call", "names": 1},
        {"path": "serve/registry/tables.py", "name": "MODULE_MAP", "shape": "dict", "names": 2},
        {"path": "serve/registry/tables.py", "name": "_MULTIMODAL_MODELS", "shape": "dict", "names": 1},
        {"path": "serve/registry/tables.py", "name": "_TEXT_MODELS", "shape": "dict", "names": 3},
    ]
    assert [r["name"] for r in document["registered"]] == [
        "AlphaForCausalLM", "AlphaLegacyForCausalLM", "AlphaMoeForCausalLM", "AlphaVLForConditionalGeneration",
        "BravoForCausalLM", "BravoMoeForCausalLM", "CharlieForCausalLM", "CharlieMoeForCausalLM",
        "DeltaChatForCausalLM", "DeltaForCausalLM", "DeltaMoeChatForCausalLM", "DeltaMoeForCausalLM"]
    # the class each name runs, where the registration writes it
    assert document["registered"][1] == {"name": "AlphaLegacyForCausalLM", "path": "serve/registry/tables.py",
                                         "line": 8, "registry": "_TEXT_MODELS",
                                         "implementation": "alpha:AlphaForCausalLM"}
    assert document["subjects"] == [{"name": "SPEC_DECODE_ARCHS", "path": "serve/config/features.py", "line": 4,
                                     "scope": "module", "declared": True, "names": 5, "partly_analysed": False,
                                     "read": "", "copies": ""}]
    assert [(f["name"], f["kind"]) for f in document["families"]] == [
        ("is_alpha", "lineage"), ("is_bravo", "lineage"), ("is_charlie", "lineage"), ("is_delta", "lineage")]
    assert document["external_registries"] == [] and document["universe_from"] == [] and document["hints"] == []


def test_json_paths_resolve_from_the_working_directory():
    """As `check`'s: from the project's parent every path starts with its directory; `root` is where it is."""
    result = archsync("inventory", "--format", "json", "--no-cache", "registries", cwd=FOV)
    document = result.json
    assert document["root"] == str((FOV / "registries").resolve()), result
    assert [r["path"] for r in document["registries"]][:1] == ["registries/serve/models/delta.py"], result
    assert [s["path"] for s in document["subjects"]] == ["registries/serve/config/features.py"], result


def test_text_names_each_subject_by_where_it_is():
    result = archsync("inventory", "--no-cache", cwd=FOV / "subjects")
    assert result.returncode == EXIT_CLEAN, result
    assert [line for line in result.lines if line.startswith("Subjects")] == [
        "Subjects: 15 (2 declared, 13 found by shape; 1 class, 1 decorator, 9 inline, 2 local, 2 module)"]
    # nothing calls keeps_conv_state: its list is a subject, never completed, and the inventory says why
    assert "  engine/runtime/choices.py:25: keeps_conv_state.conv_state_archs [local, 2 names] (by shape): " \
           "not completed: nothing in the project calls keeps_conv_state(), where it is: that name appears only " \
           "where it is defined" in result.lines


def test_a_plugin_is_told_to_read_its_universe():
    result = archsync("inventory", "--no-cache", cwd=FOV / "plugin")
    assert result.lines[-1] == (
        'hint: the project registers into upstream, outside it: names it serves are registered there, so ARC201 '
        'is off; `universe-from = ["upstream"]` reads them (never imported)')
    assert "  read from the installed upstream (universe-from)" in archsync(
        "inventory", "--no-cache", cwd=FOV / "universe" / "plugin").lines


def test_a_project_where_nothing_is_registered_is_told_what_to_set(tmp_path):
    write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "engine.py", 'def pick(arch):\n    return arch in ("qwen2", "llama")\n')
    result = archsync("inventory", "--no-cache", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines == [
        "Registered architectures: 0",
        "Subjects: 0 (0 declared, 0 found by shape)",
        "Families: 0",
        'hint: nothing is registered: no `EntryClass`, registry dict, registration call or registering decorator '
        'was found; name the registry with `registries = ["NAME"]` (or `"path/to/module.py::NAME"`, '
        '`"@decorator"`), so unknown names and families can be checked',
        'hint: no subject found: no `*_ARCHS` collection and no list, test or decorator holding a registered name; '
        'name the collections to check with `guard = ["GLOB"]`',
    ]


def test_lists_of_model_types_with_nothing_registered_are_named_as_unchecked(tmp_path):
    """A project that serves whatever transformers loads (LLaMA-Factory) tests model types and registers nothing:
    the lists are seen, and none is checked; the hint says so, with a path from where archsync ran."""
    write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "pkg/moe.py", 'def configure(config):\n    if config.model_type in ("mixtral", "qwen2_moe"):\n'
                                   '        config.output_router_logits = True\n')
    write(tmp_path / "pkg/loss.py", 'def aux_loss(cfg):\n    return cfg.model_type in ["qwen3_moe", "deepseek_v3"]\n')
    # a value named so that holds something else: a role, an embedding kind; no model type is written there
    write(tmp_path / "pkg/roles.py", 'def scores(args):\n    return args.reward_model_type in ("reward", "critic")\n'
                                     '\n\ndef embeds(cfg):\n    return cfg.embedding_model_type == "sbert"\n')
    result = archsync("inventory", "--no-cache", "pkg", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines[3:7] == [
        "Lists of model types, not checked while nothing is registered: 2",
        "  pkg/loss.py:2: aux_loss#1",
        "  pkg/moe.py:2: configure#1",
        "hint: nothing is registered: no `EntryClass`, registry dict, registration call or registering decorator "
        "was found; name the registry with `registries = [\"NAME\"]` (or `\"path/to/module.py::NAME\"`, "
        "`\"@decorator\"`), so unknown names and families can be checked"], result
    assert result.lines[7] == (
        "hint: 2 lists test a checkpoint's `model_type` (pkg/loss.py:2 aux_loss#1, and 1 more); a model type stands "
        "for the registered architectures it names, and nothing is registered, so none is checked: a table of the "
        "project's own from model type to its classes (`{\"llama\": LlamaModel}`) is named with `registries`; a "
        "project that serves whatever `transformers` loads has no name of its own to register")
    listed = archsync("inventory", "--format", "json", "--no-cache", "pkg", cwd=tmp_path).json["model_type_lists"]
    assert listed == [{"name": "aux_loss#1", "path": "pkg/loss.py", "line": 2},
                      {"name": "configure#1", "path": "pkg/moe.py", "line": 2}]
    # `why` explains a list `inventory` names rather than saying there is no such subject
    why = archsync("why", "configure#1", "mixtral", "pkg", cwd=tmp_path)
    assert (why.returncode, why.lines) == (EXIT_CLEAN, [
        "configure#1 at pkg/moe.py:2 tests a checkpoint's `model_type`: a model type stands for the registered "
        "architectures it names, and the project registers none, so it is not checked (name the registry with "
        "`registries = [\"NAME\"]`, `\"path/to/module.py::NAME\"` or `\"@decorator\"`)"]), why
    # with something registered, a list whose model types name none of it is said to be so
    write(tmp_path / "pkg/models/llama.py", "class LlamaForCausalLM:\n    pass\n\n\nEntryClass = LlamaForCausalLM\n")
    why = archsync("why", "configure#1", "mixtral", "pkg", cwd=tmp_path)
    assert (why.returncode, why.lines) == (EXIT_CLEAN, [
        "configure#1 at pkg/moe.py:2 tests a checkpoint's `model_type`, and none of its model types names a "
        "registered architecture (by archsync's table of `transformers` model types, or a list that ties one to a "
        "registered name), so it is not checked"]), why


def test_a_support_table_looked_up_with_a_class_name_registers_nothing(tmp_path):
    """A project that registers nothing takes a table named `_SUPPORTED_MODELS` as what it serves, unless its module
    looks it up with a Python class name: then it lists the loaded classes a step takes (llm-compressor's copy of
    the tracer of `transformers`), not the checkpoints the project serves."""
    write(tmp_path / "pyproject.toml", "")
    tracer = ('_SUPPORTED_MODELS = ("CLIPTextModel", "GPT2LMHeadModel", "LlamaForCausalLM")\n\n\n'
              "def is_model_supported(model):\n    return {key} in _SUPPORTED_MODELS\n")
    write(tmp_path / "pkg/tracing.py", tracer.format(key="model.__class__.__name__"))
    assert archsync("inventory", "--no-cache", cwd=tmp_path).lines[:2] == [
        "Registered architectures: 0", "Subjects: 0 (0 declared, 0 found by shape)"]
    write(tmp_path / "pkg/tracing.py", tracer.format(key="model.config.architectures[0]"))
    assert archsync("inventory", "--no-cache", cwd=tmp_path).lines[:2] == [
        "Registered architectures: 3", "  pkg/tracing.py: _SUPPORTED_MODELS (dict, 3 names)"]


def test_universe_from_a_package_that_cannot_be_found_is_a_warning(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nuniverse-from = ["no_such_engine"]\n')
    write(tmp_path / "x.py", "X = 1\n")
    result = archsync("check", "--no-cache", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.warnings == [
        "archsync: warning: universe-from: package 'no_such_engine' not found on this interpreter's path or in the "
        "project's virtual environment; names it registers count as unknown"]


def test_universe_from_the_projects_own_virtual_environment(tmp_path):
    site = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "engine"
    write(tmp_path / ".venv" / "pyvenv.cfg", "home = /usr/bin\n")
    write(site / "__init__.py", "")
    write(site / "registry.py", '_MODELS = {"KiloForCausalLM": ("kilo", "KiloForCausalLM")}\n')
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nuniverse-from = ["engine"]\n')
    write(tmp_path / "plugin.py", 'from engine import ModelRegistry\n\n\ndef register():\n'
                                  '    ModelRegistry.register_model("LimaForCausalLM", "plugin:Lima")\n')
    write(tmp_path / "lists.py", 'PLUGIN_ARCHS = ["LimaForCausalLM", "KiloForCasualLM"]\n')
    result = archsync("check", "--no-cache", cwd=tmp_path)
    assert result.lines == [
        "lists.py:1:36: ARC201 'KiloForCasualLM' in PLUGIN_ARCHS is not a registered architecture; "
        "did you mean 'KiloForCausalLM'?"], result


def test_a_newline_in_a_file_name_cannot_forge_an_inventory_line(tmp_path):
    root = tmp_path / "proj"
    write(root / "pyproject.toml", '[project]\nname = "x"\n')
    write(root / "a\nb/m.py", "class AForCausalLM:\n    pass\n\n\nEntryClass = [AForCausalLM]\n")
    write(root / "t.py", 'X_ARCHS = ["AForCausalLM"]\n')
    result = archsync("inventory", cwd=root)
    assert result.lines[:2] == ["Registered architectures: 1", "  a\\x0ab/m.py: EntryClass (statement, 1 name)"], result


SEED_NOT_FAMILIES = [
    "  sglang/srt/arg_groups/overrides.py:63: supports_mamba_cache_extra_buffer() [5 names]: matches names outside "
    "the lineage its name says (supports mamba cache extra buffer): GraniteMoeHybridForCausalLM, "
    "KimiLinearForCausalLM, Qwen3NextForCausalLM and 2 more",
    "  sglang/srt/configs/model_config.py:27: is_qwen3_hybrid() [5 names]: matches names outside the lineage its "
    "name says (qwen3 hybrid): Qwen3NextForCausalLM, Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration and 2 more",
    "  sglang/srt/configs/model_config.py:32: is_deepseek_dsa() [2 names]: matches names outside the lineage its "
    "name says (deepseek dsa): DeepseekV32ForCausalLM, GlmMoeDsaForCausalLM",
    "  sglang/srt/configs/model_config.py:53: ModelConfig.is_hybrid_gdn() [5 names]: matches names outside the "
    "lineage its name says (hybrid gdn): Qwen3NextForCausalLM, Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration "
    "and 2 more",
    "  sglang/srt/configs/model_config.py:57: ModelConfig.uses_sparse_indexer() [2 names]: matches names outside the "
    "lineage its name says (uses sparse indexer): DeepseekV32ForCausalLM, GlmMoeDsaForCausalLM",
]


def _families_section(result):
    lines = result.stdout.splitlines()
    return lines[lines.index(next(line for line in lines if line.startswith("Families: "))):]


def test_the_predicates_that_are_no_family_are_listed_with_why(tree):
    """Issue 16: a way to see why a predicate is or is not a family."""
    root = tree("sglang_qwen3_5/bug")
    text = archsync("inventory", cwd=root)
    assert text.returncode == EXIT_CLEAN, text
    assert _families_section(text) == [
        "Families: 2",
        "  sglang/srt/configs/model_config.py:14: is_qwen3_next() [lineage, 1 name]",
        "  sglang/srt/configs/model_config.py:18: is_qwen3_5() [lineage, 4 names]",
        'Not families: 5 (`families = ["NAME"]` makes one a family)',
    ] + SEED_NOT_FAMILIES, text
    document = archsync("inventory", "--format", "json", cwd=root).json
    assert [(f["name"], f["line"], len(f["names"]), f["why"].split(" (")[0]) for f in document["not_families"]] == [
        ("supports_mamba_cache_extra_buffer", 63, 5, "matches names outside the lineage its name says"),
        ("is_qwen3_hybrid", 27, 5, "matches names outside the lineage its name says"),
        ("is_deepseek_dsa", 32, 2, "matches names outside the lineage its name says"),
        ("ModelConfig.is_hybrid_gdn", 53, 5, "matches names outside the lineage its name says"),
        ("ModelConfig.uses_sparse_indexer", 57, 2, "matches names outside the lineage its name says")]


def test_a_veto_keeps_a_lineage_predicate_from_being_a_family_everywhere(tree):
    """`families = ["!is_qwen3_5"]`: no ARC101 from it in check or flake8 (ARC104, the sibling pairs, still
    speaks for the same names), and inventory says why it is no family."""
    root = tree("sglang_qwen3_5/bug")
    set_config(root, 'families = ["!is_qwen3_5"]')
    expected = [
        f"sglang/srt/arg_groups/overrides.py:{line}:1: ARC104 '{name}' is missing from {subject}, which holds its "
        f"sibling '{sibling}' ('{name}' is registered at sglang/srt/models/qwen3_5_text.py:60)"
        for line, subject in ((35, "_MAMBA_RADIX_CACHE_ARCHS"), (48, "_MAMBA_EXTRA_BUFFER_ARCHS"))
        for name, sibling in (("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration"),
                              ("Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration"))]
    checked = archsync("check", cwd=root)
    assert (checked.returncode, places(cwd=root)) == (EXIT_FINDINGS, expected), checked
    assert len(checked.lines) == 2  # one finding per sibling held, naming both lists
    assert flake8_lines(flake8("--select", "ARC", ".", cwd=root)) == checked.lines
    section = _families_section(archsync("inventory", cwd=root))
    assert section[:3] == ["Families: 1", "  sglang/srt/configs/model_config.py:14: is_qwen3_next() [lineage, 1 name]",
                           'Not families: 6 (`families = ["NAME"]` makes one a family)'], section
    assert '  sglang/srt/configs/model_config.py:18: is_qwen3_5() [4 names]: vetoed by families = ["!is_qwen3_5"]' \
        in section, section


def test_a_family_both_named_and_vetoed_is_an_error(tree):
    root = tree("sglang_qwen3_5/bug")
    set_config(root, 'families = ["is_qwen3_5", "!is_qwen3_5"]')
    result = archsync("check", cwd=root)
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.families: 'is_qwen3_5' is both "
        f"named and vetoed (\"!NAME\"); keep one"]), result


def test_json_gives_each_model_type_the_lists_write_with_the_architectures_it_names(tree):
    root = tree("shapes/model_type_lists")
    write(root / "serve" / "rope.py", 'def uses_long_rope(config):\n'
                                     '    return config.model_type in ("llama", "mystery_lm")\n')
    document = archsync("inventory", "--format", "json", "--no-cache", cwd=root).json
    # what each list of model types is read as; `mystery_lm` names no registered architecture
    assert document["model_types"] == {
        "deepseek_v2": ["DeepseekV2ForCausalLM"], "deepseek_v3": ["DeepseekV3ForCausalLM"],
        "glm4_moe": ["Glm4MoeForCausalLM"], "llama": ["LlamaForCausalLM"], "mystery_lm": [],
        "qwen2_moe": ["Qwen2MoeForCausalLM"], "qwen3_moe": ["Qwen3MoeForCausalLM"]}


def test_an_example_registering_into_another_package_makes_no_host(tmp_path):
    """An example's `register_model` call serves nothing the project does: ARC201 stays on."""
    write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "serve" / "models.py", "class QwenForCausalLM:\n    pass\n\n\nEntryClass = [QwenForCausalLM]\n")
    write(tmp_path / "serve" / "features.py", 'FAST_ARCHS = frozenset({"QwenForCausalLM", "QwenForCasualLM"})\n')
    write(tmp_path / "examples" / "agent.py",
          'from litellm import register_model\n\nregister_model({"dummy": {"mode": "chat"}})\n')
    assert archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json["external_registries"] == []
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == [
        "serve/features.py:1:44: ARC201 'QwenForCasualLM' in FAST_ARCHS is not a registered architecture; "
        "did you mean 'QwenForCausalLM'?"]


def test_transformers_auto_classes_are_never_registered_architectures(tmp_path):
    """A conversion script writes a checkpoint's `auto_map` (FlagScale's checkpoint tools): its keys are transformers'
    factories, spelt like architectures (`AutoModelForCausalLM`), and no checkpoint is one. `Autoformer...` is."""
    write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "tools/kestrel/args.py",
          'def save_args(config):\n    auto_map = dict()\n'
          '    auto_map["AutoConfig"] = "configuration_kestrel.KestrelConfig"\n'
          '    auto_map["AutoModel"] = "modeling_kestrel.KestrelModel"\n'
          '    auto_map["AutoModelForCausalLM"] = "modeling_kestrel.KestrelForCausalLM"\n'
          '    config.auto_map = auto_map\n    return config\n')
    alone = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    assert (alone["registered"], alone["registries"]) == ([], []), alone
    write(tmp_path / "tools/registry.py", 'MODELS = {\n'
                                          '    "AutoformerForPrediction": "autoformer.AutoformerForPrediction",\n'
                                          '    "KestrelForCausalLM": "kestrel.KestrelForCausalLM",\n}\n')
    document = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    assert [r["name"] for r in document["registered"]] == ["AutoformerForPrediction", "KestrelForCausalLM"]
    assert document["registries"] == [{"path": "tools/registry.py", "name": "MODELS", "shape": "dict", "names": 2}]


def test_inventory_without_the_prefilter_sees_the_same(tmp_path):
    """`--no-prefilter` is `check`'s debugging aid, and `inventory` is where a user asks why a list is not seen:
    both take it, and what is seen must not change."""
    seen = archsync("inventory", "--format", "json", "--no-cache", cwd=FOV / "registries")
    every = archsync("inventory", "--format", "json", "--no-cache", "--no-prefilter", cwd=FOV / "registries")
    assert every.returncode == EXIT_CLEAN, every
    assert every.json == seen.json and len(seen.json["registered"]) == 12
