"""What a front end asks of a run: one value, so that an entry point says what it takes."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Tuple


@dataclass(frozen=True)
class Request:
    """One run of the projects that hold (or are held by) `paths`, as a front end asks for it."""

    paths: Tuple[Path, ...] = (Path("."),)  # project directories, or paths inside one (a file alone outside any)
    overrides: Mapping[str, bytes] = field(default_factory=dict)  # unsaved buffers, by project-relative path
    use_cache: bool = True  # read and write the caches in the project's cache directory
    prefilter: bool = True  # False (`--no-prefilter`): parse every file; the findings must not change
    noqa: bool = True  # False: noqa comments are left to the caller (flake8, whose `--disable-noqa` must work)
    reuse: bool = False  # a stored report whose inputs are unchanged may stand in for the run
    keep: bool = False  # the run's memory on its report (`Report.memory`): a run given it reads only what changed

    @property
    def path(self) -> Path:
        """The one path of a run over one project."""
        return self.paths[0]


def request(path: Path, **options: object) -> Request:
    """A request for the project that holds `path` (a front end's shorthand for `Request((path,), ...)`)."""
    return Request((path,), **options)  # type: ignore[arg-type]
