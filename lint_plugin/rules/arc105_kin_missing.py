"""ARC105 kin-missing: a subject holds an architecture but not its kin, by what the code itself says."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import AbstractSet, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic, FixRequest, place
from ..resolve import Collection, Model
from ..resolve.host_scope import out_of_sight
from ..resolve.kinship import (
    BACKBONE,
    CONFIG_CLASS,
    IMPLEMENTATION,
    MIN_TOGETHER,
    NAMESAKE,
    SAME_MODEL,
    SHARED_BASE,
    SUBCLASS,
    WRAPS,
    Evidence,
    confidence,
    corroborated,
    slips,
    spells_experts,
    variant,
    weights,
)
from ..resolve.lineage import first_word
from ..resolve.namesakes import namesakes
from ..resolve.parts import part_of
from ..resolve.said_kinds import SaidKinds
from . import memory_arc105
from .fixes import add_to
from .kinds import CLASSIFICATION, DRAFT, accepts, kind, never_looked_up
from .rule import Example, Rule

# Confidence a finding needs, per `kinship` level. "strong" was chosen by measurement (bench/history
# and the real trees in the CHANGELOG): one implementation, an alias or a subclass that adds no
# method clears it, and the project must also treat the two alike (a second kind of evidence, two of
# its lists holding both, or two more clones of the held model in the list: `_clones_beside`); weaker
# evidence must add up.
THRESHOLDS = {"strong": 0.8, "all": 0.3}

_MODELS = ("models/llama.py", "class LlamaForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                              "class MistralForCausalLM(LlamaForCausalLM):\n    pass\n\n\n"
                              "class PhiForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                              "EntryClass = [LlamaForCausalLM, MistralForCausalLM, PhiForCausalLM]\n")


@dataclass(frozen=True)
class Verdict:
    """Everything ARC105 weighs for one (subject, name): `archsync why` prints it, `check` reports it."""

    evidence: Tuple[Evidence, ...]
    confidence: float
    corroborated: bool
    blocked: str  # why it is not reported whatever the evidence, or ""
    # the held names that run the code of a model the subject holds as the name does, and that model
    # (`_clones_beside`); ((), "") if too few
    clones: Tuple[Tuple[str, ...], str] = ((), "")
    # the code evidence a registry of another part of the project gives, where the subject is the table of an engine
    # of its own (`_of_another_engine`): weighed as nothing, and shown by `archsync why`
    set_aside: Tuple[Evidence, ...] = ()

    def reported(self, level: str) -> bool:
        threshold = THRESHOLDS.get(level)
        if threshold is None or self.blocked or not self.evidence or self.confidence < threshold:
            return False
        return self.corroborated or level != "strong"


def check(model: Model) -> List[Diagnostic]:
    return check_again(model, None)[0]


def check_again(model: Model, earlier: Optional[memory_arc105.Arc105Memory]
                ) -> Tuple[List[Diagnostic], Optional[memory_arc105.Arc105Memory]]:
    """`check`, taking what the last check weighed where nothing it read changed (`memory_arc105.py`), and
    returning what this one weighed for the next."""
    if model.config.kinship not in THRESHOLDS or not model.registered:
        return [], None
    found: List[Diagnostic] = []
    copies = namesakes(model.collections)
    kept, changed = memory_arc105.earlier_for(earlier, model)
    weighed: Dict[Tuple[str, str], memory_arc105.Weighed] = {}
    for c in model.collections:
        held = c.members.names & model.registered.keys()
        if not_a_list_to_complete(c, held) and not one_name_test(c, held):
            continue  # blocked whatever the name: skip the weighing
        others = copies.get((c.path, c.subject), ())
        theirs = frozenset().union(*(o.members.names for o in others if not held.isdisjoint(o.members.names)))
        names = tuple(sorted((model.kinship.candidates(held) | (theirs & model.registered.keys())) - c.members.names))
        tables = _own_tables(model, c) + (_own_registry(model, c), _engine_table(model, c))
        done, moved = memory_arc105.reusable(kept, changed, model.kinship, c, others, held, names, tables)
        if done is None:
            done = memory_arc105.Weighed(c, others, names, tuple(_weigh(model, c, held, names, others)), tables)
        elif moved:  # lines moved: what is reported stands, its messages name the new lines
            done = memory_arc105.Weighed(c, others, names, tuple(
                _weigh(model, c, held, [d.member or "" for d in done.found], others)), tables)
        weighed[(c.path, c.subject)] = done
        found += done.found
    return found, memory_arc105.remembered(model, weighed)


def _weigh(model: Model, c: Collection, held: AbstractSet[str], names: Sequence[str],
           others: Sequence[Collection]) -> List[Diagnostic]:
    """One subject's findings: each name weighed against what it holds."""
    found = []
    for name in names:
        same_model = _same_model(model, c, held, name)
        refused = blocked(model, c, held, name, same_model, others)
        if refused:
            continue  # never reported, whatever the evidence: not weighed
        verdict = _verdict(model, c, held, name, refused, same_model, others)
        if verdict.reported(model.config.kinship):
            found.append(diagnostic(c.subject, c.label, c.path, c.line, c.column, name, verdict.evidence,
                                    verdict.confidence, add_beside_kin(c, name, verdict.evidence)))
    return found


