"""Editor latency: an edit in one open buffer -> fresh diagnostics, through a real JSON-RPC session.

Starts `archsync lsp` on stdio, initializes it with `debounce: 0` (the server's pause for typing
is a setting, not its speed), opens one file, waits for its first diagnostics, then sends
`didChange` (version N) and times until `publishDiagnostics` for that document and version
arrives; `rounds` times. The edit is one of:

- `append`: a comment line appended. The file's record (byte signals, facts) is as it was, so
  the server reports the last run's findings again (only the report stage runs);
- `prepend`: comment lines put first (round i: i + 1 of them, so each round moves the lines
  again). Every fact of the file moves: the server runs the whole analysis, from what it kept.

The server process is the one timed: nothing else runs meanwhile. Beside the wall time, the
CPU time the server spent on each round (all its threads, from `/proc`; None where there is no
`/proc`). Used by `bench/run.py` (scenarios `lsp` and `lsp-moved`); also runnable alone:

    python -m bench.lsp --tree /path/to/project --file pkg/models/x.py --rounds 5 --edit prepend
"""
from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

EDIT = "\n# archsync-bench lsp edit {}\n"
EDITS = ("append", "prepend")


def edited(text: str, edit: str, round_: int) -> str:
    """The buffer's text in round `round_` of an `edit` (see the module's docstring)."""
    if edit == "append":
        return text + EDIT.format(round_)
    return "# archsync-bench lsp edit\n" * (round_ + 1) + text


def cpu_seconds(pid: int) -> Optional[float]:
    """CPU time a process has run so far, all its threads (Linux: each thread's schedstat, in ns)."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="ascii") as handle:
                    total += int(handle.read().split()[0])
            except (OSError, ValueError, IndexError):
                continue  # a thread that just ended
    except OSError:
        return None
    return total / 1e9


class Session:
    """A minimal LSP client over the server's stdin/stdout (Content-Length framing)."""

    def __init__(self, command: Sequence[str], cwd: Path, env: Optional[Dict[str, str]] = None) -> None:
        self.proc = subprocess.Popen(list(command), cwd=str(cwd), env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.next_id = 1

    def send(self, method: str, params: Any, request: bool = False) -> Optional[int]:
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        ident = None
        if request:
            ident = message["id"] = self.next_id
            self.next_id += 1
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return ident

    def receive(self, deadline: float) -> Optional[Dict[str, Any]]:
        """The next message, or None at the deadline."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            header_end = self.buffer.find(b"\r\n\r\n")
            if header_end != -1:
                headers = self.buffer[:header_end].decode("ascii", "replace").split("\r\n")
                length = next(int(h.split(":", 1)[1]) for h in headers if h.lower().startswith("content-length"))
                start = header_end + 4
                if len(self.buffer) >= start + length:
                    body, self.buffer = self.buffer[start:start + length], self.buffer[start + length:]
                    message: Dict[str, Any] = json.loads(body)
                    return message
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise RuntimeError("the language server closed its output")
                self.buffer += chunk

    def wait_for(self, predicate, timeout: float) -> Dict[str, Any]:
        deadline = time.perf_counter() + timeout
        while True:
            message = self.receive(deadline)
            if message is None:
                raise TimeoutError(f"no matching message within {timeout} s")
            if predicate(message):
                return message

    def close(self) -> None:
        try:
            ident = self.send("shutdown", None, request=True)
            self.wait_for(lambda m: m.get("id") == ident, 10)
            self.send("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def measure(command: Sequence[str], tree: Path, rel: str, rounds: int, env: Optional[Dict[str, str]] = None,
            timeout: float = 120, edit: str = "append") -> Dict[str, Any]:
    """Latencies (seconds) of `rounds` edits of `rel` in `tree`, and of the first check after didOpen."""
    path = (tree / rel).resolve()
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    session = Session(command, tree, env)
    try:
        ident = session.send("initialize", {"processId": os.getpid(), "rootUri": tree.resolve().as_uri(),
                                            "capabilities": {}, "initializationOptions": {"debounce": 0}},
                             request=True)
        session.wait_for(lambda m: m.get("id") == ident, timeout)
        session.send("initialized", {})
        started = time.perf_counter()
        session.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                               "text": text}})
        first = session.wait_for(lambda m: _published(m, uri, 1), timeout)
        opened = time.perf_counter() - started
        latencies: List[float] = []
        cpu: List[float] = []
        for i in range(rounds):
            version = i + 2
            new_text = edited(text, edit, i)
            used = cpu_seconds(session.proc.pid)
            started = time.perf_counter()
            session.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                    "contentChanges": [{"text": new_text}]})
            session.wait_for(lambda m, v=version: _published(m, uri, v), timeout)
            latencies.append(time.perf_counter() - started)
            after = cpu_seconds(session.proc.pid)
            if used is not None and after is not None:
                cpu.append(after - used)
    finally:
        session.close()
    return {"edit": edit, "open_s": round(opened, 4), "edit_s": [round(x, 4) for x in latencies],
            "median_edit_s": round(statistics.median(latencies), 4) if latencies else None,
            "edit_cpu_s": [round(x, 4) for x in cpu],
            "median_edit_cpu_s": round(statistics.median(cpu), 4) if cpu else None,
            "diagnostics_on_open": len(first["params"].get("diagnostics", []))}


def _published(message: Dict[str, Any], uri: str, version: int) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    params = message.get("params") or {}
    return bool(params.get("uri") == uri and params.get("version") in (version, None))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lsp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--file", required=True, help="root-relative file to open and edit")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--edit", choices=EDITS, default="append", help="what each round does to the buffer")
    parser.add_argument("--archsync", default=str(Path(sys.executable).parent / "archsync"))
    args = parser.parse_args(argv)
    print(json.dumps(measure([args.archsync, "lsp"], args.tree, args.file, args.rounds, edit=args.edit), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
