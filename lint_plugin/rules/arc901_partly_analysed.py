"""ARC901 partly-analysed: a guarded collection or family depends on something archsync cannot follow."""
from __future__ import annotations

from typing import List, Sequence

from ..diagnostics import Diagnostic
from ..resolve import Model
from .rule import Example, Rule


def check(model: Model) -> List[Diagnostic]:
    """One diagnostic per declared subject, registry or family that could not be read whole; what was read still
    takes part. A list found by shape is the tool's guess, not a list the project named: that it is partly read
    is said by `inventory` (a table built from another library's mappings, in a file vendored from it, is no
    failure of the project's)."""
    found = []
    for collection in dict.fromkeys(model.collections + model.registries):
        if collection.members.unknown and collection.declared:
            found.append(diagnostic(collection.subject, collection.label, collection.path, collection.line,
                                    collection.column, collection.members.unknown, len(collection.members.names)))
    for family in model.families:
        if family.unknown:
            found.append(diagnostic(family.subject, family.label, family.path, family.line, family.column,
                                    family.unknown, len(family.names)))
    return found


def diagnostic(subject: str, label: str, path: str, line: int, column: int, unknown: Sequence[str],
               count: int) -> Diagnostic:
    distinct = list(dict.fromkeys(unknown))  # one reason met many times is said once, and not counted again
    reasons = "; ".join(distinct[:3])
    more = f"; and {len(distinct) - 3} more" if len(distinct) > 3 else ""
    read = f"{count} name{' read still takes' if count == 1 else 's read still take'} part"
    return Diagnostic(path, line, column, RULE.code, f"{label} is only partly analysed: {reasons}{more} ({read})",
                      subject=subject)


RULE = Rule(
    code="ARC901",
    name="partly-analysed",
    summary="a guarded collection or family depends on something archsync cannot follow",
    what="A guarded collection or a family predicate depends on a value the static analysis cannot read: a call "
         "result, a comprehension, growth by `.append()` / `.add()` / `.update()` inside a function, an "
         "environment variable, a star import, a name that resolves nowhere. One diagnostic per subject says "
         "what could not be followed and where; every name that could be read still takes part in the other "
         "rules. Only lists the project names (`guard`, a contract, a name like `*_ARCHS`), registries and "
         "families are reported: a list found by its shape, read in part, is marked so by `archsync inventory` "
         "(`partly_analysed`).",
    why="A linter that is silently blind is worse than none. Where archsync cannot see the whole set, its other "
        "findings about that set may be incomplete.",
    fix_doc="Spell the set as a literal (or compose it from literals), or accept the partial view.",
    exempt_doc="`# noqa: ARC901` on the reported line, or narrow `guard`.",
    examples=(
        Example("a whitelist read from the environment", (
            ("cache.py", "import os\n\n_EXTRA_ARCHS = os.environ.get(\"EXTRA_ARCHS\", \"\").split(\",\")\n"
                         "_RADIX_ARCHS = frozenset({\"KimiLinearForCausalLM\"}) | set(_EXTRA_ARCHS)\n"),
        ), ("cache.py:3:1: ARC901 _EXTRA_ARCHS is only partly analysed: read from an environment variable by "
            "os.environ.get() (cache.py:3) (0 names read still take part)",
            "cache.py:4:1: ARC901 _RADIX_ARCHS is only partly analysed: read from an environment variable by "
            "os.environ.get() (cache.py:3) (1 name read still takes part)"), corrected=(
            ("cache.py", "_EXTRA_ARCHS = [\"Qwen3NextForCausalLM\"]\n"
                         "_RADIX_ARCHS = frozenset({\"KimiLinearForCausalLM\"}) | set(_EXTRA_ARCHS)\n"),
        )),
    ),
    check=check,
    severity="information",
    flags_damage=True,
    settings=("guard", "families", "config-maps"),
)
