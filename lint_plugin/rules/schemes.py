"""What a completion rule asks of a list of model types, written in that list's own scheme.

The rules weigh a list of model types (`resolve/model_types.py`) as the registered architectures
its model types name, so what ARC101, ARC102, ARC104 and ARC105 find missing is an architecture.
The list holds model types: each finding is written back as the missing architecture's model type
(message, member and fix), and dropped where no single model type names it or the list already
writes that one (two architectures of one model type, `Qwen3_5ForCausalLM` and
`Qwen3_5ForConditionalGeneration`, are one finding, the first).
"""
from __future__ import annotations

import dataclasses
from typing import Dict, List, Optional, Set, Tuple

from ..diagnostics import Diagnostic
from ..extract.model_type_keys import MODEL_TYPE_SHAPE
from ..resolve import Collection, Model
from ..resolve.values import MODEL_TYPE


def in_each_lists_scheme(model: Model, found: List[Diagnostic]) -> List[Diagnostic]:
    """`found`, each completion of a list of model types written as a model type (or dropped)."""
    typed: Dict[Tuple[str, str], Collection] = {(c.path, c.subject): c for c in model.collections
                                                if c.keyed == MODEL_TYPE}
    if not typed:
        return found
    kept: List[Diagnostic] = []
    seen: Set[Tuple[str, str, str, str]] = set()
    for diagnostic in found:
        collection = typed.get((diagnostic.path, diagnostic.subject or ""))
        fix = diagnostic.fix
        if collection is None or diagnostic.member is None or fix is None or fix.action != "add":
            kept.append(diagnostic)
            continue
        name = diagnostic.member
        model_type = _as_written(model, name)
        written = collection.written
        key = (diagnostic.code, diagnostic.path, collection.subject, model_type or "")
        if model_type is None or model_type in written or key in seen:
            continue
        seen.add(key)
        peers = tuple(dict.fromkeys(t for t in (_as_written(model, p) for p in fix.peers) if t in written))
        said = f"'{model_type}'" if model_type == name else f"'{model_type}' (the model type of {name})"
        message = diagnostic.message.replace(f"'{name}'", said, 1)
        kept.append(dataclasses.replace(diagnostic, message=message, member=model_type,
                                        fix=dataclasses.replace(fix, name=model_type, peers=peers)))
    return kept


def _as_written(model: Model, name: str) -> Optional[str]:
    """The model type a list of them writes `name` as: the architecture's, or the name itself where a registry keyed
    by model type registers it (`MODEL_TYPES = {"kestrel": {"causal-lm": KestrelForCausalLM}}`)."""
    return model.model_types.written_as(name) or (name if MODEL_TYPE_SHAPE.fullmatch(name) else None)
