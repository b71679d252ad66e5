"""The archsync language server put together from its layers, and the LSP messages it answers
wired to them."""
from __future__ import annotations

from typing import Any

from lsprotocol import types

from .code_actions import FIX_ALL, CodeActionServer
from .state import DEFAULT_DEBOUNCE, logger
from .watching import WatchingServer


class ArchsyncLanguageServer(WatchingServer, CodeActionServer):
    """The archsync language server; `serve()` starts it on stdio."""

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
