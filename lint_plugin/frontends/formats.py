"""Output formats for `archsync check`: text, JSON, GitHub workflow annotations, SARIF 2.1.0."""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from .. import __version__, rules
from ..diagnostics import Diagnostic
from ..report.causes import findings, places_of
from ..report.escape import json_safe, printable, uri_path
from ..rules import Rule
from .paths import seen_from_here

if TYPE_CHECKING:
    from ..fix.payload_cache import PayloadCache

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
JSON_VERSION = 2  # 2: `path` and `fix.path` seen from the current directory, and `root` (1: from the project root)
# How each severity of the rule registry is spelt by SARIF and by GitHub annotations.


def render(kind: str, diagnostics: Sequence[Diagnostic], root: Path, color: bool = False,
           fixes: Optional["PayloadCache"] = None) -> str:
    """`diagnostics` of the project at `root` in format `kind`, every path seen from the current
    directory (`paths.py`): the diagnostic's, its fix's and those its message names. JSON carries
    each fix's edits, taken from `fixes` (the last run's) where it planned them on the same bytes.
    The findings of one cause in a file are one (`report/causes.py`)."""
    diagnostics = findings(diagnostics)
    if kind == "json":
        return _json(diagnostics, root, fixes)
    shown = seen_from_here(diagnostics, root)
    if kind == "text" and color:
        return _text(shown, _ANSI)
    return {"text": _text, "github": _github, "sarif": _sarif}[kind](shown)


def statistics(diagnostics: Sequence[Diagnostic]) -> str:
    """`--statistics`: how many problems of each code, most first (as ruff and flake8 print them)."""
    counts = Counter(d.code for d in findings(diagnostics))
    return "".join(f"{count:>5}  {code}  {rules.BY_CODE[code].name if code in rules.BY_CODE else ''}\n".rstrip() + "\n"
                   for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# bold path, bold red code: the colours ruff and flake8 use for the same parts
_ANSI = ("\x1b[1m", "\x1b[1;31m", "\x1b[0m")


def _text(diagnostics: Sequence[Diagnostic], ansi: Tuple[str, str, str] = ("", "", "")) -> str:
    path_on, code_on, off = ansi
    return "".join(f"{path_on}{printable(d.path, lookalikes=False)}{off}:{d.line}:{d.column}: "
                   f"{code_on}{d.code}{off} {printable(d.text)}\n" for d in diagnostics)


def _json(diagnostics: Sequence[Diagnostic], root: Path, cache: Optional["PayloadCache"] = None) -> str:
    """The stable document (version 2: paths seen from the current directory, beside the project's
    `root`); `fix` (null when none) carries the request and its text edits."""
    from ..fix.payloads import fix_payloads

    every = [place for d in diagnostics for place in places_of(d)]  # each with its own fix
    planned = fix_payloads(root, every, cache=cache) if any(d.fix for d in every) else {}
    fixes = iter([_seen_fix(planned.get(i), d) for i, d in enumerate(seen_from_here(every, root))])
    items = []
    for d in seen_from_here(diagnostics, root):
        item = {key: value for key, value in d.to_json().items() if key != "related"}
        item["fix"] = next(fixes)
        if d.related:  # the other places of the finding's cause, each with its fix
            item["related"] = [dict(r.to_json(), fix=next(fixes)) for r in d.related]
        items.append(item)
    document = {"version": JSON_VERSION, "root": str(root.resolve()), "diagnostics": items}
    return json.dumps(json_safe(document), indent=2) + "\n"


def _seen_fix(payload: Optional[Dict[str, Any]], shown: Diagnostic) -> Optional[Dict[str, Any]]:
    """A fix's payload (planned against the project's files) with its path as the diagnostic shows it."""
    if payload is None or shown.fix is None:
        return payload
    return dict(payload, path=shown.fix.path)


def _github(diagnostics: Sequence[Diagnostic]) -> str:
    """Workflow commands: one annotation per diagnostic, at its rule's severity (`::error`, `::warning`, `::notice`)."""
    lines = []
    for d in diagnostics:
        rule = rules.BY_CODE.get(d.code)
        properties = ",".join(f"{key}={_escape_property(value)}" for key, value in (
            ("file", printable(d.path, lookalikes=False, keep="\r\n")),
            ("line", str(d.line)), ("col", str(d.column)),
            ("title", f"{d.code} {rule.name}" if rule else d.code)))
        command = rule.level.github if rule else "error"
        message = printable(f"{d.code} {d.text}", keep="\r\n")  # newlines: GitHub's own %0A
        lines.append(f"::{command} {properties}::{_escape_data(message)}\n")
    return "".join(lines)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _sarif(diagnostics: Sequence[Diagnostic]) -> str:
    """SARIF 2.1.0: each result's file relative to `%SRCROOT%`, the current directory (or, outside it,
    an absolute file URI)."""
    by_code = rules.BY_CODE
    used = sorted({d.code for d in diagnostics} | set(by_code))
    described: List[Dict[str, Any]] = [_sarif_rule(by_code[code]) if code in by_code else {"id": code}
                                       for code in used]
    index = {code: i for i, code in enumerate(used)}
    results = [{
        "ruleId": d.code,
        "ruleIndex": index[d.code],
        "level": by_code[d.code].level.sarif if d.code in by_code else "error",
        "message": {"text": printable(d.text)},
        "locations": [{"physicalLocation": {
            "artifactLocation": _artifact(d.path),
            "region": {"startLine": d.line, "startColumn": d.column},
        }}],
        **({"relatedLocations": [_sarif_related(i, r) for i, r in enumerate(d.related)]} if d.related else {}),
        **({"properties": {"subject": d.subject, "member": d.member}} if d.subject else {}),
    } for d in diagnostics]
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "archsync", "version": __version__,
                                "informationUri": "https://pypi.org/project/flake8-archsync/", "rules": described}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _directory_uri(Path.cwd())}},
            "results": results,
        }],
    }
    return json.dumps(json_safe(document), indent=2) + "\n"


def _sarif_related(index: int, place: Diagnostic) -> Dict[str, Any]:
    """Another place of a result's cause: where, and what it lacks there."""
    return {"id": index, "message": {"text": printable(place.text)}, "physicalLocation": {
        "artifactLocation": _artifact(place.path), "region": {"startLine": place.line, "startColumn": place.column}}}


def _artifact(shown: str) -> Dict[str, str]:
    """A SARIF artifactLocation for a path as shown from here: relative to `%SRCROOT%`, else absolute."""
    if os.path.isabs(shown) or shown == os.pardir or shown.startswith(os.pardir + os.sep):
        return {"uri": Path(os.path.abspath(shown)).as_uri()}
    return {"uri": uri_path(Path(shown).as_posix()), "uriBaseId": "%SRCROOT%"}


def _directory_uri(directory: Path) -> str:
    uri = directory.resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _sarif_rule(rule: Rule) -> Dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.what},
        "help": {"text": rules.explain(rule.code)},
        "defaultConfiguration": {"level": rule.level.sarif},
    }
