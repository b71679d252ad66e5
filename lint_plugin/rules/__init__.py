"""Stage 4, the rules: one module per code (`arcNNN_<name>.py`), collected in code order.

The registry (`registry.py`) imports every rule module, and with them the resolved model; it
is loaded on first use of `RULES`, `BY_CODE`, `check`, `explain` or `rules_table` (and `Rule`,
`Example`, `Check` on first use), so a run that only needs the codes (`codes.py`) does not pay
for it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .codes import CODES

if TYPE_CHECKING:
    from .registry import BY_CODE, RULES, RuleMemory, check, check_again, check_new_names, explain, rules_table
    from .rule import Check, Example, Rule

__all__ = ["BY_CODE", "CODES", "Check", "Example", "RULES", "Rule", "RuleMemory", "check", "check_again",
           "check_new_names", "explain", "rules_table"]

_REGISTRY = frozenset({"BY_CODE", "RULES", "RuleMemory", "check", "check_again", "check_new_names", "explain",
                       "rules_table"})
_RULE = frozenset({"Check", "Example", "Rule"})


def __getattr__(name: str) -> Any:
    if name in _REGISTRY:
        from . import registry

        return getattr(registry, name)
    if name in _RULE:
        from . import rule

        return getattr(rule, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
