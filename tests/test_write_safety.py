"""Never lose an edit, never write outside the project: the guarded writer under races and hostile trees.

Each test reproduces a failure an adversarial trial found (issue 17): an append landing while
`fix` writes, a directory swapped for a link, a committed cache link, cache and source settings
that reach outside the project, read-only and hard-linked files, a fix killed mid-write. A
concurrent append is made at each moment of an `archsync fix` run on purpose (the writer's own
hook, and the steps of `fix` around it), never left to timing; a kill, which only a process can
take, lands at random moments of real runs, looping until the time given is up.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    RACE_SECONDS,
    SGLANG_FIXED,
    archsync,
    archsync_process,
    as_nobody,
    set_config,
    sigint_default,
)
from lint_plugin.fix import command
from lint_plugin.project import writer
from lint_plugin.project.writer import WriteRefused, replace_checked

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
ARCHSYNC = Path(sys.executable).with_name("archsync")

posix_only = pytest.mark.skipif(os.name != "posix", reason="directory descriptors and signals")


# -- an edit that lands during the write ----------------------------------------------------------

def test_an_edit_in_the_last_instant_before_the_rename_is_kept(tmp_path):
    target = tmp_path / "overrides.py"
    target.write_bytes(b"X_ARCHS = {'A'}\n")

    def user_edits():
        with open(target, "ab") as handle:
            handle.write(b"# the user's line\n")

    with pytest.raises(WriteRefused, match="changed while it was being fixed"):
        replace_checked(tmp_path, "overrides.py", b"X_ARCHS = {'A'}\n", b"X_ARCHS = {'A', 'B'}\n",
                        before_rename=user_edits)
    assert target.read_bytes() == b"X_ARCHS = {'A'}\n# the user's line\n"
    assert os.listdir(tmp_path) == ["overrides.py"], "a temporary file was left behind"


def test_an_editor_saving_by_rename_in_the_last_instant_is_kept(tmp_path):
    target = tmp_path / "overrides.py"
    target.write_bytes(b"X_ARCHS = {'A'}\n")

    def editor_saves():
        (tmp_path / ".swap").write_bytes(b"X_ARCHS = {'A', 'C'}\n")
        os.replace(tmp_path / ".swap", target)

    with pytest.raises(WriteRefused, match="changed while it was being fixed"):
        replace_checked(tmp_path, "overrides.py", b"X_ARCHS = {'A'}\n", b"X_ARCHS = {'A', 'B'}\n",
                        before_rename=editor_saves)
    assert target.read_bytes() == b"X_ARCHS = {'A', 'C'}\n"


def _append(path: Path, marker: bytes) -> None:
    """Another writer's append, through its own open file (as an editor, a formatter or a script appends)."""
    with open(path, "ab") as handle:
        handle.write(marker)


def _before_fix_reads_the_file(monkeypatch, path: Path, marker: bytes) -> None:
    """After the analysis read the file, before `fix` reads it to edit it."""
    read = command.read_file

    def appended_then_read(target):
        if Path(target).resolve() == path.resolve():
            _append(path, marker)
        return read(target)

    monkeypatch.setattr(command, "read_file", appended_then_read)


def _before_the_writer_checks_it(monkeypatch, path: Path, marker: bytes) -> None:
    """After `fix` read and edited the file, before the guarded writer compares it with what was read."""
    replace = command.replace_checked

    def appended_then_replaced(root, rel, expected, data):
        _append(path, marker)
        replace(root, rel, expected, data)

    monkeypatch.setattr(command, "replace_checked", appended_then_replaced)


def _in_the_last_instant_before_the_rename(monkeypatch, path: Path, marker: bytes) -> None:
    """After the writer's checks and its temporary, right before the rename: the writer's own hook."""
    replace = command.replace_checked
    monkeypatch.setattr(command, "replace_checked", lambda root, rel, expected, data: replace(
        root, rel, expected, data, before_rename=lambda: _append(path, marker)))


def _as_the_rename_swaps_the_files(monkeypatch, path: Path, marker: bytes) -> None:
    """Between the writer's last look at the file and the rename itself (an exchange of the two names)."""
    exchange = writer._exchange
    appended = []

    def appended_then_exchanged(directory, first, second):
        if not appended:  # the first exchange puts the fixed file in place; a second one swaps it back
            _append(path, marker)
            appended.append(marker)
        return exchange(directory, first, second)

    monkeypatch.setattr(writer, "_exchange", appended_then_exchanged)


