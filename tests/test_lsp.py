"""`archsync lsp`: a real client session over stdio with the installed console script.

The client here is a few lines of JSON-RPC with Content-Length framing, as an editor
speaks it: it opens buffers, edits them without saving, asks for code actions and
applies the returned WorkspaceEdit itself (UTF-16 positions), exactly as VS Code or
Neovim would. Every wait has a deadline, so a silent server fails the test instead of
hanging it.
"""
from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Set

import pytest

from conftest import ARCHSYNC, SOURCE_FIXTURES, archsync, copy_tree

pytest.importorskip("pygls", reason="the language server needs the 'lsp' extra (pygls)")

TIMEOUT = 60.0  # seconds for any one answer (a cold engine run is well under a second)
OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
QWEN3_NEXT = "sglang/srt/models/qwen3_next.py"


class ServerGone(AssertionError):
    pass


class Client:
    """A minimal LSP client: framing, request/response matching, notifications kept in order."""

    def __init__(self, cwd: Path, stderr_path: Path) -> None:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.stderr_path = stderr_path
        self._stderr = open(stderr_path, "wb")
        self.proc = subprocess.Popen([str(ARCHSYNC), "lsp"], cwd=str(cwd), env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._stderr)
        self._inbox: "queue.Queue[Optional[Dict[str, Any]]]" = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next_id = 0
        self.seen: List[Dict[str, Any]] = []  # every message from the server, in order
        self.server_requests: List[Dict[str, Any]] = []
        self.refused: Set[str] = set()  # server requests of these methods are answered with an error

    # -- wire ---------------------------------------------------------------------------------

    def _read(self) -> None:
        stream = self.proc.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    key, _, value = line.decode("ascii").partition(":")
                    headers[key.strip().lower()] = value.strip()
                body = stream.read(int(headers["content-length"]))
                self._inbox.put(json.loads(body.decode("utf-8")))
        finally:
            self._inbox.put(None)

    def _send(self, message: Dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> int:
        """Send a notification; returns how many server messages had arrived before it."""
        self._send({"method": method, "params": params})
        return len(self.seen)

    def request(self, method: str, params: Any) -> Any:
        self._next_id += 1
        ident = self._next_id
        self._send({"id": ident, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == ident and "method" not in m, f"the reply to {method}")
        assert "error" not in reply, reply
        return reply.get("result")

    def wait(self, predicate: Callable[[Dict[str, Any]], bool], what: str, after: int = 0,
             timeout: float = TIMEOUT) -> Dict[str, Any]:
        """The first server message (at index >= after) for which predicate holds."""
        for message in self.seen[after:]:
            if predicate(message):
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {what} within {timeout}s; got {self.seen[after:]}\n{self.stderr()}")
            try:
                message = self._inbox.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                self._inbox.put(None)
                raise ServerGone(f"server closed stdout while waiting for {what}\n{self.stderr()}")
            self.seen.append(message)
            if "method" in message and "id" in message:  # a request from the server: answer it
                self.server_requests.append(message)
                if message["method"] in self.refused:
                    self._send({"id": message["id"], "error": {"code": -32601, "message": "not here"}})
                else:
                    self._send({"id": message["id"], "result": None})
            if len(self.seen) > after and predicate(message):
                return message

    def stderr(self) -> str:
        self._stderr.flush()
        return "--- server stderr\n" + self.stderr_path.read_text(encoding="utf-8", errors="replace")

    # -- LSP ------------------------------------------------------------------------------------

    def diagnostics(self, uri: str, after: int, version: Optional[int] = None) -> List[Dict[str, Any]]:
        """The first diagnostics published for uri after message index `after` (and for `version`)."""
        message = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            and (version is None or m["params"].get("version") == version),
            f"diagnostics for {uri} (version {version})", after)
        return message["params"]["diagnostics"]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._stderr.close()


def apply_edits(text: str, edits: List[Dict[str, Any]]) -> str:
    """Apply LSP TextEdits (0-based lines, UTF-16 columns, all against `text`) as an editor does."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: Dict[str, int]) -> int:
        line = position["line"]
        if line >= len(lines):
            return len(text)
        content = lines[line].rstrip("\r\n")
        units = 0
        for index, char in enumerate(content):
            if units >= position["character"]:
                return starts[line] + index
            units += 2 if ord(char) > 0xFFFF else 1
        assert units >= position["character"], f"character {position} past the end of line {content!r}"
        return starts[line] + len(content)

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_for(edit: Dict[str, Any], uri: str, version: int) -> List[Dict[str, Any]]:
    """The TextEdits of a WorkspaceEdit for one document, checking the version it was made for."""
    if edit.get("documentChanges"):
        (change,) = edit["documentChanges"]
        assert change["textDocument"] == {"uri": uri, "version": version}, change
        return change["edits"]
    return edit["changes"][uri]


def span(line: int, start: int, end: int) -> Dict[str, Any]:
    return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


class Session:
    """An initialized client with helpers for the documents it has open."""

    def __init__(self, client: Client, root: Path) -> None:
        self.client = client
        self.root = root
        self.text: Dict[str, str] = {}
        self.version: Dict[str, int] = {}

    def uri(self, rel: str) -> str:
        return (self.root / rel).as_uri()

    def open(self, rel: str) -> int:
        self.text[rel] = (self.root / rel).read_text(encoding="utf-8")
        self.version[rel] = 1
        return self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri(rel), "languageId": "python", "version": 1, "text": self.text[rel]}})

    def change(self, rel: str, text: str) -> int:
        """An edit that is not saved: the server is sent the whole new text (full sync)."""
        self.text[rel] = text
        self.version[rel] += 1
        return self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri(rel), "version": self.version[rel]},
            "contentChanges": [{"text": text}]})

    def diagnostics(self, rel: str, after: int) -> List[Dict[str, Any]]:
        """What the first check after message index `after` published for rel's current version."""
        return self.client.diagnostics(self.uri(rel), after, self.version[rel])

    def settle(self, after: int) -> Dict[str, List[Dict[str, Any]]]:
        """Each open document's diagnostics from the first check after `after` (one check publishes all)."""
        return {rel: self.diagnostics(rel, after) for rel in self.version}

    def code_actions(self, rel: str, diagnostic: Optional[Dict[str, Any]], only: List[str]) -> List[Dict[str, Any]]:
        end = len(self.text[rel].splitlines())
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": end, "character": 0}}
        return self.client.request("textDocument/codeAction", {
            "textDocument": {"uri": self.uri(rel)},
            "range": diagnostic["range"] if diagnostic else whole,
            "context": {"diagnostics": [diagnostic] if diagnostic else [], "only": only},
        }) or []

    def apply(self, rel: str, action: Dict[str, Any]) -> int:
        edits = edits_for(action["edit"], self.uri(rel), self.version[rel])
        return self.change(rel, apply_edits(self.text[rel], edits))


def start(tmp_path: Path, options: Dict[str, Any], client_watches: bool = False,
          refused: Iterable[str] = (), source: Path = SOURCE_FIXTURES / "sglang_qwen3_5" / "bug") -> Session:
    """A client initialized on a fresh copy of the seed bug's tree, or of `source` (its watcher capability
    as asked)."""
    root = copy_tree(source, tmp_path / "bug").resolve()
    client = Client(tmp_path, tmp_path / "server.stderr")
    client.refused.update(refused)
    workspace: Dict[str, Any] = {"workspaceEdit": {"documentChanges": True}}
    if client_watches:
        workspace["didChangeWatchedFiles"] = {"dynamicRegistration": True}
    try:
        result = client.request("initialize", {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "workspace": workspace,
                "textDocument": {
                    "publishDiagnostics": {"versionSupport": True},
                    "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {
                        "valueSet": ["quickfix", "source", "source.fixAll"]}}},
                },
            },
            "initializationOptions": options,
            "workspaceFolders": [{"uri": root.as_uri(), "name": "bug"}],
        })
        capabilities = result["capabilities"]
        assert capabilities["codeActionProvider"]["codeActionKinds"] == ["quickfix", "source.fixAll.archsync"], result
        assert capabilities.get("positionEncoding", "utf-16") == "utf-16", result
        assert result["serverInfo"]["name"] == "archsync", result
        client.notify("initialized", {})
    except BaseException:
        client.close()
        raise
    return Session(client, root)


