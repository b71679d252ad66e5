"""The project's files as a git revision holds them, copied into a private directory.

`check --baseline-commit REV` analyses REV the way it analyses the working tree, so it needs
REV's files on disk. They are read with git's plumbing (`rev-parse`, `ls-tree`, `cat-file`),
which neither touches the working tree or the index nor runs anything the repository
configures: no checkout, no hooks, no smudge or textconv filters, and no `.gitattributes`
`export-ignore` dropping files as `git archive` would. Only what discovery reads is copied:
`*.py` files, and `pyvenv.cfg` (which makes a directory a virtualenv to skip). Links and
submodules are not followed, as discovery does not follow them either.
"""
from __future__ import annotations

import os
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, List, Sequence, Tuple

_WANTED_NAMES = ("pyvenv.cfg",)
_BLOB_MODES = ("100644", "100755")


class RevisionError(Exception):
    """Why a revision could not be read (the message is for the user, exit code 2)."""


@dataclass(frozen=True)
class Snapshot:
    """Where a revision's project files were copied, and what they are."""

    commit: str  # the full object name REV resolved to
    files: int  # files copied
    present: bool  # False when the project's directory does not exist at that commit


def copy_revision(root: Path, rev: str, into: Path) -> Snapshot:
    """Copy the files of the project at `root` as commit `rev` holds them into the empty directory `into`.

    Raises RevisionError when git is missing, `root` is in no git repository, or `rev` names no commit.
    """
    if not rev or rev.startswith("-") or "\x00" in rev:
        raise RevisionError(f"--baseline-commit: {rev!r} is not a revision")
    if _git(root, ["rev-parse", "--is-inside-work-tree"]).decode().strip() != "true":
        raise RevisionError(f"--baseline-commit: {root} is not in a git work tree")
    commit = _git(root, ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                  f"--baseline-commit: unknown revision {rev!r} (a shallow clone may lack it: fetch it first)")
    commit_name = commit.decode("ascii").strip()
    # the project's directory in the repository ("python/"), and what REV holds below it
    prefix = os.fsdecode(_git(root, ["rev-parse", "--show-prefix"]).rstrip(b"\n"))
    listing = _git(root, ["ls-tree", "-r", "-z", "--full-name", commit_name])
    blobs = _wanted(listing, prefix)
    _write_blobs(root, blobs, into)
    return Snapshot(commit_name, len(blobs), bool(listing))


def _wanted(listing: bytes, prefix: str) -> List[Tuple[str, str]]:
    """(object name, path below the project root) of the regular files discovery would read."""
    found = []
    head = os.fsencode(prefix)
    for entry in listing.split(b"\x00"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, oid = meta.decode("ascii").split(" ")
        if kind != "blob" or mode not in _BLOB_MODES or not raw_path.startswith(head):
            continue
        rel = os.fsdecode(raw_path[len(head):])
        parts = rel.split("/")
        if any(p in ("", ".", "..") for p in parts):
            continue  # no tree git itself writes holds such a path: never follow one out of `into`
        if rel.endswith(".py") or parts[-1] in _WANTED_NAMES:
            found.append((oid, rel))
    return found


def _write_blobs(root: Path, blobs: Sequence[Tuple[str, str]], into: Path) -> None:
    """Stream the blobs out of one `git cat-file --batch` into files below `into`."""
    if not blobs:
        return
    process = _start(root, ["cat-file", "--batch"])
    assert process.stdin is not None and process.stdout is not None
    feeder = threading.Thread(target=_feed, args=(process.stdin, [oid for oid, _ in blobs]), daemon=True)
    feeder.start()
    try:
        for oid, rel in blobs:
            header = process.stdout.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                raise RevisionError(f"--baseline-commit: git could not read {rel} ({oid}): "
                                    f"{b' '.join(header).decode('ascii', 'replace') or 'no answer'}")
            size = int(header[2])
            data = process.stdout.read(size)
            process.stdout.read(1)  # the newline after each object
            if len(data) != size:
                raise RevisionError(f"--baseline-commit: git stopped while reading {rel}")
            _create(into, rel, data)
    finally:
        process.stdout.close()
        if process.poll() is None:
            process.kill()
        process.wait()
        feeder.join()


def _feed(stdin: IO[bytes], oids: Sequence[str]) -> None:
    try:
        stdin.write("".join(f"{oid}\n" for oid in oids).encode("ascii"))
        stdin.close()
    except (BrokenPipeError, OSError):
        pass  # git stopped early: the reader says why


def _create(into: Path, rel: str, data: bytes) -> None:
    """A new file in the private directory, never through a link (it holds only what we wrote)."""
    target = into / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _git(root: Path, args: Sequence[str], failure: str = "") -> bytes:
    """git's output, or RevisionError with `failure` (else git's own last words)."""
    process = _start(root, args, capture=True)
    out, err = process.communicate()
    if process.returncode != 0:
        lines = err.decode("utf-8", "replace").strip().splitlines()
        if any("not a git repository" in line for line in lines):
            raise RevisionError(f"--baseline-commit: {root} is not in a git repository")
        said = next((line for line in lines if line.startswith("fatal:")), lines[-1] if lines else "")
        raise RevisionError(failure or f"--baseline-commit: git {args[0]} failed: {said or process.returncode}")
    return out


def _start(root: Path, args: Sequence[str], capture: bool = False) -> "subprocess.Popen[bytes]":
    env = dict(os.environ, LC_ALL="C", LANGUAGE="C", GIT_NO_LAZY_FETCH="1", GIT_TERMINAL_PROMPT="0")
    try:
        return subprocess.Popen(["git", *args], cwd=str(root), env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE if capture else subprocess.DEVNULL)
    except FileNotFoundError:
        raise RevisionError("--baseline-commit needs git, and git was not found on PATH") from None
    except OSError as exc:
        raise RevisionError(f"--baseline-commit: cannot run git ({exc.strerror or exc})") from None
