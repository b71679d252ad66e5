"""Who reads a subject: a list that nothing reads gates nothing, and completing it helps no one.

A module-level list is read where its name is used; a function's local list or inline test is
read when the function is called. A name written nowhere but where it is defined, in its own
module or in any module that could refer to it, is read by nothing (a predicate kept after its
last caller went, SGLang's `is_fa3_default_architecture`). A module refers to another's names only
through its imports (`extract/bindings.py`), so the search reads the defining files, every file's
import bindings (`from m import NAME`, at any indentation), and then only the files whose imports
reach the defining module (the module, a package above it, a star import): there any mention
counts, a call, an attribute, an `__all__` entry or a comment. A method, a decorated function (a
framework calls it), a test function and module-level code are always read. It stops at the second
mention, which for most names is in the defining file.
"""
from __future__ import annotations

import functools
from types import MappingProxyType
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, Mapping, Optional, Tuple

from ..extract.bindings import Targets, absolute_module
from ..extract.facts import CLASS, LOCAL, MODULE, FileFacts
from ..project.discovery import SourceFile
from ..project.files import Unreadable
from ..project.index import ProjectIndex
from ..project.mentions import ENOUGH, Counts, counted
from .served import is_not_served
from .values import Collection

UNREAD = "nothing in the project reads it: its name appears only where it is defined"


def _unread(collection: Collection, name: str) -> str:
    """Why nothing reads a collection whose readers are `name`'s: its own name's, or its function's."""
    if name == collection.subject:
        return UNREAD
    return f"nothing in the project calls {name}(), where it is: that name appears only where it is defined"


def holder(collection: Collection) -> Optional[str]:
    """The name whose readers read the subject, or None when it is always read."""
    if collection.scope == MODULE:
        return collection.subject
    if collection.scope == CLASS:
        return None  # an attribute is read through instances and subclasses: not searched by name
    owner = collection.subject.rpartition(".")[0] if collection.scope == LOCAL else \
        collection.subject.partition("#")[0]
    if not owner or "." in owner or owner.startswith(("<", "@", "test", "__")):
        return None  # module-level code, a method or nested function, a decorator's list, a test
    return owner


def unread(collections: Iterable[Collection], index: ProjectIndex,
           earlier: Mapping[str, Tuple[str, Counts]] = MappingProxyType({})) -> Dict[Tuple[str, str], str]:
    """(path, subject) -> why, for each collection nothing reads. `earlier`: what the last run counted in
    each file it searched (`ProjectIndex.mentioned`), taken again for a file of the same digest."""
    held = [(c, name) for c in collections for name in (holder(c),) if name is not None]
    holders = {(c.path, c.subject): name for c, name in held}
    if not holders:
        return {}
    mentions = _mentions(frozenset(holders.values()), frozenset(p for p, _ in holders), index, earlier)
    return {(c.path, c.subject): _unread(c, name) for c, name in held if mentions.get(name, 0) < ENOUGH}


def _mentions(names: FrozenSet[str], own: FrozenSet[str], index: ProjectIndex,
              earlier: Mapping[str, Tuple[str, Counts]]) -> Dict[str, int]:
    """How often each name is written as a word, counted up to two: in the files that define the subjects
    first (most names are read there), then in any file's imports (`from m import NAME`), and only for
    what is left in the bytes of the files that may reach the defining modules (a module sees another's
    names through its imports alone: `extract/bindings.py`). A file that cannot be read reads every
    name: nothing is claimed unread on what was not seen. What each file gave is recorded on the index:
    the run depends on it."""
    counts = dict.fromkeys(names, 0)
    sources = dict(index.paths())
    for path in sorted(own):
        if path in sources:
            _count(counts, sources[path], index, earlier)
        else:
            counts.update(dict.fromkeys(counts, ENOUGH))
    for name in _imported(counts, index):
        counts[name] = ENOUGH
    if all(k >= ENOUGH for k in counts.values()):
        return counts
    for _, source in _may_reach(sources, own, index):
        _count(counts, source, index, earlier)
        if all(k >= ENOUGH for k in counts.values()):
            break
    return counts


def _count(counts: Dict[str, int], source: SourceFile, index: ProjectIndex,
           earlier: Mapping[str, Tuple[str, Counts]]) -> None:
    """Add what one file writes of the names still open, from the last run's count where its bytes are the same."""
    wanted = [name for name, seen in counts.items() if seen < ENOUGH]
    file_digest = index.digest_of(source)
    before = earlier.get(source.rel)
    kept = dict(before[1]) if before is not None and file_digest and before[0] == file_digest else {}
    if all(name in kept for name in wanted):
        found: Counts = tuple((name, kept[name]) for name in sorted(wanted))
    else:
        data = index.read(source)
        if isinstance(data, Unreadable):
            counts.update(dict.fromkeys(wanted, ENOUGH))
            return
        found = counted(data, wanted)
    index.mentioned[source.rel] = (file_digest, found)
    for name, times in found:
        counts[name] += times


