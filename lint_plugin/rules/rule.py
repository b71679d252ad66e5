"""What a rule is: its code, documentation, examples, and the check that finds it.

A rule module defines one `RULE`; the registry (`lint_plugin.rules`) collects them. The
examples are small projects with exactly what `archsync check` prints for them: they are
shown by `archsync explain` and executed by the test suite, so the documentation cannot
drift from the behaviour.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, Optional, Tuple

from ..config import schema
from ..diagnostics import Diagnostic

if TYPE_CHECKING:  # the registry of codes needs no resolved model
    from ..resolve import Model

Check = Callable[["Model"], Iterable[Diagnostic]]
# `check` with what the rule's last check left (None at first), returning its findings and what to leave next
CheckAgain = Callable[["Model", Any], Tuple[List[Diagnostic], Any]]
# the tree's model and the model of the tree at a baseline commit (`--baseline-commit`): what the change did
CheckNew = Callable[["Model", "Model"], Iterable[Diagnostic]]


@dataclass(frozen=True)
class Severity:
    """How serious a code is, in each medium's own words: one mapping for every front end.

    Drift that breaks a launch is an error everywhere (the editor, GitHub annotations,
    SARIF); what is harmless or inferred is a warning; what archsync could not see is a note.
    Any finding shown still makes `archsync check` exit 1.
    """

    name: str  # as `archsync rules` and the table of codes (docs/rules/README.md) say it
    lsp: int  # LSP DiagnosticSeverity: 1 error, 2 warning, 3 information
    github: str  # workflow command
    sarif: str  # result level


SEVERITIES = {
    "error": Severity("error", 1, "error", "error"),
    "warning": Severity("warning", 2, "warning", "warning"),
    "information": Severity("information", 3, "notice", "note"),
}


@dataclass(frozen=True)
class Example:
    """A small project (root-relative path, text) and the exact `archsync check` lines for it.

    A project without its own `pyproject.toml` gets an empty one. No expected line means
    the rule stays silent: the example shows a case it accepts. `corrected` is the corrected
    form of an example that fires: the files that change (path, new text), after which
    `archsync check` prints nothing; for a rule that `archsync fix` answers, they are exactly
    what it writes. The test suite holds both to the pipeline, so the docs show the way out too.
    """

    title: str
    files: Tuple[Tuple[str, str], ...]
    expect: Tuple[str, ...] = ()
    corrected: Tuple[Tuple[str, str], ...] = ()
    # for a rule that compares the tree with a baseline commit: how that commit held the files the change
    # touched, (path, text), or (path, None) for a file the change added; `expect` is then what
    # `archsync check --baseline-commit` prints, and `corrected` what `archsync fix --baseline-commit` writes
    baseline: Tuple[Tuple[str, Optional[str]], ...] = ()

    def __post_init__(self) -> None:
        if self.corrected and not self.expect:
            raise ValueError(f"{self.title!r}: only an example that fires has a corrected form")
        unknown = sorted({path for path, _ in self.corrected} - {path for path, _ in self.files})
        if unknown:
            raise ValueError(f"{self.title!r}: the corrected form changes files the example has not: {unknown}")
        unknown = sorted({path for path, _ in self.baseline} - {path for path, _ in self.files})
        if unknown:
            raise ValueError(f"{self.title!r}: the baseline holds files the example has not: {unknown}")

    def at_baseline(self) -> Tuple[Tuple[str, str], ...]:
        """The example's project as the baseline commit held it."""
        then = dict(self.baseline)
        found = []
        for path, text in self.files:
            was = then[path] if path in then else text
            if was is not None:  # a file the change added is not there
                found.append((path, was))
        return tuple(found)


@dataclass(frozen=True)
class Rule:
    """One diagnostic code and everything the front ends and the report stage need to know of it.

    `check` is None for a code another stage reports (a configuration error, a stale
    exemption): its module then provides the message builder that stage calls. `check_new` is for a
    rule that judges a change: what the tree holds against what a baseline commit held
    (`--baseline-commit`), as a name the change registers.
    `one_per_pair` rules compete for the single diagnostic a (subject, member) pair gets,
    in registry order. `check_again`, for a rule whose check is costly: the same findings, taking what
    its last check weighed where nothing it read changed (the rule's part of a run's memory). `fix`
    says how `archsync fix` answers it: "add" the member to the literal, "remove" the duplicate, or None.
    A new diagnostic of a `flags_damage` code after a fix means the edit damaged the file, and the fix
    is not written. `one_per_cause`: the message states why beside the name and the list, so the
    findings of one cause in one file are reported once (`report/causes.py`).

    `settings` are the `[tool.archsync]` keys that change what this rule in particular
    reports (the keys that change every run, such as `src`, are named on every page anyway);
    they are checked against the settings schema here, so a misspelt key fails at import.
    The rule's page (docs/rules/ARCnnn.md, `archsync explain`) and the configuration
    reference list them.
    """

    code: str
    name: str
    summary: str
    what: str
    why: str
    fix_doc: str
    exempt_doc: str
    examples: Tuple[Example, ...]
    check: Optional[Check] = None
    check_again: Optional[CheckAgain] = None
    check_new: Optional[CheckNew] = None
    severity: str = "error"  # a key of SEVERITIES
    fix: Optional[str] = None
    one_per_pair: bool = False
    flags_damage: bool = False
    one_per_cause: bool = False
    settings: Tuple[str, ...] = ()

    @property
    def level(self) -> Severity:
        return SEVERITIES[self.severity]

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"{self.code}: severity {self.severity!r} is not one of {tuple(SEVERITIES)}")
        if self.fix not in (None, "add", "remove"):
            raise ValueError(f"{self.code}: fix {self.fix!r} is not 'add', 'remove' or None")
        unknown = [key for key in self.settings if key not in schema.BY_NAME]
        if unknown:
            raise ValueError(f"{self.code}: settings {unknown} are not [tool.archsync] keys (config/schema.py)")
