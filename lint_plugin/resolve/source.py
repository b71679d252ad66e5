"""What resolution needs from the project: a module's facts by name, and whether a module may bind a name."""
from __future__ import annotations

from typing import Optional, Protocol

from ..extract.facts import FileFacts


class ModuleSource(Protocol):
    """Anything that hands out complete facts of a project module (the index does)."""

    def module(self, name: str) -> Optional[FileFacts]:
        """Facts of the module `name` (a dotted name), or None when the project has no such module."""
        ...

    def lookup(self, module: str, name: str) -> Optional[FileFacts]:
        """Facts of `module` enough to tell what it binds `name` to: its complete facts, or the part of them
        that was read (a module read for its lists of model types alone) where that part defines `name`."""
        ...

    def may_define(self, module: str, name: str) -> bool:
        """May `module` define a function `name` or import it? False only when surely not, said without
        its facts (the index reads its bytes: `bindings.may_bind`); True wherever unsure."""
        ...

    def model_class_file(self, module: str, name: str) -> Optional[str]:
        """The path of `module` where its bytes define the model class `name` at its top level, said without its
        facts (`Signals.classes`); None wherever unsure."""
        ...