@pytest.fixture
def session(tmp_path):
    started = start(tmp_path, {"debounce": 0.05})
    try:
        yield started
    finally:
        started.client.close()


def shut_down(session: Session) -> None:
    client = session.client
    assert client.request("shutdown", None) is None
    client.notify("exit", None)
    assert client.proc.wait(timeout=30) == 0, client.stderr()
    assert "Traceback" not in client.stderr(), client.stderr()


@pytest.mark.e2e
def test_open_fix_and_unsaved_edits(session):
    on_disk = {rel: (session.root / rel).read_bytes() for rel in (OVERRIDES, MODEL_CONFIG, QWEN3_NEXT)}

    # Open the seed bug's overrides.py: the four ARC101 findings, each spanning the collection's name.
    mark = session.open(OVERRIDES)
    found = session.diagnostics(OVERRIDES, mark)
    assert session.text[OVERRIDES].splitlines()[34].startswith("_MAMBA_RADIX_CACHE_ARCHS = frozenset(")
    assert session.text[OVERRIDES].splitlines()[47].startswith("_MAMBA_EXTRA_BUFFER_ARCHS = frozenset(")
    assert found == SEED_FINDINGS  # written out below, before the tests that start from them

    # Ask for the quick fix of the first one: this place, or the four places of its cause (one finding for
    # `archsync check`); the second makes every edit the command line's `fix` makes.
    actions = session.code_actions(OVERRIDES, found[0], ["quickfix"])
    assert [(a["title"], a["kind"], a["diagnostics"]) for a in actions] == [
        ("Add 'Qwen3_5ForCausalLM' to _MAMBA_RADIX_CACHE_ARCHS", "quickfix", [found[0]]),
        ("Fix the 4 places of this cause", "quickfix", found)]
    cause = edits_for(actions[1]["edit"], session.uri(OVERRIDES), session.version[OVERRIDES])
    assert apply_edits(session.text[OVERRIDES], cause) == session.text[OVERRIDES].replace(
        '        "Qwen3_5ForConditionalGeneration",\n        "Qwen3_5MoeForConditionalGeneration",\n',
        '        "Qwen3_5ForConditionalGeneration",\n        "Qwen3_5ForCausalLM",\n'
        '        "Qwen3_5MoeForConditionalGeneration",\n        "Qwen3_5MoeForCausalLM",\n')
    before = session.text[OVERRIDES]
    mark = session.apply(OVERRIDES, actions[0])
    assert session.text[OVERRIDES] == before.replace(
        '        "Qwen3_5ForConditionalGeneration",\n',
        '        "Qwen3_5ForConditionalGeneration",\n        "Qwen3_5ForCausalLM",\n', 1)
    assert session.diagnostics(OVERRIDES, mark) == [  # one line more above the second whitelist
        {"range": span(34, 0, 24), "severity": 1, "code": "ARC101", "source": "archsync",
         "data": {"subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
         "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_RADIX_CACHE_ARCHS"},
        {"range": span(48, 0, 25), "severity": 1, "code": "ARC101", "source": "archsync",
         "data": {"subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5ForCausalLM"},
         "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_EXTRA_BUFFER_ARCHS"},
        {"range": span(48, 0, 25), "severity": 1, "code": "ARC101", "source": "archsync",
         "data": {"subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
         "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                    "but missing from _MAMBA_EXTRA_BUFFER_ARCHS"},
    ]

    # "Fix all" in one edit: nothing left in the file.
    (fix_all,) = session.code_actions(OVERRIDES, None, ["source.fixAll"])
    assert fix_all["kind"] == "source.fixAll.archsync" and len(fix_all["diagnostics"]) == 3, fix_all
    mark = session.apply(OVERRIDES, fix_all)
    assert session.diagnostics(OVERRIDES, mark) == []
    assert session.text[OVERRIDES].splitlines()[49].startswith("_MAMBA_EXTRA_BUFFER_ARCHS = frozenset(")

    # An unsaved edit in another buffer speaks at once, in that buffer ...
    mark = session.open(MODEL_CONFIG)
    assert session.settle(mark) == {OVERRIDES: [], MODEL_CONFIG: []}
    old = 'return _hf_arch(config) in ("Qwen3NextForCausalLM",)'
    new = 'return _hf_arch(config) in ("Qwen3NextForCausalLM", "MtpQwen3NextForCausalLM")'
    assert session.text[MODEL_CONFIG].splitlines()[14] == "    " + old
    mark = session.change(MODEL_CONFIG, session.text[MODEL_CONFIG].replace(old, new))
    assert session.settle(mark) == {OVERRIDES: [], MODEL_CONFIG: [{
        "range": span(14, 56, 81), "severity": 1, "code": "ARC201", "source": "archsync",
        "data": {"subject": "is_qwen3_next", "member": "MtpQwen3NextForCausalLM"},
        "message": "'MtpQwen3NextForCausalLM' in is_qwen3_next() is not a registered architecture",
    }]}
    # ... and registering the new variant in a third unsaved buffer breaks both whitelists
    # in the first one: every open buffer stands in for its file.
    mark = session.open(QWEN3_NEXT)
    assert session.settle(mark)[QWEN3_NEXT] == []
    registered = session.text[QWEN3_NEXT].replace(
        "EntryClass = Qwen3NextForCausalLM",
        "class MtpQwen3NextForCausalLM(Qwen3NextForCausalLM):\n    pass\n\n\n"
        "EntryClass = [Qwen3NextForCausalLM, MtpQwen3NextForCausalLM]")
    assert registered != session.text[QWEN3_NEXT]
    mark = session.change(QWEN3_NEXT, registered)
    assert session.settle(mark) == {
        OVERRIDES: [
            {"range": span(34, 0, 24), "severity": 1, "code": "ARC101", "source": "archsync",
             "data": {"subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "MtpQwen3NextForCausalLM"},
             "message": "'MtpQwen3NextForCausalLM' is matched by is_qwen3_next() "
                        "(bug/sglang/srt/configs/model_config.py:14) but missing from _MAMBA_RADIX_CACHE_ARCHS"},
            {"range": span(49, 0, 25), "severity": 1, "code": "ARC101", "source": "archsync",
             "data": {"subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "MtpQwen3NextForCausalLM"},
             "message": "'MtpQwen3NextForCausalLM' is matched by is_qwen3_next() "
                        "(bug/sglang/srt/configs/model_config.py:14) but missing from _MAMBA_EXTRA_BUFFER_ARCHS"},
        ],
        MODEL_CONFIG: [],
        QWEN3_NEXT: [],
    }

    # Closing the buffer that registers it: cleared there, and the file on disk counts again.
    mark = session.client.notify("textDocument/didClose", {"textDocument": {"uri": session.uri(QWEN3_NEXT)}})
    assert session.client.diagnostics(session.uri(QWEN3_NEXT), mark) == []
    del session.version[QWEN3_NEXT]
    after_close = session.settle(mark)
    assert after_close == {OVERRIDES: [], MODEL_CONFIG: [{
        "range": span(14, 56, 81), "severity": 1, "code": "ARC201", "source": "archsync",
        "data": {"subject": "is_qwen3_next", "member": "MtpQwen3NextForCausalLM"},
        "message": "'MtpQwen3NextForCausalLM' in is_qwen3_next() is not a registered architecture",
    }]}

    # Nothing was ever written to disk.
    assert {rel: (session.root / rel).read_bytes() for rel in on_disk} == on_disk
    shut_down(session)


@pytest.mark.e2e
def test_positions_are_utf16_code_units(session):
    """A line with a character outside the BMP: LSP columns count it as two UTF-16 units."""
    mark = session.open(OVERRIDES)
    session.diagnostics(OVERRIDES, mark)
    old = '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM"})'
    new = '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM", "\U0001F642", "DeepseekV32ForCausalLM"})'
    assert session.text[OVERRIDES].splitlines()[59] == old  # line 60
    mark = session.change(OVERRIDES, session.text[OVERRIDES].replace(old, new))
    duplicate = [d for d in session.diagnostics(OVERRIDES, mark) if d["code"] == "ARC301"]
    # The second "DeepseekV32ForCausalLM" starts at code point 66 of the line: UTF-16 unit 67.
    assert new.index('"DeepseekV32ForCausalLM"})') == 66
    assert duplicate == [{
        "range": span(59, 67, 91), "severity": 2, "code": "ARC301", "source": "archsync",
        "data": {"subject": "_NSA_PREFILL_CP_ARCHS", "member": "DeepseekV32ForCausalLM"},
        "message": "'DeepseekV32ForCausalLM' is listed twice in _NSA_PREFILL_CP_ARCHS (first at line 60)",
    }]
    (action,) = session.code_actions(OVERRIDES, duplicate[0], ["quickfix"])
    assert action["title"] == "Remove the duplicate 'DeepseekV32ForCausalLM' from _NSA_PREFILL_CP_ARCHS"
    (edit,) = edits_for(action["edit"], session.uri(OVERRIDES), session.version[OVERRIDES])
    assert edit == {"range": span(59, 65, 91), "newText": ""}, edit
    mark = session.apply(OVERRIDES, action)
    assert session.text[OVERRIDES].splitlines()[59] == \
        '_NSA_PREFILL_CP_ARCHS = frozenset({"DeepseekV32ForCausalLM", "\U0001F642"})'
    assert not [d for d in session.diagnostics(OVERRIDES, mark) if d["code"] == "ARC301"]
    shut_down(session)


@pytest.mark.e2e
def test_a_configuration_error_is_shown_once_and_never_stops_the_server(session):
    mark = session.open(OVERRIDES)
    assert len(session.diagnostics(OVERRIDES, mark)) == 4
    pyproject = session.root / "pyproject.toml"
    good = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(good + "\n[tool.archsync]\nbogus = 1\n", encoding="utf-8")
    saved = {"textDocument": {"uri": session.uri(OVERRIDES)}}
    mark = session.client.notify("textDocument/didSave", saved)
    shown = session.client.wait(lambda m: m.get("method") == "window/showMessage", "a showMessage", mark)
    assert shown["params"]["type"] == 1, shown  # Error
    assert shown["params"]["message"].startswith("archsync: "), shown
    assert "tool.archsync.bogus: unknown key" in shown["params"]["message"], shown
    session.client.notify("textDocument/didSave", saved)
    session.client.notify("textDocument/didSave", saved)

    # Repaired: diagnostics flow again, and the error was shown only once.
    pyproject.write_text(good, encoding="utf-8")
    mark2 = session.client.notify("textDocument/didSave", saved)
    assert len(session.diagnostics(OVERRIDES, mark2)) == 4
    messages = [m for m in session.client.seen[mark:] if m.get("method") == "window/showMessage"]
    assert len(messages) == 1, messages
    published = [m for m in session.client.seen[mark:mark2] if m.get("method") == "textDocument/publishDiagnostics"]
    assert published == [], published  # nothing new while the configuration was broken
    shut_down(session)


@pytest.mark.e2e
def test_files_outside_python_or_outside_a_project_are_left_alone(session, tmp_path):
    loose = tmp_path / "elsewhere" / "notes.txt"
    loose.parent.mkdir()
    loose.write_text("Qwen3_5ForCausalLM\n", encoding="utf-8")
    mark = session.client.notify("textDocument/didOpen", {"textDocument": {
        "uri": loose.as_uri(), "languageId": "plaintext", "version": 1, "text": loose.read_text()}})
    mark2 = session.open(OVERRIDES)
    assert len(session.diagnostics(OVERRIDES, mark2)) == 4
    assert not [m for m in session.client.seen[mark:] if m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == loose.as_uri()]
    shut_down(session)


@pytest.mark.e2e
def test_without_pygls_the_command_says_what_to_install(tmp_path):
    """`archsync lsp` with pygls hidden: a clear error and exit 2, no traceback."""
    shadow = tmp_path / "shadow"
    (shadow / "pygls").mkdir(parents=True)
    (shadow / "pygls" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'pygls'\", name='pygls')\n")
    env = dict(os.environ, PYTHONPATH=str(shadow))
    proc = subprocess.run([str(ARCHSYNC), "lsp"], cwd=str(tmp_path), env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2, proc
    assert "pip install 'flake8-archsync[lsp]'" in proc.stderr, proc
    assert "Traceback" not in proc.stderr, proc


def test_position_conversion():
    """Engine (1-based line, code point column) -> LSP (0-based line, UTF-16 units), LSP line breaks only."""
    from lsprotocol.types import Position, Range

    from lint_plugin.frontends.lsp import Positions

    text = "a = 1\r\nb = '\U0001F642', \"X\"\rc\x0cd = 2\n"
    positions = Positions(text)
    assert positions.lines == ["a = 1", "b = '\U0001F642', \"X\"", "c\x0cd = 2", ""]  # \x0c is no line break
    assert positions.at(2, 10) == Position(line=1, character=10)  # 9 code points before it, one astral
    assert positions.token_range(2, 10) == Range(start=Position(line=1, character=10),
                                                 end=Position(line=1, character=13))  # the string "X"
    assert positions.token_range(3, 3) == Range(start=Position(line=2, character=2),
                                                end=Position(line=2, character=3))  # the name d
    assert positions.at(99, 1) == Position(line=3, character=0)  # clamped to the end of the text
    assert positions.at(1, 99) == Position(line=0, character=5)  # clamped to the end of the line
    # The engine does not count a byte-order mark; the editor's first line holds it.
    with_bom = Positions("\ufeffX = 'A'\n")
    assert with_bom.token_range(1, 5) == Range(start=Position(line=0, character=5), end=Position(line=0, character=8))


def test_an_engine_crash_is_logged_and_publishes_nothing(monkeypatch):
    """Whatever the engine raises, the server logs it and keeps what it last published."""
    import asyncio

    from lsprotocol.types import MessageType

    from lint_plugin.frontends import lsp

    server = lsp.ArchsyncLanguageServer()
    sent = []
    monkeypatch.setattr(server, "open_buffers", lambda root: [lsp.OpenBuffer("file:///p/a.py", "a.py", 1, "x = 1\n")])
    monkeypatch.setattr(server, "window_log_message", lambda p: sent.append(("log", p.type, p.message)))
    monkeypatch.setattr(server, "window_show_message", lambda p: sent.append(("show", p.type, p.message)))
    monkeypatch.setattr(server, "text_document_publish_diagnostics", lambda p: sent.append(("publish", p)))

    def crash(*args):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(lsp.checking, "_run_engine", crash)
    try:
        asyncio.run(server.check(Path("/p"), 0))
        asyncio.run(server.check(Path("/p"), 0))
    finally:
        server.stop()
    assert sent == [("log", MessageType.Error, "archsync: checking /p failed: RuntimeError('engine bug')")] * 2


@pytest.mark.e2e
def test_hostile_documents_never_stop_diagnostics_for_the_others(session):
    """A URI with `%00`, a buffer with a lone surrogate: the server answers for every other file."""
    client = session.client
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": session.uri("sglang/srt/evil") + "%00.py", "languageId": "python", "version": 1, "text": "x = 1\n"}})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": session.uri("sglang/srt/lone.py"), "languageId": "python", "version": 1,
        "text": '_L_ARCHS = {"Qwen3_5ForConditionalGeneration", "\ud800"}\n'}})
    after = session.open(OVERRIDES)
    found = session.diagnostics(OVERRIDES, after)
    assert [d["code"] for d in found] == ["ARC101"] * 4, found
    shut_down(session)


@pytest.mark.e2e
def test_an_absurd_content_length_is_ignored_and_the_session_goes_on(session):
    client = session.client
    client.proc.stdin.write(b"Content-Length: 99999999999999999999\r\n\r\n\r\n")
    client.proc.stdin.flush()
    after = session.open(OVERRIDES)
    assert [d["code"] for d in session.diagnostics(OVERRIDES, after)] == ["ARC101"] * 4
    shut_down(session)


@pytest.mark.e2e
def test_a_quick_fix_in_a_latin1_file_lands_where_the_editor_shows_the_name(session):
    rel = "sglang/srt/arg_groups/legacy.py"
    (session.root / rel).write_bytes('# -*- coding: latin-1 -*-\n# Réglages hérités\n'
                                     '_LEGACY_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})  # é\n'
                                     .encode("latin-1"))
    session.text[rel] = (session.root / rel).read_text(encoding="latin-1")  # as the editor decodes it
    session.version[rel] = 1
    mark = session.client.notify("textDocument/didOpen", {"textDocument": {
        "uri": session.uri(rel), "languageId": "python", "version": 1, "text": session.text[rel]}})
    found = session.diagnostics(rel, mark)
    assert [d["message"].split(" is ")[0] for d in found] == [
        "'Qwen3_5ForCausalLM'", "'Qwen3_5MoeForCausalLM'", "'Qwen3_5MoeForConditionalGeneration'"]
    assert found[0]["range"] == span(2, 0, 13)
    actions = session.code_actions(rel, found[0], ["quickfix"])
    session.apply(rel, actions[0])
    assert session.text[rel].splitlines()[2] == \
        '_LEGACY_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})  # é'
    shut_down(session)


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads memory from /proc")
# Known on 3.9 (docs/editors.md): the server's RSS grows about 2 MB per 1,000 edits there, in no Python object
# tracemalloc sees and not given back by malloc_trim, and as much with the engine stubbed out; the same edits
# through `Session` in one process, on a worker thread, level off at about 1.2 MB. 3.10 to 3.13 level off.
@pytest.mark.skipif(sys.version_info < (3, 10), reason="the server grows on 3.9 (see the comment)")
@pytest.mark.e2e
def test_memory_has_a_plateau_over_many_edits(tmp_path):
    """An edit used to keep about 5 KB for good (47 -> 68 MB over 8,000 edits): 5 MB a thousand edits. Now
    the process grows about 1.3 MB over its first thousand or so edits (the allocator finding its size),
    then no more: 2 MB still tells a leak of the old kind from that."""
    root = copy_tree(SOURCE_FIXTURES / "sglang_qwen3_5" / "bug", tmp_path / "bug").resolve()
    client = Client(tmp_path, tmp_path / "server.stderr")
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {},
                                      "initializationOptions": {"debounce": 0}})
        client.notify("initialized", {})
        uri, text = (root / OVERRIDES).as_uri(), (root / OVERRIDES).read_text(encoding="utf-8")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                "text": text}})

        def edit(version: int) -> None:
            mark = client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                            "contentChanges": [{"text": f"{text}# {version}\n"}]})
            client.diagnostics(uri, mark, version)
            client.seen.clear()

        for version in range(2, 302):
            edit(version)
        warm = _rss_kb(client.proc.pid)
        for version in range(302, 1302):
            edit(version)
        grown = _rss_kb(client.proc.pid) - warm
        assert grown < 2048, f"{grown} KB more after 1,000 edits"
    finally:
        client.close()


