"""`[tool.archsync]` in the project's pyproject.toml, and rule packs: loading and validation.

Every mistake becomes a `ConfigError` naming the file and the key path, which the
front ends turn into one message and exit code 2. Rule packs (`extends`) are plain
configuration tables read from TOML files shipped in the wheel; nothing here can
load or run code.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

DEFAULT_NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"
DEFAULT_SIBLINGS = (("ForConditionalGeneration", "ForCausalLM"),)


class ConfigError(Exception):
    """A configuration problem the user must fix; the message says where."""


@dataclass(frozen=True)
class Mirror:
    """Collections that must hold the same names (optionally only those of `families`)."""

    collections: Tuple[str, ...]
    families: Tuple[str, ...]
    origin: str  # "file: key path", for messages


@dataclass(frozen=True)
class Cover:
    """Every name of each family must be in each collection (ARC101, without the overlap test)."""

    collections: Tuple[str, ...]
    families: Tuple[str, ...]
    origin: str


@dataclass(frozen=True)
class Subset:
    """Every name in `of` must be in `into` (a collection, or "registered")."""

    of: str
    into: str
    origin: str


@dataclass(frozen=True)
class Exemption:
    """A deliberate difference, recorded with its reason."""

    subject: str
    members: Tuple[str, ...]
    codes: Tuple[str, ...]
    reason: str
    origin: str
    line: int  # line of its table in `origin`'s file (1 when unknown)
    from_pack: bool


@dataclass(frozen=True)
class Config:
    """Validated settings; every field has a working default."""

    root: Path
    src: Tuple[str, ...] = (".",)
    exclude: Tuple[str, ...] = ()
    guard: Tuple[str, ...] = ("*_ARCHS",)
    families: Tuple[str, ...] = ()
    registries: Tuple[str, ...] = ("EntryClass",)
    name_pattern: str = DEFAULT_NAME_PATTERN
    cache_dir: str = ".archsync_cache"
    config_maps: Tuple[str, ...] = ()  # `path.py::NAME` dicts from architecture name to config class
    siblings: Tuple[Tuple[str, str], ...] = DEFAULT_SIBLINGS
    extends: Tuple[str, ...] = ()
    mirrors: Tuple[Mirror, ...] = ()
    covers: Tuple[Cover, ...] = ()
    subsets: Tuple[Subset, ...] = ()
    exemptions: Tuple[Exemption, ...] = ()
    source: str = field(default="defaults", compare=False)

    @property
    def name_regex(self) -> "re.Pattern[str]":
        return re.compile(self.name_pattern)

    @property
    def named_collections(self) -> Tuple[str, ...]:
        """Collection names the configuration refers to (kept by the prefilter)."""
        names = [c for m in self.mirrors for c in m.collections] + [c for v in self.covers for c in v.collections]
        names += [s.of for s in self.subsets] + [s.into for s in self.subsets if s.into != "registered"]
        return tuple(dict.fromkeys(names))

    @property
    def named_families(self) -> Tuple[str, ...]:
        """Predicates the configuration names (`families`, covers, scoped mirrors)."""
        names = list(self.families) + [f for v in self.covers for f in v.families]
        names += [f for m in self.mirrors for f in m.families]
        return tuple(dict.fromkeys(names))

    def fingerprint(self) -> str:
        """A stable digest of everything that affects results (for caches)."""
        data = {k: v for k, v in self.__dict__.items() if k not in ("root", "source", "cache_dir")}
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()[:16]


_LIST_KEYS = ("src", "exclude", "guard", "families", "registries", "extends", "config-maps")
_STR_KEYS = ("name-pattern", "cache-dir")
_TABLE_LIST_KEYS = ("mirror", "subset", "exempt", "cover")
_KNOWN = _LIST_KEYS + _STR_KEYS + _TABLE_LIST_KEYS + ("siblings",)


def find_root(start: Path) -> Path:
    """Nearest directory at or above `start` holding pyproject.toml, else `start`'s directory."""
    start = start.resolve()
    base = start if start.is_dir() else start.parent
    for candidate in (base, *base.parents):
        if (candidate / "pyproject.toml").is_file():
            return candidate
    return base


