"""What resolution needs from the project: a module's facts by name, nothing more."""
from __future__ import annotations

from typing import Optional, Protocol

from ..extract.facts import FileFacts


class ModuleSource(Protocol):
    """Anything that hands out complete facts of a project module (the index does)."""

    def module(self, name: str) -> Optional[FileFacts]:
        """Facts of the module `name` (a dotted name), or None when the project has no such module."""
        ...
