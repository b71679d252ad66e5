"""What one run found: the `Report` every front end prints from."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

from ..config import Config
from ..diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..resolve import Model


class ModelOf:
    """A report's model: the one its run built, or (for a report the result cache gave) built
    again on first use by running the project once more without reuse."""

    def __init__(self, model: "Optional[Model]", build: "Optional[Callable[[], Model]]" = None) -> None:
        self._model = model
        self._build = build

    def get(self) -> "Model":
        if self._model is None:
            assert self._build is not None
            self._model = self._build()
        return self._model


@dataclass(frozen=True)
class Report:
    """What one run found, with the figures the front ends may show."""

    root: Path
    config: Config
    diagnostics: Tuple[Diagnostic, ...]
    model_of: ModelOf = field(repr=False, compare=False)
    files: int = 0
    parsed: int = 0
    warnings: Tuple[str, ...] = ()
    only: Optional[str] = None  # the one file checked, outside any project
    projects: Tuple[Path, ...] = ()  # the project roots of a run over several (`run_projects`)
    loose_files: int = 0  # Python files under the paths that are in no project, so not checked
    parts: Tuple["Report", ...] = ()  # each project's own report, in a run over several
    reused: bool = False  # an earlier run's findings (the result cache's, a session's): nothing was analysed again
    # did any list or family take part? Not where nothing is registered or declared: "no problems" would
    # claim what was never checked, and the summary says so instead (`commands/check.py`)
    checked: bool = True
    # the `RunMemory` the run left (`Request.keep`), for `run_with`; typed loosely: `memory.py` reads Report
    memory: Any = field(default=None, repr=False, compare=False)

    @property
    def model(self) -> "Model":
        return self.model_of.get()
