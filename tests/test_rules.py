"""Issue 4: the rules users declare and trust, each made to fire and to stay silent.

Every fixture under `fixtures/rules/` is a small project of its own, and a case: its
`expected.txt` holds what `archsync check` prints for it unmodified (`test_cases.py`). The
tests here change a copy of one (its configuration, a line of its source) and assert the
exact output through `archsync check` and through `flake8 --select=ARC` (`check_both`):
flake8 prints the same lines except those that belong to pyproject.toml (ARC202), which
only archsync prints.
"""
from __future__ import annotations

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    RULE_FIXTURES,
    add_config,
    archsync,
    check_both,
    flake8,
    set_config,
    write,
)


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (old, path)
    path.write_text(text.replace(old, new), encoding="utf-8")


# == ARC102 mirror drift ==========================================================================
# The unmodified fixture is the case fixtures/rules/mirror.

def test_mirror_scoped_to_the_names_of_given_families(tree):
    # is_hybrid_model lists MikeForCausalLM but not NovemberForCausalLM.
    root = tree("rules/mirror")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n'
                     'families = ["is_hybrid_model"]')
    check_both(root, [
        "cache/strategies.py:15:1: ARC102 'MikeForCausalLM' is in RADIX_CACHE_ARCHS (cache/strategies.py:4) "
        "but missing from EXTRA_BUFFER_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ])


def test_mirror_of_two_lists_of_one_name_says_which_lacks_the_name(tmp_path):
    """Two modules' `MODEL_TYPES` (a registry keyed by model type, and a command line's copy of it), mirrored: the
    message tells the one here from the other, and a model type the registry registers is written once, as itself
    (neuronx-distributed-inference's shape)."""
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nregistries = ["pkg/constants.py::MODEL_TYPES"]\n'
                                       '[[tool.archsync.mirror]]\n'
                                       'collections = ["pkg/constants.py::MODEL_TYPES", "pkg/demo.py::MODEL_TYPES"]\n')
    write(tmp_path / "pkg/constants.py", 'from .models import KestrelForCausalLM, WrenForCausalLM\n\n'
                                         'MODEL_TYPES = {\n    "kestrel": {"causal-lm": KestrelForCausalLM},\n'
                                         '    "wren": {"causal-lm": WrenForCausalLM},\n}\n')
    write(tmp_path / "pkg/demo.py", 'from .models import KestrelForCausalLM\n\n'
                                    'MODEL_TYPES = {\n    "kestrel": {"causal-lm": KestrelForCausalLM},\n}\n\n\n'
                                    'def model_class(args):\n    return MODEL_TYPES[args.model_type]["causal-lm"]\n')
    check_both(tmp_path, [
        "pkg/demo.py:3:1: ARC102 'wren' is in MODEL_TYPES (pkg/constants.py:3) but missing from MODEL_TYPES here, "
        "which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ])


def test_mirror_scoped_to_families_that_agree_is_silent(tree):
    root = tree("rules/mirror")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n'
                     'families = ["is_kilo", "is_lima"]')
    check_both(root, [])


def test_mirror_scoped_to_a_family_that_does_not_exist_is_a_configuration_error(tree):
    # A misspelt family would make the mirror compare nothing, silently.
    root = tree("rules/mirror")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n'
                     'families = ["is_hybird_model"]')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.mirror[0].families: "
        f"no predicate named 'is_hybird_model' in the project",
    ], result


def test_without_a_mirror_declared_nothing_is_reported(tree):
    root = tree("rules/mirror")
    set_config(root, "")
    check_both(root, [])


def test_mirror_that_agrees_is_silent(tree):
    root = tree("rules/mirror")
    strategies = root / "cache/strategies.py"
    # EXTRA_BUFFER_ARCHS gains MikeForCausalLM, RADIX_CACHE_ARCHS gains NovemberForCausalLM.
    _replace(strategies, '        "NovemberForCausalLM",\n',
             '        "NovemberForCausalLM",\n        "MikeForCausalLM",\n')
    _replace(strategies, '        "MikeForCausalLM",\n    }\n)\n\n# Hybrid models that can keep',
             '        "MikeForCausalLM",\n        "NovemberForCausalLM",\n    }\n)\n\n# Hybrid models that can keep')
    check_both(root, [])


