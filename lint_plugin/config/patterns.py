"""The globs the configuration names things with: `NAME_GLOB` or `PATH_GLOB::NAME_GLOB`."""
from __future__ import annotations

import fnmatch
import re
from typing import Iterable

_ALTERNATIVE = re.compile(r"@\d+$")  # `X@2`: the binding of `X` in another arm of an if/try (extract.module)


def matches_pattern(patterns: Iterable[str], path: str, name: str) -> bool:
    """`NAME_GLOB` matches the name; `PATH_GLOB::NAME_GLOB` also needs the path to match."""
    for pattern in patterns:
        path_glob, sep, name_glob = pattern.rpartition("::")
        if sep and not fnmatch.fnmatchcase(path, path_glob):
            continue
        if fnmatch.fnmatchcase(name, name_glob) or fnmatch.fnmatchcase(_ALTERNATIVE.sub("", name), name_glob):
            return True
    return False
