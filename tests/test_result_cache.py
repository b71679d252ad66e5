"""The result cache: a warm run prints exactly what a cold run prints, whatever changed between them.

One project (the SGLang seed) goes through a sequence of edits: nothing, a touch, a comment in a
file no diagnostic points into and its revert, a comment and a `# noqa` in the file the
diagnostics point into, a change to a dependency of the reported subject (the predicate in
another file), a fixed whitelist, a configuration change and its revert, a file added and
removed. After each one, the run that decides from the stored report (in process, so it can say
whether it reused the report) must give the lines of `archsync check --no-cache`, and the
console script, reading the cache it left, must print byte for byte what the cold run printed:
stdout, stderr and the exit code, as text and as JSON.

Then the stored file under attack: corrupt, tampered, foreign, or beside an index cache that is
not the one it was written with; each costs at most one warning, is rebuilt, and changes nothing.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Dict

import pytest

import lint_plugin.project.index as index_module
from conftest import SGLANG_BUG, age_files, archsync, copy_tree
from lint_plugin import pipeline
from lint_plugin.config import load_config
from lint_plugin.frontends.formats import render
from lint_plugin.project.cache_paths import index_file, result_file
from lint_plugin.project.sealed import opened

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL = "sglang/srt/models/qwen3_5.py"
PREDICATES = "sglang/srt/configs/model_config.py"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    root = copy_tree(SGLANG_BUG, tmp_path / "sglang")
    age_files(root)
    monkeypatch.chdir(root)  # the in-process run prints paths as the console script does from here
    return root


def result_path(root: Path) -> Path:
    config = load_config(root)
    return root / result_file(config.cache_dir, config.fingerprint(), True)


def same_as_cold(root: Path, reused: bool) -> str:
    """The deciding run reuses the stored report or not, as said, and every output equals the cold run's."""
    cold = archsync("check", "--no-cache", cwd=root)
    cold_json = archsync("check", "--no-cache", "--format", "json", cwd=root)
    found = pipeline.run_projects(pipeline.Request((root,), reuse=True))
    assert found.reused is reused, f"expected reused={reused}\n{cold}"
    assert render("text", found.diagnostics, root) == cold.stdout, cold
    warm = archsync("check", cwd=root)
    assert (warm.stdout, warm.stderr, warm.returncode) == (cold.stdout, cold.stderr, cold.returncode), (warm, cold)
    warm_json = archsync("check", "--format", "json", cwd=root)
    assert (warm_json.stdout, warm_json.returncode) == (cold_json.stdout, cold_json.returncode), warm_json
    return cold.stdout


def edit(root: Path, rel: str, change: Callable[[str], str]) -> Callable[[], None]:
    """Apply `change` to a file now; the returned function puts its text back (with a new mtime)."""
    path = root / rel
    before = path.read_text(encoding="utf-8")
    path.write_text(change(before), encoding="utf-8")
    return lambda: path.write_text(before, encoding="utf-8")


