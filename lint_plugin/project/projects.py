"""Which projects a run covers: the one that holds a path, and every project below it.

A project is a directory holding a pyproject.toml; its files are those below it that are
not in a project further down. A path is covered the way ruff resolves configuration,
hierarchically, so a run from a repository root gives what a run inside each project gives:

- a path inside a project: that project, plus the projects nested below the path;
- a directory in no project (SGLang's repository root, whose pyproject.toml is in
  `python/`): the outermost projects below it, and theirs; the Python files that are in
  none are counted, not checked (a run inside any project never sees them either);
- nothing anywhere: None, and the caller checks the directory as it is.

The walk skips what discovery skips (hidden, build and cache directories, virtual
environments) and each project's `exclude`, and follows no symbolic link.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from ..config import find_root, load_config
from .discovery import is_excluded, is_project, skipped_directory
from .entries import DIRECTORY, FILE
from .listing import entries


@dataclass(frozen=True)
class Projects:
    """The project roots a run covers, outermost first, and the Python files in none of them."""

    roots: Tuple[Path, ...]
    loose_files: int = 0


def projects_of(path: Path) -> Optional[Projects]:
    """The projects `path` is in or holds; None when there is no pyproject.toml above or below it."""
    path = path.resolve()
    root = find_root(path)
    if is_project(str(root)):
        below = _nested(path, root) if path.is_dir() else []
        return Projects((root, *below))
    if not path.is_dir():
        return None
    outermost: List[Path] = []
    loose = _search(str(path), "", (), outermost)
    if not outermost:
        return None
    roots: List[Path] = []
    for project in outermost:
        roots += [project, *_nested(project, project)]
    return Projects(tuple(roots), loose)


def _nested(directory: Path, root: Path) -> List[Path]:
    """Projects below `directory` (inside the project at `root`), each with those below it."""
    exclude = load_config(root).exclude
    prefix = directory.relative_to(root).as_posix()
    found: List[Path] = []
    _search(str(directory), "" if prefix == "." else prefix + "/", exclude, found)
    nested: List[Path] = []
    for project in found:
        nested += [project, *_nested(project, project)]
    return nested


def _search(directory: str, rel: str, exclude: Sequence[str], found: List[Path]) -> int:
    """Append the outermost projects below `directory`; return how many `*.py` files are in none."""
    loose = 0
    for name, path, kind in entries(directory):
        child = rel + name
        if kind == DIRECTORY:
            if skipped_directory(path, name) or (exclude and is_excluded(child, exclude)):
                continue
            if is_project(path):
                found.append(Path(path))
            else:
                loose += _search(path, child + "/", exclude, found)
        elif kind == FILE and name.endswith(".py") and not name.startswith("."):
            loose += 1
    return loose
