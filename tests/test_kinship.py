"""ARC105 end to end: the `kinship` levels, `archsync why`, `fix` and exemptions on fixtures/kinship.

What each fixture reports is in its expected.txt (tests/test_cases.py); these tests cover what
changes with configuration and the commands beside `check`.
"""
from __future__ import annotations

from conftest import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, archsync, check_both, only, places, set_config

MISTRAL = ("serve/layers/attention.py:15:1: ARC105 'MistralForCausalLM' may belong in FUSED_QKV_ARCHS: it runs the "
           "code of 'LlamaForCausalLM' (`class MistralForCausalLM(LlamaForCausalLM)` defines no method, at "
           "serve/models/llama.py:14); appears with 'LlamaForCausalLM' in 4 of the 5 lists that hold it "
           "(confidence 0.89)")


def test_kinship_off_reports_nothing(tree):
    root = tree("kinship/subclass")
    set_config(root, 'kinship = "off"')
    check_both(root, [])


def test_kinship_all_adds_what_one_kind_of_evidence_says(tree):
    root = tree("kinship/subclass")
    strong = only("ARC105", places(cwd=root))
    set_config(root, 'kinship = "all"')
    added = sorted(set(only("ARC105", places(cwd=root))) - set(strong))
    # One kind of evidence each: a subclass that overrides methods (0.60), a base held by the lists of its
    # subclass (0.25) with their company (0.25): reported on request only.
    assert added == [
        "serve/layers/attention.py:13:1: ARC105 'GlmMoeDsaForCausalLM' may belong in KV_QUANT_ARCHS: it "
        "subclasses 'DeepseekV2ForCausalLM' (`class GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)` at "
        'serve/models/deepseek.py:14) (confidence 0.60)',
        "serve/layers/attention.py:13:1: ARC105 'InternLM3ForCausalLM' may belong in KV_QUANT_ARCHS: it "
        "subclasses 'LlamaForCausalLM' (`class InternLM3ForCausalLM(LlamaForCausalLM)` at "
        'serve/models/llama.py:18) (confidence 0.60)',
        "serve/layers/attention.py:15:1: ARC105 'GlmMoeDsaForCausalLM' may belong in FUSED_QKV_ARCHS: it "
        "subclasses 'DeepseekV2ForCausalLM' (`class GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)` at "
        'serve/models/deepseek.py:14) (confidence 0.60)',
        "serve/layers/attention.py:15:1: ARC105 'InternLM3ForCausalLM' may belong in FUSED_QKV_ARCHS: it "
        "subclasses 'LlamaForCausalLM' (`class InternLM3ForCausalLM(LlamaForCausalLM)` at "
        'serve/models/llama.py:18) (confidence 0.60)',
        "serve/layers/attention.py:18:1: ARC105 'LlamaForCausalLM' may belong in CUDA_GRAPH_ARCHS: it "
        "appears with 'MistralForCausalLM' in 4 of the 5 lists that hold it; is the base of "
        "'MistralForCausalLM' (`class MistralForCausalLM(LlamaForCausalLM)` at serve/models/llama.py:14) "
        '(confidence 0.44)',
        "serve/layers/attention.py:20:1: ARC105 'GlmMoeDsaForCausalLM' may belong in TORCH_COMPILE_ARCHS: it "
        "subclasses 'DeepseekV2ForCausalLM' (`class GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)` at "
        'serve/models/deepseek.py:14) (confidence 0.60)',
        "serve/layers/attention.py:20:1: ARC105 'InternLM3ForCausalLM' may belong in TORCH_COMPILE_ARCHS: it "
        "subclasses 'LlamaForCausalLM' (`class InternLM3ForCausalLM(LlamaForCausalLM)` at "
        'serve/models/llama.py:18) (confidence 0.60)',
        "serve/layers/attention.py:3:1: ARC105 'InternLM3ForCausalLM' may belong in SLIDING_WINDOW_ARCHS: it "
        "subclasses 'LlamaForCausalLM' (`class InternLM3ForCausalLM(LlamaForCausalLM)` at "
        'serve/models/llama.py:18) (confidence 0.60)',
        "serve/layers/attention.py:5:1: ARC105 'InternLM3ForCausalLM' may belong in ROPE_SCALING_ARCHS: it "
        "subclasses 'LlamaForCausalLM' (`class InternLM3ForCausalLM(LlamaForCausalLM)` at "
        'serve/models/llama.py:18) (confidence 0.60)',
    ]


