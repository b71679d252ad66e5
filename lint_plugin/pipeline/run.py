"""A front end's run of one project or several, from disk: discover, then the stages after it.

A front end that only prints the diagnostics (`check`, flake8) asks with `reuse=True`: when every
file is as the last run left it (`project/results.py`), its report is returned as stored, and the
stages after discovery are not even imported, which is most of a warm run.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from ..config import Config, Exemption, UnresolvedName, find_root, load_config
from ..diagnostics import Diagnostic
from ..project.cache_paths import index_file
from ..project.discovery import SourceFile, discover, with_unsaved
from ..project.listing import shared
from ..project.projects import projects_of
from ..project.results import Changed, ResultCache, StoredRun
from ..rules.codes import CODES
from .analyse import Inputs, OnDisk, analyse
from .report import ModelOf, Report
from .request import Request

if TYPE_CHECKING:
    from ..resolve import Model
    from .memory import RunMemory


def run(request: Request) -> Report:
    """Check the project that holds `request.path`; may raise ConfigError.

    Outside any project (no pyproject.toml above the path) nothing is cached, and a file is
    checked alone: its directory is not a project to index.
    """
    path = request.path
    root = find_root(path)
    config = load_config(root, CODES)
    only = None
    if not (root / "pyproject.toml").is_file():
        request = dataclasses.replace(request, use_cache=False)
        if not path.is_dir():
            only = path.resolve().relative_to(root).as_posix()
    with shared():  # the tree is listed once per run
        return _run_with(config if request.prefilter else dataclasses.replace(config, prefilter=False), request,
                         only)


def run_projects(request: Request) -> Report:
    """Check every project the paths are in or hold (`projects.py`), as one report.

    Each project is checked alone, with its own configuration and cache; the diagnostics are
    rebased onto the directory that holds them all (the report's root) and sorted as one. With one
    project this is `run`. The model is the first project's: per-project views (`show`,
    `inventory`, `why`) run one project.
    """
    with shared():  # the walk for projects and each project's discovery list the tree once
        return _run_projects(request)


def _run_projects(request: Request) -> Report:
    roots: List[Path] = []
    loose = 0
    for path in request.paths:
        found = projects_of(path)
        if found is None:
            return run(dataclasses.replace(request, paths=(path,)))
        roots += [r for r in found.roots if r not in roots]
        loose += found.loose_files
    reports = [run(dataclasses.replace(request, paths=(r,))) for r in roots]
    if len(reports) == 1:
        return dataclasses.replace(reports[0], loose_files=loose)
    base = Path(os.path.commonpath([str(r) for r in roots]))
    diagnostics = tuple(sorted(rebased(d, r.root, base) for r in reports for d in r.diagnostics))
    warnings = tuple(w for r in reports for w in r.warnings)
    return dataclasses.replace(reports[0], root=base, diagnostics=diagnostics, files=sum(r.files for r in reports),
                               parsed=sum(r.parsed for r in reports), warnings=warnings, projects=tuple(roots),
                               loose_files=loose, parts=tuple(reports), reused=all(r.reused for r in reports),
                               checked=any(r.checked for r in reports))


def rebased(d: Diagnostic, root: Path, base: Path) -> Diagnostic:
    """`d` with its paths relative to `base` (a directory at or above `root`): its own, its fix's, and
    those its message names."""
    prefix = root.relative_to(base).as_posix()
    if prefix == ".":
        return d
    return d.seen(lambda rel: f"{prefix}/{rel}")


def run_with(config: Config, request: Optional[Request] = None, memory: "Optional[RunMemory]" = None) -> Report:
    """Check a project whose configuration is loaded (`request.paths` is not read: the project is
    `config.root`); its `overrides` stand in for files on disk. Given the `memory` a run kept
    (`Request.keep`), only what changed since is read again: the files overridden, and any whose
    stamp moved (`fix` checks its edits so, at the cost of the edited files rather than of a run)."""
    return _run_with(config, request or Request(), None, memory)


def _run_with(config: Config, request: Request, only: Optional[str],
              memory: "Optional[RunMemory]" = None) -> Report:
    """`reuse` lets the result cache stand in for the run: not with unsaved buffers, for a file
    checked alone, or with `universe-from` (files outside the project that it does not track)."""
    overrides = request.overrides
    files = with_unsaved(config, discover(config), overrides)  # a new buffer is analysed before it is saved
    fingerprint = config.fingerprint() if request.use_cache else ""  # the caches' key: a run without them needs none
    results = None
    if request.reuse and request.use_cache and not overrides and only is None and not config.universe_from:
        results = ResultCache(config.root, config.cache_dir, fingerprint, request.noqa,
                              index_file(config.cache_dir, fingerprint))
        stored = results.load()
        if stored is not None:
            again = _reused(config, files, stored, results, request.noqa)
            if again is not None:
                return again
    from ..project.cache import IndexCache
    from ..project.universe import read_universe

    cache = IndexCache(config.root, config.cache_dir, fingerprint) if request.use_cache else None
    if not request.keep and memory is None:
        inputs = Inputs(config, tuple(files), read_universe(config), overrides, request.noqa, only)
        return analyse(inputs, disk=OnDisk(cache, results)).report
    from ..project.stamps import stamp
    from .memory import RunMemory

    # each stamp taken before the run reads the file: a record kept under it is the file's while it holds
    stamps = {f.rel: s for f in files for s in (stamp(f.path),) if s is not None}
    inputs = Inputs(config, tuple(files), read_universe(config), overrides, request.noqa, only, stamps=stamps)
    analysis = analyse(inputs, memory if memory is not None else RunMemory(), OnDisk(cache, results))
    return dataclasses.replace(analysis.report, memory=analysis.memory)


def _reused(config: Config, files: List[SourceFile], stored: StoredRun, results: ResultCache,
            noqa: bool) -> Optional[Report]:
    """The stored report, if this run would give it: every file as it was, or changed without
    changing its record (then the stored run is brought up to date)."""
    changes = results.changes(stored, files)
    if changes is None:
        return None
    edited = [c for c in changes if not c.same]
    if edited and not _same_records(config, edited, stored):
        return None
    if changes or stored.code_moved:  # recorded again: the next run trusts the stamps, not the digests
        results.save(dataclasses.replace(stored, files={**stored.files, **{
            c.source.rel: stored.files[c.source.rel]._replace(size=c.size, stamp=c.stamp,
                                                              digest=stored.files[c.source.rel].digest if c.same
                                                              else _digest(c))
            for c in changes}}))

    def build() -> "Model":
        return run_with(config, Request(noqa=noqa)).model

    return Report(config.root, config, stored.diagnostics, ModelOf(None, build), len(files), stored.parsed,
                  stored.warnings, reused=True, checked=stored.checked)


def _same_records(config: Config, edited: Sequence[Changed], stored: StoredRun) -> bool:
    """Would the edited files give the run the records it had? Never for a file the report read."""
    if not config.prefilter or any(c.source.rel in stored.read for c in edited):
        return False  # without the prefilter, ARC902 is judged from the bytes of more files
    from ..project.fresh_key import fresh_key
    from ..project.mentions import stand
    from ..project.prefilter import Prefilter

    prefilter = Prefilter(config)
    return all(fresh_key(config, prefilter, c.source, c.data, stored.files[c.source.rel].level)
               == stored.files[c.source.rel].record and stand(c.data, stored.mentions.get(c.source.rel, ()))
               for c in edited)


def _digest(change: Changed) -> str:
    from ..project.files import digest

    return digest(change.data)


def run_snapshot(done: Report, tree: Path, use_cache: bool = True) -> Report:
    """Check another copy of the project (a revision's files, in `tree`) exactly as `done` was checked.

    The same configuration and dependencies (`universe-from` is found from the project, not
    the copy). The project's cache is read by content and never written: the copy can neither
    take an entry that does not match its bytes nor leave its own behind. A contract that names
    what the copy does not hold (a collection added since) is left out, and a warning says so:
    its findings are all new.
    """
    from ..project.cache import IndexCache
    from ..project.universe import read_universe

    config = dataclasses.replace(done.config, root=tree)
    universe = read_universe(done.config)
    warnings: List[str] = []
    while True:
        borrowed = use_cache and (done.root / "pyproject.toml").is_file()
        # an entry is only valid for the configuration it was made under: leaving a contract out changes it
        cache = IndexCache(done.root, config.cache_dir, config.fingerprint(), borrowed=True) if borrowed else None
        try:
            inputs = Inputs(config, tuple(discover(config)), universe, only=done.only, strict=False)
            found = analyse(inputs, disk=OnDisk(cache)).report
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
    from .. import rules
    from ..report.stage import report

    config = dataclasses.replace(done.config, exemptions=exemptions)
    return dataclasses.replace(done, config=config, diagnostics=report(rules.check(done.model), config))