def load_config(root: Path) -> Config:
    """Read `[tool.archsync]` from `root/pyproject.toml` (absent file or table: defaults)."""
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return Config(root=root)
    text = _read_toml_text(pyproject)
    document = _parse_toml(text, str(pyproject))
    tool = document.get("tool", {})
    table = tool.get("archsync") if isinstance(tool, dict) else None
    if table is None:
        return Config(root=root)
    return config_from_table(root, table, str(pyproject), text)


def config_from_table(root: Path, table: Any, source: str, text: str = "") -> Config:
    """Validate a `[tool.archsync]` table merged over the packs it extends.

    Errors name `source` (the file's full path); the origins that diagnostics quote
    (`pyproject.toml: tool.archsync.mirror[0]`) name it relative to the project root.
    """
    values = _validate(table, source, "tool.archsync", text, from_pack=False, label=Path(source).name)
    merged: Dict[str, Any] = {}
    for pack in values.get("extends", ()):
        _merge(merged, _load_pack(pack, source))
    _merge(merged, values)
    return Config(root=root, source=source, **merged)


def pack_directory() -> Path:
    """Where the shipped rule packs are: inside the wheel, or `rules/` in a checkout."""
    installed = Path(__file__).resolve().parent / "rules"
    return installed if installed.is_dir() else Path(__file__).resolve().parent.parent / "rules"


def available_packs() -> List[str]:
    return sorted(p.stem for p in pack_directory().glob("*.toml"))


def _load_pack(name: str, source: str) -> Dict[str, Any]:
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ConfigError(f"{source}: tool.archsync.extends: invalid pack name {name!r}")
    path = pack_directory() / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(available_packs()) or "none"
        raise ConfigError(f"{source}: tool.archsync.extends: no rule pack named {name!r} (available: {known})")
    text = _read_toml_text(path)
    values = _validate(_parse_toml(text, str(path)), f"rule pack {name!r} ({path.name})", "", text, from_pack=True,
                       label=f"rule pack {name!r}")
    if "extends" in values:
        raise ConfigError(f"rule pack {name!r}: packs cannot extend other packs")
    return values


def _merge(into: Dict[str, Any], values: Dict[str, Any]) -> None:
    """Lists and tables from later sources are appended; single values replace."""
    for key, value in values.items():
        if isinstance(value, tuple) and key in into and key not in ("siblings",):
            into[key] = tuple(dict.fromkeys(into[key] + value)) if key in _LIST_KEYS else into[key] + value
        else:
            into[key] = value


def _validate(table: Any, source: str, prefix: str, text: str, from_pack: bool, label: str) -> Dict[str, Any]:
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: {prefix or 'pack'}: expected a table")
    values: Dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        where = f"{source}: {prefix + '.' if prefix else ''}{raw_key}"
        if key in _LIST_KEYS:
            values[key.replace("-", "_")] = _strings(value, where)
        elif key in _STR_KEYS:
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a non-empty string, got {_describe(value)}")
            if key == "name-pattern":
                try:
                    re.compile(value)
                except re.error as exc:
                    raise ConfigError(f"{where}: invalid regular expression: {exc}") from None
            values[key.replace("-", "_")] = value
        elif key == "siblings":
            values["siblings"] = _sibling_pairs(value, where)
        elif key in _TABLE_LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                header = f"{prefix + '.' if prefix else ''}{raw_key}"
                raise ConfigError(f"{where}: expected an array of tables ([[{header}]])")
            reader = {"mirror": _mirror, "subset": _subset, "exempt": _exemption, "cover": _cover}[key]
            items = []
            for i, item in enumerate(value):
                line = _table_line(text, f"{prefix + '.' if prefix else ''}{raw_key}", i)
                origin = f"{label}: {prefix + '.' if prefix else ''}{raw_key}[{i}]"
                items.append(reader(item, f"{where}[{i}]", line, from_pack, origin))
            values[{"mirror": "mirrors", "subset": "subsets", "exempt": "exemptions", "cover": "covers"}[key]] = \
                tuple(items)
        else:
            known = ", ".join(sorted(_KNOWN))
            raise ConfigError(f"{where}: unknown key (known keys: {known})")
    return values


