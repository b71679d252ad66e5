"""What one run of a project keeps for the next: one value, owned by whoever runs again.

A run given a `RunMemory` takes from it what is still valid and returns the memory it leaves; a
run given none (a one-off check) keeps nothing and tracks nothing. Each stage owns its part and
is a function of its inputs and that part:

- `records` (the index): every file's record, with the stamp (or a buffer's bytes) it was read
  under (`project/memory.py`);
- `resolve`: the files chosen, the resolved collections and predicates, and the kinship, each with
  what it read (`resolve/memory.py`);
- `rules`: what a rule with `check_again` weighed: ARC105's findings per subject (`rules/registry.py`,
  `rules/memory_arc105.py`);
- `noqa` (the report): the noqa token ranges the report looked up, by file text (`report/memory_noqa.py`);
- `last`: the whole last run: when nothing it read changed, its findings are reported again.

The language server's session owns one per project (`session.py`). Between processes, the CLI's
memory is on disk: the records in the index cache (`project/cache.py`), the last run in the
result cache (`project/results.py`), both keyed by the configuration. Nothing else of a run
outlives it: no module keeps run state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Optional, Tuple

from ..diagnostics import Diagnostic

if TYPE_CHECKING:  # a warm check that replays the result cache imports none of the stages
    from ..project.cache import CachedFile
    from ..project.memory import RecordMemory
    from ..project.universe import Universe
    from ..report.memory_noqa import NoqaMemory
    from ..resolve.memory import ResolveMemory
    from ..rules.registry import RuleMemory
    from .report import Report


@dataclass(frozen=True)
class LastRun:
    """What the last full run read and found: enough to tell whether a new run would find the same."""

    rels: Tuple[str, ...]  # the files it read, in discovery order (unsaved buffers included)
    universe: "Universe"
    records: Mapping[str, "CachedFile"]  # by path, as the run left them (buffers' by their text)
    levels: Mapping[str, int]  # by path: what the run asked of each file (`ProjectIndex.records`)
    found: Tuple[Diagnostic, ...]  # what the rules found, before the report stage
    report: "Report"


@dataclass(frozen=True)
class RunMemory:
    """What a run leaves for the next run of the same project under the same configuration (None: empty)."""

    records: "Optional[RecordMemory]" = None
    resolve: "Optional[ResolveMemory]" = None
    rules: "Optional[RuleMemory]" = None
    noqa: "Optional[NoqaMemory]" = None
    last: Optional[LastRun] = None