def add_beside_kin(collection: Collection, name: str, evidence: Sequence[Evidence]) -> FixRequest:
    """Add `name` right after the held name the strongest evidence ties it to."""
    kin = tuple(dict.fromkeys(e.kin for e in evidence))[:3]
    return dataclasses.replace(add_to(collection, name, ()), peers=kin)


def judge(model: Model, collection: Collection, name: str) -> Verdict:
    """The evidence tying `name` to what `collection` holds, and what stops it being reported."""
    held = collection.members.names & model.registered.keys()
    others = namesakes(model.collections).get((collection.path, collection.subject), ())
    same_model = _same_model(model, collection, held, name)
    return _verdict(model, collection, held, name, blocked(model, collection, held, name, same_model, others),
                    same_model, others)


def _verdict(model: Model, collection: Collection, held: AbstractSet[str], name: str, refused: str,
             same_model: List[Evidence], others: Sequence[Collection]) -> Verdict:
    found = model.kinship.evidence(name, held) + slips(name, collection.literals) + same_model
    found = sorted(found + _namesakes(held, name, others, [e.kin for e in found]),
                   key=lambda e: (-e.weight, e.kind, e.kin))
    set_aside = tuple(e for e in found if e.kind in _CODE) if _of_another_engine(model, collection, name) else ()
    found = [e for e in found if e not in set_aside]
    evidence = tuple(e for e in found if not _through_a_spelling(model, name, e)) or tuple(found)
    if not refused and evidence and all(_through_a_spelling(model, name, e) for e in evidence):
        refused = f"it is tied only to '{evidence[0].kin}', a second spelling of a class the subject does not " \
                  "name: the subject is about that spelling's checkpoints"
    together = corroborated(model.kinship, name, evidence)
    clones = ((), "") if together else _clones_beside(model, collection, held, name, evidence)
    return Verdict(evidence, confidence(evidence), together or bool(clones[0]), refused, clones, set_aside)


def _of_another_engine(model: Model, collection: Collection, name: str) -> bool:
    """Is the subject a table in which its part of the project names a class of its own engine for each name
    (`resolve/engine_tables.py`: lmdeploy's TurboMind `SUPPORTED_ARCHS`), and `name` registered in another part
    (`resolve/parts.py`)? What that registry's classes share (an implementation, a subclass, a backbone) says
    what its engine runs, not which checkpoints this one's classes take: set aside."""
    where = model.registered.get(name)
    return (collection.path, collection.subject) in model.engine_tables and where is not None \
        and part_of(where.path) != part_of(collection.path)


_RUNS_THE_CODE = (IMPLEMENTATION, SUBCLASS)


