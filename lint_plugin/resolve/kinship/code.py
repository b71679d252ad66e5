"""Evidence read from the code: config classes shared, mixture-of-experts layers, backbones composed, heads."""
from __future__ import annotations

import functools
import re
from typing import AbstractSet, Dict, FrozenSet, Iterable, List, Mapping, Sequence, Set, Tuple

from ...extract.spelling import EXPERT_LAYER
from .evidence import MAX_CONFIG_USERS, Backbone, ClassEdge, ConfigUse, ModuleClasses, Wrapping
from .names import SPELT_TASK, TASK


def shared_configs(served: AbstractSet[str], uses: Iterable[ConfigUse]) -> Dict[str, ConfigUse]:
    """The config class of each served class, where it ties a few served classes and names a model.

    A config class many models are built with (`PretrainedConfig`, `LlamaConfig` reused by the
    llama-likes) ties nothing, nor one that names no model (`VllmConfig`, `TConfig`): its stem
    (`Qwen3Moe` of `Qwen3MoeConfig`) must begin the name of a class built with it. A class written
    in several modules with different configs says nothing either.
    """
    of: Dict[str, Set[ConfigUse]] = {}
    users: Dict[str, Set[str]] = {}
    for use in uses:
        users.setdefault(use.config, set()).add(use.child)
        if use.child in served:
            of.setdefault(use.child, set()).add(use)
    found = {}
    for cls, found_uses in of.items():
        configs = {u.config for u in found_uses}
        if len(configs) != 1:
            continue
        config = configs.pop()
        stem = _squashed(config[:-len("Config")] if config.endswith("Config") else "")
        if len(stem) < 3 or not any(_squashed(user).startswith(stem) for user in users[config]):
            continue
        if 1 < len(users[config] & served) <= MAX_CONFIG_USERS:
            found[cls] = min(found_uses, key=lambda u: (u.path, u.line))
    return found




def experts(served: AbstractSet[str], classes: Mapping[str, Sequence[ClassEdge]],
             modules: Sequence[ModuleClasses]) -> Dict[str, bool]:
    """For each served class whose module is known: does it build mixture-of-experts layers?

    Its module imports a MoE layer (`FusedMoE`, `Glm4MoeModel`) or a MoE model it composes
    (`DeepseekV3ForCausalLM` in Kimi-K2.5's), or one of its bases is a MoE class
    (`MistralLarge3ForCausalLM(DeepseekV3ForCausalLM)`). A module that defines dense and MoE models
    says MoE of both: the base and some other name the subject holds must read as dense, so that
    doubt holds a finding back. A class whose module is not known is neither.
    """
    homes = {e.path for edges in classes.values() for e in edges}  # only where a class is defined matters
    imports = [m for m in modules if m.path in homes]
    moe_paths = {m.path for m in imports if any(expert_layer(name) for name in m.imported)}
    moe: Dict[str, bool] = {}
    for _ in range(3):  # a model composing a model that composes a MoE model: rare deeper
        moe = {}
        for cls in classes:
            _is_moe(cls, classes, moe_paths, moe, 0)
        moe_classes = {cls for cls, found in moe.items() if found}
        more = {m.path for m in imports if not m.imported.isdisjoint(moe_classes)}
        if more <= moe_paths:
            break
        moe_paths |= more
    return {cls: moe[cls] for cls in served if cls in moe}


@functools.lru_cache(maxsize=1 << 14)  # the same imported names, module after module
def expert_layer(name: str) -> bool:
    """Does a class name say it is a mixture-of-experts layer or model (`FusedMoE`, `Qwen3MoeSparseMoeBlock`)?"""
    return bool(EXPERT_LAYER.search(name))


def _is_moe(cls: str, classes: Mapping[str, Sequence[ClassEdge]], moe_paths: AbstractSet[str],
            moe: Dict[str, bool], depth: int) -> bool:
    if cls not in moe:
        edges = classes.get(cls, ())
        moe[cls] = any(e.path in moe_paths for e in edges) or depth < 8 and any(
            e.base in classes and _is_moe(e.base, classes, moe_paths, moe, depth + 1) for e in edges)
    return moe[cls]


def _squashed(name: str) -> str:
    return name.replace("_", "").lower()


def wrappers(served: AbstractSet[str], builds: Iterable[Wrapping],
             classes: Mapping[str, Sequence[ClassEdge]]) -> Dict[str, Wrapping]:
    """Each served class that builds exactly one other served language model whole, and where it first does.

    A class that builds one of several (InternVL's chat model picks its language model by the config)
    runs none of them as its own; a subclass of the one it builds says so by its edge, as a subclass.
    """
    found: Dict[str, List[Wrapping]] = {}
    for build in builds:
        if build.child in served and build.owner in served and build.owner != build.child:
            found.setdefault(build.child, []).append(build)
    return {child: ties[0] for child, ties in sorted(found.items())
            if len({t.owner for t in ties}) == 1 and all(e.base != ties[0].owner for e in classes.get(child, ()))}


