"""Where a cold run's time goes: the stage table and the floors beside it, in one process.

The real engine runs (`pipeline.run.run_with`, every project of the tree, one process: no worker
pool, so the figures are CPU time of one core), with the functions that make up each stage wrapped by
a clock that charges the process's CPU time to the innermost stage running (a stage's own time, what it calls
in other stages taken out). Beside the stages, the floors: reading every file's bytes, one pass of a
bytes expression over them, and `ast.parse` of the files the run parsed whole and of those that gave
facts the rules read. Each round starts from a fresh cache directory and empty memo caches (as a new
process would); medians of `rounds`. Run by `bench/run.py` (scenario `stages`), or alone:

    python -m bench.stages --tree /path/to/tree --rounds 5
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import functools
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

# CPU time of this process: a machine shared with other work slows the wall clock, hardly this
_now = time.process_time

# (stage, what it covers), in the order of a run
STAGES: Tuple[Tuple[str, str], ...] = (
    ("imports", "importing archsync's modules (a child process, minus a bare interpreter)"),
    ("walk", "discovery: listing the tree"),
    ("stat", "the index's scan loop: a stat per file, records"),
    ("read", "reading each file's bytes"),
    ("digest", "hashing each file's bytes (only where a cache is written)"),
    ("scan", "the one pass finding where the byte expressions' literals are (`extract/anchors.py`)"),
    ("prefilter", "byte signals, imports and the scan aside"),
    ("bindings", "import bindings from the bytes (`extract/bindings.py`)"),
    ("snippets", "column-0 registration statements found in the bytes"),
    ("selection", "choosing files (`resolve/selection.py`), parsing aside"),
    ("parse", "`ast.parse` of whole files"),
    ("parse:snippets", "`ast.parse` of registration statements alone"),
    ("extract", "facts from the syntax trees"),
    ("resolve", "names across modules (`resolve.build_model`), parsing aside"),
    ("rules", "the rules"),
    ("report", "exemptions, one per pair, `# noqa` (its tokenizing and parsing included)"),
    ("cache write", "index and result caches written"),
    ("other", "the rest of the run (configuration, pipeline glue)"),
)


# what of a file's facts the rules read (constants only carry names to these)
NEEDED = ("collections", "predicates", "registrations", "type_predicates", "mappings", "registers_into")


class Clock:
    """Charges time to the innermost running stage: `wrap` a function under a stage's name."""

    def __init__(self) -> None:
        self.totals: Dict[str, float] = {}
        self.stack: List[str] = []
        self.started = _now()
        self.parsed: List[Tuple[str, str]] = []  # (filename, text) of each whole-file parse
        self.needed: List[str] = []  # paths of the files parsed whole whose facts the rules read

    def wrap(self, stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._switch(stage)
            try:
                return function(*args, **kwargs)
            finally:
                self._back()
        return timed

    def _switch(self, stage: str) -> None:
        now = _now()
        if self.stack:
            self.totals[self.stack[-1]] = self.totals.get(self.stack[-1], 0.0) + now - self.started
        self.stack.append(stage)
        self.started = now

    def _back(self) -> None:
        now = _now()
        stage = self.stack.pop()
        self.totals[stage] = self.totals.get(stage, 0.0) + now - self.started
        self.started = now


def _patch(clock: Clock) -> Callable[[], None]:
    """Wrap the engine's stage functions where their callers look them up; returns the undo."""
    import importlib

    run = importlib.import_module("lint_plugin.pipeline.run")  # the package's `run` is a function
    import lint_plugin.extract.anchors as anchors
    import lint_plugin.project.cache as cache
    import lint_plugin.project.file_facts as file_facts
    import lint_plugin.project.index as index
    import lint_plugin.project.prefilter as prefilter
    import lint_plugin.project.results as results
    import lint_plugin.report.stage as report_stage
    import lint_plugin.resolve as resolve
    import lint_plugin.rules as rules

    undo: List[Callable[[], None]] = []

    def put(owner: Any, name: str, stage: str) -> None:
        before = getattr(owner, name)
        setattr(owner, name, clock.wrap(stage, before))
        undo.append(lambda: setattr(owner, name, before))

    put(run, "discover", "walk")
    put(index.ProjectIndex, "_scan", "stat")
    put(index, "read_file", "read")
    put(index, "digest", "digest")
    put(anchors.Anchors, "scan", "scan")
    put(prefilter.Prefilter, "signals", "prefilter")
    put(prefilter, "import_bindings", "bindings")
    put(prefilter.Prefilter, "registration_snippets", "snippets")
    put(resolve, "choose_files", "selection")
    extract_file = file_facts.extract_file

    def extracted(*args: Any, **kwargs: Any) -> Any:
        facts = extract_file(*args, **kwargs)
        if any(getattr(facts, field) for field in NEEDED):
            clock.needed.append(facts.path)
        return facts
    file_facts.extract_file = extracted
    undo.append(lambda: setattr(file_facts, "extract_file", extract_file))
    put(file_facts, "extract_file", "extract")
    put(file_facts, "extract_registrations", "extract")
    put(resolve, "build_model", "resolve")
    put(rules, "check", "rules")
    put(report_stage, "report", "report")
    put(cache.IndexCache, "save", "cache write")
    put(results.ResultCache, "save", "cache write")
    parse = ast.parse

    def parsed(source: Any, filename: str = "<unknown>", *args: Any, **kwargs: Any) -> Any:
        stage = "report" if "report" in clock.stack else "parse" if filename != "<unknown>" else "parse:snippets"
        clock._switch(stage)
        try:
            return parse(source, filename, *args, **kwargs)
        finally:
            clock._back()
            if stage == "parse":
                clock.parsed.append((filename, source))
    ast.parse = parsed  # type: ignore[assignment]
    undo.append(lambda: setattr(ast, "parse", parse))
    return lambda: [step() for step in reversed(undo)] and None


def _clear_memos() -> None:
    """Empty every `functools` cache of archsync's modules, and `re`'s: a new process starts without them."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("lint_plugin"):
            continue
        for value in list(vars(module).values()):
            if hasattr(value, "cache_clear") and hasattr(value, "cache_info"):
                value.cache_clear()
    re.purge()


def one_round(tree: Path) -> Dict[str, Any]:
    """One cold run of every project of `tree` (a fresh cache directory), timed by stage."""
    from lint_plugin.config import load_config
    from lint_plugin.pipeline.request import Request
    from lint_plugin.pipeline.run import run_with
    from lint_plugin.project import workers
    from lint_plugin.project.listing import shared
    from lint_plugin.project.projects import projects_of
    from lint_plugin.rules.codes import CODES

    _clear_memos()
    min_cost = workers.MIN_COST
    workers.MIN_COST = 1 << 62  # one process: the table is of one core's work
    clock = Clock()
    undo = _patch(clock)
    found = projects_of(tree)
    roots = list(found.roots) if found is not None else [tree.resolve()]
    files = parsed_whole = diagnostics = 0
    gc.collect()
    try:
        with shared():
            clock._switch("other")
            for root in roots:
                # a cache directory is a path inside the project (the writer refuses any other): a fresh one
                # per round, removed after it
                scratch = tempfile.mkdtemp(prefix=".archsync-stages-", dir=root)  # the run makes `cache` in it
                config = dataclasses.replace(load_config(root, CODES),
                                             cache_dir=f"{os.path.relpath(scratch, root)}/cache")
                try:
                    report = run_with(config, Request(use_cache=True, reuse=True))
                finally:
                    shutil.rmtree(scratch, ignore_errors=True)
                files += report.files
                parsed_whole += report.parsed
                diagnostics += len(report.diagnostics)
            clock._back()
    finally:
        undo()
        workers.MIN_COST = min_cost
    return {"ms": {stage: round(seconds * 1000, 1) for stage, seconds in clock.totals.items()},
            "files": files, "parsed": parsed_whole, "diagnostics": diagnostics,
            "parse_calls": len(clock.parsed), "parsed_bytes": sum(len(text) for _, text in clock.parsed),
            "needed": clock.needed, "texts": clock.parsed}


def floors(tree: Path, texts: Sequence[Tuple[str, str]], needed: Sequence[str]) -> Dict[str, float]:
    """What no cold run can go below, on this machine: read every file, one bytes-expression pass, parse."""
    from lint_plugin.config import load_config
    from lint_plugin.project.discovery import discover
    from lint_plugin.project.files import read_file
    from lint_plugin.project.projects import projects_of
    from lint_plugin.rules.codes import CODES

    found = projects_of(tree)
    roots = list(found.roots) if found is not None else [tree.resolve()]
    paths = [source.path for root in roots for source in discover(load_config(root, CODES))]
    started = _now()
    data = [read_file(path) for path in paths]
    read_ms = (_now() - started) * 1000
    pattern = re.compile(rb"class[ \t]+([A-Z]\w*)")  # a literal first byte, as the prefilter's expressions
    started = _now()
    for item in data:
        if isinstance(item, bytes):
            pattern.findall(item)
    pass_ms = (_now() - started) * 1000
    del data
    wanted = set(needed)
    parse_all = parse_needed = 0.0
    gc.disable()  # as the run parses (`extract/collector.py`)
    for filename, text in texts:
        started = _now()
        ast.parse(text, filename)
        spent = _now() - started
        parse_all += spent
        if filename in wanted:
            parse_needed += spent
    gc.enable()
    return {"read all bytes": round(read_ms, 1), "one bytes-regex pass": round(pass_ms, 1),
            "parse of the files parsed whole": round(parse_all * 1000, 1),
            "parse of the files giving facts the rules read": round(parse_needed * 1000, 1)}


def import_ms(rounds: int) -> float:
    """What importing a check's modules costs a new process: a child importing them, minus a bare one."""
    code = ("import time; t = time.process_time(); import lint_plugin.frontends.cli, lint_plugin.pipeline.run, "
            "lint_plugin.pipeline.analyse, lint_plugin.project.index, lint_plugin.resolve, lint_plugin.rules, "
            "lint_plugin.report.stage; print(time.process_time() - t)")
    times = []
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True).stdout
        times.append(float(out))
    return round(statistics.median(times) * 1000, 1)