def _clones_beside(model: Model, collection: Collection, held: AbstractSet[str], name: str,
                   evidence: Sequence[Evidence]) -> Tuple[Tuple[str, ...], str]:
    """For `name`, a subclass of a held model K that defines no method: the names the subject holds beside K
    that run K's code too (subclasses of K that define no method, registry aliases of K's class), two at
    least, and K; ((), "") if none has two. A list that holds clones of K beside K treats K's clones alike, as
    two lists holding both would say: vLLM's EAGLE branch of `is_deepseek_mla` holds DeepSeek-V2 beside V3
    (whose class subclasses V2's and defines no method) and V3.2 (served by V3's class), and lacks GLM-5,
    whose class does the same. One clone is an anecdote: SGLang's FA3 defaults held Mistral beside Llama (a
    checkpoint someone validated), and history never added Llama's other clones. Not in a table of per-name
    values (image-pad tokens, chat templates, another engine's classes): its entries belong to checkpoints,
    which code identity says nothing of."""
    if collection.table:
        return (), ""
    for e in evidence:
        if e.kind != SUBCLASS or e.weight < weights.THIN_SUBCLASS:
            continue  # a second spelling of a class is weighed as one (`_through_a_spelling`)
        clones = tuple(other for other in sorted(held - {e.kin, name})
                       if any(o.kind in _RUNS_THE_CODE and o.weight >= weights.THIN_SUBCLASS and o.kin == e.kin
                              for o in model.kinship.evidence(other, frozenset({e.kin}))))
        if len(clones) >= MIN_TOGETHER:
            return clones, e.kin
    return (), ""


def _namesakes(held: AbstractSet[str], name: str, others: Sequence[Collection], kin: Sequence[str]) -> List[Evidence]:
    """A list of the same name in another module holds `name` beside names this one holds.

    It corroborates what the code says and is never enough alone: copies drift on purpose too
    (a table kept beside the few model files that read it, another backend's table). It names the
    shared name the other evidence names (`kin`, strongest first), else the first.
    """
    found = []
    for other in others:
        shared = sorted(held & other.members.names, key=lambda n: (n not in kin, kin.index(n) if n in kin else 0, n))
        if name in other.members.names and shared:
            where = f"{other.label} at {place(other.path, other.line)}"
            found.append(Evidence(NAMESAKE, weights.SAME_NAME_LIST,
                                  shared[0], f"is held beside '{shared[0]}' by {where}, a list of the "
                                             f"same name ({len(shared)} of this one's {len(held)} "
                                             "names in common)"))
    return found


def _same_model(model: Model, collection: Collection, held: AbstractSet[str], name: str) -> List[Evidence]:
    """`name` is a second name of a held model (`Kinship.another_name_of`), for a subject of the part of the
    project whose registry says so.

    A registry says which class serves a name in the part of the project it belongs to (the first package
    under the top one: `vllm/model_executor`, `lmdeploy/pytorch`). Another part may serve the two names
    its own way: lmdeploy's PyTorch engine runs `LlavaNextForConditionalGeneration` with LLaVA's class,
    while its TurboMind engine and its vision builders (`lmdeploy/turbomind`, `lmdeploy/vl`) keep their
    own tables, which never named it.
    """
    kin = model.kinship.another_name_of(name, held)
    where = model.registered.get(name)
    if not kin or where is None or part_of(where.path) != part_of(collection.path):
        return []
    return [Evidence(SAME_MODEL, weights.ANOTHER_NAME, kin, f"is a second name of '{kin}' (one lineage, one task)")]


def _through_a_spelling(model: Model, name: str, evidence: Evidence) -> bool:
    """Code shared with a held second spelling (`MistralForCausalLM`, registered to Llama's class) says
    nothing of the class's own name or its other subclasses: a list that names the spelling and not the
    class tells them apart on purpose (vLLM's ROCm table of sliding-window models holds Mistral, not Llama).
    What the names say (variants, company, slips) is about the names, and counts."""
    return evidence.kind in _CODE and model.kinship.is_alias(evidence.kin) and not model.kinship.is_alias(name)


_CODE = frozenset({IMPLEMENTATION, SUBCLASS, SHARED_BASE, BACKBONE, WRAPS, CONFIG_CLASS})


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


