"""`[tool.archsync]` in the project's pyproject.toml, and rule packs: reading and validation.

Every mistake becomes a `ConfigError` naming the file and the key path, which the
front ends turn into one message and exit code 2. Rule packs (`extends`) are plain
configuration tables read from TOML files shipped in the wheel; nothing here can
load or run code.
"""
from __future__ import annotations

import os
import posixpath
import re
import stat
import sys
from pathlib import Path
from typing import AbstractSet, Any, Callable, Dict, Optional, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

from ..diagnostics import place
from .cache_dir import foreign_entries
from .packs import pack_path
from .schema import BY_NAME, KEYS, PAIRS, STRING, STRINGS, TABLES
from .settings import DEFAULT_REGISTRIES, Config, ConfigError, Cover, Exemption, Mirror, Subset

# The key lists, from the one table of keys (`schema.py`), which the reference page is generated from too.
_LIST_KEYS = tuple(key.name for key in KEYS if key.kind == STRINGS)
_STR_KEYS = tuple(key.name for key in KEYS if key.kind == STRING)
_HELD_TO_MATCHING = tuple(key.field_name for key in KEYS if key.matched)  # resolve.unmatched
_KNOWN = tuple(key.name for key in KEYS)
_TABLE_FIELDS = {key.name: frozenset(f.name for f in key.fields) for key in KEYS if key.kind == TABLES}


def find_root(start: Path) -> Path:
    """Nearest directory at or above `start` holding pyproject.toml, else `start`'s directory."""
    start = start.resolve()
    base = start if start.is_dir() else start.parent
    for candidate in (base, *base.parents):
        if (candidate / "pyproject.toml").is_file():
            return candidate
    return base


def load_config(root: Path, codes: Optional[AbstractSet[str]] = None) -> Config:
    """Read `[tool.archsync]` from `root/pyproject.toml` (absent file or table: defaults).

    `codes` are the rule codes an exemption may name (the rule registry's); None checks
    nothing about them, so this layer needs no knowledge of the rules.
    """
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return Config(root=root)
    return config_from_text(root, _read_toml_text(pyproject), codes)


def config_from_text(root: Path, text: str, codes: Optional[AbstractSet[str]] = None) -> Config:
    """The configuration `text` would give as `root/pyproject.toml` (a planned edit is checked before it is written)."""
    pyproject = root / "pyproject.toml"
    document = parse_toml(text, str(pyproject))
    tool = document.get("tool", {})
    table = tool.get("archsync") if isinstance(tool, dict) else None
    if table is None:
        return Config(root=root)
    return config_from_table(root, table, str(pyproject), text, codes)


def config_from_table(root: Path, table: Any, source: str, text: str = "",
                      codes: Optional[AbstractSet[str]] = None) -> Config:
    """Validate a `[tool.archsync]` table merged over the packs it extends.

    Errors name `source` (the file's full path); the origins that diagnostics quote
    (`pyproject.toml: tool.archsync.mirror[0]`) name it relative to the project root, as a place
    (`diagnostics.place`) each front end shows from where it runs.
    """
    values = _Validator(codes, root).table(table, source, "tool.archsync", text, from_pack=False,
                                           label=place(Path(source).name))
    merged: Dict[str, Any] = {}
    for pack in values.get("extends", ()):
        _merge(merged, _load_pack(pack, source, codes))
    _merge(merged, values)
    if "registries" in merged:  # adds to the default, as every other registry source does
        merged["registries"] = tuple(dict.fromkeys(DEFAULT_REGISTRIES + merged["registries"]))
    stated = tuple((key, _as_stated(key, values[key])) for key in _HELD_TO_MATCHING if key in values)
    return Config(root=root, source=source, guard_set="guard" in merged, stated=stated, **merged)


def _as_stated(key: str, value: Any) -> Tuple[str, ...]:
    """A setting held to matching something, as the strings it names (`siblings`: each suffix)."""
    if key == "siblings":
        return tuple(dict.fromkeys(suffix for pair in value for suffix in pair))
    return (value,) if isinstance(value, str) else tuple(value)


