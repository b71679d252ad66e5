"""No silent misconfiguration (issue 16, part 4): a setting that matches nothing is named.

A likely typo (`src` naming no directory; `guard`, `families`, `registries`, `config-maps`
entries matching nothing) is a configuration error, exit 2, from `archsync check` and as
ARC900 from flake8; a harmless miss (a `src` directory without Python files, a `!GLOB` that
drops nothing, a `siblings` suffix ending no registered name) is a warning and the run goes on; a
`name-pattern` no registered name matches is an error. On the seed bug tree, through the real
programs.
"""
from __future__ import annotations

import pytest

from conftest import EXIT_ERROR, EXIT_FINDINGS, archsync, flake8, flake8_lines, set_config, write

ERRORS = [
    ('src = ["nonexistent"]', "src: 'nonexistent' is not a directory in the project"),
    ('guard = ["*_ARCHES"]', "guard: '*_ARCHES' matches no collection in the project"),
    ('guard = ["_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFER_ARCHS"]',
     "guard: '_MAMBA_EXTRA_BUFER_ARCHS' matches no collection in the project "
     "(did you mean '_MAMBA_EXTRA_BUFFER_ARCHS'?)"),
    ('families = ["is_qwen35"]', "families: 'is_qwen35' matches no predicate in the project "
                                 "(did you mean 'is_qwen3_5'?)"),
    ('families = ["is_qwen3_5", "is_nope", "is_nada"]',
     "families: 'is_nope', 'is_nada' match no predicate in the project"),
    ('registries = ["EntryClass", "ModelRegistery"]',
     "registries: 'ModelRegistery' matches no registry or collection in the project"),
    ('config-maps = ["sglang/srt/configs/*.py::ARCH_TO_CONFIG"]',
     "config-maps: 'sglang/srt/configs/*.py::ARCH_TO_CONFIG' matches no dict in the project"),
    ('name-pattern = "[a-z]+"', "name-pattern: '[a-z]+' matches no registered name (such as "
                                "'DeepseekV32ForCausalLM'), so no string a predicate tests is read as one"),
]


@pytest.mark.parametrize("setting, error", ERRORS, ids=[e[0].split(" ")[0] for e in ERRORS])
def test_a_setting_that_matches_nothing_is_a_configuration_error(tree, setting, error):
    root = tree("sglang_qwen3_5/bug")
    set_config(root, setting)
    message = f"{(root / 'pyproject.toml').resolve()}: tool.archsync.{error}"
    result = archsync("check", cwd=root)
    assert (result.returncode, result.stdout, result.err_lines) == (EXIT_ERROR, "", [
        f"archsync: error: {message}"]), result
    via_flake8 = flake8(".", cwd=root)
    assert len(via_flake8.lines) == 1, via_flake8  # once, on the first file flake8 checks
    assert via_flake8.lines[0].endswith(f":1:1: ARC900 archsync configuration error: {message}"), via_flake8


@pytest.mark.parametrize("contracts", ['extends = ["sglang"]', '[[tool.archsync.mirror]]\ncollections = '
                                       '["_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS"]'])
def test_a_wrong_src_is_named_before_the_contracts_it_leaves_without_collections(tree, contracts):
    """With `src` wrong, a contract (a rule pack's, or the project's) finds no collection: the error names
    `src`, the cause, not the contract."""
    root = tree("sglang_qwen3_5/bug")
    set_config(root, f'src = ["sglang/srt/model"]\n{contracts}\n')
    result = archsync("check", cwd=root)
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.src: 'sglang/srt/model' is not "
        f"a directory in the project"]), result


def test_settings_that_match_what_the_project_holds_pass(tree):
    root = tree("sglang_qwen3_5/bug")
    set_config(root, 'src = ["."]\nguard = ["_MAMBA_*_ARCHS"]\nfamilies = ["is_qwen3_5"]\n'
                     'registries = ["EntryClass"]\nsiblings = [["ForConditionalGeneration", "ForCausalLM"]]\n'
                     'name-pattern = "[A-Z][A-Za-z0-9_]*"\n')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS and len(result.lines) == 1, result  # the seed's one cause
    assert result.warnings == [], result


