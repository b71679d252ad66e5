"""What if/elif chains say about completing a list: where a name is handled, and where it must be too.

`if t in ["A", "B"]: ... elif t in ["C"]: ...` tells names apart on purpose: each branch does
something else with its own. So no completion rule (ARC101, ARC102, ARC104, ARC105) asks one
branch's list to hold a name another branch of its chain holds: the first branch that holds a name
takes it, and adding it to an earlier one would change what the later one does. The lists of one `or`
(`archs & {"A"} or model_type in {"a", "b"}`) are read the same way, written in it or searched by name
(`model_type in _TYPES or any(a in _ARCHS for a in archs)`): a name either takes is taken.

A chain of the list's own function that tests a name in a branch apart from the list's names tells
them apart in that function: lmdeploy's Qwen3.5 vision builder loads its InternS2 checkpoints in a
branch of their own, with remote code, and the test after the chain that holds the two Qwen3.5 names
is about exactly those two.

A test written where only the values another list holds reach it (`if arch in SUPPORTED_ARCHS: ...
elif arch in [...]`, the `elif`s of `if arch not in SUPPORTED_ARCHS`, the rest of a block after `if arch not
in SUPPORTED_ARCHS: return`, the terms after `arch in SUPPORTED_ARCHS and`) is reached only by the names
that list holds: a name it lacks never gets there, and adding it to the inner
list alone changes nothing (`extract/gates.py`).

A chain of the list's module whose branches take the list's names one by one is the per-model half
of what the list gates (SGLang's `is_hybrid_swa_model` list, and `get_hybrid_layer_ids`, which
computes each of those models' sliding-window layers in a branch of its own): a name it has no
branch for lacks that code, and adding it to the list alone would break the model, not fix it.
"""
from __future__ import annotations

from typing import AbstractSet, Dict, List, Optional, Sequence, Tuple

from ..diagnostics import Diagnostic, place
from ..resolve import Collection, Model
from ..resolve.values import Dispatch

# The guards this module applies to every completion rule (ARC101, ARC102, ARC104, ARC105, ARC107), in the order
# they are asked, as the rules' pages show them beside their own (`kin_guards.py`)
GUARD_ROWS: Tuple[Tuple[str, str], ...] = (
    ("another branch", "a name another branch of the subject's if/elif chain tests (`elif arch in [...]`): handled "
                       "there; or one the other side of an `or` takes (`archs & {...} or model_type in {...}`, "
                       "`model_type in _TYPES or any(a in _ARCHS for a in archs)`)"),
    ("outer test", "a name another list lacks, where the subject's test sits inside a test of the same value "
                   "against that list (`if arch in SUPPORTED_ARCHS: ... elif arch in [...]`): it never gets there"),
    ("picked out", "a name a test of the same function holds, where the subject's test sits inside it and picks "
                   "some of its names (`if mt in {\"qwen2_moe\", \"qwen3_moe\", \"qwen3_next\"} or ...:` around "
                   "`if mt in {\"qwen2_moe\", \"qwen3_next\"}:`): left out by choice"),
    ("told apart", "a name a chain of the subject's own function tests in a branch apart from the subject's names"),
    ("no branch", "a name an if/elif chain of the subject's module has no branch for, where the chain takes most "
                  "of the subject's names one by one: the list alone would not make the model work"),
)


def _branch_missing(chains: Sequence[Dispatch], collection: Collection, held: AbstractSet[str],
                   name: str) -> Optional[Dispatch]:
    """The chain of `collection`'s module that takes most of what it holds (three names at least) in two
    branches or more, one by one, and has no branch for `name`; or None. A chain one of whose tests
    searches the list itself (`elif arch in HYBRID_ARCHS`) takes the name once the list holds it."""
    for chain in chains:
        if collection.subject in chain.subjects or collection.subject in chain.searched or name in chain.names:
            continue  # its own chain; or one that searches the list itself, which takes the name once it holds it
        taken = [branch & held for branch in chain.branches if branch & held]
        count = len(frozenset().union(*taken)) if taken else 0
        if len(taken) > 1 and count >= 3 and 2 * count > len(held):
            return chain
    return None


def _told_apart(model: Model, chains: Sequence[Dispatch], collection: Collection, held: AbstractSet[str],
                name: str) -> Optional[Dispatch]:
    """A chain of `collection`'s own function, not its own chain, that tests `name` in a branch holding none
    of `held` and some of `held` in others; or None. A branch that searches a list of the module
    (`elif arch in _INTERN_S2_ARCHS`) tests what that list holds."""
    function = function_of(collection.subject)
    if not function:
        return None
    for chain in chains:
        if collection.subject in chain.subjects or not any(function_of(s) == function for s in chain.subjects):
            continue
        searched = [c.members.names for c in model.collections
                    if c.path == collection.path and c.subject in chain.searched]
        branches = chain.branches + tuple(searched)
        if any(name in branch and not branch & held for branch in branches) and chain.names & held:
            return chain
    return None