def test_warm_equals_cold_through_edits(project):
    first = same_as_cold(project, reused=False)  # nothing stored yet
    assert first.count(": ARC101 ") == 1 and first.count("_MAMBA_") == 2, first  # one cause, two lists
    assert same_as_cold(project, reused=True) == first

    os.utime(project / MODEL)  # a touch: new mtime, same bytes
    assert same_as_cold(project, reused=True) == first

    # a comment at the end of a model file: same signals, same facts, no diagnostic there
    revert = edit(project, MODEL, lambda text: text + "# a comment\n")
    assert same_as_cold(project, reused=True) == first
    revert()
    assert same_as_cold(project, reused=True) == first

    # the same comment in the file the diagnostics point into: its noqa comments are read again
    revert = edit(project, OVERRIDES, lambda text: text + "# a comment\n")
    assert same_as_cold(project, reused=False) == first
    revert = edit(project, OVERRIDES, lambda text: text.replace(
        "_MAMBA_RADIX_CACHE_ARCHS = frozenset(", "_MAMBA_RADIX_CACHE_ARCHS = frozenset(  # noqa: ARC101", 1))
    suppressed = same_as_cold(project, reused=False)
    assert suppressed.count(": ARC101 ") == 1 and "_MAMBA_RADIX" not in suppressed, suppressed
    revert()
    assert same_as_cold(project, reused=False) == first

    # a dependency of the reported subjects, in another file: the predicate's names
    revert = edit(project, PREDICATES, lambda text: text.replace('        "Qwen3_5MoeForCausalLM",\n', "", 1))
    narrower = same_as_cold(project, reused=False)
    assert narrower != first and "Qwen3_5MoeForCausalLM' is matched" not in narrower, narrower
    revert()
    assert same_as_cold(project, reused=False) == first

    # the whitelist fixed: two findings fewer
    edit(project, OVERRIDES, lambda text: text.replace(
        "_MAMBA_RADIX_CACHE_ARCHS = frozenset(\n",
        '_MAMBA_RADIX_CACHE_ARCHS = frozenset(\n    {"Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"} |\n', 1))
    fixed = same_as_cold(project, reused=False)
    assert fixed.count(": ARC101 ") == 1 and "_MAMBA_RADIX" not in fixed, fixed

    # a configuration change, and back: the stored report of the first configuration is still good
    pyproject = project / "pyproject.toml"
    before = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(before + '\n[tool.archsync]\nignore = ["ARC101"]\n', encoding="utf-8")
    ignoring = same_as_cold(project, reused=False)
    assert ": ARC101 " not in ignoring and ignoring != fixed, ignoring
    pyproject.write_text(before, encoding="utf-8")
    assert same_as_cold(project, reused=True) == fixed

    # a file added (a new text-only variant the family names), then removed
    added = project / "sglang" / "srt" / "models" / "qwen3_5_extra.py"
    added.write_text("class Qwen3_5ExtraForCausalLM:\n    pass\n\n\nEntryClass = Qwen3_5ExtraForCausalLM\n",
                     encoding="utf-8")
    moe = '        "Qwen3_5MoeForCausalLM",\n'
    edit(project, PREDICATES, lambda text: text.replace(moe, moe + '        "Qwen3_5ExtraForCausalLM",\n', 1))
    wider = same_as_cold(project, reused=False)
    assert "Qwen3_5ExtraForCausalLM" in wider, wider
    added.unlink()
    assert same_as_cold(project, reused=False) != wider


def test_a_redone_run_keys_the_files_it_read_alike_whether_or_not_it_had_a_stored_run(project, monkeypatch):
    """A file asked for its signals alone, then and now, with the same bytes takes its key from the stored run
    (nine files in ten of a large tree) instead of computing it: the keys are those a run computing every
    one of them writes."""
    computed_keys = []
    real = index_module.record_key
    monkeypatch.setattr(index_module, "record_key", lambda *args: computed_keys.append(args[0]) or real(*args))
    same_as_cold(project, reused=False)
    edit(project, MODEL, lambda text: "# moved\n" + text)  # its lines move: the run is redone
    computed_keys.clear()
    assert pipeline.run_projects(pipeline.Request((project,), reuse=True)).reused is False
    with_stored, computed_then = json.loads(opened(result_path(project).read_bytes()))["files"], len(computed_keys)
    result_path(project).unlink()  # the same run again, with no stored run to take keys from
    computed_keys.clear()
    assert pipeline.run_projects(pipeline.Request((project,), reuse=True)).reused is False
    computed = json.loads(opened(result_path(project).read_bytes()))["files"]
    assert with_stored == computed
    signals_alone = sum(1 for entry in computed if entry[4] == 0)
    assert signals_alone >= 3 and computed_then == len(computed_keys) - signals_alone, (computed_then, computed_keys)


def _store(root: Path) -> bytes:
    assert pipeline.run_projects(pipeline.Request((root,), reuse=True)).reused is False
    path = result_path(root)
    assert path.is_file(), sorted(p.name for p in path.parent.iterdir())
    return path.read_bytes()


