"""flake8 front end: the project is analysed once per flake8 run, then each file gets its share.

flake8 calls the plugin once per file (per worker with `-j N`); drift is cross-file, so the
whole project is analysed on the first call and the report is kept for the rest of the run.
What a run keeps is one value, `_Flake8Run`, made anew when flake8 parses its options (once per
run, in each process): a second run in the same process (flake8's API, an editor's) starts afresh.
"""
from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Type

from .. import __version__
from ..config import ConfigError, find_root
from ..project.files import encode_as_source
from ..report.causes import causes, merged
from ..report.escape import printable
from ..report.flake8_text import flake8_text
from ..rules import arc900_configuration_error as configuration_error
from .paths import from_here


class _Flake8Run:
    """What one flake8 run keeps while it checks file after file."""

    def __init__(self, options: Any = None) -> None:
        self.options = options  # which files this run checks: the one that carries ARC900
        self.reports: Dict[Path, Any] = {}  # project root -> its report (or its ConfigError)
        self.roots: Dict[Path, Path] = {}  # directory -> its project root
        self.first: Dict[Path, Path] = {}  # project root -> the file that carries a configuration error
        self.fixes: Dict[Path, Dict[int, Any]] = {}  # project root -> id of a diagnostic of its report -> its fix

    def root_of(self, path: Path) -> Path:
        """The file's project root (`find_root`), looked up once per directory: flake8 asks for every file.
        A linked file is looked up alone (`find_root` starts from where the link leads)."""
        if os.path.islink(path):
            return find_root(path)
        directory = path.parent
        if directory not in self.roots:
            self.roots[directory] = find_root(path)
        return self.roots[directory]

    def report_for(self, root: Path) -> Any:
        if root not in self.reports:
            self.reports[root] = _run(root, None)
        return self.reports[root]

    def fixes_for(self, root: Path, report: Any) -> Dict[int, Any]:
        """The fix of each fixable diagnostic of the saved project's report in the files this run checks
        (by the diagnostic's id), planned once per run and kept in the project's fixes cache, as
        `check --format json` keeps them: a later run prints them without importing the editor."""
        if root not in self.fixes:
            checked = {os.path.relpath(f, root).replace(os.sep, "/") for f in self._checked_files()
                       if self.root_of(f) == root}  # a linked file's root is where it leads: its path may be outside
            fixable = [d for d in report.diagnostics if d.fix is not None and (not checked or d.path in checked)]
            cache = None
            if (root / "pyproject.toml").is_file():  # no project: nothing is cached
                from ..fix.payload_cache import PayloadCache

                cache = PayloadCache(root, report.config.cache_dir)
            from ..fix.payloads import fix_payloads

            planned = fix_payloads(root, fixable, cache=cache) if fixable else {}
            self.fixes[root] = {id(d): planned[i] for i, d in enumerate(fixable) if i in planned}
        return self.fixes[root]

    def first_file(self, root: Path, path: Path) -> Path:
        """A configuration error is reported once per flake8 run, on the project's first file checked.

        "First" is by path among the files flake8 itself checks (its own `expand_paths`, with
        the run's paths, `--filename` and excludes), so the same file carries ARC900 whatever
        `-j` is and whichever worker gets there first. Without flake8's discovery (another
        flake8), the file at hand.
        """
        if root not in self.first:
            candidates = [f for f in self._checked_files() if self.root_of(f) == root]
            self.first[root] = min(candidates) if candidates else path
        return self.first[root]

    def _checked_files(self) -> List[Path]:
        options = self.options
        try:
            from flake8.discover_files import expand_paths  # type: ignore[import-untyped]

            files = expand_paths(paths=options.filenames, stdin_display_name=options.stdin_display_name,
                                 filename_patterns=options.filename,
                                 exclude=[*options.exclude, *(options.extend_exclude or ())])
            return [Path(os.path.abspath(f)) for f in files]
        except Exception:  # an older or newer flake8, or no options: report where we are
            return []


