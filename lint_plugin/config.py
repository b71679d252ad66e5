"""`[tool.archsync]` in the project's pyproject.toml: loading and validation.

Every mistake becomes a `ConfigError` naming the file and the key path, which the
front ends turn into one message and exit code 2.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

DEFAULT_NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"


class ConfigError(Exception):
    """A configuration problem the user must fix; the message says where."""


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
    source: str = field(default="defaults", compare=False)

    @property
    def name_regex(self) -> "re.Pattern[str]":
        return re.compile(self.name_pattern)


_LIST_KEYS = ("src", "exclude", "guard", "families", "registries")
_STR_KEYS = ("name-pattern",)


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
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{pyproject}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{pyproject}: invalid TOML: {exc}") from None
    table = document.get("tool", {}).get("archsync")
    if table is None:
        return Config(root=root)
    return config_from_table(root, table, str(pyproject))


def config_from_table(root: Path, table: Any, source: str) -> Config:
    """Validate a `[tool.archsync]` table; keys may be spelled with '-' or '_'."""
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: tool.archsync: expected a table")
    values: Dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        where = f"{source}: tool.archsync.{raw_key}"
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{where}: expected a list of strings, got {_describe(value)}")
            values[key.replace("-", "_")] = tuple(value)
        elif key in _STR_KEYS:
            if not isinstance(value, str):
                raise ConfigError(f"{where}: expected a string, got {_describe(value)}")
            try:
                re.compile(value)
            except re.error as exc:
                raise ConfigError(f"{where}: invalid regular expression: {exc}") from None
            values[key.replace("-", "_")] = value
        else:
            known = ", ".join(sorted(_LIST_KEYS + _STR_KEYS))
            raise ConfigError(f"{where}: unknown key (known keys: {known})")
    return Config(root=root, source=source, **values)


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"[:80]
