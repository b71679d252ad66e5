"""Where the rule packs shipped with archsync live: TOML data, never code.

Installed, they are the package data `lint_plugin/packs/*.toml`; in a checkout (an
editable install) they are read from the repository's top-level `rules/` folder.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import List

from .settings import ConfigError


def pack_directory() -> Path:
    installed = Path(__file__).resolve().parent.parent / "packs"
    return installed if installed.is_dir() else Path(__file__).resolve().parent.parent.parent / "rules"


def available_packs() -> List[str]:
    return sorted(p.stem for p in pack_directory().glob("*.toml"))


def pack_path(name: str, source: str) -> Path:
    """The file of pack `name`, or a ConfigError naming the `extends` key of `source`."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ConfigError(f"{source}: tool.archsync.extends: invalid pack name {name!r}")
    path = pack_directory() / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(available_packs()) or "none"
        raise ConfigError(f"{source}: tool.archsync.extends: no rule pack named {name!r} (available: {known})")
    return path
