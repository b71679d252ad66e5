"""What the resolve stage of one run leaves for the next: its part of `RunMemory`.

Three parts, each taken again only where what it read is unchanged: the files the run chose
(`memory_choice.py`), its resolved collections and predicates (`memory_resolutions.py`) and its
kinship (`memory_kinship.py`). A run given no memory (a one-off check) tracks none of it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .memory_choice import Choice
from .memory_kinship import KinshipMemory
from .memory_resolutions import ResolutionMemory


@dataclass(frozen=True)
class ResolveMemory:
    choice: Optional[Choice] = None
    resolutions: ResolutionMemory = field(default_factory=ResolutionMemory)
    kinship: Optional[KinshipMemory] = None
