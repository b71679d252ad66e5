"""The replay corpus (bench/history/corpus.json) and how the replay matches a diagnostic to a case."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.history.later import confirmed, read_facts  # noqa: E402
from bench.history.replay import MISSING_CODES, Case, in_subject, judge_case, load_corpus, why_missed  # noqa: E402

KINDS = {"drift", "upstream", "unregistered", "new-model"}


def test_every_case_is_facts_about_a_commit():
    cases = load_corpus()
    assert len(cases) == 318
    assert len({c.id for c in cases}) == len(cases)
    assert sum(1 for c in cases if c.kind == "drift") == 177
    # tuned on before issue 27, and held out from tuning since: apart, never mixed
    assert {c.split for c in cases} == {"tuned", "held-out"}
    assert sum(1 for c in cases if c.split == "held-out") == 222
    for case in cases:
        assert re.fullmatch(r"[0-9a-f]{40}", case.fix) and re.fullmatch(r"[0-9a-f]{40}", case.parent), case.id
        assert case.kind in KINDS and case.names and case.file.endswith(".py"), case.id
        # a drift case says what its fix commit does besides completing lists
        assert case.fix_kind in (("drift", "capability") if case.kind == "drift" else ("",)), case.id


def test_each_drift_case_says_why_its_fix_is_drift_or_a_capability():
    import json

    document = json.loads((Path(__file__).resolve().parents[1] / "bench/history/corpus.json").read_text())
    drift = [c for c in document["cases"] if c["kind"] == "drift"]
    assert all(len(c["fix_kind_why"]) > 20 for c in drift)
    assert sum(1 for c in drift if c["fix_kind"] == "drift") == 75
    assert sum(1 for c in drift if c["fix_kind"] == "drift" and c["split"] == "held-out") == 50


def test_sglang_cases_are_dated_before_the_period_kept_aside():
    import json

    document = json.loads((Path(__file__).resolve().parents[1] / "bench/history/corpus.json").read_text())
    assert max(c["date"] for c in document["cases"] if c["project"] == "sglang") < "2026-01-01"


def test_a_subject_name_matches_the_scope_it_points_into():
    assert in_subject("ModelConfig.__init__#3", "ModelConfig.__init__")
    assert in_subject("is_fa3_default_architecture.default_archs", "is_fa3_default_architecture")
    assert in_subject("@_register_for:_qwen3_overrides", "_qwen3_overrides")
    assert in_subject("_PP_SUPPORTED_MODELS", "_PP_SUPPORTED_MODELS")
    assert not in_subject("ModelConfig.__init_subclass__#1", "ModelConfig.__init__")
    assert not in_subject("_PP_SUPPORTED_MODELS_V2", "_PP_SUPPORTED_MODELS")


def test_a_case_is_caught_only_by_its_file_subject_and_names():
    case = Case("x-1", "x", "github:o/x", "f" * 40, "p" * 40, ".", "pkg/cfg.py", "ModelConfig.__init__",
                ("BForCausalLM",), "drift", False)
    hit = {"code": "ARC105", "path": "pkg/cfg.py", "subject": "ModelConfig.__init__#2", "member": "BForCausalLM",
           "message": "m"}
    assert judge_case(case, [hit], None).status == "caught"
    for wrong in ({"path": "pkg/other.py"}, {"subject": "other#1"}, {"member": "CForCausalLM"}):
        outcome = judge_case(case, [{**hit, **wrong}], {"registered": [{"name": "BForCausalLM"}], "subjects": []})
        assert (outcome.status, outcome.why) == ("missed", "the subject is not read as a subject")


def test_a_respelling_the_fix_made_is_caught_by_the_unknown_name_it_corrects():
    """ktransformers wrote `SmallthinkerForCausalLM` where the architecture is `SmallThinkerForCausalLM`; the
    fix respelt it. ARC201 at the parent names the misspelt name and the right one: the fix it asks for."""
    case = Case("x-2", "x", "github:o/x", "f" * 40, "p" * 40, ".", "srv/args.py", "ArgumentParser.parse_args",
                ("SmallThinkerForCausalLM",), "drift", False)
    unknown = {"code": "ARC201", "path": "srv/args.py", "subject": "ArgumentParser.parse_args#4",
               "member": "SmallthinkerForCausalLM", "message": "'SmallthinkerForCausalLM' in ArgumentParser."
               "parse_args#4 is not a registered architecture; did you mean 'SmallThinkerForCausalLM'?"}
    outcome = judge_case(case, [unknown], None)
    assert (outcome.status, outcome.caught_names) == ("caught", ["SmallThinkerForCausalLM"])
    elsewhere = {**unknown, "message": unknown["message"].replace("'SmallThinkerForCausalLM'", "'OtherForCausalLM'")}
    assert judge_case(case, [elsewhere], None).status == "missed"


def _judge(code, member, before, after, subject):
    return confirmed(code, member, read_facts(before, "pkg/cfg.py"), read_facts(after, "pkg/cfg.py"), subject,
                     MISSING_CODES)


PARENT = ('A_ARCHS = ["XForCausalLM"]\n\n\nclass Config:\n    def __init__(self, arch):\n'
          '        if arch in ["YForCausalLM", "ZForCausalLM"]:\n            pass\n'
          '        if arch in ["VForCausalLM", "UForCausalLM"]:\n            pass\n')


def test_later_history_is_judged_on_the_subject_literal_not_its_function():
    # A test inserted above renumbers the literal: it is found by the names it shares.
    later = PARENT.replace('        if arch in ["YForCausalLM"',
                           '        if arch == "TForCausalLM":\n            pass\n'
                           '        if arch in ["YForCausalLM", "WForCausalLM"')
    assert _judge("ARC105", "WForCausalLM", PARENT, later, "Config.__init__#1") is True
    # The name is in the function, in another test: the literal asked to hold it does not.
    assert _judge("ARC105", "VForCausalLM", PARENT, later, "Config.__init__#1") is False
    assert _judge("ARC105", "YForCausalLM", PARENT, PARENT.replace('"XForCausalLM"', '"XForCausalLM", "QForCausalLM"'),
                  "A_ARCHS") is False
    assert _judge("ARC105", "QForCausalLM", PARENT, PARENT.replace('"XForCausalLM"', '"XForCausalLM", "QForCausalLM"'),
                  "A_ARCHS") is True


def test_an_unknown_name_is_confirmed_when_the_literal_holds_a_respelling_in_its_place():
    later = PARENT.replace('"ZForCausalLM"', '"Z2ForCausalLM"')
    assert _judge("ARC201", "ZForCausalLM", PARENT, later, "Config.__init__#1") is True
    assert _judge("ARC201", "YForCausalLM", PARENT, later, "Config.__init__#1") is False
    # dropped with nothing like it in its place (a model no longer served, while the list grew): neither
    dropped = PARENT.replace('["YForCausalLM", "ZForCausalLM"]', '["YForCausalLM", "KestrelForConditionalGeneration"]')
    assert _judge("ARC201", "ZForCausalLM", PARENT, dropped, "Config.__init__#1") is None


def test_a_subject_gone_or_built_elsewhere_cannot_be_judged():
    assert _judge("ARC105", "QForCausalLM", PARENT, PARENT.replace("A_ARCHS", "B_ARCHS"), "A_ARCHS") is None
    imported = "from pkg.base import BASE\nA_ARCHS = [*BASE, \"XForCausalLM\"]\n"
    assert _judge("ARC105", "QForCausalLM", PARENT, imported, "A_ARCHS") is None
    assert _judge("ARC105", "XForCausalLM", PARENT, imported, "A_ARCHS") is True
    # names referred to in the same file are followed
    local = 'BASE = ["QForCausalLM"]\nA_ARCHS = [*BASE, "XForCausalLM"]\n'
    assert _judge("ARC105", "QForCausalLM", PARENT, local, "A_ARCHS") is True


def test_a_missed_model_type_is_told_apart_from_an_unregistered_name():
    case = Case("x-h001", "x", "github:o/x", "f" * 40, "p" * 40, ".", "serve/kv.py", "uses_mla",
                ("deepseek_v3", "glm4_moe"), "drift", False)
    inventory = {"registered": [{"name": "DeepseekV3ForCausalLM"}],
                 "subjects": [{"path": "serve/kv.py", "name": "uses_mla#1", "names": 2}],
                 "model_types": {"deepseek_v3": ["DeepseekV3ForCausalLM"], "glm4_moe": []}}
    assert why_missed(case, inventory) == \
        "a model type naming no architecture registered at the parent (zero-config): glm4_moe"
    inventory["model_types"]["glm4_moe"] = ["Glm4MoeForCausalLM"]  # both name registered architectures
    assert why_missed(case, inventory) == "no evidence ties the names to what the subject holds"
    del inventory["model_types"]["glm4_moe"]  # no list at the parent writes it, and nothing registered is its
    assert why_missed(case, inventory) == \
        "model types that neither the lists at the parent nor archsync's table tie to a registered architecture: " \
        "glm4_moe"
    # archsync's table ties it to an architecture the parent registers: the subject and the evidence say why
    inventory["registered"].append({"name": "Glm4MoeForCausalLM"})
    assert why_missed(case, inventory) == "no evidence ties the names to what the subject holds"
    inventory["subjects"] = []
    assert why_missed(case, inventory) == "the subject is not read as a subject"
    inventory["registered"] = []  # a project that serves what transformers loads registers no name
    assert why_missed(case, inventory) == "nothing is registered at the parent (zero-config): no list is checked"
