"""The index cache: per-file signals and facts, keyed by content, the code that made them and configuration.

One JSON file per (tool version, configuration fingerprint) under the cache directory,
validated on load and replaced atomically (temporary file plus rename), so concurrent
processes (flake8 -j workers, editors, pre-commit) never see a torn file: the last
writer wins and every reader sees a complete one. A file is trusted when its size and
stamp (mtime, ctime, inode: `file_stamp`) match and its mtime is not too recent; otherwise its
bytes are hashed and compared.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .. import __version__
from ..config.cache_dir import MARKERS
from ..extract.facts import FileFacts
from .cache_paths import index_file
from .code_identity import code_content, code_stamps
from .codec import decode_facts, encode_facts
from .file_stamp import trusted
from .prefilter import Signals, stored_signals
from .writer import WriteRefused, read_private, write_private

SCHEMA = 24  # 24: loose gates (`~` in `FileFacts.gates`: a term of an `or`); 23: the string each member of a table
# maps to (`Literal.values`), the keys decorators file classes under (`Signals.keys`); 22: the code that wrote it
# (`code`, `content`); 21: the tests nested where only another list's names reach (`FileFacts.gates`)


@dataclass(frozen=True)
class CachedFile:
    """What is known about one file's bytes."""

    size: int
    stamp: int
    digest: str
    signals: Signals
    facts: Optional[FileFacts] = None
    partial: bool = False  # facts hold registrations only
    # facts as stored, decoded only when the index needs them (most are never needed)
    encoded: Optional[List[Any]] = field(default=None, compare=False, repr=False)
    # the entry's text as the cache file holds it: written back as it is while the record is the one loaded
    # (a run that an edit redoes changes a few records of thousands)
    stored: Optional[bytes] = field(default=None, compare=False, repr=False)

    def decoded(self, rel: str) -> "CachedFile":
        """This record with its stored facts decoded; without them if they do not decode."""
        if self.facts is not None or self.encoded is None:
            return self
        try:
            facts = decode_facts(self.encoded)
            if facts.path != rel:
                raise ValueError("facts of another file")
        except (ValueError, TypeError, IndexError, RecursionError):
            return CachedFile(self.size, self.stamp, self.digest, self.signals)
        # keep the stored form too: saving it again needs no re-encoding
        return CachedFile(self.size, self.stamp, self.digest, self.signals, facts, self.partial, self.encoded,
                          self.stored)


