"""A JSON document sealed with the digest of its body: `{"digest": D, "body": B}`, D the BLAKE2b digest
of the bytes of B as written.

Opening checks D over those bytes before parsing them, so a torn, truncated or edited file is
rejected at once, whatever the JSON would have made of it. The result cache and the records of
warm checks (`frontends/replay.py`) are kept so; imports nothing heavy.
"""
from __future__ import annotations

try:  # the one hashlib uses for BLAKE2b, without loading OpenSSL
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

_HEAD = b'{"digest":"'
_MIDDLE = b'","body":'
_DIGEST = 32  # hex digits


def digest(data: bytes, size: int = 16) -> str:
    """The BLAKE2b digest of `data`, `size` bytes of it in hex (the seal's, the code's, a record's name)."""
    return blake2b(data, digest_size=size).hexdigest()


def seal(body: bytes) -> bytes:
    """The document holding `body` (JSON bytes) and its digest."""
    return _HEAD + digest(body).encode() + _MIDDLE + body + b"}"


def opened(raw: bytes) -> bytes:
    """The body bytes of a sealed document whose digest matches them; ValueError otherwise."""
    start = len(_HEAD) + _DIGEST + len(_MIDDLE)
    if not (raw.startswith(_HEAD) and raw[len(_HEAD) + _DIGEST:start] == _MIDDLE and raw.endswith(b"}")):
        raise ValueError("not a sealed document")
    body = raw[start:-1]
    if raw[len(_HEAD):len(_HEAD) + _DIGEST].decode("ascii", "replace") != digest(body):
        raise ValueError("digest mismatch")
    return body