def _retagged(raw: bytes, change: Callable[[Dict[str, object]], None]) -> bytes:
    """A document whose body was changed and whose digest was computed again: well-formed, still wrong."""
    import hashlib

    start = raw.index(b'"body":') + len(b'"body":')
    body = json.loads(raw[start:-1])
    change(body)
    data = json.dumps(body, separators=(",", ":")).encode()
    return b'{"digest":"' + hashlib.blake2b(data, digest_size=16).hexdigest().encode() + b'","body":' + data + b"}"


CORRUPTIONS: Dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda raw: b"",
    "truncated": lambda raw: raw[: len(raw) // 2],
    "garbage": lambda raw: b"\x00\xff garbage" * 40,
    "plain-json": lambda raw: b'{"schema": 1}',
    "one-byte-flipped": lambda raw: raw[:-40] + bytes([raw[-40] ^ 1]) + raw[-39:],
    "wrong-types": lambda raw: _retagged(raw, lambda body: body.update(files=[["x", "1", 2, 3, 4, 5]])),
    "diagnostics-not-lists": lambda raw: _retagged(raw, lambda body: body["report"].update(diagnostics=[7])),
    "deeply-nested": lambda raw: _retagged(raw, lambda body: body.update(read="NESTED")).replace(
        b'"NESTED"', b"[" * 100_000 + b"]" * 100_000),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupt_result_cache_is_rebuilt(project, name):
    expected = same_as_cold(project, reused=False)
    path = result_path(project)
    path.write_bytes(CORRUPTIONS[name](path.read_bytes()))
    found = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    assert found.reused is False
    assert render("text", found.diagnostics, project) == expected
    assert len(found.warnings) == 1 and "result cache" in found.warnings[0] and "corrupt" in found.warnings[0], \
        found.warnings
    again = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    assert again.reused is True  # rebuilt: the next run takes it
    assert same_as_cold(project, reused=True) == expected


def test_foreign_result_is_rebuilt_silently(project):
    """Another tool version's or configuration's document under our name is not ours: no warning."""
    raw = _store(project)
    path = result_path(project)
    for change in ({"tool": "0.0.0"}, {"config": "0" * 16}, {"noqa": False}, {"schema": 99}):
        path.write_bytes(_retagged(raw, lambda body, change=change: body.update(change)))
        found = pipeline.run_projects(pipeline.Request((project,), reuse=True))
        assert (found.reused, found.warnings) == (False, ()), change
        raw = path.read_bytes()


def test_not_reused_beside_another_index_cache(project):
    """The index cache edited or removed since the run: the run is redone (and the index rebuilt)."""
    _store(project)
    config = load_config(project)
    index = project / index_file(config.cache_dir, config.fingerprint())
    index.write_bytes(index.read_bytes()[:100])
    found = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    assert found.reused is False and len(found.warnings) == 1 and "corrupt" in found.warnings[0], found.warnings
    index.unlink()
    assert pipeline.run_projects(pipeline.Request((project,), reuse=True)).reused is False
    assert pipeline.run_projects(pipeline.Request((project,), reuse=True)).reused is True


def test_no_reuse_without_the_cache_or_for_views(project):
    _store(project)
    assert pipeline.run_projects(pipeline.Request((project,), use_cache=False, reuse=True)).reused is False
    assert pipeline.run_projects(pipeline.Request((project,))).reused is False  # the default: views need the model
    reused = pipeline.run_projects(pipeline.Request((project,), reuse=True))
    assert reused.reused is True
    # a reused report still has a model, built again when a front end asks for it
    assert {c.subject for c in reused.model.collections} >= {"_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS"}


def test_flake8_and_check_keep_their_own_reports(project):
    """flake8 leaves noqa comments to flake8: its stored report is not the one `check` prints."""
    edit(project, OVERRIDES, lambda text: text.replace(
        "_MAMBA_RADIX_CACHE_ARCHS = frozenset(", "_MAMBA_RADIX_CACHE_ARCHS = frozenset(  # noqa: ARC101", 1))
    checked = same_as_cold(project, reused=False)
    flake8_view = pipeline.run(pipeline.Request((project,), noqa=False, reuse=True))
    assert flake8_view.reused is False and len(flake8_view.diagnostics) == 4
    assert pipeline.run(pipeline.Request((project,), noqa=False, reuse=True)).reused is True
    assert same_as_cold(project, reused=True) == checked
