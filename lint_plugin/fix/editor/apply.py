"""`apply_fixes`: requests planned in rounds against the current text, the result checked by both
parsers (libcst as each edited region is parsed again, the standard parser over what changed), and
the edits composed against the original text. `apply_each` plans several fixes alone on one parse."""
from __future__ import annotations

from typing import Dict, List, Sequence, Set, Tuple, TypeVar

from ...diagnostics import FixRequest
from .add_member import plan_add
from .document import Document, NotPython
from .edits import Edit, compose, splice, text_edit, touch
from .form_feeds import leading_form_feeds, with_form_feeds
from .remove_duplicate import plan_remove
from .results import DID_NOT_PARSE, TOO_DEEP, FixResult, Refusal, Refuse


def apply_fixes(source: bytes, requests: Sequence[FixRequest]) -> FixResult:
    """Apply what can be applied; every byte not part of an edit is kept as it was.

    Requests are planned against the current text in rounds: requests whose edits would
    touch an edit already planned in this round wait for the next one, so each edit is
    computed on text that already holds the earlier ones (idempotent and order-stable).
    """
    return apply_each(source, [requests])[0]


def apply_each(source: bytes, groups: Sequence[Sequence[FixRequest]]) -> List[FixResult]:
    """Each group of requests applied on its own to the same `source`, which is read once: the fixes
    of one file's findings, offered one by one (JSON, flake8, an editor), share the standard parser's
    tree and libcst's parse of each region they are in, instead of parsing a large file again for each."""
    feeds, masked = leading_form_feeds(source)
    try:  # the standard parser once per file: then an edit is checked by parsing only the regions it changed
        doc = Document.parse(masked)
    except Refuse as exc:
        return [FixResult(source, (), tuple(Refusal(r, str(exc)) for r in group), ()) for group in groups]
    except NotPython:  # an edit cannot make a file parse that does not
        return [_internal_error(source, tuple(group)) for group in groups]
    results = [_apply(doc, masked, tuple(group)) for group in groups]
    if feeds:  # libcst does not keep a form feed that starts a line: edited without them, put back
        return [with_form_feeds(source, feeds, result) for result in results]
    return results


def _apply(doc: Document, source: bytes, requests: Tuple[FixRequest, ...]) -> FixResult:
    original, original_starts = doc.text, doc.starts
    applied: Dict[int, FixRequest] = {}
    refused: Dict[int, Refusal] = {}
    composed: List[Edit] = []  # against the original text
    added: Set[Tuple[str, str]] = set()  # (collection, name) added so far: kept in request order
    pending = list(enumerate(requests))
    while pending:
        planned: List[Edit] = []
        deferred = []
        for index, request in pending:
            try:
                edits = _plan(doc, request, _current_offset(original_starts, composed, request), added)
            except Refuse as exc:
                refused[index] = Refusal(request, str(exc))
                continue
            except RecursionError:
                refused[index] = Refusal(request, TOO_DEEP)
                continue
            if not edits:
                continue
            if any(touch(a, b) for a in edits for b in planned):
                deferred.append((index, request))
                continue
            planned.extend(edits)
            applied[index] = request
            if request.action == "add":
                added.add((request.target, request.name))
        if not planned:
            break
        composed = compose(composed, doc.text, planned)
        try:
            doc = doc.edited(planned)
        except (Refuse, RecursionError):
            return _internal_error(source, requests)
        pending = deferred
    if not applied:
        return FixResult(source, (), _in_order(refused), ())
    try:
        data = doc.text.encode(doc.encoding)
        doc.check_with_ast()
    except Exception:  # whatever the parser raises, the edit is not trusted
        return _internal_error(source, requests)
    if splice(original, composed) != doc.text:  # pragma: no cover - guards the composition
        return _internal_error(source, requests)
    text_edits = tuple(text_edit(original, original_starts, edit) for edit in composed)
    return FixResult(data, _in_order(applied), _in_order(refused), text_edits)


def _plan(doc: Document, request: FixRequest, offset: int, added: Set[Tuple[str, str]]) -> List[Edit]:
    if request.action == "add":
        return plan_add(doc, request, offset, added)
    return plan_remove(doc, request, offset)


def _current_offset(starts: List[int], composed: List[Edit], request: FixRequest) -> int:
    """Where the request's original position is now, after the edits of earlier rounds."""
    if request.action not in ("add", "remove"):
        raise Refuse(f"unknown fix action {request.action!r}")
    line = request.line
    column = request.column if request.action == "remove" else 1
    if not isinstance(line, int) or not 1 <= line <= len(starts):
        raise Refuse(f"line {line} is not in the file")
    line_end = starts[line] - 1 if line < len(starts) else None  # a stale column stays on its line
    offset = starts[line - 1] + max(column, 1) - 1
    if line_end is not None:
        offset = min(offset, line_end)
    delta = 0
    for start, end, text in composed:
        if end <= offset:
            delta += len(text) - (end - start)
        elif start <= offset:  # rewritten by an earlier round: look where the rewrite begins
            return start + delta
        else:
            break
    return offset + delta


def _internal_error(source: bytes, requests: Sequence[FixRequest]) -> FixResult:
    return FixResult(source, (), tuple(Refusal(r, DID_NOT_PARSE) for r in requests), ())


_T = TypeVar("_T")


def _in_order(by_index: Dict[int, _T]) -> Tuple[_T, ...]:
    return tuple(by_index[i] for i in sorted(by_index))
