"""Which files are part of what the project runs: lists elsewhere gate nothing it does."""
from __future__ import annotations

# A benchmark is run: vLLM's MoE tuning scripts read a checkpoint's architecture in an if/elif chain,
# and a name missing there sends the model to another branch's config fields (six fixes in vLLM's
# history added a name to one). Tests, examples and docs show or check a part on purpose.
_NOT_SERVED = frozenset({"tests", "test", "testing", "examples", "docs"})


def is_not_served(path: str) -> bool:
    """Tests, examples and docs gate nothing the project runs; their lists are partial on purpose."""
    *directories, name = path.split("/")
    return bool(_NOT_SERVED.intersection(directories)) or name.startswith("test_") \
        or name.endswith("_test.py") or name == "conftest.py"