def blocked(model: Model, collection: Collection, held: AbstractSet[str], name: str, same_model: List[Evidence],
             others: Sequence[Collection] = ()) -> str:
    """Why `name` is never asked of `collection`, or "". `same_model`: `_same_model`'s evidence for it, which
    lifts some guards: a second name of a held model (its class, lineage and task) is what the subject holds,
    by another name: of the kind the subject holds, and a spelling it wants, even of a test of that one name."""
    if name in collection.members.names:
        return "the subject holds it"
    reason = not_a_list_to_complete(collection, held)
    if reason and not (same_model and one_name_test(collection, held)):
        return reason
    if model.kinship.is_alias(name) and not same_model and not any(model.kinship.is_alias(h) for h in held) and \
            not any(name in o.members.names for o in others) and \
            not model.kinship.held_beside_its_class(name, held):
        return "it is a second spelling of a served class and the subject holds none"
    unseen = out_of_sight(collection, name, model.host_only, model.brought)
    if unseen:
        return unseen
    if never_looked_up(collection.keyed, name, model.kinship.registered_class):
        return "the subject is looked up with a class name, and the registry serves the name with another's class"
    if not same_model and not accepts(collection.members.names, name, said=model.said):
        return kind_guard(name, model.said)
    if _other_lineage(held, name, model.kinship.served_ancestors(name)):
        return "the subject is about one lineage and the name is of another"
    if _dense_beside_experts(model, held, name):
        return "the subject holds mixture-of-experts models only (their code builds expert layers), and it is dense"
    if _named_for_experts(collection.subject, held, name):
        return "the subject's name says it is about mixture-of-experts models, as every name it holds is spelt, " \
               "and the name is not"
    if sum(_later(h, name) for h in held) > 1:
        return "the subject holds two later versions of it and not it: what it gates began with them"
    own = _own_registry(model, collection)
    if own and name not in own:
        return "the subject's module builds its models from a registry of its own, which does not name it: " \
               "adding it to one list would not make the module serve it"
    if _not_in_own_tables(model, collection, name):
        return "the subject's directory keeps tables looked up with a model's class name, and none names it: " \
               "that subsystem does not handle the model, and one list is not where to start"
    return ""


def _dense_beside_experts(model: Model, held: AbstractSet[str], name: str) -> bool:
    """Is `name` dense, in a subject whose every name of known code builds mixture-of-experts layers (two at
    least)? Such a list is about experts (the tables of a MoE kernel's benchmark, of a quantizer's expert
    layouts): a dense model has none to give it, whatever its name shares with a MoE model the list holds
    (`Qwen3ForCausalLM` beside `Qwen3MoeForCausalLM`). As the kind guard, read from what the list holds; the
    code says which models are MoE (`Kinship.builds_experts`), a name whose code is not known says nothing."""
    if model.kinship.builds_experts(name) is not False:
        return False
    known = [model.kinship.builds_experts(h) for h in held]
    return False not in known and known.count(True) >= 2


def _named_for_experts(subject: str, held: AbstractSet[str], name: str) -> bool:
    """Does the subject's own name say it holds mixture-of-experts models (`_FORCED_FUSED_EP_MOE_ARCHS`), as the
    spelling of every name it holds does, and `name`'s does not? The project's word for the list, as a list
    named multimodal holds multimodal models (`kinds.py`): its dense twin stays out even where it runs the
    MoE class's code (a dense class subclassing the MoE one, branching on its config), which the code guard
    above cannot tell."""
    if not any(word.lower() in _EXPERT_WORDS for word in _WORDS.findall(subject)):
        return False  # asked first: most subjects say nothing of experts, and this runs for every candidate
    return bool(held) and not spells_experts(name) and all(spells_experts(h) for h in held)


_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")  # `_FORCED_FUSED_EP_MOE_ARCHS`, `moeArchs`, `MoeModels`
_EXPERT_WORDS = frozenset({"moe", "expert", "experts"})


def _later(held: str, name: str) -> bool:
    """Is `held` a later version or generation of `name` (`DeepseekV2` beside `Deepseek`, `DeepseekV3` beside
    `DeepseekV2`)? A list that holds two of them and not `name` was begun after `name` existed and left it
    out: drift adds the newer model a list forgot, not the older one it passed over."""
    return variant(name, held) == "earlier" or variant(held, name) == "generation"


