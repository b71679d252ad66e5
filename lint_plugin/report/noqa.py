"""`# noqa` comments, read exactly as flake8 reads them, so the CLI agrees with flake8."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple

from ..diagnostics import Diagnostic
from ..project.files import Unreadable, read_file
from .flake8_text import flake8_text, physical_lines
from .memory_noqa import NoqaLookups
from .noqa_ranges import RangeReader

# Same expressions as flake8's defaults.NOQA_INLINE_REGEXP and NOQA_FILE.
_NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
_NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)

_View = Optional[Tuple[List[str], bool]]  # (lines, whole file exempt) of a text holding `noqa`, else None


class NoqaReader:
    """The `# noqa` comments one report reads: each file read once (an unsaved buffer's text from
    `overrides`) as flake8 reads it (`flake8_text.py`), its lines split once, and the token ranges
    of the lines asked for looked up through `lookups` (what a long-lived caller keeps between
    reports, `memory_noqa.py`) or computed."""

    def __init__(self, root: Path, overrides: Optional[Mapping[str, bytes]] = None,
                 lookups: Optional[NoqaLookups] = None) -> None:
        self._root = root
        self._overrides = overrides or {}
        self._lookups = lookups
        self._ranges = RangeReader()
        self._views: Dict[str, Tuple[str, _View]] = {}  # by path: the text read, and its view

    def suppressed(self, diagnostic: Diagnostic) -> bool:
        """True when the reported line carries a `# noqa` that covers the diagnostic's code."""
        text, view = self._view(diagnostic.path)
        if view is None:
            return False  # the common case: no `noqa` anywhere, nothing to tokenize
        lines, file_wide = view
        if file_wide:
            return True
        if not 0 < diagnostic.line <= len(lines):
            return False
        searched = self._ranges.text(text, diagnostic.line) if self._lookups is None \
            else self._lookups.range_text(diagnostic.path, text, diagnostic.line, self._ranges.text)
        match = _NOQA_INLINE.search(lines[diagnostic.line - 1] if searched is None else searched)
        if match is None:
            return False
        codes = match.group("codes")
        if codes is None:
            return True
        listed = [c for c in re.split(r"[,\s]", codes) if c]
        return diagnostic.code in listed or diagnostic.code.startswith(tuple(listed))

    def _view(self, path: str) -> Tuple[str, _View]:
        found = self._views.get(path)
        if found is None:
            data = self._overrides.get(path)
            if data is None:
                read = read_file(self._root / path)
                data = b"" if isinstance(read, Unreadable) else read
            text = flake8_text(data)
            found = self._views[path] = (text, _view_of(text))
        return found


def _view_of(text: str) -> _View:
    if "noqa" not in text.lower():
        return None
    lines = physical_lines(text)
    return lines, any(_NOQA_FILE.match(line) for line in lines)
