"""`archsync fix`: apply the fixes the engine planned, byte-safe and atomic.

Each file's edits come from `fixer.apply_fixes` (libcst locates, text is spliced). Before
anything is written, the whole project is checked again with the new texts standing in
for the files: a fix must remove its diagnostic and introduce none. A file changed since
it was read is not overwritten, and nothing outside the project root is written.
"""
from __future__ import annotations

import difflib
import os
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .cache import digest
from .diagnostics import Diagnostic, FixRequest
from .engine import Report, run_with
from .fixes import plan_edits


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
    problems: Tuple[str, ...]  # files left alone, and why


# New diagnostics of these codes after a fix mean the edit damaged something.
_BREAKAGE = ("ARC301", "ARC901", "ARC902")


def selected(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """flake8-style prefix selection."""
    if select and not code.startswith(tuple(select)):
        return False
    return not (ignore and code.startswith(tuple(ignore)))


def plan(report: Report, select: Sequence[str], ignore: Sequence[str]) -> FixOutcome:
    """Plan every selected fix, re-check the project with the fixed texts, keep what holds."""
    root = report.root
    by_file: Dict[str, List[Diagnostic]] = defaultdict(list)
    for d in report.diagnostics:
        if d.fix is not None and selected(d.code, select, ignore):
            by_file[d.fix.path].append(d)
    files: List[FileFix] = []
    problems: List[str] = []
    for rel, diagnostics in sorted(by_file.items()):
        target = _inside_root(root, rel)
        if target is None:
            problems.append(f"{rel}: outside the project root; not written")
            continue
        try:
            before = target.read_bytes()
        except OSError as exc:
            problems.append(f"{rel}: cannot read ({exc.strerror or exc})")
            continue
        requests = list(dict.fromkeys(d.fix for d in diagnostics if d.fix is not None))
        result = plan_edits(before, requests)
        reasons = {_key(r.request): r.reason for r in result.refused}
        applied = {_key(r) for r in result.applied}
        fixed = tuple(d for d in diagnostics if d.fix is not None and _key(d.fix) in applied)
        refused = tuple((d, reasons[_key(d.fix)]) for d in diagnostics
                        if d.fix is not None and _key(d.fix) in reasons)
        files.append(FileFix(rel, before, result.source, fixed, refused))
    changed = [f for f in files if f.after != f.before]
    after = run_with(report.config, {f.path: f.after for f in changed}) if changed else report
    before_ids = {_identity(d) for d in report.diagnostics}
    after_ids = {_identity(d) for d in after.diagnostics}
    kept: List[FileFix] = []
    for fix in files:
        unresolved = [d for d in fix.fixed if _identity(d) in after_ids]
        broken = sorted({d.code for d in after.diagnostics if d.path == fix.path and d.code in _BREAKAGE
                         and _identity(d) not in before_ids})
        if fix.after != fix.before and (unresolved or broken):
            why = f"introduced {', '.join(broken)}" if broken else "did not resolve its diagnostics"
            problems.append(f"{fix.path}: the fix {why} on re-check; not written")
            kept.append(FileFix(fix.path, fix.before, fix.before, (), fix.refused))
        else:
            kept.append(fix)
    if any(k.after == k.before and f.after != f.before for k, f in zip(kept, files)):
        after = run_with(report.config, {k.path: k.after for k in kept if k.after != k.before})
    return FixOutcome(tuple(kept), after.diagnostics, tuple(problems))


def write(root: Path, outcome: FixOutcome) -> List[str]:
    """Write each changed file atomically, unless it changed since it was read."""
    problems = []
    for fix in outcome.files:
        if fix.after == fix.before:
            continue
        target = _inside_root(root, fix.path)
        if target is None:
            problems.append(f"{fix.path}: outside the project root; not written")
            continue
        try:
            if digest(target.read_bytes()) != digest(fix.before):
                problems.append(f"{fix.path}: changed since it was read; not written")
                continue
            _atomic_write(target, fix.after)
        except OSError as exc:
            problems.append(f"{fix.path}: not written ({exc.strerror or exc})")
    return problems


def unified_diff(fix: FileFix) -> str:
    """A unified diff of one file's fix, as text (undecodable bytes escaped)."""
    before = fix.before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    after = fix.after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, f"a/{fix.path}", f"b/{fix.path}")
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _atomic_write(target: Path, data: bytes) -> None:
    mode = target.stat().st_mode
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".archsync", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _inside_root(root: Path, rel: str) -> Optional[Path]:
    target = (root / rel)
    try:
        target.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return None
    return target


def _key(request) -> tuple:
    """Fixer requests and FixRequests compared by what they do."""
    if isinstance(request, FixRequest):
        if request.action == "add":
            return ("add", request.target, request.line, request.name)
        return ("remove", request.line, request.column, request.name)
    if hasattr(request, "peers"):
        return ("add", request.collection, request.line, request.name)
    return ("remove", request.line, request.column, request.name)


def _identity(d: Diagnostic) -> tuple:
    return (d.code, d.path, d.subject, d.member)


def report_lines(outcome: FixOutcome, out=sys.stderr) -> None:
    for fix in outcome.files:
        for d, reason in fix.refused:
            print(f"archsync: not fixed: {fix.path}:{d.line}:{d.column}: {d.code} {reason}", file=out)
    for problem in outcome.problems:
        print(f"archsync: {problem}", file=out)
