"""Files changed on disk (by git, a formatter, another editor): the client's watcher where it can
register one, and a poll of the files' stamps besides; either way a change re-checks its project."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Dict, Iterable, Sequence, Set

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.uris import to_fs_path

from ...project.discovery import is_discovered
from ...project.stamps import PYPROJECT, changed, stamp, stamps
from .checking import CheckingServer
from .state import encodable, logger

POLL_SHARE = 0.02  # the poller rests at least 1 / POLL_SHARE times as long as a poll took
SAFETY_FACTOR = 5  # while the client watches, the poll (a safety net) runs this many times as rarely
REGISTRATION_WAIT = 10.0  # seconds to wait for the client to answer client/registerCapability
WATCHED = ("**/*.py", "**/pyproject.toml")
WATCH_REGISTRATION = "archsync-watched-files"


class WatchingServer(CheckingServer):
    """The server's watch on the files of the open projects."""

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
            if not fs_path or "\x00" in fs_path or not encodable(fs_path):
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
