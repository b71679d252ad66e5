"""What git's index already knows of a fresh checkout's files, so a restored cache need not read them.

A CI job restores the cache directory into a fresh clone: every file has a new mtime, so none is
trusted by its stamp, and each would be read and hashed only to learn that it is unchanged. A file's
content key is git's blob id (`files.digest`), and git's index holds, for every tracked file, the blob
id and the stat data of the file git wrote. Where the file's stat data now is that stat data, it still
holds that blob, by the rule git itself follows (`git status` reads no such file):

- a regular file (not a link, not a submodule) at stage 0;
- its mtime, ctime, size and inode as the index has them, to the nanosecond;
- its mtime before the index was written: a file written in the same instant as the index could have
  changed after git looked at it ("racy git"); git then compares contents, and so do we, by reading it.

And its blob id must be the digest a cache recorded, over the same size (`GitIndex.holds`). The index
file is read in process (`_read_index`: a fifth of the time of running `git ls-files --stage --debug`
and parsing its listing); a form it does not know (a split index, SHA-256 ids, a digest that does not
match) is left to git. Anything else, or no git, and the file is read as before: the answer is the same
either way, only slower (`tests/test_git_blobs.py`). The index is consulted only where enough files
would be read: by the record by content, else by the result cache, and by the index cache when the
stored report does not stand (then twice in one run, on a run that redoes the analysis anyway).
"""
from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:
    from typing import Dict, Optional, Tuple

    # a tracked file as the index holds it: (blob id, mtime ns, ctime ns, size, inode) of the file git wrote;
    # plain tuples and a slotted class, so the check answered from a record by content imports neither
    # `typing` nor `dataclasses` (`tests/test_startup.py`)
    Tracked = Tuple[str, int, int, int, int]

# Below this many files to read, reading costs less than asking git (a process, ~10 ms).
WORTH_ASKING = 64
_TIMEOUT = 30.0  # seconds; a git that hangs (a lock, a network file system) is not waited for longer
_NS = 1_000_000_000
_WORD = 0xFFFFFFFF  # the index keeps sizes and inodes in 32 bits
# one entry of `git ls-files --stage --debug -z`
_ENTRY = re.compile(rb"(\d+) ([0-9a-f]+) (\d)\t([^\0]*)\0  ctime: (\d+):(\d+)\n  mtime: (\d+):(\d+)\n"
                    rb"  dev: \d+\tino: (\d+)\n  uid: \d+\tgid: \d+\n  size: (\d+)\tflags: [0-9a-f]+\n")
_REGULAR = (b"100644", b"100755")


class GitIndex:
    """The tracked regular files under a root (root-relative paths with `/`), and when the index was written."""

    __slots__ = ("files", "written_ns")

    def __init__(self, files: Dict[str, Tracked], written_ns: int) -> None:
        self.files = files
        self.written_ns = written_ns

    def blob(self, rel: str, st: os.stat_result) -> Optional[str]:
        """The blob id the file holds if its stat data says it is as git wrote it; else None (read it)."""
        tracked = self.files.get(rel)
        if tracked is None or st.st_mtime_ns >= self.written_ns or tracked[1] != st.st_mtime_ns \
                or tracked[2] != st.st_ctime_ns or tracked[3] != st.st_size & _WORD or tracked[4] != st.st_ino & _WORD:
            return None
        return str(tracked[0])

    def holds(self, rel: str, st: os.stat_result, recorded_digest: str, recorded_size: int) -> bool:
        """Does the file hold the bytes a cache recorded (their digest and size), by git's word alone? The
        blob id covers the blob's size, so a conversion that changed the bytes (line endings, a smudge
        filter) shows as another size."""
        return st.st_size == recorded_size and self.blob(rel, st) == recorded_digest


