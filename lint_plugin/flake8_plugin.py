"""flake8 front end: the project index is built once per process, then each file gets its share.

flake8 calls the plugin once per file (per worker with `-j N`); drift is cross-file, so
the whole project is analysed on the first call and the report is kept for the rest.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, Tuple, Type

from . import __version__
from .config import ConfigError, find_root

_REPORTS: Dict[Path, object] = {}


class ArchsyncChecker:
    """flake8 entry point for the ARC codes."""

    name = "flake8-archsync"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str) -> None:
        self.filename = filename

    def run(self) -> Iterator[Tuple[int, int, str, Type["ArchsyncChecker"]]]:
        path = Path(self.filename).resolve()
        root = find_root(path)
        report = _report_for(root)
        if isinstance(report, ConfigError):
            if path == _first_file(root, path):
                yield 1, 0, f"ARC900 archsync configuration error: {report}", type(self)
            return
        try:
            rel = path.relative_to(root).as_posix()
        except ValueError:
            return
        for d in report.diagnostics:  # type: ignore[attr-defined]
            if d.path == rel:
                yield d.line, d.column - 1, f"{d.code} {d.message}", type(self)


def _report_for(root: Path):
    if root not in _REPORTS:
        from .engine import run

        try:
            _REPORTS[root] = run(root)
        except ConfigError as exc:
            _REPORTS[root] = exc
    return _REPORTS[root]


_FIRST: Dict[Path, Path] = {}


def _first_file(root: Path, path: Path) -> Path:
    """A configuration error is reported once per process, on the first file checked."""
    return _FIRST.setdefault(root, path)