def _after_the_rename(monkeypatch, path: Path, marker: bytes) -> None:
    """Once `fix` has written: the append lands in the fixed file."""
    write = command.write

    def written_then_appended(root, outcome):
        done = write(root, outcome)
        _append(path, marker)
        return done

    monkeypatch.setattr(command, "write", written_then_appended)


FIXED_ALL = ["archsync: fixed 1 problem in 1 file; 0 remaining"]
# Each moment of an `archsync fix` run another program's append can land in, from the fix's own read of the file
# to after its rename: what the file holds after the run, and what `fix` said on stderr.
APPEND_MOMENTS = {
    "before fix reads the file": (_before_fix_reads_the_file, "fixed", FIXED_ALL),
    "before the writer checks it": (_before_the_writer_checks_it, "pristine", [
        f"archsync: {OVERRIDES}: changed since it was read; not written",
        "archsync: fixed 0 problems in 0 files; 1 remaining"]),
    "in the last instant before the rename": (_in_the_last_instant_before_the_rename, "pristine", [
        f"archsync: {OVERRIDES}: changed while it was being fixed; not written",
        "archsync: fixed 0 problems in 0 files; 1 remaining"]),
    "as the rename swaps the files": (_as_the_rename_swaps_the_files, "pristine", [
        f"archsync: {OVERRIDES}: changed while it was being fixed; not written",
        "archsync: fixed 0 problems in 0 files; 1 remaining"]),
    "after the rename": (_after_the_rename, "fixed", FIXED_ALL),
}


@pytest.mark.parametrize("moment", [
    pytest.param(moment, marks=pytest.mark.skipif(
        moment == "as the rename swaps the files" and sys.platform != "linux",
        reason="the rename is an exchange on Linux only (renameat2); elsewhere that instant is unguarded"))
    for moment in APPEND_MOMENTS])
def test_a_concurrent_append_during_archsync_fix_is_never_lost(tree, monkeypatch, moment):
    """The append lands at each moment of a real `archsync fix` run on purpose, where a timed race against a
    process hit the last ones rarely (and, on a loaded machine, not at all): the file ends with it, whatever
    `fix` did, and `fix` says what it did, or why it left the file alone."""
    root = tree("sglang_qwen3_5/bug")
    path = root / OVERRIDES
    before = {"pristine": path.read_bytes(), "fixed": (SGLANG_FIXED / OVERRIDES).read_bytes()}
    marker = f"# appended {moment}\n".encode()
    lands, holds, said = APPEND_MOMENTS[moment]
    lands(monkeypatch, path, marker)
    result = archsync("fix", "--no-cache", cwd=root)
    assert path.read_bytes() == before[holds] + marker, result
    assert result.err_lines == said, result
    assert result.returncode == (EXIT_CLEAN if holds == "fixed" else EXIT_FINDINGS), result
    assert [n for n in os.listdir(path.parent) if n.endswith(".tmp")] == []


# -- links and paths out of the project -----------------------------------------------------------

@posix_only
def test_a_directory_swapped_for_a_link_mid_write_does_not_send_the_write_outside(tmp_path):
    root, outside = tmp_path / "proj", tmp_path / "outside"
    (root / "pkg").mkdir(parents=True)
    outside.mkdir()
    (root / "pkg" / "lists.py").write_bytes(b"A = 1\n")
    (outside / "lists.py").write_bytes(b"A = 1\n")

    def swap_directory_for_link():
        os.rename(root / "pkg", root / "pkg-moved")
        os.symlink(outside, root / "pkg")

    replace_checked(root, "pkg/lists.py", b"A = 1\n", b"A = 2\n", before_rename=swap_directory_for_link)
    assert (outside / "lists.py").read_bytes() == b"A = 1\n"
    assert (root / "pkg-moved" / "lists.py").read_bytes() == b"A = 2\n"  # the directory archsync held


@posix_only
def test_a_directory_that_is_a_link_out_of_the_project_is_refused(tmp_path):
    root, outside = tmp_path / "proj", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "lists.py").write_bytes(b"A = 1\n")
    os.symlink(outside, root / "pkg")
    with pytest.raises(WriteRefused, match="pkg is a link or not a directory"):
        replace_checked(root, "pkg/lists.py", b"A = 1\n", b"A = 2\n")
    assert (outside / "lists.py").read_bytes() == b"A = 1\n"


@posix_only
def test_an_absolute_path_is_refused_not_written_under_the_root(tmp_path):
    """The configuration refuses an absolute `cache-dir`; a caller that passes one anyway (a script building
    a `Config` itself) gets a refusal, not a cache written at the same path under the project root."""
    root = tmp_path / "proj"
    root.mkdir()
    with pytest.raises(WriteRefused, match="is not a path inside the project"):
        writer.write_private(root, str(tmp_path / "caches" / "index.json"), b"{}")
    assert list(root.iterdir()) == []


