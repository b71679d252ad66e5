"""`archsync` command line: thin front ends over `engine.run`."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_ERROR


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="archsync",
        description="Keep architecture registries, whitelists and family predicates in sync.",
    )
    parser.add_argument("--version", action="version", version=f"archsync {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="report drift between registries, whitelists and families")
    check.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    check.set_defaults(handler=_check)

    show = commands.add_parser("show", help="draw the family x collection membership matrix")
    show.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    show.add_argument("--format", choices=("text", "markdown", "html"), default="text")
    show.add_argument("--all", action="store_true", help="include families and collections that never meet")
    show.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    show.set_defaults(handler=_show)

    rules = commands.add_parser("rules", help="list every rule code")
    rules.set_defaults(handler=_rules)

    explain = commands.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("code", help="a rule code, e.g. ARC101")
    explain.set_defaults(handler=_explain)
    return parser


def _analyse(args: argparse.Namespace):
    """Run the engine or print why not; returns a report or an exit code."""
    from .config import ConfigError
    from .engine import run

    target = Path(args.path)
    if not target.exists():
        print(f"archsync: error: {args.path}: no such file or directory", file=sys.stderr)
        return EXIT_ERROR
    try:
        report = run(target, use_cache=not args.no_cache)
    except ConfigError as exc:
        print(f"archsync: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for warning in report.warnings:
        print(f"archsync: warning: {warning}", file=sys.stderr)
    return report


def _check(args: argparse.Namespace) -> int:
    report = _analyse(args)
    if isinstance(report, int):
        return report
    diagnostics = _within(report.root, Path(args.path), report.diagnostics)
    if args.format == "json":
        payload = {"version": 1, "diagnostics": [d.to_json() for d in diagnostics]}
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    else:
        for d in diagnostics:
            shown = _display_path(report.root / d.path)
            sys.stdout.write(f"{shown}:{d.line}:{d.column}: {d.code} {d.message}\n")
        sys.stdout.flush()
        count = len(diagnostics)
        summary = f"{count} problem{'s' if count != 1 else ''}" if count else "no problems"
        print(f"archsync: {summary} ({report.files} files, {report.parsed} analysed)", file=sys.stderr)
    return EXIT_FINDINGS if diagnostics else EXIT_CLEAN


def _show(args: argparse.Namespace) -> int:
    from .show import build_matrix, render_html, render_markdown, render_text

    report = _analyse(args)
    if isinstance(report, int):
        return report
    matrix = build_matrix(report.model.families, report.model.collections, args.all)
    render = {"text": render_text, "markdown": render_markdown, "html": render_html}[args.format]
    sys.stdout.write(render(matrix))
    return EXIT_CLEAN


def _rules(args: argparse.Namespace) -> int:
    from .codes import RULES

    for rule in RULES.values():
        print(f"{rule.code}  {rule.name:<26} {rule.summary}")
    return EXIT_CLEAN


def _explain(args: argparse.Namespace) -> int:
    from .codes import RULES, explain

    code = args.code.upper()
    if code not in RULES:
        print(f"archsync: error: unknown rule {args.code!r}; `archsync rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(explain(code))
    return EXIT_CLEAN


def _within(root: Path, target: Path, diagnostics) -> List:
    """Diagnostics in files under `target` (the whole project is still analysed)."""
    target = target.resolve()
    if target == root:
        return list(diagnostics)
    try:
        rel = target.relative_to(root).as_posix()
    except ValueError:
        return list(diagnostics)
    return [d for d in diagnostics if d.path == rel or d.path.startswith(rel + "/")]


def _display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
