"""What a change did: the findings a tree has and its baseline commit's tree has not, and what the rules that
judge a change find in it (a name the change registers, and a list it should be in that lacks it)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Sequence, Tuple

from ..diagnostics import Diagnostic
from .report import Report

Scope = Callable[[Sequence[Diagnostic]], List[Diagnostic]]  # what is shown: the paths asked about, the codes selected


@dataclass(frozen=True)
class Change:
    new: Tuple[Diagnostic, ...]  # what the tree's findings hold that the baseline's do not, and `judged`
    known: int  # findings the baseline accounts for, one per cause (`report/causes.py`), as they are printed
    judged: Tuple[Diagnostic, ...]  # what the rules that judge a change found (`new_names`)


def since(done: Report, baseline: Report, shown: Sequence[Diagnostic], scope: Scope = list,
          judge: bool = True) -> Change:
    """`shown` (`done`'s findings, as `scope` selects them) against the baseline's, and, with `judge`, `new_names`
    in `scope` (a pair `shown` already speaks of is not said twice)."""
    from ..report.baseline import compare
    from ..report.causes import findings

    comparison = compare(shown, baseline.diagnostics)
    new = set(map(id, comparison.new))
    known = len(findings(d for d in shown if id(d) not in new))
    spoken = {(d.path, d.subject, d.member) for d in shown}
    found = scope(new_names(done, baseline)) if judge else []
    judged = tuple(d for d in found if (d.path, d.subject, d.member) not in spoken)
    return Change(tuple(sorted(comparison.new + judged)), known, judged)


def new_names(done: Report, baseline: Report) -> Tuple[Diagnostic, ...]:
    """The findings of the rules that judge a change (`Rule.check_new`: a name `done` registers and `baseline`
    did not), reported as a run's are: exemptions, the configuration's selection, one per pair, `# noqa`.
    Both models are built if the reports came from a cache (`ModelOf`)."""
    if done.only is not None:  # a file outside any project registers nothing of a project's
        return ()
    from .. import rules
    from ..report.stage import report
    from ..rules import arc202_stale_exemption as stale

    found = report(rules.check_new_names(done.model_of.get(), baseline.model_of.get()), done.config)
    # an exemption these findings do not use is no stale one: the run's own report says which are (ARC202)
    return tuple(d for d in found if d.code != stale.RULE.code)