@pytest.mark.parametrize("key, value, message", [
    ("cache-dir", '"."', "'.' is the project root itself; the cache needs a directory of its own"),
    ("cache-dir", '".."', "'..' is outside the project"),
    ("cache-dir", '"../x"', "'../x' is outside the project"),
    ("cache-dir", '"cache/../../x"', "'cache/../../x' is outside the project"),
    ("cache-dir", '"/tmp/archsync-cache"',
     "'/tmp/archsync-cache' is an absolute path; give a path relative to the project root"),
    ("cache-dir", '"cache\\u0000x"', "a path cannot contain a NUL character"),
    ("src", '["../outside"]', "'../outside' is outside the project"),
    ("src", '["x/../.."]', "'x/../..' is outside the project"),
    ("src", '["/etc"]', "'/etc' is an absolute path; give a path relative to the project root"),
])
def test_paths_reaching_outside_the_project_are_configuration_errors(tree, key, value, message):
    root = tree("sglang_qwen3_5/bug")
    set_config(root, f"{key} = {value}")
    before = sorted(os.listdir(root))
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines == [f"archsync: error: {root / 'pyproject.toml'}: tool.archsync.{key}: {message}"]
    assert sorted(os.listdir(root)) == before, "something was written"


@posix_only
def test_a_source_root_linked_out_of_the_project_is_not_read(tree, tmp_path):
    root = tree("sglang_qwen3_5/bug")
    outside = tmp_path / "secrets"
    outside.mkdir()
    (outside / "creds.py").write_text('LEAK_ARCHS = ["db-password=hunter2", "Qwen3_5ForCausalLMM"]\n')
    os.symlink(outside, root / "linked")
    set_config(root, 'src = [".", "linked"]')
    result = archsync("check", "--no-cache", cwd=root)
    assert "hunter2" not in result.stdout and "creds.py" not in result.stdout, result


@posix_only
def test_a_committed_cache_link_is_not_written_through(tree, tmp_path):
    root = tree("sglang_qwen3_5/bug")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, root / ".archsync_cache")
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.warnings == ["archsync: warning: cache not written (.archsync_cache is a link or not a "
                               "directory; archsync does not write through it); results are unaffected"], result
    assert os.listdir(elsewhere) == []


@posix_only
def test_a_dangling_cachedir_tag_link_is_not_followed(tree, tmp_path):
    """In the cache directory archsync made (its `.gitignore` says so), a missing marker is made again, but
    never through a link planted in its place."""
    root = tree("sglang_qwen3_5/bug")
    assert archsync("check", cwd=root).returncode == EXIT_FINDINGS
    (root / ".archsync_cache" / "CACHEDIR.TAG").unlink()
    for cached in (root / ".archsync_cache").glob("*.json"):
        cached.unlink()  # the next run writes the cache again
    target = tmp_path / "planted"
    os.symlink(target, root / ".archsync_cache" / "CACHEDIR.TAG")
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_FINDINGS and result.warnings == [], result
    assert not os.path.lexists(target), "the link's target was created"
    assert (root / ".archsync_cache" / ".gitignore").read_bytes() == b"# Created by archsync.\n*\n"


# -- files a rename would damage ------------------------------------------------------------------

