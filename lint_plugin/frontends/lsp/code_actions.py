"""Quick fixes: each fixable diagnostic as a `quickfix`, all of a file's as `source.fixAll.archsync`,
with edits from `apply_fixes` on the text the diagnostics were computed from."""
from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import FrozenSet, List, Optional, Sequence, Set

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.uris import from_fs_path

from ...diagnostics import Diagnostic, FixRequest
from ...extract.source_text import source_text
from ...project.files import Unreadable, encode_as_source, read_file
from ...report.causes import other_places
from .checking import CheckingServer
from .convert import SOURCE, Positions
from .state import Published, buffer_text, logger

CODE_ACTION_WAIT = 5.0  # seconds a code action request waits for the check of a buffer that changed
FIX_ALL = "source.fixAll.archsync"


class CodeActionServer(CheckingServer):
    """The server's answers to textDocument/codeAction."""

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
        if published is None or document is None or buffer_text(document.source) != published.text:
            return None
        # The same text under a newer version (an edit undone): the edits are for this version.
        published = dataclasses.replace(published, version=document.version)
        only = params.context.only
        wanted = lambda kind: only is None or any(kind == k or kind.startswith(k + ".") for k in only)  # noqa: E731
        actions: List[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix):
            selected = self._selected(published, params)
            for lsp, d in selected:
                edit = self.workspace_edit(published, [d.fix])
                if edit is not None:
                    actions.append(types.CodeAction(
                        title=fix_title(d.fix), kind=types.CodeActionKind.QuickFix, diagnostics=[lsp],
                        edit=edit, is_preferred=True))
            actions += self._cause_fixes(published, [d for _, d in selected])
        fixable = [(lsp, d) for lsp, d in published.items if d.fix is not None and d.fix.path == published.rel]
        if fixable and wanted(FIX_ALL):
            edit = self.workspace_edit(published, [d.fix for _, d in fixable if d.fix is not None])
            if edit is not None:
                actions.append(types.CodeAction(title="Fix all archsync problems in this file", kind=FIX_ALL,
                                                diagnostics=[lsp for lsp, _ in fixable], edit=edit))
        return actions

    def _cause_fixes(self, published: Published, selected: Sequence[Diagnostic]) -> List[types.CodeAction]:
        """After each place's own fix, once per cause among `selected`: every place of it (`check` reports them as
        one finding, and `fix` makes all their edits)."""
        cause = other_places([d for _, d in published.items])
        actions: List[types.CodeAction] = []
        offered: Set[FrozenSet[int]] = set()
        for d in selected:
            group = [d, *cause.get(id(d), ())]
            key = frozenset(map(id, group))
            fixes = [g.fix for g in group if g.fix is not None and g.fix.path == published.rel]
            if len(fixes) < 2 or key in offered:
                continue
            offered.add(key)
            edit = self.workspace_edit(published, fixes)
            if edit is not None:
                actions.append(types.CodeAction(
                    title=f"Fix the {len(fixes)} places of this cause", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[item for item, g in published.items if id(g) in key], edit=edit))
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
        from ...fix.editor import apply_fixes

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
        data = read_file(root / rel)
        text = None if isinstance(data, Unreadable) else source_text(data)
        if not isinstance(text, str):  # unreadable, or a file Python would not read: nothing to fix there
            return None, None, None
        return from_fs_path(str(root / rel)), None, text


def fix_title(fix: FixRequest) -> str:
    where = fix.target.split(":")[-1] if fix.target.startswith("@") else fix.target
    if fix.action == "add":
        return f"Add '{fix.name}' to {where}"
    return f"Remove the duplicate '{fix.name}' from {where}"


def _touches(a: types.Range, b: types.Range) -> bool:
    key = lambda p: (p.line, p.character)  # noqa: E731
    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)
