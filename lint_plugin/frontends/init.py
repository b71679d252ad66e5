"""`archsync init [PATH]`: start a project's `[tool.archsync]` table from what a run finds.

The table (`starter.py`) is appended to pyproject.toml, or a new pyproject.toml holds it, every
other byte kept, through the guarded writer. Before anything is written the new file is parsed
and its configuration loaded and compared with the one the table was checked with, so what
init says `archsync check` will report is what it reports. A table already there is the
user's: init refuses rather than edit it.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from ..config import ConfigError, available_packs, config_from_table, find_root, parse_toml
from ..diagnostics import Diagnostic
from ..pipeline import Report, Request, run, run_with
from ..project.projects import projects_of
from ..project.writer import WriteRefused, create_new, replace_checked
from ..report.escape import printable
from ..rules import CODES
from .formats import render
from .paths import display_path
from .starter import Pack, pack_fits, starter_table

EXIT_DONE, EXIT_ERROR = 0, 2
PYPROJECT = "pyproject.toml"


class Refused(Exception):
    """What init will not do, in words for the user; nothing was written."""


@dataclass(frozen=True)
class Target:
    """The pyproject.toml that `archsync check PATH` reads, and what it holds now."""

    root: Path
    before: Optional[bytes]  # None: there is no pyproject.toml yet

    @property
    def shown(self) -> str:
        return printable(display_path(self.root, PYPROJECT))


def init_command(path: Path, diff: bool, use_cache: bool) -> int:
    """Run `archsync init`; every refusal and error is one message and exit code 2."""
    try:
        return _init(path, diff, use_cache)
    except (Refused, ConfigError) as exc:
        print(f"archsync: error: {exc}", file=sys.stderr)
    except OSError as exc:
        where = f"{printable(str(exc.filename))}: " if exc.filename else ""
        print(f"archsync: error: {where}{exc.strerror or exc}; nothing written", file=sys.stderr)
    return EXIT_ERROR


def _init(path: Path, diff: bool, use_cache: bool) -> int:
    target = _target(path)
    cache = use_cache and target.before is not None  # no project file: nowhere a cache belongs
    before = run(Request((target.root,), use_cache=cache))
    for warning in before.warnings:
        print(f"archsync: warning: {warning}", file=sys.stderr)
    packs, after = _fitting_packs(target, before, cache)
    table = starter_table(before.model, packs)
    data = _appended(target.before, table)
    _verify(target, data, after)
    exists = target.before is not None
    if diff:
        from ..fix.command import FileFix, unified_diff

        sys.stdout.write(unified_diff(FileFix(PYPROJECT, target.before or b"", data, (), ()), sys.stdout.isatty()))
        print(f"archsync: would {'append the table to' if exists else 'create'} {target.shown}; "
              f"nothing written", file=sys.stderr)
    else:
        _write(target, data)
        sys.stdout.write(table)
        verb = f"appended the table above to {target.shown}" if exists else f"created {target.shown}"
        print(f"archsync: {verb} ({len(table.splitlines())} lines)", file=sys.stderr)
    sys.stdout.flush()
    for line in _what_check_says(before, after, packs):
        print(line, file=sys.stderr)
    return EXIT_DONE


def _target(path: Path) -> Target:
    if not os.path.lexists(path):
        raise Refused(f"{printable(str(path))}: no such file or directory")
    root = find_root(path)
    pyproject = root / PYPROJECT
    if not pyproject.is_file() and path.is_dir():  # in no project: a repository root that holds some?
        found = projects_of(path)
        if found is not None:  # a new pyproject.toml here would make the loose files a project of their own
            names = ", ".join(printable(os.path.relpath(r)) for r in found.roots)
            raise Refused(f"{printable(str(path))} holds {len(found.roots)} projects ({names}); give init one of them")
    shown = Target(root, None).shown
    if pyproject.is_symlink():
        raise Refused(f"{shown} is a symbolic link; archsync init writes only a regular file of the project, "
                      f"never through a link")
    if not os.path.lexists(pyproject):
        return Target(root, None)
    if not pyproject.is_file():
        raise Refused(f"{shown} is not a regular file")
    data = pyproject.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise Refused(f"{shown}: not UTF-8 text (line {line}: {exc.reason}); TOML files are UTF-8") from None
    tool = parse_toml(text, shown).get("tool")
    if isinstance(tool, dict) and "archsync" in tool:
        raise Refused(f"{shown} already has a [tool.archsync] table; init only starts one "
                      f"(edit it by hand: `archsync inventory` lists what archsync finds)")
    return Target(root, data)


def _fitting_packs(target: Target, before: Report, use_cache: bool) -> Tuple[List[Pack], Report]:
    """The rule packs made for this project, and the run with them (`before` when none fits)."""
    source = str(target.root / PYPROJECT)
    packs = []
    for name in available_packs():
        pack = Pack(name, config_from_table(target.root, {"extends": [name]}, source, "", CODES))
        if pack_fits(pack.config, before.model):
            packs.append(pack)
    try:
        return packs, _run_with(target, packs, use_cache) if packs else before
    except ConfigError:  # one names what this project lacks after all (a predicate): keep those that load
        packs = [p for p in packs if _loads(target, p, use_cache)]
        return packs, _run_with(target, packs, use_cache) if packs else before


def _run_with(target: Target, packs: Sequence[Pack], use_cache: bool) -> Report:
    config = config_from_table(target.root, {"extends": [p.name for p in packs]}, str(target.root / PYPROJECT),
                               "", CODES)
    return run_with(config, Request(use_cache=use_cache))


def _loads(target: Target, pack: Pack, use_cache: bool) -> bool:
    try:
        _run_with(target, [pack], use_cache)
    except ConfigError:
        return False
    return True


def _appended(before: Optional[bytes], table: str) -> bytes:
    """The file with the table after its last byte, in its line endings, one blank line between."""
    if not before:
        return table.encode("utf-8")
    newline = b"\r\n" if b"\r\n" in before else b"\n"
    if before.endswith(newline * 2):
        gap = b""
    elif before.endswith(newline):
        gap = newline
    else:
        gap = newline * 2
    return before + gap + table.replace("\n", newline.decode()).encode("utf-8")


def _verify(target: Target, data: bytes, after: Report) -> None:
    """The new file parses, and its configuration is the one `after` was run with."""
    source = str(target.root / PYPROJECT)
    text = data.decode("utf-8")
    try:
        document = parse_toml(text, source)
    except ConfigError as exc:  # e.g. `tool = {...}` written inline: no table can be added to it
        raise Refused(f"a [tool.archsync] table cannot be appended to {target.shown}: the file would not be valid "
                      f"TOML ({str(exc).rpartition('invalid TOML: ')[2]})") from None
    config = config_from_table(target.root, document["tool"]["archsync"], source, text, CODES)
    if config.fingerprint() != after.config.fingerprint():
        raise Refused("the starter table does not load as the configuration it was checked with; "
                      "nothing written (a bug in archsync init: please report it)")


def _write(target: Target, data: bytes) -> None:
    try:
        if target.before is None:
            create_new(target.root, PYPROJECT, data)
        else:
            replace_checked(target.root, PYPROJECT, target.before, data)
    except WriteRefused as exc:
        raise Refused(f"{target.shown}: {exc}; nothing written") from None
    except OSError as exc:  # a directory one may not write in, a full disk: the file, not a temporary, is named
        raise Refused(f"{target.shown}: {exc.strerror or exc}; nothing written") from None


def _what_check_says(before: Report, after: Report, packs: Sequence[Pack]) -> List[str]:
    """Whether `archsync check` reports anything else now, and what (counted as it prints them: one per cause)."""
    from ..report.causes import findings

    count = len(findings(after.diagnostics))
    now = f"{count} problem{'s' if count != 1 else ''}" if count else "no problems"
    if not packs:
        return [f"archsync: `archsync check` reports what it did without the table: {now}"]
    named = ", ".join(f"'{p.name}'" for p in packs)
    packs_word = f"rule pack{'s' if len(packs) > 1 else ''} {named}"
    added = _minus(after.diagnostics, before.diagnostics)
    gone = _minus(before.diagnostics, after.diagnostics)
    if not added and not gone:
        return [f"archsync: with the {packs_word}, `archsync check` reports what it did without: {now}"]
    was = len(findings(before.diagnostics))
    lines = [f"archsync: the {packs_word} changes what `archsync check` reports: "
             f"{now}, {was} without it (+ reported now, - no longer)"]
    lines += [f"+ {line}" for line in render("text", added, after.root).splitlines()]
    lines += [f"- {line}" for line in render("text", gone, before.root).splitlines()]
    return lines


def _minus(first: Sequence[Diagnostic], second: Sequence[Diagnostic]) -> List[Diagnostic]:
    seen = set(second)
    return [d for d in first if d not in seen]