def measure(tree: Path, rounds: int) -> Dict[str, Any]:
    samples = [one_round(tree) for _ in range(rounds)]
    last = samples[-1]
    ms = {stage: round(statistics.median(s["ms"].get(stage, 0.0) for s in samples), 1) for stage, _ in STAGES}
    ms["imports"] = import_ms(rounds)
    floor = floors(tree, last["texts"], last["needed"])
    return {"tree": str(tree), "rounds": rounds, "files": last["files"], "parsed": last["parsed"],
            "diagnostics": last["diagnostics"], "parse_calls": last["parse_calls"],
            "parsed_mb": round(last["parsed_bytes"] / 1e6, 2), "needed_files": len(last["needed"]),
            "stages_ms": ms, "total_ms": round(sum(ms.values()), 1), "floors_ms": floor}


def table(figures: Dict[str, Any]) -> str:
    """The stage table and the floors, as markdown."""
    total = figures["total_ms"]
    lines = [f"stages of one cold run in one process (`{figures['tree']}`: {figures['files']:,} files, "
             f"{figures['parsed']} chosen in full, {figures['parse_calls']} whole-file parses of "
             f"{figures['parsed_mb']} MB, {figures['needed_files']} files give facts the rules read; "
             f"medians of {figures['rounds']})", "",
             "| stage | CPU ms | share | what |", "|---|---|---|---|"]
    for stage, what in STAGES:
        spent = figures["stages_ms"].get(stage, 0.0)
        lines.append(f"| {stage} | {spent:.0f} | {100 * spent / total if total else 0:.0f}% | {what} |")
    lines.append(f"| **total** | **{total:.0f}** | | |")
    lines += ["", "| floor | CPU ms |", "|---|---|"]
    lines += [f"| {name} | {value:.0f} |" for name, value in figures["floors_ms"].items()]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True, action="append")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON, not the table")
    args = parser.parse_args(argv)
    for tree in args.tree:
        figures = measure(tree, args.rounds)
        print(json.dumps(figures) if args.json else table(figures) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