@pytest.mark.e2e
def test_a_session_under_malformed_framing_and_hostile_messages_goes_on(session):
    """Fuzzed frames (seeded): bad headers, bodies that are not JSON or not JSON-RPC, wrong parameter types,
    hostile URIs. Each ends at a frame boundary; after all of them the server still answers."""
    rng = random.Random(int(os.environ.get("ARCHSYNC_FUZZ_SEED", "19")))
    bodies = [b"{", b"null", b"[]", b'{"jsonrpc": "2.0"}', b'{"jsonrpc": "2.0", "method": 7}',
              b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 5}}',
              b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": null}',
              b'{"jsonrpc": "2.0", "id": "x", "method": "textDocument/codeAction", "params": {}}',
              b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///%00'
              b'/a.py", "languageId": "python", "version": 1, "text": "x"}}}',
              b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:'
              b'///\\ud800.py", "languageId": "python", "version": 1, "text": "\\ud800"}}}',
              bytes(rng.randrange(256) for _ in range(64))]
    stream = session.client.proc.stdin
    for _ in range(int(os.environ.get("ARCHSYNC_LSP_FUZZ", "60"))):
        body = rng.choice(bodies)
        header = rng.choice([b"Content-Length: %d\r\n\r\n" % len(body), b"Content-Length: -1\r\n\r\n",
                             b"Content-Length: 99999999999999999999\r\n\r\n", b"Content-Type: x\r\n\r\n",
                             b"Content-Length: %d\r\nContent-Type: bogus\r\n\r\n" % len(body)])
        stream.write(header + (body if header.startswith(b"Content-Length: %d" % len(body)) else b"") + b"\r\n")
    stream.flush()
    after = session.open(OVERRIDES)
    assert [d["code"] for d in session.diagnostics(OVERRIDES, after)] == ["ARC101"] * 4
    shut_down(session)


