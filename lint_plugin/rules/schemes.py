"""What a completion rule asks of a list of model types or of classes, written in that list's own scheme.

The rules weigh a list of model types (`resolve/model_types.py`) as the registered architectures
its model types name, so what ARC101, ARC102, ARC104 and ARC105 find missing is an architecture.
The list holds model types: each finding is written back as the missing architecture's model type
(message, member and fix), and dropped where no single model type names it or the list already
writes that one (two architectures of one model type, `Qwen3_5ForCausalLM` and
`Qwen3_5ForConditionalGeneration`, are one finding, the first).

A list of classes (`models = [LlavaQwenForCausalLM]`) holds the classes the registry builds: a finding
names the class that serves the missing architecture, and its fix writes that class, imported where the file
does not bind it from a module its registration names (`FixRequest.reference`, `Model.class_modules`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import AbstractSet, Callable, List, Mapping, Optional, Set, Tuple

from ..diagnostics import Diagnostic
from ..extract.model_type_keys import MODEL_TYPE_SHAPE
from ..resolve import Collection, Model
from ..resolve.values import MODEL_TYPE


def in_each_lists_scheme(model: Model, found: List[Diagnostic]) -> List[Diagnostic]:
    """`found`, each completion of a list of model types written as a model type (or dropped), and each of a list
    of classes as the class that serves the name."""
    serves = model.kinship.registered_class
    classes = _Scheme({(c.path, c.subject): c for c in model.collections if c.members.classes},
                      lambda name: serves.get(name, name), lambda c: c.members.names, "the class of",
                      lambda cls: f"{model.class_modules.get(cls, '')}:{cls}")
    types = _Scheme({(c.path, c.subject): c for c in model.collections if c.keyed == MODEL_TYPE},
                    lambda name: _as_written(model, name), lambda c: c.written, "the model type of")
    return types.rewritten(classes.rewritten(found))


@dataclass(frozen=True)
class _Scheme:
    """How the lists of one scheme write a name: `lists` by (path, subject), `written_as` a name (None: no one way),
    what a list already writes (`held`), the words for the name a finding was about, and a fix's `reference`."""

    lists: Mapping[Tuple[str, str], Collection]
    written_as: Callable[[str], Optional[str]]
    held: Callable[[Collection], AbstractSet[str]]
    of: str
    reference: Callable[[str], str] = lambda written: ""

    def rewritten(self, found: List[Diagnostic]) -> List[Diagnostic]:
        if not self.lists:
            return found
        kept: List[Diagnostic] = []
        seen: Set[Tuple[str, str, str, str]] = set()
        for diagnostic in found:
            collection = self.lists.get((diagnostic.path, diagnostic.subject or ""))
            fix = diagnostic.fix
            if collection is None or diagnostic.member is None or fix is None or fix.action != "add":
                kept.append(diagnostic)
                continue
            name = diagnostic.member
            written, held = self.written_as(name), self.held(collection)
            key = (diagnostic.code, diagnostic.path, collection.subject, written or "")
            if written is None or written in held or key in seen:
                continue
            seen.add(key)
            peers = tuple(dict.fromkeys(w for w in map(self.written_as, fix.peers) if w is not None and w in held))
            said = f"'{written}'" if written == name else f"'{written}' ({self.of} {name})"
            kept.append(dataclasses.replace(
                diagnostic, message=diagnostic.message.replace(f"'{name}'", said, 1), member=written,
                fix=dataclasses.replace(fix, name=written, peers=peers, reference=self.reference(written))))
        return kept


def _as_written(model: Model, name: str) -> Optional[str]:
    """The model type a list of them writes `name` as: the architecture's, or the name itself where a registry keyed
    by model type registers it (`MODEL_TYPES = {"kestrel": {"causal-lm": KestrelForCausalLM}}`)."""
    return model.model_types.written_as(name) or (name if MODEL_TYPE_SHAPE.fullmatch(name) else None)
