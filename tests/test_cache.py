"""The index cache under attack: corrupt, foreign, unwritable, missing, full, stale.

Each test runs the real `archsync` console script on a small project in tmp_path (one
healthy ARC101 is always expected) and compares with `archsync check --no-cache` on the same
tree: the diagnostics and the exit code must be identical, stderr may carry at most one
`archsync: warning:` line besides the summary, never a traceback, and wherever the cache
directory is writable a valid cache must be left behind (one the engine's own loader
accepts without a warning, and a following run uses silently).

Design points taken as given (from lint_plugin/cache.py): one JSON file per tool version and
configuration fingerprint, `<cache-dir>/index-<version>-<fingerprint>.json`; a file is
trusted when size and mtime match and the mtime is older than the cache write by more than
2 s (racy-git protection), otherwise its bytes are hashed.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Sequence, Tuple

import pytest

import lint_plugin.project.index as index_module
from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    Result,
    age_files,
    archsync,
    archsync_process,
    flake8,
    unprivileged,
)
from lint_plugin import __version__
from lint_plugin.config import load_config
from lint_plugin.config.cache_dir import foreign_entries
from lint_plugin.project.cache import IndexCache
from lint_plugin.project.cache_paths import PYTHON
from lint_plugin.project.file_stamp import file_stamp

MODELS = (
    "class Qwen3_5ForCausalLM:\n    pass\n\n\n"
    "class Qwen3_5ForConditionalGeneration:\n    pass\n\n\n"
    "EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]\n"
)
PREDICATE = ('def is_qwen3_5(config): return config.architectures[0] in '
             '("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")\n')
GUARDED = 'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
SUMMARY = re.compile(r"archsync: (?:no problems|1 problem|\d+ problems) \(\d+ files?, \d+ analysed\)")


# -- the project and its cache -------------------------------------------------------------------

def make_project(root: Path, config: str = "") -> Path:
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n' + (f"\n{config.strip()}\n" if config else ""))
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "models.py").write_text(MODELS)
    (root / "pkg" / "config.py").write_text(PREDICATE)
    (root / "pkg" / "overrides.py").write_text(GUARDED)
    return root


def set_config(root: Path, config: str) -> None:
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n\n' + config.strip() + "\n")


@pytest.fixture
def project(tmp_path) -> Path:
    return make_project(tmp_path / "proj")


def cache_file(root: Path) -> Path:
    """The cache file of the project's current configuration."""
    config = load_config(root)
    return root / config.cache_dir / f"index-{__version__}-{PYTHON}-{config.fingerprint()}.json"


def assert_valid_cache(root: Path) -> None:
    """The engine's own loader accepts it without a warning, and it describes the project's files."""
    path = cache_file(root)
    assert path.is_file(), f"no cache at {path}"
    document = json.loads(path.read_bytes())
    assert isinstance(document, dict) and document.get("tool") == __version__, document
    assert {"pkg/models.py", "pkg/config.py", "pkg/overrides.py"} <= set(document["files"]), document
    cache = IndexCache(root, load_config(root).cache_dir, load_config(root).fingerprint())
    entries = cache.load()
    assert cache.warnings == [] and set(entries) == set(document["files"]), cache.warnings
    assert not list(path.parent.glob(".index-*.archsync-*.tmp")), "a temporary file was left behind"


def survives(root: Path, *, writable: bool = True, prefix: Sequence[str] = (), max_warnings: int = 1) -> Result:
    """Same result as --no-cache, at most one warning, and (if writable) a valid cache afterwards (run as
    another user, or without the right to bypass permissions, under `prefix`: then in a process)."""

    def check(*args: str) -> Result:
        if prefix:
            return archsync_process("check", *args, cwd=root, prefix=prefix)
        return archsync("check", *args, cwd=root)

    baseline = check("--no-cache")
    assert baseline.warnings == [], baseline
    result = check()
    assert result.stdout == baseline.stdout, (result, baseline)
    assert result.returncode == baseline.returncode, (result, baseline)
    assert len(result.warnings) <= max_warnings, f"more than one warning:\n{result}"
    assert result.others == baseline.others and SUMMARY.fullmatch(result.others[0]), (result, baseline)
    if writable:
        assert_valid_cache(root)
        again = check()
        assert (again.stdout, again.returncode, again.warnings) == (baseline.stdout, baseline.returncode, []), again
    return result


