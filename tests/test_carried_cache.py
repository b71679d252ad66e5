"""A cache directory carried to a fresh clone (a CI cache restored) makes the run there a warm one.

The clone is elsewhere, its files written just now (new mtimes, ctimes and inodes), and archsync may
be installed afresh too (its modules' stamps differ, its code does not). Every stamp misses, so each
file is hashed; the digests are the stored ones, so the stored report stands and nothing is parsed;
and the stamps are recorded again, so the next run hashes nothing.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import List

import pytest

from conftest import SGLANG_BUG, archsync, copy_tree
from lint_plugin import pipeline
from lint_plugin.frontends.formats import render
from lint_plugin.project import file_facts, file_stamp, results


@pytest.fixture
def parsed(monkeypatch) -> List[str]:
    """The files whose facts were extracted since (in this process: the tree is too small for a pool)."""
    seen: List[str] = []
    for name in ("extract_file", "extract_registrations"):
        real = getattr(file_facts, name)

        def spy(data, rel, *args, real=real):
            seen.append(rel)
            return real(data, rel, *args)

        monkeypatch.setattr(file_facts, name, spy)
    return seen


@pytest.fixture
def hashed(monkeypatch) -> List[int]:
    """The sizes of the files the result cache hashed since."""
    seen: List[int] = []
    real = results.digest

    def spy(data: bytes) -> str:
        seen.append(len(data))
        return real(data)

    monkeypatch.setattr(results, "digest", spy)
    return seen


def clone(source: Path, destination: Path) -> Path:
    """A fresh checkout with the cache directory restored: every file written now, elsewhere."""
    shutil.copytree(source, destination, copy_function=shutil.copyfile)
    return destination


def checked(root: Path):
    return pipeline.run_projects(pipeline.Request((root,), reuse=True))


def test_a_restored_cache_makes_a_fresh_clone_warm(tmp_path, monkeypatch, parsed, hashed):
    monkeypatch.setattr(file_stamp, "RACY_NS", 0)  # the clone's files are seconds old: trusted once recorded
    first = copy_tree(SGLANG_BUG, tmp_path / "ci" / "first")
    expected = archsync("check", "--no-cache", cwd=first)
    assert not checked(first).reused
    fresh = clone(first, tmp_path / "elsewhere" / "second")
    del parsed[:], hashed[:]
    found = checked(fresh)
    assert found.reused and parsed == []
    assert len(hashed) == found.files == 17  # every stamp missed: each file hashed, once
    monkeypatch.chdir(fresh)  # paths are printed as seen from here
    assert render("text", found.diagnostics, fresh) == expected.stdout
    del hashed[:]
    assert checked(fresh).reused and hashed == []  # its stamps recorded: nothing hashed any more
    assert archsync("check", cwd=fresh).stdout == expected.stdout


def test_archsync_installed_afresh_still_takes_the_cache(tmp_path, monkeypatch, parsed):
    """A new virtualenv: archsync's modules have other stamps, the same content."""
    first = copy_tree(SGLANG_BUG, tmp_path / "first")
    checked(first)
    fresh = clone(first, tmp_path / "second")
    monkeypatch.setattr(results, "code_stamps", lambda: "0123456789abcdef")
    del parsed[:]
    assert checked(fresh).reused and parsed == []
    assert checked(fresh).reused  # recorded under the new stamps
    monkeypatch.setattr(results, "code_stamps", lambda: "aaaaaaaaaaaaaaaa")  # other code: not taken
    monkeypatch.setattr(results, "code_content", lambda: "fedcba9876543210")
    assert not checked(fresh).reused


def test_facts_extracted_by_other_code_are_extracted_again(tmp_path, monkeypatch, parsed):
    """The index cache holds what the extractor made of each file: another build of the same version (an
    upgrade from git, an editable install being worked on) reads them again, as a fresh install of the same
    code does not."""
    from lint_plugin.project import cache

    root = copy_tree(SGLANG_BUG, tmp_path / "tree")
    first = pipeline.run_projects(pipeline.Request((root,)))
    extracted = sorted(parsed)
    assert len(extracted) == 13, extracted
    monkeypatch.setattr(cache, "code_stamps", lambda: "0123456789abcdef")  # installed afresh: same content
    del parsed[:]
    assert pipeline.run_projects(pipeline.Request((root,))).diagnostics == first.diagnostics and parsed == []
    monkeypatch.setattr(cache, "code_stamps", lambda: "aaaaaaaaaaaaaaaa")  # other code
    monkeypatch.setattr(cache, "code_content", lambda: "fedcba9876543210")
    assert pipeline.run_projects(pipeline.Request((root,))).diagnostics == first.diagnostics
    assert sorted(parsed) == extracted


@pytest.mark.parametrize("spread", [False, True], ids=["one thread", "threads"])
def test_files_are_compared_with_the_stored_digests(tmp_path, monkeypatch, spread):
    """What a fresh clone's run does to every file, on one thread or (from `_SPREAD_BYTES`) several."""
    monkeypatch.setattr(results, "_SPREAD_BYTES", 0 if spread else 1 << 60)
    same, edited = tmp_path / "same.py", tmp_path / "edited.py"
    same.write_bytes(b"A = 1\n")
    edited.write_bytes(b"A = 2\n")
    stored = results.digest(b"A = 1\n")
    found = results._compared([(str(same), 6, stored), (str(edited), 6, stored), (str(tmp_path / "gone.py"), 6, stored),
                               (str(same), 7, stored)] * 3)
    assert found[:4] == [True, b"A = 2\n", results.Unreadable("No such file or directory"), b"A = 1\n"]
    assert found == found[:4] * 3