def test_harmless_misses_are_warnings(tree):
    root = tree("sglang_qwen3_5/bug")
    write(root / "docs/README.md", "no Python here\n")
    set_config(root, 'src = [".", "docs"]\nregistries = ["EntryClass", "!*/legacy/*::*"]\n'
                     'siblings = [["ForConditionalGeneraton", "ForCausalLM"], ["ForCausalLM", "ForRanking"]]\n')
    source = (root / "pyproject.toml").resolve()
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS and len(result.lines) == 1, result
    assert result.warnings == [
        f"archsync: warning: {source}: tool.archsync.src: 'docs' holds no Python file",
        f"archsync: warning: {source}: tool.archsync.registries: '!*/legacy/*::*' drops no registry found in the "
        f"project",
        f"archsync: warning: {source}: tool.archsync.siblings: 'ForConditionalGeneraton' ends no registered name "
        f"(did you mean 'ForConditionalGeneration'?)",
        f"archsync: warning: {source}: tool.archsync.siblings: 'ForRanking' ends no registered name",
    ], result


def test_flake8_reports_a_configuration_error_once_on_the_first_file_it_checks(tree):
    """The same file carries ARC900 whatever -j is: the first by path of those flake8 checks."""
    root = tree("sglang_qwen3_5/bug")
    set_config(root, 'guard = ["*_ARCHES"]\n')
    runs = [flake8("-j", jobs, ".", cwd=root) for jobs in ("1", "2", "2", "2")]
    assert {tuple(flake8_lines(r)) for r in runs} == {(
        "sglang/__init__.py:1:1: ARC900 archsync configuration error: "
        f"{(root / 'pyproject.toml').resolve()}: tool.archsync.guard: '*_ARCHES' matches no collection in the "
        "project",)}, runs
    models = flake8("-j", "2", "sglang/srt/models", cwd=root)
    assert [line.split(":")[0] for line in flake8_lines(models)] == ["sglang/srt/models/__init__.py"], models


REGISTERED_BY_DESCRIPTOR = '''"""Models registered through a descriptor object, as ms-swift does."""
from .register import ModelMeta, register_model


def register_model(meta):
    REGISTRY[meta.key] = meta


register_model(ModelMeta("llama", [], LlamaLoader, architectures=["LlamaForCausalLM"]))

register_model(
    ModelMeta("qwen3", [], Qwen3Loader, architectures=["Qwen3ForCausalLM"]))
'''


@pytest.mark.parametrize("entry", ["register_model", "@register_model"])
def test_a_registry_the_code_calls_with_nothing_archsync_reads_says_so(tmp_path, entry):
    """`register_model(ModelMeta(...))`: the name is there, called with no architecture name archsync reads.
    The error says where and with what, not "matches nothing" with another registry's name to try."""
    from lint_plugin.config import ConfigError, load_config
    from lint_plugin.pipeline import Request, run_with
    from lint_plugin.rules.codes import CODES

    write(tmp_path / "pkg/models.py", REGISTERED_BY_DESCRIPTOR)
    write(tmp_path / "pyproject.toml", f'[project]\nname = "pkg"\n\n[tool.archsync]\nregistries = ["{entry}"]\n')
    with pytest.raises(ConfigError) as error:
        run_with(load_config(tmp_path, CODES), Request(use_cache=False))
    assert str(error.value) == (
        f"{(tmp_path / 'pyproject.toml').resolve()}: tool.archsync.registries: {entry!r} registers no name archsync "
        "can read: "
        "`register_model` is called 2 times (pkg/models.py:9, first with `ModelMeta(...)`); a registering call "
        "or decorator names the architecture as its first argument, a string (`register_model(\"LlamaForCausalLM\", "
        "...)`), or gives the project's own key, the class that serves it and a list of architecture names "
        "(`register_model(\"llama\", LlamaModel, [\"LlamaForCausalLM\"])`)")