def test_mirror_of_three_collections(tree):
    root = tree("rules/mirror")
    write(root / "cache/offload.py",
          '"""Hybrid models whose state may be offloaded to host memory."""\n\n'
          'OFFLOAD_ARCHS = frozenset(\n    {"KiloForCausalLM", "KiloMoeForCausalLM", "LimaForCausalLM", '
          '"LimaMoeForCausalLM"}\n)\n')
    set_config(root, '[[tool.archsync.mirror]]\n'
                     'collections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS", "OFFLOAD_ARCHS"]')
    check_both(root, [
        "cache/offload.py:3:1: ARC102 'MikeForCausalLM' is in RADIX_CACHE_ARCHS (cache/strategies.py:4) "
        "but missing from OFFLOAD_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "cache/offload.py:3:1: ARC102 'NovemberForCausalLM' is in EXTRA_BUFFER_ARCHS (cache/strategies.py:15) "
        "but missing from OFFLOAD_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "cache/strategies.py:4:1: ARC102 'NovemberForCausalLM' is in EXTRA_BUFFER_ARCHS (cache/strategies.py:15) "
        "but missing from RADIX_CACHE_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "cache/strategies.py:15:1: ARC102 'MikeForCausalLM' is in RADIX_CACHE_ARCHS (cache/strategies.py:4) "
        "but missing from EXTRA_BUFFER_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ])


def test_mirror_naming_a_collection_that_does_not_exist_is_a_configuration_error(tree):
    root = tree("rules/mirror")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFER_ARCHS"]')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.mirror[0].collections: "
        f"no collection named 'EXTRA_BUFER_ARCHS' in the project",
    ], result


# == one diagnostic per (subject, member) ===========================================================

def test_arc101_and_arc102_on_the_same_pair_print_once(tree):
    # EXTRA_BUFFER_ARCHS loses LimaMoeForCausalLM: ARC101 (is_lima) and ARC102 (the mirror) both
    # apply to (EXTRA_BUFFER_ARCHS, LimaMoeForCausalLM); only ARC101 is printed.
    root = tree("rules/mirror")
    _replace(root / "cache/strategies.py", '        "LimaMoeForCausalLM",\n        "NovemberForCausalLM",\n',
             '        "NovemberForCausalLM",\n')
    check_both(root, [
        "cache/strategies.py:4:1: ARC102 'NovemberForCausalLM' is in EXTRA_BUFFER_ARCHS (cache/strategies.py:15) "
        "but missing from RADIX_CACHE_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "cache/strategies.py:15:1: ARC101 'LimaMoeForCausalLM' is matched by is_lima() (cache/families.py:13) "
        "but missing from EXTRA_BUFFER_ARCHS",
        "cache/strategies.py:15:1: ARC102 'MikeForCausalLM' is in RADIX_CACHE_ARCHS (cache/strategies.py:4) "
        "but missing from EXTRA_BUFFER_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ])


# == ARC103 subset broken ===========================================================================
# The unmodified fixture is the case fixtures/rules/subset.

def test_subset_that_holds_is_silent(tree):
    root = tree("rules/subset")
    _replace(root / "cache/strategies.py", '"LimaForCausalLM"})\n\nEXTRA',
             '"LimaForCausalLM", "MikeForCausalLM"})\n\nEXTRA')
    set_config(root, '[[tool.archsync.subset]]\nof = "EXTRA_BUFFER_ARCHS"\nin = "RADIX_CACHE_ARCHS"\n\n'
                     '[[tool.archsync.subset]]\nof = "RADIX_CACHE_ARCHS"\nin = "registered"')
    check_both(root, [])


@pytest.mark.parametrize("key, value", [("of", "EXTRA_BUFER_ARCHS"), ("in", "Registered")])
def test_subset_naming_a_collection_that_does_not_exist_is_a_configuration_error(tree, key, value):
    root = tree("rules/subset")
    sides = {"of": "EXTRA_BUFFER_ARCHS", "in": "RADIX_CACHE_ARCHS", key: value}
    set_config(root, f'[[tool.archsync.subset]]\nof = "{sides["of"]}"\nin = "{sides["in"]}"')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.subset[0].{key}: "
        f"no collection named '{value}' in the project",
    ], result


def test_a_collection_named_by_a_contract_is_checked_like_a_guarded_one(tree):
    # With no ARC103 about it, an unregistered name in DOCUMENTED_MODELS is an ARC201: a typo with its
    # did-you-mean, and one of no registered lineage without; LimaMoeForCausalLM, beside the registered
    # LimaForCausalLM, is taken for an alias.
    root = tree("rules/subset")
    _replace(root / "cache/docs.py", '"MikeForCausalLM"', '"MikeForCasualLM", "NovemberForCausalLM"')
    set_config(root, '[[tool.archsync.subset]]\nof = "RADIX_CACHE_ARCHS"\nin = "DOCUMENTED_MODELS"')
    check_both(root, [
        "cache/docs.py:8:5: ARC201 'MikeForCasualLM' in DOCUMENTED_MODELS is not a registered architecture; "
        "did you mean 'MikeForCausalLM'?",
        "cache/docs.py:8:24: ARC201 'NovemberForCausalLM' in DOCUMENTED_MODELS is not a registered architecture",
    ])


# == ARC104 sibling variant missing ===================================================================
# The unmodified fixture is the case fixtures/rules/sibling. ARC101 speaks about SierraForCausalLM
# in PIPELINE_PARALLEL_ARCHS; ARC104 about the same pair stays quiet.

def test_empty_siblings_turn_the_rule_off(tree):
    root = tree("rules/sibling")
    add_config(root, "siblings = []")
    check_both(root, [
        "mm/tables.py:10:1: ARC101 'SierraForCausalLM' is matched by is_sierra() (mm/families.py:23) "
        "but missing from PIPELINE_PARALLEL_ARCHS",
    ])


def test_custom_sibling_pair_replaces_the_default(tree):
    # TWO_BATCH_OVERLAP_ARCHS holds TangoForCausalLM and a multimodal model: a pair only with this entry.
    root = tree("rules/sibling")
    add_config(root, 'siblings = [["VLForConditionalGeneration", "ForCausalLM"]]')
    check_both(root, [
        "mm/tables.py:10:1: ARC101 'SierraForCausalLM' is matched by is_sierra() (mm/families.py:23) "
        "but missing from PIPELINE_PARALLEL_ARCHS",
        "mm/tables.py:13:1: ARC104 'TangoVLForConditionalGeneration' is missing from TWO_BATCH_OVERLAP_ARCHS, "
        "which holds its sibling 'TangoForCausalLM' "
        "('TangoVLForConditionalGeneration' is registered at mm/models/tango.py:12)",
    ])


def test_custom_sibling_pair_next_to_the_default(tree):
    root = tree("rules/sibling")
    add_config(root, 'siblings = [["ForConditionalGeneration", "ForCausalLM"], '
                     '["VLForConditionalGeneration", "ForCausalLM"]]')
    check_both(root, [
        "mm/families.py:9:1: ARC104 'RomeoV1ForCausalLM' is missing from is_romeo_v1(), "
        "which holds its sibling 'RomeoV1ForConditionalGeneration' "
        "('RomeoV1ForCausalLM' is registered at mm/models/romeo.py:20)",
        "mm/tables.py:4:1: ARC104 'PapaForCausalLM' is missing from ENCODER_DISAGG_ARCHS, "
        "which holds its sibling 'PapaForConditionalGeneration' "
        "('PapaForCausalLM' is registered at mm/models/papa.py:12)",
        "mm/tables.py:7:1: ARC104 'QuebecForConditionalGeneration' is missing from CHUNKED_PREFILL_ARCHS, "
        "which holds its sibling 'QuebecForCausalLM' "
        "('QuebecForConditionalGeneration' is registered at mm/models/quebec.py:12)",
        "mm/tables.py:10:1: ARC101 'SierraForCausalLM' is matched by is_sierra() (mm/families.py:23) "
        "but missing from PIPELINE_PARALLEL_ARCHS",
        "mm/tables.py:13:1: ARC104 'TangoVLForConditionalGeneration' is missing from TWO_BATCH_OVERLAP_ARCHS, "
        "which holds its sibling 'TangoForCausalLM' "
        "('TangoVLForConditionalGeneration' is registered at mm/models/tango.py:12)",
    ])


def test_sibling_rule_is_silent_once_the_siblings_are_added(tree):
    root = tree("rules/sibling")
    tables = root / "mm/tables.py"
    _replace(tables, '{"PapaForConditionalGeneration", "XrayForCausalLM"}',
             '{"PapaForConditionalGeneration", "PapaForCausalLM", "XrayForCausalLM"}')
    _replace(tables, '{"QuebecForCausalLM", "YankeeVision',
             '{"QuebecForCausalLM", "QuebecForConditionalGeneration", "YankeeVision')
    _replace(tables, '{"SierraForConditionalGeneration"}', '{"SierraForConditionalGeneration", "SierraForCausalLM"}')
    _replace(root / "mm/families.py", '("RomeoV1ForConditionalGeneration",)',
             '("RomeoV1ForConditionalGeneration", "RomeoV1ForCausalLM")')
    check_both(root, [])


def test_noqa_arc104_on_the_reported_line(tree):
    root = tree("rules/sibling")
    tables = root / "mm/tables.py"
    _replace(tables, '"XrayForCausalLM"})', '"XrayForCausalLM"})  # noqa: ARC104')
    _replace(tables, '"YankeeVisionForConditionalGeneration"})\n\n# Sierra',
             '"YankeeVisionForConditionalGeneration"})  # noqa: ARC101\n\n# Sierra')
    _replace(root / "mm/families.py", "def is_romeo_v1(config: Any) -> bool:",
             "def is_romeo_v1(config: Any) -> bool:  # noqa: ARC104")
    # A noqa for another code suppresses nothing.
    check_both(root, [
        "mm/tables.py:7:1: ARC104 'QuebecForConditionalGeneration' is missing from CHUNKED_PREFILL_ARCHS, "
        "which holds its sibling 'QuebecForCausalLM' "
        "('QuebecForConditionalGeneration' is registered at mm/models/quebec.py:12)",
        "mm/tables.py:10:1: ARC101 'SierraForCausalLM' is matched by is_sierra() (mm/families.py:23) "
        "but missing from PIPELINE_PARALLEL_ARCHS",
    ])


# == exemptions =======================================================================================

def test_exemption_with_subject_and_member_globs_and_codes(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "*_ARCHS"\nmembers = ["Papa*", "Quebec*"]\n'
                     'codes = ["ARC104"]\nreason = "one-sided lists: multimodal-only and text-only paths"')
    check_both(root, [
        "mm/families.py:9:1: ARC104 'RomeoV1ForCausalLM' is missing from is_romeo_v1(), "
        "which holds its sibling 'RomeoV1ForConditionalGeneration' "
        "('RomeoV1ForCausalLM' is registered at mm/models/romeo.py:20)",
        "mm/tables.py:10:1: ARC101 'SierraForCausalLM' is matched by is_sierra() (mm/families.py:23) "
        "but missing from PIPELINE_PARALLEL_ARCHS",
    ])


def test_exemption_without_codes_covers_every_code_and_a_family_subject(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "is_romeo_v*"\nmembers = ["RomeoV1ForCausalLM"]\n'
                     'reason = "the text-only v1 checkpoint never shipped weights"\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "PIPELINE_PARALLEL_ARCHS"\nmembers = ["Sierra*"]\n'
                     'reason = "pipeline parallelism only validated for the multimodal checkpoint"')
    check_both(root, [
        "mm/tables.py:4:1: ARC104 'PapaForCausalLM' is missing from ENCODER_DISAGG_ARCHS, "
        "which holds its sibling 'PapaForConditionalGeneration' "
        "('PapaForCausalLM' is registered at mm/models/papa.py:12)",
        "mm/tables.py:7:1: ARC104 'QuebecForConditionalGeneration' is missing from CHUNKED_PREFILL_ARCHS, "
        "which holds its sibling 'QuebecForCausalLM' "
        "('QuebecForConditionalGeneration' is registered at mm/models/quebec.py:12)",
    ])


def test_exemption_for_another_code_suppresses_nothing_and_is_stale(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "ENCODER_DISAGG_ARCHS"\nmembers = ["PapaForCausalLM"]\n'
                     'codes = ["ARC101"]\nreason = "encoder disaggregation is for multimodal checkpoints"')
    # pyproject.toml is now [project] (lines 1-3), a blank line, [tool.archsync] and, on line 6, the exemption.
    check_both(root, [
        "mm/families.py:9:1: ARC104 'RomeoV1ForCausalLM' is missing from is_romeo_v1(), "
        "which holds its sibling 'RomeoV1ForConditionalGeneration' "
        "('RomeoV1ForCausalLM' is registered at mm/models/romeo.py:20)",
        "mm/tables.py:4:1: ARC104 'PapaForCausalLM' is missing from ENCODER_DISAGG_ARCHS, "
        "which holds its sibling 'PapaForConditionalGeneration' "
        "('PapaForCausalLM' is registered at mm/models/papa.py:12)",
        "mm/tables.py:7:1: ARC104 'QuebecForConditionalGeneration' is missing from CHUNKED_PREFILL_ARCHS, "
        "which holds its sibling 'QuebecForCausalLM' "
        "('QuebecForConditionalGeneration' is registered at mm/models/quebec.py:12)",
        "mm/tables.py:10:1: ARC101 'SierraForCausalLM' is matched by is_sierra() (mm/families.py:23) "
        "but missing from PIPELINE_PARALLEL_ARCHS",
        "pyproject.toml:6:1: ARC202 exemption for 'PapaForCausalLM' in ENCODER_DISAGG_ARCHS no longer "
        "suppresses anything (pyproject.toml: tool.archsync.exempt[0]); remove it",
    ])


@pytest.mark.parametrize("reason", [None, '""', '"   "'])
def test_exemption_without_a_reason_is_a_configuration_error(tree, reason):
    root = tree("rules/sibling")
    body = '[[tool.archsync.exempt]]\nsubject = "ENCODER_DISAGG_ARCHS"\nmembers = ["PapaForCausalLM"]'
    if reason is not None:
        body += f"\nreason = {reason}"
    add_config(root, body)
    message = (f"{(root / 'pyproject.toml').resolve()}: tool.archsync.exempt[0].reason: "
               f"every exemption needs a reason (a non-empty string)")
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [f"archsync: error: {message}"], result
    via_flake8 = flake8(".", cwd=root)
    assert len(via_flake8.lines) == 1, via_flake8
    # Once per run, on the first file flake8 checks: which one that is varies with its parallel jobs.
    where, said = via_flake8.lines[0].split(":1:1: ", 1)
    assert where.startswith("./mm/") and where.endswith(".py"), via_flake8
    assert said == f"ARC900 archsync configuration error: {message}", via_flake8


def test_exemption_with_an_unknown_key_is_a_configuration_error(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "ENCODER_DISAGG_ARCHS"\nmember = ["PapaForCausalLM"]\n'
                     'reason = "typo in the key"')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.exempt[0].member: "
        f"unknown key (known keys: codes, members, reason, subject)",
    ], result


# == ARC202 stale exemption =============================================================================
# The unmodified fixture is the case fixtures/rules/stale.

STALE = RULE_FIXTURES / "stale"


def test_flake8_prints_nothing_at_all_for_the_stale_exemptions():
    # Its only diagnostics belong to pyproject.toml, which only `archsync check` reports.
    via_flake8 = flake8(".", cwd=STALE)
    assert via_flake8.stdout == "", via_flake8
    assert via_flake8.returncode == 0, via_flake8


def test_no_stale_exemption_once_removed(tree):
    root = tree("rules/stale")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "EXTRA_BUFFER_ARCHS"\nmembers = ["MikeForCausalLM"]\n'
                     'codes = ["ARC102"]\nreason = "radix-only: no extra-buffer kernel yet"')
    check_both(root, [])


