"""The result cache: a whole run's report, kept under every file's digest and the configuration.

The index cache spares a warm run the parsing; this one spares it everything after discovery.
It holds the report of the last run of a project (its diagnostics, counts and warnings) with,
for each file, what that run read from it: its size, mtime and digest, and a key of its record
(byte signals, and the facts the run asked for, `RecordState`). A run whose files all match
(size and mtime when the mtime is old enough to trust, else the digest, as the index cache
judges them) prints the stored report without loading the index, resolving or checking.

An edit that leaves a file's record as it was (a comment, a changed line in a function the
record holds nothing of) gives the run the same inputs, so the same report: the caller checks
that by recomputing the record of each changed file (`fresh_key.py`). Not when a diagnostic points
into the file: the report reads its noqa comments.

The file is JSON, `{"digest": D, "body": B}`, where D is the BLAKE2b digest of the bytes of B
as written. Loading checks D over those bytes before parsing them, so a torn, truncated or
edited file is rejected at once, then checks the header (schema, tool, code, Python,
configuration) and the shape of each value while decoding; anything else is rebuilt, with one
warning. It is written atomically through the guarded writer, like the index cache.

Nothing in it depends on where the project is or when its files were written: paths are
root-relative, every file is known by its digest when its stamp is not trusted, the code by its
content when its stamps differ (`code_identity.py`), the index cache beside it by its size and the
write time in its header. So a cache directory carried to a fresh clone (a CI cache) is taken:
the files are hashed once, the stored report stands, and the stamps are recorded again.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from .. import __version__
from ..diagnostics import Diagnostic, FixRequest
from .cache_paths import PYTHON, result_file
from .code_identity import code_content, code_stamps
from .discovery import SourceFile
from .file_stamp import file_stamp, trusted
from .files import Unreadable, digest, read_file
from .git_blobs import WORTH_ASKING, git_index
from .mentions import Counts
from .sealed import opened, seal
from .writer import WriteRefused, read_private, write_private

# the counts of the search for readers; files by git blob id (`files.digest`); the code by stamps and content; the
# index cache by its write time
SCHEMA = 6  # 5 added `checked`; 6 a fix's `reference`
TYPED, TYPED_REGISTERED = 4, 5  # levels of a file read in part for its lists of model types (`RecordState`)


class RecordState(NamedTuple):
    """What one run read from one file: its bytes' identity and its record's key.

    `level` is what the run asked of the file: 0 its byte signals only, 1 its registrations,
    2 all its facts, 3 whether its bytes bind a name (keyed by the bytes), 4 its lists of model types
    (read in part: `ProjectIndex.model_typed`), 5 its registrations and its lists of model types. `record` digests the
    signals and those facts (`record_key`). An immutable
    tuple rather than a frozen dataclass: a warm run builds one per file, and builds nothing else.
    """

    size: int
    stamp: int
    digest: str
    level: int
    record: str


@dataclass(frozen=True)
class StoredRun:
    """A run's report and what it depended on."""

    files: Mapping[str, RecordState]  # by root-relative path: every file the run discovered and read
    read: Tuple[str, ...]  # files whose bytes the report stage read (noqa comments): an edit there re-reports
    index_state: Tuple[int, int]  # (size, write time) of the index cache file the run left, (0, 0) if none
    diagnostics: Tuple[Diagnostic, ...]
    parsed: int
    warnings: Tuple[str, ...]
    written_ns: int = 0  # when the run began, before it took any stamp: what is racy is judged from it
    code_moved: bool = False  # written by this code installed elsewhere (its stamps): to record again
    # by path, the names the search for readers counted in the file and how often it found each (`mentions.py`):
    # an edit there stands only where the counts do
    mentions: Mapping[str, Counts] = field(default_factory=dict)
    checked: bool = True  # `Report.checked`


@dataclass(frozen=True)
class Changed:
    """A file not trusted by size and mtime: `same` when its bytes are the stored ones, else its bytes now."""

    source: SourceFile
    data: bytes
    size: int
    stamp: int
    same: bool


