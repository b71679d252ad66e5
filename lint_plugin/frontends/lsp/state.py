"""What the language server keeps between messages, declared in one place for the layers built on
it (checking, watching, code actions), and which project each open document belongs to."""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Set, Tuple

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ... import __version__
from ...config import Config, find_root
from ...diagnostics import Diagnostic
from ...extract.collector import Held
from ...project.stamps import Stamp
from .convert import utf16_units

if TYPE_CHECKING:
    from ...session import Session

logger = logging.getLogger("archsync.lsp")

DEFAULT_DEBOUNCE = 0.25  # seconds between the last keystroke (or change on disk) and a check
DEFAULT_WATCH_INTERVAL = 1.0  # seconds between two polls of the open projects' files, when we poll
PYTHON_SUFFIXES = (".py", ".pyi")


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


class ServerState(LanguageServer):
    """Everything the server keeps, in one `__init__` so each field is seen beside the others, and where
    a document belongs; `CheckingServer`, `WatchingServer` and `CodeActionServer` add what it does."""

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
        if not fs_path or not fs_path.endswith(PYTHON_SUFFIXES) or "\x00" in fs_path or not encodable(fs_path):
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
                buffers.append(OpenBuffer(uri, where[1], document.version, buffer_text(document.source)))
        return buffers

    def _units(self):
        try:
            return self.workspace.position_codec.client_num_units
        except Exception:
            return utf16_units

    def _log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))


def encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def buffer_text(text: str) -> str:
    """A buffer as a file could hold it: a lone surrogate (JSON can send one, no file holds one) as U+FFFD."""
    return text if encodable(text) else text.encode("utf-8", "replace").decode("utf-8")
