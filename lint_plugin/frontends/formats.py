"""Output formats for `archsync check`: text, JSON, GitHub workflow annotations, SARIF 2.1.0."""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from .. import __version__, rules
from ..diagnostics import Diagnostic
from ..report.escape import json_safe, printable, uri_path
from ..rules import Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# How each severity of the rule registry is spelt by SARIF and by GitHub annotations.


def render(kind: str, diagnostics: Sequence[Diagnostic], root: Path, color: bool = False) -> str:
    if kind == "text" and color:
        return _text(diagnostics, root, _ANSI)
    return {"text": _text, "json": _json, "github": _github, "sarif": _sarif}[kind](diagnostics, root)


def statistics(diagnostics: Sequence[Diagnostic]) -> str:
    """`--statistics`: how many problems of each code, most first (as ruff and flake8 print them)."""
    counts = Counter(d.code for d in diagnostics)
    return "".join(f"{count:>5}  {code}  {rules.BY_CODE[code].name if code in rules.BY_CODE else ''}\n".rstrip() + "\n"
                   for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# bold path, bold red code: the colours ruff and flake8 use for the same parts
_ANSI = ("\x1b[1m", "\x1b[1;31m", "\x1b[0m")


def display_path(root: Path, rel: str) -> str:
    """A diagnostic's path as the user reads it: relative to the current directory."""
    path = root / rel
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def _text(diagnostics: Sequence[Diagnostic], root: Path, ansi: Tuple[str, str, str] = ("", "", "")) -> str:
    path_on, code_on, off = ansi
    return "".join(f"{path_on}{printable(display_path(root, d.path), lookalikes=False)}{off}:{d.line}:{d.column}: "
                   f"{code_on}{d.code}{off} {printable(d.message)}\n" for d in diagnostics)


def _json(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    """The stable document; `fix` (null when none) carries the request and its text edits."""
    from ..fix.payloads import fix_payloads

    fixes = fix_payloads(root, diagnostics) if any(d.fix for d in diagnostics) else {}
    items = [dict(d.to_json(), fix=fixes.get(i)) for i, d in enumerate(diagnostics)]
    return json.dumps(json_safe({"version": 1, "diagnostics": items}), indent=2) + "\n"


def _github(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    """Workflow commands: one annotation per diagnostic, at its rule's severity (`::error`, `::warning`, `::notice`)."""
    lines = []
    for d in diagnostics:
        rule = rules.BY_CODE.get(d.code)
        properties = ",".join(f"{key}={_escape_property(value)}" for key, value in (
            ("file", printable(display_path(root, d.path), lookalikes=False, keep="\r\n")),
            ("line", str(d.line)), ("col", str(d.column)),
            ("title", f"{d.code} {rule.name}" if rule else d.code)))
        command = rule.level.github if rule else "error"
        message = printable(f"{d.code} {d.message}", keep="\r\n")  # newlines: GitHub's own %0A
        lines.append(f"::{command} {properties}::{_escape_data(message)}\n")
    return "".join(lines)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _sarif(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    by_code = rules.BY_CODE
    used = sorted({d.code for d in diagnostics} | set(by_code))
    described: List[Dict[str, Any]] = [_sarif_rule(by_code[code]) if code in by_code else {"id": code}
                                       for code in used]
    index = {code: i for i, code in enumerate(used)}
    results = [{
        "ruleId": d.code,
        "ruleIndex": index[d.code],
        "level": by_code[d.code].level.sarif if d.code in by_code else "error",
        "message": {"text": printable(d.message)},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": uri_path(d.path), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": d.line, "startColumn": d.column},
        }}],
        **({"properties": {"subject": d.subject, "member": d.member}} if d.subject else {}),
    } for d in diagnostics]
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "archsync", "version": __version__,
                                "informationUri": "https://pypi.org/project/flake8-archsync/", "rules": described}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.resolve().as_uri() + "/"}},
            "results": results,
        }],
    }
    return json.dumps(json_safe(document), indent=2) + "\n"


def _sarif_rule(rule: Rule) -> Dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.what},
        "help": {"text": rules.explain(rule.code)},
        "defaultConfiguration": {"level": rule.level.sarif},
    }
