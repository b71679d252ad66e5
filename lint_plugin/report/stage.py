"""The report stage: what the rules found, exempted, selected, one per pair, `# noqa`ed and sorted."""
from __future__ import annotations

from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Tuple

from ..config import Config
from ..diagnostics import Diagnostic
from .exemptions import apply_exemptions
from .noqa import suppressed
from .noqa_kept import KeptRanges
from .noqa_ranges import forget_token_ranges
from .pairs import one_per_pair
from .selection import selected


def report(found: Sequence[Diagnostic], config: Config, overrides: Optional[Mapping[str, bytes]] = None,
           noqa: bool = True, kept: Optional[KeptRanges] = None) -> Tuple[Diagnostic, ...]:
    """Exempt, drop what the configuration ignores, keep one per (subject, member), drop `# noqa`ed
    lines (unless flake8 does it), sort. `kept`: noqa lookups a long-lived caller keeps between reports."""
    shown: List[Diagnostic] = apply_exemptions(found, config.exemptions, "pyproject.toml")
    if config.select or config.ignore:  # project-wide, before one-per-pair: an ignored rule does not run
        shown = [d for d in shown if selected(d.code, config.select, config.ignore)]
    shown = one_per_pair(shown)
    root = Path(config.root)
    try:  # in order, so each file is parsed once for the token ranges of its noqa comments
        return tuple(d for d in sorted(shown) if not (noqa and suppressed(root, d, overrides, kept)))
    finally:
        forget_token_ranges()  # a large file's tree is large: not kept past the report
        if kept is not None:
            kept.settle()
