"""flake8-archsync: keeps architecture registries, whitelists and family predicates in sync."""

__version__ = "0.1.0"
