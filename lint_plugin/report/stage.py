"""The report stage: what the rules found, exempted, selected, one per pair, `# noqa`ed and sorted."""
from __future__ import annotations

from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Tuple

from ..config import Config
from ..diagnostics import Diagnostic
from .exemptions import apply_exemptions
from .memory_noqa import NoqaLookups, NoqaMemory
from .noqa import NoqaReader
from .pairs import one_per_pair
from .selection import selected


def report(found: Sequence[Diagnostic], config: Config, overrides: Optional[Mapping[str, bytes]] = None,
           noqa: bool = True) -> Tuple[Diagnostic, ...]:
    """Exempt, drop what the configuration ignores, keep one per (subject, member), drop `# noqa`ed
    lines (unless flake8 does it), sort."""
    return _report(found, config, overrides, noqa, None)


def report_again(found: Sequence[Diagnostic], config: Config, overrides: Optional[Mapping[str, bytes]],
                 noqa: bool, memory: NoqaMemory) -> Tuple[Tuple[Diagnostic, ...], NoqaMemory]:
    """`report`, taking the noqa lookups the last report left (`memory_noqa.py`); and what this one leaves."""
    lookups = NoqaLookups(memory)
    return _report(found, config, overrides, noqa, lookups), lookups.left()


def _report(found: Sequence[Diagnostic], config: Config, overrides: Optional[Mapping[str, bytes]], noqa: bool,
            lookups: Optional[NoqaLookups]) -> Tuple[Diagnostic, ...]:
    shown: List[Diagnostic] = apply_exemptions(found, config.exemptions, "pyproject.toml")
    if config.select or config.ignore:  # project-wide, before one-per-pair: an ignored rule does not run
        shown = [d for d in shown if selected(d.code, config.select, config.ignore)]
    shown = one_per_pair(shown)
    reader = NoqaReader(Path(config.root), overrides, lookups)  # in order, so each file is parsed once
    return tuple(d for d in sorted(shown) if not (noqa and reader.suppressed(d)))
