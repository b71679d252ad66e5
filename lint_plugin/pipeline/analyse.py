"""The stages after discovery, as one function of what they read and what the last run left."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, Mapping, Optional, Tuple

from ..config import Config
from ..diagnostics import Diagnostic
from ..project.discovery import SourceFile
from ..project.results import ResultCache, StoredRun
from .memory import LastRun, RunMemory
from .report import ModelOf, Report

if TYPE_CHECKING:
    from ..project.cache import CachedFile, IndexCache
    from ..project.index import ProjectIndex
    from ..project.mentions import Counts
    from ..project.stamps import Stamp
    from ..project.universe import Universe


@dataclass(frozen=True)
class Inputs:
    """What the stages after discovery read of the project, besides what the last run left."""

    config: Config
    files: Tuple[SourceFile, ...]  # as discovered, unsaved buffers included
    universe: "Universe"  # what dependencies named by `universe-from` register
    overrides: Mapping[str, bytes] = field(default_factory=dict)  # unsaved buffers, by path
    noqa: bool = True  # False: noqa comments are left to the caller (flake8)
    only: Optional[str] = None  # the one file checked, outside any project
    strict: bool = True  # a setting that matches nothing is an error (not in a revision, which may predate it)
    # the stamps the files were read under (a session's watcher): records kept under them are trusted as they are
    stamps: "Optional[Mapping[str, Stamp]]" = None


@dataclass(frozen=True)
class OnDisk:
    """Where a run's memory lives between processes (the CLI's): the index cache holds the records,
    the result cache the last run. Read where the run needs them, written when it ends."""

    index: "Optional[IndexCache]" = None
    results: Optional[ResultCache] = None

    @property
    def warnings(self) -> Tuple[str, ...]:
        """One warning about caches at most: the first problem is the one to fix."""
        return tuple(self.index.warnings if self.index is not None else ()) \
            or tuple(self.results.warnings if self.results is not None else ())


@dataclass(frozen=True)
class Analysis:
    """A run's report, with what the rules found before the report stage, and the memory it leaves
    (None for a run given none)."""

    report: Report
    found: Tuple[Diagnostic, ...]
    index: "ProjectIndex" = field(repr=False, compare=False)
    memory: Optional[RunMemory] = field(default=None, repr=False, compare=False)


def analyse(inputs: Inputs, memory: Optional[RunMemory] = None, disk: OnDisk = OnDisk(),
            known: Optional[Mapping[str, CachedFile]] = None) -> Analysis:
    """Index, choose, resolve, check, report; each stage from its part of `memory` where still valid.
    `known`: the records `memory` holds for these files, with any the caller has just made of bytes that
    changed (the language server's check of an edited buffer), so they are not read again."""
    from .. import rules
    from ..extract.collector import paused
    from ..project.hosts import LIBRARY
    from ..project.index import ProjectIndex
    from ..project.memory import RecordMemory
    from ..project.universe import with_hosts_registered_into, with_library
    from ..report.memory_noqa import NoqaMemory
    from ..report.stage import report, report_again
    from ..resolve import ResolveMemory, choose_and_build
    from ..resolve.foreign import modules_registered_into
    from ..resolve.unmatched import check_settings, check_src

    config, files, overrides, universe = inputs.config, list(inputs.files), inputs.overrides, inputs.universe
    # a setting that matches nothing is a typo (an error) in the tree at hand; a revision may predate what it names
    sources = check_src(config, [f.rel for f in files]) if inputs.strict else ()
    if inputs.only is not None:
        files = [f for f in files if f.rel == inputs.only]
    stamps = inputs.stamps or {}
    records = (memory.records or RecordMemory()) if memory is not None else None
    if known is None and records is not None:
        known = records.known(files, overrides, stamps)
    with paused():  # a run builds acyclic values only: the cyclic collector would walk them over and over
        # byte prefilter, facts of what may matter
        typed = records.typed if records is not None else None
        with ProjectIndex(config, files, overrides, disk.index, known, typed) as index:
            # a host the project registers into serves the names it lists (the inputs' universe is what the next
            # run compares with its own: this one is derived from the files); a registration into one is in a file
            # the prefilter keeps (`registers`), so the files it keeps say which
            kept = [facts for module, signals in index.signals() if signals.registers
                    for facts in (index.facts_of(module),) if facts is not None]
            hosted = universe if config.universe_from else with_hosts_registered_into(
                universe, [m for m in modules_registered_into(kept) if index.module(m) is None], config.root)
            # a project that imports transformers and has no host may serve transformers' models: the model says
            library = None if config.universe_from else with_library(
                hosted, (signals for _, signals in index.signals()), config.root)
            # the files that may matter, then names resolved across modules (and what dependencies register);
            # the modules resolution reads in batches (predicates' delegates, lists of model types) go to the
            # workers the scan started; a name resolution registers that chose no file chooses them again
            model, resolve = choose_and_build(
                index, hosted, (memory.resolve or ResolveMemory()) if memory is not None else None, library)
            if library is not None and LIBRARY in model.hosts:
                hosted = library
        if memory is None:
            found = rules.check(model)
            diagnostics, noqa = report(found, config, overrides, inputs.noqa), None
        else:
            found, rule_memory = rules.check_again(model, memory.rules or rules.RuleMemory())
            diagnostics, noqa = report_again(found, config, overrides, inputs.noqa, memory.noqa or NoqaMemory())
        index.save_cache()
    named = sources + check_settings(index, model.predicates.values(), model.registered) if inputs.strict else ()
    checked = bool(model.collections or model.families)
    warnings = hosted.warnings + named
    if disk.results is not None:  # what the next run may reuse, and what it depends on
        with paused():  # resumed, the collector would walk all the run made for the lists made here
            states = index.record_states(disk.results.loaded.files if disk.results.loaded is not None else None)
            disk.results.save(StoredRun(states, tuple(sorted({d.path for d in found})), disk.results.index_state(),
                                        diagnostics, index.parsed, warnings, mentions=_mentioned(index),
                                        checked=checked))
    done = Report(config.root, config, diagnostics, ModelOf(model), len(files), index.parsed, warnings, inputs.only,
                  checked=checked)
    shown = dataclasses.replace(done, warnings=disk.warnings + warnings) if disk.warnings else done
    if memory is None:
        return Analysis(shown, tuple(found), index)
    by_path: Dict[str, "CachedFile"] = {}
    levels: Dict[str, int] = {}
    for rel, record, level in index.records():
        by_path[rel], levels[rel] = record, level
    assert records is not None
    # the last run, as its findings would be reported again: without what the caches said this time
    last = LastRun(tuple(f.rel for f in files), universe, by_path, levels, tuple(found), done)
    left = RunMemory(records.after(by_path.items(), overrides, stamps, index.typed_facts()), resolve, rule_memory,
                     noqa, last)
    return Analysis(shown, tuple(found), index, left)


def _mentioned(index: "ProjectIndex") -> Dict[str, "Counts"]:
    """By path, what the search for readers counted in each file, as the result cache keeps it: a run that read
    the file otherwise would find its subjects read otherwise (the session keeps them with their digests,
    `ResolveMemory.mentions`)."""
    return {rel: counts for rel, (_, counts) in index.mentioned.items()}
