"""A list of model types (`("qwen3_moe", "deepseek_v3")`) read as the architectures it names.

Serving code names a model two ways: by architecture (`Qwen3MoeForCausalLM`, what a checkpoint's
`config.json` lists and registries hold) and by `model_type` (`qwen3_moe`, what its config class
says). A list a model type is tested against (`extract/model_type_keys.py`) gates the same models
as a list of their architectures would, so the rules read it as one: each model type stands for
the registered architectures it names, and what a rule finds missing is written back as its model
type. Which architectures a model type names comes from two sources, both about names and neither
hand-kept:

- the table of a `transformers` release that ships with archsync (`project/model_types.py`): its
  auto-model mappings pair each model type with its model classes;
- the names themselves: a model type names the architecture whose stem (the name before `For...`,
  `Model` or `LM`, or all of a name with none of them) it spells, ignoring case and separators
  (`deepseek_v3` and `DeepseekV3ForCausalLM`, `qwen3_5_moe` and `Qwen3_5MoeForConditionalGeneration`,
  `qwen3_next_mtp` and `Qwen3NextMTP`), among the table's model types and those the project writes.
  That is how a model too new for the table, or one the project defines, is tied.

An architecture that two model types name (a checkpoint format and its variant) is written back as
neither: a rule's finding there would have to guess which one the list means.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

from ..extract.facts import CollectionFact, FileFacts, Literal
from ..extract.model_type_keys import written_as_model_types
from ..extract.spelling import names_test
from ..project.index import ProjectIndex
from ..project.model_types import ModelTypeTable
from .consumers import model_type_keyed
from .kinship.names import TASK
from .served import is_not_served
from .values import MODEL_TYPE, Collection, Occurrence, ResolvedSet

_SEPARATORS = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class ModelTypes:
    """Which registered architectures each model type names, and the one model type of each architecture."""

    names: Mapping[str, FrozenSet[str]] = field(default_factory=dict)  # model type -> registered architectures
    of: Mapping[str, str] = field(default_factory=dict)  # registered architecture -> its model type, if one
    source: str = ""  # the table's release (`transformers 5.18.0`), or ""
    known: FrozenSet[str] = frozenset()  # every model type the table knows, whatever it names

    def written_as(self, name: str) -> Optional[str]:
        """How a list of model types writes an architecture, or None when no one model type names it."""
        return self.of.get(name)


def model_types(table: ModelTypeTable, registered: Iterable[str], written: Iterable[str]) -> ModelTypes:
    """Tie the registered architectures to model types: by the table, and by the stem they spell among the
    table's model types and the ones the project `written` (in lists a model type is tested against)."""
    by_class: Dict[str, List[str]] = {}
    for model_type, classes in table.types.items():
        for name in classes:
            by_class.setdefault(name, []).append(model_type)
    by_spelling: Dict[str, Set[str]] = {}
    for model_type in list(table.types) + list(written):
        by_spelling.setdefault(squashed(model_type), set()).add(model_type)
    by_table: Dict[str, Set[str]] = {}
    checkpoints: Dict[str, Set[str]] = {}
    spelt: Dict[str, Set[str]] = {}
    of: Dict[str, str] = {}
    for name in registered:
        task = TASK.search(name)
        listed = set(by_class.get(name, ()))
        # the stem before the task (`KimiK2` of `KimiK2ForCausalLM`), or all of a name that has none (`MiniCPMV`)
        spells = by_spelling.get(squashed(name[:task.start()] if task else name), set()) \
            if not task or task.start() else set()
        for model_type in listed:
            by_table.setdefault(model_type, set()).add(name)
            if name in table.checkpoints(model_type):
                checkpoints.setdefault(model_type, set()).add(name)
        for model_type in spells:
            spelt.setdefault(model_type, set()).add(name)
        types = listed | spells
        if len(types) == 1:
            of[name] = next(iter(types))
    # a model type the table knows names the checkpoint architectures it lists (else its other classes): not
    # its heads (`LlamaForSequenceClassification`, `LlamaModel`) where a checkpoint class is registered, nor a
    # second spelling (`LLaMAForCausalLM`, a checkpoint alias of `llama`)
    names = {t: frozenset(checkpoints.get(t) or by_table.get(t) or spelt[t]) for t in by_table.keys() | spelt.keys()}
    return ModelTypes(names, of, table.source, frozenset(table.types))


def squashed(name: str) -> str:
    """A name without case or separators: `Qwen3_5Moe` and `qwen3_5_moe` are both `qwen35moe`."""
    return _SEPARATORS.sub("", name.lower())


def as_architectures(collection: Collection, types: ModelTypes, declared: bool) -> Collection:
    """A list of model types as the rules read it: each model type's registered architectures, written where
    the model type is (its own literals, what a duplicate is judged on, stay as written)."""
    members = tuple(Occurrence(name, o.path, o.line, o.column) for o in collection.members.members
                    for name in sorted(types.names.get(o.name, ())))
    # what could not be followed in a list found by its test (a table of config classes by model type,
    # built by a comprehension) is not reported: its findings stand on what was read
    unknown = collection.members.unknown if declared else ()
    return dataclasses.replace(collection, members=ResolvedSet(members, unknown), keyed=MODEL_TYPE)


def typed_lists(index: ProjectIndex) -> List[Tuple[FileFacts, CollectionFact]]:
    """The collections a model type is tested against (`model_type_keys.py`), in path order: lists of
    model types. A file the prefilter says tests one (`Signals.model_types`) and nothing chose whole is read for
    them alone (`ProjectIndex.model_typed`: its other facts hold no registered name, the choice did not
    want them); a module such a file looks its table up in is read whole, as `--no-prefilter` would. Tests
    and examples are not read for them: their lists are never subjects (`served.py`)."""
    chosen = {facts.module: facts for facts in index.facts
              if index.is_chosen_whole(facts.module) and not is_not_served(facts.path)}
    wanted = [module for module, signals in index.signals()
              if signals.model_types and module not in chosen and not is_not_served(index.path_of(module))]
    index.read_for_types(wanted)
    for module in wanted:
        facts = index.model_typed(module)
        if facts is not None and not facts.error:
            chosen[facts.module] = facts
    keyed = model_type_keyed(chosen.values())
    if not keyed:
        return []
    for module in sorted({m for m, _ in keyed} - chosen.keys()):
        facts = index.module(module)
        if facts is not None and facts.module not in chosen and not facts.error:
            chosen[facts.module] = facts
    name = names_test(index.config.name_regex)
    return [(facts, fact) for facts in sorted(chosen.values(), key=lambda f: f.path) for fact in facts.collections
            if (facts.module, fact.name) in keyed and _writes_model_types(fact, name)]


def _writes_model_types(fact: CollectionFact, name: Callable[[str], object]) -> bool:
    """Does a collection a model type is tested against write model types (`model_type_keys.py`), and no
    architecture name (lmdeploy's `model_type` holds `type(model).__name__`: its tables hold class names)?"""
    written = [m.name for p in fact.parts if isinstance(p, Literal) for m in p.members]
    return written_as_model_types(written, name)
