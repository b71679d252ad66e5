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
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..config import Config, ConfigError, find_root
from ..diagnostics import Diagnostic, FixRequest
from ..extract.collector import Held
from ..project.discovery import is_discovered
from ..project.files import encode_as_source
from ..project.stamps import PYPROJECT, Stamp, changed, stamp, stamps
from ..report.escape import printable
from ..rules import BY_CODE

if TYPE_CHECKING:
    from ..session import Session

logger = logging.getLogger("archsync.lsp")

SOURCE = "archsync"
DEFAULT_DEBOUNCE = 0.25  # seconds between the last keystroke (or change on disk) and a check
DEFAULT_WATCH_INTERVAL = 1.0  # seconds between two polls of the open projects' files, when we poll
POLL_SHARE = 0.02  # the poller rests at least 1 / POLL_SHARE times as long as a poll took
SAFETY_FACTOR = 5  # while the client watches, the poll (a safety net) runs this many times as rarely
COLLECT_AFTER = 1.0  # seconds without a check before the cyclic collector runs again
CODE_ACTION_WAIT = 5.0  # seconds a code action request waits for the check of a buffer that changed
REGISTRATION_WAIT = 10.0  # seconds to wait for the client to answer client/registerCapability
WATCHED = ("**/*.py", "**/pyproject.toml")
WATCH_REGISTRATION = "archsync-watched-files"
FIX_ALL = "source.fixAll.archsync"
PYTHON_SUFFIXES = (".py", ".pyi")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"\w+")
_STRING_START = re.compile(r"(?i:[rbuf]{0,2})('''|\"\"\"|'|\")")


# -- positions ------------------------------------------------------------------------------------

def split_lines(text: str) -> List[str]:
    """Lines as LSP (and Python's tokenizer) count them: breaks are \\r\\n, \\r and \\n only."""
    return _LINE_BREAK.split(text)


class Positions:
    """Converts the engine's 1-based (line, character column) to LSP positions for one text."""

    def __init__(self, text: str, units=None) -> None:
        self.lines = split_lines(text)
        # The engine and the fixer do not count a byte-order mark; the editor's line 0 holds it.
        self.bom = 1 if text.startswith("\ufeff") else 0
        self._units = units or _utf16_units

    def char_index(self, line: int, column: int) -> Tuple[int, int]:
        """0-based (line, code point index into self.lines[line]), clamped into the text."""
        line0 = line - 1
        if line0 < 0:
            return 0, 0
        if line0 >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        char = max(column - 1, 0) + (self.bom if line0 == 0 else 0)
        return line0, min(char, len(self.lines[line0]))

    def position(self, line0: int, char: int) -> types.Position:
        return types.Position(line=line0, character=self._units(self.lines[line0][:char]))

    def at(self, line: int, column: int) -> types.Position:
        return self.position(*self.char_index(line, column))

    def token_range(self, line: int, column: int) -> types.Range:
        """The range of the token that starts at (line, column): a name, a string, else the rest of the line."""
        line0, start = self.char_index(line, column)
        return types.Range(start=self.position(line0, start),
                           end=self.position(line0, _token_end(self.lines[line0], start)))


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _token_end(text: str, start: int) -> int:
    if start >= len(text):
        return start
    string = _STRING_START.match(text, start)
    if string is not None:
        quote = string.group(1)
        i = string.end()
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                return i + len(quote)
            i += 1
        return len(text.rstrip())
    word = _WORD.match(text, start)
    if word is not None:
        return word.end()
    return max(len(text.rstrip()), start)


# -- the server ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Published:
    """What was last published for one document, and the text it was computed from."""

    uri: str
    root: Path
    rel: str
    version: Optional[int]
    text: str
    items: Tuple[Tuple[types.Diagnostic, Diagnostic], ...]


@dataclass(frozen=True)
class OpenBuffer:
    uri: str
    rel: str
    version: Optional[int]
    text: str


def _run_engine(session: "Session", overrides: Mapping[str, bytes], watched: Optional[Mapping[str, Stamp]] = None):
    """One check of a project (on the engine thread), from what its session kept of the last one."""
    return session.check(overrides, watched)


