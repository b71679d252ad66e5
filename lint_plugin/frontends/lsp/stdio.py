"""Running the server on stdin/stdout: JSON-RPC framing bounded against garbage, and one log line
per event on stderr."""
from __future__ import annotations

import logging
import sys
from typing import Any

from .server import build_server

MAX_MESSAGE = 256 << 20  # bytes: no editor sends a message this large; a Content-Length beyond it is framing garbage
MAX_HEADER_LINE = 64 << 10


class _BoundedInput:
    """stdin as the JSON-RPC reader uses it, never asked for more than a message can be.

    `Content-Length: 99999999999999999999` would make the reader allocate (and overflow) on
    `read(n)`: such a body is answered as an invalid message instead, and the reader finds the
    next header, as it does after any malformed input.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def readline(self) -> bytes:
        return self.stream.readline(MAX_HEADER_LINE)

    def read(self, size: int = -1) -> bytes:
        if size > MAX_MESSAGE:
            logging.getLogger(__name__).error("ignored a message framed as %d bytes", size)
            return b'{"jsonrpc": "2.0", "method": "$/archsync/ignoredMessage", "params": {}}'
        return self.stream.read(size)

    def close(self) -> None:
        self.stream.close()


class _OneLine(logging.Formatter):
    """A log line per event: what a client sent wrong is said in one line, not a traceback of pygls."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message = f"{message}: {type(error).__name__}: {error}"
        if "Traceback (most recent call last)" in message:  # pygls writes some into the message itself
            lines = [line for line in message.splitlines() if line.strip()]
            message = f"{lines[0]}: {lines[-1].strip()}"
        record = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None, "msg": message,
                                        "args": ()})
        return super().format(record)


def serve() -> int:
    """Run the server on stdin/stdout until the client says exit (or closes stdin)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("archsync-lsp %(levelname)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    server = build_server()
    try:
        server.start_io(stdin=_BoundedInput(sys.stdin.buffer))  # type: ignore[arg-type]
    finally:
        server.stop()
    return 0
