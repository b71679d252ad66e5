"""One run, as a table of contents: discover -> prefilter and facts -> resolve -> rules -> report.

Every front end (the CLI, the flake8 plugin, `archsync fix`) calls `run` or `run_with`;
`check --baseline-commit` checks a revision's copy of the project with `run_snapshot`, and
`check --add-exemptions` reports again with `with_exemptions`. The language server keeps a
session per project (`session.py`), which calls `analyse`, the stages after discovery, with
the records it kept. Nothing here prints, and nothing below it knows who asked.

A front end that only prints the diagnostics (`check`, flake8) passes `reuse=True`: when every
file is as the last run left it (`project/results.py`), its report is returned as stored, and
the stages after discovery are not even imported (`_stages`), which is most of a warm run.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, List, Mapping, Optional, Sequence, Tuple

from .config import Config, Exemption, UnresolvedName, find_root, load_config
from .diagnostics import Diagnostic
from .project.cache_paths import index_file
from .project.discovery import SourceFile, discover, with_unsaved
from .project.listing import shared
from .project.projects import projects_of
from .project.results import Changed, ResultCache, StoredRun
from .rules.codes import CODES

if TYPE_CHECKING:
    from .project.cache import CachedFile, IndexCache
    from .project.index import ProjectIndex
    from .project.universe import Universe
    from .report.noqa_kept import KeptRanges
    from .resolve import Model
    from .resolve.kept import KeptResolutions
    from .resolve.kept_choice import KeptChoice
    from .resolve.kept_kinship import KeptKinship


class _ModelOf:
    """A report's model: the one its run built, or (for a report the result cache gave) built
    again on first use by running the project once more without reuse."""

    def __init__(self, model: "Optional[Model]", build: "Optional[Callable[[], Model]]" = None) -> None:
        self._model = model
        self._build = build

    def get(self) -> "Model":
        if self._model is None:
            assert self._build is not None
            self._model = self._build()
        return self._model


@dataclass(frozen=True)
class Report:
    """What one run found, with the figures the front ends may show."""

    root: Path
    config: Config
    diagnostics: Tuple[Diagnostic, ...]
    model_of: _ModelOf = field(repr=False, compare=False)
    files: int = 0
    parsed: int = 0
    warnings: Tuple[str, ...] = ()
    only: Optional[str] = None  # the one file checked, outside any project
    projects: Tuple[Path, ...] = ()  # the project roots of a run over several (`run_projects`)
    loose_files: int = 0  # Python files under the paths that are in no project, so not checked
    parts: Tuple["Report", ...] = ()  # each project's own report, in a run over several
    reused: bool = False  # an earlier run's findings (the result cache's, a session's): nothing was analysed again

    @property
    def model(self) -> "Model":
        return self.model_of.get()


def run(path: Path, overrides: Optional[Mapping[str, bytes]] = None, use_cache: bool = True,
        prefilter: bool = True, noqa: bool = True, reuse: bool = False) -> Report:
    """Check the project that holds `path`; may raise ConfigError.

    Outside any project (no pyproject.toml above `path`) nothing is cached, and a file is
    checked alone: its directory is not a project to index. `reuse`: a stored report whose
    inputs are all unchanged may stand in for the run (its model is built only if asked for).
    """
    root = find_root(path)
    config = load_config(root, CODES)
    only = None
    if not (root / "pyproject.toml").is_file():
        use_cache = False
        if not path.is_dir():
            only = path.resolve().relative_to(root).as_posix()
    with shared():  # the tree is listed once per run
        return run_with(config if prefilter else dataclasses.replace(config, prefilter=False), overrides,
                        use_cache, only, noqa, reuse)


def run_projects(paths: Sequence[Path], use_cache: bool = True, prefilter: bool = True,
                 reuse: bool = False) -> Report:
    """Check every project the paths are in or hold (`projects.py`), as one report.

    Each project is checked alone, with its own configuration and cache; the diagnostics are
    rebased onto the directory that holds them all (the report's root) and sorted as one. With one
    project this is `run`. The model is the first project's: per-project views (`show`,
    `inventory`, `why`) run one project.
    """
    with shared():  # the walk for projects and each project's discovery list the tree once
        return _run_projects(paths, use_cache, prefilter, reuse)


def _run_projects(paths: Sequence[Path], use_cache: bool, prefilter: bool, reuse: bool) -> Report:
    roots: List[Path] = []
    loose = 0
    for path in paths:
        found = projects_of(path)
        if found is None:
            return run(path, use_cache=use_cache, prefilter=prefilter, reuse=reuse)
        roots += [r for r in found.roots if r not in roots]
        loose += found.loose_files
    reports = [run(r, use_cache=use_cache, prefilter=prefilter, reuse=reuse) for r in roots]
    if len(reports) == 1:
        return dataclasses.replace(reports[0], loose_files=loose)
    base = Path(os.path.commonpath([str(r) for r in roots]))
    diagnostics = tuple(sorted(rebased(d, r.root, base) for r in reports for d in r.diagnostics))
    warnings = tuple(w for r in reports for w in r.warnings)
    return dataclasses.replace(reports[0], root=base, diagnostics=diagnostics, files=sum(r.files for r in reports),
                               parsed=sum(r.parsed for r in reports), warnings=warnings, projects=tuple(roots),
                               loose_files=loose, parts=tuple(reports), reused=all(r.reused for r in reports))


def rebased(d: Diagnostic, root: Path, base: Path) -> Diagnostic:
    """`d` with its paths relative to `base` (a directory at or above `root`)."""
    prefix = root.relative_to(base).as_posix()
    if prefix == ".":
        return d
    fix = dataclasses.replace(d.fix, path=f"{prefix}/{d.fix.path}") if d.fix is not None else None
    return dataclasses.replace(d, path=f"{prefix}/{d.path}", fix=fix)


def run_with(config: Config, overrides: Optional[Mapping[str, bytes]] = None, use_cache: bool = True,
             only: Optional[str] = None, noqa: bool = True, reuse: bool = False) -> Report:
    """Check a project whose configuration is loaded; `overrides` stand in for files on disk.

    `noqa=False` leaves `# noqa` comments to the caller (flake8, whose `--disable-noqa` must work).
    `reuse` lets the result cache stand in for the run: not with unsaved buffers, for a file
    checked alone, or with `universe-from` (files outside the project that it does not track).
    """
    files = with_unsaved(config, discover(config), overrides or ())  # a new buffer is analysed before it is saved
    fingerprint = config.fingerprint() if use_cache else ""  # the caches' key: a run without them needs none
    results = None
    if reuse and use_cache and not overrides and only is None and not config.universe_from:
        index_rel = index_file(config.cache_dir, fingerprint)
        results = ResultCache(config.root, config.cache_dir, fingerprint, noqa, index_rel)
        stored = results.load()
        if stored is not None:
            again = _reused(config, files, stored, results, noqa)
            if again is not None:
                return again
    from .project.cache import IndexCache
    from .project.universe import read_universe

    cache = IndexCache(config.root, config.cache_dir, fingerprint) if use_cache else None
    found = _analyse(config, files, overrides, cache, only, read_universe(config), noqa, results=results)
    cache_warnings = tuple(cache.warnings) if cache is not None else ()
    if results is not None and not cache_warnings:
        cache_warnings = tuple(results.warnings)  # one warning about caches at most
    return dataclasses.replace(found, warnings=cache_warnings + found.warnings)


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
    if changes:
        results.save(dataclasses.replace(stored, files={**stored.files, **{
            c.source.rel: stored.files[c.source.rel]._replace(size=c.size, mtime_ns=c.mtime_ns,
                                                              digest=stored.files[c.source.rel].digest if c.same
                                                              else _digest(c))
            for c in changes}}))

    def build() -> "Model":
        return run_with(config, use_cache=True, noqa=noqa).model

    return Report(config.root, config, stored.diagnostics, _ModelOf(None, build), len(files), stored.parsed,
                  stored.warnings, reused=True)


def _same_records(config: Config, edited: Sequence[Changed], stored: StoredRun) -> bool:
    """Would the edited files give the run the records it had? Never for a file the report read."""
    if not config.prefilter or any(c.source.rel in stored.read for c in edited):
        return False  # without the prefilter, ARC902 is judged from the bytes of more files
    from .project.fresh_key import fresh_key
    from .project.prefilter import Prefilter

    prefilter = Prefilter(config)
    return all(fresh_key(config, prefilter, c.source, c.data, stored.files[c.source.rel].level)
               == stored.files[c.source.rel].record for c in edited)


def _digest(change: Changed) -> str:
    from .project.files import digest

    return digest(change.data)


def run_snapshot(done: Report, tree: Path, use_cache: bool = True) -> Report:
    """Check another copy of the project (a revision's files, in `tree`) exactly as `done` was checked.

    The same configuration and dependencies (`universe-from` is found from the project, not
    the copy). The project's cache is read by content and never written: the copy can neither
    take an entry that does not match its bytes nor leave its own behind. A contract that names
    what the copy does not hold (a collection added since) is left out, and a warning says so:
    its findings are all new.
    """
    from .project.cache import IndexCache
    from .project.universe import read_universe

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
    from . import rules
    from .report.stage import report

    config = dataclasses.replace(done.config, exemptions=exemptions)
    return dataclasses.replace(done, config=config, diagnostics=report(rules.check(done.model), config))


def _analyse(config: Config, files: List[SourceFile], overrides: Optional[Mapping[str, bytes]],
             cache: "Optional[IndexCache]", only: Optional[str], universe: "Universe", noqa: bool,
             strict: bool = True, results: Optional[ResultCache] = None) -> Report:
    return analyse(config, files, overrides, cache, universe, noqa, only=only, strict=strict, results=results).report


@dataclass(frozen=True)
class Analysis:
    """A run's report with what a long-lived caller keeps for the next one (`session.py`)."""

    report: Report
    found: Tuple[Diagnostic, ...]  # what the rules found, before the report stage
    index: "ProjectIndex" = field(repr=False, compare=False)


def analyse(config: Config, files: List[SourceFile], overrides: Optional[Mapping[str, bytes]],
            cache: "Optional[IndexCache]", universe: "Universe", noqa: bool = True, only: Optional[str] = None,
            strict: bool = True, results: Optional[ResultCache] = None,
            known: "Optional[Mapping[str, CachedFile]]" = None, ranges: "Optional[KeptRanges]" = None,
            resolutions: "Optional[KeptResolutions]" = None, choice: "Optional[KeptChoice]" = None,
            kinship: "Optional[KeptKinship]" = None) -> Analysis:
    """The stages after discovery: index, choose, resolve, rules, report (`known`: see ProjectIndex;
    `ranges`, `resolutions`, `choice`, `kinship`: the noqa lookups, resolved results, chosen files and
    kinship a long-lived caller keeps, `report/noqa_kept.py`, `resolve/kept.py`, `resolve/kept_choice.py`,
    `resolve/kept_kinship.py`)."""
    from . import rules
    from .extract.collector import paused
    from .project.index import ProjectIndex
    from .report.stage import report
    from .resolve import build_model, choose_files
    from .resolve.unmatched import check_settings, check_src

    # a setting that matches nothing is a typo (an error) in the tree at hand; a revision may predate what it names
    sources = check_src(config, [f.rel for f in files]) if strict else ()
    if only is not None:
        files = [f for f in files if f.rel == only]
    with paused():  # a run builds acyclic values only: the cyclic collector would walk them over and over
        with ProjectIndex(config, files, overrides, cache, known) as index:  # byte prefilter, facts of what may matter
            choose_files(index, choice)  # and of the files those reference
        # names resolved across modules (and what dependencies register)
        model = build_model(index, universe, resolutions, kinship)
        found = rules.check(model)
        diagnostics = report(found, config, overrides, noqa, ranges)
        index.save_cache()
    named = sources + check_settings(index, model.predicates.values(), model.registered) if strict else ()
    warnings = universe.warnings + named
    if results is not None:  # what the next run may reuse, and what it depends on
        with paused():
            states = index.record_states()
        results.save(StoredRun(states, tuple(sorted({d.path for d in found})), results.index_state(), diagnostics,
                               index.parsed, warnings))
    return Analysis(Report(config.root, config, diagnostics, _ModelOf(model), len(files), index.parsed, warnings,
                           only), tuple(found), index)