def _imported(counts: Dict[str, int], index: ProjectIndex) -> Iterator[str]:
    """The open names some file imports by name (`from m import NAME`, at any indentation)."""
    open_names = {name for name, seen in counts.items() if seen < ENOUGH}
    reachers = index.reachers
    if reachers is not None:  # the modules it indexes, by the names they import; the chosen ones below
        yield from (name for name in open_names if name in reachers.by_name)
    for module, signals in index.signals():  # and the rest: chosen files, and tests and examples (no choice's)
        if reachers is None or index.is_chosen(module) or is_not_served(index.path_of(module)):
            yield from open_names.intersection(_names_imported(signals.imports))


@functools.lru_cache(maxsize=1 << 12)  # a file's import bindings are one value while its record stands
def _names_imported(bindings: FrozenSet[str]) -> FrozenSet[str]:
    """The names import bindings bind by name (`level:module:NAME`)."""
    return frozenset(b.rpartition(":")[2] for b in bindings)


def _may_reach(sources: Dict[str, SourceFile], own: FrozenSet[str], index: ProjectIndex
               ) -> Iterator[Tuple[str, SourceFile]]:
    """The files besides `own` that may refer to a name `own` defines: every file, or where this run's
    selection indexed what the unchosen files' imports reach, those whose imports reach a module of
    `own` (the module, a package above it, or a star), and the chosen files, tests and examples (which the
    selection never indexes: `selection.py`) whose imports may. An example's call reads a library's list."""
    if index.reachers is None:
        yield from ((path, source) for path, source in sources.items() if path not in own)
        return
    modules = {source.module for path, source in sources.items() if path in own}
    above = frozenset({module[:at] for module in modules for at, char in enumerate(module) if char == "."} | modules)
    reached = index.reachers.reaching(Targets.of(frozenset(), modules))
    for package in above:  # a star import of a package above (its `__init__` may star-import the module)
        reached.update(index.reachers.by_module.get(package, ()))
    imports = dict(index.signals())
    for path, source in sources.items():
        if path in own:
            continue
        if source.module in reached or ((index.is_chosen(source.module) or is_not_served(path)) and _may_bind(
                imports[source.module].imports if source.module in imports else None, index.package(source.module),
                above)):
            yield path, source


@functools.lru_cache(maxsize=1 << 12)  # asked again of the same bindings by the language server's next run
def _may_bind(bindings: Optional[FrozenSet[str]], package: str, above: FrozenSet[str]) -> bool:
    """Do these import bindings (`extract/bindings.py`) bind a module of `above`, or star-import one?"""
    if bindings is None:
        return True  # not read: nothing is claimed on what was not seen
    for binding in bindings:
        if binding[0] == "^":
            if binding[1:] in above:
                return True
            continue
        level, module, name = binding.split(":", 2)
        base = absolute_module(package, module, int(level))
        if base is not None and (base in above or (name not in ("", "*") and f"{base}.{name}" in above)):
            return True
    return False


def class_name_keyed(facts: Iterable[FileFacts]) -> FrozenSet[Tuple[str, str]]:
    """(module, name) of each collection some module looks up with a Python class name (`keys.py`):
    its own, or one it imports (`from m import TABLE`, `m.TABLE`)."""
    return _keyed(facts, lambda f: f.class_keyed)


def model_type_keyed(facts: Iterable[FileFacts]) -> FrozenSet[Tuple[str, str]]:
    """(module, name) of each collection some module tests a model type against (`model_type_keys.py`):
    its own (a module-level list, a function's local list or inline test: `f.TYPES`, `f#1`), or one it
    imports."""
    facts = list(facts)
    own = {(f.module, c.name) for f in facts for c in f.collections}
    found = {(f.module, written) for f in facts for written in f.type_keyed if (f.module, written) in own}
    return frozenset(found).union(_keyed(facts, lambda f: tuple(w for w in f.type_keyed if (f.module, w) not in own)))


def _keyed(facts: Iterable[FileFacts], written_of: Callable[[FileFacts], Tuple[str, ...]]
           ) -> FrozenSet[Tuple[str, str]]:
    found = set()
    for file_facts in facts:
        imports = {local: (module, attribute) for local, module, attribute in file_facts.imports}
        for written in written_of(file_facts):
            if written.startswith("="):  # imported by the function that looks it up (`keys.keyed_tables`)
                module, _, name = written[1:].partition(":")
                found.add((module, name))
                continue
            head, _, rest = written.partition(".")
            module, attribute = imports.get(head, (file_facts.module, None))
            if not rest:
                found.add((module, attribute or head) if head in imports else (file_facts.module, head))
            elif "." not in rest:  # `m.TABLE`, `m` a module (`import a.m as m`, `from a import m`)
                found.add((module if attribute is None else f"{module}.{attribute}", rest))
    return frozenset(found)
