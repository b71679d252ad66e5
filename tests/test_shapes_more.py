"""Issue 3: every way serving code spells an architecture set, registry or family.

One fixture tree per shape family under `fixtures/shapes/`, each a case whose default output
is its `expected.txt` (tests/test_cases.py), with a comment on every shape. A shape's resolved
set is proved exactly: either it is mirrored (`[[tool.archsync.mirror]]`) with a plain list that
holds the expected names plus one name the shape lacks (`ZuluForCausalLM`), so the only possible
diagnostic is that one name at the shape; or every name it holds belongs to a family and ARC101
lists precisely what is missing. The tests here change a fixture or check one module of it, and
compare the whole output with the lines written out below.
"""
from __future__ import annotations

from conftest import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    SHAPES,
    add_config,
    archsync,
    check_places_both,
    flake8,
    flake8_lines,
    places,
    set_config,
)


def _check(root, *paths):
    return archsync("check", *paths, cwd=root)


# -- grown tables: NAME.update({...}) and NAME["X"] = ... --------------------------------------------

def test_a_growth_block_removed_is_missed(tree):
    # The control: each update block counts on its own.
    root = tree("shapes/dict_growth")
    module_map = root / "engine/module_map.py"
    block = ('# charlie\nMODULE_MAP.update(\n    {\n        "CharlieForCausalLM": '
             'f"{_PREFIX}.charlie.CharlieForCausalLM",\n    }\n)\n')
    assert module_map.read_text().count(block) == 1
    module_map.write_text(module_map.read_text().replace(block, ""))
    result = _check(root, "engine/module_map.py")
    assert result.lines == [
        "engine/module_map.py:10:1: ARC102 'CharlieForCausalLM' is in MODULE_MAP_DOCS (engine/docs.py:3) "
        "but missing from MODULE_MAP, which must mirror it (pyproject.toml: tool.archsync.mirror[0]); the same for "
        "'ZuluForCausalLM' there",
    ], result


# -- string constants through imports -------------------------------------------------------------

def test_constants_in_collections_when_the_families_are_named(tree):
    # Naming the families in the configuration makes their module one the index reads
    # whatever its bytes hold; the collections then resolve the same constants, and the
    # output is that of the case (fixtures/shapes/constants/expected.txt).
    root = tree("shapes/constants")
    add_config(root, 'families = ["is_echo", "is_foxtrot"]')
    result = _check(root)
    assert result.returncode == EXIT_FINDINGS
    assert places(cwd=root) == [
        # (names.ECHO, names.ECHO_VL) after `import hub.configs.arch_names as names`
        "hub/tables.py:9:1: ARC101 'EchoMoeForCausalLM' is matched by is_echo() (hub/configs/families.py:12) "
        "but missing from SPEC_DECODE_ARCHS",
        # frozenset({arch_names.ECHO, arch_names.ECHO_MOE}) after `from hub.configs import arch_names`
        "hub/tables.py:12:1: ARC101 'EchoVLForConditionalGeneration' is matched by is_echo() "
        "(hub/configs/families.py:12) but missing from LORA_ARCHS",
        # [_ECHO_VISION] after `from .configs.arch_names import ECHO_VL as _ECHO_VISION`
        "hub/tables.py:15:1: ARC101 'EchoForCausalLM' is matched by is_echo() (hub/configs/families.py:12) "
        "but missing from VISION_ARCHS",
        "hub/tables.py:15:1: ARC101 'EchoMoeForCausalLM' is matched by is_echo() (hub/configs/families.py:12) "
        "but missing from VISION_ARCHS",
        # FOXTROT_MOE re-exported by hub/configs/__init__.py and then by hub/__init__.py (text models only:
        # EchoVLForConditionalGeneration is not wanted there)
        "hub/tables.py:18:1: ARC101 'FoxtrotForCausalLM' is matched by is_foxtrot() (hub/configs/families.py:16) "
        "but missing from EXPERT_PARALLEL_ARCHS",
    ], result


# -- subjects found by shape: function-local sets and inline literals -------------------------------
# Checked when they hold a registered name (fixtures/shapes/anonymous/expected.txt); `guard` names them
# all: `function#n` for the n-th literal a function tests, `function.variable` for a local one.

