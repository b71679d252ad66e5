"""Which files belong to the project, and the module name of each.

Symbolic links are not followed, to files or to directories: a link can lead out of the
tree (or loop), and a link inside it would only count a file twice. A directory below the
root that holds its own pyproject.toml is another project (`projects.py`), never this one's.

Works on strings with os.scandir: on a 3,400-file tree, pathlib objects made discovery
the largest cost of a warm run.
"""
from __future__ import annotations

import fnmatch
import os
import posixpath
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Sequence, Tuple

from ..config import Config
from .entries import DIRECTORY, FILE
from .listing import entries, holds

_SKIPPED_DIRS = frozenset({"build", "dist", "__pycache__", "node_modules", "site-packages"})


@dataclass(frozen=True)
class SourceFile:
    """A project file: its absolute path, path relative to the root, and module name."""

    path: str
    rel: str
    module: str
    is_package: bool


def discover(config: Config) -> List[SourceFile]:
    """Every `*.py` under the configured source roots, sorted, minus skipped directories."""
    root = str(config.root)
    real_root = os.path.realpath(root)
    seen = set()
    found: List[SourceFile] = []
    for src in config.src:
        base = os.path.normpath(os.path.join(root, src))
        if not os.path.isdir(base) or not _inside(os.path.realpath(base), real_root):
            continue  # a source root linked out of the project is not the project's
        base_rel = os.path.relpath(base, root).replace(os.sep, "/")
        prefix = "" if base_rel == "." else base_rel + "/"
        base_dir = base if base.endswith(os.sep) else base + os.sep
        for rel_to_base in _walk(base, "", prefix, config.exclude):
            rel = prefix + rel_to_base
            if rel in seen:
                continue
            seen.add(rel)
            module, is_package = module_name(rel_to_base)
            found.append(SourceFile(base_dir + rel_to_base, rel, module, is_package))
    found.sort(key=lambda f: f.rel)
    return found


def with_unsaved(config: Config, files: List[SourceFile], unsaved: Iterable[str]) -> List[SourceFile]:
    """`files` plus the editor buffers not saved yet (root-relative `*.py` paths under a source root)."""
    known = {f.rel for f in files}
    added = []
    for rel in unsaved:
        if rel in known or not rel.endswith(".py") or is_excluded(rel, config.exclude):
            continue
        if in_nested_project(str(config.root), rel):
            continue
        for src in config.src:
            base = posixpath.normpath(src.replace(os.sep, "/"))
            prefix = "" if base == "." else base + "/"
            if rel.startswith(prefix):
                module, is_package = module_name(rel[len(prefix):])
                added.append(SourceFile(os.path.join(str(config.root), rel), rel, module, is_package))
                break
    return sorted(files + added, key=lambda f: f.rel) if added else files


def skipped_directory(path: str, name: str) -> bool:
    """Hidden, build output, caches and virtual environments: never project sources."""
    return name.startswith(".") or name in _SKIPPED_DIRS or holds(path, "pyvenv.cfg")


def is_project(directory: str) -> bool:
    """A directory holding a pyproject.toml is a project root."""
    return holds(directory, "pyproject.toml")


def in_nested_project(root: str, rel: str) -> bool:
    """`rel` (root-relative, '/'-separated) lies in a directory below `root` that is a project of its own."""
    parts = rel.split("/")[:-1]
    return any(is_project(os.path.join(root, *parts[:depth])) for depth in range(1, len(parts) + 1))


def is_discovered(config: Config, rel: str) -> bool:
    """Whether `discover(config)` would list the root-relative `rel`, judged by its path.

    For a file watcher: an event about a path that no run reads cannot change a result.
    """
    if not rel.endswith(".py") or rel.startswith("/") or ".." in rel.split("/"):
        return False
    root = str(config.root)
    for src in config.src:
        base = os.path.normpath(os.path.join(root, src))
        base_rel = os.path.relpath(base, root).replace(os.sep, "/")
        prefix = "" if base_rel == "." else base_rel + "/"
        if rel.startswith(prefix) and _walked(base, prefix, rel[len(prefix):].split("/"), config.exclude):
            return True
    return False


def _walked(base: str, prefix: str, parts: Sequence[str], exclude: Sequence[str]) -> bool:
    """`_walk`'s tests, each directory on the way down and then the file."""
    for depth, name in enumerate(parts):
        child = "/".join(parts[:depth + 1])
        if not name or name.startswith("."):
            return False
        directory = depth < len(parts) - 1
        path = os.path.join(base, child)
        if directory and (skipped_directory(path, name) or is_project(path)):
            return False
        if exclude and is_excluded(prefix + child, exclude):
            return False
    return True


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def discover_under(directory: str, package: str) -> List[SourceFile]:
    """Every `*.py` of an installed package's directory, named `package/...` (a dependency, not the project)."""
    found = []
    for rel in _walk(directory, "", "", ()):
        module, is_package = module_name(f"{package}/{rel}")
        found.append(SourceFile(os.path.join(directory, rel), f"{package}/{rel}", module, is_package))
    return sorted(found, key=lambda f: f.rel)


def module_name(rel: str) -> Tuple[str, bool]:
    """Dotted module name of a '/'-separated path relative to its source root."""
    parts = rel[:-3].split("/") if rel.endswith(".py") else rel.split("/")
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def is_excluded(rel: str, patterns: Sequence[str]) -> bool:
    """A root-relative path matches an `exclude` glob, as a whole or by its last part."""
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(name, p) or rel.startswith(p.rstrip("/") + "/")
               for p in patterns)


def _walk(directory: str, rel: str, root_prefix: str, exclude: Sequence[str]) -> Iterator[str]:
    """Paths of `*.py` files below `directory`, relative to the walk's base."""
    for name, path, kind in entries(directory):
        if name.startswith("."):
            continue
        child = f"{rel}{name}"
        if kind == DIRECTORY:
            if skipped_directory(path, name) or is_project(path):
                continue
            if exclude and is_excluded(root_prefix + child, exclude):
                continue
            yield from _walk(path, child + "/", root_prefix, exclude)
        elif kind == FILE and name.endswith(".py"):
            if exclude and is_excluded(root_prefix + child, exclude):
                continue
            yield child
