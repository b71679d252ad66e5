"""`archsync fix`: apply the fixes the report planned, byte-safe and atomic.

Each file's edits come from `editor.apply_fixes` (libcst locates, text is spliced). Before
anything is written, the whole project is checked again with the new texts standing in
for the files: a fix must remove its diagnostic and introduce none. A file changed since
it was read is not overwritten, and nothing outside the project root is written.
"""
from __future__ import annotations

import difflib
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, TextIO, Tuple

from ..config import ConfigError
from ..diagnostics import Diagnostic, place, unmarked
from ..pipeline import Report, Request, run_with
from ..project.files import Unreadable, read_file
from ..project.writer import WriteRefused, replace_checked
from ..report.escape import printable
from ..report.selection import selected
from ..rules import BY_CODE
from .editor import apply_fixes


@dataclass(frozen=True)
class FileFix:
    """The planned new text of one file and what it answers."""

    path: str  # root-relative
    before: bytes
    after: bytes
    fixed: Tuple[Diagnostic, ...]
    refused: Tuple[Tuple[Diagnostic, str], ...]


@dataclass(frozen=True)
class FixOutcome:
    files: Tuple[FileFix, ...]
    remaining: Tuple[Diagnostic, ...]  # what `check` would report after the fixes
    problems: Tuple[str, ...]  # files left alone, and why (naming them as places: `diagnostics.place`)


# New diagnostics of these codes after a fix mean the edit damaged something.
_DAMAGE = frozenset(rule.code for rule in BY_CODE.values() if rule.flags_damage)


def plan(report: Report, select: Sequence[str], ignore: Sequence[str],
         among: Optional[Sequence[Diagnostic]] = None) -> FixOutcome:
    """Plan every selected fix (of `among`, default all the report's), re-check the project with the fixed
    texts, keep what holds. What is new on re-check is judged against all the report held: an ARC901
    already there, in a file edited, is not damage the edit did. The re-check starts from the memory the
    report's run kept (`Request.keep`), if it kept one: then only the edited files are read again."""
    root = report.root
    by_file: Dict[str, List[Diagnostic]] = defaultdict(list)
    for d in report.diagnostics if among is None else among:
        if d.fix is not None and selected(d.code, select, ignore):
            by_file[d.fix.path].append(d)
    files: List[FileFix] = []
    problems: List[str] = []
    for rel, diagnostics in sorted(by_file.items()):
        target = _inside_root(root, rel)
        if target is None:
            problems.append(f"{place(rel)}: outside the project root; not written")
            continue
        before = read_file(target)
        if isinstance(before, Unreadable):
            problems.append(f"{place(rel)}: cannot read ({before.reason})")
            continue
        result = apply_fixes(before, list(dict.fromkeys(d.fix for d in diagnostics if d.fix is not None)))
        reasons = {r.request: r.reason for r in result.refused}
        fixed = tuple(d for d in diagnostics if d.fix in result.applied)
        refused = tuple((d, reasons[d.fix]) for d in diagnostics if d.fix is not None and d.fix in reasons)
        files.append(FileFix(rel, before, result.source, fixed, refused))
    changed = [f for f in files if f.after != f.before]
    try:
        after = run_with(report.config, _recheck({f.path: f.after for f in changed}, report),
                         report.memory) if changed else report
    except ConfigError as exc:  # the edits moved something the configuration names
        problems.append(f"the fixes were not written: with them the configuration no longer holds ({exc})")
        return FixOutcome(tuple(FileFix(f.path, f.before, f.before, (), f.refused) for f in files),
                          report.diagnostics, tuple(problems))
    before_ids = {_identity(d) for d in report.diagnostics}
    after_ids = {_identity(d) for d in after.diagnostics}
    kept: List[FileFix] = []
    for fix in files:
        unresolved = [d for d in fix.fixed if _identity(d) in after_ids]
        broken = sorted({d.code for d in after.diagnostics if d.path == fix.path and d.code in _DAMAGE
                         and _identity(d) not in before_ids})
        if fix.after != fix.before and (unresolved or broken):
            why = f"introduced {', '.join(broken)}" if broken else "did not resolve its diagnostics"
            problems.append(f"{place(fix.path)}: the fix {why} on re-check; not written")
            kept.append(FileFix(fix.path, fix.before, fix.before, (), fix.refused))
        else:
            kept.append(fix)
    if any(k.after == k.before and f.after != f.before for k, f in zip(kept, files)):
        after = run_with(report.config, _recheck({k.path: k.after for k in kept if k.after != k.before}, report),
                         report.memory)
    return FixOutcome(tuple(kept), after.diagnostics, tuple(problems))


def _recheck(overrides: Dict[str, bytes], report: Report) -> Request:
    """The re-check of the edits: from the memory the report's run kept, no cache is read or written (the
    memory holds every record; writing the index cache would also retire the result cache)."""
    return Request(overrides=overrides, use_cache=report.memory is None)


def write(root: Path, outcome: FixOutcome) -> Tuple[List[str], List[str]]:
    """Write each changed file through the guarded writer; the paths written, and why others were not."""
    problems: List[str] = []
    written: List[str] = []
    for fix in outcome.files:
        if fix.after == fix.before:
            continue
        if _inside_root(root, fix.path) is None:
            problems.append(f"{place(fix.path)}: outside the project root; not written")
            continue
        try:
            replace_checked(root, fix.path, fix.before, fix.after)
        except WriteRefused as exc:
            problems.append(f"{place(fix.path)}: {exc}; not written")
        except OSError as exc:
            problems.append(f"{place(fix.path)}: not written ({exc.strerror or exc})")
        else:
            written.append(fix.path)
    return written, problems


def unified_diff(fix: FileFix, terminal: bool = False) -> str:
    """A unified diff of one file's fix, as text (undecodable bytes escaped).

    File names are escaped always (a newline would split a header); on a `terminal`, so is
    every hidden character of the lines (an escape sequence in a string literal is not run).
    """
    before = fix.before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    after = fix.after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    path = printable(fix.path)
    lines = difflib.unified_diff(before, after, f"a/{path}", f"b/{path}")
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if terminal:
        text = "".join(printable(line.rstrip("\r\n"), lookalikes=False) + line[len(line.rstrip("\r\n")):]
                       for line in text.splitlines(keepends=True))
    return text


def _inside_root(root: Path, rel: str) -> Optional[Path]:
    target = (root / rel)
    try:
        target.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return None
    return target


def _identity(d: Diagnostic) -> Tuple[str, str, Optional[str], Optional[str]]:
    return (d.code, d.path, d.subject, d.member)


def report_lines(outcome: FixOutcome, shown: Callable[[str], str] = unmarked, out: Optional[TextIO] = None) -> None:
    """The fixes not made and the problems met, one line each, on `out` (stderr as it is now); `shown`
    says how the places they name are read (the front end's: from where it runs)."""
    out = out or sys.stderr
    for fix in outcome.files:
        for d, reason in fix.refused:
            member = f" '{d.member}'" if d.member else ""
            where = place(fix.path, d.line)
            print(printable(shown(f"archsync: not fixed: {where}:{d.column}: {d.code}{member}: {reason}")), file=out)
    for problem in outcome.problems:
        print(printable(shown(f"archsync: {problem}")), file=out)
