"""Output formats for `archsync check`: text, JSON, GitHub workflow annotations, SARIF 2.1.0."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Sequence

from . import __version__
from .codes import RULES
from .diagnostics import Diagnostic

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(kind: str, diagnostics: Sequence[Diagnostic], root: Path) -> str:
    return {"text": _text, "json": _json, "github": _github, "sarif": _sarif}[kind](diagnostics, root)


def display_path(root: Path, rel: str) -> str:
    """A diagnostic's path as the user reads it: relative to the current directory."""
    path = root / rel
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def _text(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    return "".join(f"{display_path(root, d.path)}:{d.line}:{d.column}: {d.code} {d.message}\n" for d in diagnostics)


def _json(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    """The stable document; `fix` (null when none) carries the request and its text edits."""
    from .fixes import fix_payloads

    fixes = fix_payloads(root, diagnostics) if any(d.fix for d in diagnostics) else {}
    items = [dict(d.to_json(), fix=fixes.get(i)) for i, d in enumerate(diagnostics)]
    return json.dumps({"version": 1, "diagnostics": items}, indent=2) + "\n"


def _github(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    """Workflow commands: one `::error` annotation per diagnostic, shown on the pull request."""
    lines = []
    for d in diagnostics:
        properties = ",".join(f"{key}={_escape_property(value)}" for key, value in (
            ("file", display_path(root, d.path)), ("line", str(d.line)), ("col", str(d.column)),
            ("title", f"{d.code} {RULES[d.code].name}" if d.code in RULES else d.code)))
        lines.append(f"::error {properties}::{_escape_data(d.code + ' ' + d.message)}\n")
    return "".join(lines)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _sarif(diagnostics: Sequence[Diagnostic], root: Path) -> str:
    used = sorted({d.code for d in diagnostics} | set(RULES))
    rules: List[Dict[str, Any]] = []
    for code in used:
        rule = RULES.get(code)
        entry: Dict[str, Any] = {"id": code}
        if rule is not None:
            entry.update({
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.doc.split("\n\n", 1)[0].replace("\n", " ")},
                "help": {"text": rule.doc},
            })
        rules.append(entry)
    index = {code: i for i, code in enumerate(used)}
    results = [{
        "ruleId": d.code,
        "ruleIndex": index[d.code],
        "level": "error",
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": d.path, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": d.line, "startColumn": d.column},
        }}],
        **({"properties": {"subject": d.subject, "member": d.member}} if d.subject else {}),
    } for d in diagnostics]
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "archsync", "version": __version__,
                                "informationUri": "https://pypi.org/project/flake8-archsync/", "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.resolve().as_uri() + "/"}},
            "results": results,
        }],
    }
    return json.dumps(document, indent=2) + "\n"