def test_without_its_exemption_the_difference_is_reported(tree):
    root = tree("rules/stale")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]')
    check_both(root, [
        "cache/strategies.py:12:1: ARC102 'MikeForCausalLM' is in RADIX_CACHE_ARCHS (cache/strategies.py:3) "
        "but missing from EXTRA_BUFFER_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
    ])


def test_stale_exemption_points_at_its_table_header_after_blank_lines(tree):
    # pyproject.toml files usually separate tables with blank lines.
    root = tree("rules/stale")
    set_config(root, '\n[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "EXTRA_BUFFER_ARCHS"\nmembers = ["MikeForCausalLM"]\n'
                     'codes = ["ARC102"]\nreason = "radix-only: no extra-buffer kernel yet"\n\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "OFFLOAD_ARCHS"\nmembers = ["Kilo*"]\n'
                     'reason = "CPU offload was never validated for Kilo"')
    # The second exemption's header is line 17, after two blank lines.
    assert (root / "pyproject.toml").read_text().splitlines()[14:17] == ["", "", "[[tool.archsync.exempt]]"]
    check_both(root, [
        "pyproject.toml:17:1: ARC202 exemption for 'Kilo*' in OFFLOAD_ARCHS no longer suppresses anything "
        "(pyproject.toml: tool.archsync.exempt[1]); remove it",
    ])


