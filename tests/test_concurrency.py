"""Many processes, one tree, one cache: 8 `archsync check` and one `flake8 -j 4` at once, 6 rounds.

Every run in every round must print exactly what `archsync check --no-cache` printed before the
rounds began (flake8: the same diagnostics, as flake8 formats them), with no warning and no
traceback, and the cache left after each round must be one the engine's own loader accepts.
Before each round the cache is deleted, kept, invalidated by touching every file (mtimes become
"racy" and every process rewrites it), or made trustworthy by ageing every file (`START`), so the
rounds cover each start once: cold with fresh and with aged files, warm with racy and with trusted
entries, every entry rewritten, and many concurrent writers racing on the same cache file.
The tree has more than 48 analysed modules, so each process also parses with its worker pool.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from lint_plugin import __version__
from lint_plugin.config import load_config
from lint_plugin.project.cache import IndexCache
from lint_plugin.project.cache_paths import PYTHON

pytestmark = pytest.mark.e2e  # every test here runs a real process

ARCHSYNC = Path(sys.executable).parent / "archsync"
# How each round begins: what it finds is what the rounds before it left.
START = (
    "cold",  # no cache: the files as make_tree wrote them
    "keep",  # a warm start on the cache the cold round wrote
    "touch",  # every mtime now (racy): every process hashes every file and rewrites the cache
    "age",  # every mtime a day ago: every stamp moved, each file hashed again, trusted by size and mtime after
    "keep",  # a warm start on the entries the aged round wrote
    "cold",  # no cache, every file aged
)
ROUNDS = len(START)
CHECKERS = 8

MODELS = (
    "class Qwen3_5ForCausalLM:\n    pass\n\n\n"
    "class Qwen3_5ForConditionalGeneration:\n    pass\n\n\n"
    "EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]\n"
)
PREDICATE = ('def is_qwen3_5(config): return config.architectures[0] in '
             '("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")\n')
GUARDED = 'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
HEALTHY = ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
           "but missing from X_ARCHS")


def make_tree(root: Path) -> Path:
    (root / "pkg" / "gen").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "models.py").write_text(MODELS)
    (root / "pkg" / "config.py").write_text(PREDICATE)
    (root / "pkg" / "overrides.py").write_text(GUARDED)
    (root / "pkg" / "gen" / "__init__.py").write_text("")
    for i in range(60):
        members = ['"Qwen3_5ForConditionalGeneration"']
        if i % 3:
            members.append('"Qwen3_5ForCausalLM"')  # complete: no finding
        if i % 7 == 0:
            members.append('"Qwen3_5ForCausalLMM"')  # a typo: ARC201
        text = f"from pkg.overrides import X_ARCHS\n\nG{i}_ARCHS = frozenset({{{', '.join(members)}}})\n"
        if i % 5 == 0:
            text += f"\nU{i}_ARCHS = G{i}_ARCHS | X_ARCHS\n"
        (root / "pkg" / "gen" / f"m{i:02d}.py").write_text(text)
    return root


def _env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _set_mtimes(root: Path, when: float) -> None:
    for path in root.rglob("*.py"):
        os.utime(path, (when, when))


def _assert_valid_cache(root: Path) -> None:
    config = load_config(root)
    path = root / config.cache_dir / f"index-{__version__}-{PYTHON}-{config.fingerprint()}.json"
    document = json.loads(path.read_bytes())  # complete JSON, never a torn write
    assert document["tool"] == __version__
    cache = IndexCache(root, config.cache_dir, config.fingerprint())
    entries = cache.load()
    assert cache.warnings == [], cache.warnings
    assert len(entries) == len(list(root.rglob("*.py"))), sorted(entries)
    leftovers = list(path.parent.glob(".index-*.archsync-*.tmp"))
    assert leftovers == [], f"temporary files left behind: {leftovers}"


def _sorted_flake8(stdout: str) -> List[str]:
    return sorted(line[2:] if line.startswith("./") else line for line in stdout.splitlines() if line.strip())


def test_eight_checkers_and_flake8_j4_at_once_for_six_rounds(tmp_path):
    root = make_tree(tmp_path / "proj")
    baseline = subprocess.run([str(ARCHSYNC), "check", "--no-cache"], cwd=root, env=_env(),
                              capture_output=True, text=True, timeout=120)
    assert baseline.returncode == 1 and "Traceback" not in baseline.stderr, baseline.stderr
    assert HEALTHY in baseline.stdout.splitlines()
    expected_flake8 = sorted(line for line in baseline.stdout.splitlines() if line.strip())
    assert len(expected_flake8) > 20, baseline.stdout
    assert not (root / ".archsync_cache").exists()

    started = time.monotonic()
    runs = 0
    for round_no, start in enumerate(START):
        if start == "cold":
            shutil.rmtree(root / ".archsync_cache", ignore_errors=True)
        elif start == "touch":
            _set_mtimes(root, time.time())
        elif start == "age":
            _set_mtimes(root, time.time() - 86_400)

        processes = [
            subprocess.Popen([str(ARCHSYNC), "check"], cwd=root, env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(CHECKERS)
        ]
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "flake8", "--isolated", "--select=ARC", "-j", "4", "."], cwd=root, env=_env(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        outputs = [p.communicate(timeout=180) for p in processes]
        runs += len(processes)

        for i, ((stdout, stderr), process) in enumerate(zip(outputs, processes)):
            where = f"round {round_no}, process {i}"
            assert "Traceback" not in stderr and "Traceback" not in stdout, f"{where}:\n{stderr}"
            assert process.returncode == 1, f"{where}: exit {process.returncode}\n{stderr}"
            if i < CHECKERS:
                assert stdout == baseline.stdout, f"{where}: output differs\n{stdout}\n--- expected\n{baseline.stdout}"
                assert stderr == baseline.stderr, f"{where}: stderr differs\n{stderr}"
            else:
                assert _sorted_flake8(stdout) == expected_flake8, f"{where} (flake8): output differs\n{stdout}"
                assert stderr == "", f"{where} (flake8):\n{stderr}"
        _assert_valid_cache(root)

    assert runs == ROUNDS * (CHECKERS + 1)
    # After all that, a warm run still agrees.
    final = subprocess.run([str(ARCHSYNC), "check"], cwd=root, env=_env(), capture_output=True, text=True, timeout=120)
    assert (final.stdout, final.stderr, final.returncode) == (baseline.stdout, baseline.stderr, 1)
    elapsed = time.monotonic() - started
    print(f"{ROUNDS} rounds x ({CHECKERS} archsync + flake8 -j 4) = {runs} processes in {elapsed:.1f} s")