def test_every_subject_of_a_function_when_guarded(tree):
    root = tree("shapes/anonymous")
    add_config(root, 'guard = ["*#*", "*.*"]')
    check_places_both(root, [
        # if model_arch == "A": one name, declared by the guard
        "runtime/backends.py:10:8: ARC101 'BravoMoeForCausalLM' is matched by is_bravo() (runtime/families.py:17) "
        "but missing from select_attention_backend#1",
        # elif model_arch in ["A", "B"]: every name of one lineage, so the whole lineage is wanted
        "runtime/backends.py:12:24: ARC101 'AlphaVLForConditionalGeneration' is matched by is_alpha() "
        "(runtime/families.py:9) but missing from select_attention_backend#2",
        # return x in {...} and ...
        "runtime/backends.py:18:26: ARC101 'AlphaForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from use_fused_moe#1",
        "runtime/backends.py:18:26: ARC101 'AlphaVLForConditionalGeneration' is matched by is_alpha() "
        "(runtime/families.py:9) but missing from use_fused_moe#1",
        # "a" if x in (...) else "b"
        "runtime/backends.py:22:44: ARC101 'BravoForCausalLM' is matched by is_bravo() (runtime/families.py:17) "
        "but missing from moe_kernel#1",
        # assert x in [...], message
        "runtime/backends.py:27:30: ARC101 'AlphaForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from check_vision_tower#1",
        "runtime/backends.py:27:30: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from check_vision_tower#1",
        # a function-local set assigned, then tested (named after its variable, at its literal); it holds
        # text models only, so not AlphaVLForConditionalGeneration
        "runtime/backends.py:32:30: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from GraphRunner.capture_sizes._SMALL_GRAPH_ARCHS",
    ])


def test_the_subjects_of_one_function_when_guarded_by_path_and_function(tree):
    root = tree("shapes/anonymous")
    add_config(root, 'guard = ["runtime/backends.py::check_vision_tower#*", "runtime/*.py::GraphRunner.*"]')
    result = _check(root)
    assert places(cwd=root) == [
        "runtime/backends.py:27:30: ARC101 'AlphaForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from check_vision_tower#1",
        "runtime/backends.py:27:30: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from check_vision_tower#1",
        "runtime/backends.py:32:30: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (runtime/families.py:9) "
        "but missing from GraphRunner.capture_sizes._SMALL_GRAPH_ARCHS",
    ]
    assert result.returncode == EXIT_FINDINGS


def test_a_path_glob_that_names_another_file_guards_nothing(tree):
    root = tree("shapes/anonymous")
    add_config(root, 'guard = ["runtime/families.py::*#*"]')
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# -- decorator argument lists ------------------------------------------------------------------------
# Guarded by the fixture's configuration (fixtures/shapes/decorator_lists/expected.txt).

def test_decorator_lists_are_not_guarded_by_default(tree):
    root = tree("shapes/decorator_lists")
    set_config(root, "")
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# -- registries ------------------------------------------------------------------------------------
# All three registry forms together: fixtures/shapes/registries/expected.txt.

def test_each_registry_form_contributes_its_names_and_can_be_left_out(tree):
    # Each form is found by its shape, configured or not: EntryClass (mike), a dict of model classes
    # (november), stacked @register_auto_model decorators (oscar). `registries = ["!NAME"]` leaves one
    # out, and its lineage is then no family: its dense name in SPEC_DECODE_ARCHS is ARC201 instead.
    without_model_map = [
        "trt/tables.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (trt/families.py:9) "
        "but missing from SPEC_DECODE_ARCHS",
        "trt/tables.py:3:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (trt/families.py:17) "
        "but missing from SPEC_DECODE_ARCHS",
        "trt/tables.py:3:51: ARC201 'NovemberForCausalLM' in SPEC_DECODE_ARCHS is not a registered architecture",
    ]
    for registries, expected in (
        ('["EntryClass", "!MODEL_MAP"]', without_model_map),
        ('["EntryClass", "!trt/models/__init__.py::*"]', without_model_map),  # by path: no collection is named
        ('["!EntryClass"]', [
            "trt/tables.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (trt/families.py:13) "
            "but missing from SPEC_DECODE_ARCHS",
            "trt/tables.py:3:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (trt/families.py:17) "
            "but missing from SPEC_DECODE_ARCHS",
            # registries add to EntryClass; "!EntryClass" drops its registrations, as "!@..." below does
            "trt/tables.py:3:32: ARC201 'MikeForCausalLM' in SPEC_DECODE_ARCHS is not a registered architecture "
            "(its class is defined beside a registration that leaves it out)",
        ]),
        ('["EntryClass", "!@register_auto_model"]', [
            "trt/tables.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (trt/families.py:9) "
            "but missing from SPEC_DECODE_ARCHS",
            "trt/tables.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (trt/families.py:13) "
            "but missing from SPEC_DECODE_ARCHS",
            # the class stays defined beside the registration the configuration set aside
            "trt/tables.py:3:74: ARC201 'OscarForCausalLM' in SPEC_DECODE_ARCHS is not a registered architecture "
            "(its class is defined beside a registration that leaves it out)",
        ]),
        ('["EntryClass"]', [  # the other two found by their shape
            "trt/tables.py:3:1: ARC101 'MikeMoeForCausalLM' is matched by is_mike() (trt/families.py:9) "
            "but missing from SPEC_DECODE_ARCHS",
            "trt/tables.py:3:1: ARC101 'NovemberMoeForCausalLM' is matched by is_november() (trt/families.py:13) "
            "but missing from SPEC_DECODE_ARCHS",
            "trt/tables.py:3:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (trt/families.py:17) "
            "but missing from SPEC_DECODE_ARCHS",
        ]),
    ):
        root = tree("shapes/registries", into=f"registries-{len(registries)}")
        set_config(root, f"registries = {registries}")
        result = _check(root)
        assert result.lines == expected, (registries, result)
        assert result.returncode == EXIT_FINDINGS


