"""Issue 4: the rules users declare and trust, each made to fire and to stay silent.

Every fixture under `fixtures/rules/` is a small project of its own. Each rule is asserted
through `archsync check` and through `flake8 --select=ARC` (`check_both`): flake8 prints the
same lines except those that belong to pyproject.toml (ARC202), which only archsync prints.
"""
from __future__ import annotations

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    REPO,
    RULE_FIXTURES,
    add_config,
    arc101,
    archsync,
    assigned_at,
    check_both,
    defined_at,
    flake8,
    line_of,
    position_of,
    set_config,
    write,
)


def _origin(key):
    """How a message names the configuration entry it comes from (root-relative, like every path)."""
    return f"pyproject.toml: tool.archsync.{key}"


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (old, path)
    path.write_text(text.replace(old, new), encoding="utf-8")


# == ARC102 mirror drift ==========================================================================

MIRROR = RULE_FIXTURES / "mirror"
STRATEGIES = "cache/strategies.py"


def _mirror_line(root, lacking, member, other, key="mirror[0]", module=STRATEGIES, other_module=STRATEGIES):
    return (f"{module}:{assigned_at(root / module, lacking)}:1: ARC102 '{member}' is in {other} "
            f"({other_module}:{assigned_at(root / other_module, other)}) but missing from {lacking}, "
            f"which must mirror it ({_origin(key)})")


def test_mirror_reports_each_name_at_the_collection_that_lacks_it():
    check_both(MIRROR, [
        _mirror_line(MIRROR, "RADIX_CACHE_ARCHS", "NovemberForCausalLM", "EXTRA_BUFFER_ARCHS"),
        _mirror_line(MIRROR, "EXTRA_BUFFER_ARCHS", "MikeForCausalLM", "RADIX_CACHE_ARCHS"),
    ])


def test_mirror_scoped_to_the_names_of_given_families(tree):
    # is_hybrid_model lists MikeForCausalLM but not NovemberForCausalLM.
    root = tree("rules/mirror")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n'
                     'families = ["is_hybrid_model"]')
    check_both(root, [_mirror_line(root, "EXTRA_BUFFER_ARCHS", "MikeForCausalLM", "RADIX_CACHE_ARCHS")])


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
    assert "tool.archsync.mirror[0].families" in result.stderr, result
    assert "is_hybird_model" in result.stderr and str((root / "pyproject.toml").resolve()) in result.stderr, result


def test_without_a_mirror_declared_nothing_is_reported(tree):
    root = tree("rules/mirror")
    set_config(root, "")
    check_both(root, [])


def test_mirror_that_agrees_is_silent(tree):
    root = tree("rules/mirror")
    strategies = root / STRATEGIES
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
        _mirror_line(root, "OFFLOAD_ARCHS", "MikeForCausalLM", "RADIX_CACHE_ARCHS", module="cache/offload.py"),
        _mirror_line(root, "OFFLOAD_ARCHS", "NovemberForCausalLM", "EXTRA_BUFFER_ARCHS", module="cache/offload.py"),
        _mirror_line(root, "RADIX_CACHE_ARCHS", "NovemberForCausalLM", "EXTRA_BUFFER_ARCHS"),
        _mirror_line(root, "EXTRA_BUFFER_ARCHS", "MikeForCausalLM", "RADIX_CACHE_ARCHS"),
    ])


def test_mirror_naming_a_collection_that_does_not_exist_is_a_configuration_error(tree):
    root = tree("rules/mirror")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFER_ARCHS"]')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result
    assert "EXTRA_BUFER_ARCHS" in errors[0] and str((root / "pyproject.toml").resolve()) in errors[0], result
    assert "tool.archsync.mirror[0].collections" in errors[0], result


# == one diagnostic per (subject, member) ===========================================================

