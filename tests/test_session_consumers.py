"""The language server's session judges who reads a subject as a cold run does, after a run it redoes.

Who reads a subject is searched in the files whose imports reach its module (`resolve/consumers.py`,
through the selection's `Reachers`). A run the session redoes from its memory replays the last
selection (`memory_choice.py`); it used to do so without the reachers, and then searched every file:
a comment naming the list in a file that never imports it counted as a reader, and the session
completed a list a cold run leaves alone (and read every file's bytes, 0.14 s of SGLang's 0.44 s).
"""
from __future__ import annotations

from pathlib import Path

from conftest import age_files, write
from lint_plugin import pipeline
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
