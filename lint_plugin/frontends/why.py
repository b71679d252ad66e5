"""`archsync why SUBJECT NAME`: every piece of kinship evidence for one (subject, name), and the verdict.

ARC105's message names the two strongest reasons; a maintainer deciding whether to add the
name or exempt it wants all of them, the combined confidence, what the threshold asks, and
which guard (if any) keeps the finding quiet. Locations are places (`diagnostics.place`), shown
from where the command runs. The same judgement `check` makes, printed. The
ties the project states outright (a family, a sibling pair) come first: ARC101 and ARC104
decide those, and a `why` that said "no evidence" beside their finding would contradict it.
"""
from __future__ import annotations

from typing import FrozenSet, List, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic, place
from ..report.causes import causes, merged
from ..resolve import Collection, Model, Predicate
from ..resolve.consumers import holder
from ..resolve.kinship import FAMILY, MIN_TOGETHER, SIBLING, Evidence
from ..resolve.lineage import names_lineage
from ..resolve.values import CLASS_NAME, INERT_WHY, MODEL_TYPE
from ..rules.arc105_kin_missing import THRESHOLDS, judge
from ..rules.arc106_host_copy_behind import copy_of
from ..rules.chains import refused_by_a_chain
from ..rules.evidence_rates import evidence_rates, pattern_of
from ..rules.kin_guards import kind_guard
from ..rules.kinds import accepts


def matching(model: Model, subject: str) -> List[Collection]:
    """Collections whose subject is `subject` (`Class.attr`, `fn.var` and `fn#n` as `inventory` prints them)."""
    return [c for c in model.collections if subject in (c.subject, c.label)]


def unchecked_list(model: Model, subject: str) -> Optional[str]:
    """Why a list of model types `inventory` names is no subject, or None when `subject` names none: `why` explains
    what `inventory` printed rather than saying there is no such thing."""
    found = [(path, line) for path, line, name in model.type_lists if name == subject]
    if not found:
        return None
    where = ", ".join(place(path, line) for path, line in found)
    if not model.registered:
        return (f"{subject} at {where} tests a checkpoint's `model_type`: a model type stands for the registered "
                f"architectures it names, and the project registers none, so it is not checked (name the registry "
                f"with `registries = [\"NAME\"]`, `\"path/to/module.py::NAME\"` or `\"@decorator\"`)")
    return (f"{subject} at {where} tests a checkpoint's `model_type`, and none of its model types names a registered "
            f"architecture (by archsync's table of `transformers` model types, or a list that ties one to a "
            f"registered name), so it is not checked")


def matching_families(model: Model, subject: str) -> List[Predicate]:
    """Families whose subject is `subject` (`is_qwen3_5`, or `is_qwen3_5()` as messages name it)."""
    return [f for f in model.families if subject in (f.subject, f.label)]


def explain_family(model: Model, family: Predicate, name: str, diagnostics: Sequence[Diagnostic]) -> str:
    """A family is completed on its own tests by ARC104 alone: its sibling ties, and what was reported."""
    own = sorted({o.name for o in family.own} & model.registered.keys())
    lines = [f"{family.label} at {place(family.path, family.line)}:{family.column} is a family: its own tests hold "
             f"{len(own)} registered name{'s' if len(own) != 1 else ''}"
             + (f" ({', '.join(own[:6])}{', ...' if len(own) > 6 else ''})" if own else "")]
    if name not in model.registered:
        lines.append(f"'{name}' is not a registered architecture: kinship is read between registered names only")
    siblings = [e for e in model.kinship.declared(name, own) if e.kind == SIBLING] if name not in own else []
    reported = [d for d in diagnostics if d.subject == family.subject and d.member == name and d.path == family.path]
    if siblings:
        lines.append("stated by the project (ARC104 decides a sibling pair: no threshold):")
        lines += [f"  {e.kind:<8} {e.text}" for e in siblings]
        lineage = frozenset(own) if names_lineage(family.subject, frozenset(own)) else frozenset()
        if not reported and not accepts(own, name, lineage, model.said):
            lines.append(f"  not reported: {kind_guard(name, model.said)}")
    else:
        lines.append(f"no sibling of '{name}' is in its own tests")
    lines.append("ARC105 weighs lists, not families: what a family matches is what its tests say")
    lines += [_reported(d, diagnostics) for d in reported]
    return "\n".join(lines) + "\n"


