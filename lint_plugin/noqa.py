"""`# noqa` comments, read exactly as flake8 reads them, so the CLI agrees with flake8."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import List, Mapping, Optional

from .diagnostics import Diagnostic

# Same expressions as flake8's defaults.NOQA_INLINE_REGEXP and NOQA_FILE.
_NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
_NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)


def suppressed(root: Path, diagnostic: Diagnostic, overrides: Optional[Mapping[str, bytes]] = None) -> bool:
    """True when the reported line carries a `# noqa` that covers the diagnostic's code."""
    data = overrides.get(diagnostic.path) if overrides else None
    lines = _decode(data) if data is not None else _lines(str(root / diagnostic.path))
    if any(_NOQA_FILE.match(line) for line in lines):
        return True
    if not 0 < diagnostic.line <= len(lines):
        return False
    match = _NOQA_INLINE.search(lines[diagnostic.line - 1])
    if match is None:
        return False
    codes = match.group("codes")
    if codes is None:
        return True
    listed = [c for c in re.split(r"[,\s]", codes) if c]
    return diagnostic.code in listed or diagnostic.code.startswith(tuple(listed))


@lru_cache(maxsize=256)
def _lines(path: str) -> List[str]:
    try:
        return _decode(Path(path).read_bytes())
    except OSError:
        return []


def _decode(data: bytes) -> List[str]:
    return data.decode("utf-8", "replace").splitlines()