def _mirror(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Mirror:
    _only_keys(item, where, {"collections", "families"})
    collections = _strings(_required(item, "collections", where), f"{where}.collections")
    if len(collections) < 2:
        raise ConfigError(f"{where}.collections: a mirror needs at least two collections")
    families = _strings(item.get("families", []), f"{where}.families")
    return Mirror(collections, families, origin)


def _cover(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Cover:
    _only_keys(item, where, {"collections", "families"})
    collections = _strings(_required(item, "collections", where), f"{where}.collections")
    families = _strings(_required(item, "families", where), f"{where}.families")
    if not collections or not families:
        raise ConfigError(f"{where}: a cover needs at least one collection and one family")
    return Cover(collections, families, origin)


def _subset(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Subset:
    _only_keys(item, where, {"of", "in"})
    of = _required(item, "of", where)
    into = _required(item, "in", where)
    for key, value in (("of", of), ("in", into)):
        if not isinstance(value, str):
            raise ConfigError(f"{where}.{key}: expected a string, got {_describe(value)}")
    return Subset(of, into, origin)


def _exemption(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Exemption:
    _only_keys(item, where, {"subject", "members", "codes", "reason"})
    subject = _required(item, "subject", where)
    if not isinstance(subject, str):
        raise ConfigError(f"{where}.subject: expected a string, got {_describe(subject)}")
    members = _strings(_required(item, "members", where), f"{where}.members")
    codes = _strings(item.get("codes", []), f"{where}.codes")
    for code in codes:
        if not re.fullmatch(r"ARC\d{3}", code):
            raise ConfigError(f"{where}.codes: {code!r} is not an archsync code (like 'ARC101')")
    reason = item.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ConfigError(f"{where}.reason: every exemption needs a reason (a non-empty string)")
    return Exemption(subject, members, codes, reason.strip(), origin, line, from_pack)


def _sibling_pairs(value: Any, where: str) -> Tuple[Tuple[str, str], ...]:
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) and s for s in p) for p in value
    ):
        raise ConfigError(f"{where}: expected a list of [suffix, suffix] pairs, got {_describe(value)}")
    return tuple((a, b) for a, b in value)


def _strings(value: Any, where: str) -> Tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {_describe(value)}")
    return tuple(value)


def _required(item: Dict[str, Any], key: str, where: str) -> Any:
    if key not in item:
        raise ConfigError(f"{where}: missing required key {key!r}")
    return item[key]


def _only_keys(item: Dict[str, Any], where: str, allowed: set) -> None:
    for key in item:
        if key not in allowed:
            raise ConfigError(f"{where}.{key}: unknown key (known keys: {', '.join(sorted(allowed))})")


def _table_line(text: str, dotted: str, index: int) -> int:
    """Line of the index-th `[[dotted]]` header, for pointing at an exemption."""
    keys = r"\s*\.\s*".join(re.escape(p) for p in dotted.split("."))
    pattern = re.compile(r"^[ \t]*\[\[\s*" + keys + r"\s*\]\]", re.M)
    matches = list(pattern.finditer(text))
    if index < len(matches):
        return text.count("\n", 0, matches[index].start()) + 1
    return 1


def _read_toml_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def _parse_toml(text: str, source: str) -> Dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}") from None


def _describe(value: Any) -> str:
    text = f"{type(value).__name__} {value!r}"
    return text if len(text) <= 80 else text[:77] + "..."