def test_arc101_and_arc102_on_the_same_pair_print_once(tree):
    # EXTRA_BUFFER_ARCHS loses LimaMoeForCausalLM: ARC101 (is_lima) and ARC102 (the mirror) both
    # apply to (EXTRA_BUFFER_ARCHS, LimaMoeForCausalLM); only ARC101 is printed.
    root = tree("rules/mirror")
    strategies = root / STRATEGIES
    text = strategies.read_text()
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.strip() == '"LimaMoeForCausalLM",']
    assert len(hits) == 2
    del lines[hits[1]]
    strategies.write_text("".join(lines))
    extra = assigned_at(strategies, "EXTRA_BUFFER_ARCHS")
    check_both(root, [
        _mirror_line(root, "RADIX_CACHE_ARCHS", "NovemberForCausalLM", "EXTRA_BUFFER_ARCHS"),
        arc101(STRATEGIES, extra, "LimaMoeForCausalLM",
               [("is_lima", "cache/families.py", defined_at(root / "cache/families.py", "is_lima"))],
               "EXTRA_BUFFER_ARCHS"),
        _mirror_line(root, "EXTRA_BUFFER_ARCHS", "MikeForCausalLM", "RADIX_CACHE_ARCHS"),
    ])


# == ARC103 subset broken ===========================================================================

SUBSET = RULE_FIXTURES / "subset"


def _subset_line(root, module, of, member, into, key):
    target = "the registered architectures" if into == "registered" else into
    return (f"{module}:{assigned_at(root / module, of)}:1: ARC103 '{member}' is in {of} but not in {target} "
            f"({_origin(key)})")


def test_subset_of_a_collection_and_of_the_registered_names():
    # LimaMoeForCausalLM in DOCUMENTED_MODELS is also unregistered (ARC201); ARC103 comes first.
    check_both(SUBSET, [
        _subset_line(SUBSET, "cache/docs.py", "DOCUMENTED_MODELS", "LimaMoeForCausalLM", "registered", "subset[1]"),
        _subset_line(SUBSET, STRATEGIES, "EXTRA_BUFFER_ARCHS", "MikeForCausalLM", "RADIX_CACHE_ARCHS", "subset[0]"),
    ])


def test_subset_that_holds_is_silent(tree):
    root = tree("rules/subset")
    _replace(root / STRATEGIES, '"LimaForCausalLM"})\n\nEXTRA', '"LimaForCausalLM", "MikeForCausalLM"})\n\nEXTRA')
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
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result
    assert value in errors[0] and str((root / "pyproject.toml").resolve()) in errors[0], result
    assert f"tool.archsync.subset[0].{key}" in errors[0], result


def test_a_collection_named_by_a_contract_is_checked_like_a_guarded_one(tree):
    # With no ARC103 about it, the unregistered name in DOCUMENTED_MODELS is an ARC201.
    root = tree("rules/subset")
    set_config(root, '[[tool.archsync.subset]]\nof = "RADIX_CACHE_ARCHS"\nin = "DOCUMENTED_MODELS"')
    line, column = position_of(root / "cache/docs.py", '"LimaMoeForCausalLM"')
    check_both(root, [
        f"cache/docs.py:{line}:{column}: ARC201 'LimaMoeForCausalLM' in DOCUMENTED_MODELS is not a registered "
        f"architecture; did you mean 'LimaForCausalLM'?",
    ])


# == ARC104 sibling variant missing ===================================================================

SIBLING = RULE_FIXTURES / "sibling"


def _registered_at(root, module):
    return f"mm/models/{module}.py:{assigned_at(root / f'mm/models/{module}.py', 'EntryClass')}"


def _sibling_collection(root, collection, missing, held, module):
    line = assigned_at(root / "mm/tables.py", collection)
    return (f"mm/tables.py:{line}:1: ARC104 '{missing}' is missing from {collection}, which holds its sibling "
            f"'{held}' ('{missing}' is registered at {_registered_at(root, module)})")


def _sibling_family(root):
    line = defined_at(root / "mm/families.py", "is_romeo_v1")
    return (f"mm/families.py:{line}:1: ARC104 'RomeoV1ForCausalLM' is missing from is_romeo_v1(), which holds "
            f"its sibling 'RomeoV1ForConditionalGeneration' ('RomeoV1ForCausalLM' is registered at "
            f"{_registered_at(root, 'romeo')})")


def _papa(root):
    return _sibling_collection(root, "ENCODER_DISAGG_ARCHS", "PapaForCausalLM", "PapaForConditionalGeneration", "papa")


