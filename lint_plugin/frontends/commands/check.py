"""`archsync check`: the findings under the paths asked about, in the format asked for, with the
summary line; `--baseline-commit` and `--add-exemptions` adopt the findings there are."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, List

from . import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from .analysis import analyse, requested_codes, within

if TYPE_CHECKING:
    from ..replay import Recorder


def run_check(args: argparse.Namespace) -> int:
    from ..replay import Recorder

    with Recorder(args) as recorder:  # what the next identical check may print without a run
        code = _check(args, recorder)
        recorder.done(code)
    return code


def _check(args: argparse.Namespace, recorder: "Recorder") -> int:
    from ...report.selection import selected
    from ..formats import render, statistics

    codes = requested_codes(args.select, args.extend_select, args.ignore)
    if isinstance(codes, int):
        return codes
    select, ignore = codes
    try:
        paths = _paths(args)
    except OSError as exc:  # a path in a directory we may not read
        print(f"archsync: error: {exc.filename or args.path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    if isinstance(paths, int):
        return paths
    if args.add_exemptions and args.paths == ["-"]:
        print("archsync: error: --add-exemptions records what is saved; it cannot read stdin", file=sys.stderr)
        return EXIT_ERROR
    report = analyse(args)
    if isinstance(report, int):
        return report
    recorder.report = report

    def scope(diagnostics):
        under = {id(d) for path in paths for d in within(report.root, path, diagnostics)}
        return [d for d in diagnostics if id(d) in under and selected(d.code, select, ignore)]

    shown = scope(report.diagnostics)
    note = ""
    if args.baseline_commit is not None or args.add_exemptions:
        adopted = _adopt(args, report, shown, scope)
        if isinstance(adopted, int):
            return adopted
        shown, note = adopted
    if args.statistics:
        output = statistics(shown)
    else:
        output = render(args.format, shown, report.root, color=_color(args), fixes=_fixes_cache(args, report))
    if args.output_file:
        try:
            Path(args.output_file).write_text(output, encoding="utf-8", errors="backslashreplace")
        except OSError as exc:
            print(f"archsync: error: {args.output_file}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_ERROR
    else:
        sys.stdout.write(output)
        sys.stdout.flush()
    if args.format == "text" and not args.quiet:
        from ...report.causes import findings

        count = len(findings(shown))  # one per cause, as printed
        new = "new " if args.baseline_commit is not None else ""
        summary = f"{count} {new}problem{'s' if count != 1 else ''}" if count else f"no {new}problems"
        unseen = not count and not report.checked  # "no problems" would claim what was never checked
        summary = "nothing checked" if unseen else summary
        print(f"archsync: {summary} ({_counts(report)}){': ' + NOTHING_CHECKED if unseen else ''}"
              f"{'; ' + note if note else ''}", file=sys.stderr)
    elif note and not args.quiet:
        print(f"archsync: {note}", file=sys.stderr)
    return EXIT_FINDINGS if shown and not args.exit_zero else EXIT_CLEAN


# Why a run where no list or family took part says so: nothing registered or declared that archsync could read
NOTHING_CHECKED = "no list or family holds an architecture archsync knows; `archsync inventory` says what it found"


def _fixes_cache(args: argparse.Namespace, report):
    """Where JSON's fixes are kept between runs: the (first) project's cache directory, as the run's other
    caches are; none with `--no-cache`, or for a file checked outside any project."""
    config = report.config
    if args.format != "json" or args.no_cache or report.only is not None:
        return None
    if not (config.root / "pyproject.toml").is_file():  # no project: nothing is cached
        return None
    from ...fix.payload_cache import PayloadCache

    return PayloadCache(config.root, config.cache_dir)


def _counts(report) -> str:
    """What a run covered: files (in how many projects), how many analysed, and what no project holds."""
    files = f"{report.files} file{'s' if report.files != 1 else ''}"
    if report.projects:
        files += f" in {len(report.projects)} projects"
    counts = f"{files}, {report.parsed} analysed"
    if report.loose_files:
        counts += f"; {report.loose_files} in no project, not checked"
    return counts


def _adopt(args: argparse.Namespace, report, shown: List, scope):
    """`--baseline-commit` (only what is new) or `--add-exemptions` (record what there is): (shown, note).

    Project by project in a run over several: each has its own tree, configuration and pyproject.toml.
    """
    from ...pipeline import rebased

    parts = report.parts or (report,)
    visible = set(shown)

    def seen_from(part):
        return lambda d: rebased(d, part.root, report.root)

    mine = [[d for d in part.diagnostics if seen_from(part)(d) in visible] for part in parts]

    def part_scope(part):
        seen = seen_from(part)
        return lambda diagnostics: [d for d in diagnostics if scope([seen(d)])]

    if args.baseline_commit is not None:
        from .. import baseline_commit
        baselined = baseline_commit.for_check(parts, args.baseline_commit, mine, use_cache=not args.no_cache,
                                              scopes=[part_scope(part) for part in parts])
        if baselined is None:
            return EXIT_ERROR
        news, note = baselined
        return sorted(seen_from(part)(d) for part, new in zip(parts, news) for d in new), note
    from .. import add_exemptions
    left: List = []
    for part in parts:
        recorded = add_exemptions.for_check(part, part_scope(part), several=len(parts) > 1)
        if recorded is None:
            return EXIT_ERROR
        left += [seen_from(part)(d) for d in recorded[0]]
    return sorted(left), ""


def _paths(args: argparse.Namespace):
    """The paths whose diagnostics are printed (every project they are in or hold is analysed)."""
    from ...config import ConfigError
    from ...project.projects import projects_of

    if args.paths == ["-"]:
        return [Path(args.stdin_filename or ".")]
    if "-" in args.paths:
        print("archsync: error: '-' (stdin) cannot be given with other paths", file=sys.stderr)
        return EXIT_ERROR
    for path in args.paths:
        if not Path(path).exists():
            print(f"archsync: error: {path}: no such file or directory", file=sys.stderr)
            return EXIT_ERROR
    if len(args.paths) > 1:
        try:
            alone = [p for p in args.paths if projects_of(Path(p)) is None]
        except ConfigError as exc:  # a project below a path does not load
            print(f"archsync: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        if alone:
            print(f"archsync: error: {alone[0]} is in no project (no pyproject.toml above or below it); "
                  f"check it on its own", file=sys.stderr)
            return EXIT_ERROR
    return [Path(p) for p in args.paths]


def _color(args: argparse.Namespace) -> bool:
    if args.color == "always":
        return True
    if args.color == "never" or args.output_file or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()
