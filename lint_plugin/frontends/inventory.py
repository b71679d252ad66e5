"""`archsync inventory`: what archsync saw in the project, and what to set when it saw nothing.

Registered names with where they come from, the registries found (and their shapes), the
subjects the rules check, the families, and the registries outside the project that the
project registers into. Text for a person, JSON for a script.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

from ..config import Config, matches_pattern
from ..extract.model_chains import is_chain_registry
from ..project.hosts import LIBRARY
from ..report.escape import json_safe, printable
from ..resolve import Collection, Model, Registration
from ..resolve.lineage import lineage_words, names_lineage, outside_lineage
from ..resolve.values import CLASS_NAME, INERT_WHY, MODEL_TYPE
from ..rules.arc106_host_copy_behind import copy_of


def _shape(registration: Registration, config: Config) -> str:
    label = registration.registry
    if label.endswith("()"):
        return "call"
    if label.startswith("@"):
        return "decorator"
    if label in config.registries:
        return "statement"
    return "if/elif chain" if is_chain_registry(label) else "dict"


def inventory(model: Model, where: Callable[[str], str] = str) -> Dict[str, Any]:
    """What archsync saw, every path project-relative (as settings name them: `archsync init` writes them); a
    hint's text writes its paths with `where`, as the user reads them."""
    config = model.config
    registries: Dict[tuple, List[Registration]] = defaultdict(list)
    for registration in model.registrations:
        registries[(registration.where.path, registration.registry)].append(registration)
    lineage = {f.key for f in model.overlapping if names_lineage(f.subject, f.names)}
    first: Dict[Any, Registration] = {}
    for registration in model.registrations:
        first.setdefault(registration.where, registration)
    return {
        "registered": [
            {"name": name, "path": where.path, "line": where.line, "registry": first[where].registry,
             "implementation": first[where].implementation}
            for name, where in sorted(model.registered.items())
        ],
        "registries": [
            {"path": path, "name": name, "shape": _shape(found[0], config), "names": len(found)}
            for (path, name), found in sorted(registries.items())
        ],
        "external_registries": list(model.external_registries),
        "universe_from": list(model.universe_packages),
        "host_snapshots": list(model.host_snapshots),
        "subjects": [
            {"name": c.subject, "path": c.path, "line": c.line, "scope": c.scope, "declared": c.declared,
             "names": len(c.members.names), "partly_analysed": bool(c.members.unknown),
             "read": _how_read(model, c), "copies": _copies(model, c)}
            for c in sorted(model.collections, key=lambda c: (c.path, c.line, c.subject))
        ],
        "families": [
            {"name": f.subject, "path": f.path, "line": f.line, "names": sorted(f.names),
             "kind": "lineage" if f.key in lineage else "type" if not f.own and not f.delegates else "configured"}
            for f in sorted(model.families, key=lambda f: (f.path, f.line))
        ],
        "not_families": not_families(model),
        "hints": hints(model, where),
        "model_types": _model_types(model),
        # every list a checkpoint's `model_type` is tested against, checked or not (nothing registered: none is)
        "model_type_lists": [{"name": name, "path": path, "line": line} for path, line, name in model.type_lists],
    }


def _model_types(model: Model) -> Dict[str, List[str]]:
    """The model types the project's lists write, each with the registered architectures it names ([] for
    one that names none): what those lists are read as (`resolve/model_types.py`)."""
    written = sorted({t for c in model.collections if c.keyed == MODEL_TYPE for t in c.written})
    return {t: sorted(model.model_types.names.get(t, ())) for t in written}


def _copies(model: Model, collection: Collection) -> str:
    """The host's list a plugin's subject copies (ARC106), as `subject at path:line`, or ""."""
    copied = copy_of(collection, model.host_lists)
    return "" if copied is None else f"{copied[1].subject} at {copied[1].path}:{copied[1].line}"


