"""`archsync`'s command-line parsers: every command's options, and `check`'s read alone.

Imported when a command line is read with argparse: a plain warm check (`plain_check.py`) never
imports it.
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name as True)
if TYPE_CHECKING:
    from typing import Dict, NoReturn, Optional, Sequence, Tuple

FORMATS = ("text", "json", "github", "sarif")  # as lint_plugin.formats renders them

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


def _check_arguments(check: argparse.ArgumentParser) -> None:
    """`check`'s options: on its subparser, and on the parser a warm check is read with (`_check_alone`)."""
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


class _NotAlone(Exception):
    """`check`'s own parser cannot read this command line as the full one does: the full one reads it."""


class _CheckAlone(_Parser):
    def error(self, message: str) -> "NoReturn":
        raise _NotAlone(message)  # the full parser says what is wrong, once


def check_alone(argv: Sequence[str]) -> Optional[argparse.Namespace]:
    """A `check` command line read by `check`'s parser alone, as the full parser reads it (the same
    namespace, so the same record key); None for any other command line, help, or one it cannot read.
    Building every subcommand's parser is a tenth of a warm check."""
    if not argv or argv[0] != "check":
        return None
    parser = _CheckAlone(prog="archsync check", allow_abbrev=False, add_help=False)  # `-h` is left over: not read
    _check_arguments(parser)
    parser.set_defaults(command="check")
    try:
        args, extra = parser.parse_known_args(argv[1:])
    except _NotAlone:
        return None
    if extra:
        return None
    args.path = args.paths[0]
    return args


def parser() -> Tuple[argparse.ArgumentParser, Dict[str, argparse.ArgumentParser]]:
    """The command line's parser, and each subcommand's by name."""
    parser = _Parser(
        prog="archsync", allow_abbrev=False,
        description="Keep architecture registries, whitelists and family predicates in sync.",
    )
    parser.add_argument("--version", action="version", version=f"archsync {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="report drift between registries, whitelists and families",
                                allow_abbrev=False)
    _check_arguments(check)
    check.set_defaults(handler=_handler("check", "run_check"))

    fix = commands.add_parser("fix", help="add missing names and remove duplicates where archsync can edit",
                              allow_abbrev=False)
    fix.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    fix.add_argument("--diff", action="store_true", help="print a unified diff and write nothing")
    fix.add_argument("--select", default="", metavar="CODES", help="comma-separated codes or prefixes to fix")
    fix.add_argument("--ignore", default="", metavar="CODES", help="comma-separated codes or prefixes not to fix")
    fix.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    fix.add_argument("--baseline-commit", metavar="REV",
                     help="fix only what `check --baseline-commit REV` reports: the findings the change since git "
                          "commit REV introduced")
    fix.set_defaults(handler=_handler("fix", "run_fix"), stdin_filename=None)

    show = commands.add_parser("show", allow_abbrev=False, help="draw the family x collection membership matrix")
    show.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    show.add_argument("--format", choices=("text", "markdown", "html"), default="text")
    show.add_argument("--all", action="store_true", help="include families and collections that never meet")
    show.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    show.add_argument("--no-prefilter", action="store_true",
                       help="parse every file (slow; what is seen must be the same: a debugging aid)")
    show.set_defaults(handler=_handler("views", "run_show"))

    inventory = commands.add_parser("inventory", allow_abbrev=False,
                                    help="list what archsync saw: registries, subjects, families")
    inventory.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    inventory.add_argument("--format", choices=("text", "json"), default="text")
    inventory.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    inventory.add_argument("--no-prefilter", action="store_true",
                       help="parse every file (slow; what is seen must be the same: a debugging aid)")
    inventory.set_defaults(handler=_handler("views", "run_inventory"))

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
    init.set_defaults(handler=_handler("passthrough", "run_init"))

    why = commands.add_parser("why", allow_abbrev=False,
                              help="print every piece of kinship evidence for a name in a subject (ARC105)")
    why.add_argument("subject", help="a subject or a family as `archsync inventory` names it, e.g. _MAMBA_ARCHS, "
                                     "fn#2 or is_qwen3_5")
    why.add_argument("name", help="an architecture name, e.g. MistralForCausalLM")
    why.add_argument("path", nargs="?", default=".", help="a project directory or a path inside it (default: .)")
    why.add_argument("--no-cache", action="store_true", help="neither read nor write the index cache")
    why.add_argument("--no-prefilter", action="store_true",
                       help="parse every file (slow; what is seen must be the same: a debugging aid)")
    why.set_defaults(handler=_handler("views", "run_why"))

    rules = commands.add_parser("rules", allow_abbrev=False, help="list every rule code")
    rules.add_argument("--format", choices=("text", "markdown"), default="text",
                       help="markdown prints the table of docs/rules/README.md")
    rules.set_defaults(handler=_handler("rule_docs", "run_rules"))

    explain = commands.add_parser("explain", allow_abbrev=False, help="print a rule's documentation")
    explain.add_argument("code", help="a rule code, e.g. ARC101")
    explain.set_defaults(handler=_handler("rule_docs", "run_explain"))

    lsp = commands.add_parser("lsp", allow_abbrev=False,
                              help="run the language server on stdin/stdout (needs the 'lsp' extra)")
    lsp.set_defaults(handler=_handler("passthrough", "run_lsp"))
    return parser, dict(commands.choices)


def _handler(module: str, name: str):
    """The command handler `name` of `commands/<module>.py`, imported when its command runs: a check
    loads no other command's code."""

    def handle(args: argparse.Namespace) -> int:
        # `__import__`, not importlib.import_module: `python -X importtime` lists what it imports
        handlers = __import__(f"{__package__}.commands.{module}", fromlist=[name])
        return getattr(handlers, name)(args)

    return handle
