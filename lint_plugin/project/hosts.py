"""The host a plugin registers into, and the snapshot of the host's registrations archsync ships.

A vLLM plugin (vllm-gaudi, tpu-inference, vllm-ascend) declares entry points in a group of its
host's (`vllm.general_plugins`, `vllm.platform_plugins`; SGLang's are `sglang.srt.plugins` and
`sglang.srt.platforms`) and serves the host's models: the names
its lists hold are registered in the host, not in the plugin. With no `universe-from`, those
names come from a snapshot of the host's registrations that ships with archsync
(`lint_plugin/hosts/<host>.json`, written by `python -m lint_plugin.frontends.host_snapshot`
and dated). It is data of this version of archsync, so the caches, keyed by the version, stay
sound, and a run needs neither the host installed (pre-commit's environments hold only archsync)
nor the second it takes to read it. A snapshot can be older than the host a plugin runs on: a
name it lacks is unknown, not misspelt, so ARC201 stays off (`universe-from` reads the installed
host, exactly).

A snapshot also holds the host's own lists of three names or more (`HostList`): a plugin that keeps
a copy of one (vllm-ascend's image-token list in its speculative-decoding proposer) is told what the
host's copy holds and its own lacks (ARC106), and may say which of the host's classes build
mixture-of-experts layers (`Snapshot.experts`) and which of them subclasses which (`Snapshot.lineage`).

transformers is a host of another kind (`LIBRARY`): nothing registers into it, a project loads what its
auto mappings map. Its snapshot is written with the model-type table (`frontends/model_type_snapshot.py`).
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Tuple

from ..extract.facts import MODEL_TYPE_SCHEME, FileFacts, Member, RegistrationFact
from .codec import as_int, as_list, as_str

# The packaging files that may declare entry points; both are what a run already tracks (a
# discovered file's stamp, the configuration's own file), so a cached result never outlives them.
PACKAGING = ("setup.py", "pyproject.toml")
# An entry-point group of a host's plugins, as written in either file: `"vllm.general_plugins"`,
# `"vllm.platform_plugins"`, `"sglang.srt.plugins"`, `"sglang.srt.platforms"`; the host is its first part.
_GROUP = re.compile(rb"(?<![\w.])([A-Za-z_]\w*)(?:\.\w+)*?\.\w*(?:plugins|platforms)\b")
_LARGEST = 1 << 20  # a packaging file is small; a larger one is not read
# 2 added `lists` (a format-1 snapshot is read as holding none); 3 the scheme of a registration keyed by model type
# (`"model-type"`, a fourth field where there is one), which format 2 wrote as architecture names (vLLM's Ovis
# backbone chain registered `aimv2` and `siglip_vision_model`); 4 `experts` (an older snapshot is read as knowing none);
# 5 `lineage` (the same)
FORMAT = 5
_FORMATS = (1, 2, 3, 4, FORMAT)
SNAPSHOTS = Path(__file__).resolve().parent.parent / "hosts"
# The host of a project that serves transformers' models (`AutoModelForCausalLM.from_pretrained`) and registers none
# of its own: optimum-intel, LLaMA-Factory, llm-compressor have no registry, transformers' auto mappings are theirs.
# Its snapshot is written with the model-type table (`frontends/model_type_snapshot.py`); `universe.py` says when.
LIBRARY = "transformers"


class SnapshotError(Exception):
    """A snapshot that cannot be read as written: its host's names count as unknown, and a warning says why."""


@dataclass(frozen=True)
class HostList:
    """One of the host's lists, as the snapshot holds it: the registered names it holds, and where it is."""

    path: str  # `<host>/...`
    subject: str
    line: int
    names: Tuple[str, ...]  # registered architectures, sorted (a list of model types: the ones they name)
    keyed: str = ""  # what it is looked up with, as `Collection.keyed` says


@dataclass(frozen=True)
class Lineage:
    """`class child(base, ...)` in the host's source at path:line, both classes the host registers: what a project's
    own class edges say of its classes (`kinship/evidence.py::ClassEdge`), for the host's. transformers writes its
    models as modular files (`modular_qwen3_vl_moe.py`: `class Qwen3VLMoeForConditionalGeneration(
    Qwen3VLForConditionalGeneration)`), from which each model's module is generated whole."""

    child: str
    base: str
    path: str  # `<host>/...`
    line: int


@dataclass(frozen=True)
class Snapshot:
    """One host's registrations, as its source said at one commit."""

    host: str  # the top-level package (`vllm`)
    repository: str  # where the source was read (`vllm-project/vllm`)
    commit: str
    date: str  # of the commit, YYYY-MM-DD
    facts: Tuple[FileFacts, ...]  # registrations only; paths are `<host>/...`
    lists: Tuple[HostList, ...] = ()
    # (class, whether its module builds mixture-of-experts layers) for the registered classes whose module the
    # snapshot read: what the project's own modules say of its classes (`kinship/code.py`), for the host's
    experts: Tuple[Tuple[str, bool], ...] = ()
    lineage: Tuple[Lineage, ...] = ()  # sorted

    @property
    def label(self) -> str:
        return f"{self.host} {self.commit[:12]} of {self.date} ({self.repository})"


