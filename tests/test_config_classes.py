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

Expected lines are built from the fixture text (`assigned_at`, `defined_at`) and compared
with the whole output of the real `archsync` / `flake8` programs.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional, Sequence, Tuple

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    FIXTURES,
    archsync,
    assigned_at,
    defined_at,
    flake8,
    flake8_lines,
)

CONFIG_CLASSES = FIXTURES / "config_classes"
HYBRID = CONFIG_CLASSES / "hybrid"
PROJECTS = ("hybrid", "returns", "branches", "guards", "unreadable")

# (predicate, root-relative path of its module, condition or None)
Evidence = Tuple[str, str, Optional[str]]


def _arc101(root: Path, shown: str, collection: str, member: str, evidence: Sequence[Evidence]) -> str:
    """The exact ARC101 line for `member` missing from `collection` (assigned in `shown`)."""
    line = assigned_at(root / shown, collection)
    named = " and ".join(
        f"{name}() ({path}:{defined_at(root / path, name)})" + (f" [only {condition}]" if condition else "")
        for name, path, condition in evidence
    )
    return f"{shown}:{line}:1: ARC101 '{member}' is matched by {named} but missing from {collection}"


def _arc102(root: Path, shown: str, lacking: str, member: str, other_path: str, other: str, key: str) -> str:
    """The exact ARC102 line; the configuration entry is named root-relative, like every path."""
    return (f"{shown}:{assigned_at(root / shown, lacking)}:1: ARC102 '{member}' is in {other} "
            f"({other_path}:{assigned_at(root / other_path, other)}) but missing from {lacking}, "
            f"which must mirror it (pyproject.toml: tool.archsync.{key})")


def _check(root: Path, *args: str):
    return archsync("check", *args, cwd=root)


def _copy(tree, name: str) -> Path:
    return tree(f"config_classes/{name}")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


# -- the main tree ---------------------------------------------------------------------------------

OVERRIDES = "sgl/srt/arg_groups/overrides.py"
SPEC = "sgl/srt/speculative/spec_info.py"
GRAPHS = "sgl/srt/model_executor/cuda_graph_runner.py"
HYBRID_ARCH = "sgl/srt/configs/hybrid_arch.py"
MODEL_CONFIG = "sgl/srt/configs/model_config.py"

GDN: Evidence = ("hybrid_gdn_config", HYBRID_ARCH, None)
QWEN3_5: Evidence = ("is_qwen3_5", MODEL_CONFIG, None)
MAMBA2: Evidence = ("mamba2_config", HYBRID_ARCH, None)
MAMBA2_NOT_DRAFT: Evidence = ("mamba2_config", HYBRID_ARCH, "unless model_config.is_draft_model")
MAMBA2_HAS_MAMBA: Evidence = ("mamba2_config", HYBRID_ARCH, "when has_mamba")

TEXT_ONLY = ("Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM")
VL = ("Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration")


def _radix(root, member, *evidence):
    return _arc101(root, OVERRIDES, "_MAMBA_RADIX_CACHE_ARCHS", member, evidence)


def _extra(root, member, *evidence):
    return _arc101(root, OVERRIDES, "_MAMBA_EXTRA_BUFFER_ARCHS", member, evidence)


def _spec(root, member, *evidence):
    return _arc101(root, SPEC, "_SPEC_V2_ARCHS", member, evidence)


