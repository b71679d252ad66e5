"""Rule packs: `extends = ["sglang"]` merges the shipped `rules/sglang.toml` under the project's settings.

The pack declares SGLang's two mamba whitelists as mirrors and records SGLang's intentional
differences as exemptions. On a copy of the seed bug tree extended (in the test) with those
differences, the pack must leave exactly the seed's finding (its four places).
"""
from __future__ import annotations

import re
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from conftest import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    REPO,
    add_config,
    archsync,
    check_both,
    check_places_both,
    flake8,
    places,
    write,
)

PACK = REPO / "rules" / "sglang.toml"
OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
RADIX = "_MAMBA_RADIX_CACHE_ARCHS"
EXTRA = "_MAMBA_EXTRA_BUFFER_ARCHS"

# What rules/sglang.toml exempts, read from the pack itself: the tree below is built from it.
_PACK_DATA = tomllib.loads(PACK.read_text(encoding="utf-8"))


def _exempted(subject):
    return [m for e in _PACK_DATA["exempt"] if e["subject"] == subject for m in e["members"]]


RADIX_ONLY = _exempted(EXTRA)  # radix-cache capable, no extra buffer
EXTRA_ONLY = _exempted(RADIX)  # GraniteMoeHybridForCausalLM
# Checkpoint aliases that config loading rewrites: beside LongcatFlashForCausalLM, archsync takes
# them for aliases (no exemption needed any more).
LONGCAT_ALIASES = ["LongcatCausalLM", "LongcatFlashNgramForCausalLM"]


def test_the_pack_says_what_these_tests_rely_on():
    assert _PACK_DATA["mirror"] == [{"collections": [f"{OVERRIDES}::{RADIX}", f"{OVERRIDES}::{EXTRA}"]}]
    assert RADIX_ONLY == ["InternS2MobiusForConditionalGeneration", "JetNemotronForCausalLM",
                          "JetVLMForConditionalGeneration", "Lfm2ForCausalLM", "Lfm2MoeForCausalLM", "ZayaForCausalLM"]
    assert EXTRA_ONLY == ["GraniteMoeHybridForCausalLM"]
    assert [e["subject"] for e in _PACK_DATA["exempt"]] == [EXTRA, RADIX]  # aliases and drafts need none
    assert all(e.get("reason", "").strip() for e in _PACK_DATA["exempt"])


def _model_module(root, module, classes):
    body = f'"""{module}: registered for the fixture."""\n'
    body += "".join(f"\n\nclass {cls}:\n    pass\n" for cls in classes)
    body += f"\n\nEntryClass = [{', '.join(classes)}]\n"
    write(root / f"sglang/srt/models/{module}.py", body)


def _with_sglang_differences(tree, into="sglang"):
    """A copy of the seed bug tree holding SGLang's real intentional differences.

    - every radix-only name of the pack in _MAMBA_RADIX_CACHE_ARCHS only, each registered
      (six more lines there: _MAMBA_EXTRA_BUFFER_ARCHS moves from line 48 to line 54);
    - GraniteMoeHybridForCausalLM in _MAMBA_EXTRA_BUFFER_ARCHS only (already so in the seed tree);
    - Nemotron-H and Falcon-H1, which SGLang lists in both whitelists, added to the extra-buffer one;
    - _LONGCAT_ARCHS with the checkpoint aliases config loading rewrites;
    - _FLASHINFER_ALLREDUCE_FUSION_ARCHS without the draft variants of a registered family.
    """
    root = tree("sglang_qwen3_5/bug", into=into)
    overrides = root / OVERRIDES
    text = overrides.read_text()
    radix_end = '        "FalconH1ForCausalLM",\n    }\n)\n'
    extra_end = '        "GraniteMoeHybridForCausalLM",\n    }\n)\n'
    assert text.count(radix_end) == 1 and text.count(extra_end) == 1
    text = text.replace(radix_end, '        "FalconH1ForCausalLM",\n'
                        + "".join(f'        "{name}",\n' for name in RADIX_ONLY) + "    }\n)\n")
    text = text.replace(extra_end, '        "GraniteMoeHybridForCausalLM",\n        "NemotronHForCausalLM",\n'
                                   '        "FalconH1ForCausalLM",\n    }\n)\n')
    overrides.write_text(text)
    for name in RADIX_ONLY:
        _model_module(root, re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name.split("For")[0]).lower(), [name])
    _model_module(root, "longcat_flash", ["LongcatFlashForCausalLM"])
    write(root / "sglang/srt/utils/__init__.py", "")
    write(root / "sglang/srt/utils/hf_transformers_utils.py",
          '"""Config loading."""\n\n# Checkpoint architecture names that all load the LongCat-Flash config.\n'
          '_LONGCAT_ARCHS = frozenset(\n    {\n        "LongcatFlashForCausalLM",\n'
          + "".join(f'        "{name}",\n' for name in LONGCAT_ALIASES) + "    }\n)\n")
    _model_module(root, "gpt_oss", ["GptOssForCausalLM"])
    _model_module(root, "gpt_oss_draft", ["GptOssForCausalLMNextN", "GptOssForCausalLMDSpark"])
    model_config = root / MODEL_CONFIG
    model_config.write_text(model_config.read_text() + (  # is_gpt_oss lands on line 65
        "\n\ndef is_gpt_oss(config: Any) -> bool:\n"
        '    return _hf_arch(config) in ("GptOssForCausalLM", "GptOssForCausalLMNextN", "GptOssForCausalLMDSpark")\n'))
    write(root / "sglang/srt/layers/__init__.py", "")
    write(root / "sglang/srt/layers/flashinfer_comm_fusion.py",
          '"""When the FlashInfer allreduce fusion is switched on by default."""\n\n'
          '_FLASHINFER_ALLREDUCE_FUSION_ARCHS = frozenset({"GptOssForCausalLM", "Qwen3NextForCausalLM"})\n')
    return root