def declared_hosts(root: Path, directory: Path = SNAPSHOTS) -> Tuple[str, ...]:
    """Hosts whose plugin entry points the project's packaging declares, for which a snapshot ships.

    A project that holds the host's package itself (the host's own tree) is no plugin of it.
    """
    found: List[str] = []
    for name in PACKAGING:
        path = root / name
        try:
            if not path.is_file() or path.stat().st_size > _LARGEST:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        for match in _GROUP.finditer(data):
            host = match.group(1).decode()
            if host not in found and (directory / f"{host}.json").is_file() and not _holds(root, host):
                found.append(host)
    return tuple(found)


def _holds(root: Path, package: str) -> bool:
    return any((base / package / "__init__.py").is_file() for base in (root, root / "src"))


def load_snapshot(host: str, directory: Path = SNAPSHOTS) -> Snapshot:
    """A snapshot archsync ships (read once a process: data of this version, asked by every run of an editor's
    session, and by every project that imports transformers), or one in `directory`."""
    return _shipped(host) if directory == SNAPSHOTS else _read(host, directory)


@functools.lru_cache(maxsize=8)
def _shipped(host: str) -> Snapshot:
    return _read(host, SNAPSHOTS)


def _read(host: str, directory: Path) -> Snapshot:
    path = directory / f"{host}.json"
    try:
        data = json.loads(path.read_bytes())
        return snapshot_from(data, host)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        raise SnapshotError(f"archsync's snapshot of {host} ({path}) cannot be read ({error}); the names {host} "
                            f"registers count as unknown") from None


def snapshot_from(data: Any, host: str) -> Snapshot:
    """A snapshot document, validated field by field (`ValueError` on anything else)."""
    if not isinstance(data, dict) or data.get("format") not in _FORMATS or data.get("host") != host:
        raise ValueError(f"not a format-{FORMAT} snapshot of {host}")
    facts = []
    for entry in as_list(data["files"]):
        path, module, registrations = as_list(entry, 3)
        found = []
        for raw in as_list(registrations):
            fields = as_list(raw)
            registry, names, implementations = as_list(fields[:3], 3)
            scheme = as_str(fields[3]) if len(fields) == 4 else ""
            if len(fields) not in (3, 4) or scheme not in ("", MODEL_TYPE_SCHEME):
                raise ValueError(f"a registration of {len(fields)} fields, or of scheme {scheme!r}")
            members = tuple(Member(as_str(n), as_int(line), as_int(column)) for n, line, column in
                            (as_list(m, 3) for m in as_list(names)))
            served_by = tuple(as_str(i) for i in as_list(implementations))
            found.append(RegistrationFact(as_str(registry), members, served_by, scheme))
        facts.append(FileFacts(as_str(path), as_str(module), registrations=tuple(found)))
    lists = tuple(HostList(as_str(path), as_str(subject), as_int(line), tuple(as_str(n) for n in as_list(names)),
                           as_str(keyed))
                  for path, subject, line, names, keyed in (as_list(raw, 5) for raw in as_list(data.get("lists", []))))
    experts = tuple((as_str(name), _as_bool(moe)) for name, moe in (as_list(raw, 2) for raw in
                                                                  as_list(data.get("experts", []))))
    lineage = tuple(Lineage(as_str(child), as_str(base), as_str(path), as_int(line)) for child, base, path, line in
                    (as_list(raw, 4) for raw in as_list(data.get("lineage", []))))
    return Snapshot(host, as_str(data["repository"]), as_str(data["commit"]), as_str(data["date"]), tuple(facts),
                    lists, experts, lineage)


def _as_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, not {value!r}")
    return value


def snapshot_document(snapshot: Snapshot) -> bytes:
    """The document `snapshot_from` reads: sorted, one file per line, so a new snapshot diffs by file."""
    files = [[f.path, f.module, [[r.registry, [[m.name, m.line, m.column] for m in r.names], list(r.implementations)]
                                 + ([r.scheme] if r.scheme else []) for r in f.registrations]]
             for f in sorted(snapshot.facts, key=lambda f: f.path)]
    lists = [[h.path, h.subject, h.line, list(h.names), h.keyed]
             for h in sorted(snapshot.lists, key=lambda h: (h.path, h.line, h.subject))]
    head = {"format": FORMAT, "host": snapshot.host, "repository": snapshot.repository, "commit": snapshot.commit,
            "date": snapshot.date}
    experts = sorted([name, moe] for name, moe in snapshot.experts)
    lineage = sorted([e.child, e.base, e.path, e.line] for e in snapshot.lineage)
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "files": ['] + _rows(files) + ['], "lists": ['] + \
        _rows(lists) + (['], "experts": ['] + _rows(experts) if experts else []) + \
        (['], "lineage": ['] + _rows(lineage) if lineage else []) + ["]}"]
    return ("\n".join(lines) + "\n").encode()


def _rows(rows: List[Any]) -> List[str]:
    """One JSON value a line, comma-separated."""
    return [f"  {json.dumps(row)}{',' if i < len(rows) - 1 else ''}" for i, row in enumerate(rows)]

