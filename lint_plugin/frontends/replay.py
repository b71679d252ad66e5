"""A warm `archsync check` answered from the record of the last identical one, before the engine is loaded.

When nothing changed, `check` prints the report the result cache holds (`pipeline/run.py`); finding
that out still reads the configuration, lists the tree, loads the stored run and imports the
formats, most of a warm run. A `check` whose every project's report came from the result cache
therefore records what it printed (both streams in order, the output file, the exit code) under its
invocation (the options, the paths as resolved, the directory it ran in, whether stdout is a terminal,
NO_COLOR, the Python, the tool's version and its code's stamps), with the stamp of everything that
run looked at:

- every directory it listed (an entry added, removed or renamed moves the directory's stamp) and
  every file of those listings a run may read (`*.py`, pyproject.toml, pyvenv.cfg);
- the directories from each path up to its project root (a pyproject.toml created on the way), and
  from each source root up to its project root;
- each project's index and result caches: the record answers only when the result cache would.

The next `check` with the same invocation stats those paths and, when every stamp is the recorded one
and the code is the same (`code_identity.py`), prints what was recorded and exits as that run did,
without importing anything of the engine. Anything else falls through to the real run, silently: a
stamp that moved, another invocation, a record that is torn, edited or not this code's.

A record is written only when every stamp is settled: its mtime and ctime older than the start of
the run by more than the racy margin (`file_stamp.RACY_NS`). Any change since then, to the bytes or
to the mtime (`cp -p`, `touch -d`), moves the ctime, so the stamps taken after the run still tell
what the run read; and a file touched in the seconds before a run is never trusted by its record.
The record is JSON sealed with its digest (`sealed.py`), written atomically beside the result cache;
a few are kept per project, the most recent.

Beside it goes the record of the same check by content (`carried.py`), for another checkout of the
same files: a CI job's fresh clone with the cache directory restored, elsewhere (no record of this
checkout's) or at the same place (every stamp moved, none kept). The first paths whose stamps all
moved tell the second case from an edit here, where some moved and the rest did not. Where the record
by content answers, this checkout is given a record of its own, on the same condition (every path it
stood on settled before the check began), so the checks after it are answered by stamps.
"""
from __future__ import annotations

import json
import os
import sys
import time

from .. import __version__
from ..project.cache_paths import replay_file
from ..project.code_identity import code_stamps
from ..project.file_stamp import RACY_NS, file_stamp
from ..project.sealed import seal
from .invocation import recordable as _recordable
from .record_values import read_record, record_name, string, zero_or_one

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, which a replayed check never needs
# (mypy reads the name as True)
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Optional, Sequence, TextIO, Tuple

    Stamp = Optional[Tuple[int, int]]  # (size, file_stamp) of a path; None: nothing there
    from .carried import Answer
    from .invocation import Arguments

SCHEMA = 1
DEFAULT_CACHE_DIR = ".archsync_cache"  # `cache-dir`'s default; a record is written only where the run's cache is
_ELSEWHERE = 64  # stamps that all moved, none kept: a checkout whose files were all written anew (`_seen`)
KEPT = 8  # records of each kind per project: the invocations used most recently (text, JSON, SARIF to a file, ...)
_CACHE_KEYS = (b"cache-dir", b"cache_dir", b"\\u", b"\\U")  # how pyproject.toml can name `cache-dir` (escapes too)

# -- answering ----------------------------------------------------------------------------------

