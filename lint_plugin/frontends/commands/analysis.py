"""What the commands that read a project share: running the engine (on one project, or every
project under the paths), saying why it could not, and narrowing what it found to the paths and
codes the user asked about."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from . import EXIT_ERROR


def analyse(args: argparse.Namespace, project: Optional[Path] = None):
    """Run the engine (on `project` alone, if given) or print why not; returns a report or an exit code."""
    try:
        return _analyse_or_raise(args, project)
    except OSError as exc:  # a path in a directory we may not read, and the like
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"archsync: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR


def _analyse_or_raise(args: argparse.Namespace, project: Optional[Path] = None):
    from ...config import ConfigError, find_root
    from ...pipeline import Request, run, run_projects

    overrides = None
    target = Path(args.path)
    if args.path == "-" or getattr(args, "stdin_filename", None):
        if args.path != "-" or not getattr(args, "stdin_filename", None):
            print("archsync: error: reading stdin needs both '-' and --stdin-filename PATH", file=sys.stderr)
            return EXIT_ERROR
        target = Path(args.stdin_filename)
        if target.is_dir():
            print(f"archsync: error: --stdin-filename {args.stdin_filename} is a directory", file=sys.stderr)
            return EXIT_ERROR
        root = find_root(target.parent if not target.is_dir() else target)
        try:
            rel = target.resolve().relative_to(root).as_posix()
        except ValueError:
            print(f"archsync: error: {args.stdin_filename} is outside the project at {root}", file=sys.stderr)
            return EXIT_ERROR
        overrides = {rel: sys.stdin.buffer.read()}
    elif not target.exists():
        print(f"archsync: error: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_ERROR
    prefilter = not getattr(args, "no_prefilter", False)
    try:
        # `check` prints diagnostics only: a stored report whose inputs are unchanged stands in for the
        # run. Not when it adopts findings, or for the views that show the model.
        reuse = args.command == "check" and getattr(args, "baseline_commit", None) is None \
            and not getattr(args, "add_exemptions", False)
        keep = args.command == "fix"  # its re-check of the edits reads again only the files edited
        if overrides is not None or project is not None:
            report = run(Request((project or target,), overrides or {}, use_cache=not args.no_cache,
                                 prefilter=prefilter, reuse=reuse, keep=keep))
        else:
            paths = [Path(p) for p in getattr(args, "paths", [args.path])]
            report = run_projects(Request(tuple(paths), use_cache=not args.no_cache, prefilter=prefilter,
                                          reuse=reuse, keep=keep))
    except ConfigError as exc:
        print(f"archsync: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for warning in report.warnings:
        print(f"archsync: warning: {warning}", file=sys.stderr)
    return report


def view_projects(path: Path) -> List[Optional[Path]]:
    """The projects a view (`show`, `inventory`, `why`) looks at, one after another: PATH's own (not the projects
    nested in it: a view is of one project), or, from a directory above several, each of them, as `check` does;
    [None] where PATH is in no project and holds none."""
    from ...project.projects import projects_of

    found = projects_of(path)
    if found is None:
        return [None]
    roots = found.roots
    if path.resolve() == roots[0] or roots[0] in path.resolve().parents or len(roots) == 1:
        return [roots[0]]
    return list(roots)


def within(root: Path, target: Path, diagnostics) -> List:
    """Diagnostics in files under `target` (the whole project is still analysed)."""
    target = target.resolve()
    if target == root:
        return list(diagnostics)
    try:
        rel = target.relative_to(root).as_posix()
    except ValueError:
        return list(diagnostics)
    return [d for d in diagnostics if d.path == rel or d.path.startswith(rel + "/")]


def requested_codes(select_text: str, extend_text: str, ignore_text: str):
    """(select, ignore) from `--select`, `--extend-select`, `--ignore`; an unknown code or prefix is an error."""
    from ...rules import CODES

    lists = [[c.strip().upper() for c in text.split(",") if c.strip()]
             for text in (select_text, extend_text, ignore_text)]
    for option, codes in zip(("--select", "--extend-select", "--ignore"), lists):
        unknown = [c for c in codes if not any(known.startswith(c) for known in CODES)]
        if unknown:
            print(f"archsync: error: {option}: no rule code starts with {', '.join(map(repr, unknown))}; "
                  f"`archsync rules` lists them", file=sys.stderr)
            return EXIT_ERROR
    select, extend, ignore = lists
    return (select + extend if select else []), ignore