# -- predicate forms ---------------------------------------------------------------------------------
# Every form, with UniformLiteForCausalLM registered: fixtures/shapes/predicate_loops/expected.txt.

def test_a_pattern_family_follows_the_registrations(tree):
    root = tree("shapes/predicate_loops")
    uniform = root / "serve/models/uniform.py"
    uniform.write_text(uniform.read_text().replace(
        "EntryClass = [UniformForCausalLM, UniformMoeForCausalLM, UniformLiteForCausalLM]",
        "EntryClass = [UniformForCausalLM, UniformMoeForCausalLM]"))
    result = _check(root)
    uniform_lines = [text for text in result.lines if "is_uniform()" in text]
    assert uniform_lines == [
        "serve/tables.py:3:1: ARC101 'UniformMoeForCausalLM' is matched by is_uniform() (serve/families.py:44) "
        "but missing from PREFIX_CACHE_ARCHS",
    ], result
    assert len(result.lines) == 6, result


# -- model_type strings (LightLLM) -------------------------------------------------------------------
# With the fixture's name-pattern: fixtures/shapes/model_types/expected.txt.

def test_model_type_strings_are_no_names_by_default(tree):
    root = tree("shapes/model_types")
    set_config(root, 'guard = ["*_MODEL_TYPES", "lightserve/models/__init__.py::get_model_class#*"]')
    result = _check(root)
    # the dispatch's tests are lists of model types (`model_type in (...)`), read as the architectures they
    # name; nothing here registers one, so no list holds a name to complete, and nothing is reported
    assert (result.returncode, result.stdout, result.err_lines) == (
        EXIT_CLEAN, "", ["archsync: no problems (4 files, 1 analysed)"]), result


def test_fix_writes_a_list_of_model_types_in_its_own_scheme(tree):
    root = tree("shapes/model_type_lists")
    result = archsync("fix", "--diff", "--no-cache", cwd=root)
    assert [line for line in result.stdout.splitlines() if line.startswith(("-", "+"))] == [
        "--- a/serve/attention.py",
        "+++ b/serve/attention.py",
        '-    return hf_config.model_type in ("deepseek_v2", "glm4_moe")',
        '+    return hf_config.model_type in ("deepseek_v2", "deepseek_v3", "glm4_moe")',
        "--- a/serve/models/deepseek_v2.py",
        "+++ b/serve/models/deepseek_v2.py",
        '-        if config.model_type in ("deepseek_v2", "glm4_moe"):',
        '+        if config.model_type in ("deepseek_v2", "deepseek_v3", "glm4_moe"):',
    ]
    assert result.err_lines == ["archsync: would fix 2 problems in 2 files; 0 remaining"]