class ArchsyncLanguageServer(LanguageServer):
    """The archsync language server; `serve()` starts it on stdio."""

    def __init__(self, debounce: float = DEFAULT_DEBOUNCE) -> None:
        # Full sync: the client sends the whole text on each change, so lines are never
        # split differently from how the engine reads them (form feeds, U+2028, ...).
        super().__init__("archsync", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.debounce = debounce
        self.watch_interval = DEFAULT_WATCH_INTERVAL
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archsync-engine")
        self.pending: Dict[Path, asyncio.Task] = {}
        self.asleep: Dict[Path, asyncio.Task] = {}  # the pending check of a root, while it waits out its debounce
        self.published: Dict[str, Published] = {}
        self.shown_errors: Dict[Path, str] = {}
        # -- watching the files on disk
        self.poll_interval = 0.0  # seconds between two polls; 0 while there is no poller
        self.watcher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archsync-watch")
        self.poller: Optional[asyncio.Task] = None
        self.stamps: Dict[Path, Dict[str, Stamp]] = {}  # per open project, what the poller saw last
        self.client_watches = False  # the client registered our watcher: its events keep the stamps too
        self.sessions: Dict[Path, "Session"] = {}  # per project, what its checks keep between edits
        self.collector = Held()
        self.checking = 0  # checks under way
        self.collect_later: Optional[asyncio.TimerHandle] = None
        self.configs: Dict[Path, Config] = {}  # per project, the configuration of its last check
        self.roots: Dict[str, Path] = {}  # per open document, the project it was last checked in
        self.on_disk: Dict[Path, Set[str]] = {}  # per project, files changed on disk that no check has read yet
        self.watch_error: Optional[str] = None

    # -- where a document belongs -------------------------------------------------------------

    def locate(self, uri: str) -> Optional[Tuple[Path, str]]:
        """(project root, root-relative path) of a Python file URI, or None."""
        fs_path = to_fs_path(uri) if uri.startswith("file:") else None
        if not fs_path or not fs_path.endswith(PYTHON_SUFFIXES) or "\x00" in fs_path or not _encodable(fs_path):
            return None  # a URI no file system can hold (`%00`, a lone surrogate): no file of ours
        try:
            path = Path(fs_path).resolve()
            root: Optional[Path] = find_root(path)
        except (OSError, ValueError):
            return None
        if root is None or not (root / "pyproject.toml").is_file():
            root = self._folder_of(path)  # no pyproject.toml: the workspace folder, never a whole home directory
            if root is None:
                return None
        try:
            return root, path.relative_to(root).as_posix()
        except ValueError:
            return None

    def _folder_of(self, path: Path) -> Optional[Path]:
        try:
            folders = [self.workspace.root_path] + [to_fs_path(f.uri) for f in self.workspace.folders.values()]
        except Exception:  # no workspace before initialize
            return None
        best = None
        for folder in folders:
            if not folder:
                continue
            candidate = Path(folder).resolve()
            inside = candidate == path or candidate in path.parents
            if inside and (best is None or len(candidate.parts) > len(best.parts)):
                best = candidate
        return best

    def open_buffers(self, root: Path) -> List[OpenBuffer]:
        buffers = []
        for uri, document in list(self.workspace.text_documents.items()):
            where = self.locate(uri)
            if where is not None and where[0] == root:
                buffers.append(OpenBuffer(uri, where[1], document.version, _buffer_text(document.source)))
        return buffers

    # -- checking -------------------------------------------------------------------------------

    def _forget_finished_notifications(self) -> None:
        """pygls 2.1 files the future of every notification it handles under a fresh id and never
        removes it (about 5 KB an edit, without a plateau); a finished one is of no use to anyone."""
        futures = getattr(self.protocol, "_request_futures", None)
        if isinstance(futures, dict) and len(futures) > 32:
            for key, future in list(futures.items()):
                if future.done():
                    futures.pop(key, None)

    def schedule(self, uri: str, delay: float) -> None:
        self._forget_finished_notifications()
        where = self.locate(uri)
        if where is None:
            return
        self.roots[uri] = where[0]
        self.schedule_root(where[0], delay)

    def schedule_root(self, root: Path, delay: float) -> None:
        """A check of root in `delay` seconds; it replaces one pending (a newer change restarts the wait)."""
        previous = self.pending.get(root)
        if previous is not None and not previous.done():
            previous.cancel()
        self.pending[root] = asyncio.get_running_loop().create_task(self.check(root, delay))

    async def check(self, root: Path, delay: float) -> None:
        if delay > 0:
            task = asyncio.current_task()
            if task is not None:
                self.asleep[root] = task
            try:
                await asyncio.sleep(delay)
            finally:
                if self.asleep.get(root) is task:
                    del self.asleep[root]
        self._busy()
        try:
            await self._check_now(root)
        finally:
            self._idle()

    def _busy(self) -> None:
        """A check starts: the cyclic collector waits until checks stop coming (`extract/collector.Held`)."""
        self.checking += 1
        if self.collect_later is not None:
            self.collect_later.cancel()
            self.collect_later = None
        self.collector.hold()

    def _idle(self) -> None:
        self.checking -= 1
        if self.checking == 0:
            self.collect_later = asyncio.get_running_loop().call_later(COLLECT_AFTER, self.collector.release)

    async def _check_now(self, root: Path) -> None:
        loop = asyncio.get_running_loop()
        buffers = self.open_buffers(root)
        if not buffers:
            self.sessions.pop(root, None)  # what its checks kept is of no more use
            self.stamps.pop(root, None)
            return  # the last buffer of this project was closed: nobody to tell
        watching = self.poll_interval > 0 or self.client_watches
        if watching and root not in self.stamps:
            # Stamped before the engine reads anything: a change after the read is always seen.
            self.stamps[root] = await loop.run_in_executor(self.watcher, stamps, root)
        seen = self.on_disk.pop(root, None)
        if seen:
            self._log(types.MessageType.Info, f"archsync: re-checking {root}: changed on disk: {_names(seen)}")
        overrides = {b.rel: encode_as_source(b.text) for b in buffers}
        session = self.sessions.get(root)
        if session is None:
            from ..session import Session

            session = self.sessions[root] = Session(root)
        # What the watcher saw last (a snapshot: it replaces the dict, never changes it); without one,
        # the session stamps the project itself
        watched = self.stamps.get(root) if watching else None
        try:
            report = await loop.run_in_executor(self.engine, _run_engine, session, overrides, watched)
        except asyncio.CancelledError:
            raise
        except ConfigError as exc:
            self._config_error(root, str(exc))
            return
        except Exception as exc:  # never let the engine take the server down
            logger.exception("archsync: checking %s failed", root)
            self.window_log_message(types.LogMessageParams(
                type=types.MessageType.Error, message=f"archsync: checking {root} failed: {exc!r}"))
            return
        self.shown_errors.pop(root, None)
        self.configs[root] = report.config
        for warning in report.warnings:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning,
                                                           message=f"archsync: {warning}"))
        try:
            self.publish(root, report.diagnostics, buffers)
        except Exception as exc:
            logger.exception("archsync: publishing diagnostics for %s failed", root)
            self.window_log_message(types.LogMessageParams(
                type=types.MessageType.Error, message=f"archsync: publishing diagnostics failed: {exc!r}"))

    def _config_error(self, root: Path, message: str) -> None:
        if self.shown_errors.get(root) == message:
            return
        self.shown_errors[root] = message
        logger.error("archsync: %s", message)
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                         message=f"archsync: {message}"))

    def publish(self, root: Path, diagnostics: Sequence[Diagnostic], buffers: Iterable[OpenBuffer]) -> None:
        by_path: Dict[str, List[Diagnostic]] = {}
        for d in diagnostics:
            by_path.setdefault(d.path, []).append(d)
        units = self._units()
        for buffer in buffers:
            if buffer.uri not in self.workspace.text_documents:
                continue  # closed while the engine ran
            positions = Positions(buffer.text, units)
            items = tuple((to_lsp(d, positions), d) for d in by_path.get(buffer.rel, ()))
            self.published[buffer.uri] = Published(buffer.uri, root, buffer.rel, buffer.version, buffer.text, items)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=buffer.uri, version=buffer.version, diagnostics=[lsp for lsp, _ in items]))

    def forget(self, uri: str) -> None:
        self.published.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def _units(self):
        try:
            return self.workspace.position_codec.client_num_units
        except Exception:
            return _utf16_units

    def _log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    # -- files changed on disk ------------------------------------------------------------------

    async def start_watching(self) -> None:
        """Have the client watch the files if it can register a watcher for a server; poll them too.

        The client's events are the quick way (VS Code's come at once). The poll is the way for
        clients that cannot watch (Neovim on Linux, by default), refuse the registration or never
        answer it: every `watch_interval` seconds. It is also the safety net, SAFETY_FACTOR times
        as rarely, for clients that register the watcher and then miss changes: Neovim's own
        backend on Linux (without inotifywait) watches no subdirectory for these globs. Both
        update the same stamps, so a change is checked once, whichever reports it first.
        """
        client_watches = False
        if get_capability(self.client_capabilities, "workspace.did_change_watched_files.dynamic_registration", False):
            registration = types.Registration(
                id=WATCH_REGISTRATION, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]))
            try:
                await asyncio.wait_for(self.client_register_capability_async(
                    types.RegistrationParams(registrations=[registration])), REGISTRATION_WAIT)
            except Exception as exc:  # refused, or not answered in time
                logger.warning("archsync: the client did not register the file watcher: %r", exc)
                self._log(types.MessageType.Warning,
                          f"archsync: the client did not register the file watcher ({exc!r}): polling instead")
            else:
                client_watches = True
        self.client_watches = client_watches
        interval = self.watch_interval * (SAFETY_FACTOR if client_watches else 1)
        if interval > 0:
            self.poll_interval = interval
            await self.poll_logged()  # the projects already open are stamped now, not an interval later
            self.poller = asyncio.get_running_loop().create_task(self.poll())
        if client_watches:
            how = "through the client (" + ", ".join(WATCHED) + ")"
            if interval > 0:
                how += f", polling them every {interval:g}s for what it misses"
        else:
            how = f"by polling them every {interval:g}s" if interval > 0 else "not at all (watchInterval 0)"
        self._log(types.MessageType.Info, f"archsync: watching files on disk {how}")

    def client_saw(self, changes: Sequence[types.FileEvent]) -> None:
        """workspace/didChangeWatchedFiles: re-check each open project that reads a file named,
        unless the poll saw that change first."""
        roots = self.relocate()
        found: Dict[Path, Dict[str, Path]] = {}
        for change in changes:
            fs_path = to_fs_path(change.uri) if change.uri.startswith("file:") else None
            if not fs_path or "\x00" in fs_path or not _encodable(fs_path):
                continue
            try:
                path = Path(fs_path).resolve()
            except (OSError, ValueError):
                continue
            for root in roots:
                try:
                    rel = path.relative_to(root).as_posix()
                except ValueError:
                    continue
                config = self.configs.get(root)
                if rel == PYPROJECT or (is_discovered(config, rel) if config is not None else rel.endswith(".py")):
                    found.setdefault(root, {})[rel] = path
        for root, paths in found.items():
            known = self.stamps.get(root)
            if known is not None:
                fresh = {rel: stamp(path) for rel, path in paths.items()}
                rels = [rel for rel in paths if fresh[rel] != known.get(rel)]
                if not rels:
                    continue  # the poll saw these first, and their check is done or pending
                if PYPROJECT in rels:
                    del self.stamps[root]  # the files read may change with it: the check stamps them afresh
                else:
                    updated = {rel: value for rel, value in known.items() if rel not in rels}
                    for rel in rels:
                        value = fresh[rel]
                        if value is not None:
                            updated[rel] = value
                    self.stamps[root] = updated  # a new dict: a poll under way sees it was overtaken
                self.disk_changed(root, rels)
            else:
                self.disk_changed(root, list(paths))

    def disk_changed(self, root: Path, rels: Iterable[str]) -> None:
        """Files of root's project changed on disk: check it once the burst is over.

        A file open in the editor is left out: its buffer stands in for it (its save is
        didSave's). pyproject.toml always counts: the configuration is read from disk.
        """
        open_rels = {b.rel for b in self.open_buffers(root)}
        rels = [rel for rel in rels if rel == PYPROJECT or rel not in open_rels]
        if rels:
            self.on_disk.setdefault(root, set()).update(rels)
            self.schedule_root(root, self.debounce)

    def relocate(self) -> Set[Path]:
        """The projects of the open documents; a document now in another project (a pyproject.toml
        created or deleted above it) is checked in that one."""
        roots = set()
        for uri in list(self.workspace.text_documents):
            where = self.locate(uri)
            if where is None:
                continue
            roots.add(where[0])
            if self.roots.setdefault(uri, where[0]) != where[0]:
                self.roots[uri] = where[0]
                self.schedule_root(where[0], self.debounce)
        return roots

    async def poll(self) -> None:
        """Our own watcher: stamps each open project's files every `poll_interval` seconds.

        On a tree where one poll takes longer than POLL_SHARE of the interval, it rests
        1 / POLL_SHARE times as long as the poll took, so it never takes more than that share
        of a core. Any error is logged (once while it repeats) and the polling goes on.
        """
        loop = asyncio.get_running_loop()
        rest = self.poll_interval
        while True:
            await asyncio.sleep(rest)
            started = loop.time()
            await self.poll_logged()
            rest = max(self.poll_interval, (loop.time() - started) / POLL_SHARE)

    async def poll_logged(self) -> None:
        try:
            await self.poll_once()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            message = f"archsync: watching files on disk failed: {exc!r}"
            if message != self.watch_error:
                self.watch_error = message
                logger.exception("archsync: watching files on disk failed")
                self._log(types.MessageType.Error, message)
        else:
            self.watch_error = None

    async def poll_once(self) -> None:
        loop = asyncio.get_running_loop()
        roots = self.relocate()
        for root in [r for r in self.stamps if r not in roots]:
            del self.stamps[root]  # no open document there any more
        for root in sorted(roots):
            before = self.stamps.get(root)
            after = await loop.run_in_executor(self.watcher, stamps, root)
            if self.stamps.get(root) is not before:
                continue  # a check stamped it meanwhile
            self.stamps[root] = after
            if before is not None:
                seen = changed(before, after)
                if seen:
                    self.disk_changed(root, seen)

    # -- fixes ----------------------------------------------------------------------------------

    async def answer_code_actions(self, params: types.CodeActionParams) -> List[types.CodeAction]:
        """The actions of the latest result computed from the buffer's current text.

        When the buffer changed since (typing, or the fix just applied), no earlier result
        fits it: its positions are off, and it would offer the fix just applied a second
        time. So the request starts the pending check at once (the request says the user
        paused: the debounce is skipped) and waits for it, CODE_ACTION_WAIT seconds at most.
        A result that fits the text is answered at once, even while a check for a change
        on disk is pending: its edits are exact for this text, the new result follows within
        the debounce, and the client refuses an edit made for a version it has left.
        """
        uri = params.text_document.uri
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CODE_ACTION_WAIT
        asked = False
        while True:
            actions = self.code_actions(params)
            if actions is not None:
                return actions
            where = self.locate(uri)
            if where is None or uri not in self.workspace.text_documents:
                return []
            root = where[0]
            task = self.pending.get(root)
            if task is None or task.done():
                if asked:
                    return []  # the check ran and published nothing for this text (it failed): nothing fits
                self.schedule(uri, 0)
                asked = True
            elif self.asleep.get(root) is task:
                self.schedule_root(root, 0)
            remaining = deadline - loop.time()
            if remaining <= 0:
                logger.info("archsync: no result for %s within %ss", uri, CODE_ACTION_WAIT)
                return []
            await asyncio.wait({self.pending[root]}, timeout=remaining)

    def code_actions(self, params: types.CodeActionParams) -> Optional[List[types.CodeAction]]:
        """Actions from the published result if it was computed from the buffer's text, else None."""
        uri = params.text_document.uri
        published = self.published.get(uri)
        document = self.workspace.text_documents.get(uri)
        if published is None or document is None or _buffer_text(document.source) != published.text:
            return None
        # The same text under a newer version (an edit undone): the edits are for this version.
        published = dataclasses.replace(published, version=document.version)
        only = params.context.only
        wanted = lambda kind: only is None or any(kind == k or kind.startswith(k + ".") for k in only)  # noqa: E731
        actions: List[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix):
            for lsp, d in self._selected(published, params):
                edit = self.workspace_edit(published, [d.fix])
                if edit is not None:
                    actions.append(types.CodeAction(
                        title=fix_title(d.fix), kind=types.CodeActionKind.QuickFix, diagnostics=[lsp],
                        edit=edit, is_preferred=True))
        fixable = [(lsp, d) for lsp, d in published.items if d.fix is not None and d.fix.path == published.rel]
        if fixable and wanted(FIX_ALL):
            edit = self.workspace_edit(published, [d.fix for _, d in fixable if d.fix is not None])
            if edit is not None:
                actions.append(types.CodeAction(title="Fix all archsync problems in this file", kind=FIX_ALL,
                                                diagnostics=[lsp for lsp, _ in fixable], edit=edit))
        return actions

    def _selected(self, published: Published, params: types.CodeActionParams):
        """Fixable diagnostics named in the request's context; if it names none of ours, those touching its range."""
        asked = [c for c in params.context.diagnostics if c.source in (None, SOURCE)]
        fixable = [(lsp, d) for lsp, d in published.items if d.fix is not None]
        named = [(lsp, d) for lsp, d in fixable
                 if any(c.code == lsp.code and c.message == lsp.message and c.range == lsp.range for c in asked)]
        return named or [(lsp, d) for lsp, d in fixable if _touches(lsp.range, params.range)]

    def workspace_edit(self, published: Published, fixes: Sequence[FixRequest]) -> Optional[types.WorkspaceEdit]:
        """One WorkspaceEdit for fixes that all target one file (the buffer's, or another)."""
        from ..fix.editor import apply_fixes

        target = fixes[0].path
        if any(f.path != target for f in fixes):
            return None
        if target == published.rel:
            uri, version, text = published.uri, published.version, published.text
        else:
            uri, version, text = self._text_of(published.root, target)
            if text is None:
                return None
        try:
            result = apply_fixes(encode_as_source(text), list(fixes))
        except Exception:
            logger.exception("archsync: planning a fix failed")
            return None
        for refusal in result.refused:
            logger.info("archsync: fix refused: %s", refusal.reason)
        if not result.edits:
            return None
        positions = Positions(text, self._units())
        edits = [types.TextEdit(range=types.Range(start=positions.at(e.start_line, e.start_column),
                                                  end=positions.at(e.end_line, e.end_column)),
                                new_text=e.new_text) for e in result.edits]
        if get_capability(self.client_capabilities, "workspace.workspace_edit.document_changes", False):
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                edits=edits)])
        return types.WorkspaceEdit(changes={uri: edits})

    def _text_of(self, root: Path, rel: str):
        for buffer in self.open_buffers(root):
            if buffer.rel == rel:
                return buffer.uri, buffer.version, buffer.text
        try:
            text = (root / rel).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None, None, None
        return from_fs_path(str(root / rel)), None, text

    def stop(self) -> None:
        for task in self.pending.values():
            task.cancel()
        if self.collect_later is not None:
            self.collect_later.cancel()
        self.collector.release()
        if self.poller is not None:
            self.poller.cancel()
        self.engine.shutdown(wait=False, cancel_futures=True)
        self.watcher.shutdown(wait=False, cancel_futures=True)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _buffer_text(text: str) -> str:
    """A buffer as a file could hold it: a lone surrogate (JSON can send one, no file holds one) as U+FFFD."""
    return text if _encodable(text) else text.encode("utf-8", "replace").decode("utf-8")


