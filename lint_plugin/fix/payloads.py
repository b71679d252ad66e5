"""Fixes as data for front ends that cannot write files: JSON, flake8's one line, the editor."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Sequence

from ..diagnostics import Diagnostic
from ..project.files import Unreadable, read_file
from .editor import apply_fixes


def fix_payloads(root: Path, diagnostics: Sequence[Diagnostic],
                 overrides: Optional[Mapping[str, bytes]] = None) -> Dict[int, Dict[str, Any]]:
    """For each fixable diagnostic (by index), its fix as JSON: the request and its text edits.

    Each fix is planned alone against the file as it is, so a front end can offer any of
    them independently. A fix the editor refuses carries its reason instead of edits.
    """
    payloads: Dict[int, Dict[str, Any]] = {}
    sources: Dict[str, bytes] = {}
    for i, d in enumerate(diagnostics):
        if d.fix is None:
            continue
        if d.fix.path not in sources:
            data = (overrides or {}).get(d.fix.path) or read_file(root / d.fix.path)
            sources[d.fix.path] = b"" if isinstance(data, Unreadable) else data
        result = apply_fixes(sources[d.fix.path], [d.fix])
        payload = d.fix.to_json()
        payload["edits"] = [dataclasses.asdict(e) for e in result.edits]
        if result.refused:
            payload["refused"] = result.refused[0].reason
        payloads[i] = payload
    return payloads
