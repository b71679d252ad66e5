"""Which codes a run reports or fixes: `--select` / `--ignore` prefixes, as flake8 reads them."""
from __future__ import annotations

from typing import Sequence


def selected(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """flake8-style prefix selection."""
    if select and not code.startswith(tuple(select)):
        return False
    return not (ignore and code.startswith(tuple(ignore)))
