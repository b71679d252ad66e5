"""One run, as a table of contents: discover -> prefilter and facts -> resolve -> rules -> report.

Every front end (the CLI, the flake8 plugin, the language server, `archsync fix`) calls
`run` or `run_with`; `check --baseline-commit` checks a revision's copy of the project with
`run_snapshot`, and `check --add-exemptions` reports again with `with_exemptions`. Nothing
here prints, and nothing below it knows who asked.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Tuple

from . import rules
from .config import Config, Exemption, UnresolvedName, find_root, load_config
from .diagnostics import Diagnostic
from .project import IndexCache, ProjectIndex, SourceFile, discover, with_unsaved
from .project.projects import projects_of
from .project.universe import Universe, read_universe
from .report import report
from .resolve import Model, build_model, choose_files
from .resolve.unmatched import check_settings


@dataclass(frozen=True)
class Report:
    """What one run found, with the figures the front ends may show."""

    root: Path
    config: Config
    diagnostics: Tuple[Diagnostic, ...]
    model: Model
    files: int
    parsed: int
    warnings: Tuple[str, ...] = ()
    only: Optional[str] = None  # the one file checked, outside any project
    projects: Tuple[Path, ...] = ()  # the project roots of a run over several (`run_projects`)
    loose_files: int = 0  # Python files under the paths that are in no project, so not checked
    parts: Tuple["Report", ...] = ()  # each project's own report, in a run over several


def run(path: Path, overrides: Optional[Mapping[str, bytes]] = None, use_cache: bool = True,
        prefilter: bool = True, noqa: bool = True) -> Report:
    """Check the project that holds `path`; may raise ConfigError.

    Outside any project (no pyproject.toml above `path`) nothing is cached, and a file is
    checked alone: its directory is not a project to index.
    """
    root = find_root(path)
    config = load_config(root, rules.CODES)
    only = None
    if not (root / "pyproject.toml").is_file():
        use_cache = False
        if not path.is_dir():
            only = path.resolve().relative_to(root).as_posix()
    return run_with(config if prefilter else dataclasses.replace(config, prefilter=False), overrides, use_cache,
                    only, noqa)


def run_projects(paths: Sequence[Path], use_cache: bool = True, prefilter: bool = True) -> Report:
    """Check every project the paths are in or hold (`projects.py`), as one report.

    Each project is checked alone, with its own configuration and cache; the diagnostics are
    rebased onto the directory that holds them all (the report's root) and sorted as one. With one
    project this is `run`. The model is the first project's: per-project views (`show`,
    `inventory`, `why`) run one project.
    """
    roots: List[Path] = []
    loose = 0
    for path in paths:
        found = projects_of(path)
        if found is None:
            return run(path, use_cache=use_cache, prefilter=prefilter)
        roots += [r for r in found.roots if r not in roots]
        loose += found.loose_files
    reports = [run(r, use_cache=use_cache, prefilter=prefilter) for r in roots]
    if len(reports) == 1:
        return dataclasses.replace(reports[0], loose_files=loose)
    base = Path(os.path.commonpath([str(r) for r in roots]))
    diagnostics = tuple(sorted(rebased(d, r.root, base) for r in reports for d in r.diagnostics))
    warnings = tuple(w for r in reports for w in r.warnings)
    return dataclasses.replace(reports[0], root=base, diagnostics=diagnostics, files=sum(r.files for r in reports),
                               parsed=sum(r.parsed for r in reports), warnings=warnings, projects=tuple(roots),
                               loose_files=loose, parts=tuple(reports))


def rebased(d: Diagnostic, root: Path, base: Path) -> Diagnostic:
    """`d` with its paths relative to `base` (a directory at or above `root`)."""
    prefix = root.relative_to(base).as_posix()
    if prefix == ".":
        return d
    fix = dataclasses.replace(d.fix, path=f"{prefix}/{d.fix.path}") if d.fix is not None else None
    return dataclasses.replace(d, path=f"{prefix}/{d.path}", fix=fix)


def run_with(config: Config, overrides: Optional[Mapping[str, bytes]] = None, use_cache: bool = True,
             only: Optional[str] = None, noqa: bool = True) -> Report:
    """Check a project whose configuration is loaded; `overrides` stand in for files on disk.

    `noqa=False` leaves `# noqa` comments to the caller (flake8, whose `--disable-noqa` must work).
    """
    files = with_unsaved(config, discover(config), overrides or ())  # a new buffer is analysed before it is saved
    cache = IndexCache(config.root, config.cache_dir, config.fingerprint()) if use_cache else None
    found = _analyse(config, files, overrides, cache, only, read_universe(config), noqa)
    return dataclasses.replace(found, warnings=(tuple(cache.warnings) if cache is not None else ()) + found.warnings)


def run_snapshot(done: Report, tree: Path, use_cache: bool = True) -> Report:
    """Check another copy of the project (a revision's files, in `tree`) exactly as `done` was checked.

    The same configuration and dependencies (`universe-from` is found from the project, not
    the copy). The project's cache is read by content and never written: the copy can neither
    take an entry that does not match its bytes nor leave its own behind. A contract that names
    what the copy does not hold (a collection added since) is left out, and a warning says so:
    its findings are all new.
    """
    config = dataclasses.replace(done.config, root=tree)
    universe = read_universe(done.config)
    warnings: List[str] = []
    while True:
        borrowed = use_cache and (done.root / "pyproject.toml").is_file()
        # an entry is only valid for the configuration it was made under: leaving a contract out changes it
        cache = IndexCache(done.root, config.cache_dir, config.fingerprint(), borrowed=True) if borrowed else None
        try:
            found = _analyse(config, discover(config), None, cache, done.only, universe, True, strict=False)
        except UnresolvedName as missing:
            fewer = config.leaving_out(missing)
            if fewer == config:
                raise
            config = fewer
            warnings.append(f"at that commit, {missing}; that contract is left out of the baseline, so its findings "
                            f"are all new")
            continue
        return dataclasses.replace(found, warnings=tuple(warnings))


def with_exemptions(done: Report, exemptions: Tuple[Exemption, ...]) -> Report:
    """`done` reported again under other exemptions: they act in the report alone, so nothing is re-read."""
    config = dataclasses.replace(done.config, exemptions=exemptions)
    return dataclasses.replace(done, config=config, diagnostics=report(rules.check(done.model), config))


def _analyse(config: Config, files: List[SourceFile], overrides: Optional[Mapping[str, bytes]],
             cache: Optional[IndexCache], only: Optional[str], universe: Universe, noqa: bool,
             strict: bool = True) -> Report:
    if only is not None:
        files = [f for f in files if f.rel == only]
    with ProjectIndex(config, files, overrides, cache) as index:  # byte prefilter, facts of what may matter
        choose_files(index)  # and of the files those reference
    model = build_model(index, universe)  # names resolved across modules (and what dependencies register)
    diagnostics = report(rules.check(model), config, overrides, noqa)
    index.save_cache()
    # a setting that matches nothing is a typo (an error) in the tree at hand; a revision may predate what it names
    named = check_settings(index, model.predicates.values(), [f.rel for f in files]) if strict else ()
    return Report(config.root, config, diagnostics, model, len(files), index.parsed, universe.warnings + named, only)