def warm(root: Path) -> Path:
    """A valid cache for the current tree; returns its path."""
    result = archsync("check", cwd=root)
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    assert result.warnings == [], result
    assert_valid_cache(root)
    return cache_file(root)


# -- corrupt and foreign content -----------------------------------------------------------------

def _valid_document(path: Path) -> dict:
    return json.loads(path.read_bytes())


def _entry_of(document: dict, rel: str) -> list:
    return document["files"][rel]


CORRUPTIONS = {
    "truncated": lambda raw, doc: raw[: len(raw) // 2],
    "truncated-to-one-byte": lambda raw, doc: raw[:1],
    "empty": lambda raw, doc: b"",
    "garbage-bytes": lambda raw, doc: b"\x00\xff\xfe garbage \x80\x81" * 50,
    "nul-filled": lambda raw, doc: b"\x00" * len(raw),
    "utf16": lambda raw, doc: raw.decode().encode("utf-16"),
    "json-list": lambda raw, doc: b"[1, 2, 3]",
    "json-null": lambda raw, doc: b"null",
    "json-string": lambda raw, doc: b'"index"',
    "json-empty-object": lambda raw, doc: b"{}",
    "deeply-nested-json": lambda raw, doc: b"[" * 200_000 + b"]" * 200_000,
    "wrong-schema": lambda raw, doc: json.dumps({**doc, "schema": 999}).encode(),
    "written-not-int": lambda raw, doc: json.dumps({**doc, "written": "yesterday"}).encode(),
    "files-is-list": lambda raw, doc: json.dumps({**doc, "files": [1, 2]}).encode(),
    "entry-too-short": lambda raw, doc: json.dumps(
        {**doc, "files": {**doc["files"], "pkg/config.py": [1, 2]}}).encode(),
    "entry-wrong-types": lambda raw, doc: json.dumps(
        {**doc, "files": {**doc["files"], "pkg/config.py": ["1", 2, 3, "no", "no", "x", "y", 5]}}).encode(),
    "entry-infinite-size": lambda raw, doc: json.dumps(
        {**doc, "files": {**doc["files"], "pkg/config.py": [float("inf")] + _entry_of(doc, "pkg/config.py")[1:]}}
    ).encode(),
    "facts-garbage": lambda raw, doc: json.dumps(
        {**doc, "files": {**doc["files"], "pkg/config.py": _entry_of(doc, "pkg/config.py")[:7] + [[False, [1, 2]]]}}
    ).encode(),
    "facts-of-another-file": lambda raw, doc: json.dumps(
        {**doc, "files": {**doc["files"], "pkg/config.py":
                          _entry_of(doc, "pkg/config.py")[:7] + [_entry_of(doc, "pkg/overrides.py")[7]]}}
    ).encode(),
    "typed-is-a-list": lambda raw, doc: json.dumps({**doc, "typed": [1, 2]}).encode(),
    "typed-entry-too-short": lambda raw, doc: json.dumps({**doc, "typed": {"pkg/config.py": ["x"]}}).encode(),
    "typed-facts-garbage": lambda raw, doc: json.dumps(
        {**doc, "typed": {"pkg/config.py": ["0123", [False, [1, 2]]]}}).encode(),
    "typed-facts-of-another-file": lambda raw, doc: json.dumps(
        {**doc, "typed": {"pkg/config.py": ["0123", _entry_of(doc, "pkg/overrides.py")[-1][1]]}}).encode(),
    "facts-deeply-nested": lambda raw, doc: json.dumps(
        {**doc, "files": {**doc["files"], "pkg/config.py": _entry_of(doc, "pkg/config.py")[:7] + ["NESTED"]}}
    ).encode().replace(b'"NESTED"', b"[false," + b"[" * 50_000 + b"]" * 50_000 + b"]"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupt_cache_is_survived_and_rebuilt(project, name):
    path = warm(project)
    raw = path.read_bytes()
    path.write_bytes(CORRUPTIONS[name](raw, json.loads(raw)))
    survives(project)


@pytest.mark.parametrize("aged", [False, True], ids=["fresh-files", "aged-files"])
def test_corrupt_cache_with_trusted_mtimes(project, aged):
    """Corruption when size+mtime would otherwise be trusted: still the right result."""
    if aged:
        age_files(project)
    path = warm(project)
    document = json.loads(path.read_bytes())
    # Claim facts for a file from another entry while keeping the entry's shape valid.
    document["files"]["pkg/overrides.py"][7] = document["files"]["pkg/config.py"][7]
    path.write_text(json.dumps(document))
    survives(project)


def test_another_versions_cache_file_is_ignored(project):
    path = warm(project)
    document = json.loads(path.read_bytes())
    # A different version's file beside ours (its own name) and garbage under a third name.
    other = path.with_name(path.name.replace(f"index-{__version__}-", "index-0.0.0-"))
    other.write_text(json.dumps({**document, "tool": "0.0.0"}))
    path.with_name("index-9.9.9-0000000000000000.json").write_bytes(b"\x00garbage")
    path.unlink()
    result = survives(project, max_warnings=0)
    assert other.exists(), "another version's cache is not ours to delete"
    assert result.warnings == []


def test_another_versions_content_under_our_name_is_rejected(project):
    age_files(project)
    path = warm(project)
    document = json.loads(path.read_bytes())
    # Make it claim that nothing matters in any file: trusted, that would hide the ARC101.
    for entry in document["files"].values():
        entry[3:8] = [False, False, [], [], None]
    document["tool"] = "0.0.0"
    path.write_text(json.dumps(document))
    survives(project, max_warnings=0)  # another build's cache is not corrupt: rebuilt without a word


def test_another_schemas_cache_under_our_name_is_rebuilt_without_a_warning(project):
    """A build whose facts differ (a schema bump) leaves its cache under the same name: not corrupt."""
    path = warm(project)
    path.write_text(json.dumps({**json.loads(path.read_bytes()), "schema": 1}))
    survives(project, max_warnings=0)


CONFIG_A = ""  # defaults
CONFIG_B = '[tool.archsync]\nregistries = ["Nothing"]\nguard = ["*_LIST"]\nname-pattern = "zzz"\n'
CONFIG_C = '[tool.archsync]\nguard = ["*_ARCHS", "*_LIST"]\n'


def test_switching_configurations_back_and_forth(project):
    """Each configuration keeps its own cache; switching never shows another's results."""
    age_files(project)
    (project / "pkg" / "extra.py").write_text('Y_LIST = ["Qwen3_5ForConditionalGeneration"]\n')
    expected = {}
    for config in (CONFIG_A, CONFIG_B, CONFIG_C):
        set_config(project, config)
        expected[config] = archsync("check", "--no-cache", cwd=project)
    assert expected[CONFIG_A].lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], expected[CONFIG_A]
    assert expected[CONFIG_B].lines == [], expected[CONFIG_B]  # no `Nothing` registry, no name matches "zzz"
    assert expected[CONFIG_C].lines == [
        "pkg/extra.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from Y_LIST",
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], expected[CONFIG_C]
    assert len({r.stdout for r in expected.values()}) == 3, "the three configurations should disagree"
    for config in (CONFIG_A, CONFIG_B, CONFIG_C, CONFIG_A, CONFIG_C, CONFIG_B, CONFIG_A):
        set_config(project, config)
        result = archsync("check", cwd=project)
        assert (result.stdout, result.returncode) == (expected[config].stdout, expected[config].returncode), result
        assert result.warnings == [], result
        assert_valid_cache(project)


def test_another_configurations_content_under_our_name_is_rejected(project):
    """A cache written under configuration B, renamed to A's file name (a CI cache restored
    under the wrong key, a copied directory): A must not trust B's signals and facts.

    The file name carries the fingerprint; the document itself must too (it carries the tool
    version), or this gives a wrong, silently clean result.
    """
    age_files(project)
    set_config(project, CONFIG_B)
    assert archsync("check", cwd=project).lines == []
    foreign = cache_file(project)
    set_config(project, CONFIG_A)
    ours = cache_file(project)
    assert foreign != ours
    shutil.copyfile(foreign, ours)
    result = survives(project)
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result


HYBRID = 'HYBRID_TYPES = ("qwen3_5",)\n\n\ndef is_hybrid(config):\n    return config.model_type in HYBRID_TYPES\n'


def test_a_file_read_for_its_lists_of_model_types_is_not_read_again_while_its_bytes_stand(project, monkeypatch):
    """The index cache keeps, by digest, the facts of a file read in part for its lists of model types: a run
    an edit elsewhere redoes takes them from there (31 files of SGLang, a tenth of such a run); once the file
    itself changes, it is read again."""
    (project / "pkg" / "hybrid.py").write_text(HYBRID)
    expected = ["pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
                "but missing from X_ARCHS"]
    assert archsync("check", cwd=project).lines == expected
    document = _valid_document(cache_file(project))
    assert set(document["typed"]) == {"pkg/hybrid.py"}
    assert document["typed"]["pkg/hybrid.py"][1][0] == "pkg/hybrid.py"  # its facts, as stored

    read = []
    real = index_module.model_type_facts
    monkeypatch.setattr(index_module, "model_type_facts", lambda *args: read.append(args[1].rel) or real(*args))
    (project / "pkg" / "overrides.py").write_text("\n" + GUARDED)  # its lines move: the run is redone
    assert archsync("check", cwd=project).lines == [expected[0].replace(":1:1:", ":2:1:")]
    assert read == []
    (project / "pkg" / "hybrid.py").write_text("\n" + HYBRID)
    assert archsync("check", cwd=project).lines == [expected[0].replace(":1:1:", ":2:1:")]
    assert read == ["pkg/hybrid.py"]


def test_entries_the_run_did_not_change_are_written_back_as_read(project):
    """One entry a line: a run that changed one record writes the others' text back as the file held it, and
    the document is the one that writing every entry anew gives."""
    path = warm(project)
    (project / "pkg" / "models.py").write_text("\n" + MODELS)  # its lines move: its record changes
    archsync("check", cwd=project)
    raw = path.read_bytes()
    config = load_config(project)
    cache = IndexCache(project, config.cache_dir, config.fingerprint())
    entries = cache.load()
    assert all(e.stored is not None for e in entries.values())
    assert [line for line in raw.split(b"\n")[1:-1]] == [e.stored + b"," for e in entries.values()][:-1] + \
        [entries[max(entries)].stored]
    cache.started_ns = json.loads(raw)["written"]  # the same header
    cache.save({rel: dataclasses.replace(e, stored=None) for rel, e in entries.items()}, cache.typed)
    assert path.read_bytes() == raw


def test_a_file_python_refuses_is_cached_with_its_refusal(project):
    """Why Python would not read a file is part of its record (the cache schema moved with it): a warm run
    that trusts the record reports what a cold run reports, and no record holds the facts of such a file."""
    (project / "pkg" / "latin.py").write_bytes(b'# Caf\xe9\n'
                                               b'LATIN_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    age_files(project)
    expected = [
        "pkg/latin.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, and no "
        "encoding is declared before it (PEP 263)",
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ]
    assert archsync("check", cwd=project).lines == expected
    record = IndexCache(project, load_config(project).cache_dir, load_config(project).fingerprint()).load()
    facts = record["pkg/latin.py"].decoded("pkg/latin.py").facts
    assert facts is not None and facts.collections == () and facts.error == (
        "cannot decode: byte 0xe9 on line 1 is not UTF-8, and no encoding is declared before it (PEP 263)")
    assert archsync("check", "--no-cache", cwd=project).lines == expected
    for path in project.rglob("result-*.json"):
        path.unlink()  # the index's records answer, not the last report
    assert archsync("check", cwd=project).lines == expected


# -- where the cache lives -----------------------------------------------------------------------

@pytest.mark.e2e
def test_a_file_cached_unparsed_that_becomes_unreadable_when_it_is_needed_is_arc902(project, tmp_path):
    """Found by mypy: a file whose cached record has no facts, chosen in a later run and unreadable then,
    crashed the file-choice pass (AttributeError) instead of being reported."""
    prefix = unprivileged(tmp_path)
    gate = project / "pkg" / "gate.py"
    gate.write_text('def special(arch):\n    return arch in ("LateForCausalLM",)\n')
    age_files(project)
    assert archsync("check", cwd=project).returncode == EXIT_FINDINGS  # gate.py: read, nothing registered it
    (project / "pkg" / "late.py").write_text("class LateForCausalLM:\n    pass\n\n\nEntryClass = LateForCausalLM\n")
    gate.chmod(0o000)  # its size and mtime stay: the cached record is trusted and holds no facts
    try:
        result = archsync_process("check", cwd=project, prefix=prefix)
    finally:
        gate.chmod(0o644)
    assert result.lines == [
        "pkg/gate.py:1:1: ARC902 file not analysed: cannot read: Permission denied",
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result


@pytest.mark.e2e
def test_read_only_empty_cache_directory(project, tmp_path):
    prefix = unprivileged(tmp_path)
    directory = project / ".archsync_cache"
    directory.mkdir()
    directory.chmod(0o555)
    try:
        result = survives(project, writable=False, prefix=prefix)
        assert len(result.warnings) == 1 and "cache not written" in result.warnings[0], result
        assert list(directory.iterdir()) == []
    finally:
        directory.chmod(0o755)


@pytest.mark.e2e
def test_read_only_cache_directory_with_a_stale_cache(project, tmp_path):
    """The cache is read, cannot be rewritten, and the edited file still wins."""
    prefix = unprivileged(tmp_path)
    age_files(project)
    path = warm(project)
    before = path.read_bytes()
    (project / "pkg" / "overrides.py").write_text(
        'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n')
    path.parent.chmod(0o555)
    try:
        result = survives(project, writable=False, prefix=prefix)
        assert result.lines == [] and result.returncode == EXIT_CLEAN, result
    finally:
        path.parent.chmod(0o755)
    assert path.read_bytes() == before, "the read-only cache changed"


@pytest.mark.e2e
def test_read_only_project(project, tmp_path):
    """No cache directory and a read-only project root: one warning, the same result."""
    prefix = unprivileged(tmp_path)
    project.chmod(0o555)
    try:
        result = survives(project, writable=False, prefix=prefix)
        assert len(result.warnings) == 1, result
    finally:
        project.chmod(0o755)
    assert not (project / ".archsync_cache").exists()


def test_read_only_cache_file_in_a_writable_directory(project):
    path = warm(project)
    (project / "pkg" / "overrides.py").write_text(
        'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n')
    path.chmod(0o444)
    result = survives(project)
    assert result.lines == [], result


@pytest.mark.parametrize("cache_dir", [".archsync_cache", "nested/deeper/cache"])
def test_missing_cache_directory_is_created(project, cache_dir):
    set_config(project, f'[tool.archsync]\ncache-dir = "{cache_dir}"\n')
    result = survives(project, max_warnings=0)
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    assert result.warnings == [], result
    directory = project / cache_dir
    assert cache_file(project).parent == directory
    assert (directory / ".gitignore").is_file() and (directory / "CACHEDIR.TAG").is_file()


@pytest.mark.parametrize("cache_dir, contents, listed", [
    # a source package: its `.gitignore` of `*` hid every module added to it later from git
    ("pkg", None, "'__init__.py', 'config.py', 'models.py' and 1 more"),
    ("docs", {"docs/guide.md": "# Guide\n"}, "'guide.md'"),
    ("build", {"build/lib/pkg.py": "X = 1\n"}, "'lib'"),  # a directory discovery skips holds files all the same
    (".archsync_cache", {".archsync_cache/index-0.0.0.json": "{}", ".archsync_cache/notes.txt": "mine\n"},
     "'notes.txt'"),
])
def test_a_cache_directory_that_holds_project_files_is_a_configuration_error(project, cache_dir, contents, listed):
    for rel, text in (contents or {}).items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    set_config(project, f'[tool.archsync]\ncache-dir = "{cache_dir}"\n')
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    result = archsync("check", cwd=project)
    assert result.returncode == EXIT_ERROR and result.stdout == "", result
    assert result.err_lines == [
        f"archsync: error: {project / 'pyproject.toml'}: tool.archsync.cache-dir: '{cache_dir}' holds files archsync "
        f"did not write ({listed}); the cache needs a directory of its own, such as '.archsync_cache'"], result
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == before, "something was written"


def test_a_cache_dir_that_names_a_file_is_a_configuration_error(project):
    (project / "setup.cfg").write_text("[metadata]\nname = demo\n")
    set_config(project, '[tool.archsync]\ncache-dir = "setup.cfg"\n')
    result = archsync("check", cwd=project)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines == [
        f"archsync: error: {project / 'pyproject.toml'}: tool.archsync.cache-dir: 'setup.cfg' is a file, not a "
        f"directory; the cache needs a directory of its own"], result
    assert (project / "setup.cfg").read_text() == "[metadata]\nname = demo\n"


def test_markers_are_written_only_into_a_directory_archsync_made(project):
    """An empty directory someone else made may hold the cache, but archsync writes no `.gitignore` (nor
    CACHEDIR.TAG) there: the directory is not archsync's to hide. One it makes carries both."""
    (project / "var" / "archsync").mkdir(parents=True)
    set_config(project, '[tool.archsync]\ncache-dir = "var/archsync"\n')
    for _ in range(2):  # cold, then warm from the cache it wrote
        result = survives(project, max_warnings=0)
        assert result.lines == [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ], result
    names = sorted(os.listdir(project / "var" / "archsync"))
    assert [n for n in names if not re.fullmatch(r"(index|result)-.+\.json", n)] == [], names
    set_config(project, '[tool.archsync]\ncache-dir = "var/made"\n')
    survives(project, max_warnings=0)
    assert (project / "var" / "made" / ".gitignore").read_bytes() == b"# Created by archsync.\n*\n"
    assert (project / "var" / "made" / "CACHEDIR.TAG").read_bytes().startswith(
        b"Signature: 8a477f597d28d172789f06886806bc55\n")


def test_every_file_archsync_writes_in_its_cache_directory_is_one_it_knows_as_its_own(project):
    """The check above must never refuse the cache directory archsync filled itself: both caches, flake8's
    report apart from the CLI's, the markers, and the writer's temporaries are names `cache_dir.py` knows."""
    assert archsync("check", cwd=project).returncode == EXIT_FINDINGS
    assert flake8(".", cwd=project).returncode == EXIT_FINDINGS
    directory = project / ".archsync_cache"
    assert sorted(re.sub(r"-[0-9a-f]{16}", "-<config>", re.sub(r"-py\d+", "-<python>", n.replace(__version__, "<v>")))
                  for n in os.listdir(directory)) == [
        ".gitignore", "CACHEDIR.TAG", "index-<v>-<python>-<config>.json", "result-<v>-<python>-<config>-nonoqa.json",
        "result-<v>-<python>-<config>.json"]
    (directory / ".index-x.json.archsync-123-0f1e.tmp").write_text("left by a killed run")
    assert foreign_entries(str(directory)) == []
    assert archsync("check", cwd=project).returncode == EXIT_FINDINGS


def test_cache_path_that_is_a_file(project):
    (project / ".archsync_cache").write_text("I am a file\n")
    result = survives(project, writable=False)
    assert len(result.warnings) == 1, result
    assert (project / ".archsync_cache").read_text() == "I am a file\n"


def test_cache_file_that_is_a_directory(project):
    path = warm(project)
    path.unlink()
    path.mkdir()
    (path / "keep").write_text("x")
    result = survives(project, writable=False)
    assert len(result.warnings) == 1, result
    assert (path / "keep").read_text() == "x"


def test_cache_directory_that_is_a_dangling_symlink(project):
    os.symlink("/nonexistent/archsync-cache-target", project / ".archsync_cache")
    result = survives(project, writable=False)
    assert len(result.warnings) == 1, result


# -- a full disk ---------------------------------------------------------------------------------

_FULL_DISK = r'''
set -e
mount -t tmpfs -o size=64k tmpfs "$CACHE"
if [ -n "$SEED" ]; then cp -a "$SEED" "$CACHE/cache"; fi
dd if=/dev/zero of="$CACHE/zz-fill" bs=1k 2>/dev/null || true
set +e
"$@"
rc=$?
ls -A "$CACHE" "$CACHE/cache" > "$LISTING" 2>/dev/null
for f in "$CACHE"/cache/index-*.json; do [ -e "$f" ] && cp "$f" "$AFTER"/; done
exit $rc
'''


def _full_disk_prefix(tmp_path: Path) -> Tuple[str, ...]:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("a full disk is simulated with a tiny tmpfs in a private mount namespace (needs root)")
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=4k tmpfs {tmp_path}"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.decode(errors='replace').strip()}")
    return ("unshare", "-m", "sh", "-c", _FULL_DISK, "sh")


@pytest.mark.parametrize("seeded", [False, True], ids=["empty-full-disk", "full-disk-holding-an-old-cache"])
@pytest.mark.e2e
def test_full_disk(project, tmp_path, seeded):
    prefix = _full_disk_prefix(tmp_path)
    mount_point = project / "cachefs"  # cache directories live inside the project; the cache is its "cache"
    mount_point.mkdir()
    after = tmp_path / "after"
    after.mkdir()
    seed = project / "seed"
    set_config(project, '[tool.archsync]\ncache-dir = "cachefs/cache"\n')
    if seeded:
        # An old cache for a tree whose guarded file has changed since: it is read, and cannot be replaced.
        set_config(project, '[tool.archsync]\ncache-dir = "seed"\n')
        age_files(project)
        assert archsync("check", cwd=project).lines == [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ]
        set_config(project, '[tool.archsync]\ncache-dir = "cachefs/cache"\n')
        (project / "pkg" / "overrides.py").write_text(
            'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n')
    env = {"CACHE": str(mount_point), "SEED": str(seed) if seeded else "", "LISTING": str(tmp_path / "listing"),
           "AFTER": str(after)}
    baseline = archsync("check", "--no-cache", cwd=project)
    result = archsync_process("check", cwd=project, prefix=prefix, env=env)
    assert (result.stdout, result.returncode) == (baseline.stdout, baseline.returncode), (result, baseline)
    assert result.others == baseline.others, result
    assert len(result.warnings) == 1 and "cache not written" in result.warnings[0], result
    listing = (tmp_path / "listing").read_text().split()
    assert not [name for name in listing if name.endswith(".tmp")], f"temporary file left on the full disk: {listing}"
    if seeded:
        kept = list(after.glob("index-*.json"))
        assert len(kept) == 1 and json.loads(kept[0].read_bytes())["tool"] == __version__, \
            "the old cache must survive a failed write intact"


# -- staleness: the result always follows the files ----------------------------------------------

def test_edit_with_restored_mtime_but_new_size_is_noticed(project):
    """Content edited, mtime reset to the cached value, size changed: the file wins."""
    age_files(project)
    path = warm(project)
    overrides = project / "pkg" / "overrides.py"
    stat = overrides.stat()
    overrides.write_text('X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n')
    os.utime(overrides, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert overrides.stat().st_size != stat.st_size
    entry = json.loads(path.read_bytes())["files"]["pkg/overrides.py"]
    assert entry[1] == file_stamp(stat), "the cache should hold the old stamp"
    result = archsync("check", cwd=project)
    assert result.lines == [] and result.returncode == EXIT_CLEAN, result
    assert_valid_cache(project)


def test_same_size_edit_with_its_old_mtime_restored_is_noticed(project):
    """`cp -p`, `rsync -t`, tar extraction: same size, the mtime set back to what the cache holds, long
    after the cache was written. The ctime moved (no tool sets it back): warm answers as cold."""
    age_files(project)
    warm(project)
    overrides = project / "pkg" / "overrides.py"
    before = overrides.stat()
    edited = overrides.read_text().replace("X_ARCHS", "Z_ARCHS")
    overrides.write_text(edited)
    os.utime(overrides, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = overrides.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    expected = ["pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
                "but missing from Z_ARCHS"]
    assert archsync("check", cwd=project).lines == expected
    assert archsync("check", "--no-cache", cwd=project).lines == expected


def test_same_size_edit_within_two_seconds_of_the_cache_write_is_noticed(project):
    """Racy-git protection: an mtime-preserving, same-size edit right after a run is not missed."""
    overrides = project / "pkg" / "overrides.py"
    now = time.time()
    os.utime(overrides, (now, now))
    path = warm(project)
    document = json.loads(path.read_bytes())
    entry = document["files"]["pkg/overrides.py"]
    mtime = overrides.stat().st_mtime_ns
    if mtime < document["written"] - 2_000_000_000:
        pytest.skip("the first run took more than 2 s: the edit would not be racy")
    text = overrides.read_text()
    edited = text.replace("X_ARCHS", "Z_ARCHS")
    assert len(edited) == len(text)
    overrides.write_text(edited)
    os.utime(overrides, ns=(mtime, mtime))
    assert overrides.stat().st_size == entry[0] and overrides.stat().st_mtime_ns == mtime
    result = archsync("check", cwd=project)
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from Z_ARCHS",
    ], result
    assert_valid_cache(project)


def test_deleted_and_renamed_files_leave_no_ghosts(project):
    age_files(project)
    warm(project)
    (project / "pkg" / "overrides.py").rename(project / "pkg" / "moved.py")
    result = archsync("check", cwd=project)
    assert result.lines == [
        "pkg/moved.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    (project / "pkg" / "moved.py").unlink()
    result = archsync("check", cwd=project)
    assert result.lines == [] and result.returncode == EXIT_CLEAN, result
    # A file recreated where a deleted one was is judged afresh (its mtime is new).
    (project / "pkg" / "moved.py").write_text(GUARDED.replace("X_ARCHS", "W_ARCHS"))
    result = archsync("check", cwd=project)
    assert result.lines == [
        "pkg/moved.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from W_ARCHS",
    ], result


def test_no_cache_neither_reads_nor_writes(project):
    result = archsync("check", "--no-cache", cwd=project)
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    assert result.warnings == [], result
    assert not (project / ".archsync_cache").exists()
    directory = project / ".archsync_cache"
    directory.mkdir()
    garbage = directory / cache_file(project).name
    garbage.write_bytes(b"\x00garbage")
    result = archsync("check", "--no-cache", cwd=project)
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    assert result.warnings == [], result
    assert garbage.read_bytes() == b"\x00garbage"


# -- in-memory caches of a long-running process ----------------------------------------------------

def test_repeated_runs_in_one_process_follow_edits(project):
    """An editor integration (LSP) calls the engine again and again in one process: nothing kept
    in memory (facts, the text read for `# noqa`) may outlive an edit of the file it came from."""
    from lint_plugin.pipeline import Request
    from lint_plugin.pipeline import run as engine_run

    overrides = project / "pkg" / "overrides.py"

    def codes():
        return [(d.path, d.code) for d in engine_run(Request((project,))).diagnostics]

    assert codes() == [("pkg/overrides.py", "ARC101")]
    overrides.write_text(GUARDED.rstrip("\n") + "  # noqa: ARC101\n")
    assert codes() == [], "a # noqa added after the first run is ignored by the next one"
    overrides.write_text(GUARDED)
    assert codes() == [("pkg/overrides.py", "ARC101")], "a # noqa removed after a run still suppresses"
    overrides.write_text('X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n')
    assert codes() == []