def to_lsp(d: Diagnostic, positions: Positions) -> types.Diagnostic:
    return types.Diagnostic(
        range=positions.token_range(d.line, d.column),
        message=printable(d.message),
        severity=types.DiagnosticSeverity(BY_CODE[d.code].level.lsp) if d.code in BY_CODE
        else types.DiagnosticSeverity.Error,
        code=d.code,
        source=SOURCE,
    )


def _names(rels: Iterable[str], most: int = 5) -> str:
    ordered = sorted(rels)
    shown = ", ".join(ordered[:most])
    return shown + (f" and {len(ordered) - most} more" if len(ordered) > most else "")


def fix_title(fix: FixRequest) -> str:
    where = fix.target.split(":")[-1] if fix.target.startswith("@") else fix.target
    if fix.action == "add":
        return f"Add '{fix.name}' to {where}"
    return f"Remove the duplicate '{fix.name}' from {where}"


def _touches(a: types.Range, b: types.Range) -> bool:
    key = lambda p: (p.line, p.character)  # noqa: E731
    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def build_server(debounce: float = DEFAULT_DEBOUNCE) -> ArchsyncLanguageServer:
    server = ArchsyncLanguageServer(debounce)

    @server.feature(types.INITIALIZE)
    def initialize(ls: ArchsyncLanguageServer, params: types.InitializeParams) -> None:
        options: Any = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            ls.debounce = max(float(options["debounce"]), 0.0)
        if isinstance(options, dict) and isinstance(options.get("watchInterval"), (int, float)):
            ls.watch_interval = max(float(options["watchInterval"]), 0.0)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: ArchsyncLanguageServer, params: types.InitializedParams) -> None:
        try:
            await ls.start_watching()
        except Exception:  # never let the watcher take the server down
            logger.exception("archsync: starting to watch files on disk failed")

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: ArchsyncLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        try:
            ls.client_saw(params.changes)
        except Exception:
            logger.exception("archsync: handling files changed on disk failed")

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: ArchsyncLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: ArchsyncLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: ArchsyncLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: ArchsyncLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in ls.published:
            ls.forget(uri)
        ls.schedule(uri, 0)  # the file on disk stands in for the closed buffer again
        ls.roots.pop(uri, None)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
    async def code_action(ls: ArchsyncLanguageServer, params: types.CodeActionParams):
        try:
            return await ls.answer_code_actions(params) or None
        except Exception:
            logger.exception("archsync: computing code actions failed")
            return None

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: ArchsyncLanguageServer, *args) -> None:
        ls.stop()

    return server