def git_index(root: str) -> Optional[GitIndex]:
    """What git's index says of the files under `root`; None where it says nothing to rely on: no work
    tree, no git, a repository placed by environment variables, an index rewritten while it was read."""
    if any(name in os.environ for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")):
        return None
    found = _index_path(root)
    if found is None:
        return None
    index, top = found
    before = _mtime_ns(index)
    if before is None:
        return None
    files = _read_index(index, _prefix(root, top))
    if files is None:  # a form of index this reader leaves to git
        files = _listed(root)
    if files is None or _mtime_ns(index) != before:
        return None
    return GitIndex(files, before)


def _listed(root: str) -> Optional[Dict[str, Tracked]]:
    """The index's entries under `root`, as git lists them."""
    listed = _git(root, "ls-files", "--stage", "--debug", "-z", "--", ".")
    if listed is None:
        return None
    files: Dict[str, Tracked] = {}
    for m in _ENTRY.finditer(listed):
        if m.group(1) in _REGULAR and m.group(3) == b"0":
            files[m.group(4).decode("utf-8", "surrogateescape")] = (
                m.group(2).decode("ascii"), int(m.group(7)) * _NS + int(m.group(8)),
                int(m.group(5)) * _NS + int(m.group(6)), int(m.group(10)), int(m.group(9)))
    return files


def _read_index(path: str, prefix: bytes) -> Optional[Dict[str, Tracked]]:
    """The regular files at stage 0 under `prefix` (root-relative, `/`-ended, or empty), read from the index
    file itself (`gitformat-index`: versions 2, 3 and 4), which takes a fifth of the time of asking git
    and parsing its listing. None for what is left to git: another version, a split index (its entries
    live in a shared index), a repository of SHA-256 ids (longer entries), or bytes that do not parse."""
    import hashlib
    import struct

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if len(data) < 32 or data[:4] != b"DIRC" or hashlib.sha1(data[:-20]).digest() != data[-20:]:
        return None  # not an index this reader knows, whole and of SHA-1 ids (its own digest, at its end)
    version, count = struct.unpack_from(">II", data, 4)
    if version not in (2, 3, 4):
        return None
    entry = struct.Struct(">10I20sH")
    files: Dict[str, Tracked] = {}
    at, name, end = 12, b"", len(data) - 20  # the index ends with a digest of what precedes it
    try:
        for _ in range(count):
            (ctime_s, ctime_ns, mtime_s, mtime_ns, _dev, inode, mode, _uid, _gid, size, blob,
             flags) = entry.unpack_from(data, at)
            start = at + entry.size + (2 if flags & 0x4000 and version >= 3 else 0)  # extended flags
            if version == 4:  # the name is the last one's, less a count of bytes, then what follows
                cut, start = _varint(data, start)
                stop = data.index(b"\0", start)
                if cut > len(name):
                    return None
                name = name[:len(name) - cut] + data[start:stop]
                at = stop + 1
            else:
                stop = data.index(b"\0", start)
                name = data[start:stop]
                at = at + ((stop - at) // 8 + 1) * 8  # padded with one to eight NULs to a multiple of eight
            if at > end:
                return None
            if (mode == 0o100644 or mode == 0o100755) and not flags & 0x3000 and name.startswith(prefix):
                files[name[len(prefix):].decode("utf-8", "surrogateescape")] = (
                    blob.hex(), mtime_s * _NS + mtime_ns, ctime_s * _NS + ctime_ns, size, inode)
    except (struct.error, ValueError):
        return None
    while at + 8 <= end:  # the extensions: a split index's entries are elsewhere
        signature, length = data[at:at + 4], struct.unpack_from(">I", data, at + 4)[0]
        if signature == b"link":
            return None
        at += 8 + length
    return files if at == end else None


def _varint(data: bytes, at: int) -> Tuple[int, int]:
    """Git's offset encoding (`varint.c`): the value, and where what follows it starts."""
    byte = data[at]
    value = byte & 0x7F
    while byte & 0x80:
        at += 1
        byte = data[at]
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, at + 1


def _prefix(root: str, top: str) -> bytes:
    """`root` from the work tree's top, as the index spells paths (`python/`), or empty at the top."""
    relative = os.path.relpath(os.path.realpath(root), os.path.realpath(top))
    return b"" if relative == "." else os.fsencode(relative.replace(os.sep, "/")) + b"/"


def _index_path(root: str) -> Optional[Tuple[str, str]]:
    """The index file of the work tree holding `root`, and the work tree's top: `.git/index`, or where a
    `.git` file points (a linked work tree, a submodule); None outside a work tree."""
    directory = os.path.abspath(root)
    while True:
        dot_git = os.path.join(directory, ".git")
        if os.path.isdir(dot_git):
            return os.path.join(dot_git, "index"), directory
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, "rb") as handle:
                    line = handle.readline().strip()
            except OSError:
                return None
            if not line.startswith(b"gitdir: "):
                return None
            target = os.fsdecode(line[len(b"gitdir: "):])
            gitdir = target if os.path.isabs(target) else os.path.join(directory, target)
            return os.path.join(gitdir, "index"), directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _mtime_ns(path: str) -> Optional[int]:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def _git(root: str, *arguments: str) -> Optional[bytes]:
    """git's output, run in `root`; None if git is missing, fails or takes too long."""
    import subprocess

    # no optional locks: a question that only reads must not write the index (or race another git for it)
    environment = dict(os.environ, GIT_OPTIONAL_LOCKS="0")
    try:
        done = subprocess.run(["git", "-C", root, *arguments], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=environment, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None
