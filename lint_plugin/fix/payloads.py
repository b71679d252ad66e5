"""Fixes as data for front ends that cannot write files: JSON, flake8's one line, the editor."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic, FixRequest
from ..project.files import Unreadable, digest, read_file

if TYPE_CHECKING:
    from .payload_cache import PayloadCache


def fix_payloads(root: Path, diagnostics: Sequence[Diagnostic], overrides: Optional[Mapping[str, bytes]] = None,
                 cache: Optional["PayloadCache"] = None) -> Dict[int, Dict[str, Any]]:
    """For each fixable diagnostic (by index), its fix as JSON: the request and its text edits.

    Each fix is planned alone against the file as it is, so a front end can offer any of
    them independently; the fixes of one file share one parse of it. A fix the editor refuses
    carries its reason instead of edits. With a `cache`, a fix planned by the last run on the
    same bytes is taken from it, and the editor (libcst) is not even imported when all are.
    """
    by_file: Dict[str, List[Tuple[int, FixRequest]]] = {}
    for i, d in enumerate(diagnostics):
        if d.fix is not None:
            by_file.setdefault(d.fix.path, []).append((i, d.fix))
    known = cache.load() if cache is not None else {}
    kept: Dict[str, Dict[str, Any]] = {}
    payloads: Dict[int, Dict[str, Any]] = {}
    for path, fixes in by_file.items():
        data = (overrides or {}).get(path) or read_file(root / path)
        source = b"" if isinstance(data, Unreadable) else data
        if cache is not None:
            content = digest(source)
            from .payload_cache import payload_key

            keys: List[Optional[str]] = [payload_key(fix, content) for _, fix in fixes]
        else:
            keys = [None] * len(fixes)
        planned = iter(_planned(source, [fix for (_, fix), key in zip(fixes, keys) if key not in known]))
        for (i, fix), key in zip(fixes, keys):
            part = known[key] if key in known else next(planned)
            if key is not None:
                kept[key] = part
            payloads[i] = dict(fix.to_json(), **part)
    if cache is not None and kept != known:
        cache.save(kept)
    return payloads


def _planned(source: bytes, fixes: Sequence[FixRequest]) -> List[Dict[str, Any]]:
    """The payload of each fix planned alone on `source`: its edits, and why it was refused."""
    if not fixes:
        return []
    from .editor.apply import apply_each  # libcst: only when a fix is planned

    parts = []
    for result in apply_each(source, [[fix] for fix in fixes]):
        part: Dict[str, Any] = {"edits": [dataclasses.asdict(e) for e in result.edits]}
        if result.refused:
            part["refused"] = result.refused[0].reason
        parts.append(part)
    return parts
