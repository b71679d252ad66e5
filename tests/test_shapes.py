"""Collections, predicates and registrations written in the shapes real projects use.

Each fixture under `fixtures/shapes/` is a project of its own; the expected lines are
built from the fixture's text (`assigned_at`, `defined_at`) and compared with the whole output.
"""
from __future__ import annotations

from conftest import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    SHAPES,
    add_config,
    arc101,
    archsync,
    assigned_at,
    defined_at,
    only,
)


def _check(root):
    return archsync("check", cwd=root)


# -- imports ------------------------------------------------------------------------------------

def test_collections_and_predicates_through_imports():
    root = SHAPES / "imports"
    allow = root / "zoo/runtime/allow.py"
    shown = "zoo/runtime/allow.py"
    preds = root / "zoo/configs/predicates.py"
    pred_path = "zoo/configs/predicates.py"

    def family(name):
        return [(name, pred_path, defined_at(preds, name))]

    spec = assigned_at(allow, "SPEC_DECODE_ARCHS")
    lora = assigned_at(allow, "LORA_ARCHS")
    quant = assigned_at(allow, "QUANT_ARCHS")
    result = _check(root)
    assert result.lines == [
        # `from ..configs.names import TEXT_ONLY as _TEXT`, then frozenset(_TEXT); the
        # families read `from ... import X as Y`, `from . import names as n` + `n.X`,
        # `import pkg.mod as m` + `m.X` and `import pkg.mod` + `pkg.mod.X`.
        arc101(shown, spec, "Gemma2ForCausalLM", family("is_gemma"), "SPEC_DECODE_ARCHS"),
        arc101(shown, spec, "LlamaMoeForCausalLM", family("is_llama"), "SPEC_DECODE_ARCHS"),
        arc101(shown, spec, "MistralSmallForCausalLM", family("is_mistral"), "SPEC_DECODE_ARCHS"),
        arc101(shown, spec, "Phi3ForCausalLM", family("is_phi"), "SPEC_DECODE_ARCHS"),
        # `import zoo.configs.names as cfg`, then set(cfg.LLAMA_BASE)
        arc101(shown, lora, "LlamaMoeForCausalLM", family("is_llama"), "LORA_ARCHS"),
        # `from zoo.configs import LLAMA_BASE`, re-exported by the package __init__
        arc101(shown, quant, "LlamaMoeForCausalLM", family("is_llama"), "QUANT_ARCHS"),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_predicates_in_a_module_that_quotes_no_name_are_families_too():
    # predicates.py holds is_sierra (`in SIERRA_NAMES`, imported) and is_tango
    # (delegating to two imported predicates); no architecture name is quoted there.
    root = SHAPES / "imported_family"
    tables = root / "lineages/tables.py"
    preds = root / "lineages/predicates.py"
    shown = "lineages/tables.py"
    result = _check(root)
    assert result.lines == [
        arc101(shown, assigned_at(tables, "SIERRA_ONLY_DENSE_ARCHS"), "SierraMoeForCausalLM",
               [("is_sierra", "lineages/predicates.py", defined_at(preds, "is_sierra"))],
               "SIERRA_ONLY_DENSE_ARCHS"),
        arc101(shown, assigned_at(tables, "TANGO_ONLY_SMALL_ARCHS"), "TangoLargeForCausalLM",
               [("is_tango", "lineages/predicates.py", defined_at(preds, "is_tango"))],
               "TANGO_ONLY_SMALL_ARCHS"),
    ], result
    assert result.returncode == EXIT_FINDINGS


# -- composition ----------------------------------------------------------------------------------

ALPHA = ("AlphaForCausalLM", "AlphaMoeForCausalLM", "AlphaVLForConditionalGeneration",
         "AlphaMoeVLForConditionalGeneration")


def test_composed_collections_are_followed():
    root = SHAPES / "composition"
    features = root / "engine/features.py"
    family = [("is_alpha", "engine/families.py", defined_at(root / "engine/families.py", "is_alpha"))]
    held = {
        "OR_ARCHS": {"AlphaForCausalLM", "AlphaVLForConditionalGeneration"},
        "PLUS_ARCHS": {"AlphaMoeForCausalLM", "AlphaMoeVLForConditionalGeneration"},
        "UNION_ARCHS": {"AlphaForCausalLM", "AlphaMoeForCausalLM", "AlphaVLForConditionalGeneration"},
        "SET_ARCHS": {"AlphaMoeForCausalLM"},
        "TUPLE_ARCHS": {"AlphaForCausalLM", "AlphaMoeForCausalLM", "AlphaVLForConditionalGeneration"},
        "LIST_ARCHS": {"AlphaMoeVLForConditionalGeneration"},
        "ANNOTATED_ARCHS": {"AlphaVLForConditionalGeneration", "AlphaMoeVLForConditionalGeneration"},
        "BUILTIN_GENERIC_ARCHS": {"AlphaMoeForCausalLM", "AlphaMoeVLForConditionalGeneration"},
        "STARRED_ARCHS": {"AlphaForCausalLM", "AlphaMoeForCausalLM"},
    }
    expected = []
    for collection, names in held.items():
        line = assigned_at(features, collection)
        for missing in sorted(set(ALPHA) - names):
            expected.append((line, arc101("engine/features.py", line, missing, family, collection)))
    expected = [text for _, text in sorted(expected)]
    result = _check(root)
    assert result.lines == expected, result
    assert len(expected) == 18
    assert not any("EVERYTHING_ARCHS" in line for line in result.lines)
    assert result.returncode == EXIT_FINDINGS


# -- predicates -----------------------------------------------------------------------------------

def test_predicate_forms():
    root = SHAPES / "predicates"
    arch = root / "serving/arch.py"
    line = assigned_at(root / "serving/tables.py", "CHUNKED_PREFILL_ARCHS")
    missing = {
        "is_bravo": "BravoMoeForCausalLM",  # `==` or-chain
        "is_charlie": "CharlieMoeForCausalLM",  # hasattr(...) and ... is not None and ... in S
        "is_delta": "DeltaVLForConditionalGeneration",  # function-local set
        "is_echo": "EchoMoeForCausalLM",  # getattr(...)[0] in (literal)
        "is_foxtrot": "FoxtrotMoeForCausalLM",  # "A" == x or "B" == x
    }
    result = _check(root)
    assert result.lines == [
        arc101("serving/tables.py", line, name, [(pred, "serving/arch.py", defined_at(arch, pred))],
               "CHUNKED_PREFILL_ARCHS")
        for pred, name in missing.items()
    ], result
    assert result.returncode == EXIT_FINDINGS


# -- delegation and overlapping families ----------------------------------------------------------

def test_delegation_and_names_implied_by_several_families():
    root = SHAPES / "delegation"
    fam = root / "hub/families.py"
    tables = root / "hub/tables.py"
    shown = "hub/tables.py"

    def f(name):
        return (name, "hub/families.py", defined_at(fam, name))

    prefix = assigned_at(tables, "PREFIX_CACHE_ARCHS")
    eagle = assigned_at(tables, "EAGLE_ARCHS")
    fp8 = assigned_at(tables, "FP8_KV_ARCHS")
    result = _check(root)
    assert result.lines == [
        # Only is_golf (made of is_golf_small or is_golf_large) implies GolfLarge here.
        arc101(shown, prefix, "GolfLargeForCausalLM", [f("is_golf")], "PREFIX_CACHE_ARCHS"),
        # is_golf implies it too, but never repeats what its part is_golf_small reports.
        arc101(shown, prefix, "GolfSmallMoeForCausalLM", [f("is_golf_small")], "PREFIX_CACHE_ARCHS"),
        arc101(shown, eagle, "GolfLargeForCausalLM", [f("is_golf")], "EAGLE_ARCHS"),
        # One line naming both families.
        arc101(shown, fp8, "HotelMoeForCausalLM", [f("is_hotel"), f("is_hotel_moe")], "FP8_KV_ARCHS"),
    ], result
    assert result.returncode == EXIT_FINDINGS


# -- capability predicates ---------------------------------------------------------------------------

def test_capability_predicate_is_silent_by_default():
    result = _check(SHAPES / "capability")
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


def test_capability_predicate_fires_when_configured_as_a_family(tree):
    for families in ('["is_multimodal_model"]', '["is_multimodal_*"]'):
        root = tree("shapes/capability", into=f"capability{len(families)}")
        add_config(root, f"families = {families}")
        result = _check(root)
        assert result.lines == [
            arc101("mm/encoder.py", assigned_at(root / "mm/encoder.py", "ENCODER_DISAGG_ARCHS"),
                   "KiloOmniForConditionalGeneration",
                   [("is_multimodal_model", "mm/model_config.py",
                     defined_at(root / "mm/model_config.py", "is_multimodal_model"))],
                   "ENCODER_DISAGG_ARCHS"),
        ], (families, result)
        assert result.returncode == EXIT_FINDINGS


# -- registrations ---------------------------------------------------------------------------------

def test_registrations_limit_families_to_registered_names():
    root = SHAPES / "registrations"
    arch = root / "hub/arch.py"
    line = assigned_at(root / "hub/tables.py", "SPEC_ARCHS")

    def f(name):
        return [(name, "hub/arch.py", defined_at(arch, name))]

    result = _check(root)
    # PapaLegacyForCausalLM is listed by is_papa but registered nowhere: it is no family
    # member, so GRAPH_ARCHS is complete. (Other rules may still point at it.)
    assert only("ARC101", result.lines) == [
        arc101("hub/tables.py", line, "PapaMoeForCausalLM", f("is_papa"), "SPEC_ARCHS"),  # EntryClass = [A, B]
        arc101("hub/tables.py", line, "QuebecForCausalLM", f("is_quebec"), "SPEC_ARCHS"),  # EntryClass = A
        arc101("hub/tables.py", line, "RomeoForCausalLM", f("is_romeo"), "SPEC_ARCHS"),  # aliased imports
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_without_registrations_families_use_every_listed_name():
    root = SHAPES / "no_registrations"
    arch = root / "hub/arch.py"
    tables = root / "hub/tables.py"

    def f(name):
        return [(name, "hub/arch.py", defined_at(arch, name))]

    graph = assigned_at(tables, "GRAPH_ARCHS")
    spec = assigned_at(tables, "SPEC_ARCHS")
    result = _check(root)
    assert result.lines == [
        arc101("hub/tables.py", graph, "PapaLegacyForCausalLM", f("is_papa"), "GRAPH_ARCHS"),
        arc101("hub/tables.py", spec, "PapaLegacyForCausalLM", f("is_papa"), "SPEC_ARCHS"),
        arc101("hub/tables.py", spec, "PapaMoeForCausalLM", f("is_papa"), "SPEC_ARCHS"),
        arc101("hub/tables.py", spec, "QuebecForCausalLM", f("is_quebec"), "SPEC_ARCHS"),
        arc101("hub/tables.py", spec, "RomeoForCausalLM", f("is_romeo"), "SPEC_ARCHS"),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_removing_one_registration_shrinks_its_family(tree):
    root = tree("shapes/registrations")
    (root / "hub/models/quebec.py").unlink()
    result = _check(root)
    arch = root / "hub/arch.py"
    line = assigned_at(root / "hub/tables.py", "SPEC_ARCHS")
    # QuebecForCausalLM is no longer registered: is_quebec is just QuebecMoe, which SPEC_ARCHS holds.
    assert only("ARC101", result.lines) == [
        arc101("hub/tables.py", line, "PapaMoeForCausalLM", [("is_papa", "hub/arch.py", defined_at(arch, "is_papa"))],
               "SPEC_ARCHS"),
        arc101("hub/tables.py", line, "RomeoForCausalLM", [("is_romeo", "hub/arch.py", defined_at(arch, "is_romeo"))],
               "SPEC_ARCHS"),
    ], result


# -- guard globs ----------------------------------------------------------------------------------

def _guard_line(root, collection, missing):
    return arc101("lists/whitelists.py", assigned_at(root / "lists/whitelists.py", collection), missing,
                  [("is_lima", "lists/families.py", defined_at(root / "lists/families.py", "is_lima"))],
                  collection)


def test_default_guard_is_case_sensitive_star_archs_at_module_level():
    root = SHAPES / "guard"
    result = _check(root)
    assert result.lines == [_guard_line(root, "OFFLOAD_ARCHS", "LimaMoeForCausalLM")], result
    assert result.returncode == EXIT_FINDINGS


def test_custom_guard_globs_replace_the_default(tree):
    root = tree("shapes/guard")
    add_config(root, 'guard = ["*_ALLOWLIST", "*_archs"]')
    result = _check(root)
    assert result.lines == [
        _guard_line(root, "_offload_archs", "LimaMoeForCausalLM"),
        _guard_line(root, "OFFLOAD_ALLOWLIST", "LimaForCausalLM"),
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_guard_everything_still_means_module_level_only(tree):
    root = tree("shapes/guard")
    add_config(root, 'guard = ["*"]')
    result = _check(root)
    assert result.lines == [
        _guard_line(root, "OFFLOAD_ARCHS", "LimaMoeForCausalLM"),
        _guard_line(root, "_offload_archs", "LimaMoeForCausalLM"),
        _guard_line(root, "OFFLOAD_ALLOWLIST", "LimaForCausalLM"),
    ], result
    assert not any("LOCAL_ARCHS" in line for line in result.lines)


def test_guard_that_matches_nothing_is_clean(tree):
    root = tree("shapes/guard")
    add_config(root, 'guard = ["*_DENYLIST"]')
    result = _check(root)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN
