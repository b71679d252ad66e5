"""The identity of archsync's own code: a cache written by other code is not reused, even under the
same version number (an editable install being worked on).

Two forms, as for a project's files (`file_stamp.py`): by stamps, each module's path, size and mtime
(a few hundred microseconds, so every warm run can afford it), and by content, each module's path and
bytes (a few milliseconds). The stamps change with every install (a fresh virtualenv in CI, the same
wheel installed again), the content only with the code, so a cache carried to another machine is
taken by content once and by stamps from then on. Imports nothing heavy: the warm path asks for it.
"""
from __future__ import annotations

import os

from .sealed import digest

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:
    from typing import Dict, List

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_KNOWN: Dict[str, str] = {}  # by form: the package's modules do not change under a running process


def code_stamps() -> str:
    """The identity of the code by its modules' stamps: cheap, but not the same after another install."""
    return _identity("stamps")


def code_content() -> str:
    """The identity of the code by its modules' bytes: the same wherever the same code is installed."""
    return _identity("content")


def _identity(form: str) -> str:
    if form not in _KNOWN:
        parts: List[bytes] = []
        for path in _modules():
            rel = os.path.relpath(path, _PACKAGE).replace(os.sep, "/").encode("utf-8", "surrogateescape")
            if form == "stamps":
                st = os.stat(path)
                parts.append(b"%s:%d:%d" % (rel, st.st_size, st.st_mtime_ns))
            else:
                with open(path, "rb") as handle:
                    parts.append(rel + b":" + digest(handle.read()).encode())
        _KNOWN[form] = digest(b"\n".join(parts), 8)
    return _KNOWN[form]


def _modules() -> List[str]:
    """Every module and data file of the package, in a stable order."""
    found = []
    for directory, subdirectories, names in os.walk(_PACKAGE):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        found += [os.path.join(directory, name) for name in sorted(names) if name.endswith((".py", ".toml", ".json"))]
    return found