def _quebec(root):  # the reverse direction
    return _sibling_collection(root, "CHUNKED_PREFILL_ARCHS", "QuebecForConditionalGeneration", "QuebecForCausalLM",
                               "quebec")


def _sierra(root):  # ARC101 speaks; ARC104 about the same pair stays quiet
    return arc101("mm/tables.py", assigned_at(root / "mm/tables.py", "PIPELINE_PARALLEL_ARCHS"), "SierraForCausalLM",
                  [("is_sierra", "mm/families.py", defined_at(root / "mm/families.py", "is_sierra"))],
                  "PIPELINE_PARALLEL_ARCHS")


def test_sibling_rule_on_collections_and_families_in_both_directions():
    # is_romeo delegates to is_romeo_v1 and owns no literal: it repeats nothing.
    via_archsync, _ = check_both(SIBLING, [_sibling_family(SIBLING), _papa(SIBLING), _quebec(SIBLING),
                                           _sierra(SIBLING)])
    assert not any("is_romeo()" in line for line in via_archsync.lines)


def test_empty_siblings_turn_the_rule_off(tree):
    root = tree("rules/sibling")
    add_config(root, "siblings = []")
    check_both(root, [_sierra(root)])


def test_custom_sibling_pair_replaces_the_default(tree):
    root = tree("rules/sibling")
    add_config(root, 'siblings = [["VLForConditionalGeneration", "ForCausalLM"]]')
    check_both(root, [
        _sierra(root),
        _sibling_collection(root, "TWO_BATCH_OVERLAP_ARCHS", "TangoVLForConditionalGeneration", "TangoForCausalLM",
                            "tango"),
    ])


def test_custom_sibling_pair_next_to_the_default(tree):
    root = tree("rules/sibling")
    add_config(root, 'siblings = [["ForConditionalGeneration", "ForCausalLM"], '
                     '["VLForConditionalGeneration", "ForCausalLM"]]')
    check_both(root, [
        _sibling_family(root), _papa(root), _quebec(root), _sierra(root),
        _sibling_collection(root, "TWO_BATCH_OVERLAP_ARCHS", "TangoVLForConditionalGeneration", "TangoForCausalLM",
                            "tango"),
    ])


def test_sibling_rule_is_silent_once_the_siblings_are_added(tree):
    root = tree("rules/sibling")
    tables = root / "mm/tables.py"
    _replace(tables, '{"PapaForConditionalGeneration"}', '{"PapaForConditionalGeneration", "PapaForCausalLM"}')
    _replace(tables, '{"QuebecForCausalLM"}', '{"QuebecForCausalLM", "QuebecForConditionalGeneration"}')
    _replace(tables, '{"SierraForConditionalGeneration"}', '{"SierraForConditionalGeneration", "SierraForCausalLM"}')
    _replace(root / "mm/families.py", '("RomeoV1ForConditionalGeneration",)',
             '("RomeoV1ForConditionalGeneration", "RomeoV1ForCausalLM")')
    check_both(root, [])


def test_noqa_arc104_on_the_reported_line(tree):
    root = tree("rules/sibling")
    tables = root / "mm/tables.py"
    _replace(tables, 'ENCODER_DISAGG_ARCHS = frozenset({"PapaForConditionalGeneration"})',
             'ENCODER_DISAGG_ARCHS = frozenset({"PapaForConditionalGeneration"})  # noqa: ARC104')
    _replace(tables, 'CHUNKED_PREFILL_ARCHS = frozenset({"QuebecForCausalLM"})',
             'CHUNKED_PREFILL_ARCHS = frozenset({"QuebecForCausalLM"})  # noqa: ARC101')
    _replace(root / "mm/families.py", "def is_romeo_v1(config: Any) -> bool:",
             "def is_romeo_v1(config: Any) -> bool:  # noqa: ARC104")
    # A noqa for another code suppresses nothing.
    check_both(root, [_quebec(root), _sierra(root)])


# == exemptions =======================================================================================

def test_exemption_with_subject_and_member_globs_and_codes(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "*_ARCHS"\nmembers = ["Papa*", "Quebec*"]\n'
                     'codes = ["ARC104"]\nreason = "one-sided lists: multimodal-only and text-only paths"')
    check_both(root, [_sibling_family(root), _sierra(root)])


