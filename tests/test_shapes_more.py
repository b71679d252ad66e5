"""Issue 3: every way serving code spells an architecture set, registry or family.

One fixture tree per shape family under `fixtures/shapes/`. A shape's resolved set is
proved exactly: either it is mirrored (`[[tool.archsync.mirror]]`) with a plain list that
holds the expected names plus one name the shape lacks (`ZuluForCausalLM`), so the only
possible diagnostic is that one name at the shape; or every name it holds belongs to a
family and ARC101 lists precisely what is missing. Expected lines are built from the
fixture text (`assigned_at`, `defined_at`, `position_of`) and compared with the whole output.
"""
from __future__ import annotations

from conftest import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    SGLANG_BUG,
    SHAPES,
    add_config,
    arc101,
    archsync,
    assigned_at,
    defined_at,
    flake8,
    flake8_lines,
    position_of,
    set_config,
)


def _check(root, *paths):
    return archsync("check", *paths, cwd=root)


def _origin(key):
    """How a message names the configuration entry it comes from (root-relative, like every path)."""
    return f"pyproject.toml: tool.archsync.{key}"


def arc102(shown, line, member, other, other_path, other_line, lacking, key, column=1):
    return (f"{shown}:{line}:{column}: ARC102 '{member}' is in {other} ({other_path}:{other_line}) "
            f"but missing from {lacking}, which must mirror it ({_origin(key)})")


# -- dict tables: literal keys, dict(Name=...), {**A, **B}, NAME.keys() ----------------------------

def test_dict_tables_resolve_to_their_keys():
    root = SHAPES / "dict_tables"
    models, docs = root / "registry/models.py", root / "registry/docs.py"

    def mirror(collection, reference, index):
        return arc102("registry/models.py", assigned_at(models, collection), "ZuluForCausalLM", reference,
                      "registry/docs.py", assigned_at(docs, reference), collection, f"mirror[{index}]")

    dup_line, dup_column = position_of(models, '"AlphaMoeForCausalLM": ("alpha_moe_v2"')
    first_line, _ = position_of(models, '"AlphaMoeForCausalLM": ("alpha_moe",')
    result = _check(root)
    assert result.lines == [
        # {"A": ..., "B": ...}: the keys, with the position of each.
        mirror("_TEXT_GENERATION_MODELS", "TEXT_GENERATION_DOCS", 0),
        f"registry/models.py:{dup_line}:{dup_column}: ARC301 'AlphaMoeForCausalLM' is listed twice in "
        f"_TEXT_GENERATION_MODELS (first at line {first_line})",
        # dict(A=..., B=...): the keyword names.
        mirror("SUPPORTED_ARCHS", "SUPPORTED_DOCS", 1),
        # {**A, **B}: the keys of both.
        mirror("_ALL_MODELS", "ALL_DOCS", 2),
        # NAME.keys()
        mirror("SERVED_ARCHS", "ALL_DOCS", 3),
        # frozenset(dict(NAME, X=...).keys())
        mirror("_PIPELINE_ARCHS", "PIPELINE_DOCS", 4),
    ], result
    assert result.returncode == EXIT_FINDINGS


# -- grown tables: NAME.update({...}) and NAME["X"] = ... --------------------------------------------

