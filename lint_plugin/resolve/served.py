"""Which files are part of what the server runs: lists elsewhere gate nothing it does."""
from __future__ import annotations

_NOT_SERVED = frozenset({"tests", "test", "testing", "benchmarks", "benchmark", "examples", "docs"})


def is_not_served(path: str) -> bool:
    """Tests, benchmarks, examples and docs gate nothing the server does; their lists are partial on purpose."""
    *directories, name = path.split("/")
    return bool(_NOT_SERVED.intersection(directories)) or name.startswith("test_") \
        or name.endswith("_test.py") or name == "conftest.py"