def _how_read(model: Model, collection: Collection) -> str:
    """What its readers say of a subject, where it changes what it is asked to hold ("" otherwise)."""
    gates = model.gates.get((collection.path, collection.subject), ())
    if gates and not collection.unread and collection.scope != "inert":
        lists = " and ".join(f"{gate.subject} ({gate.path}:{gate.line})" for gate in gates)
        return f"tested inside a test of the same value against {lists}: asked only for the names it holds"
    if collection.unread:
        return f"not completed: {collection.unread}"
    if collection.scope == "inert":
        return f"not completed: its {INERT_WHY}"
    if collection.members.classes:
        return "a list of classes: asked for the class that serves a name, never for an alias"
    if collection.keyed == CLASS_NAME:
        return "looked up with a class name: not asked for names the registry serves with another's class"
    if collection.keyed == MODEL_TYPE:
        return "a list of model types: read as the architectures they name"
    return ""


def not_families(model: Model) -> List[Dict[str, Any]]:
    """Predicates that test names but are no family, each with why (and how to change it)."""
    families = {f.key for f in model.families}
    vetoed = [f[1:] for f in model.config.families if f.startswith("!")]
    found = []
    for p in sorted(model.predicates.values(), key=lambda p: (p.path, p.line)):
        if p.key in families or not p.names:
            continue
        if matches_pattern(vetoed, p.path, p.subject):
            why = f'vetoed by families = ["!{p.subject}"]'
        elif not lineage_words(p.subject):
            why = "its name names no lineage"
        else:
            outside = outside_lineage(p.subject, p.names)
            more = f" and {len(outside) - 3} more" if len(outside) > 3 else ""
            why = (f"matches names outside the lineage its name says ({' '.join(lineage_words(p.subject))}): "
                   f"{', '.join(outside[:3])}{more}")
        found.append({"name": p.subject, "path": p.path, "line": p.line, "names": sorted(p.names), "why": why})
    return found


def hints(model: Model, where: Callable[[str], str] = str) -> List[str]:
    """What to set when archsync sees too little to check anything (`where`: a path as the user reads it)."""
    found: List[str] = []
    if not model.registered:
        found.append("nothing is registered: no `EntryClass`, registry dict, registration call or registering "
                     "decorator was found; name the registry with `registries = [\"NAME\"]` (or "
                     "`\"path/to/module.py::NAME\"`, `\"@decorator\"`), so unknown names and families can be checked")
    if not model.registered and model.type_lists:
        path, line, name = model.type_lists[0]
        more = f", and {len(model.type_lists) - 1} more" if len(model.type_lists) > 1 else ""
        lists = "1 list tests" if len(model.type_lists) == 1 else f"{len(model.type_lists)} lists test"
        found.append(f"{lists} a checkpoint's "
                     f"`model_type` ({where(path)}:{line} {name}{more}); a model type stands for the registered "
                     "architectures it names, and nothing is registered, so none is checked: a table of the project's "
                     "own from model type to its classes (`{\"llama\": LlamaModel}`) is named with `registries`; "
                     "a project that serves whatever `transformers` loads has no name of its own to register")
    if model.external_registries and not model.universe_packages:
        tops = list(dict.fromkeys(m.partition(".")[0] for m in model.external_registries))
        packages = ", ".join(f'"{top}"' for top in tops)
        snapshots = {label.partition(" ")[0] for label in model.host_snapshots}
        # a registry outside the project may be a host archsync ships no snapshot of (`rtp_llm`)
        read = [top for top in tops if top in snapshots]
        whose = "its" if read == tops else " and ".join(read) + "'s"
        said = f"; archsync's snapshot of {whose} names is read, and may be older than the host you run on" \
            if read else ""
        found.append(f"the project registers into {', '.join(model.external_registries)}, outside it: names it "
                     f"serves are registered there, so ARC201 is off{said}; `universe-from = [{packages}]` "
                     f"reads {'the installed one' if read == tops and len(tops) == 1 else 'them'} (never imported)")
    if not model.collections:
        found.append("no subject found: no `*_ARCHS` collection and no list, test or decorator holding a registered "
                     "name; name the collections to check with `guard = [\"GLOB\"]`")
    return found


def _shown(model: Model, where: Callable[[str], str]) -> Dict[str, Any]:
    """The inventory with the project's paths mapped by `where` (`seen`); a host's path
    (`transformers/models/auto/modeling_auto.py`, from a snapshot or `universe-from`) is no file of the project, and
    stays as the host names it wherever the project's root is."""
    hosts = frozenset(model.hosts)

    def mapped(path: str) -> str:
        return path if path.partition("/")[0] in hosts else where(path)

    return seen(inventory(model, mapped), mapped)