def replayed(args: "Arguments") -> Optional[int]:
    """Print the recorded answer to this `check` and return its exit code; None if there is none to trust."""
    try:
        found = _answer(args)
        if found is None:
            return None
        out, written, exit_code = found
        if written is not None:
            with open(written[0], "wb") as handle:
                handle.write(written[1].encode("utf-8", "surrogateescape"))
    except (OSError, ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None  # the real run answers (and says what is wrong, if anything is)
    streams = (sys.stdout, sys.stderr)
    for which, text in out:
        streams[which].write(text)
        streams[which].flush()
    return exit_code


def _answer(args: "Arguments") -> Optional[Answer]:
    """The answer this checkout's record gives; when it has none, or nothing is as it recorded (a fresh
    checkout where the same check ran before), the answer the record by content gives (`carried.py`)."""
    where = location(args.paths)
    if where is None:
        return None
    root, directory = where
    record = _record(args, root, directory)
    if record is not None and record["code"] == code_stamps():
        seen = _seen(record["stamps"])
        if seen is False:
            return None  # something changed here: the real run answers
        if seen is True:
            written = record["file"]
            return ([(zero_or_one(which), string(text)) for which, text in record["out"]],
                    None if written is None else (string(written[0]), string(written[1])), zero_or_one(record["exit"]))
    from . import carried

    started = time.time_ns()  # before the answer looks at anything: see the module's docstring
    stood_on: List[str] = []
    found = carried.answer(args, root, directory, stood_on)
    if found is not None:
        _remember(args, root, directory, found, stood_on, started)
    return found


def _remember(args: "Arguments", root: str, directory: str, found: Answer, seen: List[str], started: int) -> None:
    """Keep a record of this checkout's own for a check the record by content answered (`carried.py`),
    so the next one here is answered by stamps: under the same conditions as a real run's (every path
    the answer stood on settled before it began). A fresh clone's files were all just written, so its
    first check keeps none and gives up at the first stamp; a checkout a day old keeps one."""
    key = invocation(args)
    if key is None:
        return
    paths: Dict[str, None] = dict.fromkeys(seen)
    paths[os.path.join(root, "pyproject.toml")] = None
    for path in args.paths:
        _up_to(os.path.realpath(path), paths, None)
    stamps = settled_stamps(paths, started)
    if stamps is None:
        return
    out, file, code = found
    _write(root, directory, key, started, stamps, [[which, text] for which, text in out],
           None if file is None else list(file), code)


def _record(args: "Arguments", root: str, directory: str) -> Optional[Dict[str, Any]]:
    """The record kept for this invocation, its seal and key checked; None if there is none."""
    key = invocation(args)
    if key is None:
        return None
    return read_record(root, replay_file(directory, record_name(key)), SCHEMA, key)


def _seen(stamps: List[List[Any]]) -> Optional[bool]:
    """True if every path recorded still has its stamp (and every absent one still does not exist);
    None if none has (another checkout at the same place, every file written anew), judged from the
    first `_ELSEWHERE` that moved; False if some have and some have not."""
    kept = moved = 0
    for path, size, stamp in stamps:
        now = _stamp(path)
        if now is None and size is None:
            continue  # still absent
        if now == (size, stamp):
            kept += 1
        else:
            moved += 1
        if kept and moved:
            return False
        if moved >= _ELSEWHERE:
            return None
    return None if moved else True


def _stamp(path: str) -> "Stamp":
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_size, file_stamp(st))


def invocation(args: "Arguments") -> Optional[str]:
    """What a check's output depends on besides the files it reads, as one string; None for a check
    that is never recorded (`invocation.recordable`)."""
    recordable = _recordable(args)
    if recordable is None:
        return None
    options, terminal, no_color = recordable
    # the code too: two installs checking one tree (a pre-commit hook's and a virtualenv's) keep a record each
    return json.dumps([__version__, code_stamps(), sys.version, os.getcwd(), [os.path.realpath(p) for p in args.paths],
                       options, terminal, no_color], sort_keys=True, separators=(",", ":"))


def location(paths: Sequence[str]) -> Optional[Tuple[str, str]]:
    """(root, cache directory) of the project the first path is in, as `find_root` finds it; None
    when it is in none, or its configuration does not load."""
    start = os.path.realpath(paths[0])
    directory = start if os.path.isdir(start) else os.path.dirname(start)
    while not os.path.isfile(os.path.join(directory, "pyproject.toml")):
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
    cache = _cache_dir(directory)
    return None if cache is None else (directory, cache)