def test_why_weighs_a_model_type_as_the_architectures_it_names(tree):
    root = tree("shapes/model_type_lists")
    result = archsync("why", "--no-cache", "uses_mla#1", "deepseek_v3", cwd=root)
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "'deepseek_v3' is a model type: it names DeepseekV3ForCausalLM",
        "uses_mla#1 at serve/attention.py:2:36 holds 2 registered names (DeepseekV2ForCausalLM, Glm4MoeForCausalLM)",
        "read: through uses_mla(), named elsewhere in the project; looked up with a model type (`config.model_type`): "
        "its model types stand for the architectures they name, and what it lacks is written as a model type",
    ], result
    # no list here holds three registered names: the project's lists have nothing to count
    assert "in the project's own lists, no name is tied so (subclass:0.85, variant:0.30), each member left out " \
           "in turn: nothing to count" in lines, result
    assert lines[-1].startswith("reported: serve/attention.py:2:36: ARC105 'deepseek_v3' (the model type of "
                                "DeepseekV3ForCausalLM) may belong in uses_mla#1"), result


# -- ARC901: partly analysed, one module at a time ---------------------------------------------------
# The whole project: fixtures/shapes/partial/expected.txt.

PARTIAL = SHAPES / "partial"


def test_arc901_a_call_result():
    result = _check(PARTIAL, "hub/plugins.py")
    assert result.lines == [
        "hub/plugins.py:10:1: ARC101 'HotelMoeForCausalLM' is matched by is_hotel() (hub/families.py:13) "
        "but missing from PLUGIN_ARCHS",
        "hub/plugins.py:10:1: ARC901 PLUGIN_ARCHS is only partly analysed: cannot follow `load_plugin_archs()` "
        "(hub/plugins.py:10) (1 name read still takes part)",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_arc901_a_comprehension():
    result = _check(PARTIAL, "hub/quantization.py")
    assert result.lines == [
        "hub/quantization.py:5:1: ARC101 'IndiaMoeForCausalLM' is matched by is_india() (hub/families.py:17) "
        "but missing from QUANT_ARCHS",
        "hub/quantization.py:5:1: ARC901 QUANT_ARCHS is only partly analysed: built by a comprehension "
        "(hub/quantization.py:5) (1 name read still takes part)",
    ], result


def test_arc901_add_and_append_inside_functions():
    result = _check(PARTIAL, "hub/adapters.py")
    assert result.lines == [
        "hub/adapters.py:3:1: ARC101 'HotelMoeForCausalLM' is matched by is_hotel() (hub/families.py:13) "
        "but missing from LORA_ARCHS",
        "hub/adapters.py:3:1: ARC901 LORA_ARCHS is only partly analysed: grown by LORA_ARCHS.add() "
        "in enable_lora() (hub/adapters.py:8) (1 name read still takes part)",
        "hub/adapters.py:4:1: ARC101 'IndiaMoeForCausalLM' is matched by is_india() (hub/families.py:17) "
        "but missing from SPEC_DECODE_ARCHS",
        "hub/adapters.py:4:1: ARC901 SPEC_DECODE_ARCHS is only partly analysed: grown by SPEC_DECODE_ARCHS.append() "
        "in register_draft_model() (hub/adapters.py:12) (1 name read still takes part)",
    ], result


def test_arc901_an_environment_variable():
    # `frozenset(os.environ.get("...", "").split(","))`: the cause is the environment variable; and so it is
    # for `if extra_arch := envs.HUB_EXTRA_OFFLOAD_ARCH.get(): HOST_OFFLOAD_ARCHS.append(extra_arch)`
    assert places("hub/environment.py", cwd=PARTIAL) == [
        "hub/environment.py:4:1: ARC101 'HotelMoeForCausalLM' is matched by is_hotel() (hub/families.py:13) "
        "but missing from CUDA_GRAPH_ARCHS",
        "hub/environment.py:4:1: ARC901 CUDA_GRAPH_ARCHS is only partly analysed: read from an environment "
        "variable by os.environ.get() (hub/environment.py:5) (1 name read still takes part)",
        "hub/environment.py:10:1: ARC101 'HotelMoeForCausalLM' is matched by is_hotel() (hub/families.py:13) "
        "but missing from HOST_OFFLOAD_ARCHS",
        "hub/environment.py:10:1: ARC901 HOST_OFFLOAD_ARCHS is only partly analysed: read from an environment "
        "variable by envs.HUB_EXTRA_OFFLOAD_ARCH.get() (hub/environment.py:13) (1 name read still takes part)",
    ]


def test_arc901_a_star_import_that_does_not_provide_the_name():
    # LEGACY_HOTEL_NAMES comes through the star import and still counts; LEGACY_INDIA_NAMES does not exist.
    result = _check(PARTIAL, "hub/prefix_cache.py")
    assert result.lines == [
        "hub/prefix_cache.py:4:1: ARC101 'HotelForCausalLM' is matched by is_hotel() (hub/families.py:13) "
        "but missing from PREFIX_CACHE_ARCHS",
        "hub/prefix_cache.py:4:1: ARC101 'IndiaMoeForCausalLM' is matched by is_india() (hub/families.py:17) "
        "but missing from PREFIX_CACHE_ARCHS",
        "hub/prefix_cache.py:4:1: ARC901 PREFIX_CACHE_ARCHS is only partly analysed: `LEGACY_INDIA_NAMES` "
        "may come from a star import in hub/prefix_cache.py (2 names read still take part)",
    ], result


def test_arc901_a_name_from_outside_the_project():
    result = _check(PARTIAL, "hub/kernels.py")
    assert result.lines == [
        "hub/kernels.py:4:1: ARC101 'IndiaMoeForCausalLM' is matched by is_india() (hub/families.py:17) "
        "but missing from FUSED_ROPE_ARCHS",
        "hub/kernels.py:4:1: ARC901 FUSED_ROPE_ARCHS is only partly analysed: `FUSED_ROPE_NAMES` comes from "
        "vendor_kernels, outside the project (1 name read still takes part)",
    ], result


def test_arc901_a_name_bound_by_something_other_than_an_assignment_of_names():
    # `_DENSE_OFFLOAD_NAMES, _MOE_OFFLOAD_NAMES = _split_offload_names()`: nothing to resolve it to.
    result = _check(PARTIAL, "hub/offload.py")
    assert result.lines == [
        "hub/offload.py:11:1: ARC101 'IndiaMoeForCausalLM' is matched by is_india() (hub/families.py:17) "
        "but missing from OFFLOAD_ARCHS",
        "hub/offload.py:11:1: ARC901 OFFLOAD_ARCHS is only partly analysed: cannot resolve `_DENSE_OFFLOAD_NAMES` "
        "in hub/offload.py (1 name read still takes part)",
    ], result


def test_arc901_a_family_that_depends_on_a_call():
    result = _check(PARTIAL, "hub/families.py")
    assert result.lines == [
        "hub/families.py:17:1: ARC901 is_india() is only partly analysed: cannot follow `tuple(_india_aliases())` "
        "(hub/families.py:18) (2 names read still take part)",
    ], result


def test_arc901_exactly_once_per_subject_and_flake8_agrees():
    result = archsync("check", "--format", "json", cwd=PARTIAL)
    subjects = [d["subject"] for d in result.json["diagnostics"] if d["code"] == "ARC901"]
    assert sorted(subjects) == sorted([
        "CUDA_GRAPH_ARCHS", "FUSED_ROPE_ARCHS", "HOST_OFFLOAD_ARCHS", "LORA_ARCHS", "OFFLOAD_ARCHS",
        "PLUGIN_ARCHS", "PREFIX_CACHE_ARCHS", "QUANT_ARCHS", "SPEC_DECODE_ARCHS", "is_india",
    ]), result
    assert all(d["member"] is None for d in result.json["diagnostics"] if d["code"] == "ARC901"), result
    text = _check(PARTIAL)
    assert flake8_lines(flake8(".", cwd=PARTIAL)) == text.lines


# The lists of fixtures/shapes/iterated/expected.txt: searched for, and intersected.
def test_fix_completes_a_list_searched_for_and_a_set_intersected(tree):
    root = tree("shapes/iterated")
    result = archsync("fix", "--diff", "--no-cache", cwd=root)
    assert [line for line in result.stdout.splitlines() if line.startswith(("-", "+"))] == [
        "--- a/engine/kv_cache.py",
        "+++ b/engine/kv_cache.py",
        '-    hybrid_archs = ["AlphaForCausalLM", "BravoForCausalLM"]',
        '+    hybrid_archs = ["AlphaForCausalLM", "AlphaMoeForCausalLM", "BravoForCausalLM"]',
        '-    if set(config.architectures) & {"AlphaForCausalLM", "BravoForCausalLM"}:',
        '+    if set(config.architectures) & {"AlphaForCausalLM", "AlphaMoeForCausalLM", "BravoForCausalLM"}:',
    ]
    assert result.err_lines == ["archsync: would fix 1 problem in 1 file; 0 remaining"]  # one cause, two lists
