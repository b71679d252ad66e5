"""`archsync fix`: each project under PATH fixed in turn, in files under PATH only, or shown as a
diff with `--diff`; then what remains, and one summary line."""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from . import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS

# `_fix_project` moved here from cli.py as it was, and calls these by the names they had there
from .analysis import analyse, requested_codes, within


def run_fix(args: argparse.Namespace) -> int:
    """Fix each project under PATH in turn (`fix PATH` edits only files under PATH)."""
    from ...config import ConfigError
    from ...project.projects import projects_of

    codes = requested_codes(args.select, "", args.ignore)  # an unknown code is a mistake before any work is done
    if isinstance(codes, int):
        return codes
    if not Path(args.path).exists():
        print(f"archsync: error: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_ERROR
    try:
        found = projects_of(Path(args.path))
    except ConfigError as exc:
        print(f"archsync: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    totals = [0, 0, 0]  # fixed, files changed, remaining
    exit_code = EXIT_CLEAN
    for project in found.roots if found is not None else (None,):
        result = _fix_project(args, project, *codes)
        if isinstance(result, int):
            return result
        exit_code = max(exit_code, result[0])
        totals = [t + n for t, n in zip(totals, result[1:])]
    fixed, files, remaining = totals
    verb = "would fix" if args.diff else "fixed"
    print(f"archsync: {verb} {fixed} problem{'s' if fixed != 1 else ''} in {files} "
          f"file{'s' if files != 1 else ''}; {remaining} remaining", file=sys.stderr)
    return exit_code


def _fix_project(args: argparse.Namespace, project: Optional[Path], select: Sequence[str],
                 ignore: Sequence[str]):
    """Fix one project (None: PATH is in no project); (exit code, fixed, files changed, remaining)."""
    from ...fix import command as fix_command
    from ...report.escape import printable
    from ..formats import render
    from ..paths import display_path, text_from_here

    report = analyse(args, project)
    if isinstance(report, int):
        return report
    baselined = _baselined(args, report)
    if isinstance(baselined, int):
        return baselined
    among = report.diagnostics if baselined is None else baselined.new
    # edits only in files under PATH (a diagnostic may be fixed in another file than its own)
    editable = {id(d) for d in within(report.root, Path(args.path), [d.fix for d in among if d.fix])}
    scope = tuple(d for d in among if d.fix is not None and id(d.fix) in editable)
    outcome = fix_command.plan(report, select, ignore, among=scope)
    if all(f.after == f.before for f in outcome.files):  # nothing re-checked: what remains is all of it
        outcome = dataclasses.replace(outcome, remaining=report.diagnostics)
    changed = [f for f in outcome.files if f.after != f.before]
    if baselined is not None:  # what remains is what the change introduced and no fix took
        taken = {d for f in changed for d in f.fixed}
        outcome = dataclasses.replace(outcome, remaining=tuple(baselined.still_new(outcome.remaining, taken)))
    if args.diff:
        terminal = sys.stdout.isatty()  # paths as the user reads them, so the diff applies from here
        seen_from_here = [dataclasses.replace(f, path=Path(display_path(report.root, f.path)).as_posix())
                          for f in changed]
        sys.stdout.write("".join(fix_command.unified_diff(f, terminal) for f in seen_from_here))
        problems: List[str] = []
    else:
        written, problems = fix_command.write(report.root, outcome)
        if len(written) < len(changed):  # what was not written is still to do: check again
            changed = [f for f in changed if f.path in written]
            again = analyse(args, project)
            if not isinstance(again, int):
                left = again.diagnostics if baselined is None else tuple(
                    baselined.still_new(again.diagnostics, {d for f in changed for d in f.fixed}))
                outcome = dataclasses.replace(outcome, remaining=left)
        remaining = within(report.root, Path(args.path), outcome.remaining)
        sys.stdout.write(render("text", remaining, report.root))
    sys.stdout.flush()
    fix_command.report_lines(outcome, lambda text: text_from_here(text, report.root))
    for problem in problems:
        print(printable(f"archsync: {text_from_here(problem, report.root)}"), file=sys.stderr)
    from ...report.causes import findings

    # counted as `check` prints them: one per cause (the edits of a cause are all made, or counted as left)
    fixed = len(findings(d for f in changed for d in f.fixed))
    remaining = findings(within(report.root, Path(args.path), outcome.remaining))
    if args.diff:  # nothing was written: what the diff shows is still to do
        code = EXIT_FINDINGS if changed or remaining or problems else EXIT_CLEAN
    else:
        code = EXIT_FINDINGS if remaining or problems else EXIT_CLEAN
    return code, fixed, len(changed), len(remaining)


def _baselined(args: argparse.Namespace, report):
    """With `--baseline-commit`, what `check --baseline-commit` reports (`baseline_commit.Baselined`); None
    without it; the exit code after an error."""
    if getattr(args, "baseline_commit", None) is None:
        return None
    from ...report.escape import printable
    from .. import baseline_commit

    try:
        baselined = baseline_commit.against(report, args.baseline_commit, report.diagnostics,
                                            use_cache=not args.no_cache)
    except baseline_commit.BaselineError as exc:
        print(printable(f"archsync: error: {exc}"), file=sys.stderr)
        return EXIT_ERROR
    for warning in baselined.warnings:
        print(printable(f"archsync: warning: {warning}"), file=sys.stderr)
    return baselined