def _cache_dir(root: str) -> Optional[str]:
    """The project's `cache-dir`: the default when pyproject.toml cannot name it (the common case, with
    no TOML parser loaded), else as the configuration reads it."""
    with open(os.path.join(root, "pyproject.toml"), "rb") as handle:
        data = handle.read()
    if not any(spelling in data for spelling in _CACHE_KEYS):
        return DEFAULT_CACHE_DIR
    from pathlib import Path

    from ..config import ConfigError, load_config

    try:
        return load_config(Path(root)).cache_dir
    except ConfigError:
        return None





# -- recording ----------------------------------------------------------------------------------

class _Tee:
    """A standard stream that keeps what is written to it, in order with the other one's."""

    def __init__(self, stream: TextIO, which: int, written: List[List[Any]]) -> None:
        self._stream = stream
        self._which = which
        self._written = written

    def write(self, text: str) -> int:
        if self._written and self._written[-1][0] == self._which:
            self._written[-1][1] += text
        else:
            self._written.append([self._which, text])
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class Recorder:
    """Around a real `check`: keeps what it prints, and records it when the result cache answered it.

    `report` is set by the check once it has one; `done(code)` records, or does not. Recording never
    changes what the check prints or returns: a record that cannot be written is no record.
    """

    def __init__(self, args: "Arguments") -> None:
        self.args = args
        self.report: Any = None
        self.started = time.time_ns()  # before the run looks at anything: see the module's docstring
        self._written: List[List[Any]] = []
        self._saved: Tuple[TextIO, TextIO] = (sys.stdout, sys.stderr)
        self._listing: Any = None

    def __enter__(self) -> "Recorder":
        from ..project.listing import shared

        self._listing = shared()  # the listings of the whole run, kept until it is recorded
        self._listing.__enter__()
        self._saved = (sys.stdout, sys.stderr)
        sys.stdout = _Tee(sys.stdout, 0, self._written)
        sys.stderr = _Tee(sys.stderr, 1, self._written)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.stdout, sys.stderr = self._saved
        self._listing.__exit__(*exc)

    def done(self, code: int) -> None:
        """Record the run if its every report came from the result cache and it did not fail."""
        if code not in (0, 1) or self.report is None or not self.report.reused:
            return
        try:
            self._record(code)
        except (OSError, ValueError, TypeError):
            pass  # no record: the next run is a real one

    def _record(self, code: int) -> None:
        key = invocation(self.args)
        where = location(self.args.paths)
        if key is None or where is None:
            return
        root, directory = where
        parts = self.report.parts or (self.report,)
        mine = [p for p in parts if str(p.root) == root]
        if len(mine) != 1 or mine[0].config.cache_dir != directory:
            return  # not where the project's own cache is
        stamps = self._stamps(parts)
        if stamps is None:
            return
        written = None
        if self.args.output_file:
            with open(self.args.output_file, "rb") as handle:
                written = [self.args.output_file, handle.read().decode("utf-8", "surrogateescape")]
        if _write(root, directory, key, self.started, stamps, self._written, written, code):
            self._record_content(root, directory, parts, written, code, stamps)

    def _record_content(self, root: str, directory: str, parts: Sequence[Any], written: Optional[List[str]],
                        code: int, stamps: List[List[Any]]) -> None:
        """The record any checkout of the same content may answer with (`carried.py`): its files are
        hashed after the stamps were found settled, and kept only if no stamp moved meanwhile."""
        from pathlib import Path

        from ..project.listing import listed
        from ..project.writer import WriteRefused, write_private
        from . import carried

        made = carried.record(self.args, root, directory, parts, listed(), self._written, written, code)
        if made is None or self._stamps(parts) != stamps:
            return
        try:
            write_private(Path(root), made[0], made[1])
        except WriteRefused:
            return
        _prune(os.path.join(root, directory), "carried")

    def _stamps(self, parts: Sequence[Any]) -> Optional[List[List[Any]]]:
        """The stamp of every path the run looked at, each settled; None if one is not."""
        from ..project.cache_paths import index_file, result_file
        from ..project.entries import DIRECTORY
        from ..project.listing import listed

        paths: Dict[str, None] = {}
        caches = set()
        for part in parts:
            root, config = str(part.root), part.config
            fingerprint = config.fingerprint()
            caches.add(os.path.normpath(os.path.join(root, config.cache_dir)))
            for rel in (index_file(config.cache_dir, fingerprint), result_file(config.cache_dir, fingerprint, True),
                        "pyproject.toml"):
                paths[os.path.join(root, rel)] = None
            for src in config.src:
                _up_to(os.path.normpath(os.path.join(root, src)), paths, root)
        for path in self.args.paths:
            _up_to(os.path.realpath(path), paths, None)
        for directory, entries in listed().items():
            if os.path.normpath(directory) in caches:
                continue  # holds archsync's own files alone (`cache_dir.py`), which change as it writes
            paths[directory] = None
            for _, path, kind in entries:
                if kind != DIRECTORY:  # `*.py`, pyproject.toml or pyvenv.cfg: all a listing holds besides directories
                    paths[path] = None
        return settled_stamps(paths, self.started)


