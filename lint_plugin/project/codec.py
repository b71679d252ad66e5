"""FileFacts to and from compact JSON, validated field by field on the way back.

A cache entry that does not decode exactly is rejected (`ValueError`), never trusted.
"""
from __future__ import annotations

from typing import Any, List, Tuple

from ..extract.facts import (
    MODEL_TYPE_SCHEME,
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
        [[r.registry, [_member(m) for m in r.names], list(r.implementations), r.scheme] for r in facts.registrations],
        [list(i) for i in facts.imports],
        [list(c) for c in facts.constants],
        list(facts.star_imports),
        facts.error,
        [[c.name, c.line, [_encode_part(b) for b in c.bases], None if c.config is None else _encode_part(c.config),
          c.config_note, [_encode_part(w) for w in c.wrapped]] for c in facts.classes],
        [[t.name, t.line, t.column, [[_encode_part(x.target), x.condition, x.exclude] for x in t.tests]]
         for t in facts.type_predicates],
        [[m.name, m.line, [[k, _encode_part(v)] for k, v in m.entries], [list(r) for r in m.renames], list(m.words)]
         for m in facts.mappings],
        list(facts.registers_into),
        list(facts.class_keyed),
        list(facts.type_keyed),
        [list(c) for c in facts.chains],
        [list(g) for g in facts.gates],
    ]


def decode_facts(data: Any) -> FileFacts:
    items = as_list(data, 17)
    path, module = as_str(items[0]), as_str(items[1])
    collections = tuple(
        CollectionFact(as_str(c[0]), as_int(c[1]), as_int(c[2]), tuple(_part(p) for p in as_list(c[3])), _scope(c[4]))
        for c in (as_list(x, 5) for x in as_list(items[2]))
    )
    predicates = []
    for raw in as_list(items[3]):
        p = as_list(raw, 5)
        delegates = tuple(_part(d) for d in as_list(p[4]))
        if not all(isinstance(d, Ref) for d in delegates):
            raise ValueError("a delegate is not a reference")
        predicates.append(PredicateFact(as_str(p[0]), as_int(p[1]), as_int(p[2]),
                                        tuple(_part(t) for t in as_list(p[3])), delegates))  # type: ignore[arg-type]
    registrations = tuple(
        RegistrationFact(as_str(r[0]), tuple(_decode_member(m) for m in as_list(r[1])),
                         tuple(as_str(i) for i in as_list(r[2])), _scheme(r[3]))
        for r in (as_list(x, 4) for x in as_list(items[4]))
    )
    imports = tuple(
        (as_str(i[0]), as_str(i[1]), None if i[2] is None else as_str(i[2]))
        for i in (as_list(x, 3) for x in as_list(items[5]))
    )
    constants = tuple((as_str(c[0]), as_str(c[1]), as_int(c[2])) for c in (as_list(x, 3) for x in as_list(items[6])))
    star_imports = tuple(as_str(s) for s in as_list(items[7]))
    error = None if items[8] is None else as_str(items[8])
    classes = tuple(
        ClassFact(as_str(c[0]), as_int(c[1]), tuple(_ref(b) for b in as_list(c[2])),
                  None if c[3] is None else _ref(c[3]), None if c[4] is None else as_str(c[4]),
                  tuple(_ref(w) for w in as_list(c[5])))
        for c in (as_list(x, 6) for x in as_list(items[9]))
    )
    type_predicates = tuple(
        TypePredicateFact(as_str(t[0]), as_int(t[1]), as_int(t[2]), tuple(
            TypeTest(_ref(x[0]), None if x[1] is None else as_str(x[1]), as_bool(x[2]))
            for x in (as_list(y, 3) for y in as_list(t[3]))))
        for t in (as_list(x, 4) for x in as_list(items[10]))
    )
    mappings = tuple(
        MappingFact(as_str(m[0]), as_int(m[1]),
                    tuple((as_str(e[0]), _ref(e[1])) for e in (as_list(y, 2) for y in as_list(m[2]))),
                    tuple((as_str(r[0]), as_str(r[1])) for r in (as_list(y, 2) for y in as_list(m[3]))),
                    tuple(as_str(w) for w in as_list(m[4])))
        for m in (as_list(x, 5) for x in as_list(items[11]))
    )
    return FileFacts(path=path, module=module, collections=collections, predicates=tuple(predicates),
                     registrations=registrations, imports=imports, constants=constants,
                     star_imports=star_imports, error=error, classes=classes, type_predicates=type_predicates,
                     mappings=mappings, registers_into=tuple(as_str(m) for m in as_list(items[12])),
                     class_keyed=tuple(as_str(k) for k in as_list(items[13])),
                     type_keyed=tuple(as_str(k) for k in as_list(items[14])),
                     chains=tuple(tuple(as_str(n) for n in as_list(c)) for c in as_list(items[15])),
                     gates=tuple((as_str(g[0]), as_str(g[1])) for g in (as_list(x, 2) for x in as_list(items[16]))))


def _scheme(data: Any) -> str:
    if data not in ("", MODEL_TYPE_SCHEME):
        raise ValueError(f"bad naming scheme {data!r:.60}")
    return str(data)


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
        return ["L", [_member(m) for m in part.members]] + ([1] if part.valued else []) + \
            ([list(part.values)] if part.values else [])
    if isinstance(part, Ref):
        return ["R", part.module, part.name, part.line]
    if isinstance(part, Unknown):
        return ["U", part.reason, part.line]
    if isinstance(part, PatternRef):
        return ["Q", part.kind, part.ref.module, part.ref.name, part.ref.line]
    return ["P", part.kind, part.text, part.line]


def _part(data: Any) -> Part:
    items = as_list(data)
    tag = items[0] if items else None
    if tag == "L" and len(items) in (2, 3, 4):
        values = tuple(as_str(v) for v in as_list(items[3])) if len(items) == 4 else ()
        return Literal(tuple(_decode_member(m) for m in as_list(items[1])), len(items) >= 3 and items[2] == 1, values)
    if tag == "R" and len(items) == 4:
        return Ref(as_str(items[1]), as_str(items[2]), as_int(items[3]))
    if tag == "U" and len(items) == 3:
        return Unknown(as_str(items[1]), as_int(items[2]))
    if tag == "P" and len(items) == 4 and items[1] in ("prefix", "suffix", "substring"):
        return Pattern(as_str(items[1]), as_str(items[2]), as_int(items[3]))
    if tag == "Q" and len(items) == 5 and items[1] in ("prefix", "suffix"):
        return PatternRef(as_str(items[1]), Ref(as_str(items[2]), as_str(items[3]), as_int(items[4])))
    raise ValueError(f"bad part {data!r:.60}")


def _member(member: Member) -> Tuple[str, int, int]:
    return (member.name, member.line, member.column)


def _decode_member(data: Any) -> Member:
    items = as_list(data, 3)
    return Member(as_str(items[0]), as_int(items[1]), as_int(items[2]))


def as_list(value: Any, length: int = -1) -> List[Any]:
    """`value` if it is a list (of `length` items, when given), else `ValueError`: JSON read back is checked."""
    if not isinstance(value, list) or (length >= 0 and len(value) != length):
        raise ValueError(f"expected a list{'' if length < 0 else f' of {length}'}, got {value!r:.60}")
    return value


def as_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r:.60}")
    return value


def as_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected a boolean, got {value!r:.60}")
    return value


def as_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r:.60}")
    return value