def _not_in_own_tables(model: Model, collection: Collection, name: str) -> bool:
    """Does the subject's directory keep tables looked up with a model's class name, none naming `name`?

    A table keyed by `type(model).__name__` holds what a subsystem needs for each model it handles (the
    layer and norm classes lmdeploy's `lite/` calibration reads): a model none of them names is one
    the subsystem does not handle, whatever code it shares with a model one of its lists holds, and
    telling that list to hold it would half add support. Where no such table is kept, lists of one
    directory are about different things, and one that lacks a name says nothing of another.
    """
    tables = _own_tables(model, collection)
    return bool(tables) and not any(name in names for names in tables)


def _own_registry(model: Model, collection: Collection) -> FrozenSet[str]:
    """The names the subject's own module registers (ktransformers' `local_chat.py` builds its models from
    its `custom_models` table): what that module serves, where it registers any."""
    return model.registered_in.get(collection.path, frozenset())


def _engine_table(model: Model, collection: Collection) -> FrozenSet[str]:
    """The subject's name where it is the table of an engine of its own (`_of_another_engine`), which other files
    decide (the keys their decorators file classes under): kept with what the language server weighed."""
    return frozenset({collection.subject}) if (collection.path, collection.subject) in model.engine_tables \
        else frozenset()


def _own_tables(model: Model, collection: Collection) -> Tuple[FrozenSet[str], ...]:
    """What the other lists of the subject's directory looked up with a class name hold."""
    return tuple(names for path, subject, names, keyed in model.tables_by_directory.get(
        collection.path.rpartition("/")[0], ()) if keyed and (path, subject) != (collection.path, collection.subject))


def kind_guard(name: str, said: SaidKinds) -> str:
    """How the kind guard says why `name` is not asked of a subject (`archsync why` says it too)."""
    wanted = kind(name, said)
    if wanted == DRAFT:
        return "kind guard: it is a draft variant and fewer than a fifth of the subject's names are (none at all " \
               "for a list of one lineage)"
    words = "a classification or embedding model" if wanted == CLASSIFICATION else wanted
    return f"kind guard: it is {words} and fewer than a fifth of the subject's names are (`archsync explain ARC101`)"


def _other_lineage(held: AbstractSet[str], name: str, ancestors: AbstractSet[str] = frozenset()) -> bool:
    """A list of one lineage (`_INTERN_S2_ARCHS`) is about that lineage, whatever runs the same code. A
    class that subclasses a model of the lineage is of it too, whatever its name (`InternS2PreviewFor...`
    subclasses Qwen3.5's class: a list of Qwen models is about it as well)."""
    lineages = {first_word(n, generations=False) for n in held}
    return len(held) > 1 and len(lineages) == 1 and first_word(name, generations=False) not in lineages \
        and lineages.isdisjoint(first_word(a, generations=False) for a in ancestors)


