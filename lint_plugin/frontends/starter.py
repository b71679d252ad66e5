"""The starter `[tool.archsync]` table that `archsync init` writes, composed from what a run found.

Only `extends` is a setting, naming the rule packs that fit; everything else is a comment: what
was found, and the key to set beside it. So the table changes what `archsync check` reports only
by what a pack says. Whatever the tree holds reaches the table escaped (`printable` in comments,
`toml_string` in strings): a file name cannot end a comment and start a setting.
"""
from __future__ import annotations

import itertools
import posixpath
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

from ..config import Config, matches_pattern
from ..report.escape import printable
from ..resolve import Collection, Model
from .inventory import inventory

WIDTH = 99  # of a comment paragraph, "# " included
LISTED = 12  # registries and families listed before "and N more"
CANDIDATES = 6  # capability predicates offered as families
MIRROR_LIKENESS = 0.6  # names in common / names in either: lists this alike may be meant to be equal
MIRROR_NAMES = 3  # smaller lists are too small to tell
MIRRORS = 3  # mirror candidates offered


@dataclass(frozen=True)
class Pack:
    """A rule pack that fits the project: its name and its configuration alone."""

    name: str
    config: Config

    @property
    def summary(self) -> str:
        counts = [(len(self.config.mirrors), "mirror"), (len(self.config.subsets), "subset"),
                  (len(self.config.covers), "cover"), (len(self.config.exemptions), "exemption")]
        return ", ".join(_count(n, word) for n, word in counts if n)


def pack_fits(pack: Config, model: Model) -> bool:
    """Is this the project a pack is for? Every collection its contracts name is one module-level
    subject of `model` (a run without configuration), and every exemption names a subject or family."""
    named = pack.named_collections
    if not named and not pack.exemptions:
        return False
    module_level = [c for c in model.collections if c.scope == "module"]
    for name in named:
        if sum(1 for c in module_level if matches_pattern([name], c.path, c.subject)) != 1:
            return False
    subjects = [(c.path, c.subject) for c in model.collections] + [(f.path, f.subject) for f in model.families]
    return all(any(matches_pattern([e.subject], path, subject) for path, subject in subjects)
               for e in pack.exemptions)