def explain_pair(model: Model, collection: Collection, name: str, diagnostics: Sequence[Diagnostic]) -> str:
    """What archsync weighs for `name` in `collection`, one piece of evidence a line (in a list of model
    types, `name` may be a model type: the architectures it names are weighed, each in turn)."""
    if collection.keyed == MODEL_TYPE and name not in model.registered and name in model.model_types.names:
        named = sorted(model.model_types.names[name])
        return f"'{name}' is a model type: it names {', '.join(named)}\n" + \
            "".join(explain_pair(model, collection, n, diagnostics) for n in named)
    level = model.config.kinship
    held = sorted(collection.members.names & model.registered.keys())
    lines = [f"{collection.label} at {place(collection.path, collection.line)}:{collection.column} holds "
             f"{len(held)} registered name{'s' if len(held) != 1 else ''}"
             + (f" ({', '.join(held[:6])}{', ...' if len(held) > 6 else ''})" if held else "")]
    lines.append(f"read: {readers(collection)}")
    if collection.hosts is not None:  # a plugin of several hosts (`resolve/host_scope.py`)
        served = ", ".join(sorted(collection.hosts)) or "none of them (the project's own names only)"
        lines.append(f"serves, of the hosts {', '.join(model.hosts)}: {served}")
    copied = copy_of(collection, model.host_lists)
    if copied is not None:
        label, listed = copied
        lines.append(f"a copy of the host's list {listed.subject} at {listed.path}:{listed.line}, which "
                     f"{'holds' if name in listed.names else 'does not hold'} '{name}' (ARC106; archsync's snapshot "
                     f"of {label})")
    if name not in model.registered:
        lines.append(f"'{name}' is not a registered architecture: kinship is read between registered names only")
    declared = model.kinship.declared(name, held) if name not in collection.members.names else []
    if declared:
        lines.append("stated by the project (ARC101 decides a family, ARC104 a sibling pair: no threshold):")
        lines += [f"  {e.kind:<8} {e.text}" for e in declared]
        quiet = _declared_quiet(model, collection, name, declared)
        if quiet and not any(d.subject == collection.subject and d.member == name and d.path == collection.path
                             for d in diagnostics):
            lines.append(f"  not reported: {quiet}")
    verdict = judge(model, collection, name)
    if verdict.evidence:
        lines.append(f"evidence that '{name}' belongs with what it holds:")
        lines += [f"  {e.weight:.2f}  {e.kind:<15} {e.text}" for e in verdict.evidence]
        lines.append(f"confidence {verdict.confidence:.2f} (the best piece of each kind, combined as independent)")
        lines.append(_alike(model, name, verdict.evidence, verdict.corroborated, verdict.clones))
        if name not in collection.members.names:
            lines.append(_in_its_lists(model, name, frozenset(held), verdict.set_aside))
    else:
        lines.append(f"no {'other ' if declared else ''}evidence ties '{name}' to what {collection.label} holds")
    if verdict.set_aside:
        lines.append(f"set aside: {verdict.set_aside_why}")
        lines += [f"  {e.weight:.2f}  {e.kind:<15} {e.text}" for e in verdict.set_aside]
    threshold = THRESHOLDS.get(level)
    rule = "off" if threshold is None else f"threshold {threshold:.2f}" + (
        ", and the project must treat them alike" if level == "strong" else "")
    refused = refused_by_a_chain(model, collection, name)
    if verdict.blocked or refused:
        lines.append(f"ARC105 stays quiet: {verdict.blocked or refused}")
    else:
        lines.append(f"ARC105 at kinship = \"{level}\" ({rule}): "
                     f"{'reported' if verdict.reported(level) else 'not reported'}")
    member = model.model_types.written_as(name) if collection.keyed == MODEL_TYPE else name
    for d in diagnostics:
        if d.subject == collection.subject and d.member == member and d.path == collection.path:
            lines.append(_reported(d, diagnostics))
    return "\n".join(lines) + "\n"


