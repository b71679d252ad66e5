"""What a rule is: its code, documentation, examples, and the check that finds it.

A rule module defines one `RULE`; the registry (`lint_plugin.rules`) collects them. The
examples are small projects with exactly what `archsync check` prints for them: they are
shown by `archsync explain` and executed by the test suite, so the documentation cannot
drift from the behaviour.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Tuple

from ..diagnostics import Diagnostic

if TYPE_CHECKING:  # the registry of codes needs no resolved model
    from ..resolve import Model

Check = Callable[["Model"], Iterable[Diagnostic]]

SEVERITIES = ("warning", "information")


@dataclass(frozen=True)
class Example:
    """A small project (root-relative path, text) and the exact `archsync check` lines for it.

    A project without its own `pyproject.toml` gets an empty one. No expected line means
    the rule stays silent: the example shows a case it accepts.
    """

    title: str
    files: Tuple[Tuple[str, str], ...]
    expect: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One diagnostic code and everything the front ends and the report stage need to know of it.

    `check` is None for a code another stage reports (a configuration error, a stale
    exemption): its module then provides the message builder that stage calls.
    `one_per_pair` rules compete for the single diagnostic a (subject, member) pair gets,
    in registry order. `fix` says how `archsync fix` answers it: "add" the member to the
    literal, "remove" the duplicate, or None. A new diagnostic of a `flags_damage` code
    after a fix means the edit damaged the file, and the fix is not written.
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
    severity: str = "warning"
    fix: Optional[str] = None
    one_per_pair: bool = False
    flags_damage: bool = False

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"{self.code}: severity {self.severity!r} is not one of {SEVERITIES}")
        if self.fix not in (None, "add", "remove"):
            raise ValueError(f"{self.code}: fix {self.fix!r} is not 'add', 'remove' or None")
