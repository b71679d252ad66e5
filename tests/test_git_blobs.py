"""A restored cache on a fresh git clone: git's index vouches for the files git wrote, which are not read.

A file's content key is its git blob id, so what the index holds for a file whose stat data is as
git wrote it is the key the cache recorded. The answer must be the one reading gives; only the reads
go (`lint_plugin/project/git_blobs.py`).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import List

import pytest

from conftest import SGLANG_BUG, copy_tree
from lint_plugin import pipeline
from lint_plugin.frontends.formats import render
from lint_plugin.project import git_blobs, results
from lint_plugin.project import index as index_module
from lint_plugin.project.files import digest
from lint_plugin.project.tree_content import tree_digest

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_a_file_is_keyed_by_its_git_blob_id():
    """What `git hash-object` prints for these bytes."""
    assert digest(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    assert digest(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def committed(tree: Path) -> Path:
    """`tree` made a repository with every file committed; the cache directory is never tracked."""
    git("init", "-q", cwd=tree)
    (tree / ".git" / "info" / "exclude").write_text(".archsync_cache/\n")
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "tree", cwd=tree)
    return tree


def cloned(source: Path, destination: Path) -> Path:
    """A fresh clone, as CI checks it out, with the untracked files (the cache directory) copied in.

    A clone of a few files writes its index in the same tick of the file clock as the files, and git
    calls every entry "racy" then (`git_blobs.py`); a large checkout has most files written ticks before
    its index. So the index is written again a moment later, as `git status` would."""
    git("clone", "-q", "--no-hardlinks", str(source), str(destination), cwd=source.parent)
    time.sleep(0.05)
    git("update-index", "-q", "--really-refresh", cwd=destination)
    for cache in source.rglob(".archsync_cache"):
        shutil.copytree(cache, destination / cache.relative_to(source))
    return destination


def with_fillers(tree: Path, count: int = git_blobs.WORTH_ASKING) -> Path:
    """Enough modules that a run asks git rather than read them all."""
    for i in range(count):
        (tree / "sglang" / f"filler_{i}.py").write_text(f"VALUE_{i} = {i}\n")
    return tree


@pytest.fixture
def read(monkeypatch) -> List[str]:
    """The files the result cache read since, to compare them with what it stored."""
    seen: List[str] = []
    real = results.read_file

    def spy(path):
        seen.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(results, "read_file", spy)
    return seen


@pytest.mark.e2e
@needs_git
def test_git_vouches_only_for_files_as_it_wrote_them(tmp_path):
    source = tmp_path / "source"
    (source / "pkg").mkdir(parents=True)
    (source / "a.py").write_bytes(b"A = 1\n")
    (source / "pkg" / "b.py").write_bytes(b"B = 2\n")
    os.symlink("a.py", source / "link.py")
    clone = cloned(committed(source), tmp_path / "clone")
    index = git_blobs.git_index(str(clone))
    assert index is not None
    assert sorted(index.files) == ["a.py", "pkg/b.py"]  # the link is not a file's content
    assert index.blob("a.py", os.stat(clone / "a.py")) == digest(b"A = 1\n")
    assert sorted(git_blobs.git_index(str(clone / "pkg")).files) == ["b.py"]  # paths as seen from the root

    (clone / "pkg" / "b.py").write_bytes(b"B = 3\n")  # edited: same size, other bytes
    assert index.blob("pkg/b.py", os.stat(clone / "pkg" / "b.py")) is None
    os.utime(clone / "a.py", ns=(0, os.stat(clone / "a.py").st_mtime_ns - 1))  # touched: stat data moved
    assert index.blob("a.py", os.stat(clone / "a.py")) is None

    racy = cloned(source, tmp_path / "racy")  # the index written no later than a file: git would compare
    index_file = racy / ".git" / "index"
    os.utime(index_file, ns=(os.stat(index_file).st_atime_ns, os.stat(racy / "a.py").st_mtime_ns))
    racy_index = git_blobs.git_index(str(racy))
    assert racy_index is not None and racy_index.blob("a.py", os.stat(racy / "a.py")) is None
    assert git_blobs.git_index(str(tmp_path)) is None  # no work tree


def _as_git_lists(root: Path):
    found = git_blobs._index_path(str(root))
    assert found is not None
    index, top = found
    return git_blobs._read_index(index, git_blobs._prefix(str(root), top)), git_blobs._listed(str(root))


@pytest.mark.e2e
@needs_git
@pytest.mark.parametrize("version", [2, 3, 4])
def test_the_index_file_is_read_as_git_lists_it(tmp_path, version):
    """The index file read in process gives git's own listing, in each version git writes: padded names (2),
    extended flags (3: an intent-to-add entry, whose empty stat data vouches for nothing), names that share a
    prefix with the one before (4); from the work tree's top and from a directory in it."""
    tree = tmp_path / "tree"
    for rel in ("a.py", "pkg/b.py", "pkg/bb.py", "pkg/sub/c.py", "pkg/sub/ccc_long_name_" + "x" * 40 + ".py", "z.txt"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(f"# {rel}\n")
    committed(tree)
    (tree / "pkg" / "new.py").write_text("NEW = 1\n")
    git("add", "-N", "pkg/new.py", cwd=tree)
    git("update-index", "--index-version", str(version), cwd=tree)
    for root in (tree, tree / "pkg"):
        direct, listed = _as_git_lists(root)
        assert direct is not None and direct == listed
    assert sorted(_as_git_lists(tree / "pkg")[0]) == ["b.py", "bb.py", "new.py", "sub/c.py",
                                                      "sub/ccc_long_name_" + "x" * 40 + ".py"]
    index = git_blobs.git_index(str(tree))
    assert index is not None and index.blob("a.py", os.stat(tree / "a.py")) == digest(b"# a.py\n")
    assert index.blob("pkg/new.py", os.stat(tree / "pkg" / "new.py")) is None  # git recorded no stat data


@pytest.mark.e2e
@needs_git
def test_a_split_index_is_left_to_git(tmp_path):
    """A split index keeps most entries in a shared file: the reader says nothing, and git is asked."""
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    (tree / "a.py").write_text("A = 1\n")
    (tree / "pkg" / "b.py").write_text("B = 2\n")
    committed(tree)
    git("update-index", "--split-index", cwd=tree)
    direct, listed = _as_git_lists(tree)
    assert direct is None and sorted(listed) == ["a.py", "pkg/b.py"]
    index = git_blobs.git_index(str(tree))
    assert index is not None and sorted(index.files) == ["a.py", "pkg/b.py"]


@pytest.mark.e2e
@needs_git
def test_a_fresh_clone_with_the_cache_restored_reads_nothing_git_wrote(tmp_path, monkeypatch, read):
    source = committed(with_fillers(copy_tree(SGLANG_BUG, tmp_path / "source")))
    expected = pipeline.run_projects(pipeline.Request((source,), reuse=True))
    assert not expected.reused
    clone = cloned(source, tmp_path / "ci" / "clone")
    del read[:]
    found = pipeline.run_projects(pipeline.Request((clone,), reuse=True))
    assert found.reused and read == []  # every stamp missed, and no file was read to learn it is the same
    monkeypatch.chdir(clone)
    text = render("text", found.diagnostics, clone)
    monkeypatch.chdir(source)
    assert text == render("text", expected.diagnostics, source)
    assert text.count("ARC101") == 1 and text.count("_MAMBA_") == 2  # the seed's one cause, naming both lists

    copy = tmp_path / "copy"  # the same files and cache without git: each file is read and hashed
    shutil.copytree(clone, copy, ignore=shutil.ignore_patterns(".git"))
    del read[:]
    assert pipeline.run_projects(pipeline.Request((copy,), reuse=True)).reused and len(read) == found.files

    edited = cloned(source, tmp_path / "ci" / "edited")  # one file differs from the cache's commit
    (edited / "sglang" / "filler_0.py").write_text("VALUE_0 = 0  # edited\n")
    del read[:]
    assert pipeline.run_projects(pipeline.Request((edited,), reuse=True)).reused
    assert read == ["filler_0.py"]  # git's stat data no longer vouches for it

    added = cloned(source, tmp_path / "ci" / "added")  # a file more: the run is redone, from the index cache
    (added / "sglang" / "new.py").write_text("NEW = 1\n")
    scanned: List[str] = []
    real = index_module.read_file
    monkeypatch.setattr(index_module, "read_file", lambda path: scanned.append(Path(path).name) or real(path))
    again = pipeline.run_projects(pipeline.Request((added,), reuse=True))
    monkeypatch.chdir(added)
    assert not again.reused and render("text", again.diagnostics, added) == text
    assert "new.py" in scanned and not any(name.startswith("filler_") for name in scanned)


@pytest.mark.e2e
@needs_git
def test_the_tree_digest_is_the_same_read_or_taken_from_git(tmp_path):
    source = committed(with_fillers(copy_tree(SGLANG_BUG, tmp_path / "source")))
    directories = sorted({"" if p.parent == source else p.parent.relative_to(source).as_posix()
                          for p in source.rglob("*.py")} | {""})
    clone = cloned(source, tmp_path / "clone")
    assert git_blobs.git_index(str(clone)) is not None
    copy = tmp_path / "copy"  # every file written anew, `.git` too: its index vouches for none of them
    shutil.copytree(clone, copy)
    assert git_blobs.git_index(str(copy)).files and all(
        git_blobs.git_index(str(copy)).blob(rel, os.stat(copy / rel)) is None for rel in ("sglang/filler_0.py",))
    assert tree_digest(str(clone), directories) == tree_digest(str(copy), directories) is not None
