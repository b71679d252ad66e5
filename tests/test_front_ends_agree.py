"""One answer per front end (issue 30, item 5): on SGLang's repository layout (the project in
`python/`, archsync run from the repository root), the command line as text and as JSON, the
flake8 plugin and the language server report the same findings, every path seen from where they run.

Each runs as a real process, as a user or an editor starts it. `python -m bench.frontends` makes
the same comparison on a real tree.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from conftest import SOURCE_FIXTURES, archsync_process, copy_tree, flake8_process, write

pytest.importorskip("pygls", reason="the language server needs the 'lsp' extra (pygls)")
from test_lsp import Client  # noqa: E402  (after the skip: it needs pygls too)

# A test module beside the seed bug: a duplicate and a misspelling, after a character that is two
# UTF-16 units (the language server's columns are UTF-16, the others' code points).
SMOKE = ('# smoke tests\n'
         'TAG = "\N{LLAMA}"; _SMOKE_ARCHS = ["Qwen3NextForCausalLM", "Qwen3NextForCausalLM", "FalconH1ForCasualLM"]\n')
OVERRIDES = "python/sglang/srt/arg_groups/overrides.py"
SMOKE_PATH = "python/sglang/test/test_models.py"
FAMILY = "python/sglang/srt/configs/model_config.py:18"  # where is_qwen3_5() is, from the repository root


def missing(line: int, member: str, subject: str) -> Tuple[str, str, int, int, str, str]:
    return ("ARC101", OVERRIDES, line, 1, member,
            f"'{member}' is matched by is_qwen3_5() ({FAMILY}) but missing from {subject}")


# code, path, line, column (code points, 1-based), member, message
FINDINGS = [
    missing(35, "Qwen3_5ForCausalLM", "_MAMBA_RADIX_CACHE_ARCHS"),
    missing(35, "Qwen3_5MoeForCausalLM", "_MAMBA_RADIX_CACHE_ARCHS"),
    missing(48, "Qwen3_5ForCausalLM", "_MAMBA_EXTRA_BUFFER_ARCHS"),
    missing(48, "Qwen3_5MoeForCausalLM", "_MAMBA_EXTRA_BUFFER_ARCHS"),
    ("ARC301", SMOKE_PATH, 2, 52, "Qwen3NextForCausalLM",
     "'Qwen3NextForCausalLM' is listed twice in _SMOKE_ARCHS (first at line 2)"),
    ("ARC201", SMOKE_PATH, 2, 76, "FalconH1ForCasualLM",
     "'FalconH1ForCasualLM' in _SMOKE_ARCHS is not a registered architecture; did you mean 'FalconH1ForCausalLM'?"),
]
# What the command line, JSON and flake8 report: the four places of one cause (is_qwen3_5() grew, both lists of
# one file did not) as one finding at the first, naming the others; the language server shows each place.
CAUSE = FINDINGS[0][:5] + (FINDINGS[0][5] + "; the same for 'Qwen3_5MoeForCausalLM' there, and for "
                           "'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS (line 48)",)
REPORTED = [CAUSE] + FINDINGS[4:]
_LINE = re.compile(r"^(.+?):(\d+):(\d+): (ARC\d+) (.*)$")


def _lines(output: str) -> List[Tuple[str, str, int, int, str]]:
    """`path:line:column: CODE message` lines as (code, path, line, column, message)."""
    found = []
    for line in output.splitlines():
        match = _LINE.match(line)
        assert match, line
        path, row, column, code, message = match.groups()
        found.append((code, path, int(row), int(column), message))
    return sorted(found)


def _utf16(text: str) -> int:
    """How many UTF-16 code units `text` is (LSP's default position encoding)."""
    return len(text.encode("utf-16-le")) // 2


def _language_server(repository: Path, tmp_path: Path) -> Dict[str, List[Dict[str, Any]]]:
    """Every Python file of the project opened in a server started at the repository root: what it
    publishes for each (by path from the root)."""
    files = sorted(p for p in (repository / "python").rglob("*.py"))
    client = Client(repository, tmp_path / "server.stderr")
    try:
        client.request("initialize", {
            "processId": os.getpid(), "rootUri": repository.as_uri(),
            "workspaceFolders": [{"uri": repository.as_uri(), "name": "sglang"}],
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True,
                                                                      "relatedInformation": True}}},
            "initializationOptions": {"debounce": 0.05}})
        client.notify("initialized", {})
        for file in files:
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": file.as_uri(), "languageId": "python", "version": 1, "text": file.read_text(encoding="utf-8")}})
        return {file.relative_to(repository).as_posix(): client.diagnostics(file.as_uri(), 0, 1) for file in files}
    finally:
        client.close()


@pytest.mark.e2e
def test_every_front_end_reports_the_same_findings_from_the_repository_root(tmp_path):
    repository = (tmp_path / "sglang").resolve()
    copy_tree(SOURCE_FIXTURES / "sglang_qwen3_5" / "bug", repository / "python")
    write(repository / SMOKE_PATH, SMOKE)
    expected = sorted((code, path, line, column, message) for code, path, line, column, _, message in REPORTED)

    text = archsync_process("check", "--no-cache", "python", cwd=repository)
    assert _lines(text.stdout) == expected, text

    as_json = archsync_process("check", "--no-cache", "--format", "json", "python", cwd=repository)
    document = as_json.json
    assert document["root"] == str(repository / "python"), as_json
    assert sorted((d["code"], d["path"], d["line"], d["column"], d["member"], d["message"])
                  for d in document["diagnostics"]) == sorted(REPORTED), as_json
    [cause] = [d for d in document["diagnostics"] if "related" in d]
    assert [(d["code"], d["path"], d["line"], d["column"], d["member"], d["message"])
            for d in cause["related"]] == FINDINGS[1:4], as_json
    assert {d["fix"]["path"] for d in document["diagnostics"] if d["fix"]} == {OVERRIDES, SMOKE_PATH}, as_json

    plugin = flake8_process("python", cwd=repository)
    assert _lines(plugin.stdout) == expected, plugin

    published = _language_server(repository, tmp_path)
    lines = {path: (repository / path).read_text(encoding="utf-8").splitlines() for path in published}
    from_server = []
    for path, diagnostics in published.items():
        for d in diagnostics:
            start = d["range"]["start"]
            from_server.append((d["code"], path, start["line"] + 1, start["character"], d["data"]["member"],
                                d["message"]))
            # the place each ARC101 names opens beside it, at the family's line; then the other places of its
            # cause, each at its list's line with what it lacks there
            others = [f for f in FINDINGS[:4] if (f[2], f[4]) != (start["line"] + 1, d["data"]["member"])]
            assert [(r["location"]["uri"], r["location"]["range"]["start"], r["message"])
                    for r in d.get("relatedInformation") or ()] == ([
                        ((repository / FAMILY.split(":")[0]).as_uri(), {"line": 17, "character": 0}, FAMILY)] + [
                        ((repository / OVERRIDES).as_uri(), {"line": line - 1, "character": 0},
                         f"the same cause: {message}") for _, _, line, _, _, message in others]
                        if d["code"] == "ARC101" else []), d
    # the same findings, each column in UTF-16 units of its line
    assert sorted(from_server) == sorted((code, path, line, _utf16(lines[path][line - 1][:column - 1]), member, message)
                                         for code, path, line, column, member, message in FINDINGS), published
