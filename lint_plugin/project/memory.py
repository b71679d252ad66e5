"""The per-file records one run of a project leaves for the next (the language server's part of `RunMemory`).

The index cache makes a run cheap by reading every record back from JSON and checking every
file's size and mtime; a process that checks the same project on every keystroke can keep the
records themselves, decoded, and skip both. A file's record is trusted while the stamp it was
read under (`project/stamps.py`, taken before the read) is the latest its watcher has: a change
on disk gives the file a new stamp, so its record is read again. An open buffer's record is
kept by content: it is reused only while the buffer holds the bytes it was made from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, Mapping, Optional, Tuple

from ..extract.facts import FileFacts
from .cache import CachedFile
from .discovery import SourceFile
from .stamps import Stamp


@dataclass(frozen=True)
class RecordMemory:
    """The records of one project's last run, by path, for the next run's index (`known`)."""

    files: Mapping[str, Tuple[Stamp, CachedFile]] = field(default_factory=dict)  # as on disk, with their stamp
    buffers: Mapping[str, CachedFile] = field(default_factory=dict)  # open buffers', checked by digest when reused
    # (digest, facts) of the files the run read in part for their lists of model types: the same bytes again
    # read alike (`ProjectIndex.model_typed`), and what an edit is compared with (`session._again`)
    typed: Mapping[str, Tuple[str, FileFacts]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.files or self.buffers)

    def known(self, files: Iterable[SourceFile], overrides: Mapping[str, bytes],
              stamps: Mapping[str, Stamp]) -> Dict[str, CachedFile]:
        """Records a run may take as they are: a file's whose stamp is still `stamps`'s, a buffer's last one."""
        found: Dict[str, CachedFile] = {}
        for source in files:
            rel = source.rel
            if rel in overrides:
                record = self.buffers.get(rel)
                if record is None:
                    kept = self.files.get(rel)  # a buffer just opened holds what is on disk, most often
                    record = kept[1] if kept is not None else None
                if record is not None:
                    found[rel] = record
                continue
            kept = self.files.get(rel)
            if kept is not None and kept[0] == stamps.get(rel):
                found[rel] = kept[1]
        return found

    def after(self, records: Iterable[Tuple[str, CachedFile]], overrides: Mapping[str, bytes],
              stamps: Mapping[str, Stamp], typed: Optional[Mapping[str, Tuple[str, FileFacts]]] = None
              ) -> "RecordMemory":
        """What a run leaves (every readable file's record): files under the stamps taken before the
        run read them, buffers by content. A file the stamps do not hold (created since they were
        taken) is not kept, nor is one the run no longer reads: the next run reads it.
        """
        files: Dict[str, Tuple[Stamp, CachedFile]] = {}
        buffers: Dict[str, CachedFile] = {}
        for rel, record in records:
            if rel in overrides:
                buffers[rel] = record
                on_disk = self.files.get(rel)
                if on_disk is not None:
                    files[rel] = on_disk  # for when the buffer is closed (if the file has not changed)
                continue
            stamp: Optional[Stamp] = stamps.get(rel)
            if stamp is not None:
                files[rel] = (stamp, record)
        return RecordMemory(files, buffers, dict(typed or {}))  # a closed buffer's record is of no more use
