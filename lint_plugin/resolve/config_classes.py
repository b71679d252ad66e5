"""Families from config classes: which registered architectures a type-dispatch predicate matches.

`hybrid_gdn_config()` returns the config when `isinstance(config, Qwen3NextConfig | ...)`;
its family is every registered architecture whose model class is built with one of those
config classes or a subclass of one (`Qwen3_5TextConfig(Qwen3NextConfig)`), read from the
model class's `__init__(self, config: X)` annotation or `config_class = X`, inherited
through model base classes. Nothing is imported: classes are followed through the index.
"""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Set, Tuple

from ..diagnostics import place
from ..extract.facts import ClassFact, FileFacts, Ref, TypePredicateFact, TypeTest
from .imports import Found, locate
from .source import ModuleSource
from .values import Occurrence, Predicate

ClassId = Tuple[str, str]  # (defining module, class name)
FoundClass = Tuple[FileFacts, ClassFact]


def _defines_class(facts: FileFacts, name: str) -> bool:
    return any(c.name == name for c in facts.classes)


class ConfigClasses:
    """Resolves classes, their bases and each registered architecture's config class.

    `mapped` binds architectures to config classes directly (the `config-maps` dicts).
    """

    def __init__(self, source: ModuleSource, mapped: Mapping[str, Ref]) -> None:
        self.source = source
        self._classes: Dict[ClassId, Optional[FoundClass]] = {}
        self._configs: Dict[str, Tuple[Optional[ClassId], str]] = {}
        self._mapped = dict(mapped)

    def find(self, ref: Ref) -> Optional[FoundClass]:
        """The class a reference names, following imports and re-exports."""
        key = (ref.module, ref.name)
        if key not in self._classes:
            found = locate(self.source, ref.module, ref.name, _defines_class)
            self._classes[key] = (found.facts, next(c for c in found.facts.classes if c.name == found.name)) \
                if isinstance(found, Found) else None
        return self._classes[key]

    def ancestors(self, start: FoundClass) -> List[ClassId]:
        """The class and every base it reaches, nearest first."""
        seen: List[ClassId] = []
        queue = [start]
        while queue and len(seen) < 200:
            facts, cls = queue.pop(0)
            identity = (facts.module, cls.name)
            if identity in seen:
                continue
            seen.append(identity)
            for base in cls.bases:
                found = self.find(base)
                if found is not None:
                    queue.append(found)
        return seen

    def config_of(self, arch: str, module: str) -> Tuple[Optional[ClassId], str]:
        """(config class, "") for an architecture registered in `module`, or (None, why not)."""
        if arch in self._configs:
            return self._configs[arch]
        model = self.find(Ref(module, arch, 0))
        result: Tuple[Optional[ClassId], str] = (None, f"class {arch} not found from {module}")
        if model is not None:
            missing = f"{arch} has no `config` annotation on __init__ and no config_class"
            result = (None, model[1].config_note or missing)
            queue, seen = [model], set()
            while queue:
                facts, cls = queue.pop(0)
                if (facts.module, cls.name) in seen:
                    continue
                seen.add((facts.module, cls.name))
                if cls.config_note is not None:
                    result = (None, cls.config_note)
                    break
                if cls.config is not None:
                    config = self.find(cls.config)
                    if config is not None:
                        result = ((config[0].module, config[1].name), "")
                    elif self.source.module(cls.config.module) is None:
                        # A class from outside the project (transformers' PretrainedConfig):
                        # known by name, with no project base that a test could name.
                        result = ((cls.config.module, cls.config.name), "")
                    else:
                        result = (None, f"config class {cls.config.name} of {arch} not found")
                    break
                queue.extend(found for found in (self.find(b) for b in cls.bases + cls.wrapped) if found is not None)
        if result[0] is None and arch in self._mapped:
            mapped = self._mapped[arch]
            config = self.find(mapped)
            result = ((config[0].module, config[1].name), "") if config else ((mapped.module, mapped.name), "")
        self._configs[arch] = result
        return result


def type_family(classes: ConfigClasses, facts: FileFacts, fact: TypePredicateFact,
                registered: Mapping[str, Occurrence], modules: Mapping[str, str]) -> Predicate:
    """The registered architectures whose config class is (a subclass of) a tested class."""
    tests: List[Tuple[ClassId, TypeTest]] = []
    unknown: List[str] = []
    for test in fact.tests:
        found = classes.find(test.target)
        if found is None:
            unknown.append(f"config class {test.target.name} not found ({place(facts.path, test.target.line)})")
            continue
        tests.append(((found[0].module, found[1].name), test))
    names: Set[str] = set()
    conditions: List[Tuple[str, str]] = []
    unmapped: List[str] = []
    for arch, where in sorted(registered.items()):
        module = modules.get(where.path)
        if module is None:
            continue
        config, why = classes.config_of(arch, module)
        if config is None:
            unmapped.append(f"{arch} ({why})")
            continue
        found = classes.find(Ref(config[0], config[1], 0))
        lineage = set(classes.ancestors(found) if found else [config])
        member, condition = _first_match(tests, lineage)
        if member:
            names.add(arch)
            if condition:
                conditions.append((arch, condition))
    if unmapped:
        shown = ", ".join(unmapped[:3])
        more = f" and {len(unmapped) - 3} more" if len(unmapped) > 3 else ""
        unknown.append(f"config class unknown for {len(unmapped)} registered architectures: {shown}{more}")
    return Predicate(f"{facts.module}:{fact.name}", fact.name, facts.path, fact.line, fact.column,
                     frozenset(names), (), frozenset(), tuple(unknown), tuple(conditions))


def _first_match(tests: List[Tuple[ClassId, TypeTest]], lineage: Set[ClassId]) -> Tuple[bool, Optional[str]]:
    """Walk the tests in source order as the runtime would: (member?, condition if only sometimes)."""
    guards: List[str] = []
    for identity, test in tests:
        if identity not in lineage:
            continue
        if test.exclude:
            if test.condition is None:
                return False, None  # always turned away before any positive test
            guards.append(test.condition)
            continue
        if test.condition is None and not guards:
            return True, None
        if test.condition is not None:
            guards.append(test.condition)
        return True, " and ".join(guards)
    return False, None
