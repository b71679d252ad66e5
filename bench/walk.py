"""What finding the projects costs: the walk for nested projects beside each project's discovery.

A run from a project directory also walks below it for nested projects (SGLang's python/ holds
two); this times, in one process, each piece on a tree whose listings the OS has cached:
`projects_of` alone, discovery of every project alone, and both inside one shared listing (what
a run does). Medians of `rounds`. Run by `bench/run.py` (scenario `walk`) in a child process:

    python -m bench.walk --tree /path/to/project --rounds 5
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence


def _median_ms(rounds: int, body: Callable[[], object]) -> float:
    times: List[float] = []
    for _ in range(rounds):
        started = time.perf_counter()
        body()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 2)


def measure(tree: Path, rounds: int) -> Dict[str, object]:
    from lint_plugin.config import load_config
    from lint_plugin.project.discovery import discover
    from lint_plugin.project.listing import shared
    from lint_plugin.project.projects import projects_of

    found = projects_of(tree)
    roots = list(found.roots) if found is not None else [tree.resolve()]
    configs = [load_config(root) for root in roots]

    def both() -> None:
        with shared():
            projects_of(tree)
            for config in configs:
                discover(config)

    return {
        "projects": len(roots),
        "files": sum(len(discover(c)) for c in configs),
        "projects_walk_ms": _median_ms(rounds, lambda: projects_of(tree)),
        "discovery_ms": _median_ms(rounds, lambda: [discover(c) for c in configs]),
        "walk_and_discovery_shared_ms": _median_ms(rounds, both),
    }


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.walk", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.tree, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