def settled_stamps(paths: Iterable[str], started: int) -> Optional[List[List[Any]]]:
    """[path, size, stamp] of each path ([path, None, None]: absent), when every one was settled before
    `started` (by more than the racy margin); None at the first that was not."""
    settled = started - RACY_NS
    stamps: List[List[Any]] = []
    for path in paths:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            stamps.append([path, None, None])
            continue
        if st.st_mtime_ns >= settled or st.st_ctime_ns >= settled:
            return None
        stamps.append([path, st.st_size, file_stamp(st)])
    return stamps


def _write(root: str, directory: str, key: str, started: int, stamps: List[List[Any]], out: List[List[Any]],
           file: Optional[List[str]], code: int) -> bool:
    """Write the stamp record of a check (what it printed, the file it wrote, its exit code), sealed and
    atomically, and prune the old ones; False if it was refused."""
    from pathlib import Path

    from ..project.writer import WriteRefused, write_private

    body = {"schema": SCHEMA, "key": key, "code": code_stamps(), "started": started, "stamps": stamps, "out": out,
            "file": file, "exit": code}
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    try:
        write_private(Path(root), replay_file(directory, record_name(key)), seal(data))
    except WriteRefused:
        return False
    _prune(os.path.join(root, directory), "replay")
    return True


def _up_to(start: str, paths: Dict[str, None], root: Optional[str]) -> None:
    """`start` and each directory above it, up to `root` or (None) the first that holds a pyproject.toml."""
    paths[start] = None
    directory = start if os.path.isdir(start) else os.path.dirname(start)
    while True:
        paths[directory] = None
        if directory == root or (root is None and os.path.isfile(os.path.join(directory, "pyproject.toml"))):
            return
        parent = os.path.dirname(directory)
        if parent == directory:
            return
        directory = parent


def _prune(directory: str, kind: str) -> None:
    """Keep the `KEPT` most recent records of a kind ("replay", "carried") in the cache directory: every
    new invocation writes one of each."""
    prefix = f"result-{__version__}-"
    try:
        with os.scandir(directory) as entries:
            records = [(entry.stat(follow_symlinks=False).st_mtime_ns, entry.name) for entry in entries
                       if entry.name.startswith(prefix) and f"-{kind}-" in entry.name and entry.name.endswith(".json")
                       and entry.is_file(follow_symlinks=False)]
        for _, name in sorted(records, reverse=True)[KEPT:]:
            os.unlink(os.path.join(directory, name))
    except OSError:
        pass
