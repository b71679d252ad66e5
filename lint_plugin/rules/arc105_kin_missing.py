"""ARC105 kin-missing: a subject holds an architecture but not its kin, by what the code itself says."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import AbstractSet, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic, FixRequest, place
from ..resolve import Collection, Model
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
    weights,
)
from ..resolve.namesakes import namesakes
from ..resolve.parts import part_of
from . import kin_guards, memory_arc105
from .chains import GUARD_ROWS
from .fixes import add_to
from .kin_guards import blocked, not_a_list_to_complete, one_name_test, own_registry, own_tables
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
    set_aside_why: str = ""  # why they are (`_set_aside`)

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
        tables = own_tables(model, c) + (own_registry(model, c), _engine_table(model, c))
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
    set_aside, aside_why = _set_aside(model, collection, name, found)
    found = [e for e in found if e not in set_aside]
    evidence = tuple(e for e in found if not _through_a_spelling(model, name, e)) or tuple(found)
    if not refused and evidence and all(_through_a_spelling(model, name, e) for e in evidence):
        refused = f"it is tied only to '{evidence[0].kin}', a second spelling of a class the subject does not " \
                  "name: the subject is about that spelling's checkpoints"
    together = corroborated(model.kinship, name, evidence)
    clones = ((), "") if together else _clones_beside(model, collection, held, name, evidence)
    return Verdict(evidence, confidence(evidence), together or bool(clones[0]), refused, clones, set_aside, aside_why)


def _set_aside(model: Model, collection: Collection, name: str,
               found: Sequence[Evidence]) -> Tuple[Tuple[Evidence, ...], str]:
    """The code evidence the subject does not weigh, and why: the classes it is read from build no model (a
    converter's: `Kinship.builds_a_model`), or a registry of another part of the project gives it where the subject
    is the table of an engine of its own (`_of_another_engine`): what those classes share says nothing of it."""
    code = [e for e in found if e.kind in _CODE]
    if not code:
        return (), ""
    own = part_of(collection.path)
    if _of_another_engine(model, collection, name):
        return tuple(code), f"{collection.label} names a class of {own}/'s own engine for each name (its values are " \
                            f"keys its decorators file classes under), and '{name}' is registered in " \
                            f"{part_of(model.registered[name].path)}/: what that registry's classes share says " \
                            "nothing of it"
    idle = [(e, names) for e in code for names in (not_models_of(model, name, e.kin),) if names]
    if not idle:
        return (), ""
    classes = sorted({model.kinship.registered_class.get(n, n) for _, names in idle for n in names})
    builds, it, cls, shares = ("builds", "it", "class", "it shares") if len(classes) == 1 else \
        ("build", "them", "classes", "they share")
    why = f"{', '.join(classes)} {builds} no model (no `forward` or `__call__` in {it} or in the bases the project " \
          f"gives {it}, down to one that names no base: a converter's {cls}): what {shares} says nothing of the " \
          "code the models run"
    return tuple(e for e, _ in idle), why


def not_models_of(model: Model, name: str, kin: str) -> Tuple[str, ...]:
    """Of `name` and `kin`, those served by a class that builds no model (`Kinship.builds_a_model`)."""
    return tuple(n for n in (name, kin) if not model.kinship.builds_a_model(n))


def _of_another_engine(model: Model, collection: Collection, name: str) -> bool:
    """Is the subject a table in which its part of the project names a class of its own engine for each name
    (`resolve/engine_tables.py`: lmdeploy's TurboMind `SUPPORTED_ARCHS`), and `name` registered in another part
    (`resolve/parts.py`)? What that registry's classes share (an implementation, a subclass, a backbone) says
    what its engine runs, not which checkpoints this one's classes take: set aside."""
    where = model.registered.get(name)
    return (collection.path, collection.subject) in model.engine_tables and where is not None \
        and part_of(where.path) != part_of(collection.path)


def _engine_table(model: Model, collection: Collection) -> FrozenSet[str]:
    """The subject's name where it is the table of an engine of its own (`_of_another_engine`), which other files
    decide (the keys their decorators file classes under): kept with what the language server weighed."""
    return frozenset({collection.subject}) if (collection.path, collection.subject) in model.engine_tables \
        else frozenset()


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


_WHAT = "\n\n".join((
    "A list that holds one architecture usually means \"this implementation\". ARC105 weighs the evidence, read from "
    "the code, that a registered name the subject lacks belongs with a name it holds (the first table), combines "
    "the best piece of each kind as independent (three pieces of 0.5 make 0.875), and reports the name when the "
    "confidence clears the `kinship` level and no guard refuses it (the second table).",
    "At `kinship = \"strong\"` (the default) the threshold is 0.8 and the project must also treat the two alike: a "
    "second kind of evidence, or two of its lists that hold both, or, for a subclass that defines no method, two "
    "more such clones of the held model in the subject itself (a list, not a table of per-checkpoint values such as "
    "pad tokens, which is about checkpoints, not code). Why: in a project's own lists, each member left out in turn "
    "(SGLang, vLLM, lmdeploy), a name tied to a list's members by the code alone was held under a fifth of the time, "
    "and one that the lists also hold beside them 83% of the time. `\"all\"` takes 0.3, and `\"off\"` turns the "
    "rule off. `archsync why SUBJECT NAME` prints every piece, its weight, the confidence, how often the project's "
    "lists held a name so tied, and the guard that decided; `python -m bench.base_rates` prints those counts for a "
    "whole tree.",
    "| evidence | weight | when |\n|---|---|---|\n" + "\n".join(
        f"| {row.kind} | {row.weight} | {row.when} |" for row in weights.TABLE),
    "Never reported, whatever the evidence: the guards, asked in this order (the first that refuses decides; the "
    "last four, the chains', hold for every completion rule). A second name of a held model (registered to its "
    "class, of its lineage and task, in the part of the project the registry is in) passes the not-completed, "
    "spelling and kind guards: it is what the subject holds under another name.",
    kin_guards.table(GUARD_ROWS),
    "The code evidence (implementation, subclass, backbone, wraps, shared base, config class) is read from the "
    "classes a registry binds, and says which names run the same model code. It is set aside where those classes "
    "build no model: neither they nor any base the project gives them define `forward` or `__call__`, and every line "
    "of their bases ends within the project at a class that names none (auto-round ships a copy of llama.cpp's GGUF "
    "converter, `class DeepseekV2Model(TextModel)`, whose classes are the only ones it registers: that DeepSeek-V2 "
    "and V3 checkpoints convert alike says nothing of which models its tables of model patches need). And in the "
    "table of an engine of the subject's own part: a table whose values are mostly keys its part's decorators file "
    "classes under (lmdeploy's TurboMind `SUPPORTED_ARCHS = dict(DeepseekV2ForCausalLM=\"deepseek2\")`, with "
    "`@INPUT_MODELS.register_module(name=\"deepseek2\")`) is that engine's registry by another name, and that the "
    "PyTorch engine serves DeepSeek-V3 with DeepSeek-V2's class says nothing of whether TurboMind's `deepseek2` "
    "reader takes a V3 checkpoint (it never did). `archsync why` shows the pieces set aside, and why.",
    "A list a checkpoint's `model_type` is tested against (`config.model_type in (\"deepseek_v2\", "
    "\"glm4_moe\")`) is weighed as the registered architectures its model types name, and what it lacks is "
    "written as a model type (`archsync explain ARC101`).",
    "A project serving transformers' models registers transformers' classes, whose lineage transformers writes in "
    "its modular files (`class Qwen3VLMoeForConditionalGeneration(Qwen3VLForConditionalGeneration)`): archsync's "
    "snapshot of transformers holds it, and it counts as a subclass that overrides, where the names say the two are "
    "versions of one model (a modular base is otherwise only where the code was copied from: 34 models subclass "
    "`LlamaForCausalLM`).",
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
