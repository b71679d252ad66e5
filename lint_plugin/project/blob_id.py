"""A file's content key: git's blob id of its bytes. Imports nothing heavy: the check answered from a
record by content (`frontends/carried.py`) computes it before anything a run needs is loaded."""
from __future__ import annotations


def blob_id(data: bytes) -> str:
    """SHA-1 over `blob <size>\\0` and the bytes, as `git hash-object` names them (`files.digest` says why).
    OpenSSL's, loaded on the first call (a run that writes no cache never loads it); `hashlib`'s where
    Python has no OpenSSL."""
    try:
        from _hashlib import openssl_sha1 as sha1
    except ImportError:  # pragma: no cover - an interpreter without OpenSSL, or not CPython
        from hashlib import sha1
    hashed = sha1(b"blob %d\0" % len(data))
    hashed.update(data)
    return str(hashed.hexdigest())
