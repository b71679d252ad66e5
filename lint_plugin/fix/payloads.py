"""Fixes as data for front ends that cannot write files: JSON, flake8's one line, the editor."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic, FixRequest
from ..project.files import Unreadable, read_file
from .editor.apply import apply_each


def fix_payloads(root: Path, diagnostics: Sequence[Diagnostic],
                 overrides: Optional[Mapping[str, bytes]] = None) -> Dict[int, Dict[str, Any]]:
    """For each fixable diagnostic (by index), its fix as JSON: the request and its text edits.

    Each fix is planned alone against the file as it is, so a front end can offer any of
    them independently; the fixes of one file share one parse of it. A fix the editor refuses
    carries its reason instead of edits.
    """
    by_file: Dict[str, List[Tuple[int, FixRequest]]] = {}
    for i, d in enumerate(diagnostics):
        if d.fix is not None:
            by_file.setdefault(d.fix.path, []).append((i, d.fix))
    payloads: Dict[int, Dict[str, Any]] = {}
    for path, fixes in by_file.items():
        data = (overrides or {}).get(path) or read_file(root / path)
        source = b"" if isinstance(data, Unreadable) else data
        for (i, fix), result in zip(fixes, apply_each(source, [[fix] for _, fix in fixes])):
            payload = fix.to_json()
            payload["edits"] = [dataclasses.asdict(e) for e in result.edits]
            if result.refused:
                payload["refused"] = result.refused[0].reason
            payloads[i] = payload
    return payloads
