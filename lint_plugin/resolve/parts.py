"""The parts of a project: where a registry's word about a name holds.

A registry says which class serves a name in the part of the project it belongs to (the first two
directories: `vllm/model_executor`, `lmdeploy/pytorch`); another part may keep its own account of the
models it runs (`engine_tables.py`).
"""
from __future__ import annotations


def part_of(path: str) -> str:
    """The part of a project a path is in: its first two directories (after `src/`)."""
    parts = path.split("/")[:-1]
    if parts[:1] == ["src"]:
        parts = parts[1:]
    return "/".join(parts[:2])
