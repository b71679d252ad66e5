"""Choose the files that may matter, build the model from them, and choose again where it registers names the
choice never saw.

The prefilter chooses files by the names the index sees registered before any file is chosen
(`selection.choice_universe`), read file by file. Resolution decides what is registered over the whole project,
and may register names that choice never saw: a support table (`SUPPORTED_ARCHS = dict(...)`) registers only
where nothing else does, and early lmdeploy's TurboMind readers, filed under model types
(`@INPUT_MODELS.register_module(name="llama")`), are read file by file as registering `LlamaForCausalLM` and three
more, then set aside as a registry of names of its own. Files quoting only the support table's names
(`check_vl_llm()`'s list) were never chosen, and `--no-prefilter` saw 30 subjects more. So those names choose
files too, and the model is built again, until nothing registered is unseen: what the prefilter skips never
changes a result.
"""
from __future__ import annotations

from typing import AbstractSet, Iterable, Iterator, Optional, Tuple

from ..extract.facts import Literal
from ..project.index import ProjectIndex
from ..project.universe import Universe
from .memory import ResolveMemory
from .model import Model, build_model
from .model_types import typed_lists
from .selection import choice_universe, choose_files

_ROUNDS = 3  # each round chooses every file a name registered so far quotes: a third has never been needed


def choose_and_build(index: ProjectIndex, universe: Universe, memory: Optional[ResolveMemory] = None,
                     library: Optional[Universe] = None) -> Tuple[Model, Optional[ResolveMemory]]:
    """The model of the files chosen, each name it registers having chosen the files that quote it. `memory`:
    what the last run left (`ResolveMemory`); given one, the memory this run leaves is returned with the model.
    `library`: `universe` with transformers' registrations, for a project that may serve its models
    (`universe.with_library`); the model is built with it where the project does (`serves_library`)."""
    model, memory = _chosen_and_built(index, universe, memory)
    if library is not None and serves_library(model, frozenset(library.names) - frozenset(universe.names),
                                              _written(index, library)):
        model, memory = _chosen_and_built(index, library, memory)
    return model, memory


def serves_library(model: Model, library: AbstractSet[str], quoted: Iterable[AbstractSet[str]]) -> bool:
    """Does the project serve the library's models (`library`: the names only it registers)? It registers none
    of its own, or its files write more of the library's names than of its own (`_written`): optimum-intel
    registers three drafts and quotes Qwen-VL's names; ipex-llm registers seven LangChain wrappers
    (`"LlamaLLM": LlamaLLM`) and tests 29 of transformers' model types; SGLang, vLLM, lmdeploy (its support
    tables, before it had a registry) write their own (vLLM 249 quoted names against 8)."""
    if not model.registered:
        return True
    written = frozenset().union(*quoted)
    return len((written & library) - model.registered.keys()) > len(written & model.registered.keys())


def _written(index: ProjectIndex, library: Universe) -> Iterator[AbstractSet[str]]:
    """The architectures each file writes: the names it quotes, and those the library's table pairs with the model
    types its lists of model types hold (`model_types.typed_lists`): `model_type == "qwen2"` names Qwen2's
    architectures as `"Qwen2ForCausalLM"` would."""
    for _, signals in index.signals():
        yield signals.quoted
    table = library.model_types
    for _, fact in typed_lists(index):
        yield frozenset(name for part in fact.parts if isinstance(part, Literal) for member in part.members
                        for name in table.checkpoints(member.name))


def _chosen_and_built(index: ProjectIndex, universe: Universe, memory: Optional[ResolveMemory]
                      ) -> Tuple[Model, Optional[ResolveMemory]]:
    names = choice_universe(index, universe.names)
    resolve = choose_files(index, memory, names)
    model, resolve = build_model(index, universe, resolve)
    for _ in range(_ROUNDS if index.config.prefilter else 0):  # without the prefilter every file is read
        unseen = frozenset(model.registered) - names  # registered, but never chose a file
        if not unseen:
            break
        names = choice_universe(index, names | unseen)
        resolve = choose_files(index, resolve, names)
        model, resolve = build_model(index, universe, resolve)
    return model, resolve
