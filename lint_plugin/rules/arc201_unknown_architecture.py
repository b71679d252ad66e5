"""ARC201 unknown-architecture: a guarded collection or a family names an architecture nothing registers."""
from __future__ import annotations

import difflib
from typing import List, Mapping, Optional, Sequence, Set

from ..diagnostics import Diagnostic
from ..resolve import Model, Occurrence
from .rule import Example, Rule

_MODELS = ("models/qwen3_next.py", "class Qwen3NextForCausalLM: pass\nEntryClass = Qwen3NextForCausalLM\n")


def check(model: Model) -> List[Diagnostic]:
    """Silent for a plugin of a registry outside the project: what it serves is registered elsewhere."""
    found: List[Diagnostic] = []
    if model.external_registries:
        return found
    name_ok = model.config.name_regex
    for collection in model.collections:
        members = [o for o in collection.members.members if collection.declared or name_ok.fullmatch(o.name)]
        found += unknown_names(collection.subject, collection.label, members, model.registered,
                               typos_only=not collection.declared)
    for family in model.overlapping:
        found += unknown_names(family.subject, family.label, family.own, model.registered)
    return found


def unknown_names(subject: str, label: str, occurrences: Sequence[Occurrence], registered: Mapping[str, Occurrence],
                  typos_only: bool = False) -> List[Diagnostic]:
    """Each name nothing registers, once; none while nothing is registered.

    A name whose closest registered name is held beside it is a checkpoint alias or a variant
    spelt on purpose (`LongcatFlashNgramForCausalLM` beside `LongcatFlashForCausalLM`): not
    reported. With `typos_only` (subjects found by shape, not declared), only names with a close
    registered match that the subject lacks are reported: what is left is most likely a typo.
    """
    if not registered:
        return []
    held = {o.name for o in occurrences}
    known = list(registered)
    diagnostics = []
    seen: Set[str] = set()
    for occurrence in occurrences:
        if occurrence.name in registered or occurrence.name in seen:
            continue
        seen.add(occurrence.name)
        near = difflib.get_close_matches(occurrence.name, known, n=3, cutoff=_ALIAS)
        if any(n in held for n in near):
            continue
        close = [n for n in near if difflib.SequenceMatcher(None, occurrence.name, n).ratio() >= _TYPO]
        if typos_only and not close:
            continue
        diagnostics.append(diagnostic(subject, label, occurrence, close[0] if close else None))
    return diagnostics


_ALIAS = 0.75  # as close as a checkpoint alias is to the name it stands for
_TYPO = 0.88  # as close as a typo is


def diagnostic(subject: str, label: str, occurrence: Occurrence, close: Optional[str]) -> Diagnostic:
    hint = f"; did you mean '{close}'?" if close else ""
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