@pytest.mark.e2e
def test_a_new_buffer_not_yet_saved_gets_its_diagnostics(session):
    rel = "sglang/srt/arg_groups/brand_new.py"
    assert not (session.root / rel).exists()
    session.text[rel] = ('_NEW_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", '
                         '"Qwen3_5MoeForConditionalGeneration"})\n')
    session.version[rel] = 1
    mark = session.client.notify("textDocument/didOpen", {"textDocument": {
        "uri": session.uri(rel), "languageId": "python", "version": 1, "text": session.text[rel]}})
    assert [d["message"].split(" is ")[0] for d in session.diagnostics(rel, mark)] == [
        "'Qwen3_5ForCausalLM'", "'Qwen3_5MoeForCausalLM'"]
    shut_down(session)


# -- files changed on disk, and code actions while a check is pending -----------------------------

QWEN3_5_TEXT = "sglang/srt/models/qwen3_5_text.py"
REGISTERED = "EntryClass = [Qwen3_5MoeForCausalLM, Qwen3_5ForCausalLM]"

# The seed bug's four findings in overrides.py, as published for the file as it is on disk.
SEED_FINDINGS = [
    {"range": span(34, 0, 24), "severity": 1, "code": "ARC101", "source": "archsync",
     "data": {"subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5ForCausalLM"},
     "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                "but missing from _MAMBA_RADIX_CACHE_ARCHS"},
    {"range": span(34, 0, 24), "severity": 1, "code": "ARC101", "source": "archsync",
     "data": {"subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
     "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                "but missing from _MAMBA_RADIX_CACHE_ARCHS"},
    {"range": span(47, 0, 25), "severity": 1, "code": "ARC101", "source": "archsync",
     "data": {"subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5ForCausalLM"},
     "message": "'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                "but missing from _MAMBA_EXTRA_BUFFER_ARCHS"},
    {"range": span(47, 0, 25), "severity": 1, "code": "ARC101", "source": "archsync",
     "data": {"subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "Qwen3_5MoeForCausalLM"},
     "message": "'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() (bug/sglang/srt/configs/model_config.py:18) "
                "but missing from _MAMBA_EXTRA_BUFFER_ARCHS"},
]


def log_messages(client: Client, after: int = 0) -> List[Dict[str, Any]]:
    return [m["params"] for m in client.seen[after:] if m.get("method") == "window/logMessage"]


def rechecks(client: Client, after: int = 0) -> List[str]:
    """The server's "re-checking ...: changed on disk: ..." lines, one per check a change on disk started."""
    return [p["message"] for p in log_messages(client, after) if ": changed on disk: " in p["message"]]


def quiet(client: Client, seconds: float) -> None:
    """Read whatever the server sends for `seconds` (to see that nothing more comes)."""
    try:
        client.wait(lambda m: False, "nothing", len(client.seen), timeout=seconds)
    except AssertionError as exc:
        if isinstance(exc, ServerGone):
            raise


def write_on_disk(path: Path, text: str, encoding: str = "utf-8") -> None:
    """As another program saves: a whole new file renamed over the old one, never seen half written."""
    temporary = path.with_name(f".{path.name}.tmp")  # hidden, so no check reads it
    temporary.write_text(text, encoding=encoding)
    os.replace(temporary, path)


def register_mtp_on_disk(root: Path) -> None:
    """A new variant on disk: is_qwen3_next() matches it, qwen3_next.py registers it."""
    model_config = root / MODEL_CONFIG
    old = 'return _hf_arch(config) in ("Qwen3NextForCausalLM",)'
    assert old in model_config.read_text(encoding="utf-8")
    write_on_disk(model_config, model_config.read_text(encoding="utf-8").replace(
        old, 'return _hf_arch(config) in ("Qwen3NextForCausalLM", "MtpQwen3NextForCausalLM")'), encoding="utf-8")
    qwen3_next = root / QWEN3_NEXT
    write_on_disk(qwen3_next, qwen3_next.read_text(encoding="utf-8").replace(
        "EntryClass = Qwen3NextForCausalLM",
        "class MtpQwen3NextForCausalLM(Qwen3NextForCausalLM):\n    pass\n\n\n"
        "EntryClass = [Qwen3NextForCausalLM, MtpQwen3NextForCausalLM]"), encoding="utf-8")


@pytest.mark.e2e
def test_without_the_clients_watcher_the_server_polls_the_files_on_disk(tmp_path):
    session = start(tmp_path, {"debounce": 0.05, "watchInterval": 0.1})
    client, root = session.client, session.root
    try:
        mark = session.open(OVERRIDES)
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS
        assert client.server_requests == []  # no registration asked of a client that cannot watch
        assert log_messages(client)[0] == {
            "type": 3, "message": "archsync: watching files on disk by polling them every 0.1s"}

        # The case: EntryClass emptied in a file no editor has open. In the same moment the
        # open buffer's own file changes on disk: its buffer stands in for it, so it is no cause.
        text_module = root / QWEN3_5_TEXT
        registered = text_module.read_text(encoding="utf-8")
        assert REGISTERED in registered
        mark = len(client.seen)
        write_on_disk(root / OVERRIDES, session.text[OVERRIDES] + "# saved by another program\n")
        write_on_disk(text_module, registered.replace(REGISTERED, "EntryClass = []"), encoding="utf-8")
        assert session.diagnostics(OVERRIDES, mark) == []

        mark = len(client.seen)
        write_on_disk(text_module, registered, encoding="utf-8")
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS
        mark = len(client.seen)
        text_module.unlink()  # deleted: its names are registered nowhere
        assert session.diagnostics(OVERRIDES, mark) == []
        mark = len(client.seen)
        write_on_disk(text_module, registered, encoding="utf-8")  # created
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS

        # pyproject.toml is watched too: a new exclude, a broken table, the repair.
        pyproject = root / "pyproject.toml"
        original = pyproject.read_text(encoding="utf-8")
        mark = len(client.seen)
        write_on_disk(pyproject, original + f'\n[tool.archsync]\nexclude = ["{QWEN3_5_TEXT}"]\n', encoding="utf-8")
        assert session.diagnostics(OVERRIDES, mark) == []
        mark = len(client.seen)
        write_on_disk(pyproject, original + "\n[tool.archsync]\nbogus = 1\n", encoding="utf-8")
        shown = client.wait(lambda m: m.get("method") == "window/showMessage", "a showMessage", mark)
        assert "tool.archsync.bogus: unknown key" in shown["params"]["message"], shown
        mark = len(client.seen)
        write_on_disk(pyproject, original, encoding="utf-8")
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS

        quiet(client, 0.5)  # five polls more: nothing else is re-checked
        assert rechecks(client) == [f"archsync: re-checking {root}: changed on disk: {QWEN3_5_TEXT}"] * 4 + [
            f"archsync: re-checking {root}: changed on disk: pyproject.toml"] * 3
        shut_down(session)
    finally:
        client.close()


@pytest.mark.e2e
def test_the_clients_watcher_is_registered_and_its_events_recheck_once_per_burst(tmp_path):
    """With a 2s interval the safety-net poll runs every 10s: within this test only the client reports."""
    session = start(tmp_path, {"debounce": 0.5, "watchInterval": 2}, client_watches=True)
    client, root = session.client, session.root
    try:
        mark = session.open(OVERRIDES)
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS
        registration = client.wait(lambda m: m.get("method") == "client/registerCapability", "a registration")
        assert registration["params"] == {"registrations": [{
            "id": "archsync-watched-files", "method": "workspace/didChangeWatchedFiles",
            "registerOptions": {"watchers": [{"globPattern": "**/*.py"}, {"globPattern": "**/pyproject.toml"}]}}]}
        client.wait(lambda m: m.get("method") == "window/logMessage", "how the server watches")
        assert log_messages(client) == [{"type": 3, "message": "archsync: watching files on disk through the client "
                                                               "(**/*.py, **/pyproject.toml), polling them every 10s "
                                                               "for what it misses"}]

        # The client reports a burst, 0.1s apart (within the 0.5s debounce): one check. A file no check
        # reads (under build/), one outside the project and the open buffer's own file are no cause.
        register_mtp_on_disk(root)
        (root / "build").mkdir()
        write_on_disk(root / "build" / "generated.py", "X = 1\n")
        events = [(MODEL_CONFIG, 2), ("build/generated.py", 1), (QWEN3_NEXT, 2), (OVERRIDES, 2), ("../elsewhere.py", 1)]
        mark = len(client.seen)
        for rel, kind in events:
            client.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": (root / rel).resolve().as_uri(), "type": kind}]})
            time.sleep(0.1)
        assert session.diagnostics(OVERRIDES, mark) == [
            {"range": span(34, 0, 24), "severity": 1, "code": "ARC101", "source": "archsync",
             "data": {"subject": "_MAMBA_RADIX_CACHE_ARCHS", "member": "MtpQwen3NextForCausalLM"},
             "message": "'MtpQwen3NextForCausalLM' is matched by is_qwen3_next() "
                        "(bug/sglang/srt/configs/model_config.py:14) but missing from _MAMBA_RADIX_CACHE_ARCHS"},
            *SEED_FINDINGS[:2],
            {"range": span(47, 0, 25), "severity": 1, "code": "ARC101", "source": "archsync",
             "data": {"subject": "_MAMBA_EXTRA_BUFFER_ARCHS", "member": "MtpQwen3NextForCausalLM"},
             "message": "'MtpQwen3NextForCausalLM' is matched by is_qwen3_next() "
                        "(bug/sglang/srt/configs/model_config.py:14) but missing from _MAMBA_EXTRA_BUFFER_ARCHS"},
            *SEED_FINDINGS[2:],
        ]
        # The same change reported again (a client's duplicate) is no change.
        client.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": (root / MODEL_CONFIG).as_uri(), "type": 2}]})
        quiet(client, 1.5)
        assert rechecks(client, mark) == [
            f"archsync: re-checking {root}: changed on disk: {MODEL_CONFIG}, {QWEN3_NEXT}"]
        published = [m for m in client.seen[mark:] if m.get("method") == "textDocument/publishDiagnostics"]
        assert len(published) == 1, published

        # pyproject.toml: the names qwen3_5_text.py registers are no longer the project's.
        pyproject = root / "pyproject.toml"
        excluded = f'\n[tool.archsync]\nexclude = ["{QWEN3_5_TEXT}"]\n'
        write_on_disk(pyproject, pyproject.read_text(encoding="utf-8") + excluded, encoding="utf-8")
        mark = client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": pyproject.as_uri(), "type": 2}]})
        assert [d["message"].split(" is ")[0] for d in session.diagnostics(OVERRIDES, mark)] == [
            "'MtpQwen3NextForCausalLM'", "'MtpQwen3NextForCausalLM'"]
        shut_down(session)
    finally:
        client.close()


@pytest.mark.e2e
def test_the_poll_catches_what_the_clients_watcher_misses_and_checks_it_once(tmp_path):
    """A client that registers the watcher and never reports a change (as Neovim's own backend on
    Linux does for files below the project's top folder): the safety-net poll, every 0.5s here."""
    session = start(tmp_path, {"debounce": 0.05, "watchInterval": 0.1}, client_watches=True)
    client, root = session.client, session.root
    try:
        mark = session.open(OVERRIDES)
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS
        client.wait(lambda m: m.get("method") == "window/logMessage", "how the server watches")
        text_module = root / QWEN3_5_TEXT
        mark = len(client.seen)
        write_on_disk(text_module, text_module.read_text(encoding="utf-8").replace(REGISTERED, "EntryClass = []"),
                               encoding="utf-8")
        assert session.diagnostics(OVERRIDES, mark) == []
        # The client's report, late: the poll saw it first, so it starts no second check.
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": text_module.as_uri(), "type": 2}]})
        quiet(client, 1.0)
        assert rechecks(client, mark) == [f"archsync: re-checking {root}: changed on disk: {QWEN3_5_TEXT}"]
        assert len([m for m in client.seen[mark:] if m.get("method") == "textDocument/publishDiagnostics"]) == 1
        shut_down(session)
    finally:
        client.close()


@pytest.mark.e2e
def test_a_refused_watcher_registration_falls_back_to_polling(tmp_path):
    session = start(tmp_path, {"debounce": 0.05, "watchInterval": 0.1}, client_watches=True,
                    refused={"client/registerCapability"})
    client, root = session.client, session.root
    try:
        mark = session.open(OVERRIDES)
        assert session.diagnostics(OVERRIDES, mark) == SEED_FINDINGS
        client.wait(lambda m: m.get("method") == "window/logMessage" and "polling them" in m["params"]["message"],
                    "the server polling")
        refused, polling = log_messages(client)
        assert refused["type"] == 2 and refused["message"].startswith(
            "archsync: the client did not register the file watcher (") and refused["message"].endswith(
            "): polling instead"), refused
        assert polling == {"type": 3, "message": "archsync: watching files on disk by polling them every 0.1s"}
        text_module = root / QWEN3_5_TEXT
        mark = len(client.seen)
        write_on_disk(text_module, text_module.read_text(encoding="utf-8").replace(REGISTERED, "EntryClass = []"),
                               encoding="utf-8")
        assert session.diagnostics(OVERRIDES, mark) == []
        shut_down(session)
    finally:
        client.close()


@pytest.mark.e2e
def test_code_actions_while_a_check_is_pending(tmp_path):
    """A 10s debounce keeps every check after an edit pending: code actions must not wait it out, nor
    answer from a result computed for another text."""
    session = start(tmp_path, {"debounce": 10})
    client = session.client
    try:
        mark = session.open(OVERRIDES)
        found = session.diagnostics(OVERRIDES, mark)  # didOpen checks at once
        assert found == SEED_FINDINGS
        quick_fix, _ = session.code_actions(OVERRIDES, found[0], ["quickfix"])  # this place; every place of the cause
        fixed = session.text[OVERRIDES].replace(
            '        "Qwen3_5ForConditionalGeneration",\n',
            '        "Qwen3_5ForConditionalGeneration",\n        "Qwen3_5ForCausalLM",\n', 1)
        mark = session.apply(OVERRIDES, quick_fix)
        assert session.text[OVERRIDES] == fixed and session.version[OVERRIDES] == 2

        # At once "fix all": the check of version 2 is started now (not 10s later) and answered from;
        # the fix just applied is not offered again.
        asked = time.monotonic()
        (fix_all,) = session.code_actions(OVERRIDES, None, ["source.fixAll"])
        assert time.monotonic() - asked < 10
        assert [d["message"].split(" is ")[0] for d in fix_all["diagnostics"]] == [
            "'Qwen3_5MoeForCausalLM'", "'Qwen3_5ForCausalLM'", "'Qwen3_5MoeForCausalLM'"]
        assert session.diagnostics(OVERRIDES, mark) == fix_all["diagnostics"]  # published before the answer
        edits = edits_for(fix_all["edit"], session.uri(OVERRIDES), 2)
        assert apply_edits(fixed, edits).count('"Qwen3_5ForCausalLM"') == 2  # once in each whitelist

        # Typed and undone: version 4 holds the text of version 2, whose result is answered at once
        # (no check is started for it), with the edit made for version 4.
        session.change(OVERRIDES, fixed + "# typing\n")
        mark = session.change(OVERRIDES, fixed)
        (again,) = session.code_actions(OVERRIDES, None, ["source.fixAll"])
        assert again["diagnostics"] == fix_all["diagnostics"]
        assert edits_for(again["edit"], session.uri(OVERRIDES), 4) == edits
        assert [m for m in client.seen[mark:] if m.get("method") == "textDocument/publishDiagnostics"] == []
        shut_down(session)
    finally:
        client.close()


def test_the_poller_logs_an_error_once_and_goes_on(monkeypatch):
    """Whatever stamping the files raises, the poller logs it once while it repeats and polls on."""
    import asyncio

    from lsprotocol.types import MessageType

    from lint_plugin.frontends import lsp

    server = lsp.ArchsyncLanguageServer()
    server.watch_interval = 0.01
    sent = []
    polls = []
    monkeypatch.setattr(server, "relocate", lambda: {Path("/p")})
    monkeypatch.setattr(server, "window_log_message", lambda p: sent.append((p.type, p.message)))

    def failing(root):
        polls.append(root)
        raise OSError("disk gone")

    monkeypatch.setattr(lsp.watching, "stamps", failing)

    async def run() -> None:
        poller = asyncio.get_running_loop().create_task(server.poll())
        while len(polls) < 5:
            await asyncio.sleep(0.01)
        poller.cancel()

    try:
        asyncio.run(run())
    finally:
        server.stop()
    assert sent == [(MessageType.Error, "archsync: watching files on disk failed: OSError('disk gone')")]


# -- every published result is a cold run's -------------------------------------------------------

def cold_check(root: Path, buffers: Dict[str, str], into: Path) -> Dict[str, List[Dict[str, Any]]]:
    """`archsync check --no-cache` of a copy of the tree with every buffer saved, by project-relative path,
    each diagnostic as the server publishes it (positions 0-based; the fixture is ASCII, so a column is a
    UTF-16 offset), without the end of its range: the CLI prints where a diagnostic starts."""
    from lint_plugin.rules import BY_CODE

    copy = copy_tree(root, into / root.name)
    for rel, text in buffers.items():
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / rel).write_text(text, encoding="utf-8")
    # seen from the copy's parent, as the server (run in the project's parent) sees the project
    result = archsync("check", "--no-cache", "--format", "json", root.name, cwd=into)
    assert result.returncode in (0, 1), result
    found: Dict[str, List[Dict[str, Any]]] = {}
    # the editor shows each place of a cause the CLI reports once, with the message of that place alone
    places = [dict(d, message=d["message"].split("; the same for ")[0]) if d.get("related") else d
              for finding in result.json["diagnostics"] for d in (finding, *finding.get("related", ()))]
    for d in sorted(places, key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["message"])):
        rel = os.path.relpath(into / d["path"], result.json["root"])
        found.setdefault(Path(rel).as_posix(), []).append({
            "start": {"line": d["line"] - 1, "character": d["column"] - 1},
            "severity": BY_CODE[d["code"]].level.lsp, "code": d["code"], "source": "archsync",
            "data": {"subject": d["subject"], "member": d["member"]}, "message": d["message"]})
    return found


def as_cli_sees(published: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return [{"start": d["range"]["start"], **{k: v for k, v in d.items() if k != "range"}} for d in published]


@pytest.mark.e2e
def test_every_published_result_equals_a_cold_check_of_the_saved_buffers(tmp_path):
    """Through edits that add and remove names and registrations, change the file a predicate is imported
    from, move lines (there too), edit pyproject.toml, create and delete a file on disk, open an unsaved new file,
    close and save buffers: after each, every open document's diagnostics are exactly those of a fresh
    `archsync check --no-cache` of a copy of the tree with the buffers saved."""
    session = start(tmp_path, {"debounce": 0.05, "watchInterval": 0.1})
    client, root = session.client, session.root
    steps = []

    def agree(mark: int, what: str) -> Dict[str, List[Dict[str, Any]]]:
        published = session.settle(mark)
        cold = cold_check(root, session.text, tmp_path / f"saved-{len(steps)}")
        assert {rel: as_cli_sees(found) for rel, found in published.items()} == {
            rel: cold.get(rel, []) for rel in published}, what
        steps.append(what)
        return published

    def close(rel: str) -> int:
        mark = client.notify("textDocument/didClose", {"textDocument": {"uri": session.uri(rel)}})
        assert client.diagnostics(session.uri(rel), mark) == []
        del session.text[rel], session.version[rel]
        return mark

    try:
        session.open(OVERRIDES)
        session.open(MODEL_CONFIG)
        found = agree(session.open(QWEN3_5_TEXT), "three buffers opened")
        assert len(found[OVERRIDES]) == 4

        text = session.text
        agree(session.change(QWEN3_5_TEXT, text[QWEN3_5_TEXT] + "# a comment\n"), "a comment appended")
        radix = "_MAMBA_RADIX_CACHE_ARCHS = frozenset("
        found = agree(session.change(OVERRIDES, text[OVERRIDES].replace(radix, radix + "  # noqa: ARC101")),
                      "a noqa comment")
        assert len(found[OVERRIDES]) == 2
        next_name = '        "Qwen3NextForCausalLM",\n'
        found = agree(session.change(OVERRIDES, text[OVERRIDES].replace(radix + "  # noqa: ARC101", radix).replace(
            next_name, next_name + '        "Qwen3_5ForCausalLM",\n', 1)), "a name added to a whitelist")
        assert len(found[OVERRIDES]) == 3
        agree(session.change(OVERRIDES, text[OVERRIDES].replace('        "FalconH1ForCausalLM",\n', "")),
              "a name removed from it")
        found = agree(session.change(QWEN3_5_TEXT, text[QWEN3_5_TEXT].replace(
            REGISTERED, "EntryClass = [Qwen3_5ForCausalLM]")), "a registration removed")
        assert any(d["code"] == "ARC201" for d in found[MODEL_CONFIG]), found
        session.change(QWEN3_5_TEXT, text[QWEN3_5_TEXT].replace(
            "EntryClass = [Qwen3_5ForCausalLM]",
            "class Qwen3_5ExtraForCausalLM(Qwen3_5ForCausalLM):\n    pass\n\n\n"
            "EntryClass = [Qwen3_5MoeForCausalLM, Qwen3_5ForCausalLM, Qwen3_5ExtraForCausalLM]"))
        moe = '        "Qwen3_5MoeForCausalLM",\n'
        found = agree(session.change(MODEL_CONFIG, text[MODEL_CONFIG].replace(
            moe, moe + '        "Qwen3_5ExtraForCausalLM",\n')), "a registration added, named by the predicate")
        assert any("'Qwen3_5ExtraForCausalLM' is matched" in d["message"] for d in found[OVERRIDES]), found
        agree(session.change(OVERRIDES, "# moved\n# down\n" + text[OVERRIDES]), "lines moved")
        # the file the predicate is imported from: the results resolved through it move with it, and
        # the session's kept resolution of everything else stands (`resolve/memory_resolutions.py`)
        found = agree(session.change(MODEL_CONFIG, "# moved\n" + text[MODEL_CONFIG]),
                      "lines moved in the file the predicate comes from")
        assert any("model_config.py:19)" in d["message"] for d in found[OVERRIDES]), found

        pyproject = root / "pyproject.toml"
        original = pyproject.read_text(encoding="utf-8")
        mark = len(client.seen)
        write_on_disk(pyproject, original + '\n[tool.archsync]\nignore = ["ARC201"]\n')
        agree(mark, "pyproject.toml: a rule ignored")
        mark = len(client.seen)
        write_on_disk(pyproject, original)
        agree(mark, "pyproject.toml as it was")

        extra = root / "sglang/srt/models/qwen3_5_other.py"
        mark = len(client.seen)
        write_on_disk(extra, "class Qwen3_5OtherForCausalLM:\n    pass\n\n\nEntryClass = Qwen3_5OtherForCausalLM\n")
        agree(mark, "a model file created on disk")
        other = '        "Qwen3_5OtherForCausalLM",\n'
        found = agree(session.change(MODEL_CONFIG, text[MODEL_CONFIG].replace(moe, moe + other)),
                      "its name in the predicate")
        assert any("'Qwen3_5OtherForCausalLM' is matched" in d["message"] for d in found[OVERRIDES]), found
        mark = len(client.seen)
        extra.unlink()
        found = agree(mark, "the file deleted on disk")
        assert not any("'Qwen3_5OtherForCausalLM' is matched" in d["message"] for d in found[OVERRIDES]), found

        unsaved = "sglang/srt/arg_groups/brand_new.py"
        session.text[unsaved] = '_NEW_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n'
        session.version[unsaved] = 1
        found = agree(client.notify("textDocument/didOpen", {"textDocument": {
            "uri": session.uri(unsaved), "languageId": "python", "version": 1, "text": session.text[unsaved]}}),
            "an unsaved new file")
        assert found[unsaved], found
        agree(close(unsaved), "the unsaved file closed")
        agree(close(QWEN3_5_TEXT), "a buffer closed with unsaved changes: its file stands in again")
        mark = len(client.seen)
        on_disk = (root / QWEN3_5_TEXT).read_text(encoding="utf-8")
        write_on_disk(root / QWEN3_5_TEXT, on_disk.replace(REGISTERED, "EntryClass = [Qwen3_5MoeForCausalLM]"))
        found = agree(mark, "that file changed on disk")
        assert any(d["code"] == "ARC201" and "'Qwen3_5ForCausalLM'" in d["message"] for d in found[MODEL_CONFIG]), found

        write_on_disk(root / OVERRIDES, text[OVERRIDES])
        agree(client.notify("textDocument/didSave", {"textDocument": {"uri": session.uri(OVERRIDES)}}),
              "a buffer saved")
        assert len(steps) == 19, steps
        shut_down(session)
    finally:
        client.close()


@pytest.mark.e2e
def test_an_edit_that_moves_a_class_publishes_its_new_line(tmp_path):
    """ARC105's messages name where a class is written; the server keeps ARC105's findings, the kinship and
    the files it chose between checks. An unsaved edit that moves the model file's lines publishes the new
    line, exactly as a cold check of the saved buffers prints it, each time the lines move again."""
    session = start(tmp_path, {"debounce": 0}, source=SOURCE_FIXTURES / "kinship" / "moved_lines")
    client = session.client
    llama, rope = "srv/models/llama.py", "srv/layers/rope.py"
    message = "ARC105 'MistralForCausalLM' may belong in SCALED_ROPE_ARCHS: it runs the code of " \
              "'LlamaForCausalLM' (`class MistralForCausalLM(LlamaForCausalLM)` defines no method, at " \
              "bug/srv/models/llama.py:{}) (confidence 0.85)"
    try:
        session.open(rope)
        found = session.settle(session.open(llama))
        assert [f"{d['code']} {d['message']}" for d in found[rope]] == [message.format(20)]
        text = session.text[llama]
        for lines in (2, 5, 1):
            found = session.settle(session.change(llama, "# moved\n" * lines + text))
            assert [(d["range"]["start"], f"{d['code']} {d['message']}") for d in found[rope]] == [
                ({"line": 2, "character": 0}, message.format(20 + lines))]
            cold = cold_check(session.root, session.text, tmp_path / f"saved-{lines}")
            assert {rel: as_cli_sees(published) for rel, published in found.items()} == {
                rel: cold.get(rel, []) for rel in found}
        shut_down(session)
    finally:
        client.close()


def test_the_cyclic_collector_waits_while_checks_follow_one_another(monkeypatch):
    """Held from the first check of a burst until COLLECT_AFTER seconds after the last one ends."""
    import asyncio
    import gc

    from lint_plugin.frontends import lsp

    monkeypatch.setattr(lsp.checking, "COLLECT_AFTER", 0.05)
    server = lsp.ArchsyncLanguageServer()
    seen = []

    async def burst() -> None:
        for _ in range(3):
            server._busy()
            seen.append(gc.isenabled())
            await asyncio.sleep(0.01)
            server._idle()
            seen.append(gc.isenabled())  # the next check may come at once: still held
        await asyncio.sleep(0.2)
        seen.append(gc.isenabled())

    assert gc.isenabled()
    try:
        asyncio.run(burst())
    finally:
        server.stop()
    assert seen == [False] * 6 + [True]
    assert gc.isenabled()