def test_stale_exemption_is_not_printed_for_a_subdirectory():
    result = archsync("check", "cache", cwd=STALE)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# == ARC201 unknown architecture ==========================================================================
# The unmodified fixture is the case fixtures/rules/unknown.

def test_unknown_is_silent_when_nothing_is_registered(tree):
    root = tree("rules/unknown")
    for module in ("qwen3_next", "kimi_linear"):
        (root / f"srt/models/{module}.py").unlink()
    # With nothing registered every listed name is a family member, so the preview name is now
    # simply a member _MAMBA_POOL_ARCHS lacks.
    check_both(root, [
        "srt/hybrid.py:3:1: ARC101 'KimiLinearMoonshotPreviewForCausalLM' is matched by is_kimi_linear() "
        "(srt/configs/model_config.py:9) but missing from _MAMBA_POOL_ARCHS",
    ])


def test_correcting_the_typo_silences_it(tree):
    root = tree("rules/unknown")
    _replace(root / "srt/hybrid.py", '"Qwen3NextForCasualLM"', '"Qwen3NextForCausalLM"')
    check_both(root, [
        "srt/hybrid.py:7:9: ARC201 'Zeta9000ForCausalLM' in _MAMBA_POOL_ARCHS is not a registered architecture",
    ])


def test_noqa_arc201_on_the_member_line(tree):
    root = tree("rules/unknown")
    _replace(root / "srt/hybrid.py", '        "Zeta9000ForCausalLM",\n',
             '        "Zeta9000ForCausalLM",  # noqa: ARC201\n')
    check_both(root, [
        "srt/hybrid.py:6:9: ARC201 'Qwen3NextForCasualLM' in _MAMBA_POOL_ARCHS is not a registered architecture; "
        "did you mean 'Qwen3NextForCausalLM'?",
    ])


