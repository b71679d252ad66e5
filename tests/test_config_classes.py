"""Issue 8: families from the config classes the runtime dispatches on.

Fixtures under `fixtures/config_classes/`, each a small project shaped like SGLang
(`configs/` with the config classes and `configs/hybrid_arch.py` with the type-dispatch
predicates, `models/` registering model classes through `EntryClass`, and
`arg_groups/overrides.py` with the name whitelists):

- `hybrid`: the main tree. A config-class hierarchy across modules re-exported by
  `sgl.srt.configs` (`Qwen3_5TextConfig(Qwen3NextConfig)`, `Qwen3_5MoeConfig(Qwen3_5Config)`),
  model classes bound to their config class in every way the engine reads, the
  `hybrid_gdn_config()` / `mamba2_config()` predicates, and a pyproject with a
  `[[tool.archsync.cover]]` contract, `families = [...]` and a family-scoped mirror.
- `returns`: `return isinstance(config, A | B)`, `return isinstance(x, (A, B))` and
  `return isinstance(config, A | B) and cond`, named by `families = [...]`.
- `branches`: `if isinstance(...)` branches that return the config only sometimes.
- `guards`: branches that return None for some configs (a guard on a subclass, an early
  return inside the branch) and an `if`/`elif` chain.
- `unreadable`: registered models whose config class cannot be read (ARC901).

What each fixture prints as it is, and why, is its case (`expected.txt`, run through
`archsync check` and flake8 by test_cases.py). The tests here edit a copy of a fixture,
run another command or look at the cache, and spell out every line they expect.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXIT_CLEAN, EXIT_FINDINGS, FIXTURES, archsync, places

PROJECTS = ("hybrid", "returns", "branches", "guards", "unreadable")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


# -- the main tree: fixtures/config_classes/hybrid -------------------------------------------------

def test_mirror_without_families_compares_every_name(tree):
    # Unscoped, the mirror also reports Gemma2ForCausalLM and LlamaForCausalLM, whose config
    # classes (transformers' own) mamba2_config() does not test; the ARC101 lines stay as they are.
    root = tree("config_classes/hybrid")
    _edit(root / "pyproject.toml", 'families = ["mamba2_config"]\n', "")
    result = archsync("check", cwd=root)
    assert places(cwd=root) == [
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Lfm2ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only when has_mamba] but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'FalconH1ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronHForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only unless model_config.is_draft_model] but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:28:1: ARC102 'LlamaForCausalLM' is in _HYBRID_CUDA_GRAPH_ARCHS "
        "(sgl/srt/model_executor/cuda_graph_runner.py:4) but missing from _HYBRID_CHUNKED_PREFILL_ARCHS, which must "
        "mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/arg_groups/overrides.py:28:1: ARC102 'NemotronHForCausalLM' is in _HYBRID_CUDA_GRAPH_ARCHS "
        "(sgl/srt/model_executor/cuda_graph_runner.py:4) but missing from _HYBRID_CHUNKED_PREFILL_ARCHS, which must "
        "mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'FalconH1ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'Gemma2ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'Lfm2ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/speculative/spec_info.py:4:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) but missing from _SPEC_V2_ARCHS",
        "sgl/srt/speculative/spec_info.py:4:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) but missing from _SPEC_V2_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_type_predicates_are_families_only_when_the_configuration_names_them(tree):
    root = tree("config_classes/hybrid")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text[: text.index("[tool.archsync]")], encoding="utf-8")
    result = archsync("check", cwd=root)
    # What the name predicate alone finds: the seed's four lines.
    assert places(cwd=root) == [
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_a_cover_alone_does_not_make_a_family_of_every_guarded_collection(tree):
    # Without `families = ["hybrid_gdn_config"]`, the cover still holds the two whitelists
    # to the type family, and _SPEC_V2_ARCHS (not covered) is not held to it: no spec_info.py line.
    root = tree("config_classes/hybrid")
    _edit(root / "pyproject.toml", 'families = ["hybrid_gdn_config"]\n', "")
    result = archsync("check", cwd=root)
    assert places(cwd=root) == [
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Lfm2ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only when has_mamba] but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'FalconH1ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronHForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only unless model_config.is_draft_model] but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:28:1: ARC102 'NemotronHForCausalLM' is in _HYBRID_CUDA_GRAPH_ARCHS "
        "(sgl/srt/model_executor/cuda_graph_runner.py:4) but missing from _HYBRID_CHUNKED_PREFILL_ARCHS, which must "
        "mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'FalconH1ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'Lfm2ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_moe_config_is_matched_as_a_subclass_of_the_dense_one(tree):
    # Qwen3_5MoeConfig(Qwen3_5Config): dropping it from the isinstance union changes nothing,
    # the output is the fixture's own (fixtures/config_classes/hybrid/expected.txt).
    root = tree("config_classes/hybrid")
    _edit(root / "sgl/srt/configs/hybrid_arch.py", "Qwen3NextConfig | Qwen3_5Config | Qwen3_5MoeConfig)",
          "Qwen3NextConfig | Qwen3_5Config)")
    result = archsync("check", cwd=root)
    assert places(cwd=root) == [
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Lfm2ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only when has_mamba] but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'FalconH1ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronHForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only unless model_config.is_draft_model] but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:28:1: ARC102 'NemotronHForCausalLM' is in _HYBRID_CUDA_GRAPH_ARCHS "
        "(sgl/srt/model_executor/cuda_graph_runner.py:4) but missing from _HYBRID_CHUNKED_PREFILL_ARCHS, which must "
        "mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'FalconH1ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'Lfm2ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/speculative/spec_info.py:4:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) but missing from _SPEC_V2_ARCHS",
        "sgl/srt/speculative/spec_info.py:4:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) but missing from _SPEC_V2_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_text_config_base_brings_the_text_only_models_and_the_cache_follows_it(tree):
    root = tree("config_classes/hybrid")
    warm = archsync("check", cwd=root)  # writes the cache; the fixture's own output (expected.txt)
    assert places(cwd=root) == [
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Lfm2ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only when has_mamba] but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'FalconH1ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronHForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only unless model_config.is_draft_model] but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) and is_qwen3_5() (sgl/srt/configs/model_config.py:13) but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:28:1: ARC102 'NemotronHForCausalLM' is in _HYBRID_CUDA_GRAPH_ARCHS "
        "(sgl/srt/model_executor/cuda_graph_runner.py:4) but missing from _HYBRID_CHUNKED_PREFILL_ARCHS, which must "
        "mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'FalconH1ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'Lfm2ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/speculative/spec_info.py:4:1: ARC101 'Qwen3_5ForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) but missing from _SPEC_V2_ARCHS",
        "sgl/srt/speculative/spec_info.py:4:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by hybrid_gdn_config() "
        "(sgl/srt/configs/hybrid_arch.py:18) but missing from _SPEC_V2_ARCHS",
    ], warm
    # Qwen3_5TextConfig stops subclassing Qwen3NextConfig: the text-only models leave
    # hybrid_gdn_config()'s family, even on a warm (cached) run. is_qwen3_5() still names them
    # at the two whitelists; _SPEC_V2_ARCHS, a list of text models, is not told to hold the two
    # vision-language names that stay in the family.
    _edit(root / "sgl/srt/configs/qwen3_5.py", "class Qwen3_5TextConfig(Qwen3NextConfig):",
          "class Qwen3_5TextConfig(PretrainedConfig):")
    cached = archsync("check", cwd=root)
    assert places(cwd=root) == [
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Lfm2ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only when has_mamba] but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:7:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'FalconH1ForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronHForCausalLM' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) [only unless model_config.is_draft_model] but missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'NemotronH_Nano_VL_V2' is matched by mamba2_config() "
        "(sgl/srt/configs/hybrid_arch.py:26) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:18:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sgl/srt/configs/model_config.py:13) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sgl/srt/arg_groups/overrides.py:28:1: ARC102 'NemotronHForCausalLM' is in _HYBRID_CUDA_GRAPH_ARCHS "
        "(sgl/srt/model_executor/cuda_graph_runner.py:4) but missing from _HYBRID_CHUNKED_PREFILL_ARCHS, which must "
        "mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'FalconH1ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sgl/srt/model_executor/cuda_graph_runner.py:4:1: ARC102 'Lfm2ForCausalLM' is in "
        "_HYBRID_CHUNKED_PREFILL_ARCHS (sgl/srt/arg_groups/overrides.py:28) but missing from "
        "_HYBRID_CUDA_GRAPH_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ], cached
    assert cached.returncode == EXIT_FINDINGS
    cold = archsync("check", "--no-cache", cwd=root)
    assert cold.stdout == cached.stdout, (cold, cached)


def test_show_markdown_has_the_type_families_as_rows():
    result = archsync("show", "--format", "markdown", cwd=FIXTURES / "config_classes" / "hybrid")
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout.splitlines() == [
        "| family | `_HYBRID_CHUNKED_PREFILL_ARCHS` | `_HYBRID_CUDA_GRAPH_ARCHS` | `_MAMBA_EXTRA_BUFFER_ARCHS` | "
        "`_MAMBA_RADIX_CACHE_ARCHS` | `_SPEC_V2_ARCHS` |",
        "|---|---|---|---|---|---|",
        "| `hybrid_gdn_config()` |  |  | partial, missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` | partial, "
        "missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` | partial, missing `Qwen3_5ForCausalLM`, "
        "`Qwen3_5ForConditionalGeneration`, `Qwen3_5MoeForCausalLM`, `Qwen3_5MoeForConditionalGeneration` |",
        "| `is_qwen3_5()` |  |  | partial, missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` | partial, missing "
        "`Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` |  |",
        "| `mamba2_config()` | partial, missing `NemotronHForCausalLM`, `NemotronH_Nano_VL_V2` | partial, missing "
        "`FalconH1ForCausalLM`, `Lfm2ForCausalLM`, `NemotronH_Nano_VL_V2` | partial, missing `FalconH1ForCausalLM`, "
        "`NemotronHForCausalLM`, `NemotronH_Nano_VL_V2` | partial, missing `Lfm2ForCausalLM`, `NemotronH_Nano_VL_V2` "
        "|  |",
    ], result


@pytest.mark.parametrize("name", PROJECTS)
def test_cold_and_warm_runs_print_the_same(tree, name):
    root = tree(f"config_classes/{name}")
    cold = archsync("check", "--no-cache", cwd=root)
    first = archsync("check", cwd=root)  # writes the cache
    second = archsync("check", cwd=root)  # reads it
    assert (root / ".archsync_cache").is_dir(), first
    for run in (first, second):
        assert (run.stdout, run.returncode) == (cold.stdout, cold.returncode), (cold, run)


# -- ARC901: config classes that cannot be read (fixtures/config_classes/unreadable) -----------------

def test_arc901_lists_three_architectures_then_counts_the_rest(tree):
    # Lima goes; Kilo2..Kilo4 join Kilo, all with an unannotated `config`: four unknown, the
    # first three (sorted) listed, KiloForCausalLM counted as "1 more".
    root = tree("config_classes/unreadable")
    (root / "zoo/models/lima.py").unlink()
    for name in ("Kilo2ForCausalLM", "Kilo3ForCausalLM", "Kilo4ForCausalLM"):
        (root / f"zoo/models/{name.lower()}.py").write_text(
            f"class {name}:\n    def __init__(self, config):\n        self.config = config\n\n\nEntryClass = {name}\n",
            encoding="utf-8")
    result = archsync("check", cwd=root)
    assert [line for line in result.lines if ": ARC901 " in line] == [
        "zoo/configs/hybrid_arch.py:7:1: ARC901 recurrent_config() is only partly analysed: config class unknown for "
        "4 registered architectures: Kilo2ForCausalLM (Kilo2ForCausalLM has no `config` annotation on __init__ and no "
        "config_class), Kilo3ForCausalLM (Kilo3ForCausalLM has no `config` annotation on __init__ and no "
        "config_class), Kilo4ForCausalLM (Kilo4ForCausalLM has no `config` annotation on __init__ and no "
        "config_class) and 1 more (2 names read still take part)",
        "zoo/configs/hybrid_arch.py:13:1: ARC901 conv_state_config() is only partly analysed: config class unknown "
        "for 4 registered architectures: Kilo2ForCausalLM (Kilo2ForCausalLM has no `config` annotation on __init__ "
        "and no config_class), Kilo3ForCausalLM (Kilo3ForCausalLM has no `config` annotation on __init__ and no "
        "config_class), Kilo4ForCausalLM (Kilo4ForCausalLM has no `config` annotation on __init__ and no "
        "config_class) and 1 more (1 name read still takes part)",
    ], result


def test_no_arc901_when_every_config_class_is_read(tree):
    # Lima goes and Kilo is annotated `config: PapaConfig`: every config class is read, so
    # KiloForCausalLM joins conv_state_config()'s family and CONV_STATE_ARCHS lacks it.
    root = tree("config_classes/unreadable")
    (root / "zoo/models/lima.py").unlink()
    kilo = root / "zoo/models/kilo.py"
    kilo.write_text(kilo.read_text(encoding="utf-8").replace(
        '"""Kilo takes whatever config it is given: nothing says which class that is."""\n',
        '"""Kilo is built with a Papa config."""\nfrom zoo.configs import PapaConfig\n').replace(
        "def __init__(self, config, quant_config=None)", "def __init__(self, config: PapaConfig, quant_config=None)"),
        encoding="utf-8")
    result = archsync("check", cwd=root)
    assert result.lines == [
        "zoo/arg_groups/overrides.py:3:1: ARC101 'NovemberForCausalLM' is matched by recurrent_config() "
        "(zoo/configs/hybrid_arch.py:7) but missing from RECURRENT_STATE_ARCHS",
        "zoo/arg_groups/overrides.py:4:1: ARC101 'KiloForCausalLM' is matched by conv_state_config() "
        "(zoo/configs/hybrid_arch.py:13) but missing from CONV_STATE_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_unnamed_type_predicates_say_nothing(tree):
    # Neither family is named: no family, so no ARC101 and no ARC901 either.
    root = tree("config_classes/unreadable")
    _edit(root / "pyproject.toml", 'families = ["recurrent_config", "conv_state_config"]\n', "")
    result = archsync("check", cwd=root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN
