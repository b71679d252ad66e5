"""The language server's session judges who reads a subject as a cold run does, after a run it redoes.

Who reads a subject is searched in the files whose imports reach its module (`resolve/consumers.py`,
through the selection's `Reachers`). A run the session redoes from its memory replays the last
selection (`memory_choice.py`); it used to do so without the reachers, and then searched every file:
a comment naming the list in a file that never imports it counted as a reader, and the session
completed a list a cold run leaves alone (and read every file's bytes, 0.14 s of SGLang's 0.44 s).
"""
from __future__ import annotations

from pathlib import Path
from typing import List

from conftest import age_files, write
from lint_plugin import pipeline
from lint_plugin.frontends.formats import render
from lint_plugin.project.files import encode_as_source
from lint_plugin.session import Session

MODELS = "pkg/models.py"
FILES = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    MODELS: "class AlphaForCausalLM:\n    pass\n\n\nclass AlphaMoeForCausalLM(AlphaForCausalLM):\n    pass\n\n\n"
            "class BetaForCausalLM:\n    pass\n\n\n"
            "EntryClass = [AlphaForCausalLM, AlphaMoeForCausalLM, BetaForCausalLM]\n",
    "pkg/families.py": "def is_alpha(arch):\n    return arch in (\"AlphaForCausalLM\", \"AlphaMoeForCausalLM\")\n",
    "pkg/gate.py": "_fast = [\"AlphaForCausalLM\", \"BetaForCausalLM\"]\n",
    # names the list in a comment, and imports nothing of the module that defines it: no reader
    "pkg/notes.py": "# _fast once listed the models with a fused kernel\nNOTE = \"see the kernels\"\n",
}


def test_a_redone_run_finds_the_readers_a_cold_run_finds(tmp_path: Path):
    for rel, text in FILES.items():
        write(tmp_path / rel, text)
    age_files(tmp_path)
    session = Session(tmp_path)
    first = session.check({}, None)
    moved = session.check({MODELS: encode_as_source("# the models\n" + FILES[MODELS])}, None)
    write(tmp_path / MODELS, "# the models\n" + FILES[MODELS])
    cold = pipeline.run_projects(pipeline.Request((tmp_path,), use_cache=False))
    assert (first.diagnostics, moved.reused) == ((), False)
    assert moved.diagnostics == cold.diagnostics == ()


USE = "pkg/use.py"
USES_THE_MODULE = "from pkg import gate\n\nLIMIT = 4\n"
# calls the list through its module: no string, no import added, so the file's record stands
READER = "\n\ndef fast_models():\n    return gate._fast\n"
FOUND = ["pkg/gate.py:1:1: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (pkg/families.py:1) but missing "
         "from _fast"]


def _lines(report: pipeline.Report) -> List[str]:
    return render("text", report.diagnostics, report.root).splitlines()


def _with_use(root: Path, monkeypatch) -> None:
    monkeypatch.chdir(root)  # paths printed as from the project's root
    for rel, text in {**FILES, USE: USES_THE_MODULE}.items():
        write(root / rel, text)
    age_files(root)


def test_the_session_sees_a_reader_come_and_go_in_a_file_whose_record_stands(tmp_path: Path, monkeypatch):
    """What the search for readers counted in a file is what the run depends on there, besides its record."""
    _with_use(tmp_path, monkeypatch)
    session = Session(tmp_path)
    assert _lines(session.check({}, None)) == []
    read = session.check({USE: encode_as_source(USES_THE_MODULE + READER)}, None)
    assert (read.reused, _lines(read)) == (False, FOUND)
    commented = session.check({USE: encode_as_source(USES_THE_MODULE + READER + "# fast paths\n")}, None)
    assert (commented.reused, _lines(commented)) == (True, FOUND)
    gone = session.check({USE: encode_as_source(USES_THE_MODULE + "# the fast path went\n")}, None)
    assert (gone.reused, _lines(gone)) == (False, [])


def test_the_result_cache_sees_a_reader_come_and_go_in_a_file_whose_record_stands(tmp_path: Path, monkeypatch):
    _with_use(tmp_path, monkeypatch)

    def run() -> pipeline.Report:
        warm = pipeline.run_projects(pipeline.Request((tmp_path,), reuse=True))
        assert _lines(warm) == _lines(pipeline.run_projects(pipeline.Request((tmp_path,), use_cache=False)))
        return warm

    assert (run().reused, _lines(run()), run().reused) == (False, [], True)
    write(tmp_path / USE, USES_THE_MODULE + READER)
    read = run()
    assert (read.reused, _lines(read)) == (False, FOUND)
    write(tmp_path / USE, USES_THE_MODULE + READER + "# fast paths\n")
    assert (run().reused, _lines(run())) == (True, FOUND)
    write(tmp_path / USE, USES_THE_MODULE + "# the fast path went\n")
    gone = run()
    assert (gone.reused, _lines(gone)) == (False, [])
