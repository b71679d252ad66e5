"""The replay corpus (bench/history/corpus.json) and how the replay matches a diagnostic to a case."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.history.replay import Case, in_subject, judge_case, load_corpus, scope_source  # noqa: E402

KINDS = {"drift", "upstream", "unregistered", "new-model"}


def test_every_case_is_facts_about_a_commit():
    cases = load_corpus()
    assert len(cases) == 95
    assert len({c.id for c in cases}) == len(cases)
    assert sum(1 for c in cases if c.kind == "drift") == 61
    for case in cases:
        assert re.fullmatch(r"[0-9a-f]{40}", case.fix) and re.fullmatch(r"[0-9a-f]{40}", case.parent), case.id
        assert case.kind in KINDS and case.names and case.file.endswith(".py"), case.id


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


def test_later_history_is_read_in_the_scope_of_the_subject():
    source = ('A_ARCHS = ["X"]\n\n\nclass Config:\n    def __init__(self, arch):\n'
              '        if arch in ["Y", "Z"]:\n            pass\n\n\ndef f():\n    local = {"W"}\n')
    assert scope_source(source, "A_ARCHS") == 'A_ARCHS = ["X"]'
    assert '"Z"' in scope_source(source, "Config.__init__#1") and '"X"' not in scope_source(source, "Config.__init__#1")
    assert scope_source(source, "f.local") == 'local = {"W"}'
    assert scope_source(source, "missing") is None
