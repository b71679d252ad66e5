"""`archsync check --add-exemptions`: record today's findings as exemptions to review (ruff's `--add-noqa`).

The tables are appended to pyproject.toml, whose other bytes are kept as they are, through
the guarded writer. Before anything is written, the new file is loaded as the configuration
and the findings are reported again under it: what is written is proven to exempt what it
records. Exempting a pair can surface a finding of a lower rule about the same pair (one
diagnostic per pair), so recording repeats until nothing new appears. A second run finds
nothing to record and writes nothing.
"""
from __future__ import annotations

import dataclasses
import datetime
import os
import sys
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple

from ..config import ConfigError, config_from_text
from ..diagnostics import Diagnostic
from ..pipeline import Report, with_exemptions
from ..project.files import Unreadable, read_file
from ..project.writer import WriteRefused, replace_checked
from ..report.escape import printable
from ..report.recorded import header, reason_for, record
from ..rules import CODES
from .paths import display_path

PYPROJECT = "pyproject.toml"


class RecordError(Exception):
    """Nothing was recorded; the message says why (exit code 2)."""


@dataclass(frozen=True)
class Recorded:
    """What one run recorded, and the findings still reported (with why for each)."""

    recorded: Tuple[Diagnostic, ...]
    hidden: int  # of them, how many were hidden behind another rule's finding on the same name
    tables: int
    reason: str
    left: Tuple[Tuple[Diagnostic, str], ...]


Scope = Callable[[Sequence[Diagnostic]], List[Diagnostic]]


def add_exemptions(report: Report, scope: Scope, date: str) -> Recorded:
    """Append an exemption for each finding `scope` keeps that an exemption can express."""
    before = _pyproject(report)
    end = before.find(b"\n")
    newline = "\r\n" if end > 0 and before[end - 1:end] == b"\r" else "\n"  # as the file ends its lines
    try:
        text = before.decode("utf-8")
    except UnicodeDecodeError as exc:  # replaced since the configuration was read from it
        raise RecordError(f"{PYPROJECT}: not UTF-8 ({exc.reason} at byte {exc.start}); nothing recorded") from None
    current = report
    wanted: List[Diagnostic] = []  # every finding to record, in the order they were met
    shown = 0
    for _ in range(len(CODES)):  # each round can only surface a rule lower in one-per-pair order
        found = record(scope(current.diagnostics), date)
        if not found.recorded:
            break
        wanted += found.recorded
        shown = shown or len(found.recorded)
        current = _reported_under(report, text + _joined(text, header(date) + record(wanted, date).text, newline))
    final = record(scope(current.diagnostics), date)
    left = tuple(sorted(final.left + tuple((d, "still reported with its exemption") for d in final.recorded)))
    recording = record(wanted, date)
    addition = recording.text
    if addition:
        after = before + _joined(text, header(date) + addition, newline).encode("utf-8")
        try:
            replace_checked(report.root, PYPROJECT, before, after)
        except WriteRefused as exc:
            raise RecordError(f"{PYPROJECT}: {exc}; nothing recorded") from None
        except OSError as exc:
            raise RecordError(f"{PYPROJECT}: not written ({exc.strerror or exc}); nothing recorded") from None
    return Recorded(recording.recorded, len(recording.recorded) - shown, recording.tables, reason_for(date), left)


def for_check(report: Report, scope: Scope, several: bool = False) -> Optional[Tuple[List[Diagnostic], str]]:
    """Record, say what was recorded and what was not, with paths as `check` prints them; what `check`
    prints then (None after an error). Over `several` projects, each says which it is."""
    try:
        done = add_exemptions(report, scope, today())
    except RecordError as exc:
        print(printable(f"archsync: error: {exc}"), file=sys.stderr)
        return None
    from ..report.causes import findings

    places = len(done.recorded) - done.hidden
    count = len(findings(done.recorded[:places]))  # as `check` printed them: one per cause
    where = os.path.relpath(report.root / PYPROJECT)  # which project's, when several are recorded
    notes = ([f"{places} places"] if places != count else []) + ([f"and {done.hidden} they hid"] if done.hidden else [])
    hidden = f" ({', '.join(notes)})" if notes else ""
    each = "each " if done.tables > 1 else ""
    print(f"archsync: recorded {count} finding{'s' if count != 1 else ''}{hidden} as {done.tables} "
          f"exemption{'s' if done.tables != 1 else ''} in {where}, {each}with the reason \"{done.reason}\": "
          f"review them" if done.recorded else f"archsync: nothing to record{f' in {where}' if several else ''}",
          file=sys.stderr)
    for diagnostic, why in done.left:
        shown = display_path(report.root, diagnostic.path)
        print(printable(f"archsync: not exempted: {shown}:{diagnostic.line}:{diagnostic.column}: "
                        f"{diagnostic.code}: {why}"), file=sys.stderr)
    return [d for d, _ in done.left], ""


def today() -> str:
    """The date recorded: today, or the day of `SOURCE_DATE_EPOCH` (UTC) for reproducible output."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return datetime.date.today().isoformat()
    try:
        return datetime.datetime.fromtimestamp(int(epoch), tz=datetime.timezone.utc).date().isoformat()
    except (ValueError, OverflowError, OSError):
        raise RecordError(f"SOURCE_DATE_EPOCH={epoch!r} is not a number of seconds since 1970") from None


def _pyproject(report: Report) -> bytes:
    if not (report.root / PYPROJECT).is_file():
        raise RecordError(f"no {PYPROJECT} in {report.root}: exemptions live in its [tool.archsync] table; "
                          f"create one first")
    data = read_file(report.root / PYPROJECT)
    if isinstance(data, Unreadable):
        raise RecordError(f"{report.root / PYPROJECT}: cannot read ({data.reason})")
    return data


def _joined(text: str, addition: str, newline: str) -> str:
    """What follows `text`: a line break if its last line has none, then the tables in its line endings."""
    start = newline if text and not text.endswith("\n") else ""
    return start + addition.replace("\n", newline)


def _reported_under(report: Report, text: str) -> Report:
    """The findings again, under the configuration `text` would give (nothing written yet)."""
    try:
        config = config_from_text(report.root, text, CODES)
    except ConfigError as exc:
        raise RecordError(f"nothing recorded: with the exemptions appended, {PYPROJECT} would not load: {exc}") \
            from None
    if dataclasses.replace(config, exemptions=report.config.exemptions, prefilter=report.config.prefilter) \
            != report.config:
        raise RecordError(f"nothing recorded: {PYPROJECT} changed while archsync ran; run it again")
    return with_exemptions(report, config.exemptions)
