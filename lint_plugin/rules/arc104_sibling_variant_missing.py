"""ARC104 sibling-variant-missing: one variant of a registered pair is held, the other is not."""
from __future__ import annotations

from typing import AbstractSet, List, Optional

from ..diagnostics import Diagnostic, FixRequest, place
from ..resolve import Model, Occurrence
from ..resolve.host_scope import out_of_sight
from ..resolve.kinship import missing_siblings
from ..resolve.lineage import names_lineage
from .fixes import add_to
from .kinds import accepts, never_looked_up
from .rule import Example, Rule

_MODELS = ("models/gemma3.py", "class Gemma3ForConditionalGeneration: pass\n"
                               "class Gemma3ForCausalLM: pass\n"
                               "class Gemma2ForCausalLM: pass\n"
                               "class Qwen2VLForConditionalGeneration: pass\n"
                               "EntryClass = [Gemma3ForConditionalGeneration, Gemma3ForCausalLM, Gemma2ForCausalLM,\n"
                               "              Qwen2VLForConditionalGeneration]\n")


def check(model: Model) -> List[Diagnostic]:
    """Collections on all they hold; families on their own literal only, so delegates do not repeat it."""
    registered, siblings = model.registered, model.config.siblings
    if not registered or not siblings:
        return []
    hosts = frozenset(model.hosts)
    found = [diagnostic(c.subject, c.label, c.path, c.line, c.column, name, sibling, registered[sibling],
                        add_to(c, sibling, siblings), hosts)
             for c in model.collections if c.completable
             for name, sibling in sorted(missing_siblings(c.members.names, registered, siblings))
             if accepts(c.members.names, sibling, said=model.said)
             and not never_looked_up(c.keyed, sibling, model.kinship.model_class)
             and not out_of_sight(c, sibling, model.host_only, model.brought, model.not_taken_up)]
    for f in model.overlapping:
        own = frozenset(o.name for o in f.own)
        lineage = own if names_lineage(f.subject, own) else frozenset()  # a lineage predicate holds its lineage
        found += [diagnostic(f.subject, f.label, f.path, f.line, f.column, name, sibling, registered[sibling],
                             None, hosts)
                  for name, sibling in sorted(missing_siblings(own, registered, siblings))
                  if accepts(own, sibling, lineage, model.said)]
    return found


def diagnostic(subject: str, label: str, path: str, line: int, column: int, name: str, sibling: str,
               where: Occurrence, fix: Optional[FixRequest] = None,
               hosts: AbstractSet[str] = frozenset()) -> Diagnostic:
    host = where.path.partition("/")[0]
    by = f"by {host} " if host in hosts else ""  # a host's file, read from its snapshot or installed source
    return Diagnostic(path, line, column, RULE.code,
                      f"'{sibling}' is missing from {label}, which holds its sibling '{name}' "
                      f"('{sibling}' is registered {by}at {place(where.path, where.line)})",
                      subject=subject, member=sibling, fix=fix)




RULE = Rule(
    code="ARC104",
    name="sibling-variant-missing",
    summary="a collection or family holds one variant of a registered pair but not the other",
    what="A subject or a family holds `<Stem>ForConditionalGeneration` while the registered "
         "`<Stem>ForCausalLM` is absent, or the reverse. Suffix pairs come from `siblings` (default "
         "[[\"ForConditionalGeneration\", \"ForCausalLM\"]]; `siblings = []` turns the rule off). Quiet where "
         "ARC101 already reports the same name; a family is judged on its own literal, so predicates that "
         "delegate do not repeat it. The kind guard of ARC101 applies: a list of multimodal models is not told to "
         "hold a text-only twin, unless it is a lineage predicate (`is_qwen3_5()` holds its whole lineage). How a "
         "list is read and the if/elif chains beside it count as for ARC101 (`archsync explain ARC101`): a list is "
         "not asked for a twin that a chain taking most of its names one by one has no branch for.",
    why="Text-only checkpoints of multimodal models (and the reverse) are registered separately and forgotten in "
        "the lists that gate their behaviour (vLLM PR #47252, TensorRT-LLM issue #18849).",
    fix_doc="Add the sibling, or exempt it when the list is deliberately one-sided (for example a multimodal-only "
            "allow-list).",
    exempt_doc="`[[tool.archsync.exempt]]` or `# noqa: ARC104`.",
    examples=(
        Example("a whitelist of text and multimodal models with the multimodal Gemma 3 but not the text-only one", (
            _MODELS,
            ("layers/attention.py", "SLIDING_WINDOW_ARCHS = [\"Gemma3ForConditionalGeneration\", "
                                    "\"Gemma2ForCausalLM\"]\n"),
        ), ("layers/attention.py:1:1: ARC104 'Gemma3ForCausalLM' is missing from SLIDING_WINDOW_ARCHS, which holds "
            "its sibling 'Gemma3ForConditionalGeneration' ('Gemma3ForCausalLM' is registered at "
            "models/gemma3.py:5)",), corrected=(
            ("layers/attention.py", "SLIDING_WINDOW_ARCHS = [\"Gemma3ForConditionalGeneration\", "
                                    "\"Gemma3ForCausalLM\", \"Gemma2ForCausalLM\"]\n"),
        )),
        Example("both variants held", (
            _MODELS,
            ("layers/attention.py", "SLIDING_WINDOW_ARCHS = [\"Gemma3ForConditionalGeneration\", "
                                    "\"Gemma3ForCausalLM\"]\n"),
        )),
        Example("a list of multimodal models only: text-only twins are not its business", (
            _MODELS,
            ("managers/vision.py", "_IMAGE_ARCHS = [\"Gemma3ForConditionalGeneration\", "
                                   "\"Qwen2VLForConditionalGeneration\"]\n"),
        )),
    ),
    check=check,
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("guard", "families", "registries", "universe-from", "siblings", "exempt"),
)
