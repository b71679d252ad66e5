"""Did later history do what a diagnostic asked? Judged on the subject's own literal, not its function.

A finding on `ServerArgs.__post_init__#7` is about that one test, not about the forty others in
the method: a name the method mentions elsewhere confirms nothing. So the file is read with
archsync's extraction at the parent and at the reference commit, the subject's names are taken
at both, and the later literal that is the same subject is found: by name when it has one
(`A_ARCHS`, `Class.attr`, `function.local`, `@decorator:function`), and for an inline test
(`function#3`, numbered in source order, so the number moves when a test is added above it)
the test of that function sharing the most names with the parent's. Names referred to in the
same file are followed; a literal built from another file is judged only on what it writes.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Dict, FrozenSet, Optional, Sequence, Set

from lint_plugin.config import DEFAULT_NAME_PATTERN
from lint_plugin.config.settings import DEFAULT_REGISTRIES
from lint_plugin.extract.facts import FileFacts, Literal, Part, Ref
from lint_plugin.extract.from_bytes import extract_file


@dataclass(frozen=True)
class Names:
    """The names a subject holds in one file, and whether some of its value was not followed."""

    names: FrozenSet[str]
    complete: bool


def read_facts(source: str, path: str) -> FileFacts:
    """The file's facts, as a zero-config run reads them."""
    module = path[:-3].replace("/", ".")
    package = module.endswith(".__init__")
    return extract_file(source.encode("utf-8"), path, module.rpartition(".")[0] if package else module,
                        DEFAULT_REGISTRIES, package, DEFAULT_NAME_PATTERN)


def subject_names(facts: FileFacts, subject: str) -> Optional[Names]:
    """What the subject called `subject` holds in these facts, or None when there is no such subject."""
    parts = _parts(facts, subject)
    return None if parts is None else _names(facts, parts, set())


def later_names(parent: FileFacts, later: FileFacts, subject: str) -> Optional[Names]:
    """What the same subject holds at the later commit, or None when it cannot be told which it is."""
    if "#" not in subject:
        return subject_names(later, subject)
    before = subject_names(parent, subject)
    if before is None or not before.names:
        return None
    scope = subject.partition("#")[0]
    best: Optional[Names] = None
    best_shared = 0
    for name in _inline_subjects(later, scope):
        found = subject_names(later, name)
        shared = len(found.names & before.names) if found is not None else 0
        if found is not None and shared > best_shared:
            best, best_shared = found, shared
    return best


def confirmed(code: str, member: str, parent: FileFacts, later: FileFacts, subject: str,
              missing_codes: Sequence[str]) -> Optional[bool]:
    """A missing name is confirmed when the later subject holds it; an unknown one when it was respelt:
    the later subject no longer holds it and holds a close spelling of it the parent's did not (a typo
    corrected, a rename). A name dropped with nothing like it in its place says nothing either way:
    lmdeploy dropped whole models from its tables (`BaiChuanForCausalLM`, the real Baichuan-1
    architecture), which no more confirms "unknown" than it would "misspelt"."""
    found = later_names(parent, later, subject)
    if found is None:
        return None
    holds = member in found.names
    if code in missing_codes:
        return True if holds else (False if found.complete else None)
    if holds:
        return False if found.complete else None
    before = subject_names(parent, subject)
    added = found.names - before.names if before is not None else set()
    respelt = any(difflib.SequenceMatcher(None, member, name).ratio() >= 0.8 for name in added)
    return True if respelt else None


def _inline_subjects(facts: FileFacts, scope: str) -> Sequence[str]:
    return [c.name for c in facts.collections if c.name.partition("#")[0] == scope and "#" in c.name]


def _parts(facts: FileFacts, subject: str) -> Optional[Sequence[Part]]:
    for collection in facts.collections:
        if collection.name == subject:
            return collection.parts
    for predicate in facts.predicates:
        if predicate.name == subject:
            return predicate.tests
    return None


def _names(facts: FileFacts, parts: Sequence[Part], seen: Set[str]) -> Names:
    names: Set[str] = set()
    complete = True
    constants: Dict[str, str] = {name: value for name, value, _ in facts.constants}
    for part in parts:
        if isinstance(part, Literal):
            names.update(m.name for m in part.members)
        elif isinstance(part, Ref) and part.module == facts.module and part.name in constants:
            names.add(constants[part.name])
        elif isinstance(part, Ref) and part.module == facts.module and part.name not in seen:
            inner = _parts(facts, part.name)
            if inner is None:
                complete = False
                continue
            found = _names(facts, inner, seen | {part.name})
            names |= found.names
            complete = complete and found.complete
        else:
            complete = False
    return Names(frozenset(names), complete)