def test_an_unknown_kinship_level_is_a_configuration_error(tree):
    root = tree("kinship/subclass")
    set_config(root, 'kinship = "some"')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert "kinship" in result.stderr and "strong" in result.stderr, result


def test_why_prints_every_piece_of_evidence_and_the_verdict(tree):
    root = tree("kinship/subclass")
    result = archsync("why", "FUSED_QKV_ARCHS", "MistralForCausalLM", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines == [
        "FUSED_QKV_ARCHS at serve/layers/attention.py:15:1 holds 5 registered names (DeepseekV2ForCausalLM, "
        "LlamaForCausalLM, PhiForCausalLM, Qwen2ForCausalLM, Qwen2MoeForCausalLM)",
        "read: by its name (a call, an import or a mention beyond its definition); looked up with an architecture name",
        "evidence that 'MistralForCausalLM' belongs with what it holds:",
        "  0.85  subclass        runs the code of 'LlamaForCausalLM' (`class MistralForCausalLM(LlamaForCausalLM)` "
        "defines no method, at serve/models/llama.py:14)",
        "  0.25  co-occurrence   appears with 'LlamaForCausalLM' in 4 of the 5 lists that hold it",
        "  0.25  co-occurrence   appears with 'PhiForCausalLM' in 3 of the 4 lists that hold it",
        "confidence 0.89 (the best piece of each kind, combined as independent)",
        "the project treats them alike: 4 of its lists hold both 'LlamaForCausalLM' and 'MistralForCausalLM'",
        # what the project's own lists say of a name so tied, each member left out of its list in turn
        "in the project's own lists, a name tied so (co-occurrence:0.25, subclass:0.85) was held 4 times and "
        "lacked 1 (each member left out in turn): 0.80 held",
        "ARC105 at kinship = \"strong\" (threshold 0.80, and the project must treat them alike): reported",
        "reported: " + MISTRAL,
    ], result


def test_why_shows_the_code_evidence_set_aside_for_the_table_of_another_engine(tree):
    """A table of `engine/turbo` gives each name the key its decorators file one of that engine's readers under:
    what the registry of `engine/pytorch` shares says nothing of it, and `why` shows the piece it set aside."""
    root = tree("kinship/own_strings")
    result = archsync("why", "SUPPORTED_ARCHS", "OspreyV3ForCausalLM", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines[2:5] == [
        "evidence that 'OspreyV3ForCausalLM' belongs with what it holds:",
        "  0.30  variant         is a newer generation of 'OspreyV2ForCausalLM'",
        "confidence 0.30 (the best piece of each kind, combined as independent)",
    ], result
    # the project's lists are counted for the evidence weighed, not for the pieces set aside
    assert result.lines[6] == "in the project's own lists, no name is tied so (variant:0.30), each member left out " \
        "in turn: nothing to count", result
    assert result.lines[-3:] == [
        "set aside: SUPPORTED_ARCHS names a class of engine/turbo/'s own engine for each name (its values are keys "
        "its decorators file classes under), and 'OspreyV3ForCausalLM' is registered in engine/pytorch/: what that "
        "registry's classes share says nothing of it",
        "  0.90  implementation  runs the same implementation as 'OspreyV2ForCausalLM' (osprey_v2:OspreyV2ForCausalLM)",
        "ARC105 at kinship = \"strong\" (threshold 0.80, and the project must treat them alike): not reported",
    ], result
    # the list of engine/serve, the registry's word holds: nothing set aside
    kept = archsync("why", "COMPRESSED_CACHE_ARCHS", "OspreyV3ForCausalLM", cwd=root)
    assert not any(line.startswith("set aside") for line in kept.lines), kept
    assert kept.lines[-2] == "ARC105 at kinship = \"strong\" (threshold 0.80, and the project must treat them " \
        "alike): reported", kept


def test_why_lists_a_shared_config_class_and_the_default_level_is_not_moved_by_it(tree):
    root = tree("kinship/config_class")
    result = archsync("why", "CHUNKED_PREFILL_ARCHS", "KimiK3LinearForCausalLM", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines[1:9] == [
        "read: by its name (a call, an import or a mention beyond its definition); looked up with an architecture name",
        "evidence that 'KimiK3LinearForCausalLM' belongs with what it holds:",
        "  0.25  co-occurrence   appears with 'KimiLinearForCausalLM' in 3 of the 4 lists that hold it",
        "  0.25  co-occurrence   appears with 'LlamaForCausalLM' in 3 of the 4 lists that hold it",
        "  0.25  co-occurrence   appears with 'StablelmForCausalLM' in 3 of the 4 lists that hold it",
        "  0.25  co-occurrence   appears with 'XverseForCausalLM' in 3 of the 4 lists that hold it",
        "  0.25  config-class    is built with the same config class KimiLinearConfig as 'KimiLinearForCausalLM' "
        "(srv/models/kimi_linear.py:15)",
        "confidence 0.44 (the best piece of each kind, combined as independent)",
    ], result
    set_config(root, 'kinship = "strong"')
    check_both(root, [])


def test_why_names_the_guard_that_keeps_a_finding_quiet(tree):
    root = tree("kinship/guards")
    result = archsync("why", "MLA_ARCHS", "DeepseekV3ForCausalLMNextN", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines[-1] == "ARC105 stays quiet: kind guard: it is a draft variant and fewer than a fifth of the " \
        "subject's names are (none at all for a list of one lineage)"
    lineage = archsync("why", "_INTERN_S2_ARCHS", "Qwen3ForCausalLM", cwd=root)
    assert lineage.lines[-1] == "ARC105 stays quiet: the subject is about one lineage and the name is of another"
    earlier = archsync("why", "MLA_ARCHS", "DeepseekForCausalLM", cwd=root)
    assert earlier.lines[-1] == "ARC105 stays quiet: the subject holds two later versions of it and not it: what " \
                                "it gates began with them", earlier
    generations = archsync("why", "SPARSE_MLA_ARCHS", "DeepseekV2ForCausalLM", cwd=root)
    assert generations.lines[-1] == earlier.lines[-1], generations
    encoder = archsync("why", "CHUNKED_PREFILL_ARCHS", "Qwen2EncoderModel", cwd=root)
    assert encoder.lines[-1] == "ARC105 stays quiet: kind guard: it is a classification or embedding model and " \
                                "fewer than a fifth of the subject's names are (`archsync explain ARC101`)", encoder
    dispatch = archsync("why", "draft_architecture#1", "DeepseekV3ForCausalLM", cwd=root)
    assert dispatch.lines[-1] == "ARC105 stays quiet: the subject tests one name or dispatches on it: not a list " \
                                 "to complete", dispatch


def test_why_shows_the_family_and_the_sibling_that_arc101_and_arc104_decide(tree):
    """The seed case is reported by ARC101: `why` names the family and the sibling pair, not "no evidence"."""
    root = tree("sglang_qwen3_5/bug")
    result = archsync("why", "_MAMBA_RADIX_CACHE_ARCHS", "Qwen3_5ForCausalLM", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines[1:6] == [
        "read: by its name (a call, an import or a mention beyond its definition); looked up with an architecture name",
        "stated by the project (ARC101 decides a family, ARC104 a sibling pair: no threshold):",
        "  family   is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18), as "
        "'Qwen3_5ForConditionalGeneration', 'Qwen3_5MoeForConditionalGeneration' the subject holds",
        "  sibling  is the sibling of 'Qwen3_5ForConditionalGeneration' (the suffixes ForConditionalGeneration and "
        "ForCausalLM of `siblings`)",
        "no other evidence ties 'Qwen3_5ForCausalLM' to what _MAMBA_RADIX_CACHE_ARCHS holds",
    ], result
    # the finding as `check` prints it, whichever of its cause's places `why` is asked about (the first, here)
    assert result.lines[-1] == (
        "reported (one cause, 4 places): sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is "
        "matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; "
        "the same for 'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)"), result


def test_why_names_the_kind_guard_that_keeps_a_sibling_quiet(tree):
    root = tree("kinship/guards")
    result = archsync("why", "VISION_TOWER_ARCHS", "Gemma3ForCausalLM", cwd=root)
    assert result.lines[1:5] == [
        "read: by its name (a call, an import or a mention beyond its definition); looked up with an architecture name",
        "stated by the project (ARC101 decides a family, ARC104 a sibling pair: no threshold):",
        "  sibling  is the sibling of 'Gemma3ForConditionalGeneration' (the suffixes ForConditionalGeneration and "
        "ForCausalLM of `siblings`)",
        "  not reported: kind guard: it is text and fewer than a fifth of the subject's names are "
        "(`archsync explain ARC101`)",
    ], result
    set_config(root, "siblings = []")
    unpaired = archsync("why", "VISION_TOWER_ARCHS", "Gemma3ForCausalLM", cwd=root)
    assert not any("sibling" in line for line in unpaired.lines), unpaired


def test_why_explains_a_family_that_arc104_completes(tree):
    """ARC104 reports on a family's own tests; `why` takes the family's name as the message writes it."""
    root = tree("rules/sibling")
    expected = [
        "is_romeo_v1() at mm/families.py:9:1 is a family: its own tests hold 1 registered name "
        "(RomeoV1ForConditionalGeneration)",
        "stated by the project (ARC104 decides a sibling pair: no threshold):",
        "  sibling  is the sibling of 'RomeoV1ForConditionalGeneration' (the suffixes ForConditionalGeneration and "
        "ForCausalLM of `siblings`)",
        "ARC105 weighs lists, not families: what a family matches is what its tests say",
        "reported: mm/families.py:9:1: ARC104 'RomeoV1ForCausalLM' is missing from is_romeo_v1(), which holds its "
        "sibling 'RomeoV1ForConditionalGeneration' ('RomeoV1ForCausalLM' is registered at mm/models/romeo.py:20)",
    ]
    for subject in ("is_romeo_v1", "is_romeo_v1()"):
        result = archsync("why", subject, "RomeoV1ForCausalLM", cwd=root)
        assert (result.returncode, result.lines) == (EXIT_CLEAN, expected), result
    unrelated = archsync("why", "is_romeo_v1", "SierraForCausalLM", cwd=root)
    assert unrelated.lines[1] == "no sibling of 'SierraForCausalLM' is in its own tests", unrelated


def test_why_an_unknown_subject_is_an_error(tree):
    root = tree("kinship/subclass")
    result = archsync("why", "NO_SUCH_ARCHS", "MistralForCausalLM", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.stderr == "archsync: error: no subject 'NO_SUCH_ARCHS'; `archsync inventory` lists them\n"
    # a name close to a subject's (a letter dropped) is told the nearest ones
    result = archsync("why", "SLIDING_WINDOW_ARCH", "MistralForCausalLM", cwd=root)
    assert (result.returncode, result.stderr) == (
        EXIT_ERROR, "archsync: error: no subject 'SLIDING_WINDOW_ARCH'; did you mean 'SLIDING_WINDOW_ARCHS'? "
                    "`archsync inventory` lists them\n"), result


def test_fix_adds_the_kin_beside_what_it_holds_and_check_is_then_clean(tree):
    root = tree("kinship/subclass")
    diff = archsync("fix", "--diff", cwd=root)
    assert diff.stdout.splitlines() == [
        '--- a/serve/layers/attention.py',
        '+++ b/serve/layers/attention.py',
        '@@ -7,15 +7,19 @@',
        '         "LlamaForCausalLM",',
        '         "MistralForCausalLM",',
        '         "Qwen2ForCausalLM",',
        '+        "Qwen2MoeForCausalLM",',
        '     }',
        ' )',
        ' ',
        ' KV_QUANT_ARCHS = {"LlamaForCausalLM", "MistralForCausalLM", "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"}',  # noqa: E501
        ' ',
        ' FUSED_QKV_ARCHS = ("LlamaForCausalLM", "Qwen2ForCausalLM", "Qwen2MoeForCausalLM", "DeepseekV2ForCausalLM",',
        '+                   "MistralForCausalLM",',
        '+                   "DeepseekV3ForCausalLM",',
        '                    "PhiForCausalLM")',
        ' ',
        ' CUDA_GRAPH_ARCHS = ["MistralForCausalLM", "PhiForCausalLM"]',
        ' ',
        ' TORCH_COMPILE_ARCHS = ["LlamaForCausalLM", "MistralForCausalLM", "PhiForCausalLM", "Qwen2ForCausalLM",',
        '-                       "DeepseekV2ForCausalLM"]',
        '+                       "Qwen2MoeForCausalLM",',
        '+                       "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"]',
    ], diff
    fixed = archsync("fix", cwd=root)
    assert fixed.returncode == EXIT_CLEAN, fixed
    assert archsync("check", cwd=root).returncode == EXIT_CLEAN


def test_an_exemption_silences_one_pair(tree):
    root = tree("kinship/subclass")
    set_config(root, '[[tool.archsync.exempt]]\ncodes = ["ARC105"]\nsubject = "FUSED_QKV_ARCHS"\n'
                     'members = ["MistralForCausalLM"]\nreason = "fused QKV needs the Llama checkpoint layout"\n')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert MISTRAL not in places(cwd=root) and len(only("ARC105", places(cwd=root))) == 4, result