def test_sglang_pack_leaves_only_the_seed_finding(tree):
    root = _with_sglang_differences(tree)
    add_config(root, 'extends = ["sglang"]')
    check_both(root, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 54)",
    ])


def test_without_the_pack_the_intentional_differences_are_reported(tree):
    # The control: what the pack's exemptions (and nothing else) silence: every radix-only and
    # extra-only name (ARC102). The LongCat aliases (ARC201) and the GPT-OSS draft variants (ARC101)
    # are quiet without the pack: aliases beside their registered lineage, drafts not wanted in a list
    # of served models.
    root = _with_sglang_differences(tree)
    add_config(root, f'[[tool.archsync.mirror]]\ncollections = ["{RADIX}", "{EXTRA}"]')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert places(cwd=root) == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sglang/srt/arg_groups/overrides.py:35:1: ARC102 'GraniteMoeHybridForCausalLM' is in _MAMBA_EXTRA_BUFFER_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:54) but missing from _MAMBA_RADIX_CACHE_ARCHS, which must mirror it "
        "(pyproject.toml: tool.archsync.mirror[0])",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC102 'InternS2MobiusForConditionalGeneration' is in "
        "_MAMBA_RADIX_CACHE_ARCHS (sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, "
        "which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC102 'JetNemotronForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(pyproject.toml: tool.archsync.mirror[0])",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC102 'JetVLMForConditionalGeneration' is in "
        "_MAMBA_RADIX_CACHE_ARCHS (sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, "
        "which must mirror it (pyproject.toml: tool.archsync.mirror[0])",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC102 'Lfm2ForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(pyproject.toml: tool.archsync.mirror[0])",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC102 'Lfm2MoeForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(pyproject.toml: tool.archsync.mirror[0])",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC102 'ZayaForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(pyproject.toml: tool.archsync.mirror[0])",
    ], result


def test_the_pack_still_reports_an_unexempted_difference(tree):
    # A hybrid model added to the radix-cache list only, which the pack does not know about
    # (one more line there: _MAMBA_EXTRA_BUFFER_ARCHS is now on line 55).
    root = _with_sglang_differences(tree)
    _model_module(root, "omega_hybrid", ["OmegaHybridForCausalLM"])
    overrides = root / OVERRIDES
    overrides.write_text(overrides.read_text().replace(
        '        "FalconH1ForCausalLM",\n        "InternS2Mobius',
        '        "FalconH1ForCausalLM",\n        "OmegaHybridForCausalLM",\n        "InternS2Mobius', 1))
    add_config(root, 'extends = ["sglang"]')
    check_both(root, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 55)",
        "sglang/srt/arg_groups/overrides.py:55:1: ARC102 'OmegaHybridForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(rule pack 'sglang': mirror[0])",
    ])


def test_pack_on_the_unmodified_seed_tree(tree):
    # The seed tree lists Falcon-H1 and Nemotron-H in the radix-cache whitelist only, which the
    # pack does not record as intentional. The pack's exemptions are never reported as stale.
    root = tree("sglang_qwen3_5/bug")
    add_config(root, 'extends = ["sglang"]')
    check_both(root, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
        "sglang/srt/arg_groups/overrides.py:48:1: ARC102 'FalconH1ForCausalLM' is in _MAMBA_RADIX_CACHE_ARCHS "
        "(sglang/srt/arg_groups/overrides.py:35) but missing from _MAMBA_EXTRA_BUFFER_ARCHS, which must mirror it "
        "(rule pack 'sglang': mirror[0]); the same for 'NemotronHForCausalLM' there",
    ])


