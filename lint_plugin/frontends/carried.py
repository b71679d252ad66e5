"""A check answered on a fresh checkout from the record of the same check on another one, by content.

The record of a warm check (`replay.py`) is kept under the paths, stamps and inodes of the checkout
it ran on; a CI job's fresh clone, with the cache directory restored (`actions/cache`), has none of
them, and would hash every file through the result cache, loading the engine to do so. So beside
that record each recorded check leaves one keyed by content, where nothing depends on where the
project is or when it was written:

- the invocation as seen from the project root: the directory the check ran in and its paths
  relative to the root (given as relative paths, with no link on the way), its options, the
  terminal, NO_COLOR, the Python and the tool's version; the code by its stamps, or when they
  differ (another install) by its content (`code_identity.py`);
- the digest of what the run saw (`tree_content.py`): the listing of every directory it looked at
  and the bytes of every file they list, by root-relative path;
- the head of each project's index and result cache files (the seal of the result cache covers its
  body): the record answers only when the result cache would;
- what the check printed, the root's absolute path cut out of it (the JSON's `root`, SARIF's
  base URI) to be put back as the checkout's own.

Only a check whose every directory lies inside the project root of its first path is recorded so,
and only when the root is spelt with characters that JSON and URIs write as they are (letters,
digits, `/._~-`), where it appears as a path of its own; and only when the stamp record is written,
so every file was settled before the run began and is hashed while it still holds what the run read.
Any byte changed, any file added or removed, another option: the real run answers.
"""
from __future__ import annotations

import json
import os
import sys

from .. import __version__
from ..project.cache_paths import carried_file, index_file, result_file
from ..project.code_identity import code_content, code_stamps
from ..project.sealed import seal
from ..project.tree_content import tree_digest
from .invocation import recordable
from .record_values import read_record, record_name, string, zero_or_one

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:
    from typing import Any, Iterable, List, Optional, Sequence, Set, Tuple

    from .invocation import Arguments

    Answer = Tuple[List[Tuple[int, str]], Optional[Tuple[str, str]], int]  # (streams, output file, exit code)

SCHEMA = 2  # a file counts as its size and git blob id (`tree_content.py`)
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._~-")
_HEAD = 128  # bytes of a cache file's head that identify it (the index's write time, the result's seal)


def key(args: "Arguments", root: str) -> Optional[str]:
    """The invocation as seen from the project root, as one string; None when it cannot be seen so
    (a check never recorded, a directory or path outside the root, an absolute or linked path)."""
    found = recordable(args)
    if found is None or not _plain(root):
        return None
    options, terminal, no_color = found
    here = os.getcwd()
    if not _inside(here, root):
        return None
    for path in args.paths:
        if os.path.isabs(path) or os.path.realpath(path) != os.path.abspath(path) \
                or not _inside(os.path.abspath(path), root) or not (path.endswith(".py") or os.path.isdir(path)):
            return None
    return json.dumps(["carried", __version__, sys.version, os.path.relpath(here, root), options, terminal, no_color],
                      sort_keys=True, separators=(",", ":"))


def answer(args: "Arguments", root: str, directory: str, seen: "Optional[List[str]]" = None) -> Optional[Answer]:
    """The recorded answer to this check if this checkout holds what the recorded one did; else None.
    `seen`, if given, gets every path the answer stands on: the cache files, each directory compared and
    each file it lists (what this checkout's own record of the check would stamp, `replay.py`)."""
    invocation = key(args, root)
    if invocation is None:
        return None
    record = read_record(root, carried_file(directory, record_name(invocation)), SCHEMA, invocation)
    if record is None:
        return None
    if record["code"] != code_stamps() and record["content"] != code_content():
        return None
    if any(_head(os.path.join(root, string(rel))) != [size, head] for rel, size, head in record["caches"]):
        return None
    if seen is not None:
        seen.extend(os.path.join(root, string(rel)) for rel, _, _ in record["caches"])
    if tree_digest(root, [string(rel) for rel in record["directories"]], seen) != record["tree"]:
        return None
    out = [(zero_or_one(which), _joined(pieces, root)) for which, pieces in record["out"]]
    written = record["file"]
    file = None if written is None else (string(written[0]), _joined(written[1], root))
    return out, file, zero_or_one(record["exit"])


