"""The table of Hugging Face model types archsync ships: which architectures each `model_type` names.

Much serving code tests a checkpoint's `config.model_type` (`"qwen3_moe"`) instead of its
architecture (`"Qwen3MoeForCausalLM"`): the same models under a second naming scheme. To check
such a list with the rules that speak architectures, each model type is tied to the architectures
it names. The table comes from the auto-model mappings of a `transformers` release
(`MODEL_FOR_CAUSAL_LM_MAPPING_NAMES` and its kin: model type -> model class, a class name being
the architecture a checkpoint's `config.json` lists), read statically by
`python -m lint_plugin.frontends.model_type_snapshot` and shipped as
`lint_plugin/hosts/transformers.model_types.json`. Like a host snapshot it is data of this
version of archsync, so the caches keyed by the version stay sound and nothing is imported.
"""
from __future__ import annotations

import ast
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Sequence, Tuple

from ..extract.facts import MODEL_TYPE_SCHEME, FileFacts, Member, RegistrationFact
from ..extract.spelling import EXPERT_LAYER
from .codec import as_list, as_str
from .hosts import SNAPSHOTS, Lineage

FORMAT = 1
TABLE = SNAPSHOTS / "transformers.model_types.json"
AUTO = "transformers/models/auto/modeling_auto.py"  # where a release's auto mappings are, in its source
_CLASS = re.compile(rb"^class\s+(\w+)", re.MULTILINE)
_SUBCLASS = re.compile(rb"^class\s+(\w+)\s*\(([^)]*)\)", re.MULTILINE)  # `class X(A, b.B):`, bases on any line
_CHECKPOINT = re.compile(r"For(?:CausalLM|ConditionalGeneration)$")
# where a checkpoint architecture is looked up to load a model of its task, before any other mapping naming it
_PREFERRED = ("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES")


@dataclass(frozen=True)
class ModelTypeTable:
    """Model type -> the architectures (model class names) a release maps it to, as read."""

    source: str  # `transformers 5.18.0`
    types: Mapping[str, Tuple[str, ...]]

    @property
    def label(self) -> str:
        return self.source

    @functools.cached_property
    def architectures(self) -> FrozenSet[str]:
        """Every model class the release names: an architecture that exists, whoever registers it."""
        return frozenset(name for names in self.types.values() for name in names)

    def checkpoints(self, model_type: str) -> Tuple[str, ...]:
        """What a registry keyed by model type registers for one: the architectures a checkpoint of it lists,
        as the table pairs them (its generative model classes, `...ForCausalLM` and
        `...ForConditionalGeneration`: a serving engine serves those, not the heads for classification)."""
        return tuple(n for n in self.types.get(model_type, ()) if _CHECKPOINT.search(n))

    def keyed_by_model_type(self, registrations: Iterable[RegistrationFact]) -> FrozenSet[str]:
        """The registries whose names are mostly model types this table knows (more than half of them): LightLLM's
        `@ModelRegistry` (23 of its 37 at 2025-07, 32 of 45 at 2026-08: the others are remote-code model types,
        `internvl_chat`, `qwen`, which no transformers mapping holds), not lmdeploy's TurboMind `INPUT_MODELS`,
        whose names are its own (`qwen3_5-moe`, `glm4-moe-lite`: 7 of its 15 are model types by coincidence)."""
        known: Dict[str, List[bool]] = {}
        for registration in registrations:
            if registration.scheme == MODEL_TYPE_SCHEME:
                known.setdefault(registration.registry, []).extend(m.name in self.types for m in registration.names)
        return frozenset(r for r, found in known.items() if 2 * sum(found) > len(found))

    def registered(self, registration: RegistrationFact) -> Iterator[Tuple[int, Member, str]]:
        """(index, where written, name registered) of each name a registration registers: its own, or the
        checkpoint architectures of each model type it registers."""
        for index, member in enumerate(registration.names):
            names = self.checkpoints(member.name) if registration.scheme == MODEL_TYPE_SCHEME else (member.name,)
            yield from ((index, member, name) for name in names)


def load_table(path: Path = TABLE) -> ModelTypeTable:
    """The shipped table (read once: it is data of this version of archsync), or the one at `path`; an empty
    one if it cannot be read (the model-type scheme then ties nothing)."""
    return _shipped() if path == TABLE else _read(path)


@functools.lru_cache(maxsize=1)
def _shipped() -> ModelTypeTable:
    return _read(TABLE)


def _read(path: Path) -> ModelTypeTable:
    try:
        return table_from(json.loads(path.read_bytes()))
    except (OSError, ValueError, KeyError, TypeError):
        return ModelTypeTable("", {})


