"""`archsync` command line: thin front ends over `engine.run`."""
from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .. import __version__

FORMATS = ("text", "json", "github", "sarif")  # as lint_plugin.formats renders them

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 128 + 2  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C

INIT_DESCRIPTION = """\
Start the project's configuration from what archsync finds in it.

Runs archsync on the project (reading its files, never importing them) and appends a
[tool.archsync] table to the pyproject.toml that `archsync check PATH` reads, or creates
pyproject.toml in PATH. The table is comments, what was found with the key to set beside
it: the registries, subjects and families found, lists that look like mirrors, and
the keys most worth setting. The one setting is `extends`, when a rule pack is made for the
project (the sglang pack on SGLang's python/ tree); init then prints what the pack changes in
what `archsync check` reports. Without one, check reports exactly what it did before.

Every other byte of pyproject.toml is kept. A pyproject.toml that already has a
[tool.archsync] table is left alone: edit it by hand, with `archsync inventory`.

Exit codes: 0 written (or shown with --diff); 2 refused or an error, and nothing written."""


def main(argv: Optional[Sequence[str]] = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # file names need not be valid in the terminal's encoding
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:  # Ctrl-C while the options are read is as quiet as during the run
        parser = _parser()
        args, extra = parser.parse_known_args(argv)
        if extra and getattr(args, "paths", None) is not None:
            written = [] if args.paths is _SUBPARSERS["check"].get_default("paths") else args.paths
            args.paths, extra = _intermixed_paths(written, extra)
        if extra:  # said by the subcommand, with its usage: `check --selct X` is check's mistake
            command = _SUBPARSERS.get(args.command or "", parser)
            command.error(f"unrecognized arguments: {' '.join(extra)}")
        if getattr(args, "paths", None) is not None:
            args.path = args.paths[0]
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        return args.handler(args)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_ERROR


def _intermixed_paths(paths: List[str], extra: List[str]) -> Tuple[List[str], List[str]]:
    """PATHs written after an option (`check a --select X b`), as ruff and flake8 take them: argparse
    gives a `nargs="*"` positional only its first run of words and leaves the rest unrecognised.
    What starts with `-` (an unknown option) is left for the error."""
    later = [word for word in extra if word == "-" or not word.startswith("-")]
    return [*paths, *later] or ["."], [word for word in extra if word not in later]


def console() -> None:
    """The `archsync` command: `main`, and after Ctrl-C the process ends killed by SIGINT, as Python's
    own uncaught KeyboardInterrupt does without the traceback. A shell stops a loop or script running
    archsync only when the command died of SIGINT; an exit status of 130 it takes for an ordinary
    failure. A Ctrl-C after the run, while the interpreter exits, is ignored: the report is out, and its
    exit status stands (else Python prints an ignored KeyboardInterrupt from its shutdown)."""
    try:
        code = main()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except KeyboardInterrupt:  # between main's return and the line above
        code = EXIT_INTERRUPTED
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while the streams are flushed
    if code == EXIT_INTERRUPTED and os.name == "posix":
        pools = sys.modules.get("multiprocessing")  # no atexit handler runs for a process killed by a signal
        for child in pools.active_children() if pools is not None else ():
            child.terminate()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    sys.exit(code)


class _Formatter(argparse.HelpFormatter):
    """argparse's own, as wide as `shutil.get_terminal_size()` would make it, without importing shutil
    (argparse does, for every parser, and shutil imports the compression modules: a fifth of the
    imports of a warm check)."""

    def __init__(self, prog, **options) -> None:
        if options.get("width") is None:
            options["width"] = _columns() - 2
        super().__init__(prog, **options)


def _columns() -> int:
    """`shutil.get_terminal_size().columns`: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout at all (None): AttributeError, as for shutil
            columns = 0
    return columns or 80


class _RawDescriptionFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    """`init`'s description keeps its lines, at the width of every other parser's."""


class _Parser(argparse.ArgumentParser):
    """Every parser and subparser of the command line formats with `_Formatter`."""

    def __init__(self, *args, **options) -> None:
        options.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **options)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="archsync", allow_abbrev=False,
        description="Keep architecture registries, whitelists and family predicates in sync.",
    )
    parser.add_argument("--version", action="version", version=f"archsync {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="report drift between registries, whitelists and families",
                                allow_abbrev=False)
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                       help="project directories or paths inside one project (default: .): the whole project is "
                            "analysed, what is printed is limited to the paths; '-' reads one file from stdin")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    check.add_argument("--select", default="", metavar="CODES", help="comma-separated codes or prefixes to report")
    check.add_argument("--extend-select", default="", metavar="CODES", help="codes or prefixes to report as well")
    check.add_argument("--ignore", default="", metavar="CODES", help="codes or prefixes not to report")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    check.add_argument("--quiet", "-q", action="store_true", help="print the problems only, no summary")
    check.add_argument("--output-file", metavar="FILE", help="write the output to FILE instead of stdout")
    check.add_argument("--statistics", action="store_true", help="print the number of problems per code")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour text output (default: auto, on a terminal unless NO_COLOR is set)")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="with '-': the path of the file whose unsaved text is on stdin")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    check.add_argument("--no-prefilter", action="store_true",
                       help="parse every file (slow; the output must be the same: a debugging aid)")
    adoption = check.add_mutually_exclusive_group()
    adoption.add_argument("--baseline-commit", metavar="REV",
                          help="report only findings the tree at git commit REV does not have (analysed the "
                               "same way, with this configuration)")
    adoption.add_argument("--add-exemptions", action="store_true",
                          help="record every finding reported as an exemption in pyproject.toml, to review")
    check.set_defaults(handler=_check, several_projects=True)

    fix = commands.add_parser("fix", help="add missing names and remove duplicates where archsync can edit",
                              allow_abbrev=False)
    fix.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    fix.add_argument("--diff", action="store_true", help="print a unified diff and write nothing")
    fix.add_argument("--select", default="", metavar="CODES", help="comma-separated codes or prefixes to fix")
    fix.add_argument("--ignore", default="", metavar="CODES", help="comma-separated codes or prefixes not to fix")
    fix.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    fix.set_defaults(handler=_fix, stdin_filename=None)

    show = commands.add_parser("show", allow_abbrev=False, help="draw the family x collection membership matrix")
    show.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    show.add_argument("--format", choices=("text", "markdown", "html"), default="text")
    show.add_argument("--all", action="store_true", help="include families and collections that never meet")
    show.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    show.set_defaults(handler=_show)

    inventory = commands.add_parser("inventory", allow_abbrev=False,
                                    help="list what archsync saw: registries, subjects, families")
    inventory.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    inventory.add_argument("--format", choices=("text", "json"), default="text")
    inventory.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    inventory.set_defaults(handler=_inventory)

    init = commands.add_parser(
        "init", allow_abbrev=False, formatter_class=_RawDescriptionFormatter,
        help="start a [tool.archsync] table in pyproject.toml from what archsync finds",
        description=INIT_DESCRIPTION)
    init.add_argument("path", nargs="?", default=".",
                      help="the project directory or a path inside it (default: .); the table goes into the "
                           "pyproject.toml `archsync check PATH` reads, or a new one in PATH")
    init.add_argument("--diff", action="store_true", help="print the change to pyproject.toml as a unified diff "
                                                          "and write nothing")
    init.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    init.set_defaults(handler=_init)

    why = commands.add_parser("why", allow_abbrev=False,
                              help="print every piece of kinship evidence for a name in a subject (ARC105)")
    why.add_argument("subject", help="a subject or a family as `archsync inventory` names it, e.g. _MAMBA_ARCHS, "
                                     "fn#2 or is_qwen3_5")
    why.add_argument("name", help="an architecture name, e.g. MistralForCausalLM")
    why.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    why.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    why.set_defaults(handler=_why)

    rules = commands.add_parser("rules", allow_abbrev=False, help="list every rule code")
    rules.add_argument("--format", choices=("text", "markdown"), default="text",
                       help="markdown prints the table of docs/rules/README.md")
    rules.set_defaults(handler=_rules)

    explain = commands.add_parser("explain", allow_abbrev=False, help="print a rule's documentation")
    explain.add_argument("code", help="a rule code, e.g. ARC101")
    explain.set_defaults(handler=_explain)

    lsp = commands.add_parser("lsp", allow_abbrev=False,
                              help="run the language server on stdin/stdout (needs the 'lsp' extra)")
    lsp.set_defaults(handler=_lsp)
    _SUBPARSERS.update(commands.choices)
    return parser


_SUBPARSERS: Dict[str, argparse.ArgumentParser] = {}


def _analyse(args: argparse.Namespace, project: Optional[Path] = None):
    """Run the engine (on `project` alone, if given) or print why not; returns a report or an exit code."""
    try:
        return _analyse_or_raise(args, project)
    except OSError as exc:  # a path in a directory we may not read, and the like
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"archsync: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR


def _analyse_or_raise(args: argparse.Namespace, project: Optional[Path] = None):
    from ..config import ConfigError, find_root
    from ..pipeline import run, run_projects

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
        if overrides is None and project is None and not getattr(args, "several_projects", False):
            project = _one_project(Path(args.path), args.command)
            if isinstance(project, int):
                return project
        # `check` prints diagnostics only: a stored report whose inputs are unchanged stands in for the
        # run. Not when it adopts findings, or for the views that show the model.
        reuse = args.command == "check" and getattr(args, "baseline_commit", None) is None \
            and not getattr(args, "add_exemptions", False)
        if overrides is not None or project is not None:
            report = run(project or target, overrides, use_cache=not args.no_cache, prefilter=prefilter, reuse=reuse)
        else:
            paths = [Path(p) for p in getattr(args, "paths", [args.path])]
            report = run_projects(paths, use_cache=not args.no_cache, prefilter=prefilter, reuse=reuse)
    except ConfigError as exc:
        print(f"archsync: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for warning in report.warnings:
        print(f"archsync: warning: {warning}", file=sys.stderr)
    return report


def _one_project(path: Path, command: str):
    """The project a one-project view (`show`, `inventory`, `why`) looks at: PATH's own, or the one below it."""
    from ..project.projects import projects_of

    found = projects_of(path)
    if found is None:
        return None
    roots = found.roots
    if path.resolve() == roots[0] or roots[0] in path.resolve().parents or len(roots) == 1:
        return roots[0]
    names = ", ".join(os.path.relpath(r) for r in roots)
    print(f"archsync: error: {path} holds {len(roots)} projects ({names}); give {command} one of them",
          file=sys.stderr)
    return EXIT_ERROR


def _check(args: argparse.Namespace) -> int:
    from ..report.selection import selected
    from .formats import render, statistics

    codes = _codes(args.select, args.extend_select, args.ignore)
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
    report = _analyse(args)
    if isinstance(report, int):
        return report

    def scope(diagnostics):
        under = {id(d) for path in paths for d in _within(report.root, path, diagnostics)}
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
        output = render(args.format, shown, report.root, color=_color(args))
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
        count = len(shown)
        new = "new " if args.baseline_commit is not None else ""
        summary = f"{count} {new}problem{'s' if count != 1 else ''}" if count else f"no {new}problems"
        print(f"archsync: {summary} ({_counts(report)}){'; ' + note if note else ''}", file=sys.stderr)
    elif note and not args.quiet:
        print(f"archsync: {note}", file=sys.stderr)
    return EXIT_FINDINGS if shown and not args.exit_zero else EXIT_CLEAN


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
    from ..pipeline import rebased

    parts = report.parts or (report,)
    visible = set(shown)

    def seen_from(part):
        return lambda d: rebased(d, part.root, report.root)

    mine = [[d for d in part.diagnostics if seen_from(part)(d) in visible] for part in parts]
    if args.baseline_commit is not None:
        from . import baseline_commit
        baselined = baseline_commit.for_check(parts, args.baseline_commit, mine, use_cache=not args.no_cache)
        if baselined is None:
            return EXIT_ERROR
        news, note = baselined
        return sorted(seen_from(part)(d) for part, new in zip(parts, news) for d in new), note
    from . import add_exemptions
    left: List = []
    for part in parts:
        seen = seen_from(part)

        def part_scope(diagnostics, seen=seen):
            return [d for d in diagnostics if scope([seen(d)])]

        recorded = add_exemptions.for_check(part, part_scope, several=len(parts) > 1)
        if recorded is None:
            return EXIT_ERROR
        left += [seen(d) for d in recorded[0]]
    return sorted(left), ""


def _codes(select_text: str, extend_text: str, ignore_text: str):
    """(select, ignore) from `--select`, `--extend-select`, `--ignore`; an unknown code or prefix is an error."""
    from ..rules import CODES

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


def _paths(args: argparse.Namespace):
    """The paths whose diagnostics are printed (every project they are in or hold is analysed)."""
    from ..config import ConfigError
    from ..project.projects import projects_of

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


def _fix(args: argparse.Namespace) -> int:
    """Fix each project under PATH in turn (`fix PATH` edits only files under PATH)."""
    from ..config import ConfigError
    from ..project.projects import projects_of

    codes = _codes(args.select, "", args.ignore)  # an unknown code is a mistake before any work is done
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
    from ..fix import command as fix_command
    from ..report.escape import printable
    from .formats import display_path, render

    report = _analyse(args, project)
    if isinstance(report, int):
        return report
    # edits only in files under PATH (a diagnostic may be fixed in another file than its own)
    editable = {id(d) for d in _within(report.root, Path(args.path), [d.fix for d in report.diagnostics if d.fix])}
    scope = tuple(d for d in report.diagnostics if d.fix is not None and id(d.fix) in editable)
    outcome = fix_command.plan(report, select, ignore, among=scope)
    if all(f.after == f.before for f in outcome.files):  # nothing re-checked: what remains is all of it
        outcome = dataclasses.replace(outcome, remaining=report.diagnostics)
    changed = [f for f in outcome.files if f.after != f.before]
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
            again = _analyse(args, project)
            if not isinstance(again, int):
                outcome = dataclasses.replace(outcome, remaining=again.diagnostics)
        remaining = _within(report.root, Path(args.path), outcome.remaining)
        sys.stdout.write(render("text", remaining, report.root))
    sys.stdout.flush()
    fix_command.report_lines(outcome)
    for problem in problems:
        print(printable(f"archsync: {problem}"), file=sys.stderr)
    fixed = sum(len(f.fixed) for f in changed)
    remaining = _within(report.root, Path(args.path), outcome.remaining)
    if args.diff:  # nothing was written: what the diff shows is still to do
        code = EXIT_FINDINGS if changed or remaining or problems else EXIT_CLEAN
    else:
        code = EXIT_FINDINGS if remaining or problems else EXIT_CLEAN
    return code, fixed, len(changed), len(remaining)


def _show(args: argparse.Namespace) -> int:
    from .show import build_matrix, render_html, render_markdown, render_text

    report = _analyse(args)
    if isinstance(report, int):
        return report
    matrix = build_matrix(report.model.families, report.model.collections, args.all)
    render = {"text": render_text, "markdown": render_markdown, "html": render_html}[args.format]
    sys.stdout.write(_printable_lines(render(matrix)) if args.format == "text" else render(matrix))
    return EXIT_CLEAN


def _inventory(args: argparse.Namespace) -> int:
    from .inventory import render_json, render_text

    report = _analyse(args)
    if isinstance(report, int):
        return report
    text = render_json(report.model) if args.format == "json" else _printable_lines(render_text(report.model))
    sys.stdout.write(text)
    return EXIT_CLEAN


def _init(args: argparse.Namespace) -> int:
    from .init import init_command

    return init_command(Path(args.path), args.diff, not args.no_cache)


def _why(args: argparse.Namespace) -> int:
    from .why import explain_family, explain_pair, matching, matching_families

    report = _analyse(args)
    if isinstance(report, int):
        return report
    found = matching(report.model, args.subject)
    families = matching_families(report.model, args.subject)
    if not found and not families:
        print(f"archsync: error: no subject {args.subject!r}; `archsync inventory` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(_printable_lines("\n".join(
        [explain_pair(report.model, c, args.name, report.diagnostics) for c in found]
        + [explain_family(report.model, f, args.name, report.diagnostics) for f in families])))
    return EXIT_CLEAN


def _rules(args: argparse.Namespace) -> int:
    from ..rules import RULES, rules_table

    if args.format == "markdown":
        sys.stdout.write(rules_table())
        return EXIT_CLEAN
    for rule in RULES:
        print(f"{rule.code}  {rule.name:<26} {rule.summary}")
    return EXIT_CLEAN


def _explain(args: argparse.Namespace) -> int:
    from ..rules import BY_CODE, explain

    code = args.code.upper()
    if code not in BY_CODE:
        print(f"archsync: error: unknown rule {args.code!r}; `archsync rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(explain(code))
    return EXIT_CLEAN


def _lsp(args: argparse.Namespace) -> int:
    try:
        from .lsp import serve
    except ModuleNotFoundError as exc:
        if exc.name not in ("pygls", "lsprotocol"):
            raise
        print("archsync: error: the language server needs pygls: pip install 'flake8-archsync[lsp]'", file=sys.stderr)
        return EXIT_ERROR
    return serve()


def _printable_lines(text: str) -> str:
    """Text for the terminal, line by line: what the tree holds never runs as an escape sequence."""
    from ..report.escape import printable

    return "".join(printable(line.rstrip("\n")) + "\n" * line.endswith("\n") for line in text.splitlines(True))


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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
