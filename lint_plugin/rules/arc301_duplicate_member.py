"""ARC301 duplicate-member: the same name is written twice in one literal."""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Model, Occurrence
from .fixes import remove
from .rule import Example, Rule


def check(model: Model) -> List[Diagnostic]:
    """Each literal as written (not the resolved set): a name may rightly come from two places."""
    found: List[Diagnostic] = []
    for collection in model.collections:
        found += duplicate_members(collection.subject, collection.label, collection.literals)
    for family in model.overlapping:
        found += duplicate_members(family.subject, family.label, family.literals)
    return found


def duplicate_members(subject: str, label: str, literals: Sequence[Tuple[Occurrence, ...]]) -> List[Diagnostic]:
    """The first later copy of each name written more than once in one literal; its fix removes every copy."""
    diagnostics = []
    for literal in literals:
        seen: Dict[str, Occurrence] = {}
        copies: Dict[str, List[Occurrence]] = {}
        for member in literal:
            if member.name in seen:
                copies.setdefault(member.name, []).append(member)
            else:
                seen[member.name] = member
        for name, later in copies.items():
            diagnostics.append(diagnostic(subject, label, later[0], seen[name], len(later) + 1))
    return diagnostics


def diagnostic(subject: str, label: str, duplicate: Occurrence, first: Occurrence, times: int = 2) -> Diagnostic:
    listed = "twice" if times == 2 else f"{times} times"
    return Diagnostic(duplicate.path, duplicate.line, duplicate.column, RULE.code,
                      f"'{duplicate.name}' is listed {listed} in {label} (first at line {first.line})",
                      subject=subject, member=duplicate.name, fix=remove(subject, duplicate))


RULE = Rule(
    code="ARC301",
    name="duplicate-member",
    summary="the same name is written twice in one literal",
    what="A guarded collection or a family predicate lists the same string twice in one literal. The later "
         "occurrence is reported. The tests an `or` joins are one literal where they test one value "
         "(`arch == \"A\" or arch.startswith(\"A\")`); a name in tests of two values (the architectures, and a "
         "remote class path's suffix) is tested twice on purpose.",
    why="Usually a merge artefact; sometimes the second copy was meant to be a new variant.",
    fix_doc="Remove the duplicate (`archsync fix`), or correct it to the intended name.",
    exempt_doc="`# noqa: ARC301` on the duplicate's line, or `[[tool.archsync.exempt]]`.",
    examples=(
        Example("a name written twice", (
            ("cache.py", "_RADIX_ARCHS = [\n    \"FalconH1ForCausalLM\",\n    \"NemotronHForCausalLM\",\n"
                         "    \"FalconH1ForCausalLM\",\n]\n"),
        ), ("cache.py:4:5: ARC301 'FalconH1ForCausalLM' is listed twice in _RADIX_ARCHS (first at line 2)",),
            corrected=(("cache.py", "_RADIX_ARCHS = [\n    \"FalconH1ForCausalLM\",\n"
                                    "    \"NemotronHForCausalLM\",\n]\n"),)),
        Example("the same name in two literals of one collection", (
            ("cache.py", "_BASE_ARCHS = [\"FalconH1ForCausalLM\"]\n"
                         "_RADIX_ARCHS = _BASE_ARCHS + [\"FalconH1ForCausalLM\"]\n"),
        )),
        Example("one name in two tests of two values", (
            ("models/deci.py", "class DeciLMForCausalLM:\n    pass\n\n\nEntryClass = DeciLMForCausalLM\n"),
            ("bridge.py", "def remote_kind(archs, auto_map):\n"
                          "    if \"DeciLMForCausalLM\" in archs or auto_map[\"AutoModel\"].endswith(\n"
                          "            \"DeciLMForCausalLM\"):\n"
                          "        return \"deci\"\n    return \"\"\n"),
        )),
    ),
    check=check,
    severity="warning",
    fix="remove",
    one_per_pair=True,
    flags_damage=True,
    settings=("guard", "families", "exempt"),
)