def table_from(data: Any) -> ModelTypeTable:
    """A table document, validated field by field (`ValueError` on anything else)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("types"), dict):
        raise ValueError(f"not a format-{FORMAT} model-type table")
    types = {as_str(k): tuple(as_str(n) for n in as_list(v)) for k, v in data["types"].items()}
    return ModelTypeTable(as_str(data["source"]), types)


def table_document(table: ModelTypeTable) -> bytes:
    """The document `table_from` reads: sorted, one model type per line, so a new release diffs by type."""
    head = json.dumps({"format": FORMAT, "source": table.source}, sort_keys=True)[:-1]
    rows = [f"  {json.dumps(k)}: {json.dumps(sorted(v))}" for k, v in sorted(table.types.items())]
    return (head + ', "types": {\n' + ",\n".join(rows) + "\n}}\n").encode()


def read_auto_mappings(source: bytes) -> Dict[str, Tuple[str, ...]]:
    """Model type -> class names, from every `*_MAPPING_NAMES = OrderedDict([(type, class), ...])` of a
    `transformers/models/auto/modeling_auto.py` (a class may be a tuple of names), read without importing."""
    found: Dict[str, List[str]] = {}
    for _, model_type, classes in _auto_pairs(source):
        names = found.setdefault(model_type, [])
        names += [_text(c) for c in classes if _text(c) and _text(c) not in names]
    return {k: tuple(sorted(v)) for k, v in found.items() if v}


def _auto_pairs(source: bytes) -> Iterator[Tuple[str, str, List[ast.expr]]]:
    """(mapping, model type, class nodes) of each pair of every `*_MAPPING_NAMES = OrderedDict([...])`, in order."""
    for stmt in ast.parse(source).body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id.endswith("_NAMES") and isinstance(stmt.value, ast.Call)
                and stmt.value.args and isinstance(stmt.value.args[0], (ast.List, ast.Tuple))):
            continue
        for pair in stmt.value.args[0].elts:
            if isinstance(pair, ast.Tuple) and len(pair.elts) == 2 and _text(pair.elts[0]):
                classes = pair.elts[1].elts if isinstance(pair.elts[1], ast.Tuple) else [pair.elts[1]]
                yield stmt.targets[0].id, _text(pair.elts[0]), list(classes)


def read_auto_registrations(source: bytes) -> Tuple[RegistrationFact, ...]:
    """The checkpoint architectures (`...ForCausalLM`, `...ForConditionalGeneration`) of the same auto mappings, one
    registration per mapping, each name where a model of its task is looked up (the causal-LM mapping, else the
    image-text-to-text one, else where it is first written): what transformers registers, as its snapshot as a host
    holds it (`hosts.py`)."""
    written: Dict[str, List[Tuple[str, Member]]] = {}
    rank = {mapping: at for at, mapping in enumerate(_PREFERRED)}
    for mapping, _, classes in _auto_pairs(source):
        rank.setdefault(mapping, len(rank))
        for node in classes:
            if _CHECKPOINT.search(_text(node)):
                written.setdefault(_text(node), []).append(
                    (mapping, Member(_text(node), node.lineno, node.col_offset + 1)))
    chosen: Dict[str, List[Member]] = {}
    for places in written.values():
        mapping, member = min(places, key=lambda place: rank[place[0]])
        chosen.setdefault(mapping, []).append(member)
    return tuple(RegistrationFact(mapping, tuple(sorted(chosen[mapping], key=lambda m: (m.line, m.column))))
                 for mapping in sorted(chosen, key=rank.__getitem__))


@dataclass(frozen=True)
class Library:
    """What transformers registers, as a host, and what its source says of the classes it registers."""

    facts: FileFacts  # its auto mappings' registrations; none: empty
    experts: Tuple[Tuple[str, bool], ...]  # `read_experts`
    lineage: Tuple[Lineage, ...]  # `read_lineage`


def library_facts(source: bytes, package: Path) -> Library:
    """What transformers registers, as a host: the facts of its auto mappings (`source`, the bytes of `AUTO`) and
    what the modules of the package at `package` say of experts and lineage. `SyntaxError` or `ValueError` on source
    that does not parse."""
    registrations = read_auto_registrations(source)
    facts = FileFacts(AUTO, AUTO[:-3].replace("/", "."), registrations=registrations)
    if not registrations:
        return Library(facts, (), ())
    return Library(facts, read_experts(package, registrations), read_lineage(package, registrations))


def read_lineage(package: Path, registrations: Sequence[RegistrationFact]) -> Tuple[Lineage, ...]:
    """Each `class child(base)` of the modular files of the `transformers` package at `package`
    (`models/*/modular_*.py`), where both are registered classes: how transformers writes a model that reuses
    another's code, which it generates each model's module from. A model written before modular files were is in
    none: its lineage is unknown, as a project's class with no base in view."""
    registered = {m.name for r in registrations for m in r.names}
    found = set()
    for path in sorted(package.glob("models/*/modular_*.py")):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        where = str(path.relative_to(package.parent)).replace("\\", "/")
        for match in _SUBCLASS.finditer(data):
            child = match.group(1).decode()
            if child not in registered:
                continue
            for written in match.group(2).decode(errors="replace").split(","):
                base = written.strip().rpartition(".")[2]
                if base in registered and base != child:
                    found.add(Lineage(child, base, where, data.count(b"\n", 0, match.start()) + 1))
    return tuple(sorted(found, key=lambda e: (e.child, e.base, e.path, e.line)))


def read_experts(package: Path, registrations: Sequence[RegistrationFact]) -> Tuple[Tuple[str, bool], ...]:
    """(class, whether its module builds mixture-of-experts layers) for each registered class a modeling module of
    the `transformers` package at `package` defines at column 0: the module defines a class named for experts
    (`Qwen3MoeSparseMoeBlock`, `AfmoeExperts`), as a project's model module imports one (`kinship/code.py`). One
    module of dense and MoE models says MoE of both, as there."""
    moe: Dict[str, bool] = {}  # by class, of the first module defining it
    for path in sorted(package.glob("models/*/modeling_*.py")):
        try:
            names = [m.decode() for m in _CLASS.findall(path.read_bytes())]
        except OSError:
            continue
        builds_experts = any(EXPERT_LAYER.search(name) for name in names)
        for name in names:
            moe.setdefault(name, builds_experts)
    return tuple(sorted({m.name: moe[m.name] for r in registrations for m in r.names if m.name in moe}.items()))


def _text(node: ast.expr) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
