"""The fixes a run planned, kept for the next: a warm `check --format json` prints them without parsing.

A fix's payload (its text edits, or why it was refused) depends only on the request and the bytes
of the file it edits, so an entry is keyed by the request (its path aside) and the digest of those
bytes: it holds for any checkout, path or mtime. The file holds the entries of the last run that
planned fixes, under the tool, Python and archsync's own code that planned them (`code_identity.py`: by
its stamps, or by its content when they differ, as the result cache),
in the result cache's sealed form (a digest over the body, checked before it is read); written
through the guarded writer. Anything it cannot use is planned again: the cache only saves time.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

from .. import __version__
from ..diagnostics import FixRequest
from ..project.cache_paths import PYTHON, fixes_file
from ..project.code_identity import code_content, code_stamps
from ..project.sealed import digest, opened, seal
from ..project.writer import WriteRefused, read_private, write_private

SCHEMA = 1
Payloads = Dict[str, Dict[str, Any]]  # key -> {"edits": [...], "refused": reason (when refused)}
_EDIT = {"start_line": int, "start_column": int, "end_line": int, "end_column": int, "new_text": str}


def payload_key(request: FixRequest, content: str) -> str:
    """The key of `request` planned on bytes of digest `content`."""
    text = json.dumps([request.action, request.target, request.line, request.name, list(request.peers),
                       request.column, request.reference, content], ensure_ascii=False)
    return digest(text.encode("utf-8", "surrogatepass"))


class PayloadCache:
    """Load and save the planned fixes of one project's cache directory."""

    def __init__(self, root: Path, directory: str) -> None:
        self.root, self.rel = root, fixes_file(directory)

    def load(self) -> Payloads:
        try:
            raw = read_private(self.root, self.rel)  # never through a link
            document = json.loads(opened(raw)) if raw is not None else None
        except (OSError, ValueError):
            return {}
        if not isinstance(document, dict) or [document.get(k) for k in ("schema", "tool", "python")] != [
                SCHEMA, __version__, PYTHON]:
            return {}
        if document.get("code") != code_stamps() and document.get("content") != code_content():
            return {}  # other code planned them
        entries = document.get("fixes")
        if not isinstance(entries, dict) or not all(_valid(value) for value in entries.values()):
            return {}
        return entries

    def save(self, entries: Payloads) -> None:
        body = {"schema": SCHEMA, "tool": __version__, "python": PYTHON, "code": code_stamps(),
                "content": code_content(), "fixes": entries}
        data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
        try:
            write_private(self.root, self.rel, seal(data))
        except (WriteRefused, OSError):  # the fixes were printed; only the next run's time is lost
            pass


def _valid(payload: Any) -> bool:
    if not isinstance(payload, dict) or set(payload) - {"edits", "refused"}:
        return False
    if not isinstance(payload.get("edits"), list):
        return False
    if "refused" in payload and not isinstance(payload["refused"], str):
        return False
    return all(isinstance(edit, dict) and list(edit) == list(_EDIT)
               and all(type(edit[k]) is kind for k, kind in _EDIT.items()) for edit in payload["edits"])
