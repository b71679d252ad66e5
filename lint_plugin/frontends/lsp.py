"""`archsync lsp`: a language server (pygls) over stdio.

Drift is cross-file, so every check runs the engine on the whole project that holds the
edited file, with the text of *every* open buffer of that project standing in for the
file on disk (`run(root, overrides)`): an unsaved edit in one file that fixes or breaks a
collection in another shows at once, in every open document.

- didOpen / didSave check at once; didChange waits `debounce` seconds (0.25 by default,
  `initializationOptions: {"debounce": seconds}`) for the typing to pause. One engine
  run at a time; a newer change drops the result of a run it overtook.
- Each diagnostic spans the token at the reported line and column (a name, a string
  literal), code = the ARC code, source = "archsync".
- Each diagnostic with a fix is offered as a quick fix (`quickfix`), and all fixes of a
  file together as `source.fixAll.archsync`; the edits come from `plan_edits` on the
  buffer the diagnostics were computed from.
- Positions: the engine and the fixer count 1-based lines and characters (code points);
  LSP counts 0-based lines and, by default, UTF-16 code units (or whatever position
  encoding was negotiated). Lines end at "\\r\\n", "\\r" or "\\n" for both.
- The engine failing never stops the server: the error is logged and nothing new is
  published; a configuration error is shown once with window/showMessage.
"""
from __future__ import annotations

import asyncio
import logging
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..config import ConfigError, find_root
from ..diagnostics import Diagnostic, FixRequest
from ..project.files import encode_as_source
from ..report.escape import printable
from ..rules import BY_CODE

logger = logging.getLogger("archsync.lsp")

SOURCE = "archsync"
DEFAULT_DEBOUNCE = 0.25  # seconds between the last keystroke and a check
FIX_ALL = "source.fixAll.archsync"
PYTHON_SUFFIXES = (".py", ".pyi")

_SEVERITY = {"warning": types.DiagnosticSeverity.Warning, "information": types.DiagnosticSeverity.Information}
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


def _run_engine(root: Path, overrides: Mapping[str, bytes]):
    from ..pipeline import run

    return run(root, overrides, use_cache=True)


class ArchsyncLanguageServer(LanguageServer):
    """The archsync language server; `serve()` starts it on stdio."""

    def __init__(self, debounce: float = DEFAULT_DEBOUNCE) -> None:
        # Full sync: the client sends the whole text on each change, so lines are never
        # split differently from how the engine reads them (form feeds, U+2028, ...).
        super().__init__("archsync", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.debounce = debounce
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archsync-engine")
        self.pending: Dict[Path, asyncio.Task] = {}
        self.published: Dict[str, Published] = {}
        self.shown_errors: Dict[Path, str] = {}

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
        root = where[0]
        previous = self.pending.get(root)
        if previous is not None and not previous.done():
            previous.cancel()
        self.pending[root] = asyncio.get_running_loop().create_task(self.check(root, delay))

    async def check(self, root: Path, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        buffers = self.open_buffers(root)
        if not buffers:
            return  # the last buffer of this project was closed: nobody to tell
        overrides = {b.rel: encode_as_source(b.text) for b in buffers}
        loop = asyncio.get_running_loop()
        try:
            report = await loop.run_in_executor(self.engine, _run_engine, root, overrides)
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

    # -- fixes ----------------------------------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        published = self.published.get(uri)
        document = self.workspace.text_documents.get(uri)
        if published is None or document is None or document.source != published.text:
            return []  # the buffer changed since the check: a newer check is on its way
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
        self.engine.shutdown(wait=False, cancel_futures=True)


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
        severity=_SEVERITY[BY_CODE[d.code].severity] if d.code in BY_CODE else types.DiagnosticSeverity.Warning,
        code=d.code,
        source=SOURCE,
    )


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

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
    async def code_action(ls: ArchsyncLanguageServer, params: types.CodeActionParams):
        try:
            return ls.code_actions(params) or None
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
