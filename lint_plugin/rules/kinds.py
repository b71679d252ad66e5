"""Kinds of architecture names, and the kind guard: a list is never told to hold a kind it does not hold.

A multimodal allow-list is not told to hold text-only twins, a list of served architectures is
not told to hold draft (speculative) variants, a list of generative models is not told to hold
classification adapters. What a list holds says what it is for: a name of kind K is demanded
from a subject only when K is a real share of it (at least a fifth of its names, and one at
least), or when every name of the subject belongs to the family that implies the missing name
(a list about one lineage holds that whole lineage, whatever its kinds). Draft variants are
only ever demanded from a subject that holds a draft variant.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import AbstractSet, Iterable

DRAFT, MULTIMODAL, CLASSIFICATION, TEXT = "draft", "multimodal", "classification", "text"

_DRAFT = re.compile(r"(?:NextN|MTP|DSpark|DFlash|Eagle\d*|Medusa|Draft|Assistant)(?:Model|ForCausalLM)?$|"
                    r"For(?:CausalLM)?(?:NextN|MTP|Eagle\d*)")
_CLASSIFICATION = re.compile(r"(?:For(?:Sequence|Token|Audio|Image|Video)Classification|ForRewardModel(?:ing)?|"
                             r"RewardModel|ClassificationModel|ForTextEncoding|ForEmbedding|EmbeddingModel|ForScore)$")
_MULTIMODAL = re.compile(r"ForConditionalGeneration$|VL|Vision|Visual|Llava|LLaVA|OCR|Omni|MM(?![a-z])|ASR|Audio|"
                         r"Speech|Image|Video|CLIP|Siglip|Whisper")

_SHARE = 0.2


def kind(name: str) -> str:
    """The kind a name's spelling says: draft, classification, multimodal, else text."""
    if _DRAFT.search(name):
        return DRAFT
    if _CLASSIFICATION.search(name):
        return CLASSIFICATION
    if _MULTIMODAL.search(name):
        return MULTIMODAL
    return TEXT


def accepts(held: Iterable[str], name: str, family: AbstractSet[str] = frozenset()) -> bool:
    """May a subject holding `held` be told to hold `name` (implied by `family`, if any)?"""
    held = list(held)
    wanted = kind(name)
    counts = Counter(kind(n) for n in held)
    if wanted == DRAFT:
        return counts[DRAFT] > 0
    if family and held and all(n in family for n in held):
        return True  # a list about this lineage alone
    return counts[wanted] > 0 and counts[wanted] >= _SHARE * len(held)
