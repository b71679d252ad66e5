"""Which files belong to the project, and the module name of each."""
from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple

from .config import Config

_SKIPPED_DIRS = frozenset({"build", "dist", "__pycache__", "node_modules", "site-packages"})


@dataclass(frozen=True)
class SourceFile:
    """A project file: its absolute path, path relative to the root, and module name."""

    path: Path
    rel: str
    module: str
    is_package: bool


def discover(config: Config) -> List[SourceFile]:
    """Every `*.py` under the configured source roots, sorted, minus skipped directories."""
    seen = set()
    found: List[SourceFile] = []
    for src in config.src:
        base = (config.root / src).resolve()
        if not base.is_dir():
            continue
        for path in _walk(base, config.root, config.exclude):
            rel = path.relative_to(config.root).as_posix()
            if rel in seen:
                continue
            seen.add(rel)
            module, is_package = module_name(path.relative_to(base))
            found.append(SourceFile(path, rel, module, is_package))
    found.sort(key=lambda f: f.rel)
    return found


def module_name(rel: Path) -> Tuple[str, bool]:
    """Dotted module name of a path relative to its source root."""
    parts = list(rel.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def is_excluded(rel: str, patterns: Sequence[str]) -> bool:
    """A root-relative path matches an `exclude` glob, as a whole or by its last part."""
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(name, p) or rel.startswith(p.rstrip("/") + "/")
               for p in patterns)


def _walk(base: Path, root: Path, exclude: Sequence[str]) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(base):
        current = Path(dirpath)
        kept = []
        for d in sorted(dirnames):
            if d.startswith(".") or d in _SKIPPED_DIRS:
                continue
            full = current / d
            if (full / "pyvenv.cfg").exists() or full.is_symlink():
                continue
            if exclude and is_excluded(_rel(full, root), exclude):
                continue
            kept.append(d)
        dirnames[:] = kept
        for name in sorted(filenames):
            if not name.endswith(".py") or name.startswith("."):
                continue
            full = current / name
            if exclude and is_excluded(_rel(full, root), exclude):
                continue
            yield full


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
