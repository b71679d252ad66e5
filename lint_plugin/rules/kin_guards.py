"""Why a name is never asked of a list, whatever ties it to the list's names: the guards of ARC105 and ARC107.

Evidence says a name may belong with what a list holds; a guard says what the list is about, read from the
list and the code around it, and refuses the name where adding it would be wrong whatever the evidence (a
multimodal model in a list of text models, a model a subsystem's own tables never name). The guards are
asked in the order of `GUARDS`, and the first that refuses decides: `archsync why` prints its reason, and
the rules' pages print `GUARDS` as the table of what is never reported, so the reference cannot drift from
what is checked. The chains' guards, which hold for every completion rule, are `chains.py`'s.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import AbstractSet, Callable, FrozenSet, List, Sequence, Tuple

from ..resolve import Collection, Model
from ..resolve.handlers import alternatives
from ..resolve.host_scope import out_of_sight
from ..resolve.kinship import Evidence, spells_experts, variant
from ..resolve.lineage import first_word
from ..resolve.said_kinds import SaidKinds
from .kinds import CLASSIFICATION, DRAFT, accepts, kind, never_looked_up


@dataclass(frozen=True)
class Asked:
    """One name asked of one list: what every guard reads."""

    model: Model
    collection: Collection
    held: AbstractSet[str]  # the registered names the list holds
    name: str
    same_model: Sequence[Evidence]  # `name` is a second name of a held model (ARC105's `_same_model`), or ()
    others: Sequence[Collection] = ()  # the lists of the same name in other modules (`namesakes`)


@dataclass(frozen=True)
class Guard:
    """A reason a name is never asked of a list: `test` says why (a sentence), or "" to let the next guard ask."""

    name: str
    refuses: str  # what the rule's page says it refuses
    test: Callable[[Asked], str]


def not_a_list_to_complete(collection: Collection, held: AbstractSet[str]) -> str:
    """Why a subject is not completed whatever the name, or ""."""
    if not collection.completable:
        return collection.not_completed
    if len(held) < (1 if collection.declared else 2):
        return "the subject holds fewer than two registered names"
    return ""


def one_name_test(collection: Collection, held: AbstractSet[str]) -> bool:
    """A test of one registered name, found by shape, that gates something (`arch == "X"`): asked only for a
    second name of that model, what a fix turns `==` into `in (...)` for."""
    return len(held) == 1 and len(collection.written) == 1 and not collection.unread \
        and collection.scope not in ("dispatch", "inert")


def kind_guard(name: str, said: SaidKinds) -> str:
    """How the kind guard says why `name` is not asked of a subject (`archsync why` says it too)."""
    wanted = kind(name, said)
    if wanted == DRAFT:
        return "kind guard: it is a draft variant and fewer than a fifth of the subject's names are (none at all " \
               "for a list of one lineage)"
    words = "a classification or embedding model" if wanted == CLASSIFICATION else wanted
    return f"kind guard: it is {words} and fewer than a fifth of the subject's names are (`archsync explain ARC101`)"


def own_registry(model: Model, collection: Collection) -> FrozenSet[str]:
    """The names the subject's own module registers (ktransformers' `local_chat.py` builds its models from
    its `custom_models` table): what that module serves, where it registers any."""
    return model.registered_in.get(collection.path, frozenset())


def own_tables(model: Model, collection: Collection) -> Tuple[FrozenSet[str], ...]:
    """What the other lists looked up with a class name hold, of the subject's module where it keeps any, else of its
    directory, other handlers' lists of the subject's attribute aside: which handler serves a model is a choice among
    them (`resolve/handlers.py`). The nearest say most: lmdeploy's `smooth_quant.py` looks a model's class name up
    in four tables, and one beside it (`auto_awq.py`) naming a model says nothing of the four."""
    return tuple(table.members.names for table in _nearest_tables(model, collection)[1])


def _nearest_tables(model: Model, collection: Collection) -> Tuple[str, List[Collection]]:
    """Where `own_tables` reads (`"module"` or `"directory"`), and the tables it reads there."""
    tables = [table for table in model.tables_by_directory.get(collection.path.rpartition("/")[0], ())
              if (table.path, table.subject) != (collection.path, collection.subject)
              and not alternatives(collection, table)]
    mine = [table for table in tables if table.path == collection.path]
    return ("module", mine) if mine else ("directory", tables)


def _held(a: Asked) -> str:
    return "the subject holds it" if a.name in a.collection.members.names else ""


def _completed(a: Asked) -> str:
    reason = not_a_list_to_complete(a.collection, a.held)
    return "" if a.same_model and one_name_test(a.collection, a.held) else reason


def _spelling(a: Asked) -> str:
    kinship = a.model.kinship
    if kinship.is_alias(a.name) and not a.same_model and not any(kinship.is_alias(h) for h in a.held) and \
            not any(a.name in o.members.names for o in a.others) and not kinship.held_beside_its_class(a.name, a.held):
        return "it is a second spelling of a served class and the subject holds none"
    return ""


def _host(a: Asked) -> str:
    return out_of_sight(a.collection, a.name, a.model.host_only, a.model.brought, a.model.not_taken_up)


def _class_keyed(a: Asked) -> str:
    if never_looked_up(a.collection.keyed, a.name, a.model.kinship.model_class):
        return "the subject is looked up with a class name, and the registry serves the name with another's class"
    return ""


def _kind(a: Asked) -> str:
    if a.same_model or accepts(a.collection.members.names, a.name, said=a.model.said):
        return ""
    return kind_guard(a.name, a.model.said)


def _lineage(a: Asked) -> str:
    """A list of one lineage (`_INTERN_S2_ARCHS`) is about that lineage, whatever runs the same code. A
    class that subclasses a model of the lineage is of it too, whatever its name (`InternS2PreviewFor...`
    subclasses Qwen3.5's class: a list of Qwen models is about it as well)."""
    lineages = {first_word(n, generations=False) for n in a.held}
    ancestors = a.model.kinship.served_ancestors(a.name)
    if len(a.held) > 1 and len(lineages) == 1 and first_word(a.name, generations=False) not in lineages \
            and lineages.isdisjoint(first_word(n, generations=False) for n in ancestors):
        return "the subject is about one lineage and the name is of another"
    return ""


def _experts(a: Asked) -> str:
    """Is the name dense, in a subject whose every name of known code builds mixture-of-experts layers (two at
    least)? Such a list is about experts (the tables of a MoE kernel's benchmark, of a quantizer's expert
    layouts): a dense model has none to give it, whatever its name shares with a MoE model the list holds
    (`Qwen3ForCausalLM` beside `Qwen3MoeForCausalLM`). As the kind guard, read from what the list holds; the
    code says which models are MoE (`Kinship.builds_experts`), a name whose code is not known says nothing."""
    kinship = a.model.kinship
    if kinship.builds_experts(a.name) is not False:
        return ""
    known = [kinship.builds_experts(h) for h in a.held]
    if False not in known and known.count(True) >= 2:
        return "the subject holds mixture-of-experts models only (their code builds expert layers), and it is dense"
    return ""


_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # `_FORCED_FUSED_EP_MOE_ARCHS`, `moeArchs`, `MoeModels`
_EXPERT_WORDS = frozenset({"moe", "expert", "experts"})


def _named_for_experts(a: Asked) -> str:
    """Does the subject's own name say it holds mixture-of-experts models (`_FORCED_FUSED_EP_MOE_ARCHS`), as the
    spelling of every name it holds does, and the name's does not? The project's word for the list, as a list
    named multimodal holds multimodal models (`kinds.py`): its dense twin stays out even where it runs the
    MoE class's code (a dense class subclassing the MoE one, branching on its config), which the code guard
    above cannot tell."""
    if not any(word.lower() in _EXPERT_WORDS for word in _WORDS.findall(a.collection.subject)):
        return ""  # asked first: most subjects say nothing of experts, and this runs for every candidate
    if a.held and not spells_experts(a.name) and all(spells_experts(h) for h in a.held):
        return "the subject's name says it is about mixture-of-experts models, as every name it holds is spelt, " \
               "and the name is not"
    return ""


def later(held: str, name: str) -> bool:
    """Is `held` a later version or generation of `name` (`DeepseekV2` beside `Deepseek`, `DeepseekV3` beside
    `DeepseekV2`)? A list that holds two of them and not `name` was begun after `name` existed and left it
    out: drift adds the newer model a list forgot, not the older one it passed over."""
    return variant(name, held) == "earlier" or variant(held, name) == "generation"


def _passed_over(a: Asked) -> str:
    if sum(later(h, a.name) for h in a.held) > 1:
        return "the subject holds two later versions of it and not it: what it gates began with them"
    return ""


def _not_in_own_registry(a: Asked) -> str:
    own = own_registry(a.model, a.collection)
    if own and a.name not in own:
        return "the subject's module builds its models from a registry of its own, which does not name it: " \
               "adding it to one list would not make the module serve it"
    return ""


def _not_in_own_tables(a: Asked) -> str:
    """A table keyed by `type(model).__name__` holds what a subsystem needs for each model it handles (the
    layer and norm classes lmdeploy's `lite/` calibration reads): a model none of them names is one
    the subsystem does not handle, whatever code it shares with a model one of its lists holds, and
    telling that list to hold it would half add support. The subsystem is the subject's module where it keeps
    other such tables (a step that looks the class name up in each), else its directory. Where no such table is
    kept, lists of one directory are about different things, and one that lacks a name says nothing of another."""
    where, tables = _nearest_tables(a.model, a.collection)
    if tables and not any(a.name in t.members.names for t in tables):
        return f"the subject's {where} keeps tables looked up with a model's class name, and none names it: " \
               "that subsystem does not handle the model, and one list is not where to start"
    return ""


GUARDS: Tuple[Guard, ...] = (
    Guard("held", "a name the subject holds", _held),
    Guard("not completed", "any name, in a subject that is not completed: one holding fewer than two registered names, "
          "a test of one name (but for a second name of the model it tests: `arch == X` becomes `arch in (X, Y)`), a "
          "dispatch (`if arch == X: arch = Y`), a list nothing reads, an inert branch (`archsync explain ARC101`)",
          _completed),
    Guard("spelling", "a second spelling of a class (an alias) in a subject that holds none, unless a namesake lists "
          "it, or it is a version of the held name whose class serves it and two of the project's lists hold the two "
          "(`DeepseekV32ForCausalLM`, served by `DeepseekV3ForCausalLM`'s class); never `MistralForCausalLM` for "
          "Llama's, another model reusing the code. Nor a class, for the code it shares with a held spelling of it",
          _spelling),
    Guard("host", "in a plugin's list, a name only hosts the list does not serve register; or, where the plugin "
          "registers models of its own into its host, a name not among them: its lists are about those. In a "
          "project serving transformers' models, a name only transformers registers that the project names nowhere (no "
          "subject holds it, no file writes it): a model it has not taken up (transformers registers every model it "
          "has)", _host),
    Guard("class keyed", "in a subject looked up with a class name (`MAP[type(model).__name__]`), a name the "
          "registry serves with another's class", _class_keyed),
    Guard("kind", "a name of a kind fewer than a fifth of the subject's names are: a multimodal model in a list of "
          "text models, a draft where drafts are not a fifth (ARC101's kind guard)", _kind),
    Guard("lineage", "a name of another lineage in a list of one lineage (`_INTERN_S2_ARCHS`), unless its class "
          "subclasses a model of that lineage (`InternS2PreviewForConditionalGeneration` subclasses Qwen3.5-MoE's)",
          _lineage),
    Guard("experts", "a dense model in a list whose every name of known code builds mixture-of-experts layers (two "
          "at least, read from their modules' imports): `Qwen3ForCausalLM` beside `Qwen3MoeForCausalLM` in a MoE "
          "kernel's table", _experts),
    Guard("named for experts", "a dense model in a list whose own name says it is about mixture-of-experts models "
          "(`_FORCED_FUSED_EP_MOE_ARCHS`) and whose every name is spelt so, even where the dense class runs the "
          "MoE class's code", _named_for_experts),
    Guard("passed over", "an earlier version or generation of a lineage where the subject holds two later ones "
          "(`DeepseekV2ForCausalLM` beside `DeepseekV3ForCausalLM` and `DeepseekV32ForCausalLM`): what the list "
          "gates began with them", _passed_over),
    Guard("own registry", "a name the subject's module does not register, where it registers names of its own "
          "(ktransformers' `local_chat.py` builds its models from its `custom_models`)", _not_in_own_registry),
    Guard("own tables", "a name none of the class-name tables of the subject's module names (of its directory, where "
          "the module keeps no other): that subsystem does not handle the model (lmdeploy's `lite/` calibration "
          "tables)", _not_in_own_tables),
)


def blocked(model: Model, collection: Collection, held: AbstractSet[str], name: str, same_model: Sequence[Evidence],
            others: Sequence[Collection] = ()) -> str:
    """Why `name` is never asked of `collection`, or "": the first guard that refuses it. `same_model`: ARC105's
    evidence that it is a second name of a held model (its class, lineage and task), which lifts some guards:
    it is what the subject holds by another name, of the kind the subject holds, and a spelling it wants, even
    of a test of that one name."""
    asked = Asked(model, collection, held, name, same_model, others)
    for guard in GUARDS:
        reason = guard.test(asked)
        if reason:
            return reason
    return ""


def table(after: Sequence[Tuple[str, str]] = ()) -> str:
    """The guards as a rule's page shows them, in the order they are asked, then the (name, refuses) rows `after`
    (the chains' guards, asked of every completion rule's findings)."""
    lines: List[str] = ["| guard | never asks for |", "|---|---|"]
    lines += [f"| {name} | {refuses} |" for name, refuses in [(g.name, g.refuses) for g in GUARDS] + list(after)]
    return "\n".join(lines)