class IndexCache:
    """Load and save the cache file for one project, version and configuration.

    Entries are validated on load; each file's facts are validated when first decoded, and
    facts that do not decode are dropped (the file is parsed again), never trusted."""

    def __init__(self, root: Path, directory: str, fingerprint: str, borrowed: bool = False) -> None:
        # borrowed: the cache of another copy of the project (the working tree's, read for a
        # revision's files): entries count only by digest, and nothing is ever written back
        self.borrowed = borrowed
        self.root = root
        self.directory = root / directory
        self.fingerprint = fingerprint
        self.rel = index_file(directory, fingerprint)
        self.path = root / self.rel
        self.written_ns = 0
        self.warnings: List[str] = []
        # by path, the digest and facts of each file the last run read in part for its lists of model types
        # (`ProjectIndex.model_typed`), as `load` found them: a run whose edit changed other files reads
        # none of them again (31 files of SGLang, a tenth of such a run)
        self.typed: Dict[str, Tuple[str, FileFacts]] = {}
        # the time the document records as its own: taken before any file is stamped, so a file
        # written in the same tick as its stamp is never trusted by it (see `file_stamp.trusted`)
        self.started_ns = time.time_ns()

    def load(self) -> Dict[str, CachedFile]:
        try:
            raw = read_private(self.root, self.rel)  # never through a link: a committed one may point anywhere
            if raw is None:
                return {}
        except OSError as exc:
            self._warn(f"cache not read ({exc.strerror or exc}); running without it")
            return {}
        try:
            document = json.loads(raw)
            return self._decode(document, raw)
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
            self._warn(f"cache file {self.path.name} is corrupt; rebuilding it")
            return {}

    def _decode(self, document: Any, raw: bytes = b"") -> Dict[str, CachedFile]:
        if isinstance(document, dict) and ((document.get("schema"), document.get("tool"), document.get("config"))
                                           != (SCHEMA, __version__, self.fingerprint) or not _same_code(document)):
            return {}  # another build or configuration wrote it under our name: rebuilt silently, not corrupt
        if not isinstance(document, dict) or not isinstance(document.get("files"), dict):
            raise ValueError("foreign cache")
        written = document.get("written")
        if not isinstance(written, int):
            raise ValueError("no write time")
        self.written_ns = written
        entries = {}
        texts = _entry_texts(raw, document["files"])
        for rel, item in document["files"].items():
            if not isinstance(rel, str) or not isinstance(item, list) or len(item) != 18:
                raise ValueError("bad entry")
            (size, stamp, file_digest, guarded, registers, quoted, imports, imported, classes, bases,
             shape_tests, configs, model_types, builds, keys, roots, runs, facts) = item
            if not (isinstance(size, int) and isinstance(stamp, int) and isinstance(file_digest, str)
                    and isinstance(guarded, bool) and isinstance(registers, bool) and isinstance(model_types, bool)
                    and all(isinstance(names, list) and all(isinstance(n, str) for n in names)
                            for names in (quoted, imports, imported, classes, bases, shape_tests, configs,
                                          builds, keys, roots, runs))):
                raise ValueError("bad entry")
            partial = False
            encoded = None
            if facts is not None:
                if not (isinstance(facts, list) and len(facts) == 2 and isinstance(facts[0], bool)
                        and isinstance(facts[1], list)):
                    raise ValueError("bad facts")
                partial, encoded = facts
            entries[rel] = CachedFile(size, stamp, file_digest,
                                      Signals(guarded, registers, frozenset(quoted), frozenset(imports),
                                              frozenset(imported), frozenset(classes), frozenset(bases),
                                              frozenset(shape_tests), frozenset(configs), model_types,
                                              frozenset(builds), frozenset(keys), frozenset(roots),
                                              frozenset(runs)),
                                      None, partial, encoded, texts.get(rel))
        self.typed = _typed_entries(document.get("typed", {}))
        return entries

    def _warn(self, text: str) -> None:
        """One warning per run at most: the first problem is the one to fix."""
        if not self.warnings:
            self.warnings.append(text)

    def is_fresh(self, entry: CachedFile, stat: os.stat_result) -> bool:
        """Size and stamp match, and the mtime is old enough that an edit would have moved it."""
        return not self.borrowed and trusted(entry.size, entry.stamp, stat, self.written_ns)

    def save(self, entries: Dict[str, CachedFile], typed: Optional[Dict[str, Tuple[str, FileFacts]]] = None) -> None:
        """Write the records, and `typed` (by path, the digest and facts of files read for their lists of model
        types alone)."""
        if self.borrowed:
            return
        # The document is written one entry at a time: built whole, the encoded facts of every file
        # would be alive at once, several times the size of the text (on large trees, the run's peak)
        head = json.dumps({"schema": SCHEMA, "tool": __version__, "config": self.fingerprint,
                           "code": code_stamps(), "content": code_content(), "written": self.started_ns},
                          separators=(",", ":"))
        parts = [head[:-1].encode(), b',"files":{']
        for i, (rel, e) in enumerate(sorted(entries.items())):  # one a line (`_entry_texts`)
            if e.stored is None:
                entry = [e.size, e.stamp, e.digest, *stored_signals(e.signals), _stored_facts(e)]
                text = json.dumps({rel: entry}, separators=(",", ":"))[1:-1].encode()
            else:
                text = e.stored
            parts.append((b",\n" if i else b"\n") + text)
        parts.append(b"\n}")
        if typed:
            parts.append(b',"typed":' + json.dumps({rel: [digest, encode_facts(facts)] for rel, (digest, facts)
                                                    in sorted(typed.items())}, separators=(",", ":")).encode())
        parts.append(b"}")
        data = b"".join(parts)
        del parts
        try:
            write_private(self.root, self.rel, data, MARKERS)
        except WriteRefused as exc:
            self._warn(f"cache not written ({exc}); results are unaffected")
        except OSError as exc:
            self._warn(f"cache not written ({exc.strerror or exc}); results are unaffected")


def _same_code(document: Dict[str, Any]) -> bool:
    """Was the cache written by this code? Facts are what the extractor made of a file, and the version alone
    does not say which extractor (every build of one version, an editable install being worked on): by the
    code's stamps, or else its content (a fresh install of the same code, a cache restored in CI)."""
    return document.get("code") == code_stamps() or document.get("content") == code_content()


def _entry_texts(raw: bytes, files: Dict[str, Any]) -> Dict[str, bytes]:
    """By path, the text of each entry of `files` in the document's bytes, where `save` wrote one a line (a
    JSON string never holds a raw newline); none where the lines are not those entries, in their order."""
    lines = raw.split(b"\n", len(files) + 1)
    if len(lines) != len(files) + 2 or not lines[-1].startswith(b"}"):
        return {}
    texts = {}
    for rel, line in zip(files, lines[1:-1]):
        text = line[:-1] if line.endswith(b",") else line
        if not text.startswith(json.dumps(rel).encode() + b":"):
            return {}
        texts[rel] = text
    return texts


def _typed_entries(stored: Any) -> Dict[str, Tuple[str, FileFacts]]:
    """The `typed` part of a document, each entry validated: one that does not decode is dropped (its file is
    read again when asked), never trusted."""
    if not isinstance(stored, dict):
        raise ValueError("bad typed facts")
    found = {}
    for rel, item in stored.items():
        if not (isinstance(rel, str) and isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
                and item[0] and isinstance(item[1], list)):
            raise ValueError("bad typed facts")
        try:
            facts = decode_facts(item[1])
        except (ValueError, TypeError, IndexError, RecursionError):
            continue
        if facts.path == rel:
            found[rel] = (item[0], facts)
    return found


def _stored_facts(entry: CachedFile) -> Optional[List[Any]]:
    if entry.encoded is not None:  # unchanged since loaded (new facts never carry `encoded`)
        return [entry.partial, entry.encoded]
    if entry.facts is not None:
        return [entry.partial, encode_facts(entry.facts)]
    return None

