"""FileFacts to and from compact JSON, validated field by field on the way back.

A cache entry that does not decode exactly is rejected (`ValueError`), never trusted.
"""
from __future__ import annotations

from typing import Any, List, Tuple

from ..extract.facts import (
    SCOPES,
    ClassFact,
    CollectionFact,
    FileFacts,
    Literal,
    MappingFact,
    Member,
    Part,
    Pattern,
    PatternRef,
    PredicateFact,
    Ref,
    RegistrationFact,
    TypePredicateFact,
    TypeTest,
    Unknown,
)


def encode_facts(facts: FileFacts) -> List[Any]:
    return [
        facts.path, facts.module,
        [[c.name, c.line, c.column, [_encode_part(p) for p in c.parts], c.scope] for c in facts.collections],
        [[p.name, p.line, p.column, [_encode_part(t) for t in p.tests], [_encode_part(d) for d in p.delegates]]
         for p in facts.predicates],
        [[r.registry, [_member(m) for m in r.names], list(r.implementations)] for r in facts.registrations],
        [list(i) for i in facts.imports],
        [list(c) for c in facts.constants],
        list(facts.star_imports),
        facts.error,
        [[c.name, c.line, [_encode_part(b) for b in c.bases], None if c.config is None else _encode_part(c.config),
          c.config_note, [_encode_part(w) for w in c.wrapped]] for c in facts.classes],
        [[t.name, t.line, t.column, [[_encode_part(x.target), x.condition, x.exclude] for x in t.tests]]
         for t in facts.type_predicates],
        [[m.name, m.line, [[k, _encode_part(v)] for k, v in m.entries], [list(r) for r in m.renames]]
         for m in facts.mappings],
        list(facts.registers_into),
        list(facts.class_keyed),
    ]


def decode_facts(data: Any) -> FileFacts:
    items = _list(data, 14)
    path, module = _str(items[0]), _str(items[1])
    collections = tuple(
        CollectionFact(_str(c[0]), _int(c[1]), _int(c[2]), tuple(_part(p) for p in _list(c[3])), _scope(c[4]))
        for c in (_list(x, 5) for x in _list(items[2]))
    )
    predicates = []
    for raw in _list(items[3]):
        p = _list(raw, 5)
        delegates = tuple(_part(d) for d in _list(p[4]))
        if not all(isinstance(d, Ref) for d in delegates):
            raise ValueError("a delegate is not a reference")
        predicates.append(PredicateFact(_str(p[0]), _int(p[1]), _int(p[2]),
                                        tuple(_part(t) for t in _list(p[3])), delegates))  # type: ignore[arg-type]
    registrations = tuple(
        RegistrationFact(_str(r[0]), tuple(_decode_member(m) for m in _list(r[1])), tuple(_str(i) for i in _list(r[2])))
        for r in (_list(x, 3) for x in _list(items[4]))
    )
    imports = tuple(
        (_str(i[0]), _str(i[1]), None if i[2] is None else _str(i[2]))
        for i in (_list(x, 3) for x in _list(items[5]))
    )
    constants = tuple((_str(c[0]), _str(c[1]), _int(c[2])) for c in (_list(x, 3) for x in _list(items[6])))
    star_imports = tuple(_str(s) for s in _list(items[7]))
    error = None if items[8] is None else _str(items[8])
    classes = tuple(
        ClassFact(_str(c[0]), _int(c[1]), tuple(_ref(b) for b in _list(c[2])), None if c[3] is None else _ref(c[3]),
                  None if c[4] is None else _str(c[4]), tuple(_ref(w) for w in _list(c[5])))
        for c in (_list(x, 6) for x in _list(items[9]))
    )
    type_predicates = tuple(
        TypePredicateFact(_str(t[0]), _int(t[1]), _int(t[2]), tuple(
            TypeTest(_ref(x[0]), None if x[1] is None else _str(x[1]), _bool(x[2]))
            for x in (_list(y, 3) for y in _list(t[3]))))
        for t in (_list(x, 4) for x in _list(items[10]))
    )
    mappings = tuple(
        MappingFact(_str(m[0]), _int(m[1]), tuple((_str(e[0]), _ref(e[1])) for e in (_list(y, 2) for y in _list(m[2]))),
                    tuple((_str(r[0]), _str(r[1])) for r in (_list(y, 2) for y in _list(m[3]))))
        for m in (_list(x, 4) for x in _list(items[11]))
    )
    return FileFacts(path=path, module=module, collections=collections, predicates=tuple(predicates),
                     registrations=registrations, imports=imports, constants=constants,
                     star_imports=star_imports, error=error, classes=classes, type_predicates=type_predicates,
                     mappings=mappings, registers_into=tuple(_str(m) for m in _list(items[12])),
                     class_keyed=tuple(_str(k) for k in _list(items[13])))


def _scope(data: Any) -> str:
    if data not in SCOPES:
        raise ValueError(f"bad scope {data!r:.60}")
    return str(data)


def _ref(data: Any) -> Ref:
    part = _part(data)
    if not isinstance(part, Ref):
        raise ValueError("expected a reference")
    return part


def _encode_part(part: Part) -> List[Any]:
    if isinstance(part, Literal):
        return ["L", [_member(m) for m in part.members]]
    if isinstance(part, Ref):
        return ["R", part.module, part.name, part.line]
    if isinstance(part, Unknown):
        return ["U", part.reason, part.line]
    if isinstance(part, PatternRef):
        return ["Q", part.kind, part.ref.module, part.ref.name, part.ref.line]
    return ["P", part.kind, part.text, part.line]


def _part(data: Any) -> Part:
    items = _list(data)
    tag = items[0] if items else None
    if tag == "L" and len(items) == 2:
        return Literal(tuple(_decode_member(m) for m in _list(items[1])))
    if tag == "R" and len(items) == 4:
        return Ref(_str(items[1]), _str(items[2]), _int(items[3]))
    if tag == "U" and len(items) == 3:
        return Unknown(_str(items[1]), _int(items[2]))
    if tag == "P" and len(items) == 4 and items[1] in ("prefix", "suffix", "substring"):
        return Pattern(_str(items[1]), _str(items[2]), _int(items[3]))
    if tag == "Q" and len(items) == 5 and items[1] in ("prefix", "suffix"):
        return PatternRef(_str(items[1]), Ref(_str(items[2]), _str(items[3]), _int(items[4])))
    raise ValueError(f"bad part {data!r:.60}")


def _member(member: Member) -> Tuple[str, int, int]:
    return (member.name, member.line, member.column)


def _decode_member(data: Any) -> Member:
    items = _list(data, 3)
    return Member(_str(items[0]), _int(items[1]), _int(items[2]))


def _list(value: Any, length: int = -1) -> List[Any]:
    if not isinstance(value, list) or (length >= 0 and len(value) != length):
        raise ValueError(f"expected a list{'' if length < 0 else f' of {length}'}, got {value!r:.60}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r:.60}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected a boolean, got {value!r:.60}")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r:.60}")
    return value