def _pack_as_project_config():
    """rules/sglang.toml rewritten as `[tool.archsync]` tables of a project."""
    body, tables = [], False
    for text in PACK.read_text(encoding="utf-8").splitlines():
        header = re.match(r"^\[\[\s*(\w+)\s*\]\]\s*$", text)
        if header:
            tables = True
            body.append(f"[[tool.archsync.{header.group(1)}]]")
        else:
            assert tables or not text.strip() or text.lstrip().startswith("#"), text
            body.append(text)
    return "\n".join(body)


def test_everything_the_pack_says_can_be_said_in_the_project(tree):
    root = _with_sglang_differences(tree)
    add_config(root, _pack_as_project_config())
    # Same result; every exemption of the pack suppresses something here, so none is stale.
    check_both(root, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 54)",
    ])


def test_project_exemptions_next_to_a_pack_are_appended_and_can_go_stale(tree):
    root = _with_sglang_differences(tree)
    add_config(root, 'extends = ["sglang"]\n\n[[tool.archsync.exempt]]\nsubject = "_MAMBA_*"\n'
                     'members = ["Qwen3_5MoeForCausalLM"]\n'
                     'reason = "the MoE text-only checkpoint is not served with mamba caching yet"\n\n'
                     '[[tool.archsync.exempt]]\nsubject = "_MAMBA_RADIX_CACHE_ARCHS"\n'
                     'members = ["KimiLinearForCausalLM"]\nreason = "written for a difference that was fixed since"')
    # The project's stale exemption is reported (at its table header, line 19 of pyproject.toml);
    # the pack's never are.
    check_places_both(root, [
        "pyproject.toml:19:1: ARC202 exemption for 'KimiLinearForCausalLM' in _MAMBA_RADIX_CACHE_ARCHS no longer "
        "suppresses anything (pyproject.toml: tool.archsync.exempt[1]); remove it",
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
    ])


def test_an_exemption_limited_to_arc101_lets_the_sibling_rule_speak(tree):
    # ARC104 stays quiet only while ARC101 reports the pair; exempting ARC101 alone leaves
    # the sibling finding about the same (subject, member) to be printed.
    root = _with_sglang_differences(tree)
    add_config(root, 'extends = ["sglang"]\n\n[[tool.archsync.exempt]]\nsubject = "_MAMBA_*"\n'
                     'members = ["Qwen3_5MoeForCausalLM"]\ncodes = ["ARC101"]\n'
                     'reason = "the MoE text-only checkpoint is not served with mamba caching yet"')
    check_places_both(root, [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS",
        "sglang/srt/arg_groups/overrides.py:35:1: ARC104 'Qwen3_5MoeForCausalLM' is missing from "
        "_MAMBA_RADIX_CACHE_ARCHS, which holds its sibling 'Qwen3_5MoeForConditionalGeneration' "
        "('Qwen3_5MoeForCausalLM' is registered at sglang/srt/models/qwen3_5_text.py:60)",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
        "sglang/srt/arg_groups/overrides.py:54:1: ARC104 'Qwen3_5MoeForCausalLM' is missing from "
        "_MAMBA_EXTRA_BUFFER_ARCHS, which holds its sibling 'Qwen3_5MoeForConditionalGeneration' "
        "('Qwen3_5MoeForCausalLM' is registered at sglang/srt/models/qwen3_5_text.py:60)",
    ])


def test_unknown_pack_is_a_configuration_error_naming_the_available_ones(tree):
    root = tree("sglang_qwen3_5/bug")
    add_config(root, 'extends = ["no-such-pack"]')
    error = (f"{(root / 'pyproject.toml').resolve()}: tool.archsync.extends: "
             "no rule pack named 'no-such-pack' (available: sglang)")
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [f"archsync: error: {error}"], result
    via_flake8 = flake8(".", cwd=root)
    # Once, on whichever file flake8 checks first.
    assert len(via_flake8.lines) == 1, via_flake8
    assert via_flake8.lines[0].endswith(f":1:1: ARC900 archsync configuration error: {error}"), via_flake8


def test_a_pack_whose_collections_the_project_lacks_says_so(tree):
    # The sglang pack on a project without SGLang's whitelists: the error must point at the
    # pack's mirror, which the user never wrote, not only at the project's pyproject.toml.
    root = tree("rules/mirror")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text()
    assert text.count("[tool.archsync]\n") == 1
    pyproject.write_text(text.replace("[tool.archsync]\n", '[tool.archsync]\nextends = ["sglang"]\n'))
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [
        "archsync: error: rule pack 'sglang': mirror[0].collections: no collection named "
        "'sglang/srt/arg_groups/overrides.py::_MAMBA_RADIX_CACHE_ARCHS' in the project",
    ], result


def test_a_pack_name_that_is_a_path_is_refused(tree):
    root = tree("sglang_qwen3_5/bug")
    add_config(root, 'extends = ["../rules/sglang"]')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stdout == "", result
    assert result.err_lines == [
        f"archsync: error: {(root / 'pyproject.toml').resolve()}: tool.archsync.extends: "
        "invalid pack name '../rules/sglang'",
    ], result
