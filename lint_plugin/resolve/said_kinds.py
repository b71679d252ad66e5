"""What a project's own code says of a name's kind, where its spelling says nothing (`rules/kinds.py`).

Two things, both read from the code and never from a list of names:

- `multimodal`: members of the lists and registries the project names as its multimodal ones
  (`multimodal_model_archs`, `_MULTIMODAL_MODELS`, `check_vl_llm()`; `resolve/model.py`).
- `headless`: names whose spelling names no task (`BertModel`, `Contriever`, `XLMRobertaModel`) served
  by a class the project defines, when neither that class nor any base the project gives it is spelt as
  a generation head (`...ForCausalLM`, `...ForConditionalGeneration`, `...LMHeadModel`, `...LM`). Such a
  model returns hidden states, not tokens, as classification, reward and embedding models do: a list of
  the project's non-generative models (SGLang's `is_generation_model`) is about it, and a list of
  generative ones is not. A name served by another name's class says what that class is
  (vLLM's `LlamaModel` is served by `LlamaForCausalLM`: generative code, adapted at run time).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import AbstractSet, FrozenSet, Iterable, Mapping, Tuple

from .kinship import ClassEdge

# a task in the name's own spelling (`...ForSequenceClassification`, `...ForCausalLM`): its spelling decides
_TASK = re.compile(r"For[A-Z]")
# a class that returns tokens: its spelling names a generation head
_GENERATION_HEAD = re.compile(r"CausalLM|ConditionalGeneration|LMHead|LM$")


@dataclass(frozen=True)
class SaidKinds:
    """Names the project's code gives a kind their spelling does not (module docstring)."""

    multimodal: FrozenSet[str] = frozenset()
    headless: FrozenSet[str] = frozenset()


NOTHING_SAID = SaidKinds()


def headless(registered_class: Mapping[str, str], classes: Mapping[str, Tuple[ClassEdge, ...]],
             defined: AbstractSet[str]) -> FrozenSet[str]:
    """Registered names whose spelling names no task, served by a class of the project (`defined`) whose
    lineage (`classes`: child -> its edges) holds no class spelt as a generation head."""
    return frozenset(name for name, served_by in registered_class.items()
                     if not _TASK.search(name) and not _GENERATION_HEAD.search(name) and served_by in defined
                     and not any(_GENERATION_HEAD.search(c) for c in _lineage(served_by, classes)))


def _lineage(cls: str, classes: Mapping[str, Tuple[ClassEdge, ...]]) -> Iterable[str]:
    """`cls` and every base the project gives it, transitively (an alias's target too)."""
    seen = {cls}
    todo = [cls]
    while todo:
        for edge in classes.get(todo.pop(), ()):
            if edge.base not in seen:
                seen.add(edge.base)
                todo.append(edge.base)
    return seen