# == ARC301 duplicate member =================================================================================
# The unmodified fixture is the case fixtures/rules/duplicate.

def test_duplicates_removed_is_silent(tree):
    root = tree("rules/duplicate")
    families = root / "svc/families.py"
    _replace(families, '        "OscarMoeForCausalLM",\n        "OscarForCausalLM",\n',
             '        "OscarMoeForCausalLM",\n')
    _replace(root / "svc/tables.py", '        "PapaForCausalLM",\n        "OscarMoeForCausalLM",\n',
             '        "PapaForCausalLM",\n')
    check_both(root, [])


def test_noqa_arc301_on_the_duplicate_line(tree):
    root = tree("rules/duplicate")
    _replace(root / "svc/tables.py", '        "PapaForCausalLM",\n        "OscarMoeForCausalLM",\n',
             '        "PapaForCausalLM",\n        "OscarMoeForCausalLM",  # noqa: ARC301\n')
    check_both(root, [
        "svc/families.py:13:9: ARC301 'OscarForCausalLM' is listed twice in is_oscar() (first at line 11)",
    ])


# == explain and rules ==========================================================================================

CODES = [
    ("ARC101", "family-member-missing", "a guarded collection holds part of a family but not all of it"),
    ("ARC102", "mirror-drift", "collections declared as mirrors do not hold the same names"),
    ("ARC103", "subset-broken", "a name of one collection is missing from a collection that must contain it"),
    ("ARC104", "sibling-variant-missing",
     "a collection or family holds one variant of a registered pair but not the other"),
    ("ARC105", "kin-missing", "a subject holds an architecture but not another that runs the same code"),
    ("ARC106", "host-copy-behind", "a plugin's copy of a list of its host's lacks names the host's list holds"),
    ("ARC107", "new-name-missing", "a change registers an architecture and leaves out a list that takes it"),
    ("ARC201", "unknown-architecture",
     "a guarded collection or a family names an architecture nothing registers"),
    ("ARC202", "stale-exemption", "an exemption no longer suppresses anything"),
    ("ARC203", "class-key-never-found", "a table looked up with a class name holds a key no class is named"),
    ("ARC301", "duplicate-member", "the same name is written twice in one literal"),
    ("ARC900", "configuration-error", "the configuration is invalid (flake8 only; the CLI exits 2)"),
    ("ARC901", "partly-analysed", "a guarded collection or family depends on something archsync cannot follow"),
    ("ARC902", "file-not-analysed", "a file that may hold architecture names could not be analysed"),
]


