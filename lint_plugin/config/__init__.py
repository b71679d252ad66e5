"""Stage 0, configuration: `[tool.archsync]` and rule packs, validated into a frozen `Config`."""
from .loading import config_from_table, config_from_text, find_root, load_config, parse_toml
from .packs import available_packs, pack_directory
from .patterns import matches_pattern
from .settings import DEFAULT_NAME_PATTERN, Config, ConfigError, Cover, Exemption, Mirror, Subset, UnresolvedName

__all__ = [
    "DEFAULT_NAME_PATTERN", "Config", "ConfigError", "Cover", "Exemption", "Mirror", "Subset", "UnresolvedName",
    "available_packs", "config_from_table", "config_from_text", "find_root", "load_config", "matches_pattern",
    "pack_directory", "parse_toml",
]
