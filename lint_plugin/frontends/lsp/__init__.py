"""`archsync lsp`: a language server (pygls) over stdio.

Drift is cross-file, so every check covers the whole project that holds the edited file,
with the text of *every* open buffer of that project standing in for the file on disk: an
unsaved edit in one file that fixes or breaks a collection in another shows at once, in every
open document. Each project has a `Session` (`lint_plugin/session.py`) that keeps what its
checks read (the configuration, the file list, every file's record, the last run), trusting
the watcher's stamps below for what changed on disk: a check reads again only what changed,
and reports the last run's findings again when no record did. Its result is a cold run's.
The cyclic garbage collector waits while checks follow one another (`COLLECT_AFTER`).

- didOpen / didSave check at once; didChange waits `debounce` seconds (0.25 by default,
  `initializationOptions: {"debounce": seconds}`) for the typing to pause. One engine
  run at a time; a newer change drops the result of a run it overtook.
- Files changed on disk (by git, a formatter, another editor) re-check their project and
  re-publish every open document of it, after the same debounce, so a burst is one check.
  If the client can register a watcher, the server asks it for `**/*.py` and
  `**/pyproject.toml` (workspace/didChangeWatchedFiles); it also polls the stamps (mtime,
  ctime, size, inode) of the files a check reads (`project/stamps.py`) every
  `watchInterval` seconds (1 by default; 0 turns the poll off), or 5 times as rarely while
  the client watches, as a safety net for a client watcher that misses changes. Both update
  the same stamps, so a change is checked once. A poll rests at least 50 times as long as
  it took (at most 2% of a core: a 3,000-file tree takes about 30 ms). A file open in the
  editor is no cause (its buffer stands in for it); pyproject.toml always is.
- Each diagnostic spans the token at the reported line and column (a name, a string
  literal), code = the ARC code, source = "archsync".
- Each diagnostic with a fix is offered as a quick fix (`quickfix`), and all fixes of a
  file together as `source.fixAll.archsync`; the edits come from `apply_fixes` on the
  buffer the diagnostics were computed from. They are answered from the latest result
  computed from the buffer's current text; when the buffer changed since (the fix just
  applied), the request starts the pending check at once and waits for it (5 s at most).
- Positions: the engine and the fixer count 1-based lines and characters (code points);
  LSP counts 0-based lines and, by default, UTF-16 code units (or whatever position
  encoding was negotiated). Lines end at "\\r\\n", "\\r" or "\\n" for both.
- The engine or the watcher failing never stops the server: the error is logged and
  nothing new is published; a configuration error is shown once with window/showMessage.

The package: `server` puts the server together and wires the LSP messages to it, in layers:
`state` (what it keeps, which project a document belongs to), `checking` (debounced checks
and publishing), `watching` (files changed on disk) and `code_actions` (quick fixes);
`convert` turns the engine's positions and diagnostics into LSP's, and `stdio` runs it.
"""
from .code_actions import fix_title
from .convert import Positions, split_lines, to_lsp
from .server import ArchsyncLanguageServer, build_server
from .state import OpenBuffer, Published
from .stdio import serve

__all__ = ["ArchsyncLanguageServer", "OpenBuffer", "Positions", "Published", "build_server", "fix_title", "serve",
           "split_lines", "to_lsp"]