def test_exemption_without_codes_covers_every_code_and_a_family_subject(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "is_romeo_v*"\nmembers = ["RomeoV1ForCausalLM"]\n'
                     'reason = "the text-only v1 checkpoint never shipped weights"\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "PIPELINE_PARALLEL_ARCHS"\nmembers = ["Sierra*"]\n'
                     'reason = "pipeline parallelism only validated for the multimodal checkpoint"')
    check_both(root, [_papa(root), _quebec(root)])


def test_exemption_for_another_code_suppresses_nothing_and_is_stale(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "ENCODER_DISAGG_ARCHS"\nmembers = ["PapaForCausalLM"]\n'
                     'codes = ["ARC101"]\nreason = "encoder disaggregation is for multimodal checkpoints"')
    exempt_line = line_of(root / "pyproject.toml", "[[tool.archsync.exempt]]")
    check_both(root, [
        _sibling_family(root), _papa(root), _quebec(root), _sierra(root),
        f"pyproject.toml:{exempt_line}:1: ARC202 exemption for 'PapaForCausalLM' in ENCODER_DISAGG_ARCHS no longer "
        f"suppresses anything ({_origin('exempt[0]')}); remove it",
    ])


@pytest.mark.parametrize("reason", [None, '""', '"   "'])
def test_exemption_without_a_reason_is_a_configuration_error(tree, reason):
    root = tree("rules/sibling")
    body = '[[tool.archsync.exempt]]\nsubject = "ENCODER_DISAGG_ARCHS"\nmembers = ["PapaForCausalLM"]'
    if reason is not None:
        body += f"\nreason = {reason}"
    add_config(root, body)
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result
    assert "tool.archsync.exempt[0].reason" in errors[0], result
    assert str((root / "pyproject.toml").resolve()) in errors[0], result
    via_flake8 = flake8(".", cwd=root)
    assert len(via_flake8.lines) == 1 and " ARC900 " in via_flake8.lines[0], via_flake8
    assert "tool.archsync.exempt[0].reason" in via_flake8.lines[0], via_flake8


def test_exemption_with_an_unknown_key_is_a_configuration_error(tree):
    root = tree("rules/sibling")
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "ENCODER_DISAGG_ARCHS"\nmember = ["PapaForCausalLM"]\n'
                     'reason = "typo in the key"')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert "tool.archsync.exempt[0]" in result.stderr and str((root / "pyproject.toml").resolve()) in result.stderr


# == ARC202 stale exemption =============================================================================

STALE = RULE_FIXTURES / "stale"


def _stale_line(root, index, member, subject):
    headers = [i for i, text in enumerate((root / "pyproject.toml").read_text().splitlines(), 1)
               if text.strip() == "[[tool.archsync.exempt]]"]
    return (f"pyproject.toml:{headers[index]}:1: ARC202 exemption for '{member}' in {subject} no longer "
            f"suppresses anything ({_origin(f'exempt[{index}]')}); remove it")


def test_stale_exemptions_are_reported_in_pyproject_only_by_archsync():
    # MikeForCausalLM still needs its exemption; NovemberForCausalLM and the whole second one do not.
    via_archsync, via_flake8 = check_both(STALE, [
        _stale_line(STALE, 0, "NovemberForCausalLM", "EXTRA_BUFFER_ARCHS"),
        _stale_line(STALE, 1, "Kilo*", "OFFLOAD_ARCHS"),
    ])
    assert via_flake8.stdout == "", via_flake8


def test_no_stale_exemption_once_removed(tree):
    root = tree("rules/stale")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "EXTRA_BUFFER_ARCHS"\nmembers = ["MikeForCausalLM"]\n'
                     'codes = ["ARC102"]\nreason = "radix-only: no extra-buffer kernel yet"')
    check_both(root, [])


def test_without_its_exemption_the_difference_is_reported(tree):
    root = tree("rules/stale")
    set_config(root, '[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]')
    strategies = root / STRATEGIES
    check_both(root, [
        f"{STRATEGIES}:{assigned_at(strategies, 'EXTRA_BUFFER_ARCHS')}:1: ARC102 'MikeForCausalLM' is in "
        f"RADIX_CACHE_ARCHS ({STRATEGIES}:{assigned_at(strategies, 'RADIX_CACHE_ARCHS')}) but missing from "
        f"EXTRA_BUFFER_ARCHS, which must mirror it ({_origin('mirror[0]')})",
    ])