def test_explain_arc101(tmp_path):
    result = archsync("explain", "ARC101", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout.split("\n\n")[:2] == [
        "# ARC101 family-member-missing", "A guarded collection holds part of a family but not all of it."], result
    for part in ("## What it reports", "## Why it matters", "## Examples", "## How to fix it", "## Settings",
                 "## Exempting a finding"):
        assert f"\n\n{part}\n\n" in result.stdout, (part, result)


def test_explain_an_unknown_code(tmp_path):
    result = archsync("explain", "ARC999", cwd=tmp_path)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == ["archsync: error: unknown rule 'ARC999'; `archsync rules` lists them"], result


def test_rules_lists_every_code(tmp_path):
    result = archsync("rules", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert [tuple(line.split()[:2]) for line in result.lines] == [(code, name) for code, name, _ in CODES], result


@pytest.mark.parametrize("code, name, summary", CODES)
def test_every_listed_code_is_explained(tmp_path, code, name, summary):
    listed = {line.split()[0]: line for line in archsync("rules", cwd=tmp_path).lines}
    assert listed[code].split(None, 2)[2] == summary, listed[code]
    result = archsync("explain", code, cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout.split("\n\n")[:2] == [f"# {code} {name}", f"{summary[0].upper()}{summary[1:]}."], result
    assert "\n\n## What it reports\n\n" in result.stdout and "\n\n## How to fix it\n\n" in result.stdout, result