def test_a_bare_decorator_the_configuration_names_registers_each_class_under_its_name(tmp_path):
    """`@register_draft`, no arguments, stores `REGISTRY[cls.__name__] = cls`: the class's name is what it registers
    (SpecForge's draft models); without the setting a bare decorator registers nothing."""
    write(tmp_path / "pkg/registry.py", "DRAFTS = {}\n\n\ndef register_draft(cls):\n    DRAFTS[cls.__name__] = cls\n"
                                        "    return cls\n")
    write(tmp_path / "pkg/eagle.py", "from .registry import register_draft\n\n\n@register_draft\n"
                                     "class LlamaForCausalLMEagle3:\n    pass\n\n\n@pkg.registry.register_draft\n"
                                     "class Qwen3ForCausalLMEagle3:\n    pass\n")
    write(tmp_path / "pkg/features.py", 'FAST_DRAFT_ARCHS = ("LlamaForCausalLMEagle3", "Qwen3ForCausalLMEagel3")\n')
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nregistries = ["@register_draft"]\n')
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == [
        "pkg/features.py:1:47: ARC201 'Qwen3ForCausalLMEagel3' in FAST_DRAFT_ARCHS is not a registered architecture; "
        "did you mean 'Qwen3ForCausalLMEagle3'?"]
    write(tmp_path / "pyproject.toml", "")
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == []


def test_a_table_the_configuration_names_registers_its_keys_whatever_its_values(tmp_path):
    """`registries = ["EXPORT_RULES"]` on a dict whose values are rule functions, not classes: named, the table
    registers its keys (it was a configuration error, "matches no registry or collection": read as `EntryClass`, a
    dict held no class and was no collection either)."""
    write(tmp_path / "pkg/export.py", "from .rules import llama_rules, qwen_rules\n\n"
                                      "EXPORT_RULES: dict = {\n    \"LlamaForCausalLM\": llama_rules,\n"
                                      "    \"Qwen3ForCausalLM\": qwen_rules,\n}\n")
    write(tmp_path / "pkg/check.py", "def exportable(arch):\n"
                                     "    return arch in (\"LlamaForCausalLM\", \"Qwen3ForCasualLM\")\n")
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nregistries = ["EXPORT_RULES"]\n')
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == [
        "pkg/check.py:2:41: ARC201 'Qwen3ForCasualLM' in exportable#1 is not a registered architecture; "
        "did you mean 'Qwen3ForCausalLM'?"]
    assert archsync("check", "--no-cache", "--no-prefilter", cwd=tmp_path).lines == [
        "pkg/check.py:2:41: ARC201 'Qwen3ForCasualLM' in exportable#1 is not a registered architecture; "
        "did you mean 'Qwen3ForCausalLM'?"]



def test_a_table_keyed_by_model_type_the_configuration_names_registers_what_its_model_types_name(tmp_path):
    """`registries = ["MODEL_TYPES"]` on neuronx-distributed-inference's table of model types (`{"llama":
    {"causal-lm": NeuronLlamaForCausalLM}}`), as `inventory` tells a project that registers nothing to do: it was a
    configuration error ("matches no registry or collection"), its keys being no architecture names."""
    write(tmp_path / "pkg/demo.py", "from .models import NeuronLlamaForCausalLM, NeuronQwen3ForCausalLM\n\n"
                                    "MODEL_TYPES = {\n    \"llama\": {\"causal-lm\": NeuronLlamaForCausalLM},\n"
                                    "    \"qwen3\": {\"causal-lm\": NeuronQwen3ForCausalLM},\n}\n")
    write(tmp_path / "pkg/check.py", "def fused(arch):\n"
                                     "    return arch in (\"LlamaForCausalLM\", \"Qwen3ForCasualLM\")\n")
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nregistries = ["MODEL_TYPES"]\n')
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == [
        "pkg/check.py:2:41: ARC201 'Qwen3ForCasualLM' in fused#1 is not a registered architecture; "
        "did you mean 'Qwen3ForCausalLM'?"]