def test_stale_exemption_points_at_its_table_header_after_blank_lines(tree):
    # pyproject.toml files usually separate tables with blank lines.
    root = tree("rules/stale")
    set_config(root, '\n[[tool.archsync.mirror]]\ncollections = ["RADIX_CACHE_ARCHS", "EXTRA_BUFFER_ARCHS"]\n\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "EXTRA_BUFFER_ARCHS"\nmembers = ["MikeForCausalLM"]\n'
                     'codes = ["ARC102"]\nreason = "radix-only: no extra-buffer kernel yet"\n\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "OFFLOAD_ARCHS"\nmembers = ["Kilo*"]\n'
                     'reason = "CPU offload was never validated for Kilo"')
    assert (root / "pyproject.toml").read_text().splitlines()[_header_lines(root)[1] - 2] == ""
    check_both(root, [_stale_line(root, 1, "Kilo*", "OFFLOAD_ARCHS")])


def _header_lines(root):
    return [i for i, text in enumerate((root / "pyproject.toml").read_text().splitlines(), 1)
            if text.strip() == "[[tool.archsync.exempt]]"]


def test_stale_exemption_is_not_printed_for_a_subdirectory():
    result = archsync("check", "cache", cwd=STALE)
    assert result.stdout == "", result
    assert result.returncode == EXIT_CLEAN


# == ARC201 unknown architecture ==========================================================================

UNKNOWN = RULE_FIXTURES / "unknown"


def _unknown_lines(root):
    config = root / "srt/configs/model_config.py"
    hybrid = root / "srt/hybrid.py"
    preview = position_of(config, '"KimiLinearMoonshotPreviewForCausalLM"')
    typo = position_of(hybrid, '"Qwen3NextForCasualLM"')
    zeta = position_of(hybrid, '"Zeta9000ForCausalLM"')
    return [
        f"srt/configs/model_config.py:{preview[0]}:{preview[1]}: ARC201 'KimiLinearMoonshotPreviewForCausalLM' "
        f"in is_kimi_linear() is not a registered architecture",
        f"srt/hybrid.py:{typo[0]}:{typo[1]}: ARC201 'Qwen3NextForCasualLM' in _MAMBA_POOL_ARCHS is not a registered "
        f"architecture; did you mean 'Qwen3NextForCausalLM'?",
        f"srt/hybrid.py:{zeta[0]}:{zeta[1]}: ARC201 'Zeta9000ForCausalLM' in _MAMBA_POOL_ARCHS is not a registered "
        f"architecture",
    ]


def test_unknown_names_in_collections_and_families_with_did_you_mean():
    check_both(UNKNOWN, _unknown_lines(UNKNOWN))


def test_unknown_is_silent_when_nothing_is_registered(tree):
    root = tree("rules/unknown")
    for module in ("qwen3_next", "kimi_linear"):
        (root / f"srt/models/{module}.py").unlink()
    # With nothing registered every listed name is a family member, so the preview name is now
    # simply a member _MAMBA_POOL_ARCHS lacks.
    check_both(root, [
        arc101("srt/hybrid.py", assigned_at(root / "srt/hybrid.py", "_MAMBA_POOL_ARCHS"),
               "KimiLinearMoonshotPreviewForCausalLM",
               [("is_kimi_linear", "srt/configs/model_config.py",
                 defined_at(root / "srt/configs/model_config.py", "is_kimi_linear"))], "_MAMBA_POOL_ARCHS"),
    ])


def test_correcting_the_typo_silences_it(tree):
    root = tree("rules/unknown")
    _replace(root / "srt/hybrid.py", '"Qwen3NextForCasualLM"', '"Qwen3NextForCausalLM"')
    lines = _unknown_lines_without_typo(root)
    check_both(root, lines)


