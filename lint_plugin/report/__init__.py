"""Stage 5, the report: exemptions, one diagnostic per pair, fix requests and `# noqa`.

Turns what the rules found into what the user is shown, in the order every front end shows it.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Model
from .exemptions import apply_exemptions
from .fix_requests import attach_fixes
from .noqa import suppressed
from .pairs import one_per_pair

__all__ = ["report"]


def report(found: Sequence[Diagnostic], model: Model, overrides: Optional[Mapping[str, bytes]] = None
           ) -> Tuple[Diagnostic, ...]:
    """Exempt, keep one per (subject, member), attach fixes, drop `# noqa`ed lines, sort."""
    config = model.config
    kept: List[Diagnostic] = apply_exemptions(found, config.exemptions, "pyproject.toml")
    kept = attach_fixes(one_per_pair(kept), model.collections, config.siblings)
    root = Path(config.root)
    return tuple(sorted(d for d in kept if not suppressed(root, d, overrides)))
