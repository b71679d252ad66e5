"""A `check` of paths alone (`archsync check`, `archsync check src tests`), read without argparse.

The usual warm check is answered from its record (`replay.py`) in a few tens of milliseconds, and
importing argparse (with gettext and locale), building `check`'s parser and reading the line with
it was a tenth of that. A command line of `check` and paths that start with no `-` means the
defaults of every option, so its namespace is written here, attribute for attribute what
`arguments.check_alone` reads (`tests/test_check_alone.py` holds the two together); anything else is
left to argparse.
"""
from __future__ import annotations

from types import SimpleNamespace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name as True)
if TYPE_CHECKING:
    from typing import Optional, Sequence

# `check`'s options unset, as `arguments._check_arguments` declares them
DEFAULTS = (("format", "text"), ("select", ""), ("extend_select", ""), ("ignore", ""), ("exit_zero", False),
            ("quiet", False), ("output_file", None), ("statistics", False), ("color", "auto"),
            ("stdin_filename", None), ("no_cache", False), ("no_prefilter", False), ("baseline_commit", None),
            ("add_exemptions", False))


def plain_check(argv: "Sequence[str]") -> "Optional[SimpleNamespace]":
    """The namespace of `check` followed by paths alone, or None for any other command line."""
    if not argv or argv[0] != "check" or any(word.startswith("-") for word in argv[1:]):
        return None
    paths = list(argv[1:]) or ["."]
    return SimpleNamespace(paths=paths, **dict(DEFAULTS), command="check", path=paths[0])