def _unknown_lines_without_typo(root):
    config = root / "srt/configs/model_config.py"
    preview = position_of(config, '"KimiLinearMoonshotPreviewForCausalLM"')
    zeta = position_of(root / "srt/hybrid.py", '"Zeta9000ForCausalLM"')
    return [
        f"srt/configs/model_config.py:{preview[0]}:{preview[1]}: ARC201 'KimiLinearMoonshotPreviewForCausalLM' "
        f"in is_kimi_linear() is not a registered architecture",
        f"srt/hybrid.py:{zeta[0]}:{zeta[1]}: ARC201 'Zeta9000ForCausalLM' in _MAMBA_POOL_ARCHS is not a registered "
        f"architecture",
    ]


def test_noqa_arc201_on_the_member_line(tree):
    root = tree("rules/unknown")
    _replace(root / "srt/hybrid.py", '        "Zeta9000ForCausalLM",\n',
             '        "Zeta9000ForCausalLM",  # noqa: ARC201\n')
    check_both(root, _unknown_lines(root)[:2])


# == ARC301 duplicate member =================================================================================

DUPLICATE = RULE_FIXTURES / "duplicate"


def _duplicate_lines(root):
    families = root / "svc/families.py"
    tables = root / "svc/tables.py"
    fam_lines = [i for i, t in enumerate(families.read_text().splitlines(), 1) if t.strip() == '"OscarForCausalLM",']
    tab_lines = [i for i, t in enumerate(tables.read_text().splitlines(), 1) if t.strip() == '"OscarMoeForCausalLM",']
    assert len(fam_lines) == 2 and len(tab_lines) == 2
    return [
        f"svc/families.py:{fam_lines[1]}:9: ARC301 'OscarForCausalLM' is listed twice in is_oscar() "
        f"(first at line {fam_lines[0]})",
        f"svc/tables.py:{tab_lines[1]}:9: ARC301 'OscarMoeForCausalLM' is listed twice in FP8_KV_ARCHS "
        f"(first at line {tab_lines[0]})",
    ]


def test_duplicates_in_one_literal_of_a_collection_or_a_family():
    # Not reported: the same name in two literals of one collection, or twice in an unguarded list.
    check_both(DUPLICATE, _duplicate_lines(DUPLICATE))


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
    expected = _duplicate_lines(root)
    _replace(root / "svc/tables.py", '        "PapaForCausalLM",\n        "OscarMoeForCausalLM",\n',
             '        "PapaForCausalLM",\n        "OscarMoeForCausalLM",  # noqa: ARC301\n')
    check_both(root, expected[:1])


# == explain and rules ==========================================================================================

CODES = [
    ("ARC101", "family-member-missing"),
    ("ARC102", "mirror-drift"),
    ("ARC103", "subset-broken"),
    ("ARC104", "sibling-variant-missing"),
    ("ARC201", "unknown-architecture"),
    ("ARC202", "stale-exemption"),
    ("ARC301", "duplicate-member"),
    ("ARC900", "configuration-error"),
    ("ARC901", "partly-analysed"),
    ("ARC902", "file-not-analysed"),
]


def test_explain_arc101(tmp_path):
    result = archsync("explain", "ARC101", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout.splitlines()[0] == (
        "ARC101 family-member-missing: a guarded collection holds part of a family but not all of it"), result
    for part in ("What:", "Why:", "Example:", "Fix:", "Exempt:"):
        assert part in result.stdout, (part, result)


def test_explain_an_unknown_code(tmp_path):
    result = archsync("explain", "ARC999", cwd=tmp_path)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert "ARC999" in result.stderr, result


def test_rules_lists_every_code(tmp_path):
    result = archsync("rules", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert [tuple(line.split()[:2]) for line in result.lines] == CODES, result


@pytest.mark.parametrize("code, name", CODES)
def test_every_listed_code_is_explained(tmp_path, code, name):
    listed = {line.split()[0]: line for line in archsync("rules", cwd=tmp_path).lines}
    summary = listed[code].split(None, 2)[2]
    result = archsync("explain", code, cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout.splitlines()[0] == f"{code} {name}: {summary}", result
    assert "What:" in result.stdout and "Fix:" in result.stdout, result


def test_the_readme_documents_every_listed_code():
    documented = {}
    for text in (REPO / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in text.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("ARC") and cells[0][3:].isdigit():
            documented[cells[0]] = cells[1]
    assert documented == dict(CODES), documented