def _picked_out(model: Model, collection: Collection, held: AbstractSet[str], name: str) -> Optional[Collection]:
    """A literal of the subject's function that a test enclosing the subject's tests on the same value (alone or as
    a term of an `or`: `Model.admitting`) and that holds `name` and every registered name the subject holds; or
    None. The inner test was written where those names reach it, and picks some: the one it leaves out is a
    choice, not a list left behind (ms-swift's shared-expert gate, `{"qwen2_moe", "qwen3_next"}` inside a test
    of the MoE model types that holds `qwen3_moe`, which has no shared experts)."""
    for gate in model.admitting.get((collection.path, collection.subject), ()):
        if name in gate.members.names and held <= gate.members.names:
            return gate
    return None


def function_of(subject: str) -> str:
    """The function an inline test is written in (`Model.build#3` -> `Model.build`), or ""."""
    owner, found, _ = subject.partition("#")
    return owner if found and not owner.startswith("@") else ""


def _unreached(model: Model, collection: Collection, name: str) -> Optional[Collection]:
    """A list `collection`'s test sits inside a test of (`Model.gates`) that does not hold `name`, written out in
    full (nothing unresolved, no pattern); or None."""
    for gate in model.gates.get((collection.path, collection.subject), ()):
        if not gate.members.unknown and not gate.members.patterns and name not in gate.members.names:
            return gate
    return None


def refused_by_a_chain(model: Model, collection: Collection, name: str) -> str:
    """Why no completion rule asks `collection` for `name`: the test sits where only another list's names
    reach it (`_unreached`), or inside a test that admits the name and picks some of what it admits
    (`_picked_out`), a chain of its function tells the name apart from the list's names (`_told_apart`),
    or a chain beside it takes its names one by one and not this one (`_branch_missing`); or "". `why` says it,
    and `not_refused_by_a_chain` acts on it."""
    if name in collection.members.names:
        return ""
    gate = _unreached(model, collection, name)
    if gate is not None:
        return f"the test sits inside a test of the same value against {gate.subject} " \
               f"({place(gate.path, gate.line)}), which does not hold '{name}': only the names it holds reach it"
    held = collection.members.names & model.registered.keys()
    around = _picked_out(model, collection, held, name)
    if around is not None:
        return f"the test sits inside a test of the same value against {around.subject} " \
               f"({place(around.path, around.line)}), which holds '{name}' and the subject's names: the subject " \
               "picks some of them, and leaves it out by choice"
    chains = model.dispatches.get(collection.path, ())
    apart = _told_apart(model, chains, collection, held, name)
    if apart is not None:
        return f"the if/elif chain at {place(apart.path, apart.line)}, in the same function, tests '{name}' in a " \
               "branch apart from the subject's names: the function tells them apart"
    chain = _branch_missing(chains, collection, held, name)
    if chain is None:
        return ""
    count = len(chain.names & held)
    return f"the if/elif chain at {place(chain.path, chain.line)} takes {count} of the subject's {len(held)} " \
           f"names one by one and has no branch for '{name}': added to the list alone, the model would reach " \
           "code that does not handle it"


def not_taken_by_another_branch(model: Model, found: List[Diagnostic]) -> List[Diagnostic]:
    """`found`, less each name a list is asked to hold that another branch of its chain holds."""
    chained: Dict[Tuple[str, str], Collection] = {(c.path, c.subject): c for c in model.collections if c.beside}
    if not chained:
        return found
    kept = []
    for diagnostic in found:
        collection = chained.get((diagnostic.path, diagnostic.subject or ""))
        if collection is not None and diagnostic.fix is not None and diagnostic.fix.action == "add" \
                and diagnostic.member in collection.beside:
            continue
        kept.append(diagnostic)
    return kept


def not_refused_by_a_chain(model: Model, found: List[Diagnostic]) -> List[Diagnostic]:
    """`found`, less each name a list is asked to hold that never reaches its test, that a chain of its function
    tells apart from the list's names, or that a chain of its module takes the list's names one by one without
    (`refused_by_a_chain`)."""
    if not model.dispatches and not model.gates and not model.admitting:
        return found
    at = {(c.path, c.subject): c for c in model.collections
          if c.path in model.dispatches or (c.path, c.subject) in model.gates or (c.path, c.subject) in model.admitting}
    kept = []
    for diagnostic in found:
        collection = at.get((diagnostic.path, diagnostic.subject or ""))
        if collection is not None and diagnostic.fix is not None and diagnostic.fix.action == "add" and \
                refused_by_a_chain(model, collection, diagnostic.member or ""):
            continue
        kept.append(diagnostic)
    return kept