def record(args: "Arguments", root: str, directory: str, parts: Sequence[Any], listed: Iterable[str],
           out: Sequence[Sequence[Any]], file: Optional[Sequence[str]], code: int) -> Optional[Tuple[str, bytes]]:
    """(where, the sealed record) of this check by content, or None when it cannot be kept so. `listed`:
    every directory the run listed; the caller has checked that every file was settled before the run."""
    invocation = key(args, root)
    if invocation is None:
        return None
    caches = set()
    heads = []
    directories: Set[Optional[Tuple[str, ...]]] = set()
    for part in parts:
        part_root, config = str(part.root), part.config
        caches.add(os.path.normpath(os.path.join(part_root, config.cache_dir)))
        for name in (index_file(config.cache_dir, config.fingerprint()), result_file(config.cache_dir,
                                                                                     config.fingerprint(), True)):
            rel = os.path.relpath(os.path.join(part_root, name), root)
            heads.append([rel, *_head(os.path.join(root, rel))])
        directories.update(_up_to(os.path.normpath(os.path.join(part_root, src)), root) for src in config.src)
    for path in args.paths:
        absolute = os.path.abspath(path)
        directories.add(_up_to(absolute if os.path.isdir(absolute) else os.path.dirname(absolute), root))
    if None in directories:
        return None
    every = {rel for chain in directories if chain is not None for rel in chain}
    for listed_directory in listed:
        if os.path.normpath(listed_directory) in caches:
            continue  # holds archsync's own files alone, which change as it writes
        if not _inside(listed_directory, root):
            return None
        every.add(_rel(listed_directory, root))
    tree = tree_digest(root, sorted(every))
    pieces = [[which, _pieces(text, root)] for which, text in out]
    written = None if file is None else [file[0], _pieces(file[1], root)]
    if tree is None or any(p[1] is None for p in pieces) or (written is not None and written[1] is None):
        return None
    body = {"schema": SCHEMA, "key": invocation, "code": code_stamps(), "content": code_content(),
            "caches": heads, "directories": sorted(every), "tree": tree, "out": pieces, "file": written, "exit": code}
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    return carried_file(directory, record_name(invocation)), seal(data)


def _up_to(start: str, root: str) -> Optional[Tuple[str, ...]]:
    """The root-relative directories from `start` up to the root; None if `start` is not inside it."""
    if not _inside(start, root):
        return None
    chain = []
    directory = start
    while directory != root:
        chain.append(_rel(directory, root))
        directory = os.path.dirname(directory)
    return (*chain, "")


def _pieces(text: str, root: str) -> Optional[List[str]]:
    """`text` cut where the root's path is written; None if it is written where it may be part of another
    path (`/x/root-2`, `/y/x/root`), which the text of another checkout would not hold changed."""
    pieces = text.split(root)
    for before, after in zip(pieces, pieces[1:]):
        if (before and before[-1] in _PLAIN and not before.endswith("file://")) or (after and after[0] in _PLAIN
                                                                                   and after[0] != "/"):
            return None
    return pieces


def _joined(pieces: Any, root: str) -> str:
    if type(pieces) is not list or not all(type(p) is str for p in pieces):
        raise ValueError("not a text")
    return root.join(pieces)


def _head(path: str) -> List[Any]:
    """[size, the first bytes] of a cache file, [None, None] if there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return [None, None]
    try:
        return [os.fstat(fd).st_size, os.read(fd, _HEAD).decode("latin-1")]
    except OSError:
        return [None, None]
    finally:
        os.close(fd)


def _plain(path: str) -> bool:
    return path.startswith("/") and all(c in _PLAIN for c in path)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _rel(path: str, root: str) -> str:
    rel = os.path.relpath(path, root)
    return "" if rel == "." else rel