def readers(collection: Collection) -> str:
    """Who reads the subject and with what key (`resolve/consumers.py`): what decides whether it is completed."""
    if collection.unread:
        return f"not completed: {collection.unread}"
    if collection.scope == "inert":
        return f"not completed: its {INERT_WHY}"
    owner = holder(collection)
    how = "by its name (a call, an import or a mention beyond its definition)" if owner == collection.subject \
        else f"through {owner}(), named elsewhere in the project" if owner else \
        "always (an attribute, a method, a decorator's list, module-level code or a test)"
    key = "the class itself (it lists classes): asked for the class that serves a name, never for an alias" \
        if collection.members.classes else \
        "a Python class name (`type(model).__name__`): not asked for names served by another's class" \
        if collection.keyed == CLASS_NAME else "a model type (`config.model_type`): its model types stand for " \
        "the architectures they name, and what it lacks is written as a model type" \
        if collection.keyed == MODEL_TYPE else "an architecture name"
    return f"{how}; looked up with {key}"


def _reported(d: Diagnostic, diagnostics: Sequence[Diagnostic]) -> str:
    """The finding as `check` prints it: once for its cause, with the other places of the file it names."""
    group = next((g for g in causes(diagnostics) if any(p is d for p in g)), (d,))
    d = merged(group)
    once = f" (one cause, {len(group)} places)" if len(group) > 1 else ""
    return f"reported{once}: {place(d.path, d.line)}:{d.column}: {d.code} {d.message}"


def _declared_quiet(model: Model, collection: Collection, name: str, declared: Sequence[Evidence]) -> str:
    """The guard that keeps ARC101 and ARC104 quiet on a tie the project states, or ""."""
    if not collection.completable:
        return collection.not_completed
    refused = refused_by_a_chain(model, collection, name)
    if refused:
        return refused
    family = frozenset().union(*(f.names for f in model.kinship.families if name in f.names)) \
        if any(e.kind == FAMILY for e in declared) else frozenset()
    if accepts(collection.members.names, name, family, model.said):
        return ""
    return kind_guard(name, model.said)


def _in_its_lists(model: Model, name: str, held: FrozenSet[str], set_aside: Sequence[Evidence] = ()) -> str:
    """How often the project's own lists held a name tied to them as `name` is (`rules/evidence_rates.py`), by
    the evidence weighed (`set_aside`: what the subject does not weigh)."""
    pattern = pattern_of([e for e in model.kinship.evidence(name, held) if e not in set_aside])
    if not pattern:
        return "the project's lists meet no name tied by the code or company alone as this one is"
    times_held, lacked = evidence_rates(model).of(pattern)
    if not times_held + lacked:
        return f"in the project's own lists, no name is tied so ({', '.join(pattern)}), each member left out in " \
               "turn: nothing to count"
    return f"in the project's own lists, a name tied so ({', '.join(pattern)}) was held {times_held} " \
           f"time{'s' if times_held != 1 else ''} and lacked {lacked} (each member left out in turn): " \
           f"{times_held / (times_held + lacked):.2f} held"


def _alike(model: Model, name: str, evidence: Sequence[Evidence], corroborated: bool,
           clones: Tuple[Tuple[str, ...], str] = ((), "")) -> str:
    """Does the project treat them alike, as `kinship = "strong"` asks, and by what."""
    if not corroborated:
        return "the project does not treat them alike: one kind of evidence, fewer than two lists hold both, " \
               "and the subject holds fewer than two other names that run the same code"
    if clones[0]:
        held = ", ".join(f"'{c}'" for c in clones[0])
        return f"the project treats them alike: the subject holds {held} beside '{clones[1]}', each running the " \
               f"code of '{clones[1]}' as '{name}' does"
    company = sorted(((model.kinship.together(e.kin, name), e.kin) for e in evidence), reverse=True)
    if company and company[0][0] >= MIN_TOGETHER:
        both, kin = company[0]
        lists = "1 of its lists holds" if both == 1 else f"{both} of its lists hold"
        return f"the project treats them alike: {lists} both '{kin}' and '{name}'"
    return "the project treats them alike: more than one kind of evidence"
