"""Settings that match nothing: a typo must not leave a CI gate green.

Only what the project itself writes is held to this (a rule pack is written for many
versions of a codebase). Per key, by what a miss most likely is:

- `src` naming no directory, and `guard`, `families`, `registries`, `config-maps` entries
  that match nothing in the project: a typo, so a configuration error (exit 2), as a
  contract naming no collection already is. The message offers the nearest names, except for a
  `registries` entry the code does call or decorate with: no architecture name was read from those
  uses, and the message says where they are and what their first argument is.
- a `name-pattern` that no registered name matches: no predicate's string would be read, so an
  error.
- a `src` directory holding no Python file, a `registries = ["!GLOB"]` that drops nothing, and
  a `siblings` suffix that ends no registered name (copied from an example into a project that
  has no such names, say): a warning.
- `exclude` matching nothing is not reported: excluding what a checkout lacks is common
  and changes nothing.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, List, Sequence, Tuple

from ..config import Config, ConfigError, matches_pattern
from ..project.index import ProjectIndex
from .values import Predicate


def check_src(config: Config, files: Sequence[str]) -> Tuple[str, ...]:
    """Warnings about `src` directories without Python files; raises ConfigError for one that is no
    directory. Asked before anything is resolved: a wrong `src` is why a contract finds no collection,
    and the message must name the cause, not the contract (a rule pack's, say)."""
    warnings: List[str] = []
    where = f"{config.source}: tool.archsync"
    for entry in dict(config.stated).get("src", ()):
        base = os.path.normpath(os.path.join(str(config.root), entry))
        prefix = Path(os.path.relpath(base, str(config.root))).as_posix()
        if not os.path.isdir(base):
            raise ConfigError(f"{where}.src: {entry!r} is not a directory in the project")
        if not any(prefix == "." or f.startswith(prefix + "/") for f in files):
            warnings.append(f"{where}.src: {entry!r} holds no Python file")
    return tuple(warnings)


def check_settings(index: ProjectIndex, predicates: Iterable[Predicate],
                   registered: Iterable[str] = ()) -> Tuple[str, ...]:
    """Warnings about harmless misses; raises ConfigError for the first setting that matches nothing
    (`src` is `check_src`'s)."""
    config = index.config
    stated = dict(config.stated)
    errors: List[str] = []
    warnings: List[str] = []
    where = f"{config.source}: tool.archsync"
    facts = index.facts
    collections = [(f.path, c.name) for f in facts for c in f.collections]
    named_predicates = [(f.path, p.name) for f in facts for p in f.predicates]
    named_predicates += [(p.path, p.subject) for p in predicates]
    registries = [(f.path, r.registry) for f in facts for r in f.registrations]
    mappings = [(f.path, m.name) for f in facts for m in f.mappings]
    errors += _misses(where, "guard", stated.get("guard", ()), collections, "collection")
    families = [f[1:] if f.startswith("!") else f for f in stated.get("families", ())]
    errors += _misses(where, "families", families, named_predicates, "predicate")
    plain = [r for r in stated.get("registries", ()) if not r.startswith("!") and "::" not in r]
    missing = [e for e in plain if not any(matches_pattern([e], path, name) for path, name in registries + collections)]
    unread = {entry: _unread(index, where, entry) for entry in missing}  # read only where one matched nothing
    errors += [message for message in unread.values() if message]
    errors += _misses(where, "registries", [e for e in missing if not unread[e]], registries + collections,
                      "registry or collection")
    errors += _misses(where, "config-maps", stated.get("config_maps", ()), mappings, "dict")
    for entry in stated.get("registries", ()):
        if entry.startswith("!") and not any(matches_pattern([entry[1:]], p, n) for p, n in registries):
            warnings.append(f"{where}.registries: {entry!r} drops no registry found in the project")
    names = sorted(registered)
    if names:  # judged against what is registered; with nothing registered there is nothing to judge by
        errors += _name_pattern_misses(where, stated.get("name_pattern", ()), index.config.name_regex, names)
        warnings += _sibling_misses(where, stated.get("siblings", ()), names)
    if errors:
        raise ConfigError(errors[0])
    return tuple(warnings)


# a call or a decorator of a registry's name, and the start of its first argument
_USE = ("(?<![\\w.])(@[ \\t]*)?(?:[A-Za-z_][\\w.]*\\.)?{name}[ \\t]*\\([ \\t\\r\\n]*"
        "([A-Za-z_][\\w.]*\\(?|[^\\s,)]{{0,40}})")


def _unread(index: ProjectIndex, where: str, entry: str) -> str:
    """Why a `registries` entry the project's code calls or decorates with registers nothing, or "": none of
    its uses names an architecture as archsync reads one (ms-swift's `register_model(ModelMeta(...))`).
    Offering a registry of another name there would mislead."""
    name = entry.lstrip("@")
    if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return ""  # a glob: what it matches is not one name
    short = name.rpartition(".")[2]
    use = re.compile(_USE.format(name=re.escape(short)).encode())
    calls = decorations = 0
    first = ""
    for path, data in index.spelling(short.encode()):
        for found in use.finditer(data):
            if data[max(0, found.start() - 4):found.start()] == b"def ":
                continue  # its definition
            if found.group(1):
                decorations += 1
            else:
                calls += 1
            if not first:
                argument = found.group(2).decode("utf-8", "replace")
                argument += "...)" if argument.endswith("(") else ""
                line = data.count(b"\n", 0, found.start()) + 1
                first = f"{path}:{line}" + (f", first with `{argument}`" if argument else "")
    if not calls and not decorations:
        return ""
    uses = " and ".join(f"{how} {n} {'time' if n == 1 else 'times'}" for how, n in (
        ("called", calls), ("used as a decorator", decorations)) if n)
    return (f"{where}.registries: {entry!r} registers no name archsync can read: `{short}` is {uses} ({first}); "
            f"a registering call or decorator names the architecture as its first argument, a string "
            f"(`{short}(\"LlamaForCausalLM\", ...)`), or gives the project's own key, the class that serves it "
            f"and a list of architecture names (`{short}(\"llama\", LlamaModel, [\"LlamaForCausalLM\"])`)")


def _name_pattern_misses(where: str, stated: Sequence[str], regex: "re.Pattern[str]",
                         names: Sequence[str]) -> List[str]:
    """A `name-pattern` no registered name matches reads no string a predicate tests: every family is lost."""
    if not stated or any(regex.fullmatch(name) for name in names):
        return []
    return [f"{where}.name-pattern: {stated[0]!r} matches no registered name (such as {names[0]!r}), so no "
            f"string a predicate tests is read as one"]


def _sibling_misses(where: str, suffixes: Sequence[str], names: Sequence[str]) -> List[str]:
    """A `siblings` suffix that ends no registered name pairs nothing (ARC104 is silent for its pair)."""
    known = sorted({name[name.rfind("For"):] for name in names if name.rfind("For") > 0})
    warnings = []
    for suffix in suffixes:
        if not any(name.endswith(suffix) and len(name) > len(suffix) for name in names):
            import difflib  # here, as below: only a setting that matches nothing needs a hint

            hint = difflib.get_close_matches(suffix, known, n=1, cutoff=0.75)
            warnings.append(f"{where}.siblings: {suffix!r} ends no registered name"
                            + (f" (did you mean {hint[0]!r}?)" if hint else ""))
    return warnings


def _misses(where: str, key: str, entries: Iterable[str], known: Sequence[Tuple[str, str]], what: str) -> List[str]:
    """One error line for the entries of `key` that match none of the `known` (path, name) pairs."""
    missing = [e for e in entries if not any(matches_pattern([e], path, name) for path, name in known)]
    if not missing:
        return []
    import difflib

    names = sorted({name for _, name in known})
    hints = [h for e in missing for h in difflib.get_close_matches(e.rpartition("::")[2], names, n=2, cutoff=0.75)]
    listed = ", ".join(map(repr, missing))
    verb = "matches" if len(missing) == 1 else "match"
    hint = f" (did you mean {', '.join(map(repr, dict.fromkeys(hints)))}?)" if hints else ""
    return [f"{where}.{key}: {listed} {verb} no {what} in the project{hint}"]
