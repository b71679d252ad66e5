"""The values kinship is made of: the kinds of evidence, the ties read from byte signals, and the thresholds."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import FrozenSet, Tuple

IMPLEMENTATION, SUBCLASS, SHARED_BASE, BACKBONE, CONFIG_CLASS, VARIANT, GAP, COOCCURRENCE, SLIP, NAMESAKE = (
    "implementation", "subclass", "shared-base", "backbone", "config-class", "variant", "gap", "co-occurrence", "slip",
    "namesake")
WRAPS = "wraps"  # builds a held language model whole, as its own (`self.language_model = Lfm2ForCausalLM(...)`)
SAME_MODEL = "same-model"  # another name of a held model: registered to its class, of its lineage and task
FAMILY, SIBLING = "family", "sibling"  # stated by the project, decided by ARC101 and ARC104

MIN_SUPPORT = 3  # lists a held name must appear in before its company says anything
MIN_CONFIDENCE = 0.75  # share of those lists that also hold the candidate
MIN_TOGETHER = 2  # lists holding both before the project "treats them alike": one is an anecdote
# registered classes one config class may build before it says nothing (`LlamaConfig` builds many llama-likes)
MAX_CONFIG_USERS = 3
# a library's root class every model of that library subclasses (SGLang builds a few models on
# transformers' `PreTrainedModel` for its loading helpers): it says nothing about what runs
ROOT_BASES = frozenset({"PreTrainedModel"})


@dataclass(frozen=True)
class ClassEdge:
    """`class child(base)` (or `child = base`) at path:line, with how many methods the child defines."""

    child: str
    base: str
    methods: int  # -1: an alias
    path: str
    line: int


@dataclass(frozen=True)
class Backbone:
    """The module of `child` imports `backbone`, defined beside `owner` (at `path`) and named after it."""

    child: str
    owner: str  # the model class whose module defines the backbone (`Qwen3ForCausalLM`)
    backbone: str  # `Qwen3Model`
    path: str  # where `owner` and the backbone are defined


@dataclass(frozen=True)
class Wrapping:
    """`class child` builds `owner`, a served language model, whole (`self.language_model = owner(...)` at
    path:line), and no other: it runs that model as its own language model, head and all."""

    child: str
    owner: str
    path: str
    line: int


@dataclass(frozen=True)
class ConfigUse:
    """`class child` at path:line is built with `config` (its `__init__`'s `config: X`, or `config_class = X`)."""

    child: str
    config: str
    path: str
    line: int


@dataclass(frozen=True)
class ModuleClasses:
    """One module's byte signals that kinship reads: the names it imports and the classes it defines."""

    path: str
    imported: FrozenSet[str]
    defined: FrozenSet[str]
    roots: FrozenSet[str] = frozenset()  # classes it defines with no base (`class ModelBase:`)
    runs: FrozenSet[str] = frozenset()  # classes it defines whose body defines `forward` or `__call__`


@dataclass(frozen=True)
class Family:
    """The registered names one predicate matches (`is_qwen3_5()`), and where evidence says it is."""

    where: str  # `is_qwen3_5() (pkg/config.py:12)`
    names: FrozenSet[str]


@dataclass(frozen=True)
class Evidence:
    """One reason to believe `name` belongs where `kin` is, with its weight in [0, 1]."""

    kind: str
    weight: float
    kin: str
    text: str


@functools.lru_cache(maxsize=1 << 14)  # a file's signals are the same object while it is unchanged
def parse_configs(path: str, signals: FrozenSet[str]) -> Tuple[ConfigUse, ...]:
    """`Child:Config:line` signals of one file as config uses."""
    found = []
    for text in signals:
        child, config, line = text.split(":")
        found.append(ConfigUse(child, config, path, int(line)))
    return tuple(found)


@functools.lru_cache(maxsize=1 << 14)  # a file's signals are the same object while it is unchanged
def parse_builds(path: str, signals: FrozenSet[str]) -> Tuple[Wrapping, ...]:
    """`Child:Built:line` signals of one file as what each class builds whole (any number per class)."""
    found = []
    for text in signals:
        child, built, line = text.split(":")
        found.append(Wrapping(child, built, path, int(line)))
    return tuple(sorted(found, key=lambda w: (w.child, w.line, w.owner)))


@functools.lru_cache(maxsize=1 << 14)  # a file's signals are the same object while it is unchanged
def parse_edges(path: str, signals: FrozenSet[str]) -> Tuple[ClassEdge, ...]:
    """`Child:Base:methods:line` signals of one file as edges."""
    found = []
    for text in signals:
        child, base, methods, line = text.split(":")
        found.append(ClassEdge(child, base, int(methods), path, int(line)))
    return tuple(found)
