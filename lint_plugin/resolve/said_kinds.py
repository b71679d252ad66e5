"""What a project's own code says of a name's kind, where its spelling says nothing (`rules/kinds.py`).

Two things, both read from the code and never from a list of names:

- `multimodal`: members of the lists and registries the project names as its multimodal ones
  (`multimodal_model_archs`, `_MULTIMODAL_MODELS`, `check_vl_llm()`; `resolve/model.py`).
- `headless`: names whose spelling names no task (`BertModel`, `Contriever`, `XLMRobertaModel`) served
  by a class the project defines, when neither that class nor any base the project gives it is spelt as
  a generation head (`...ForCausalLM`, `...ForConditionalGeneration`, `...LMHeadModel`, `...LM`), nor
  does its module import one (`resolve/kinship/code.py`). Such a model returns hidden states, not tokens,
  as classification, reward and embedding models do: a list of the project's non-generative models
  (SGLang's `is_generation_model`) is about it, and a list of generative ones is not. A name served by
  another name's class says what that class is (vLLM's `LlamaModel` is served by `LlamaForCausalLM`:
  generative code, adapted at run time).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet


@dataclass(frozen=True)
class SaidKinds:
    """Names the project's code gives a kind their spelling does not (module docstring)."""

    multimodal: FrozenSet[str] = frozenset()
    headless: FrozenSet[str] = frozenset()  # `Kinship.headless`


NOTHING_SAID = SaidKinds()
