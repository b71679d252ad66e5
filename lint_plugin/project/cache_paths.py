"""Where each cache file lives under the cache directory, by tool version, Python and configuration.

Per interpreter too: whether a file parses depends on the Python that reads it.
"""
from __future__ import annotations

import sys

from .. import __version__

PYTHON = f"py{sys.version_info[0]}{sys.version_info[1]}"


def index_file(directory: str, fingerprint: str) -> str:
    """The index cache (`cache.py`): per-file signals and facts."""
    return f"{directory.rstrip('/')}/index-{__version__}-{PYTHON}-{fingerprint}.json"


def result_file(directory: str, fingerprint: str, noqa: bool) -> str:
    """The result cache (`results.py`): the last run's report; flake8's (noqa left to it) apart."""
    return f"{directory.rstrip('/')}/result-{__version__}-{PYTHON}-{fingerprint}{'' if noqa else '-nonoqa'}.json"


def replay_file(directory: str, invocation: str) -> str:
    """A warm check's record (`frontends/replay.py`), by a digest of its invocation. Named as a result
    cache file: it is one, of the command line's output, and a `cache-dir` holds only such names."""
    return f"{directory.rstrip('/')}/result-{__version__}-{PYTHON}-replay-{invocation}.json"


def fixes_file(directory: str) -> str:
    """The fixes cache (`fix/payload_cache.py`): the fixes the last run planned, by content."""
    return f"{directory.rstrip('/')}/fixes-{__version__}-{PYTHON}.json"


def carried_file(directory: str, invocation: str) -> str:
    """A check's record that any checkout of the same content may answer with (`frontends/carried.py`),
    by a digest of its invocation as seen from the project root."""
    return f"{directory.rstrip('/')}/result-{__version__}-{PYTHON}-carried-{invocation}.json"
