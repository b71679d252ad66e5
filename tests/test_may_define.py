"""A module that surely neither defines nor imports a name is not parsed to learn it is no predicate (in-process).

A factory (`return FlashAttentionBackend(runner)`) reads as a predicate delegating to what it calls;
resolution then parsed the module of the class whole to find no predicate there (48 modules, 1.6 MB of
SGLang, in the parent process). Its bytes say so (`bindings.may_bind`: no `def NAME`, no import
binding it, no star import). A run that relied on the bytes keys that module by them in the result
cache, so an edit that leaves its byte signals as they were is still seen by the next run.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lint_plugin import pipeline
from lint_plugin.config import load_config
from lint_plugin.extract.bindings import may_bind
from lint_plugin.project.discovery import discover
from lint_plugin.project.index import ProjectIndex
from lint_plugin.resolve import build_model, choose_files

BINDS = [  # the module may define or import `Helper`
    "def Helper(config):\n    return True\n",
    "if True:\n    async def Helper(config):\n        return True\n",
    "def \\\n        Helper(config):\n    pass\n",
    "from pkg.impl import Helper\n",
    "from pkg.impl import Other as Helper\n",
    "from pkg.impl import (\n    Other,  # see f()\n    Helper,\n)\n",
    "import pkg.impl as Helper\n",
    "try:\n    from pkg.impl import Helper\nexcept ImportError:\n    pass\n",
    "from pkg.impl import *\n",
    "import a; from pkg.impl import \\\n    Helper\n",
]
UNBOUND = [  # it surely does neither
    "class Helper:\n    def __init__(self, config):\n        self.config = config\n",
    "from pkg.impl import HelperBase\n\n\nclass Helper(HelperBase):\n    pass\n",
    "import pkg.helper_utils\n\n\ndef make_helper(config):\n    return Helper(config)\n",
]


@pytest.mark.parametrize("source", BINDS)
def test_a_module_that_may_bind_the_name(source):
    assert may_bind(source.encode(), "Helper"), source


@pytest.mark.parametrize("source", UNBOUND)
def test_a_module_that_surely_does_not(source):
    assert not may_bind(source.encode(), "Helper"), source


def test_a_dotted_or_non_ascii_name_is_not_told_from_the_bytes():
    assert may_bind(b"class Helper:\n    pass\n", "Helper.run")
    assert may_bind("class Caf\u00e9:\n    pass\n".encode(), "Caf\u00e9")


FILES = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/models.py": "class AlphaForCausalLM:\n    pass\n\n\nclass AlphaMoeForCausalLM:\n    pass\n\n\n"
                     "EntryClass = [AlphaForCausalLM, AlphaMoeForCausalLM]\n",
    "pkg/overrides.py": '_LONG_CONTEXT_ARCHS = frozenset({"AlphaForCausalLM"})\n',
    # quotes a registered name, so it is read, and its factory delegates to what it calls
    "pkg/factory.py": 'from pkg.helpers import Helper\n\nDEFAULT = "AlphaForCausalLM"\n\n\n'
                      "def make(config):\n    return Helper(config)\n",
    "pkg/helpers.py": "def _inner(config):\n    return config\n\n\nclass Helper:\n    pass\n",
}


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    then = time.time() - 86_400  # a checkout is not seconds old: files are trusted by size and mtime
    for rel, text in FILES.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.utime(path, (then, then))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_module_of_a_class_a_factory_calls_is_not_parsed(project):
    config = load_config(project)
    with ProjectIndex(config, discover(config)) as index:
        choose_files(index)
    build_model(index)
    levels = {rel: (level, record.facts) for rel, record, level in index.records()}
    assert levels["pkg/factory.py"][0] == 2
    assert levels["pkg/helpers.py"] == (3, None)  # asked of its bytes alone, and keyed by them


def test_an_edit_that_keeps_its_byte_signals_is_still_seen(project):
    """`def Helper` after the class makes it a predicate; the file's byte signals stay as they were."""
    first = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    warm = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    helpers = project / "pkg/helpers.py"
    helpers.write_text(FILES["pkg/helpers.py"] + "\n\ndef Helper(config):\n    return _inner(config)\n",
                       encoding="utf-8")
    os.utime(helpers, (time.time() - 3_600, time.time() - 3_600))
    again = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    cold = pipeline.run_projects(pipeline.Request((project,), use_cache=False))
    assert (first.reused, warm.reused, again.reused) == (False, True, False)
    assert again.diagnostics == cold.diagnostics


DELEGATING = {
    **FILES,
    # a family predicate that delegates to another module's function, through a re-export: resolution
    # reads that module whole to learn what the function tests (here: no architecture name)
    "pkg/families.py": "from pkg.arch import is_sparse\n\n\ndef is_alpha(config):\n"
                       '    return is_sparse(config) or config.architectures[0] in ("AlphaForCausalLM", '
                       '"AlphaMoeForCausalLM")\n',
    "pkg/arch.py": "from pkg.arch_impl import is_sparse\n",
    "pkg/arch_impl.py": "def is_sparse(config):\n    return config.num_experts > 0\n",
}


def _model_and_levels(root: Path, batched: bool, monkeypatch):
    from lint_plugin.resolve import model as resolve_model

    asked: list = []
    original = ProjectIndex._complete
    monkeypatch.setattr(ProjectIndex, "_complete",
                        lambda self, source: asked.append(source.rel) or original(self, source))
    if not batched:
        monkeypatch.setattr(resolve_model, "_extract_delegates", lambda index: None)  # as the resolver reaches each
    config = load_config(root)
    with ProjectIndex(config, discover(config)) as index:
        choose_files(index)
        model, _ = build_model(index)
    monkeypatch.undo()
    return model, {rel: level for rel, _, level in index.records()}, asked


def test_the_modules_predicates_delegate_to_are_extracted_in_one_batch(tmp_path, monkeypatch):
    """Before resolution, not one by one as it reaches them: along the re-export too. What resolution
    asks of each module, and so what the result cache keys it by, is what it was."""
    for rel, text in DELEGATING.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    batched, levels, asked = _model_and_levels(tmp_path, True, monkeypatch)
    one_by_one, levels_then, asked_then = _model_and_levels(tmp_path, False, monkeypatch)
    assert sorted(asked_then) == ["pkg/arch.py", "pkg/arch_impl.py"] and asked == []
    assert batched.predicates == one_by_one.predicates and batched.families == one_by_one.families
    assert batched.predicates["is_alpha"].names == {"AlphaForCausalLM", "AlphaMoeForCausalLM"}
    assert levels == levels_then and levels["pkg/arch_impl.py"] == 2 and levels["pkg/helpers.py"] == 3
