"""What the resolve stage of one run leaves for the next: its part of `RunMemory`.

Four parts, each taken again only where what it read is unchanged: the files the run chose
(`memory_choice.py`), its resolved collections and predicates (`memory_resolutions.py`), its
kinship (`memory_kinship.py`), and what the search for readers counted in each file (`consumers.py`,
taken for a file of the same digest). A run given no memory (a one-off check) tracks none of it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Tuple

from ..project.mentions import Counts
from .memory_choice import Choice
from .memory_kinship import KinshipMemory
from .memory_resolutions import ResolutionMemory


@dataclass(frozen=True)
class ResolveMemory:
    choice: Optional[Choice] = None
    resolutions: ResolutionMemory = field(default_factory=ResolutionMemory)
    kinship: Optional[KinshipMemory] = None
    # by path, (digest, counts) of the files the search for readers counted names in (`consumers.py`)
    mentions: Mapping[str, Tuple[str, Counts]] = field(default_factory=dict)