MAX_MESSAGE = 256 << 20  # bytes: no editor sends a message this large; a Content-Length beyond it is framing garbage
MAX_HEADER_LINE = 64 << 10


class _BoundedInput:
    """stdin as the JSON-RPC reader uses it, never asked for more than a message can be.

    `Content-Length: 99999999999999999999` would make the reader allocate (and overflow) on
    `read(n)`: such a body is answered as an invalid message instead, and the reader finds the
    next header, as it does after any malformed input.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def readline(self) -> bytes:
        return self.stream.readline(MAX_HEADER_LINE)

    def read(self, size: int = -1) -> bytes:
        if size > MAX_MESSAGE:
            logging.getLogger(__name__).error("ignored a message framed as %d bytes", size)
            return b'{"jsonrpc": "2.0", "method": "$/archsync/ignoredMessage", "params": {}}'
        return self.stream.read(size)

    def close(self) -> None:
        self.stream.close()


class _OneLine(logging.Formatter):
    """A log line per event: what a client sent wrong is said in one line, not a traceback of pygls."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message = f"{message}: {type(error).__name__}: {error}"
        if "Traceback (most recent call last)" in message:  # pygls writes some into the message itself
            lines = [line for line in message.splitlines() if line.strip()]
            message = f"{lines[0]}: {lines[-1].strip()}"
        record = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None, "msg": message,
                                        "args": ()})
        return super().format(record)


def serve() -> int:
    """Run the server on stdin/stdout until the client says exit (or closes stdin)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("archsync-lsp %(levelname)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    server = build_server()
    try:
        server.start_io(stdin=_BoundedInput(sys.stdin.buffer))  # type: ignore[arg-type]
    finally:
        server.stop()
    return 0
