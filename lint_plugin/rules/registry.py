"""The rule registry: every rule module (`arcNNN_<name>.py`) collected in code order.

That order is the priority: when several `one_per_pair` rules speak about the same
(subject, member), the first one here is the one reported. `archsync rules`, `explain`,
SARIF's `rules[]`, the editor's severities and the pages under docs/rules/ all read this registry.
Adding a rule is adding a module; nothing here changes.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Model
from .chains import not_refused_by_a_chain, not_taken_by_another_branch
from .codes import CODES, rule_modules
from .rule import Rule
from .schemes import in_each_lists_scheme

__all__ = ["BY_CODE", "CODES", "RULES", "RuleMemory", "check", "check_again", "check_new_names", "explain",
           "rules_table"]


def _collect() -> Tuple[Rule, ...]:
    found: List[Rule] = []
    package = __name__.rpartition(".")[0]
    for name, match in rule_modules():
        rule = getattr(importlib.import_module(f"{package}.{name}"), "RULE", None)
        if not isinstance(rule, Rule):
            raise TypeError(f"{package}.{name} defines no RULE")
        if (rule.code, rule.name) != (f"ARC{match.group(1)}", match.group(2).replace("_", "-")):
            raise ValueError(f"{package}.{name} holds {rule.code} {rule.name}: the module is named after both")
        found.append(rule)
    return tuple(sorted(found, key=lambda r: r.code))


RULES: Tuple[Rule, ...] = _collect()
BY_CODE: Dict[str, Rule] = {rule.code: rule for rule in RULES}
if frozenset(BY_CODE) != CODES:  # pragma: no cover - both are read from the same module names
    raise AssertionError(f"rule modules and codes disagree: {sorted(CODES ^ frozenset(BY_CODE))}")


def check(model: Model) -> List[Diagnostic]:
    """Every rule that checks the resolved model, in registry order: pure, no I/O."""
    return _as_asked(model, [d for rule in RULES if rule.check is not None for d in rule.check(model)])


@dataclass(frozen=True)
class RuleMemory:
    """What the rules stage of one run leaves for the next (its part of `RunMemory`): by code, the value
    each rule with a `check_again` returned."""

    by_code: Mapping[str, Any] = field(default_factory=dict)


def check_again(model: Model, memory: RuleMemory) -> Tuple[List[Diagnostic], RuleMemory]:
    """`check`, each rule taking what it left last time; and what this run leaves."""
    found: List[Diagnostic] = []
    left: Dict[str, Any] = {}
    for rule in RULES:
        if rule.check_again is not None:
            diagnostics, left[rule.code] = rule.check_again(model, memory.by_code.get(rule.code))
            found += diagnostics
        elif rule.check is not None:
            found += rule.check(model)
    return _as_asked(model, found), RuleMemory(left)


def check_new_names(model: Model, baseline: Model) -> List[Diagnostic]:
    """What the rules that judge a change find (`Rule.check_new`): `model` against the model of the tree at a
    baseline commit. Pure, no I/O, as `check`."""
    return _as_asked(model, [d for rule in RULES if rule.check_new is not None
                             for d in rule.check_new(model, baseline)])


def _as_asked(model: Model, found: List[Diagnostic]) -> List[Diagnostic]:
    """What the rules found, as a list can be asked to change: never for a name another branch of its chain
    takes, or for one a chain beside it handles the list's names without (`chains.py`), and in the list's own
    naming scheme (`schemes.py`)."""
    return in_each_lists_scheme(model, not_refused_by_a_chain(model, not_taken_by_another_branch(model, found)))


def explain(code: str) -> str:
    """`archsync explain CODE`: the rule's page (docs/rules/CODE.md holds the same text)."""
    from .page import render  # here: a check prints no documentation

    return render(BY_CODE[code])


def rules_table(pages: bool = False) -> str:
    """The table of codes, in Markdown; with `pages`, each code links to its page beside the table."""
    lines = ["| code | name | reports | severity | `archsync fix` |", "|---|---|---|---|---|"]
    for rule in RULES:
        fix = {"add": "adds the name", "remove": "removes the duplicate"}.get(rule.fix or "", "-")
        code = f"[`{rule.code}`]({rule.code}.md)" if pages else f"`{rule.code}`"
        lines.append(f"| {code} | {rule.name} | {rule.summary} | {rule.severity} | {fix} |")
    return "\n".join(lines) + "\n"