def starter_table(model: Model, packs: Sequence[Pack]) -> str:
    """The table, `\\n`-terminated lines; comments wrapped at WIDTH."""
    sections = [
        ["[tool.archsync]"] + _paragraph(
            "Started by `archsync init` from what it found in this project. "
            + ("Only `extends` is set; every other line is a comment: " if packs else "Every line is a comment: ")
            + "what was found, and a key to set when you need it (README, \"Configuration\"). "
            "`archsync inventory` lists all that archsync finds."),
        _packs(packs),
        _registries(model),
        _subjects(model),
        _families(model),
        _universe(model),
        _other_keys(),
        _contracts(model, packs),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"


def toml_string(text: str) -> str:
    """A TOML basic string holding exactly `text`, in ASCII (anything else as a `\\u` escape)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif " " <= char <= "~":
            out.append(char)
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(f"\\U{ord(char):08X}")
    return '"' + "".join(out) + '"'


def _packs(packs: Sequence[Pack]) -> List[str]:
    if not packs:
        return []
    lines = _paragraph(f"{'Rule packs' if len(packs) > 1 else 'The rule pack'} made for this project: every "
                       "list it names is here. A pack is configuration shipped with archsync, merged under "
                       "yours; `archsync init` printed what it changes in what `archsync check` reports.")
    lines.append(f"extends = [{', '.join(toml_string(p.name) for p in packs)}]"
                 f"  # {printable('; '.join(f'{p.name}: {p.summary}' for p in packs))}")
    return lines


def _registries(model: Model) -> List[str]:
    document = inventory(model)
    registered = len(document["registered"])
    if not registered and not model.external_registries:
        return _paragraph(
            "Registries: nothing is registered (no `EntryClass`, registry dict, registration call or registering "
            "decorator was found). Name the registry, so unknown names and families can be checked (what "
            "the list names adds to `EntryClass`):") + [
            '# registries = ["path/to/module.py::NAME", "@decorator"]']
    lines = _paragraph(
        f"Registries: {_count(registered, 'registered name')}, from these registries found by their shape "
        "(listing them changes nothing). Name one it missed (it adds to these); \"!GLOB\" drops one found "
        "(\"!EntryClass\" the `EntryClass` statements):")
    groups: Dict[Tuple[str, str], List[Dict[str, object]]] = defaultdict(list)
    for entry in document["registries"]:
        groups[(entry["name"], entry["shape"])].append(entry)
    found = []
    for (name, shape), entries in groups.items():
        names = sum(int(str(e["names"])) for e in entries)
        paths = [str(e["path"]) for e in entries]
        if len(paths) == 1:
            found.append((names, f"{paths[0]}: {name} ({shape}, {_count(names, 'name')})"))
        else:
            under = posixpath.commonpath([posixpath.dirname(p) for p in paths])
            where = f" under {under}/" if under else ""
            found.append((names, f"{name} ({shape}) in {len(paths)} files{where}: {_count(names, 'name')}"))
    found.sort(key=lambda item: (-item[0], item[1]))
    lines += _listed([text for _, text in found])
    lines += [printable(f"#   registers into {module} (outside the project)") for module in model.external_registries]
    lines.append('# registries = ["path/to/module.py::NAME", "@decorator", "!GLOB"]')
    return lines


def _subjects(model: Model) -> List[str]:
    subjects = model.collections
    if not subjects:
        return _paragraph(
            "Subjects: none found (no `*_ARCHS` collection, and no list, test or decorator holding a registered "
            "name). Name the collections to check:") + ['# guard = ["GLOB", "path/to/module.py::NAME"]']
    scopes: Dict[str, int] = defaultdict(int)
    for subject in subjects:
        scopes[subject.scope] += 1
    by_scope = ", ".join(f"{n} {scope}" for scope, n in sorted(scopes.items()))
    lines = _paragraph(
        f"Subjects, the lists and tests checked: {len(subjects)} ({by_scope}). "
        "With `guard` set, exactly the subjects it names are checked instead, and no others are found by "
        "shape. These are the named ones of two names or more:")
    archs = [c for c in subjects if matches_pattern(["*_ARCHS"], c.path, c.subject)]
    named: Dict[str, List[Collection]] = defaultdict(list)
    for c in subjects:
        if c not in archs and c.scope in ("module", "class", "local") and len(c.members.names) > 1:
            named[c.subject].append(c)
    lines.append("# guard = [")
    if archs:
        lines.append(f'#     "*_ARCHS",  # the default: {_count(len(archs), "subject")}')
    for name, places in named.items():
        first = places[0]
        also = f", and {_count(len(places) - 1, 'other')}" if len(places) > 1 else ""
        lines.append(printable(f"#     {toml_string(name)},  # {first.path}:{first.line}, "
                               f"{_count(len(first.members.names), 'name')}{also}"))
    lines.append("# ]")
    return lines


def _families(model: Model) -> List[str]:
    families = sorted(model.families, key=lambda f: (f.path, f.line))
    lines = _paragraph(
        "Families: predicates named after a lineage; a subject that holds one of a family's names must hold "
        "all of them (ARC101)." + ("" if families else " None found."))
    lines += _listed([f"{f.path}:{f.line}: {f.subject}() ({_count(len(f.names), 'name')})" for f in families])
    keys = {f.key for f in model.families}
    others = sorted((p for p in model.predicates.values() if p.key not in keys and len(p.names) > 1),
                    key=lambda p: ("." in p.subject, p.subject.startswith("_"), -len(p.names), p.subject))
    found = "; found: " + ", ".join(f"{p.subject}() ({_count(len(p.names), 'name')})"
                                    for p in others[:CANDIDATES]) if others else ""
    more = f", and {len(others) - CANDIDATES} more" if len(others) > CANDIDATES else ""
    lines += _paragraph(
        f"A predicate across lineages is no family unless named here{found}{more}. Name one only if every "
        "subject holding one of its names must hold all of them; a config-class test "
        "(`isinstance(config, A | B)`) can be named too:")
    lines.append(f"# families = [{toml_string(others[0].subject if others else 'is_NAME')}]")
    return lines


def _universe(model: Model) -> List[str]:
    if not model.external_registries or model.universe_packages:
        return []
    packages = list(dict.fromkeys(m.partition(".")[0] for m in model.external_registries))
    snapshot = f" Their names are read from archsync's snapshot of {', '.join(model.host_snapshots)}, which may be " \
        "older than the one you run on." if model.host_snapshots else ""
    return _paragraph(
        f"The project registers into {', '.join(model.external_registries)}, outside it: the names it serves are "
        f"registered there, so ARC201 (unknown names) is off.{snapshot} Name the package that registers them, "
        "found on this interpreter's path or in the project's virtual environment, read and never imported:") + [
        f"# universe-from = [{', '.join(toml_string(p) for p in packages)}]"]


def _other_keys() -> List[str]:
    return ["# Other keys:",
            '# exclude = ["tests/fixtures"]  # globs of root-relative paths or file/directory names not to analyse',
            '# src = ["."]                   # source roots, relative to this file: module names start there',
            '# kinship = "strong"            # ARC105: "strong" (the default), "all" or "off"',
            '# siblings = [["ForConditionalGeneration", "ForCausalLM"]]  # ARC104 suffix pairs; [] turns it off']


def _contracts(model: Model, packs: Sequence[Pack]) -> List[str]:
    lines = _paragraph("Contracts, each a table of its own after the keys above. A collection is named "
                       "`NAME` or `path/to/module.py::NAME`, must match one module-level list, and is then "
                       "checked like a guarded one (unknown names included).")
    mirrors = _mirror_candidates(model, packs)
    if mirrors:
        lines += _paragraph("These lists hold nearly the same names: declare them mirrors if they must stay "
                            "equal (ARC102), and exempt what differs on purpose:")
    for group in mirrors:
        names = [c.members.names for c in group]
        common = frozenset.intersection(*names)
        differ = frozenset.union(*names) - common
        differing = "none differs" if not differ else _count(len(differ), "name") + (" differs" if len(differ) == 1
                                                                                 else " differ")
        lines.append(f"# [[tool.archsync.mirror]]  # {_count(len(common), 'name')} in common, {differing}")
        lines.append("# collections = [")
        lines += [printable(f"#     {toml_string(c.path + '::' + c.subject)},") for c in group]
        lines.append("# ]")
    if not mirrors:
        lines += ["# [[tool.archsync.mirror]]  # ARC102: these collections hold the same names",
                  '# collections = ["A_ARCHS", "B_ARCHS"]']
    lines += ["# [[tool.archsync.subset]]  # ARC103: every name of `of` is in `in` (\"registered\": is registered)",
              '# of = "A_ARCHS"',
              '# in = "registered"',
              "# [[tool.archsync.exempt]]  # a deliberate difference; ARC202 says when it no longer applies",
              '# subject = "A_ARCHS"',
              '# members = ["XForCausalLM"]',
              '# reason = "why it differs"']
    return lines


def _mirror_candidates(model: Model, packs: Sequence[Pack]) -> List[Tuple[Collection, ...]]:
    """Groups of module-level lists alike enough to be meant equal, those a pack mirrors left out."""
    mirrored = [name for p in packs for m in p.config.mirrors for name in m.collections]
    lists = [c for c in model.collections if c.scope == "module" and len(c.members.names) >= MIRROR_NAMES
             and not matches_pattern(mirrored, c.path, c.subject)]
    parent = list(range(len(lists)))  # union-find: a group is every list alike to one of it

    def top(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(lists)), 2):
        first, second = lists[i].members.names, lists[j].members.names
        if len(first & second) >= MIRROR_LIKENESS * len(first | second):
            parent[top(j)] = top(i)
    groups: Dict[int, List[Collection]] = defaultdict(list)
    for i, collection in enumerate(lists):
        groups[top(i)].append(collection)
    return [tuple(g) for g in groups.values() if len(g) > 1][:MIRRORS]


def _listed(items: Sequence[str]) -> List[str]:
    lines = [printable(f"#   {item}") for item in items[:LISTED]]
    if len(items) > LISTED:
        lines.append(f"#   and {len(items) - LISTED} more")
    return lines


def _paragraph(text: str) -> List[str]:
    return ["# " + line for line in textwrap.wrap(printable(text), WIDTH - 2, break_long_words=False,
                                                  break_on_hyphens=False)]


def _count(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"