_WHAT = "\n\n".join((
    "A list that holds one architecture usually means \"this implementation\". ARC105 weighs the evidence, read from "
    "the code, that a registered name the subject lacks belongs with a name it holds, and reports the name when the "
    "combined confidence clears the `kinship` level: the best piece of each kind counts, and the kinds combine as "
    "independent (three pieces of 0.5 make 0.875). At `kinship = \"strong\"` (the default) the threshold is 0.8 and "
    "the project must also treat the two alike: a second kind of evidence, or two of its lists that hold both, or, "
    "for a subclass that defines no method, two more such clones of the held model in the subject itself (a list, "
    "not a dict whose values differ from key to key: a table of per-checkpoint values, such as pad tokens, is about "
    "checkpoints, not code); `\"all\"` takes 0.3, and `\"off\"` turns the rule off. Why the second condition: in a "
    "project's own lists, a name tied to a list's members by the code alone is seldom held (each member left out in "
    "turn, on SGLang, vLLM and lmdeploy: under a fifth of the time, and no such pattern of evidence half the time), "
    "and one that the lists also hold beside them is held 83% of the time. `archsync why SUBJECT NAME` prints every "
    "piece, its weight, the confidence, how often the project's lists held a name so tied, and the guard that "
    "decided; `python -m bench.base_rates` prints those counts for a whole tree.",
    "| evidence | weight | when |\n|---|---|---|\n" + "\n".join(
        f"| {row.kind} | {row.weight} | {row.when} |" for row in weights.TABLE),
    "Never reported, whatever the evidence:",
    "\n".join((
        "- where ARC101's kind guard refuses the name (a list of text models is not told to hold a "
        "multimodal one, nor one where drafts are not a fifth of its names a draft);",
        "- a second spelling of a class (an alias) in a subject that holds none, unless a namesake lists it, "
        "or it is a version of the held name whose class serves it (the next version, served by that class for "
        "now) and two of the project's lists hold the two (`DeepseekV32ForCausalLM`, served by "
        "`DeepseekV3ForCausalLM`'s class, in vLLM's MoE benchmark chains; never `MistralForCausalLM` for Llama's, "
        "another model reusing the code); "
        "and a class, for the code it shares with a held spelling of it;",
        "- (neither of the last two applies to a second name of a held model, registered to its class, of its "
        "lineage and task, in the part of the project the registry is in: it is what the subject holds under "
        "another name; a test of that one name, `arch == X`, is asked for it too);",
        "- a name of another lineage in a list of one lineage (`_INTERN_S2_ARCHS`), unless its class "
        "subclasses a model of that lineage (read from the code: `InternS2PreviewForConditionalGeneration` "
        "subclasses Qwen3.5-MoE's class, so a list of Qwen models is about it too);",
        "- a dense model in a list whose every name of known code builds mixture-of-experts layers (two at "
        "least, read from their modules' imports): it is about experts, and a dense model has none "
        "(`Qwen3ForCausalLM` beside `Qwen3MoeForCausalLM` in a MoE kernel's table); and a dense model in a "
        "list whose own name says it is about mixture-of-experts models (`_FORCED_FUSED_EP_MOE_ARCHS`, a word "
        "`MOE`, `moe`, `experts`) and whose every name is spelt so, even where the dense class runs the MoE "
        "class's code (it subclasses it, branching on its config);",
        "- an earlier version or generation of a lineage where the subject holds two later ones "
        "(`DeepseekForCausalLM` beside `DeepseekV2ForCausalLM` and `DeepseekV3ForCausalLM`, `DeepseekV2ForCausalLM` "
        "beside `DeepseekV3ForCausalLM` and `DeepseekV32ForCausalLM`): what the list gates began with them;",
        "- in a subject looked up with a class name (`MAP[type(model).__name__]`), a name the registry "
        "serves with another's class; and in a directory whose class-name tables name it nowhere (that "
        "subsystem does not handle the model: lmdeploy's `lite/` calibration tables);",
        "- a name that the subject's module does not register, where it registers names of its own (it builds "
        "its models from that registry: ktransformers' `local_chat.py` and its `custom_models`);",
        "- in a subject that is not completed: a test of one name, a dispatch (`if arch == X: arch = Y`), a "
        "list nothing reads, an inert branch (`archsync explain ARC101`);",
        "- a name another branch of the subject's if/elif chain tests (`elif arch in [...]`): handled there; "
        "one the other side of an `or` takes (`archs & {...} or model_type in {...}`); or one a chain of the "
        "subject's own function tests in a branch apart from the subject's names: the function tells them apart;",
        "- a name another list lacks, where the subject's test sits inside a test of the same value against that "
        "list (`if arch in SUPPORTED_ARCHS: ... elif arch in [...]`): the name never reaches it;",
        "- a name an if/elif chain of the subject's module has no branch for, where the chain takes most of the "
        "subject's names one by one (`archsync explain ARC101`): the list alone would not make the model work.",
    )),
    "What another part's registry shares is set aside in the table of an engine of the subject's own part: a table "
    "whose values are mostly keys its part's decorators file classes under (lmdeploy's TurboMind `SUPPORTED_ARCHS = "
    "dict(DeepseekV2ForCausalLM=\"deepseek2\")`, with `@INPUT_MODELS.register_module(name=\"deepseek2\")`) is that "
    "engine's registry by another name, and that the PyTorch engine serves DeepSeek-V3 with DeepSeek-V2's class says "
    "nothing of whether TurboMind's `deepseek2` reader takes a V3 checkpoint (it never did). `archsync why` shows "
    "the pieces set aside.",
    "A list a checkpoint's `model_type` is tested against (`config.model_type in (\"deepseek_v2\", "
    "\"glm4_moe\")`) is weighed as the registered architectures its model types name, and what it lacks is "
    "written as a model type (`archsync explain ARC101`).",
    "Two ties the project states outright are rules of their own, with no threshold: a family (ARC101) and "
    "a sibling pair (ARC104).",
))