class ArchsyncChecker:
    """flake8 entry point for the ARC codes."""

    name = "flake8-archsync"
    version = __version__
    show_fixes = False
    _run = _Flake8Run()  # the current flake8 run's (`parse_options` starts each run with a new one)

    @classmethod
    def add_options(cls, manager) -> None:
        manager.add_option(
            "--archsync-show-fixes", action="store_true", parse_from_config=True,
            help="append each ARC diagnostic's fix (the text to insert or remove, and where)",
        )

    @classmethod
    def parse_options(cls, options) -> None:
        cls.show_fixes = bool(getattr(options, "archsync_show_fixes", False))
        cls._run = _Flake8Run(options)

    def __init__(self, tree: ast.AST, filename: str, lines: Sequence[str]) -> None:
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[Tuple[int, int, str, Type["ArchsyncChecker"]]]:
        path = Path(os.path.abspath(self.filename))  # as named: a symlink is not followed out of the tree
        flake8_run = self._run
        root = flake8_run.root_of(path)
        try:
            rel = path.relative_to(root).as_posix()
        except ValueError:
            return
        buffer = _unsaved_text(path, self.lines)
        report = flake8_run.report_for(root) if buffer is None else _report_with_buffer(root, rel, buffer)
        if isinstance(report, ConfigError):
            if path == flake8_run.first_file(root, path):
                yield 1, 0, configuration_error.message(report), type(self)
            return
        mine = [d for d in report.diagnostics if d.path == rel]
        fixes: Dict[int, Any] = {}
        if self.show_fixes and any(d.fix for d in mine):
            if buffer is None:
                fixes = flake8_run.fixes_for(root, report)
            else:  # an unsaved buffer: its fixes are planned on its text, and kept nowhere
                from ..fix.payloads import fix_payloads

                fixes = {id(mine[i]): fix for i, fix in fix_payloads(root, mine, {rel: buffer}).items()}
        where = from_here(root)  # flake8 prints the file's path as it was named; the places a message names, from here
        for group in _causes(root, rel, buffer, mine):
            d = merged(group)
            text = d.seen(where).text
            described = _describe_fixes([fixes.get(id(place)) for place in group])
            yield d.line, d.column - 1, printable(f"{d.code} {text}{described}"), type(self)


def _causes(root: Path, rel: str, buffer: Optional[bytes], mine: List[Any]) -> List[Tuple[Any, ...]]:
    """A file's diagnostics by cause, as `archsync check` prints them. flake8 reads `# noqa` itself, on the
    line it is given: a place a comment suppresses is left out of any cause (given alone, for flake8 to
    suppress, or show with `--disable-noqa`), so a cause is reported at a place flake8 shows."""
    from ..report.noqa import NoqaReader

    noqa = NoqaReader(root, {rel: buffer} if buffer is not None else None)
    quiet = [d for d in mine if noqa.suppressed(d)]
    return causes([d for d in mine if all(d is not q for q in quiet)]) + [(d,) for d in quiet]


def _describe_fixes(payloads) -> str:
    """` [fix: insert '...' at 40:1]`: the fixes of a finding's places in a form flake8's one-line output
    can carry (each edit planned alone against the file as it is, as JSON gives them)."""
    parts = []
    refused = []
    for payload in payloads:
        if not payload:
            continue
        if payload.get("refused"):
            refused.append(payload["refused"])
            continue
        for edit in payload["edits"]:
            where = f"{edit['start_line']}:{edit['start_column']}"
            if edit["end_line"] == edit["start_line"] and edit["end_column"] == edit["start_column"]:
                parts.append(f"insert {edit['new_text']!r} at {where}")
            else:
                parts.append(f"replace {where}-{edit['end_line']}:{edit['end_column']} with {edit['new_text']!r}")
    described = " [fix: " + "; ".join(parts) + "]" if parts else ""
    return described + "".join(f" [no automatic fix: {reason}]" for reason in dict.fromkeys(refused))


def _report_with_buffer(root: Path, rel: str, buffer: bytes):
    """An editor's unsaved buffer (flake8 reading stdin) stands in for the file on disk."""
    return _run(root, {rel: buffer})


def _run(root: Path, overrides):
    from ..pipeline import Request, run

    try:
        # flake8 reads noqa comments itself (--disable-noqa must work); a saved tree may reuse the last report
        return run(Request((root,), overrides or {}, noqa=False, reuse=overrides is None))
    except ConfigError as exc:
        return exc


def _unsaved_text(path: Path, lines: Sequence[str]) -> Optional[bytes]:
    """The text flake8 checks, when it is not what the file on disk holds (stdin), else None."""
    text = "".join(lines)
    try:
        on_disk = flake8_text(path.read_bytes())
    except OSError:
        return encode_as_source(text)
    if on_disk == text.replace("\r\n", "\n").replace("\r", "\n"):
        return None
    return encode_as_source(text)
