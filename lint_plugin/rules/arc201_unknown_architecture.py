"""ARC201 unknown-architecture: a guarded collection or a family names an architecture nothing registers."""
from __future__ import annotations

import difflib
from typing import Iterable, List, Mapping, Set

from ..diagnostics import Diagnostic
from ..resolve import Model, Occurrence
from .rule import Example, Rule

_MODELS = ("models/qwen3_next.py", "class Qwen3NextForCausalLM: pass\nEntryClass = Qwen3NextForCausalLM\n")


def check(model: Model) -> List[Diagnostic]:
    found: List[Diagnostic] = []
    for collection in model.collections:
        found += unknown_names(collection.subject, collection.label, collection.members.members, model.registered)
    for family in model.overlapping:
        found += unknown_names(family.subject, family.label, family.own, model.registered)
    return found


def unknown_names(subject: str, label: str, occurrences: Iterable[Occurrence],
                  registered: Mapping[str, Occurrence]) -> List[Diagnostic]:
    """Each name nothing registers, once, with a did-you-mean when one is close; none while nothing is."""
    if not registered:
        return []
    diagnostics = []
    seen: Set[str] = set()
    for occurrence in occurrences:
        if occurrence.name in registered or occurrence.name in seen:
            continue
        seen.add(occurrence.name)
        diagnostics.append(diagnostic(subject, label, occurrence, registered))
    return diagnostics


def diagnostic(subject: str, label: str, occurrence: Occurrence, registered: Mapping[str, Occurrence]) -> Diagnostic:
    close = difflib.get_close_matches(occurrence.name, list(registered), n=1, cutoff=0.88)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return Diagnostic(occurrence.path, occurrence.line, occurrence.column, RULE.code,
                      f"'{occurrence.name}' in {label} is not a registered architecture{hint}",
                      subject=subject, member=occurrence.name)


RULE = Rule(
    code="ARC201",
    name="unknown-architecture",
    summary="a guarded collection or a family names an architecture nothing registers",
    what="A name in a guarded collection or in a family predicate's own literal that no registration (see "
         "`registries`) provides, with a did-you-mean when a registered name is close. Only when the project "
         "registers something.",
    why="A typo (`Qwen3NextForCasualLM`) silently disables the branch it guards.",
    fix_doc="Correct the name, register the model, or exempt names that are deliberately unregistered (checkpoint "
            "aliases rewritten at load time).",
    exempt_doc="`[[tool.archsync.exempt]]` or `# noqa: ARC201` on the member's line.",
    examples=(
        Example("a typo in a whitelist", (
            _MODELS,
            ("arg_groups/overrides.py", "_HYBRID_ARCHS = {\n    \"Qwen3NextForCasualLM\",\n}\n"),
        ), ("arg_groups/overrides.py:2:5: ARC201 'Qwen3NextForCasualLM' in _HYBRID_ARCHS is not a registered "
            "architecture; did you mean 'Qwen3NextForCausalLM'?",)),
        Example("the name as registered", (
            _MODELS,
            ("arg_groups/overrides.py", "_HYBRID_ARCHS = {\n    \"Qwen3NextForCausalLM\",\n}\n"),
        )),
    ),
    check=check,
    one_per_pair=True,
)
