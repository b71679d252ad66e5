"""A file read in part for its lists of model types is keyed by those lists, not by its bytes (in-process).

A model file chosen for its registrations that also tests a model type (`config.model_type in (...)`)
is read in part for that list (`ProjectIndex.model_typed`): level 5 in the result cache, its
registrations and its lists of model types; a file read for its lists alone is level 4. Keyed by its
bytes, as they once were, any edit of such a file (a comment) redid the whole run: on SGLang, a
comment appended to `models/qwen3_5.py` cost 1.1 s instead of 0.25 s. Keyed by what the run read, a
comment leaves the stored run standing, and an edit of a list is a new run, in the CLI's result
cache and in the language server's session alike.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from conftest import age_files, write
from lint_plugin import pipeline
from lint_plugin.config import load_config
from lint_plugin.project.discovery import discover
from lint_plugin.project.files import encode_as_source
from lint_plugin.project.index import ProjectIndex
from lint_plugin.resolve import build_model, choose_files
from lint_plugin.session import Session

MODELS = "pkg/models/qwen3.py"
ATTENTION = "pkg/attention.py"
QUANT = "pkg/quant.py"
FILES = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/models/__init__.py": "",
    MODELS: "class Qwen3ForCausalLM:\n    pass\n\n\nclass Qwen3MoeForCausalLM(Qwen3ForCausalLM):\n    pass\n\n\n"
            "def uses_sliding_window(config):\n"
            "    return config.model_type in (\"qwen3\", \"qwen3_moe\", \"llama\")\n\n\n"
            "EntryClass = [Qwen3ForCausalLM, Qwen3MoeForCausalLM]\n",
    "pkg/models/llama.py": "class LlamaForCausalLM:\n    pass\n\n\nEntryClass = LlamaForCausalLM\n",
    "pkg/families.py": "def is_qwen3(config):\n"
                       "    return config.architectures[0] in (\"Qwen3ForCausalLM\", \"Qwen3MoeForCausalLM\")\n",
    ATTENTION: "def pick_backend(hf_config):\n    if hf_config.model_type in (\"qwen3\", \"llama\"):\n"
               "        return \"flash\"\n    return \"sdpa\"\n",
    QUANT: "def packs_experts(hf_config):\n    return hf_config.model_type in (\"qwen3\", \"qwen3_moe\")\n",
    "pkg/runner.py": "from pkg.attention import pick_backend\nfrom pkg.models.qwen3 import uses_sliding_window\n"
                     "from pkg.quant import packs_experts\n\n\n"
                     "def plan(config):\n"
                     "    return pick_backend(config), uses_sliding_window(config), packs_experts(config)\n",
}
FOUND = [  # a file with a finding is read again by the report stage (its suppressions): edits go elsewhere
    "pkg/attention.py:2:32: ARC101 'qwen3_moe' (the model type of Qwen3MoeForCausalLM) is matched by is_qwen3() "
    "(pkg/families.py:1) but missing from pick_backend#1",
]
NARROWED = FILES[MODELS].replace('("qwen3", "qwen3_moe", "llama")', '("qwen3", "llama")')
NOW_FOUND = FOUND + [
    "pkg/models/qwen3.py:10:33: ARC101 'qwen3_moe' (the model type of Qwen3MoeForCausalLM) is matched by "
    "is_qwen3() (pkg/families.py:1) but missing from uses_sliding_window#1"]


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    for rel, text in FILES.items():
        write(tmp_path / rel, text)
    age_files(tmp_path)  # a checkout is not seconds old: files are trusted by size and mtime
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lines(report: pipeline.Report):
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.text}" for d in report.diagnostics]


def save(project: Path, rel: str, text: str) -> None:
    (project / rel).write_text(text, encoding="utf-8")
    os.utime(project / rel, (time.time() - 3_600, time.time() - 3_600))


def test_the_files_read_in_part_for_model_types_are_levels_4_and_5(project):
    config = load_config(project)
    with ProjectIndex(config, discover(config)) as index:
        choose_files(index)
    build_model(index)
    levels = {rel: level for rel, _, level in index.records()}
    assert (levels[ATTENTION], levels[QUANT], levels[MODELS], levels["pkg/models/llama.py"]) == (4, 4, 5, 1)


def test_a_comment_leaves_the_stored_run_standing_and_an_edit_of_a_list_does_not(project):
    def run(**options) -> pipeline.Report:
        return pipeline.run_projects(pipeline.Request((project,), reuse=True, **options))

    first, warm = run(), run()
    save(project, MODELS, FILES[MODELS] + "# a comment\n")
    commented = run()
    save(project, QUANT, FILES[QUANT] + "# a comment\n")
    both = run()
    save(project, MODELS, NARROWED)
    narrowed = run()
    cold = run(use_cache=False)
    assert [r.reused for r in (first, warm, commented, both, narrowed)] == [False, True, True, True, False]
    assert lines(first) == lines(commented) == lines(both) == FOUND
    assert lines(narrowed) == lines(cold) == NOW_FOUND


def test_the_session_reports_again_after_a_comment_and_runs_after_an_edit_of_a_list(project):
    session = Session(project)
    assert lines(session.check({}, None)) == FOUND
    commented = session.check({MODELS: encode_as_source(FILES[MODELS] + "# a comment\n"),
                               QUANT: encode_as_source(FILES[QUANT] + "# a comment\n")}, None)
    narrowed = session.check({MODELS: encode_as_source(NARROWED)}, None)
    assert (commented.reused, narrowed.reused) == (True, False)
    assert lines(commented) == FOUND
    assert lines(narrowed) == NOW_FOUND