def test_a_read_only_file_is_not_rewritten_and_the_summary_says_so(tree):
    """Even by root, who could: the mode says the file is not to be changed."""
    root = tree("sglang_qwen3_5/bug")
    path = root / OVERRIDES
    path.chmod(0o444)
    before = path.read_bytes()
    result = archsync("fix", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert path.read_bytes() == before and (path.stat().st_mode & 0o777) == 0o444
    assert result.err_lines[-2:] == [f"archsync: {OVERRIDES}: read-only; not written",
                                     "archsync: fixed 0 problems in 0 files; 1 remaining"], result


@posix_only
def test_a_hard_linked_file_is_not_replaced(tree, tmp_path):
    root = tree("sglang_qwen3_5/bug")
    path = root / OVERRIDES
    twin = tmp_path / "twin.py"
    os.link(path, twin)
    result = archsync("fix", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert f"archsync: {OVERRIDES}: has 2 hard links; replacing it would break them; not written" in result.err_lines
    assert os.stat(path).st_ino == os.stat(twin).st_ino


# -- interrupted writes ---------------------------------------------------------------------------

@posix_only
@pytest.mark.e2e
def test_a_fix_killed_or_interrupted_at_any_moment_leaves_the_old_or_the_new_file_and_no_temporary(tree):
    root = tree("sglang_qwen3_5/bug")
    path = root / OVERRIDES
    pristine = path.read_bytes()
    fixed = (SGLANG_FIXED / OVERRIDES).read_bytes()
    rng = random.Random(18)
    deadline = time.monotonic() + RACE_SECONDS
    kills = 0
    while time.monotonic() < deadline:
        path.write_bytes(pristine)
        fix = subprocess.Popen([str(ARCHSYNC), "fix", "--no-cache"], cwd=root, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, preexec_fn=sigint_default)
        time.sleep(rng.uniform(0.05, 0.7))
        how = rng.choice((signal.SIGKILL, signal.SIGINT))
        fix.send_signal(how)
        fix.wait(timeout=30)
        kills += 1
        assert path.read_bytes() in (pristine, fixed), f"a partial file after {how.name} {kills}"
        if how == signal.SIGINT:  # an interrupted run cleans up after itself
            assert [n for n in os.listdir(path.parent) if n.endswith(".tmp")
                    and f"-{fix.pid}-" in n] == [], f"a temporary left after SIGINT {kills}"
    leftovers = [n for n in os.listdir(path.parent) if n.endswith(".tmp")]
    # a later run cleans what killed runs left
    path.write_bytes(pristine)
    assert archsync("fix", "--no-cache", cwd=root).returncode == EXIT_CLEAN
    assert [n for n in os.listdir(path.parent) if n.endswith(".tmp")] == [], leftovers
    assert path.read_bytes() == fixed


def test_a_temporary_of_a_dead_run_is_removed(tree):
    root = tree("sglang_qwen3_5/bug")
    stale = root / "sglang/srt/arg_groups/.overrides.py.archsync-999999999-0badcafe.tmp"
    stale.write_bytes(b"half a fi")
    live = root / f"sglang/srt/arg_groups/.overrides.py.archsync-{os.getpid()}-0badcafe.tmp"
    live.write_bytes(b"another run's, still writing")
    assert archsync("fix", "--no-cache", cwd=root).returncode == EXIT_CLEAN
    assert not stale.exists() and live.exists()


def test_concurrent_fixes_leave_one_fix_and_no_temporary(tree):
    root = tree("sglang_qwen3_5/bug")
    results = []
    runs = [threading.Thread(target=lambda: results.append(archsync("fix", "--no-cache", cwd=root)))
            for _ in range(3)]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    assert (root / OVERRIDES).read_bytes() == (SGLANG_FIXED / OVERRIDES).read_bytes()
    assert all(r.returncode in (EXIT_CLEAN, EXIT_FINDINGS) for r in results), results
    assert [n for n in os.listdir(root / "sglang/srt/arg_groups") if n.endswith(".tmp")] == []


@posix_only
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_a_fixed_file_keeps_its_owner_and_mode(tree):
    root = tree("sglang_qwen3_5/bug")
    path = root / OVERRIDES
    os.chown(path, 65534, 65534)
    path.chmod(0o640)
    assert archsync("fix", cwd=root).returncode == EXIT_CLEAN
    after = path.stat()
    assert (after.st_uid, after.st_gid, after.st_mode & 0o777) == (65534, 65534, 0o640)
    assert path.read_bytes() == (SGLANG_FIXED / OVERRIDES).read_bytes()


@posix_only
@pytest.mark.e2e
def test_a_file_owned_by_someone_else_is_not_replaced_by_a_user_who_cannot_give_it_back(tree, tmp_path):
    nobody = as_nobody()
    shared = Path(tempfile.mkdtemp(prefix="archsync-owner-"))  # a place the other user can reach
    shared.chmod(0o755)
    root = shutil.copytree(tree("sglang_qwen3_5/bug"), shared / "bug")
    for directory, _, files in os.walk(root):
        os.chown(directory, 65534, 65534)
        for name in files:
            os.chown(os.path.join(directory, name), 65534, 65534)
    path = root / OVERRIDES
    os.chown(path, 0, 0)
    path.chmod(0o666)  # writable by all, owned by root: a rename by nobody would make it nobody's
    before = path.read_bytes()
    result = archsync_process("fix", "--no-cache", cwd=root, prefix=nobody)
    assert f"archsync: {OVERRIDES}: owned by another user; replacing it would change its owner; not written" \
        in result.err_lines, result
    assert path.read_bytes() == before and path.stat().st_uid == 0
    shutil.rmtree(shared)
