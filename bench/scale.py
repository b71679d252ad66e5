"""How a check grows with one list's length: one registry and one list of N names, side by side.

Each size is checked in a child process of its own (`archsync check --no-cache --no-prefilter`,
run in-process there), so its peak memory is its own; time and peak memory are printed with their
ratio to the smallest size. Linear growth makes time(4N)/time(N) about 4, pairwise work about 16
(issue 30, item 9: 4,000 names took 11 s and 2.3 GB). The test (`tests/test_list_size.py`) holds
the memory bound without timing anything.

    python -m bench.scale --sizes 1000,4000,8000 --runs 3
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Sequence

# the child: one check, timed around the analysis alone (interpreter start and imports left out)
_CHILD = """
import io, json, resource, sys, time, contextlib
from lint_plugin.frontends.cli import main
started = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    main(["check", "--no-cache", "--no-prefilter", "--exit-zero", "."])
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def write_tree(root: Path, size: int) -> Path:
    """A registry of `size` model classes and a module-level list naming each of them once."""
    names = [f"Model{i}ForCausalLM" for i in range(size)]
    (root / "pkg/models").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "scale"\nversion = "0"\n')
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/models/__init__.py").write_text("")
    (root / "pkg/models/all.py").write_text("".join(f"class {n}:\n    pass\n\n\n" for n in names)
                                            + "EntryClass = [\n" + "".join(f"    {n},\n" for n in names) + "]\n")
    (root / "pkg/tables.py").write_text("ARCHS = [\n" + "".join(f'    "{n}",\n' for n in names) + "]\n")
    return root


def measure(sizes: Sequence[int], runs: int) -> List[Dict[str, float]]:
    """Median seconds and peak KB of each size, in order."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="archsync-scale-") as scratch:
        for size in sizes:
            tree = write_tree(Path(scratch) / str(size), size)
            samples = [json.loads(subprocess.run([sys.executable, "-c", _CHILD], cwd=tree, check=True,
                                                 capture_output=True, text=True).stdout) for _ in range(runs)]
            rows.append({"size": size, "seconds": statistics.median(s["seconds"] for s in samples),
                         "peak_kb": statistics.median(s["peak_kb"] for s in samples)})
            print(f"size {size}: done", file=sys.stderr)
    return rows


def table(rows: Sequence[Dict[str, float]]) -> str:
    """Markdown: each size with its time and memory, and both as ratios to the first size's."""
    first = rows[0]
    lines = ["| names | time (s) | time ratio | size ratio | peak memory (MB) | memory ratio |",
             "|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['size']:.0f} | {row['seconds']:.2f} | {row['seconds'] / first['seconds']:.1f}x "
                     f"| {row['size'] / first['size']:.0f}x | {row['peak_kb'] / 1024:.0f} "
                     f"| {row['peak_kb'] / first['peak_kb']:.1f}x |")
    return "\n".join(lines)


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000", help="list lengths, comma-separated (default 1000,4000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per size; medians are reported (default 3)")
    args = parser.parse_args(list(argv) or None)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if not sizes or any(s < 1 for s in sizes) or args.runs < 1:
        parser.error("--sizes needs positive integers, --runs at least 1")
    print(table(measure(sizes, args.runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