def diagnostic(subject: str, label: str, path: str, line: int, column: int, name: str,
               evidence: Sequence[Evidence], sure: float, fix: Optional[FixRequest] = None) -> Diagnostic:
    reasons = "; ".join(e.text for e in _strongest(evidence))
    return Diagnostic(path, line, column, RULE.code,
                      f"'{name}' may belong in {label}: it {reasons} (confidence {sure:.2f})",
                      subject=subject, member=name, fix=fix)


def _strongest(evidence: Sequence[Evidence]) -> List[Evidence]:
    """The best piece of each kind, at most two: the message says why; `archsync why` says all."""
    seen, chosen = set(), []
    for e in evidence:
        if e.kind not in seen:
            seen.add(e.kind)
            chosen.append(e)
    return chosen[:2]


RULE = Rule(
    code="ARC105",
    name="kin-missing",
    summary="a subject holds an architecture but not another that runs the same code",
    what=_WHAT,
    why="A new variant is registered by subclassing the model it extends, and the lists that gate behaviour are "
        "updated for one name and not its kin (in SGLang, `class Glm4vMoeForConditionalGeneration("
        "Glm4vForConditionalGeneration)` was in a list its base was missing from until a later fix).",
    fix_doc="Add the name, or exempt it when the list deliberately tells the two apart.",
    exempt_doc="`[[tool.archsync.exempt]]` or `# noqa: ARC105`; `kinship = \"off\"` turns the rule off.",
    examples=(
        Example("a list with Llama but not Mistral, whose class subclasses Llama's and defines no method; two other "
                "lists hold both", (
            _MODELS,
            ("layers/rope.py", "SCALED_ROPE_ARCHS = [\"LlamaForCausalLM\", \"PhiForCausalLM\"]\n"),
            ("layers/attention.py", "SLIDING_WINDOW_ARCHS = [\"LlamaForCausalLM\", \"MistralForCausalLM\"]\n"
                                    "FUSED_QKV_ARCHS = [\"LlamaForCausalLM\", \"MistralForCausalLM\"]\n"),
        ), ("layers/rope.py:1:1: ARC105 'MistralForCausalLM' may belong in SCALED_ROPE_ARCHS: it runs the code "
            "of 'LlamaForCausalLM' (`class MistralForCausalLM(LlamaForCausalLM)` defines no method, at "
            "models/llama.py:6) (confidence 0.85)",), corrected=(
            ("layers/rope.py", "SCALED_ROPE_ARCHS = [\"LlamaForCausalLM\", \"MistralForCausalLM\", "
                               "\"PhiForCausalLM\"]\n"),
        )),
        Example("both held", (
            _MODELS,
            ("layers/rope.py", "SCALED_ROPE_ARCHS = [\"LlamaForCausalLM\", \"MistralForCausalLM\"]\n"),
        )),
        Example("a list that holds the subclass says nothing of its base: the subclass may be why it exists", (
            _MODELS,
            ("layers/rope.py", "SLIDING_WINDOW_ARCHS = [\"MistralForCausalLM\", \"PhiForCausalLM\"]\n"),
        )),
    ),
    check=check,
    check_again=check_again,
    severity="warning",
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("guard", "registries", "universe-from", "kinship", "exempt"),
)
