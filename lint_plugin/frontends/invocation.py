"""What a recorded check's output depends on besides the files it reads: its options, the terminal and
NO_COLOR. Shared by the record of a check on this checkout (`replay.py`) and on any checkout
(`carried.py`), which key it with the paths as they are here and as seen from the project root."""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:
    import argparse
    import types
    from typing import Any, Dict, Optional, Sequence, Tuple, Union

    # a check's namespace: argparse's, or the one a check of paths alone is read into (`plain_check.py`)
    Arguments = Union[argparse.Namespace, types.SimpleNamespace]


def recordable(args: "Arguments") -> Optional[Tuple[Dict[str, Any], bool, str]]:
    """(options, stdout is a terminal, NO_COLOR) of a check; None for a check that is never recorded
    (stdin, no cache, adopting findings)."""
    paths: Sequence[str] = args.paths
    if "-" in paths or args.stdin_filename or args.no_cache or args.baseline_commit is not None \
            or args.add_exemptions:
        return None
    options = {name: value for name, value in vars(args).items() if name != "handler"}
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):
        terminal = False
    return options, terminal, os.environ.get("NO_COLOR", "")
