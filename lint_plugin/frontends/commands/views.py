"""`archsync show`, `inventory` and `why`: what archsync saw in one project, printed for a reader
(the tree's own text never runs as a terminal escape sequence), every path seen from where the
command runs (`paths.py`)."""
from __future__ import annotations

import argparse
import sys

from . import EXIT_CLEAN, EXIT_ERROR
from .analysis import analyse


def run_show(args: argparse.Namespace) -> int:
    from ..paths import from_here
    from ..show import build_matrix, render_html, render_markdown, render_text

    report = analyse(args)
    if isinstance(report, int):
        return report
    matrix = build_matrix(report.model.families, report.model.collections, args.all)
    where = from_here(report.root)
    render = {"text": render_text, "markdown": render_markdown, "html": render_html}[args.format]
    sys.stdout.write(_printable_lines(render(matrix, where)) if args.format == "text" else render(matrix, where))
    return EXIT_CLEAN


def run_inventory(args: argparse.Namespace) -> int:
    from ..inventory import render_json, render_text
    from ..paths import from_here

    report = analyse(args)
    if isinstance(report, int):
        return report
    where = from_here(report.root)
    text = render_json(report.model, report.root, where) if args.format == "json" \
        else _printable_lines(render_text(report.model, where))
    sys.stdout.write(text)
    return EXIT_CLEAN


def run_why(args: argparse.Namespace) -> int:
    from ..paths import text_from_here
    from ..why import explain_family, explain_pair, matching, matching_families

    report = analyse(args)
    if isinstance(report, int):
        return report
    found = matching(report.model, args.subject)
    families = matching_families(report.model, args.subject)
    if not found and not families:
        print(f"archsync: error: no subject {args.subject!r}; `archsync inventory` lists them", file=sys.stderr)
        return EXIT_ERROR
    text = "\n".join([explain_pair(report.model, c, args.name, report.diagnostics) for c in found]
                     + [explain_family(report.model, f, args.name, report.diagnostics) for f in families])
    sys.stdout.write(_printable_lines(text_from_here(text, report.root)))
    return EXIT_CLEAN


def _printable_lines(text: str) -> str:
    """Text for the terminal, line by line: what the tree holds never runs as an escape sequence."""
    from ...report.escape import printable

    return "".join(printable(line.rstrip("\n")) + "\n" * line.endswith("\n") for line in text.splitlines(True))
