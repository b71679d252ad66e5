"""ARC103 subset-broken: a name of one collection is missing from a collection that must contain it."""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ..config import Subset
from ..diagnostics import Diagnostic
from ..resolve import Collection, Model, Occurrence
from .fixes import add_to
from .rule import Example, Rule

_MODELS = ("models.py", "class KimiLinearForCausalLM: pass\nclass Qwen3NextForCausalLM: pass\n"
                        "EntryClass = [KimiLinearForCausalLM, Qwen3NextForCausalLM]\n")


def check(model: Model) -> List[Diagnostic]:
    found: List[Diagnostic] = []
    for subset in model.config.subsets:
        whole = None if subset.into == "registered" else model.named[subset.into]
        found += subset_broken(subset, model.named[subset.of], whole, model.registered, model.config.siblings)
    return found


def subset_broken(subset: Subset, part: Collection, whole: Optional[Collection],
                  registered: Mapping[str, Occurrence], siblings: Sequence[Tuple[str, str]] = ()) -> List[Diagnostic]:
    """A name of `of` is not in `in` (a collection, or the registered names); the fix adds it to `in`."""
    held = whole.members.names if whole is not None else frozenset(registered)
    first: Dict[str, Occurrence] = {}
    for occurrence in part.members.members:
        first.setdefault(occurrence.name, occurrence)
    return [diagnostic(subset, part, whole, name, siblings) for name in sorted(first) if name not in held]


def diagnostic(subset: Subset, part: Collection, whole: Optional[Collection], name: str,
               siblings: Sequence[Tuple[str, str]] = ()) -> Diagnostic:
    target = whole.label if whole is not None else "the registered architectures"
    return Diagnostic(part.path, part.line, part.column, RULE.code,
                      f"'{name}' is in {part.label} but not in {target} ({subset.origin})",
                      subject=part.subject, member=name, fix=add_to(whole, name, siblings) if whole else None)


RULE = Rule(
    code="ARC103",
    name="subset-broken",
    summary="a name of one collection is missing from a collection that must contain it",
    what="`[[tool.archsync.subset]]` with `of = \"A\"` and `in = \"B\"` says every name in A is in B; "
         "`in = \"registered\"` says every name in A is registered.",
    why="An allow-list that names a model nothing serves, or a table of supported models that lags the registry.",
    fix_doc="Add the name to B (`archsync fix` does it where B is a literal) or remove it from A.",
    exempt_doc="`[[tool.archsync.exempt]]` with subject = A, or `# noqa: ARC103`.",
    examples=(
        Example("an extra-buffer list must stay inside the radix-cache list", (
            ("pyproject.toml", "[tool.archsync]\n\n[[tool.archsync.subset]]\n"
                               "of = \"EXTRA_BUFFER_ARCHS\"\nin = \"RADIX_CACHE_ARCHS\"\n"),
            _MODELS,
            ("cache.py", "RADIX_CACHE_ARCHS = frozenset({\"Qwen3NextForCausalLM\"})\n"
                         "EXTRA_BUFFER_ARCHS = frozenset({\"KimiLinearForCausalLM\", \"Qwen3NextForCausalLM\"})\n"),
        ), ("cache.py:2:1: ARC103 'KimiLinearForCausalLM' is in EXTRA_BUFFER_ARCHS but not in RADIX_CACHE_ARCHS "
            "(pyproject.toml: tool.archsync.subset[0])",), corrected=(
            ("cache.py", "RADIX_CACHE_ARCHS = frozenset({\"Qwen3NextForCausalLM\", \"KimiLinearForCausalLM\"})\n"
                         "EXTRA_BUFFER_ARCHS = frozenset({\"KimiLinearForCausalLM\", \"Qwen3NextForCausalLM\"})\n"),
        )),
        Example("every name of an allow-list must be registered", (
            ("pyproject.toml", "[tool.archsync]\n\n[[tool.archsync.subset]]\nof = \"SERVED\"\nin = \"registered\"\n"),
            _MODELS,
            ("served.py", "SERVED = [\"KimiLinearForCausalLM\", \"Qwen3NextForCausalLM\"]\n"),
        )),
    ),
    check=check,
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("registries", "universe-from", "subset", "exempt"),
)