def _whitelist_lines(root: Path) -> list:
    """ARC101 at the two covered whitelists: what the runtime gives a mamba cache and they lack."""
    return [
        # Lfm2Config is tested, then `if not has_mamba: return None else: return config`.
        _radix(root, "Lfm2ForCausalLM", MAMBA2_HAS_MAMBA),
        # `return config.llm_config` for the VL wrapper: a member, unconditionally.
        _radix(root, "NemotronH_Nano_VL_V2", MAMBA2),
        # Seed-like: the text-only names, bound to Qwen3_5TextConfig(Qwen3NextConfig), matched
        # by the type predicate and by the name predicate; one line naming both.
        _radix(root, "Qwen3_5ForCausalLM", GDN, QWEN3_5),  # config: "Qwen3_5TextConfig"
        _radix(root, "Qwen3_5MoeForCausalLM", GDN, QWEN3_5),  # inherits Qwen3_5ForCausalLM's binding
        # FalconH1ForCausalLM: `body_cls = falcon_h1_body.FalconH1Model`, whose __init__ is annotated.
        _extra(root, "FalconH1ForCausalLM", MAMBA2),
        # `if isinstance(config, NemotronHConfig) and model_config.is_draft_model: return None`
        # before `isinstance(config, FalconH1Config | NemotronHConfig)`; config_class = NemotronHConfig.
        _extra(root, "NemotronHForCausalLM", MAMBA2_NOT_DRAFT),
        _extra(root, "NemotronH_Nano_VL_V2", MAMBA2),
        _extra(root, "Qwen3_5ForCausalLM", GDN, QWEN3_5),
        _extra(root, "Qwen3_5MoeForCausalLM", GDN, QWEN3_5),
    ]


def _spec_lines(root: Path) -> list:
    """`families = ["hybrid_gdn_config"]`: a family for ARC101 at every guarded collection.

    _SPEC_V2_ARCHS holds Qwen3NextForCausalLM (config: Qwen3NextConfig) and no Qwen3.5 name,
    so is_qwen3_5() does not meet it: these lines name the type family alone.
    """
    return [
        _spec(root, "Qwen3_5ForCausalLM", GDN),
        _spec(root, "Qwen3_5ForConditionalGeneration", GDN),  # config: Optional[Qwen3_5Config] = None
        _spec(root, "Qwen3_5MoeForCausalLM", GDN),
        _spec(root, "Qwen3_5MoeForConditionalGeneration", GDN),  # config_class = Qwen3_5MoeConfig
    ]


def _mirror_lines(root: Path, scoped: bool = True) -> list:
    """ARC102 between the two hybrid tables, only over mamba2_config()'s names when scoped."""
    chunked = "_HYBRID_CHUNKED_PREFILL_ARCHS"
    graphs = "_HYBRID_CUDA_GRAPH_ARCHS"
    at_chunked = ["NemotronHForCausalLM"] + ([] if scoped else ["LlamaForCausalLM"])
    at_graphs = ["FalconH1ForCausalLM"] + ([] if scoped else ["Gemma2ForCausalLM"]) + ["Lfm2ForCausalLM"]
    return ([_arc102(root, OVERRIDES, chunked, m, GRAPHS, graphs, "mirror[0]") for m in sorted(at_chunked)]
            + [_arc102(root, GRAPHS, graphs, m, OVERRIDES, chunked, "mirror[0]") for m in at_graphs])


def _of(family, lines):
    """The lines that name one family."""
    return [line for line in lines if f" {family}() " in line]


def _not_mirror(lines):
    return [line for line in lines if ": ARC102 " not in line]


def _mirror(lines):
    return [line for line in lines if ": ARC102 " in line]


def test_cover_contract_and_families_over_config_classes():
    result = _check(HYBRID)
    assert _not_mirror(result.lines) == _whitelist_lines(HYBRID) + _spec_lines(HYBRID), result
    assert result.returncode == EXIT_FINDINGS


def test_mirror_scoped_to_a_type_family():
    # Gemma2ForCausalLM and LlamaForCausalLM differ between the tables too, but their config
    # classes (transformers' own) are not tested by mamba2_config(): out of the mirror's scope.
    result = _check(HYBRID)
    assert _mirror(result.lines) == _mirror_lines(HYBRID), result


