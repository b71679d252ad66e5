"""Checking a project: a check scheduled per project after the debounce (a newer change restarts
the wait), run on the engine thread from the project's `Session`, and published to every open
document of it; the cyclic garbage collector waits while checks follow one another."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Mapping, Optional, Sequence

from lsprotocol import types
from pygls.capabilities import get_capability

from ...config import ConfigError
from ...diagnostics import Diagnostic
from ...project.files import encode_as_source
from ...project.stamps import Stamp, stamps
from ...report.causes import other_places
from .convert import Positions, to_lsp
from .state import OpenBuffer, Published, ServerState, logger

if TYPE_CHECKING:
    from ...session import Session

COLLECT_AFTER = 1.0  # seconds without a check before the cyclic collector runs again


def _run_engine(session: "Session", overrides: Mapping[str, bytes], watched: Optional[Mapping[str, Stamp]] = None):
    """One check of a project (on the engine thread), from what its session kept of the last one."""
    return session.check(overrides, watched)


class CheckingServer(ServerState):
    """The server's checks: when they run, what they read, and what they publish."""

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
            from ...session import Session

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
        related = get_capability(self.client_capabilities, "text_document.publish_diagnostics.related_information",
                                 False)
        for buffer in buffers:
            if buffer.uri not in self.workspace.text_documents:
                continue  # closed while the engine ran
            positions = Positions(buffer.text, units)
            mine = by_path.get(buffer.rel, [])
            cause = other_places(mine) if related else {}
            items = tuple((to_lsp(d, positions, root, related, cause.get(id(d), ())), d) for d in mine)
            self.published[buffer.uri] = Published(buffer.uri, root, buffer.rel, buffer.version, buffer.text, items)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=buffer.uri, version=buffer.version, diagnostics=[lsp for lsp, _ in items]))

    def forget(self, uri: str) -> None:
        self.published.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _names(rels: Iterable[str], most: int = 5) -> str:
    ordered = sorted(rels)
    shown = ", ".join(ordered[:most])
    return shown + (f" and {len(ordered) - most} more" if len(ordered) > most else "")
