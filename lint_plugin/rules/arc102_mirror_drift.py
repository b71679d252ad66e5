"""ARC102 mirror-drift: collections declared as mirrors do not hold the same names."""
from __future__ import annotations

from typing import FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from ..config import Mirror
from ..diagnostics import Diagnostic, place
from ..resolve import Collection, Model, Predicate
from .fixes import add_to
from .rule import Example, Rule

_CONFIG = ("pyproject.toml", "[tool.archsync]\n\n[[tool.archsync.mirror]]\n"
                             "collections = [\"RADIX_CACHE_ARCHS\", \"EXTRA_BUFFER_ARCHS\"]\n")
_MODELS = ("models.py", "class KimiLinearForCausalLM: pass\nclass Qwen3NextForCausalLM: pass\n"
                        "EntryClass = [KimiLinearForCausalLM, Qwen3NextForCausalLM]\n")


def check(model: Model) -> List[Diagnostic]:
    found: List[Diagnostic] = []
    for mirror in model.config.mirrors:
        found += mirror_drift(mirror, [model.named[c] for c in mirror.collections], model.predicates,
                              model.config.siblings)
    return found


def mirror_drift(mirror: Mirror, collections: Sequence[Collection],
                 families: Mapping[str, Predicate], siblings: Sequence[Tuple[str, str]] = ()) -> List[Diagnostic]:
    """A name in one mirrored collection and not another, reported where it is missing."""
    scope: Optional[FrozenSet[str]] = None
    if mirror.families:
        scope = frozenset().union(*(families[f].names for f in mirror.families if f in families))
    diagnostics = []
    reported: Set[Tuple[str, str, str]] = set()
    for lacking in collections:
        for other in collections:
            if other is lacking:
                continue
            for name in sorted(other.members.names - lacking.members.names):
                if (scope is not None and name not in scope) or (lacking.path, lacking.subject, name) in reported:
                    continue
                reported.add((lacking.path, lacking.subject, name))
                diagnostics.append(diagnostic(mirror, lacking, other, name, siblings))
    return diagnostics


def diagnostic(mirror: Mirror, lacking: Collection, other: Collection, name: str,
               siblings: Sequence[Tuple[str, str]] = ()) -> Diagnostic:
    # two modules' lists of one name (`MODEL_TYPES` in each): the one the finding is at is the one here
    here = f"{lacking.label} here" if lacking.label == other.label else lacking.label
    return Diagnostic(lacking.path, lacking.line, lacking.column, RULE.code,
                      f"'{name}' is in {other.label} ({place(other.path, other.line)}) but missing from "
                      f"{here}, which must mirror it ({mirror.origin})",
                      subject=lacking.subject, member=name, fix=add_to(lacking, name, siblings))


RULE = Rule(
    code="ARC102",
    name="mirror-drift",
    summary="collections declared as mirrors do not hold the same names",
    what="`[[tool.archsync.mirror]]` lists collections that must agree (optionally only over the names of "
         "`families`). A name in one and not in another is reported at the collection that lacks it.",
    why="Two whitelists that gate the same code path drift apart one pull request at a time.",
    fix_doc="Add the name where it is missing, or exempt the deliberate difference.",
    exempt_doc="`[[tool.archsync.exempt]]` with subject = the lacking collection, or `# noqa: ARC102`.",
    examples=(
        Example("two mamba whitelists that must agree", (
            _CONFIG, _MODELS,
            ("cache.py", "RADIX_CACHE_ARCHS = frozenset({\"KimiLinearForCausalLM\", \"Qwen3NextForCausalLM\"})\n"
                         "EXTRA_BUFFER_ARCHS = frozenset({\"Qwen3NextForCausalLM\"})\n"),
        ), ("cache.py:2:1: ARC102 'KimiLinearForCausalLM' is in RADIX_CACHE_ARCHS (cache.py:1) but missing from "
            "EXTRA_BUFFER_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])",), corrected=(
            ("cache.py", "RADIX_CACHE_ARCHS = frozenset({\"KimiLinearForCausalLM\", \"Qwen3NextForCausalLM\"})\n"
                         "EXTRA_BUFFER_ARCHS = frozenset({\"Qwen3NextForCausalLM\", \"KimiLinearForCausalLM\"})\n"),
        )),
        Example("mirrors that agree", (
            _CONFIG, _MODELS,
            ("cache.py", "RADIX_CACHE_ARCHS = frozenset({\"Qwen3NextForCausalLM\"})\n"
                         "EXTRA_BUFFER_ARCHS = frozenset({\"Qwen3NextForCausalLM\"})\n"),
        )),
    ),
    check=check,
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("mirror", "exempt"),
)