def seen(document: Dict[str, Any], where: Callable[[str], str]) -> Dict[str, Any]:
    """The document with each entry's path mapped by `where` (`paths.from_here`: as the user reads it)."""
    return {key: [dict(entry, path=where(entry["path"])) if isinstance(entry, dict) and "path" in entry else entry
                  for entry in value] if isinstance(value, list) else value
            for key, value in document.items()}


def render_text(model: Model, where: Callable[[str], str] = str) -> str:
    document = _escaped(_shown(model, where))  # a newline in a file name must not forge a line
    lines = [f"Registered architectures: {len(document['registered'])}"]
    for entry in document["registries"]:
        lines.append(f"  {entry['path']}: {entry['name']} ({entry['shape']}, {entry['names']} "
                     f"name{'s' if entry['names'] != 1 else ''})")
    for module in document["external_registries"]:
        lines.append(f"  registers into {module} (outside the project)")
    for package in document["universe_from"]:
        lines.append(f"  read from the installed {package} (universe-from)")
    for label in document["host_snapshots"]:
        lines.append(f"  read from archsync's snapshot of {label}: " + (
            "the project serves its models (it imports it, and registers none of its own or fewer than its files "
            "write of the library's, quoted or as the model types they test)" if label.partition(" ")[0] == LIBRARY else
            "the project is its plugin (it declares the host's entry points or registers into its registry)"))
    subjects = document["subjects"]
    scopes = Counter(s["scope"] for s in subjects)
    declared = sum(1 for s in subjects if s["declared"])
    by_scope = "; " + ", ".join(f"{n} {scope}" for scope, n in sorted(scopes.items())) if scopes else ""
    found = len(subjects) - declared
    lines.append(f"Subjects: {len(subjects)} ({declared} declared, {found} found by shape{by_scope})")
    for subject in subjects:
        mark = ("" if subject["declared"] else " (by shape)") + (f": {subject['read']}" if subject["read"] else "") \
            + (f"; a copy of the host's {subject['copies']}" if subject["copies"] else "")
        lines.append(f"  {subject['path']}:{subject['line']}: {subject['name']} [{subject['scope']}, "
                     f"{_names(subject['names'])}]{mark}")
    lines.append(f"Families: {len(document['families'])}")
    for family in document["families"]:
        lines.append(f"  {family['path']}:{family['line']}: {family['name']}() [{family['kind']}, "
                     f"{_names(len(family['names']))}]")
    if document["not_families"]:
        lines.append(f"Not families: {len(document['not_families'])} (`families = [\"NAME\"]` makes one a family)")
    for other in document["not_families"]:
        lines.append(f"  {other['path']}:{other['line']}: {other['name']}() [{_names(len(other['names']))}]: "
                     f"{other['why']}")
    if not document["registered"] and document["model_type_lists"]:
        lines.append(f"Lists of model types, not checked while nothing is registered: "
                     f"{len(document['model_type_lists'])}")
        lines += [f"  {entry['path']}:{entry['line']}: {entry['name']}" for entry in document["model_type_lists"]]
    for hint in document["hints"]:
        lines.append(f"hint: {hint}")
    return "\n".join(lines) + "\n"


def _escaped(value: Any) -> Any:
    """Every string of the document as the terminal may show it."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    return value


def _names(count: int) -> str:
    return f"{count} name{'s' if count != 1 else ''}"


def render_json(model: Model, root: Path, where: Callable[[str], str] = str) -> str:
    """`--format json` (version 2: each `path` of the project's mapped by `where`, from where the command runs,
    beside the project's absolute `root`, a host's as the host names it; 1: project-relative paths, no `root`)."""
    return json.dumps(json_safe(_document(model, root, where)), indent=2) + "\n"


def render_projects_json(projects: Sequence[Tuple[Model, Path, Callable[[str], str]]]) -> str:
    """`--format json` from a directory above several projects: `{"version": 2, "projects": [...]}`, each
    project's document as `render_json` writes it alone."""
    documents = [_document(model, root, where) for model, root, where in projects]
    return json.dumps(json_safe({"version": 2, "projects": documents}), indent=2) + "\n"


def _document(model: Model, root: Path, where: Callable[[str], str]) -> Dict[str, Any]:
    return {"version": 2, "root": str(root.resolve()), **_shown(model, where)}