def backbones(served: AbstractSet[str], classes: Mapping[str, Sequence[ClassEdge]],
               modules: Sequence[ModuleClasses]) -> Dict[str, Tuple[Backbone, ...]]:
    """Each served class whose module imports the backbone of another served class from that class's module.

    The backbone of `Qwen3ForCausalLM` is `Qwen3Model`: its stem and `Model`, defined in its module.
    A component (`LlamaMLP`) is not a backbone: many models borrow one without running the model.
    """
    where: Dict[str, Set[str]] = {}  # served class -> the paths that define it
    served_in: Dict[str, List[str]] = {}  # path -> the served classes it defines
    for cls in served:
        where[cls] = {e.path for e in classes.get(cls, ())}
        for path in where[cls]:
            served_in.setdefault(path, []).append(cls)
    backbone_of: Dict[Tuple[str, str], str] = {}  # (path, backbone) -> the served class it serves
    for cls, paths in where.items():
        task = TASK.search(cls)
        if task is None or task.start() == 0:
            continue
        for path in paths:
            backbone_of.setdefault((path, cls[:task.start()] + "Model"), cls)
    defined: Dict[str, Set[str]] = {}  # backbone -> the paths that define it
    for module in modules:
        for name in module.defined:
            defined.setdefault(name, set()).add(module.path)
    backbones = {name for _, name in backbone_of}
    found: Dict[str, List[Backbone]] = {}
    for module in modules:
        children = served_in.get(module.path, ())
        for name in sorted(backbones.intersection(module.imported)):  # most imports are no backbone
            homes = sorted(defined.get(name, set()) - {module.path})
            if len(homes) != 1 or (homes[0], name) not in backbone_of:
                continue  # defined in several modules, which one was imported is not known; or not a backbone
            owner = backbone_of[(homes[0], name)]
            for child in children:
                # a subclass of the owner says so by its edge, and counts once, as a subclass
                if child != owner and all(e.base != owner for e in classes.get(child, ())):
                    found.setdefault(child, []).append(Backbone(child, owner, name, homes[0]))
    return {cls: tuple(ties) for cls, ties in found.items()}


# a class that returns tokens: its spelling names a generation head
_GENERATION_HEAD = re.compile(r"CausalLM|ConditionalGeneration|LMHead|LM$")


def headless(registered_class: Mapping[str, str], classes: Mapping[str, Sequence[ClassEdge]],
             modules: Sequence[ModuleClasses]) -> FrozenSet[str]:
    """Registered names whose spelling names no task (`BertModel`, `Contriever`), served by a class the project
    defines with no generation head: neither it nor a base the project gives it is spelt as one (`...ForCausalLM`,
    `...ForConditionalGeneration`, `...LMHeadModel`, `...LM`), and no module defining it imports one (MiniCPM-V's
    module imports the `Qwen2ForCausalLM` it builds its language model with). Such a model returns hidden states:
    an embedding model (`resolve/said_kinds.py`). A name served by another name's class is what that class is."""
    defined: Dict[str, List[ModuleClasses]] = {}
    for module in modules:
        for cls in module.defined:
            defined.setdefault(cls, []).append(module)
    return frozenset(
        name for name, served_by in registered_class.items()
        if not SPELT_TASK.search(name) and not _GENERATION_HEAD.search(name) and served_by in defined
        and not any(_GENERATION_HEAD.search(c) for c in {served_by, *ancestors(served_by, classes)})
        and not any(_GENERATION_HEAD.search(i) for m in defined[served_by] for i in m.imported))


def no_models(served: Iterable[str], classes: Mapping[str, Sequence[ClassEdge]],
              modules: Sequence[ModuleClasses]) -> FrozenSet[str]:
    """The served classes that build no model: neither they nor any base the project gives them define `forward`
    or `__call__`, and every line of their bases ends, within the project, at a class that names no base (llama.cpp's
    GGUF converters, `class LlamaModel(TextModel)`, `class TextModel(ModelBase)`, `class ModelBase:`, which a
    quantizer ships a copy of). A base the project does not define (`nn.Module`, `PreTrainedModel`), or one whose
    bases the signals do not give, may bring a model's code: such a class may be a model."""
    roots = frozenset().union(*(m.roots for m in modules)) if modules else frozenset()
    runs = frozenset().union(*(m.runs for m in modules)) if modules else frozenset()
    known: Dict[str, bool] = {}

    def may_run(cls: str, seen: FrozenSet[str]) -> bool:
        if cls not in known:
            bases = classes.get(cls, ())
            if cls in runs or cls in seen:
                known[cls] = True
            elif bases:
                known[cls] = any(may_run(edge.base, seen | {cls}) for edge in bases)
            else:
                known[cls] = cls not in roots
        return known[cls]

    return frozenset(cls for cls in served if not may_run(cls, frozenset()))


def ancestors(cls: str, classes: Mapping[str, Sequence[ClassEdge]]) -> Set[str]:
    """Every base the project gives `cls`, however far up (an alias's target too)."""
    found: Set[str] = set()
    todo = [cls]
    while todo:
        for edge in classes.get(todo.pop(), ()):
            if edge.base not in found:
                found.add(edge.base)
                todo.append(edge.base)
    return found
