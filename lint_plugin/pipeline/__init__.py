"""One run, as a table of contents: discover -> prefilter and facts -> resolve -> rules -> report.

A front end asks with a `Request` (`request.py`). The CLI and the flake8 plugin call `run` or
`run_projects`, `archsync fix` `run_with` (its edits as unsaved buffers); `check --baseline-commit`
checks a revision's copy of the project with `run_snapshot` and asks the rules that judge a change
what it did (`change.py`: `since`), and `check --add-exemptions` reports
again with `with_exemptions` (`run.py`). All of them end in `analyse` (`analyse.py`), the stages
after discovery, which the language server's session also calls, with the memory it keeps of the
last run (`memory.py`). Nothing here prints, and nothing below it knows who asked.
"""
from .analyse import Analysis, Inputs, OnDisk, analyse
from .change import Change, new_names, since
from .memory import LastRun, RunMemory
from .report import ModelOf, Report
from .request import Request, request
from .run import rebased, run, run_projects, run_snapshot, run_with, with_exemptions

__all__ = ["Analysis", "Change", "Inputs", "LastRun", "ModelOf", "OnDisk", "Report", "Request", "RunMemory", "analyse",
           "new_names", "rebased", "request", "run", "run_projects", "run_snapshot", "run_with", "since",
           "with_exemptions"]