def _load_pack(name: str, source: str, codes: Optional[AbstractSet[str]]) -> Dict[str, Any]:
    path = pack_path(name, source)
    text = _read_toml_text(path)
    values = _Validator(codes).table(parse_toml(text, str(path)), f"rule pack {name!r} ({path.name})", "", text,
                                     from_pack=True, label=f"rule pack {name!r}")
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


_TableReader = Callable[[Dict[str, Any], str, int, bool, str], Any]


class _Validator:
    """Checks one table (the project's or a pack's) key by key; paths against the project at `root`
    (a pack's table names no place in any project)."""

    def __init__(self, codes: Optional[AbstractSet[str]], root: Optional[Path] = None) -> None:
        self.codes = codes
        self.root = root
        self.readers: Dict[str, _TableReader] = {
            "mirror": _mirror, "subset": _subset, "exempt": self._exemption, "cover": _cover,
        }

    def table(self, table: Any, source: str, prefix: str, text: str, from_pack: bool, label: str) -> Dict[str, Any]:
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: {prefix or 'pack'}: expected a table")
        values: Dict[str, Any] = {}
        spelt: Dict[str, str] = {}
        for raw_key, value in table.items():
            key = raw_key.replace("_", "-")
            dotted = f"{prefix + '.' if prefix else ''}{raw_key}"
            where = f"{source}: {dotted}"
            if key in spelt:
                raise ConfigError(f"{where}: given twice, as {spelt[key]!r} and {raw_key!r}; keep one")
            spelt[key] = raw_key
            if key in _LIST_KEYS:
                values[key.replace("-", "_")] = _strings(value, where)
                if key == "src":
                    for entry in values["src"]:
                        _inside_project(entry, where, allow_root=True)
                if key == "families":  # one table saying both is a slip; a pack's family vetoed by you is not
                    both = [f for f in values["families"] if f"!{f}" in values["families"]]
                    if both:
                        verb = "is" if len(both) == 1 else "are"
                        raise ConfigError(f"{where}: {', '.join(map(repr, both))} {verb} both named and vetoed "
                                          f"(\"!NAME\"); keep one")
                if key in ("select", "ignore") and self.codes is not None:
                    unknown = [c for c in values[key] if not any(known.startswith(c) for known in self.codes)]
                    if unknown:
                        raise ConfigError(f"{where}: no rule code starts with {', '.join(map(repr, unknown))} "
                                          f"(`archsync rules` lists them)")
            elif key in _STR_KEYS:
                if not isinstance(value, str) or not value:
                    raise ConfigError(f"{where}: expected a non-empty string, got {_describe(value)}")
                choices = BY_NAME[key].choices
                if choices and value not in choices:
                    raise ConfigError(f"{where}: expected one of {', '.join(map(repr, choices))}, "
                                      f"got {value!r}")
                if key == "cache-dir":
                    _inside_project(value, where, allow_root=False)
                    if self.root is not None:
                        _cache_directory(self.root / value, value, where)
                if key == "name-pattern":
                    try:
                        re.compile(value)
                    except re.error as exc:
                        raise ConfigError(f"{where}: invalid regular expression: {exc}") from None
                values[key.replace("-", "_")] = value
            elif key in BY_NAME and BY_NAME[key].kind == PAIRS:
                values[BY_NAME[key].field_name] = _sibling_pairs(value, where)
            elif key in self.readers:
                if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                    raise ConfigError(f"{where}: expected an array of tables ([[{dotted}]])")
                reader = self.readers[key]
                values[BY_NAME[key].field_name] = tuple(
                    reader(item, f"{where}[{i}]", _table_line(text, dotted, i), from_pack, f"{label}: {dotted}[{i}]")
                    for i, item in enumerate(value))
            else:
                known = ", ".join(sorted(_KNOWN))
                raise ConfigError(f"{where}: unknown key (known keys: {known})")
        return values

    def _exemption(self, item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Exemption:
        _only_keys(item, where, _TABLE_FIELDS["exempt"])
        subject = _required(item, "subject", where)
        if not isinstance(subject, str):
            raise ConfigError(f"{where}.subject: expected a string, got {_describe(subject)}")
        members = _strings(_required(item, "members", where), f"{where}.members")
        codes = _strings(item.get("codes", []), f"{where}.codes")
        for code in codes:
            if self.codes is not None and code not in self.codes:
                raise ConfigError(f"{where}.codes: {code!r} is not an archsync code "
                                  f"(`archsync rules` lists them, like 'ARC101')")
        reason = item.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ConfigError(f"{where}.reason: every exemption needs a reason (a non-empty string)")
        return Exemption(subject, members, codes, reason.strip(), origin, line, from_pack)


def _mirror(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Mirror:
    _only_keys(item, where, _TABLE_FIELDS["mirror"])
    collections = _strings(_required(item, "collections", where), f"{where}.collections")
    if len(collections) < 2:
        raise ConfigError(f"{where}.collections: a mirror needs at least two collections")
    families = _strings(item.get("families", []), f"{where}.families")
    return Mirror(collections, families, origin)


def _cover(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Cover:
    _only_keys(item, where, _TABLE_FIELDS["cover"])
    collections = _strings(_required(item, "collections", where), f"{where}.collections")
    families = _strings(_required(item, "families", where), f"{where}.families")
    if not collections or not families:
        raise ConfigError(f"{where}: a cover needs at least one collection and one family")
    return Cover(collections, families, origin)


def _subset(item: Dict[str, Any], where: str, line: int, from_pack: bool, origin: str) -> Subset:
    _only_keys(item, where, _TABLE_FIELDS["subset"])
    of = _required(item, "of", where)
    into = _required(item, "in", where)
    for key, value in (("of", of), ("in", into)):
        if not isinstance(value, str):
            raise ConfigError(f"{where}.{key}: expected a string, got {_describe(value)}")
    return Subset(of, into, origin)


def _inside_project(value: str, where: str, allow_root: bool) -> None:
    """A path setting may name only a place inside the project (and the cache, not the root itself)."""
    if "\x00" in value:
        raise ConfigError(f"{where}: a path cannot contain a NUL character")
    if os.path.isabs(value) or value.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", value):
        raise ConfigError(f"{where}: {value!r} is an absolute path; give a path relative to the project root")
    normal = posixpath.normpath(value.replace("\\", "/"))
    if normal == ".." or normal.startswith("../"):
        raise ConfigError(f"{where}: {value!r} is outside the project")
    if normal == "." and not allow_root:
        raise ConfigError(f"{where}: {value!r} is the project root itself; the cache needs a directory of its own")


def _cache_directory(path: Path, value: str, where: str) -> None:
    """A cache directory holds nothing but archsync's files (`cache_dir.py`); one that does not exist yet is
    made by archsync. A link is left to the writer, which never writes through one."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISLNK(st.st_mode):
        return
    if not stat.S_ISDIR(st.st_mode):
        raise ConfigError(f"{where}: {value!r} is a file, not a directory; the cache needs a directory of its own")
    try:
        foreign = foreign_entries(str(path))
    except OSError:
        return  # unreadable: the cache is not read or written there either (one warning)
    if foreign:
        named = ", ".join(map(repr, foreign[:3])) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise ConfigError(f"{where}: {value!r} holds files archsync did not write ({named}); the cache needs a "
                          f"directory of its own, such as '.archsync_cache'")


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


def _only_keys(item: Dict[str, Any], where: str, allowed: AbstractSet[str]) -> None:
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


def parse_toml(text: str, source: str) -> Dict[str, Any]:
    """The TOML document `text`, or a ConfigError naming `source` (never a parser traceback)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: invalid TOML: nested too deeply to read") from None
    except ValueError as exc:  # an integer longer than Python converts, and the like
        if "integer string conversion" in str(exc):  # its text differs by version and advises a Python call
            limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
            raise ConfigError(f"{source}: invalid TOML: an integer longer than {limit} digits") from None
        raise ConfigError(f"{source}: invalid TOML: {exc}") from None


def _describe(value: Any) -> str:
    text = f"{type(value).__name__} {value!r}"
    return text if len(text) <= 80 else text[:77] + "..."