def test_dict_grown_by_updates_and_subscript_stores():
    root = SHAPES / "dict_growth"
    docs = root / "engine/docs.py"
    result = _check(root)
    assert result.lines == [
        # `_CUDA_GRAPH_ARCHS["X"] = ...` at module level and inside a function of the same module.
        arc102("engine/graphs.py", assigned_at(root / "engine/graphs.py", "_CUDA_GRAPH_ARCHS"), "ZuluForCausalLM",
               "CUDA_GRAPH_DOCS", "engine/docs.py", assigned_at(docs, "CUDA_GRAPH_DOCS"), "_CUDA_GRAPH_ARCHS",
               "mirror[1]"),
        # `MODULE_MAP = dict()` and seven `MODULE_MAP.update(...)` calls (dict and keyword forms).
        arc102("engine/module_map.py", assigned_at(root / "engine/module_map.py", "MODULE_MAP"), "ZuluForCausalLM",
               "MODULE_MAP_DOCS", "engine/docs.py", assigned_at(docs, "MODULE_MAP_DOCS"), "MODULE_MAP",
               "mirror[0]"),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_a_growth_block_removed_is_missed(tree):
    # The control: each update block counts on its own.
    root = tree("shapes/dict_growth")
    module_map = root / "engine/module_map.py"
    block = ('# charlie\nMODULE_MAP.update(\n    {\n        "CharlieForCausalLM": '
             'f"{_PREFIX}.charlie.CharlieForCausalLM",\n    }\n)\n')
    assert module_map.read_text().count(block) == 1
    module_map.write_text(module_map.read_text().replace(block, ""))
    docs = root / "engine/docs.py"
    line = assigned_at(module_map, "MODULE_MAP")
    result = _check(root, "engine/module_map.py")
    assert result.lines == [
        arc102("engine/module_map.py", line, member, "MODULE_MAP_DOCS", "engine/docs.py",
               assigned_at(docs, "MODULE_MAP_DOCS"), "MODULE_MAP", "mirror[0]")
        for member in ("CharlieForCausalLM", "ZuluForCausalLM")
    ], result


# -- string constants through imports -------------------------------------------------------------

def _constants_expected(root):
    tables = root / "hub/tables.py"
    families = root / "hub/configs/families.py"
    shown = "hub/tables.py"

    def family(name):
        return [(name, "hub/configs/families.py", defined_at(families, name))]

    spec = assigned_at(tables, "SPEC_DECODE_ARCHS")
    lora = assigned_at(tables, "LORA_ARCHS")
    vision = assigned_at(tables, "VISION_ARCHS")
    expert = assigned_at(tables, "EXPERT_PARALLEL_ARCHS")
    return [
        # (names.ECHO, names.ECHO_VL) after `import hub.configs.arch_names as names`
        arc101(shown, spec, "EchoMoeForCausalLM", family("is_echo"), "SPEC_DECODE_ARCHS"),
        # frozenset({arch_names.ECHO, arch_names.ECHO_MOE}) after `from hub.configs import arch_names`
        arc101(shown, lora, "EchoVLForConditionalGeneration", family("is_echo"), "LORA_ARCHS"),
        # [_ECHO_VISION] after `from .configs.arch_names import ECHO_VL as _ECHO_VISION`
        arc101(shown, vision, "EchoForCausalLM", family("is_echo"), "VISION_ARCHS"),
        arc101(shown, vision, "EchoMoeForCausalLM", family("is_echo"), "VISION_ARCHS"),
        # FOXTROT_MOE re-exported by hub/configs/__init__.py and then by hub/__init__.py
        arc101(shown, expert, "EchoVLForConditionalGeneration", family("is_echo"), "EXPERT_PARALLEL_ARCHS"),
        arc101(shown, expert, "FoxtrotForCausalLM", family("is_foxtrot"), "EXPERT_PARALLEL_ARCHS"),
    ]


def test_constants_in_collections_and_families_through_every_import_form():
    # families.py quotes no name at all: its predicates test constants only
    # (`in (arch_names.ECHO, ...)`, `in {FOXTROT, FOXTROT_MOE}`), as the example does.
    root = SHAPES / "constants"
    result = _check(root)
    assert result.lines == _constants_expected(root), result
    assert result.returncode == EXIT_FINDINGS


def test_constants_in_collections_when_the_families_are_named(tree):
    # Naming the families in the configuration makes their module one the index reads
    # whatever its bytes hold; the collections then resolve the same constants.
    root = tree("shapes/constants")
    add_config(root, 'families = ["is_echo", "is_foxtrot"]')
    result = _check(root)
    assert result.lines == _constants_expected(root), result
    assert result.returncode == EXIT_FINDINGS


# -- anonymous collections: function-local sets and inline literals --------------------------------

BACKENDS = "runtime/backends.py"


def _anonymous(root, needle, scope, missing):
    line, column = position_of(root / BACKENDS, needle)
    families = root / "runtime/families.py"
    return [
        arc101(BACKENDS, line, name, [(family, "runtime/families.py", defined_at(families, family))],
               f"{scope}@{line}", column=column)
        for name, family in missing
    ]


def _all_anonymous(root):
    alpha_vl = ("AlphaVLForConditionalGeneration", "is_alpha")
    alpha = ("AlphaForCausalLM", "is_alpha")
    alpha_moe = ("AlphaMoeForCausalLM", "is_alpha")
    return (
        # elif model_arch in ["A", "B"]:
        _anonymous(root, '["AlphaForCausalLM", "AlphaMoeForCausalLM"]', "select_attention_backend", [alpha_vl])
        # return x in {...} and ...
        + _anonymous(root, '{"AlphaMoeForCausalLM"}', "use_fused_moe", [alpha, alpha_vl])
        # "a" if x in (...) else "b"
        + _anonymous(root, '("BravoMoeForCausalLM",)', "moe_kernel", [("BravoForCausalLM", "is_bravo")])
        # assert x in [...], message
        + _anonymous(root, '["AlphaVLForConditionalGeneration"]', "check_vision_tower", [alpha, alpha_moe])
        # a function-local set assigned, then tested (named after the assignment's line)
        + _anonymous(root, '{"BravoForCausalLM", "BravoMoeForCausalLM", "AlphaForCausalLM"}',
                     "GraphRunner.capture_sizes", [alpha_moe, alpha_vl])
    )


def test_anonymous_collections_are_not_guarded_by_default():
    result = _check(SHAPES / "anonymous")
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


def test_every_anonymous_collection_when_guarded(tree):
    root = tree("shapes/anonymous")
    add_config(root, 'guard = ["*@*"]')
    result = _check(root)
    assert result.lines == _all_anonymous(root), result
    assert result.returncode == EXIT_FINDINGS
    assert flake8_lines(flake8(".", cwd=root)) == result.lines


def test_anonymous_collections_of_one_function_when_guarded_by_path_and_function(tree):
    root = tree("shapes/anonymous")
    add_config(root, 'guard = ["runtime/backends.py::check_vision_tower@*", "runtime/*.py::GraphRunner.*@*"]')
    result = _check(root)
    assert result.lines == (
        _anonymous(root, '["AlphaVLForConditionalGeneration"]', "check_vision_tower",
                   [("AlphaForCausalLM", "is_alpha"), ("AlphaMoeForCausalLM", "is_alpha")])
        + _anonymous(root, '{"BravoForCausalLM", "BravoMoeForCausalLM", "AlphaForCausalLM"}',
                     "GraphRunner.capture_sizes",
                     [("AlphaMoeForCausalLM", "is_alpha"), ("AlphaVLForConditionalGeneration", "is_alpha")])
    ), result
    assert result.returncode == EXIT_FINDINGS


def test_a_path_glob_that_names_another_file_guards_nothing(tree):
    root = tree("shapes/anonymous")
    add_config(root, 'guard = ["runtime/families.py::*@*"]')
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# -- decorator argument lists ------------------------------------------------------------------------

def test_decorator_argument_lists_are_collections_named_after_the_function():
    root = SHAPES / "decorator_lists"
    overrides = root / "srv/overrides.py"
    families = root / "srv/families.py"

    def family(name):
        return [(name, "srv/families.py", defined_at(families, name))]

    kilo_line, kilo_column = position_of(overrides, '@_register_for("KiloForConditionalGeneration"')
    ep_line, ep_column = position_of(overrides, '@_register_for("LimaMoeForCausalLM")')
    result = _check(root)
    assert result.lines == [
        arc101("srv/overrides.py", kilo_line, "KiloForCausalLM", family("is_kilo"),
               "@_register_for:_kilo_hybrid_overrides", column=kilo_column),
        arc101("srv/overrides.py", kilo_line, "KiloMoeForCausalLM", family("is_kilo"),
               "@_register_for:_kilo_hybrid_overrides", column=kilo_column),
        # A method under @staticmethod; the multi-line decorator of _lima_overrides holds both names.
        arc101("srv/overrides.py", ep_line, "LimaForCausalLM", family("is_lima"),
               "@_register_for:_lima_moe_ep", column=ep_column),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_decorator_lists_are_not_guarded_by_default(tree):
    root = tree("shapes/decorator_lists")
    set_config(root, "")
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# -- registries ------------------------------------------------------------------------------------

REGISTRIES = SHAPES / "registries"


def _registry_lines(root, registered_lineages):
    """ARC101/ARC201 lines of the registries fixture when only some lineages are registered."""
    families = root / "trt/families.py"
    tables = root / "trt/tables.py"
    spec = assigned_at(tables, "SPEC_DECODE_ARCHS")
    missing = {"mike": ["MikeMoeForCausalLM"], "november": ["NovemberMoeForCausalLM"],
               "oscar": ["OscarMoeForCausalLM", "OscarVLForConditionalGeneration"]}
    lines = []
    for lineage in ("mike", "november", "oscar"):
        if lineage in registered_lineages:
            legacy = f"{lineage.capitalize()}LegacyForCausalLM"
            line, column = position_of(families, f'"{legacy}"')
            lines.append((("trt/families.py", line, column),
                          f"trt/families.py:{line}:{column}: ARC201 '{legacy}' in is_{lineage}() "
                          f"is not a registered architecture"))
            for name in missing[lineage]:
                lines.append((("trt/tables.py", spec, 1), arc101(
                    "trt/tables.py", spec, name,
                    [(f"is_{lineage}", "trt/families.py", defined_at(families, f"is_{lineage}"))],
                    "SPEC_DECODE_ARCHS")))
        else:
            dense = f"{lineage.capitalize()}ForCausalLM"
            line, column = position_of(tables, f'"{dense}"')
            lines.append((("trt/tables.py", line, column),
                          f"trt/tables.py:{line}:{column}: ARC201 '{dense}' in SPEC_DECODE_ARCHS "
                          f"is not a registered architecture"))
    return [text for _, text in sorted(lines, key=lambda item: item[0])]


def test_entry_class_qualified_collection_and_decorator_registries():
    # EntryClass (mike), the keys of trt/models/__init__.py::MODEL_MAP (november), and
    # stacked @register_auto_model("...") plus @register_auto_model(name="...") (oscar).
    # Only registered names are family members; the *Legacy names nothing registers.
    result = _check(REGISTRIES)
    assert result.lines == _registry_lines(REGISTRIES, {"mike", "november", "oscar"}), result
    assert result.returncode == EXIT_FINDINGS


def test_each_registry_form_contributes_its_names(tree):
    for registries, lineages in (
        ('["EntryClass", "trt/models/__init__.py::MODEL_MAP"]', {"mike", "november"}),
        ('["trt/models/__init__.py::MODEL_MAP", "@register_auto_model"]', {"november", "oscar"}),
        ('["EntryClass"]', {"mike"}),
    ):
        root = tree("shapes/registries", into=f"registries-{len(registries)}")
        set_config(root, f"registries = {registries}")
        result = _check(root)
        assert result.lines == _registry_lines(root, lineages), (registries, result)
        assert result.returncode == EXIT_FINDINGS


# -- predicate forms ---------------------------------------------------------------------------------

def test_predicate_loops_intersections_slices_and_patterns():
    root = SHAPES / "predicate_loops"
    families = root / "serve/families.py"
    line = assigned_at(root / "serve/tables.py", "PREFIX_CACHE_ARCHS")
    missing = [
        ("is_papa", "PapaMoeForCausalLM"),  # any(a in S for a in archs)
        ("is_quebec", "QuebecMoeForCausalLM"),  # for a in archs: if a in S: return True; return False
        ("is_romeo", "RomeoMoeForCausalLM"),  # archs[:1] == ["A"] or archs[:1] == ["B"]
        ("is_sierra", "SierraMoeForCausalLM"),  # bool(set(archs) & S)
        ("is_tango", "TangoMoeForCausalLM"),  # "A" in config.architectures or ...
        ("is_uniform", "UniformLiteForCausalLM"),  # arch.startswith("Uniform"): registered names only
        ("is_uniform", "UniformMoeForCausalLM"),
        ("is_victor", "VictorVLForConditionalGeneration"),  # "Victor" in arch
    ]
    result = _check(root)
    assert result.lines == [
        arc101("serve/tables.py", line, name, [(pred, "serve/families.py", defined_at(families, pred))],
               "PREFIX_CACHE_ARCHS")
        for pred, name in missing
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_a_pattern_family_follows_the_registrations(tree):
    root = tree("shapes/predicate_loops")
    uniform = root / "serve/models/uniform.py"
    uniform.write_text(uniform.read_text().replace(
        "EntryClass = [UniformForCausalLM, UniformMoeForCausalLM, UniformLiteForCausalLM]",
        "EntryClass = [UniformForCausalLM, UniformMoeForCausalLM]"))
    families = root / "serve/families.py"
    line = assigned_at(root / "serve/tables.py", "PREFIX_CACHE_ARCHS")
    result = _check(root)
    uniform_lines = [text for text in result.lines if "is_uniform()" in text]
    assert uniform_lines == [
        arc101("serve/tables.py", line, "UniformMoeForCausalLM",
               [("is_uniform", "serve/families.py", defined_at(families, "is_uniform"))], "PREFIX_CACHE_ARCHS"),
    ], result
    assert len(result.lines) == 7, result


# -- model_type strings (LightLLM) -------------------------------------------------------------------

def test_model_type_strings_with_a_configured_name_pattern():
    root = SHAPES / "model_types"
    utils = root / "lightserve/utils/config_utils.py"
    models = root / "lightserve/models/__init__.py"
    inline_line, inline_column = position_of(models, '("deepseek_v3",)')
    result = _check(root)
    assert result.lines == [
        arc101("lightserve/models/__init__.py", assigned_at(models, "_LINEAR_ATTENTION_MODEL_TYPES"), "qwen3_5_text",
               [("is_qwen3_5", "lightserve/utils/config_utils.py", defined_at(utils, "is_qwen3_5"))],
               "_LINEAR_ATTENTION_MODEL_TYPES"),
        arc101("lightserve/models/__init__.py", inline_line, "deepseek_v32",
               [("is_deepseek_v3", "lightserve/utils/config_utils.py", defined_at(utils, "is_deepseek_v3"))],
               f"get_model_class@{inline_line}", column=inline_column),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_model_type_strings_are_no_names_by_default(tree):
    root = tree("shapes/model_types")
    set_config(root, 'guard = ["*_MODEL_TYPES", "lightserve/models/__init__.py::get_model_class@*"]')
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# -- ARC901: partly analysed ---------------------------------------------------------------------------

PARTIAL = SHAPES / "partial"


def _partial_family(name):
    return [(name, "hub/families.py", defined_at(PARTIAL / "hub/families.py", name))]


def _arc901(shown, line, label, reasons, count):
    return (f"{shown}:{line}:1: ARC901 {label} is only partly analysed: {reasons} "
            f"({count} name{' read still takes' if count == 1 else 's read still take'} part)")


def _partial_case(module, collection, missing, reasons, count):
    """ARC101 for each (name, family) in `missing`, then the one ARC901 of `collection`."""
    line = assigned_at(PARTIAL / module, collection)
    return [arc101(module, line, name, _partial_family(family), collection) for name, family in missing] + [
        _arc901(module, line, collection, reasons, count)]


def test_arc901_a_call_result():
    module = "hub/plugins.py"
    line = assigned_at(PARTIAL / module, "PLUGIN_ARCHS")
    result = _check(PARTIAL, module)
    assert result.lines == _partial_case(module, "PLUGIN_ARCHS", [("HotelMoeForCausalLM", "is_hotel")],
                                         f"cannot follow `load_plugin_archs()` ({module}:{line})", 1), result
    assert result.returncode == EXIT_FINDINGS


def test_arc901_a_comprehension():
    module = "hub/quantization.py"
    line = assigned_at(PARTIAL / module, "QUANT_ARCHS")
    result = _check(PARTIAL, module)
    assert result.lines == _partial_case(module, "QUANT_ARCHS", [("IndiaMoeForCausalLM", "is_india")],
                                         f"built by a comprehension ({module}:{line})", 1), result


def test_arc901_add_and_append_inside_functions():
    module = "hub/adapters.py"
    path = PARTIAL / module
    add = position_of(path, "LORA_ARCHS.add(arch)")[0]
    append = position_of(path, "SPEC_DECODE_ARCHS.append(arch)")[0]
    result = _check(PARTIAL, module)
    assert result.lines == (
        _partial_case(module, "LORA_ARCHS", [("HotelMoeForCausalLM", "is_hotel")],
                      f"grown by LORA_ARCHS.add() in enable_lora() ({module}:{add})", 1)
        + _partial_case(module, "SPEC_DECODE_ARCHS", [("IndiaMoeForCausalLM", "is_india")],
                        f"grown by SPEC_DECODE_ARCHS.append() in register_draft_model() ({module}:{append})", 1)
    ), result


def test_arc901_an_environment_variable():
    # `frozenset(os.environ.get("...", "").split(","))`: the cause is the environment variable.
    module = "hub/environment.py"
    env_line = position_of(PARTIAL / module, 'os.environ.get("HUB_EXTRA_CUDA_GRAPH_ARCHS"')[0]
    result = _check(PARTIAL, module)
    assert result.lines == _partial_case(
        module, "CUDA_GRAPH_ARCHS", [("HotelMoeForCausalLM", "is_hotel")],
        f"read from an environment variable by os.environ.get() ({module}:{env_line})", 1), result


def test_arc901_a_star_import_that_does_not_provide_the_name():
    # LEGACY_HOTEL_NAMES comes through the star import and still counts; LEGACY_INDIA_NAMES does not exist.
    module = "hub/prefix_cache.py"
    result = _check(PARTIAL, module)
    assert result.lines == _partial_case(
        module, "PREFIX_CACHE_ARCHS", [("HotelForCausalLM", "is_hotel"), ("IndiaMoeForCausalLM", "is_india")],
        f"`LEGACY_INDIA_NAMES` may come from a star import in {module}", 2), result


def test_arc901_a_name_from_outside_the_project():
    module = "hub/kernels.py"
    result = _check(PARTIAL, module)
    assert result.lines == _partial_case(
        module, "FUSED_ROPE_ARCHS", [("IndiaMoeForCausalLM", "is_india")],
        "`FUSED_ROPE_NAMES` comes from vendor_kernels, outside the project", 1), result


def test_arc901_a_name_bound_by_something_other_than_an_assignment_of_names():
    # `_DENSE_OFFLOAD_NAMES, _MOE_OFFLOAD_NAMES = _split_offload_names()`: nothing to resolve it to.
    module = "hub/offload.py"
    result = _check(PARTIAL, module)
    assert result.lines == _partial_case(
        module, "OFFLOAD_ARCHS", [("IndiaMoeForCausalLM", "is_india")],
        f"cannot resolve `_DENSE_OFFLOAD_NAMES` in {module}", 1), result


def test_arc901_a_family_that_depends_on_a_call():
    module = "hub/families.py"
    path = PARTIAL / module
    line = defined_at(path, "is_india")
    call_line = position_of(path, "tuple(_india_aliases())")[0]
    result = _check(PARTIAL, module)
    assert result.lines == [
        _arc901(module, line, "is_india()", f"cannot follow `tuple(_india_aliases())` ({module}:{call_line})", 2),
    ], result


def test_arc901_exactly_once_per_subject_and_flake8_agrees():
    result = archsync("check", "--format", "json", cwd=PARTIAL)
    subjects = [d["subject"] for d in result.json["diagnostics"] if d["code"] == "ARC901"]
    assert sorted(subjects) == sorted([
        "CUDA_GRAPH_ARCHS", "FUSED_ROPE_ARCHS", "LORA_ARCHS", "OFFLOAD_ARCHS", "PLUGIN_ARCHS",
        "PREFIX_CACHE_ARCHS", "QUANT_ARCHS", "SPEC_DECODE_ARCHS", "is_india",
    ]), result
    assert all(d["member"] is None for d in result.json["diagnostics"] if d["code"] == "ARC901"), result
    text = _check(PARTIAL)
    assert flake8_lines(flake8(".", cwd=PARTIAL)) == text.lines


# -- the seed case is unchanged -----------------------------------------------------------------------

def test_sglang_seed_fixture_still_gives_exactly_its_four_diagnostics():
    overrides = SGLANG_BUG / "sglang/srt/arg_groups/overrides.py"
    family = [("is_qwen3_5", "sglang/srt/configs/model_config.py",
               defined_at(SGLANG_BUG / "sglang/srt/configs/model_config.py", "is_qwen3_5"))]
    expected = [
        arc101("sglang/srt/arg_groups/overrides.py", assigned_at(overrides, collection), name, family, collection)
        for collection in ("_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS")
        for name in ("Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM")
    ]
    result = _check(SGLANG_BUG)
    assert result.lines == expected, result
    assert result.returncode == EXIT_FINDINGS
