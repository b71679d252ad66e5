"""`archsync show`, `inventory` and `why`: what archsync saw in one project, printed for a reader
(the tree's own text never runs as a terminal escape sequence), every path seen from where the
command runs (`paths.py`)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from . import EXIT_CLEAN, EXIT_ERROR
from .analysis import analyse, view_projects


def run_show(args: argparse.Namespace) -> int:
    from ..paths import from_here
    from ..show import build_matrix, render_html, render_markdown, render_text

    reports = _reports(args, several=args.format != "html")
    if isinstance(reports, int):
        return reports
    render = {"text": render_text, "markdown": render_markdown, "html": render_html}[args.format]
    for report in reports:
        _heading(reports, report, "## {}\n\n" if args.format == "markdown" else "Project {}:\n")
        matrix = build_matrix(report.model.families, report.model.collections, args.all)
        text = render(matrix, from_here(report.root))
        sys.stdout.write(_printable_lines(text) if args.format == "text" else text)
    return EXIT_CLEAN


def run_inventory(args: argparse.Namespace) -> int:
    from ..inventory import render_json, render_projects_json, render_text
    from ..paths import from_here

    reports = _reports(args)
    if isinstance(reports, int):
        return reports
    if args.format == "json":
        documents = [(report.model, report.root, from_here(report.root)) for report in reports]
        sys.stdout.write(render_json(*documents[0]) if len(documents) == 1 else render_projects_json(documents))
        return EXIT_CLEAN
    for report in reports:
        _heading(reports, report, "Project {}:\n")
        sys.stdout.write(_printable_lines(render_text(report.model, from_here(report.root))))
    return EXIT_CLEAN


def run_why(args: argparse.Namespace) -> int:
    from ..paths import text_from_here
    from ..why import explain_family, explain_pair, matching, matching_families, unchecked_list

    reports = _reports(args)
    if isinstance(reports, int):
        return reports
    texts = []
    for report in reports:  # from above several projects, each one holding a subject of that name
        found = matching(report.model, args.subject)
        families = matching_families(report.model, args.subject)
        text = "\n".join([explain_pair(report.model, c, args.name, report.diagnostics) for c in found]
                         + [explain_family(report.model, f, args.name, report.diagnostics) for f in families])
        if found or families:
            texts.append(_printable_lines(text_from_here(text, report.root)))
    if not texts:  # a list `inventory` names that is not checked is explained, not denied
        texts = [_printable_lines(text_from_here(text, report.root)) for report in reports
                 for text in [unchecked_list(report.model, args.subject)] if text]
        if texts:
            sys.stdout.write("\n\n".join(text.rstrip("\n") for text in texts) + "\n")
            return EXIT_CLEAN
    if not texts:
        import difflib  # only a subject not found needs it

        known = {s.subject for report in reports for s in report.model.collections + report.model.families}
        near = difflib.get_close_matches(args.subject, sorted(known), n=3, cutoff=0.75)
        meant = f" did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        print(f"archsync: error: no subject {args.subject!r};{meant} `archsync inventory` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write("\n\n".join(text.rstrip("\n") for text in texts) + "\n")  # a blank line between projects
    return EXIT_CLEAN


def _reports(args: argparse.Namespace, several: bool = True):
    """The report of each project the view looks at (`view_projects`), or an exit code. `several`: whether the
    format can show more than one (an HTML page is one project's)."""
    from ...config import ConfigError

    try:
        projects = view_projects(Path(args.path)) if args.path != "-" else [None]
    except ConfigError as exc:  # a project's configuration, read to find the projects
        print(f"archsync: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if len(projects) > 1 and not several:
        names = ", ".join(os.path.relpath(p) for p in projects if p is not None)
        print(f"archsync: error: {args.path} holds {len(projects)} projects ({names}); "
              f"give {args.command} --format {args.format} one of them", file=sys.stderr)
        return EXIT_ERROR
    reports = []
    for project in projects:
        report = analyse(args, project)
        if isinstance(report, int):
            return report
        reports.append(report)
    return reports


def _heading(reports: Sequence[object], report, template: str) -> None:
    """Before each project's view, where there are several: which project it is, from where the command runs."""
    if len(reports) > 1:
        from ..paths import display_path

        if report is not reports[0]:
            sys.stdout.write("\n")
        sys.stdout.write(_printable_lines(template.format(display_path(report.root, "."))))


def _printable_lines(text: str) -> str:
    """Text for the terminal, line by line: what the tree holds never runs as an escape sequence."""
    from ...report.escape import printable

    return "".join(printable(line.rstrip("\n")) + "\n" * line.endswith("\n") for line in text.splitlines(True))
