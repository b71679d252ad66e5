"""`archsync check --baseline-commit REV`: only the findings the change since REV introduced.

For pull-request CI on a tree that already has findings (semgrep's `--baseline-commit`).
REV's files are copied out of git into a private temporary directory (the working tree and
the index are never touched, nothing is checked out or run) and analysed with the working
tree's configuration, as semgrep applies the current rules to the baseline: the question is
what the code change introduced. Findings are matched by `report.baseline.identity`. The rules that judge
the change itself are asked too (`pipeline.new_names`: ARC107, a name the change registers that a list
it should be in lacks); what they find is new by construction.
"""
from __future__ import annotations

import dataclasses
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import AbstractSet, List, Optional, Sequence, Tuple

from ..config import ConfigError
from ..diagnostics import Diagnostic
from ..pipeline import Report, run_snapshot, since
from ..pipeline.change import Scope
from ..project.revision import RevisionError, copy_revision
from ..report.baseline import compare
from ..report.escape import printable


class BaselineError(Exception):
    """The baseline could not be analysed; the message says why (exit code 2)."""


@dataclass(frozen=True)
class Baselined:
    """The findings new since the baseline, and what the baseline accounted for."""

    new: Tuple[Diagnostic, ...]
    known: int  # findings shown without the baseline that it hid
    rev: str
    commit: str
    warnings: Tuple[str, ...]
    before: Tuple[Diagnostic, ...] = ()  # the baseline's own findings
    judged: Tuple[Diagnostic, ...] = ()  # of `new`, what the rules that judge a change found (`pipeline.new_names`)

    def still_new(self, remaining: Sequence[Diagnostic], fixed: AbstractSet[Diagnostic]) -> List[Diagnostic]:
        """After `archsync fix --baseline-commit`: what a run left (`remaining`, which no rule that judges a change
        is asked for) that the baseline does not have, and the change's findings not `fixed`."""
        return sorted(compare(remaining, self.before).new + tuple(d for d in self.judged if d not in fixed))

    @property
    def note(self) -> str:
        """How the summary says what the baseline hid."""
        return f"the baseline {self.rev} ({self.commit[:12]}) hid {self.known}"


def against(report: Report, rev: str, shown: Sequence[Diagnostic], use_cache: bool,
            scope: Scope = list) -> Baselined:
    """`shown` (the current run's findings, as selected by `scope`) less those the tree at `rev` has too, and what
    the rules that judge a change find in it (`scope`d too; a pair `shown` already speaks of is not said twice)."""
    try:
        with tempfile.TemporaryDirectory(prefix="archsync-baseline-") as directory:
            tree = Path(directory).resolve()
            snapshot = copy_revision(report.root, rev, tree)
            baseline = run_snapshot(report, tree, use_cache)
            # a project the commit does not hold has nothing registered there: every name would be "new"
            change = since(report, baseline, shown, scope, judge=snapshot.present)
    except RevisionError as exc:
        raise BaselineError(str(exc)) from None
    except ConfigError as exc:
        raise BaselineError(f"--baseline-commit {rev}: the configuration does not hold there: {exc}") from None
    except OSError as exc:
        raise BaselineError(f"--baseline-commit {rev}: {exc.filename or 'temporary copy'}: "
                            f"{exc.strerror or exc}") from None
    warnings = tuple(f"--baseline-commit {rev}: {w}" for w in baseline.warnings)
    if not snapshot.present:
        warnings += (f"--baseline-commit {rev}: the project's directory is not in that commit; "
                     f"every finding is new",)
    return Baselined(change.new, change.known, rev, snapshot.commit, warnings, baseline.diagnostics, change.judged)


def for_check(reports: Sequence[Report], rev: str, shown: Sequence[Sequence[Diagnostic]], use_cache: bool,
              scopes: Optional[Sequence[Scope]] = None) -> Optional[Tuple[List[List[Diagnostic]], str]]:
    """What `check` prints instead of each report's `shown`, and its summary's note; None after an error.

    One report per project (a run over several): each is compared with its own tree at `rev`, and what the
    rules that judge a change find there is shown as each report's `scopes` say.
    """
    found = []
    try:
        for report, mine, scope in zip(reports, shown, scopes or [list] * len(reports)):
            found.append(against(report, rev, mine, use_cache, scope))
    except BaselineError as exc:
        print(printable(f"archsync: error: {exc}"), file=sys.stderr)
        return None
    for baselined in found:
        for warning in baselined.warnings:
            print(printable(f"archsync: warning: {warning}"), file=sys.stderr)
    total = dataclasses.replace(found[0], known=sum(b.known for b in found))
    return [list(b.new) for b in found], printable(total.note)