def test_mirror_without_families_compares_every_name(tree):
    root = _copy(tree, "hybrid")
    _edit(root / "pyproject.toml", 'families = ["mamba2_config"]\n', "")
    result = _check(root)
    assert _mirror(result.lines) == _mirror_lines(root, scoped=False), result
    assert _not_mirror(result.lines) == _whitelist_lines(root) + _spec_lines(root), result


def test_flake8_reports_the_same_lines():
    via_archsync = _check(HYBRID)
    via_flake8 = flake8(".", cwd=HYBRID)
    assert flake8_lines(via_flake8) == via_archsync.lines, (via_archsync, via_flake8)
    assert _not_mirror(flake8_lines(via_flake8)) == _whitelist_lines(HYBRID) + _spec_lines(HYBRID), via_flake8
    assert via_flake8.returncode == 1, via_flake8


def test_type_predicates_are_families_only_when_the_configuration_names_them(tree):
    root = _copy(tree, "hybrid")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text[: text.index("[tool.archsync]")], encoding="utf-8")
    result = _check(root)
    # What the name predicate alone finds: the seed's four lines.
    assert result.lines == [
        _radix(root, "Qwen3_5ForCausalLM", QWEN3_5),
        _radix(root, "Qwen3_5MoeForCausalLM", QWEN3_5),
        _extra(root, "Qwen3_5ForCausalLM", QWEN3_5),
        _extra(root, "Qwen3_5MoeForCausalLM", QWEN3_5),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_a_cover_alone_does_not_make_a_family_of_every_guarded_collection(tree):
    # Without `families = ["hybrid_gdn_config"]`, the cover still holds the two whitelists
    # to the type family, and _SPEC_V2_ARCHS (not covered) is not held to it.
    root = _copy(tree, "hybrid")
    _edit(root / "pyproject.toml", 'families = ["hybrid_gdn_config"]\n', "")
    result = _check(root)
    assert _not_mirror(result.lines) == _whitelist_lines(root), result


def test_moe_config_is_matched_as_a_subclass_of_the_dense_one(tree):
    # Qwen3_5MoeConfig(Qwen3_5Config): dropping it from the isinstance union changes nothing.
    root = _copy(tree, "hybrid")
    _edit(root / HYBRID_ARCH, "Qwen3NextConfig | Qwen3_5Config | Qwen3_5MoeConfig)", "Qwen3NextConfig | Qwen3_5Config)")
    result = _check(root)
    assert _not_mirror(result.lines) == _whitelist_lines(root) + _spec_lines(root), result


def test_text_config_base_brings_the_text_only_models_and_the_cache_follows_it(tree):
    root = _copy(tree, "hybrid")
    warm = _check(root)
    assert _not_mirror(warm.lines) == _whitelist_lines(root) + _spec_lines(root), warm
    # Qwen3_5TextConfig stops subclassing Qwen3NextConfig: the text-only models leave
    # hybrid_gdn_config()'s family, even on a warm (cached) run.
    _edit(root / "sgl/srt/configs/qwen3_5.py", "class Qwen3_5TextConfig(Qwen3NextConfig):",
          "class Qwen3_5TextConfig(PretrainedConfig):")
    expected = [
        _radix(root, "Lfm2ForCausalLM", MAMBA2_HAS_MAMBA),
        _radix(root, "NemotronH_Nano_VL_V2", MAMBA2),
        _radix(root, "Qwen3_5ForCausalLM", QWEN3_5),
        _radix(root, "Qwen3_5MoeForCausalLM", QWEN3_5),
        _extra(root, "FalconH1ForCausalLM", MAMBA2),
        _extra(root, "NemotronHForCausalLM", MAMBA2_NOT_DRAFT),
        _extra(root, "NemotronH_Nano_VL_V2", MAMBA2),
        _extra(root, "Qwen3_5ForCausalLM", QWEN3_5),
        _extra(root, "Qwen3_5MoeForCausalLM", QWEN3_5),
        _spec(root, "Qwen3_5ForConditionalGeneration", GDN),
        _spec(root, "Qwen3_5MoeForConditionalGeneration", GDN),
    ]
    cached = _check(root)
    assert _not_mirror(cached.lines) == expected, cached
    cold = _check(root, "--no-cache")
    assert cold.stdout == cached.stdout, (cold, cached)


def test_show_markdown_has_the_type_families_as_rows():
    result = archsync("show", "--format", "markdown", cwd=HYBRID)
    assert result.returncode == EXIT_CLEAN, result

    def missing(*names):
        return "partial, missing " + ", ".join(f"`{n}`" for n in names)

    columns = ["_HYBRID_CHUNKED_PREFILL_ARCHS", "_HYBRID_CUDA_GRAPH_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS",
               "_MAMBA_RADIX_CACHE_ARCHS", "_SPEC_V2_ARCHS"]
    rows = {
        "hybrid_gdn_config": ["", "", missing(*TEXT_ONLY), missing(*TEXT_ONLY),
                              missing("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration",
                                      "Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration")],
        "is_qwen3_5": ["", "", missing(*TEXT_ONLY), missing(*TEXT_ONLY), ""],
        "mamba2_config": [missing("NemotronHForCausalLM", "NemotronH_Nano_VL_V2"),
                          missing("FalconH1ForCausalLM", "Lfm2ForCausalLM", "NemotronH_Nano_VL_V2"),
                          missing("FalconH1ForCausalLM", "NemotronHForCausalLM", "NemotronH_Nano_VL_V2"),
                          missing("Lfm2ForCausalLM", "NemotronH_Nano_VL_V2"), ""],
    }
    expected = ["| family | " + " | ".join(f"`{c}`" for c in columns) + " |", "|---|" + "---|" * len(columns)]
    expected += [f"| `{family}()` | " + " | ".join(cells) + " |" for family, cells in rows.items()]
    assert result.stdout.splitlines() == expected, result


@pytest.mark.parametrize("name", PROJECTS)
def test_cold_and_warm_runs_print_the_same(tree, name):
    root = _copy(tree, name)
    cold = _check(root, "--no-cache")
    first = _check(root)  # writes the cache
    second = _check(root)  # reads it
    assert (root / ".archsync_cache").is_dir(), first
    for run in (first, second):
        assert (run.stdout, run.returncode) == (cold.stdout, cold.returncode), (cold, run)


# -- predicate forms ----------------------------------------------------------------------------------

RETURNS = CONFIG_CLASSES / "returns"


def _returns_line(member, family, condition=None):
    return _arc101(RETURNS, "zoo/arg_groups/overrides.py", "SLIDING_WINDOW_ARCHS", member,
                   [(family, "zoo/configs/hybrid_arch.py", condition)])


def test_return_isinstance_forms():
    # `families = [...]` names them; SLIDING_WINDOW_ARCHS holds one member of each.
    result = _check(RETURNS)
    assert [line for line in result.lines if " uses_draft_ring() " not in line] == [
        # `return isinstance(config, AlphaConfig | BravoConfig)`; AlphaMoeConfig(AlphaConfig).
        _returns_line("AlphaMoeForCausalLM", "uses_ring_attention"),
        _returns_line("BravoForCausalLM", "uses_ring_attention"),
        # `return isinstance(model_config.hf_config.get_text_config(), (CharlieConfig, DeltaConfig))`
        _returns_line("DeltaForCausalLM", "uses_sliding_window"),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_return_isinstance_and_a_condition_is_conditional():
    # `return isinstance(config, EchoConfig | FoxtrotConfig) and is_draft`
    result = _check(RETURNS)
    assert _of("uses_draft_ring", result.lines) == [
        _returns_line("EchoForCausalLM", "uses_draft_ring", "when is_draft"),
    ], result


def test_branch_forms():
    root = CONFIG_CLASSES / "branches"
    where = "zoo/configs/hybrid_arch.py"

    def line(member, family, condition=None):
        return _arc101(root, "zoo/arg_groups/overrides.py", "STATE_CACHE_ARCHS", member, [(family, where, condition)])

    result = _check(root)
    assert result.lines == [
        # `if isinstance(config, EchoConfig) and model_config.is_draft_model: return config`
        line("EchoForCausalLM", "draft_state_config", "when model_config.is_draft_model"),
        # `return config if config.cache_params is not None else None`
        line("FoxtrotForCausalLM", "cached_state_config", "when config.cache_params is not None"),
        # a plain `if isinstance(config, GolfConfig): return config` in the same function
        line("GolfForCausalLM", "draft_state_config"),
        # `if "mamba" in config.layer_types: return config` inside the branch
        line("JulietForCausalLM", "cached_state_config", "when 'mamba' in config.layer_types"),
        # `if config.attention_only: return None else: return config` inside the branch
        line("KiloForCausalLM", "cached_state_config", "unless config.attention_only"),
    ], result
    assert result.returncode == EXIT_FINDINGS


GUARDS = CONFIG_CLASSES / "guards"


def _guards_line(member, family, condition=None):
    return _arc101(GUARDS, "zoo/arg_groups/overrides.py", "STATE_CACHE_ARCHS", member,
                   [(family, "zoo/configs/hybrid_arch.py", condition)])


def test_guard_on_a_subclass_excludes_its_models():
    # `if isinstance(config, HotelLiteConfig): return None` before
    # `if isinstance(config, HotelConfig): return config`: HotelLiteConfig(HotelConfig) never
    # gets a state cache, so HotelLiteForCausalLM is no member.
    result = _check(GUARDS)
    assert _of("hotel_state_config", result.lines) == [
        _guards_line("HotelForCausalLM", "hotel_state_config"),
    ], result


def test_early_return_none_inside_a_branch_makes_it_conditional():
    # `if isinstance(config, LimaConfig): if config.attention_only: return None; return config`
    result = _check(GUARDS)
    assert _of("lima_state_config", result.lines) == [
        _guards_line("LimaForCausalLM", "lima_state_config", "unless config.attention_only"),
    ], result


def test_elif_branches_are_read():
    # `if isinstance(config, OscarConfig): return config.text_config`
    # `elif isinstance(config, NovemberConfig): return config`
    result = _check(GUARDS)
    assert _of("conv_state_config", result.lines) == [
        _guards_line("NovemberForCausalLM", "conv_state_config"),
        _guards_line("OscarForCausalLM", "conv_state_config"),
    ], result


# -- ARC901: config classes that cannot be read ------------------------------------------------------

UNREADABLE = CONFIG_CLASSES / "unreadable"
_ARC901 = re.compile(
    r"^(?P<where>\S+): ARC901 (?P<family>\w+)\(\) is only partly analysed: config class unknown for "
    r"(?P<count>\d+) registered architectures: (?P<listed>.*) \((?P<read>\d+) names? read still takes? part\)$"
)
KILO_WHY = "KiloForCausalLM has no `config` annotation on __init__ and no config_class"


def _arc901s(lines):
    return [_ARC901.match(line) for line in lines if ": ARC901 " in line]


def test_unreadable_config_classes_are_arc901_once_per_type_family():
    root = UNREADABLE
    where = "zoo/configs/hybrid_arch.py"
    result = _check(root)
    assert [line for line in result.lines if ": ARC901 " not in line] == [
        # NovemberForCausalLM(MikeForCausalLM) with config_class = NovemberConfig(MikeConfig).
        _arc101(root, "zoo/arg_groups/overrides.py", "RECURRENT_STATE_ARCHS", "NovemberForCausalLM",
                [("recurrent_config", where, None)]),
    ], result
    found = _arc901s(result.lines)
    assert all(found) and len(found) == 2, result
    assert [(m["where"], m["family"], m["count"], m["read"]) for m in found] == [
        (f"{where}:{defined_at(root / where, 'recurrent_config')}:1", "recurrent_config", "2", "2"),
        (f"{where}:{defined_at(root / where, 'conv_state_config')}:1", "conv_state_config", "2", "1"),
    ], result
    for match in found:
        kilo, lima = re.fullmatch(r"KiloForCausalLM \((.*)\), LimaForCausalLM \((.*)\)", match["listed"]).groups()
        # An __init__ with an unannotated config and no wrapper.
        assert kilo == KILO_WHY, result
        # `config_class = pick_config()`: the reason names the call that picks it at run time,
        # rather than claiming there is no config_class.
        assert "pick_config()" in lima and "no config_class" not in lima, result
    assert result.returncode == EXIT_FINDINGS


def test_arc901_lists_three_architectures_then_counts_the_rest(tree):
    root = _copy(tree, "unreadable")
    (root / "zoo/models/lima.py").unlink()
    for name in ("Kilo2ForCausalLM", "Kilo3ForCausalLM", "Kilo4ForCausalLM"):
        (root / f"zoo/models/{name.lower()}.py").write_text(
            f"class {name}:\n    def __init__(self, config):\n        self.config = config\n\n\nEntryClass = {name}\n",
            encoding="utf-8")
    where = "zoo/configs/hybrid_arch.py"
    listed = ", ".join(f"{n} ({n} has no `config` annotation on __init__ and no config_class)"
                       for n in ("Kilo2ForCausalLM", "Kilo3ForCausalLM", "Kilo4ForCausalLM"))
    result = _check(root)
    assert [line for line in result.lines if ": ARC901 " in line] == [
        f"{where}:{defined_at(root / where, family)}:1: ARC901 {family}() is only partly analysed: config class "
        f"unknown for 4 registered architectures: {listed} and 1 more ({read} part)"
        for family, read in (("recurrent_config", "2 names read still take"),
                             ("conv_state_config", "1 name read still takes"))
    ], result


def test_no_arc901_when_every_config_class_is_read(tree):
    root = _copy(tree, "unreadable")
    (root / "zoo/models/lima.py").unlink()
    kilo = root / "zoo/models/kilo.py"
    kilo.write_text(kilo.read_text(encoding="utf-8").replace(
        '"""Kilo takes whatever config it is given: nothing says which class that is."""\n',
        '"""Kilo is built with a Papa config."""\nfrom zoo.configs import PapaConfig\n').replace(
        "def __init__(self, config, quant_config=None)", "def __init__(self, config: PapaConfig, quant_config=None)"),
        encoding="utf-8")
    result = _check(root)
    assert result.lines == [
        _arc101(root, "zoo/arg_groups/overrides.py", "RECURRENT_STATE_ARCHS", "NovemberForCausalLM",
                [("recurrent_config", "zoo/configs/hybrid_arch.py", None)]),
        _arc101(root, "zoo/arg_groups/overrides.py", "CONV_STATE_ARCHS", "KiloForCausalLM",
                [("conv_state_config", "zoo/configs/hybrid_arch.py", None)]),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_unnamed_type_predicates_say_nothing(tree):
    # Neither family is named: no family, so no ARC101 and no ARC901 either.
    root = _copy(tree, "unreadable")
    _edit(root / "pyproject.toml", 'families = ["recurrent_config", "conv_state_config"]\n', "")
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# -- both front ends on every fixture -------------------------------------------------------------------

@pytest.mark.parametrize("name", PROJECTS)
def test_flake8_parity(name):
    root = CONFIG_CLASSES / name
    via_archsync = _check(root)
    via_flake8 = flake8(".", cwd=root)
    assert flake8_lines(via_flake8) == via_archsync.lines, (via_archsync, via_flake8)
    assert (via_flake8.returncode == 0) == (via_archsync.returncode == 0), (via_archsync, via_flake8)
