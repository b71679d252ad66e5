"""Collections, predicates and registrations written in the shapes real projects use.

Each fixture under `fixtures/shapes/` is a project of its own, and a case: its default output
is its `expected.txt` (tests/test_cases.py). The tests here change a fixture (its configuration,
its files) and compare the whole output with the lines written out below.
"""
from __future__ import annotations

from conftest import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    add_config,
    archsync,
    only,
    places,
)


def _check(root):
    return archsync("check", cwd=root)


# -- capability predicates ---------------------------------------------------------------------------

def test_capability_predicate_fires_when_configured_as_a_family(tree):
    # By default is_multimodal_model() is no family (fixtures/shapes/capability/expected.txt is empty).
    for families in ('["is_multimodal_model"]', '["is_multimodal_*"]'):
        root = tree("shapes/capability", into=f"capability{len(families)}")
        add_config(root, f"families = {families}")
        result = _check(root)
        assert result.lines == [
            "mm/encoder.py:4:1: ARC101 'KiloOmniForConditionalGeneration' is matched by is_multimodal_model() "
            "(mm/model_config.py:11) but missing from ENCODER_DISAGG_ARCHS",
        ], (families, result)
        assert result.returncode == EXIT_FINDINGS


# -- registrations ---------------------------------------------------------------------------------

def test_removing_one_registration_shrinks_its_family(tree):
    root = tree("shapes/registrations")
    (root / "hub/models/quebec.py").unlink()
    result = _check(root)
    # QuebecForCausalLM is no longer registered: is_quebec is just QuebecMoe, which SPEC_ARCHS holds.
    # (Other rules may still point at it.)
    assert only("ARC101", result.lines) == [
        "hub/tables.py:7:1: ARC101 'PapaMoeForCausalLM' is matched by is_papa() (hub/arch.py:4) "
        "but missing from SPEC_ARCHS",
        "hub/tables.py:7:1: ARC101 'RomeoForCausalLM' is matched by is_romeo() (hub/arch.py:13) "
        "but missing from SPEC_ARCHS",
    ], result


# -- guard globs ----------------------------------------------------------------------------------
# By default only OFFLOAD_ARCHS is guarded (fixtures/shapes/guard/expected.txt).

def test_custom_guard_globs_replace_the_default(tree):
    root = tree("shapes/guard")
    add_config(root, 'guard = ["*_ALLOWLIST", "*_archs"]')
    result = _check(root)
    assert places(cwd=root) == [
        "lists/whitelists.py:7:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from _offload_archs",
        "lists/whitelists.py:10:1: ARC101 'LimaForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ALLOWLIST",
    ], result
    assert result.returncode == EXIT_FINDINGS


def test_guard_everything_still_means_module_level_only(tree):
    root = tree("shapes/guard")
    add_config(root, 'guard = ["*"]')
    result = _check(root)
    assert places(cwd=root) == [
        "lists/whitelists.py:4:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ARCHS",
        "lists/whitelists.py:7:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from _offload_archs",
        "lists/whitelists.py:10:1: ARC101 'LimaForCausalLM' is matched by is_lima() (lists/families.py:4) "
        "but missing from OFFLOAD_ALLOWLIST",
    ], result
    assert not any("LOCAL_ARCHS" in line for line in result.lines)


def test_guard_that_matches_nothing_is_an_error(tree):
    """Nothing would be checked: a likely typo is never a green run (tests/test_unmatched_settings.py)."""
    root = tree("shapes/guard")
    add_config(root, 'guard = ["*_DENYLIST"]')
    result = _check(root)
    assert (result.returncode, result.stdout, result.err_lines) == (EXIT_ERROR, "", [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.guard: '*_DENYLIST' matches no "
        f"collection in the project"]), result
