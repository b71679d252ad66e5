"""What a plain `archsync check --no-cache` loads: only what its run uses.

On a small tree starting Python and importing archsync is most of a run, so what a check never
uses is imported where it is used: the worker pool (multiprocessing, with pickle, socket and
subprocess) only for a tree worth one, hashlib (OpenSSL) only for a cache's digests, the writer's
ctypes only to swap a file, difflib only for a did-you-mean, and nothing of the fixer or the
language server. Read from `python -X importtime` of the real console script.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Tuple

import pytest

from conftest import ARCHSYNC, EXIT_FINDINGS, SGLANG_BUG, Result, age_files, copy_tree, run

pytestmark = pytest.mark.e2e  # every test here runs a real process

NOT_FOR_A_CHECK = ("multiprocessing", "pickle", "socket", "subprocess", "tempfile", "hashlib", "_hashlib", "ctypes",
                   "secrets", "difflib", "shutil", "glob", "textwrap", "libcst", "lint_plugin.fix",
                   "lint_plugin.frontends.lsp", "lint_plugin.frontends.commands.fix")

# the bundled seed case's own expectation, as its folder states it
EXPECTED = [line for line in (SGLANG_BUG / "expected.txt").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


def _imported(*args: str, cwd) -> tuple:
    """The run's result, and the modules it imported beyond those the bare interpreter imports as it starts
    (Python 3.9's `importlib.util`, which an editable install's finder loads, imports `typing`)."""
    result = run([sys.executable, "-X", "importtime", ARCHSYNC, *args], cwd)
    bare = run([sys.executable, "-X", "importtime", "-c", "pass"], cwd)
    return result, _modules(result.stderr) - _modules(bare.stderr)


def _modules(stderr: str) -> set:
    return {line.split("|")[-1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def test_a_check_without_cache_imports_nothing_it_does_not_use():
    result, modules = _imported("check", "--no-cache", ".", cwd=SGLANG_BUG)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.lines == EXPECTED, result
    assert "lint_plugin.project.index" in modules  # the run did analyse the project
    assert sorted(m for m in modules if m.split(".")[0] in NOT_FOR_A_CHECK or m in NOT_FOR_A_CHECK
                  or m.startswith(("lint_plugin.fix", "lint_plugin.frontends.lsp"))) == []


def test_a_check_of_a_hundred_small_files_starts_no_pool(tmp_path):
    """The old rule started a pool from 48 files; 100 files of one line are far less work than a pool."""
    for i in range(100):
        (tmp_path / f"m{i}.py").write_text(f'NAMES_{i} = ["LlamaForCausalLM"]\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    result, modules = _imported("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert result.returncode == 0 and result.json == {"version": 2, "root": str(tmp_path.resolve()),
                                                      "diagnostics": []}, result
    assert "multiprocessing" not in modules and "lint_plugin.project.index" in modules


def test_a_cached_check_imports_the_digests_it_needs(tmp_path):
    """The cache's digests are still there when a cache is used (the index cache is written)."""
    (tmp_path / "m.py").write_text('NAMES = ["LlamaForCausalLM"]\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    result, modules = _imported("check", ".", cwd=tmp_path)
    assert result.returncode == 0, result
    assert "hashlib" in modules and any(tmp_path.joinpath(".archsync_cache").glob("index-*.json"))


# what only a real run needs: typing, the configuration's parser, the pipeline, the rules, the formats, the result cache
NOT_FOR_A_REPLAY = ("typing", "tomllib", "tomli", "hashlib", "_hashlib", "lint_plugin.config", "lint_plugin.pipeline",
                    "lint_plugin.rules", "lint_plugin.report", "lint_plugin.extract", "lint_plugin.resolve",
                    "lint_plugin.project.results", "lint_plugin.project.discovery", "lint_plugin.frontends.formats",
                    "lint_plugin.frontends.commands.check", "argparse", "gettext", "lint_plugin.frontends.arguments")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Tuple[Path, Result, Result]:
    """The seed bug's tree checked cold, then warm once what the cold run wrote is settled: the warm run's
    answer is recorded (`frontends/replay.py`), and by content beside it (`frontends/carried.py`). Its
    two seconds of settling are shared: the tests below only replay in it (which writes nothing) or copy it."""
    root = copy_tree(SGLANG_BUG, tmp_path_factory.mktemp("recorded") / "sglang")
    age_files(root)
    cold = run([ARCHSYNC, "check"], root)  # writes the caches
    time.sleep(2.1)  # until what it wrote is older than the racy margin
    warm = run([ARCHSYNC, "check"], root)  # the result cache's answer, recorded
    return root, cold, warm


def test_a_warm_check_answers_before_importing_the_engine(recorded):
    """Nothing changed: the check replays the record of the last identical one (`frontends/replay.py`),
    byte for byte, having imported none of what a run needs."""
    root, cold, warm = recorded
    result, modules = _imported("check", cwd=root)
    said = [line for line in result.stderr.splitlines() if not line.startswith("import time:")]
    assert (result.stdout, said, result.returncode) == (warm.stdout, warm.stderr.splitlines(), warm.returncode)
    assert (result.stdout, said, result.returncode) == (cold.stdout, ["archsync: 1 problem (17 files, 3 analysed)"],
                                                        EXIT_FINDINGS)
    assert "lint_plugin.frontends.replay" in modules
    assert sorted(m for m in modules if m.split(".")[0] in NOT_FOR_A_REPLAY or m in NOT_FOR_A_REPLAY
                  or m.startswith(NOT_FOR_A_REPLAY)) == []


def test_a_fresh_clone_with_the_cache_restored_answers_before_importing_the_engine(recorded, tmp_path):
    """A CI job: the project checked out anew elsewhere (every file written now), the cache directory
    restored. The record by content (`frontends/carried.py`) answers as the cold run would, importing
    none of what a run needs but the digests; one byte changed anywhere, and the engine runs."""
    import shutil

    root = recorded[0]
    clone = shutil.copytree(root, tmp_path / "ci" / "checkout", copy_function=shutil.copyfile)
    cold = run([ARCHSYNC, "check", "--no-cache"], clone)
    result, modules = _imported("check", cwd=clone)
    said = [line for line in result.stderr.splitlines() if not line.startswith("import time:")]
    assert (result.stdout, said, result.returncode) == (cold.stdout, ["archsync: 1 problem (17 files, 3 analysed)"],
                                                        EXIT_FINDINGS)
    assert "lint_plugin.frontends.carried" in modules
    assert sorted(m for m in modules if m.split(".")[0] in NOT_FOR_A_REPLAY or m in NOT_FOR_A_REPLAY
                  or m.startswith(NOT_FOR_A_REPLAY)) == ["_hashlib", "hashlib"]
    edited = shutil.copytree(root, tmp_path / "ci" / "edited", copy_function=shutil.copyfile)
    data = (edited / "sglang" / "__init__.py").read_bytes()
    (edited / "sglang" / "__init__.py").write_bytes(data + b" " if data else b"#")
    result, modules = _imported("check", cwd=edited)
    assert result.stdout == cold.stdout and "lint_plugin.pipeline" in modules