def record_key(level: int, signals: Sequence[Any], partial: bool, facts: Optional[List[Any]]) -> str:
    """The key of a record: its signals (as stored, lists sorted) and the facts at `level`."""
    import hashlib  # here, as in the two below: a run without caches needs no digest

    text = json.dumps([level, list(signals), partial if level else False, facts if level else None],
                      separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class ResultCache:
    """Load and save the stored run of one project, tool, code, Python and configuration."""

    def __init__(self, root: Path, directory: str, fingerprint: str, noqa: bool, index_rel: str) -> None:
        self.root = root
        self.fingerprint = fingerprint
        self.noqa = noqa
        self.index_rel = index_rel
        self.rel = result_file(directory, fingerprint, noqa)
        self.warnings: List[str] = []
        # before any file is stamped: a file written after this, in the same tick as its stamp, is racy
        self.started_ns = time.time_ns()
        self.content: Optional[str] = None  # the code's identity by content, once known (costly to compute)
        self.loaded: Optional[StoredRun] = None  # the run `load` read, if any: its keys of unchanged bytes stand

    # -- loading --------------------------------------------------------------------
    def load(self) -> Optional[StoredRun]:
        try:
            raw = read_private(self.root, self.rel)  # never through a link
        except OSError as exc:
            self._warn(f"result cache not read ({exc.strerror or exc}); running without it")
            return None
        if raw is None:
            return None
        try:
            self.loaded = self._decode(opened(raw))
            return self.loaded
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
            self._warn(f"result cache {self.rel.rsplit('/', 1)[-1]} is corrupt; rebuilding it")
            return None

    def _decode(self, body: bytes) -> Optional[StoredRun]:
        document = json.loads(body)
        if not isinstance(document, dict):
            raise ValueError("not an object")
        if (document.get("schema"), document.get("tool"), document.get("python"), document.get("config"),
                document.get("noqa")) != (SCHEMA, __version__, PYTHON, self.fingerprint, self.noqa):
            return None  # another tool or configuration wrote it under our name: rebuilt silently
        code_moved = document.get("code") != code_stamps()
        content = code_content() if code_moved else document.get("content")
        if not isinstance(content, str) or content != document.get("content"):
            return None  # other code: rebuilt silently
        self.content = content  # this code's, as the document says (written by it) or as computed
        files: Dict[str, RecordState] = {}
        for item in _list(document["files"]):  # one per file: checked by exact type, which is cheap
            if type(item) is not list or len(item) != 6:
                raise ValueError("bad file entry")
            rel, size, stamp, file_digest, level, record = item
            if not (type(rel) is str and type(size) is int and type(stamp) is int and type(file_digest) is str
                    and type(level) is int and 0 <= level <= TYPED_REGISTERED and type(record) is str):
                raise ValueError("bad file entry")
            files[rel] = RecordState(size, stamp, file_digest, level, record)
        report = document["report"]
        if not isinstance(report, dict):
            raise ValueError("bad report")
        index_state = _list(document["index"], 2)
        return StoredRun(
            files=files,
            read=tuple(_str(r) for r in _list(document["read"])),
            index_state=(_int(index_state[0]), _int(index_state[1])),
            diagnostics=tuple(_diagnostic(d) for d in _list(report["diagnostics"])),
            parsed=_int(report["parsed"]),
            warnings=tuple(_str(w) for w in _list(report["warnings"])),
            written_ns=_int(document["written"]),
            code_moved=code_moved,
            mentions={_str(rel): _counts(counts) for rel, counts in _pairs(document["mentions"])},
            checked=_bool(report["checked"]),
        )

    def index_state(self) -> Tuple[int, int]:
        """(size, write time) of the index cache file now: a run is reused only beside the index it
        left. The write time is the one its header holds, so a copy of the index is still that index."""
        return index_identity(os.path.join(self.root, self.index_rel))

    # -- comparing ------------------------------------------------------------------
    def changes(self, stored: StoredRun, files: Sequence[SourceFile]) -> Optional[List[Changed]]:
        """The files not trusted by size and mtime, with their bytes; None if the set of files
        changed, a file cannot be read or the index cache is not the one the run left (redo it)."""
        if len(files) != len(stored.files) or self.index_state() != stored.index_state:
            return None
        stale: List[Tuple[SourceFile, RecordState, os.stat_result]] = []
        for source in files:
            state = stored.files.get(source.rel)
            if state is None:
                return None
            try:
                st = os.stat(source.path)
            except OSError:
                return None
            if not trusted(state.size, state.stamp, st, stored.written_ns):
                stale.append((source, state, st))
        changed: List[Changed] = []
        index = git_index(str(self.root)) if len(stale) >= WORTH_ASKING else None
        if index is not None:  # a fresh checkout: what git holds as it wrote it is not read (`git_blobs.py`)
            unread = []
            for source, state, st in stale:
                if index.holds(source.rel, st, state.digest, state.size):
                    changed.append(Changed(source, b"", st.st_size, file_stamp(st), True))
                else:
                    unread.append((source, state, st))
            stale = unread
        compared = _compared([(source.path, state.size, state.digest) for source, state, _ in stale])
        for (source, _, st), found in zip(stale, compared):
            if isinstance(found, Unreadable):
                return None
            changed.append(Changed(source, found if isinstance(found, bytes) else b"", st.st_size, file_stamp(st),
                                   found is True))
        return changed

    # -- saving ---------------------------------------------------------------------
    def save(self, run: StoredRun) -> None:
        body = {
            "schema": SCHEMA, "tool": __version__, "python": PYTHON, "code": code_stamps(),
            "content": self.content or code_content(),
            "config": self.fingerprint, "noqa": self.noqa, "written": self.started_ns,
            "index": list(run.index_state),
            "files": [[rel, s.size, s.stamp, s.digest, s.level, s.record] for rel, s in sorted(run.files.items())],
            "read": sorted(run.read),
            "mentions": [[rel, [list(c) for c in counts]] for rel, counts in sorted(run.mentions.items())],
            "report": {"parsed": run.parsed, "warnings": list(run.warnings), "checked": run.checked,
                       "diagnostics": [_encode_diagnostic(d) for d in run.diagnostics]},
        }
        data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
        try:
            write_private(self.root, self.rel, seal(data))
        except WriteRefused as exc:
            self._warn(f"result cache not written ({exc}); results are unaffected")
        except OSError as exc:
            self._warn(f"result cache not written ({exc.strerror or exc}); results are unaffected")

    def _warn(self, text: str) -> None:
        if not self.warnings:
            self.warnings.append(text)


_SPREAD_BYTES = 8 << 20  # from this much to read, `_compared` reads and hashes on several threads


def _compared(files: Sequence[Tuple[str, int, str]]) -> List[Union[bool, bytes, Unreadable]]:
    """For each (path, size, digest): True if the file holds those bytes, else its bytes (or why it
    cannot be read). A fresh clone hashes every file: reading and BLAKE2b release the GIL, so over
    several megabytes the work is spread over threads, one per core (up to 4)."""
    found: List[Union[bool, bytes, Unreadable]] = [False] * len(files)

    def compare(start: int, step: int) -> None:
        for i in range(start, len(files), step):
            path, size, expected = files[i]
            data = read_file(path)
            found[i] = True if not isinstance(data, Unreadable) and len(data) == size \
                and digest(data) == expected else data

    threads = min(4, os.cpu_count() or 1) if sum(size for _, size, _ in files) >= _SPREAD_BYTES else 1
    if threads == 1:
        compare(0, 1)
        return found
    import threading

    helpers = [threading.Thread(target=compare, args=(i, threads), daemon=True) for i in range(1, threads)]
    for helper in helpers:
        helper.start()
    compare(0, threads)
    for helper in helpers:
        helper.join()
    return found


def index_identity(path: str) -> Tuple[int, int]:
    """(size, write time in its header) of an index cache file; (0, 0) if there is none to read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return (0, 0)
    try:
        size = os.fstat(fd).st_size
        head = os.read(fd, 256)
    except OSError:
        return (0, 0)
    finally:
        os.close(fd)
    start = head.find(b'"written":')  # `{"schema":N,"tool":"V","config":"F","written":T,...`: see cache.py
    if start < 0:
        return (size, 0)
    digits = head[start + len(b'"written":'):].split(b",", 1)[0]
    return (size, int(digits)) if digits.isdigit() else (size, 0)


def _encode_diagnostic(d: Diagnostic) -> List[Any]:
    fix = None if d.fix is None else [d.fix.action, d.fix.path, d.fix.target, d.fix.line, d.fix.name,
                                       list(d.fix.peers), d.fix.column, d.fix.reference]
    return [d.path, d.line, d.column, d.code, d.message, d.subject, d.member, fix]


def _diagnostic(data: Any) -> Diagnostic:
    path, line, column, code, message, subject, member, fix = _list(data, 8)
    request = None
    if fix is not None:
        action, fix_path, target, fix_line, name, peers, fix_column, reference = _list(fix, 8)
        request = FixRequest(_str(action), _str(fix_path), _str(target), _int(fix_line), _str(name),
                             tuple(_str(p) for p in _list(peers)), _int(fix_column), _str(reference))
    return Diagnostic(_str(path), _int(line), _int(column), _str(code), _str(message), _optional_str(subject),
                      _optional_str(member), request)


def _list(value: Any, length: int = -1) -> List[Any]:
    if not isinstance(value, list) or (length >= 0 and len(value) != length):
        raise ValueError("expected a list")
    return value


def _pairs(value: Any) -> List[Tuple[Any, Any]]:
    return [(item[0], item[1]) for item in (_list(v, 2) for v in _list(value))]


def _counts(value: Any) -> Counts:
    return tuple((_str(name), _int(times)) for name, times in _pairs(value))


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("expected a string")
    return value


def _optional_str(value: Any) -> Optional[str]:
    return None if value is None else _str(value)


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("expected an integer")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value
