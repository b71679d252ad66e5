"""Kinds of architecture names, and the kind guard: a list is never told to hold a kind it does not hold.

A name's kind comes from its spelling (`...NextN` is a draft, `...ForSequenceClassification` a
classification adapter, `...VLForConditionalGeneration` multimodal) and from what the project
says: every member of a list or registry whose name says it lists multimodal models
(`multimodal_model_archs`, `_MULTIMODAL_MODELS`, a list inside `check_vl_llm()`, an engine's
`SGLANG_SUPPORTED_VISION_MODEL_LIST` beside its `SGLANG_SUPPORTED_MODELS`) is multimodal, however it
is spelt (lint_plugin.resolve.model); a name that names no task (`BertModel`, `Contriever`) served by
code with no generation head is of the classification and embedding models' kind
(lint_plugin.resolve.said_kinds).

A multimodal allow-list is not told to hold text-only twins, a list of served architectures is
not told to hold draft (speculative) variants, a list of generative models is not told to hold
classification adapters. What a list holds says what it is for: a name of kind K is demanded
from a subject only when K is a real share of it (at least a fifth of its names, and one at
least), or when every name of the subject belongs to the family that implies the missing name (a
list about one lineage holds that whole lineage, whatever its kinds; subjects found by shape that
test a single name take no part in these rules, but for ARC105's second name of the model they test,
which is of its kind by construction). Draft variants are
only ever demanded from a subject that holds a draft variant, and as any other kind, where drafts
are a fifth of it (ATOM's adapter table of fifteen served models and one Eagle3 draft is not told
to hold DeepSeek-V4's NextN).
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from typing import TYPE_CHECKING, AbstractSet, FrozenSet, Iterable, Mapping

from ..resolve.kinship.names import SPELT_TASK
from ..resolve.said_kinds import NOTHING_SAID, SaidKinds

if TYPE_CHECKING:  # the kinds are read from names alone; one helper takes the resolved model
    from ..resolve import Model

DRAFT, MULTIMODAL, CLASSIFICATION, TEXT = "draft", "multimodal", "classification", "text"

_DRAFT = re.compile(r"(?:NextN|MTP|DSpark|DFlash|Eagle\d*|Medusa|Draft|Assistant)(?:Model|ForCausalLM)?$|"
                    r"For(?:CausalLM)?(?:NextN|MTP|Eagle\d*)")
# a qualifier may follow the task (`LlamaForSequenceClassificationWithNormal_Weights`)
_CLASSIFICATION = re.compile(r"(?:For(?:Sequence|Token|Audio|Image|Video)Classification(?:With\w*)?|"
                             r"ForRewardModel(?:ing)?|RewardModel|ClassificationModel|ForTextEncoding|ForEmbedding|"
                             r"Embed(?:ding)?Model|ForScore|ForRanking|ForMaskedLM|ForProcessRewardModel)$")
# Judged on the stem (`Phi4MM` of `Phi4MMForCausalLM`), so a suffix typo (`...ForCausalLMM`) says nothing.
_MULTIMODAL = re.compile(r"VL|Vision|Visual|Llava|LLaVA|OCR|Omni|MM(?![a-z])|ASR|Audio|Speech|Image|Video|CLIP|Siglip|"
                         r"Whisper")

_SHARE = 0.2


def kind(name: str, said: SaidKinds = NOTHING_SAID) -> str:
    """The kind of a name: its spelling, or where that names none, the project's own word (`said`: the names it
    lists as multimodal, and those its code serves with no generation head, which are of the classification and
    embedding models' kind)."""
    spelt = _spelt(name)
    if spelt != TEXT:
        return spelt
    if name in said.multimodal:
        return MULTIMODAL
    return CLASSIFICATION if name in said.headless else TEXT


@functools.lru_cache(maxsize=1 << 16)  # asked for every name of every subject, again and again
def _spelt(name: str) -> str:
    """The kind a name's spelling says (TEXT: none of the others)."""
    if _DRAFT.search(name):
        return DRAFT
    if _CLASSIFICATION.search(name):
        return CLASSIFICATION
    task = SPELT_TASK.search(name)
    stem = name[:task.start()] if task and task.start() > 0 else name
    if name.endswith("ForConditionalGeneration") or _MULTIMODAL.search(stem):
        return MULTIMODAL
    return TEXT


def accepts(held: Iterable[str], name: str, family: AbstractSet[str] = frozenset(),
            said: SaidKinds = NOTHING_SAID) -> bool:
    """May a subject holding `held` be told to hold `name` (implied by `family`, if any)?"""
    names = held if isinstance(held, frozenset) else list(held)
    wanted = kind(name, said)
    counts = _kinds(names, said) if isinstance(names, frozenset) else Counter(kind(n, said) for n in names)
    if wanted == DRAFT and not counts[DRAFT]:
        return False  # even a list about one lineage: a list of served models holds no draft
    if family and names and all(n in family for n in names):
        return True  # a list about this lineage alone
    return counts[wanted] > 0 and counts[wanted] >= _SHARE * len(names)


@functools.lru_cache(maxsize=1 << 12)  # a subject's names are weighed against candidate after candidate
def _kinds(held: FrozenSet[str], said: SaidKinds) -> Counter[str]:
    """How many names of each kind `held` holds (not to be changed: shared by the callers)."""
    return Counter(kind(n, said) for n in held)


def never_looked_up(keyed: str, name: str, served_by: Mapping[str, str]) -> bool:
    """Can `name` never be a key of a collection looked up with a class name (`type(model).__name__`)?

    So when the registry serves it with another name's class: a config alias never is the class a
    model object has, so a table of classes is not told to hold it (`resolve/consumers.py`).
    """
    return keyed == "class-name" and served_by.get(name, name) != name


def served_classes(model: "Model") -> FrozenSet[str]:
    """The classes the registry builds, and the model classes the project defines: what a table looked up with a
    class name (`TABLE[type(model).__name__]`) is keyed by."""
    return frozenset(model.kinship.registered_class.values()) | frozenset(model.kinship.classes) \
        | model.unregistered_classes
