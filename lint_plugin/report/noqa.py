"""`# noqa` comments, read exactly as flake8 reads them, so the CLI agrees with flake8."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import List, Mapping, Optional, Tuple

from ..diagnostics import Diagnostic
from ..project.files import Unreadable, read_file
from .noqa_kept import KeptRanges
from .noqa_ranges import noqa_text

# Same expressions as flake8's defaults.NOQA_INLINE_REGEXP and NOQA_FILE.
_NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
_NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)


def suppressed(root: Path, diagnostic: Diagnostic, overrides: Optional[Mapping[str, bytes]] = None,
               kept: Optional[KeptRanges] = None) -> bool:
    """True when the reported line carries a `# noqa` that covers the diagnostic's code (`kept`: the
    range texts earlier reports looked up, `noqa_kept.py`)."""
    data = overrides.get(diagnostic.path) if overrides else None
    text = data.decode("utf-8", "replace") if data is not None else _text(str(root / diagnostic.path))
    view = _view(text)
    if view is None:
        return False  # the common case: no `noqa` anywhere, nothing to tokenize
    lines, file_wide = view
    if file_wide:
        return True
    if not 0 < diagnostic.line <= len(lines):
        return False
    searched = noqa_text(text, diagnostic.line) if kept is None \
        else kept.range_text(diagnostic.path, text, diagnostic.line, noqa_text)
    match = _NOQA_INLINE.search(lines[diagnostic.line - 1] if searched is None else searched)
    if match is None:
        return False
    codes = match.group("codes")
    if codes is None:
        return True
    listed = [c for c in re.split(r"[,\s]", codes) if c]
    return diagnostic.code in listed or diagnostic.code.startswith(tuple(listed))


@lru_cache(maxsize=64)
def _view(text: str) -> Optional[Tuple[List[str], bool]]:
    """(lines, whole file exempt) of a text holding `noqa`, else None; once per text."""
    if "noqa" not in text.lower():
        return None
    lines = text.splitlines(keepends=True)
    return lines, any(_NOQA_FILE.match(line) for line in lines)


def _text(path: str) -> str:
    """The file as it is now (keyed by size and mtime, so long-lived processes see edits)."""
    try:
        stat = os.stat(path)
    except OSError:
        return ""
    return _read(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=256)
def _read(path: str, size: int, mtime_ns: int) -> str:
    data = read_file(path)
    return "" if isinstance(data, Unreadable) else data.decode("utf-8", "replace")
