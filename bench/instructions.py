"""Instructions a cold check executes, counted by valgrind, beside another checkout's: a change's effect on work.

On a shared two-core machine the wall and CPU time of one cold check of SGLang varies by 10-15% from run to
run, more than most single changes save, so a timed A/B says little about a 2% change. The number of
instructions the same run executes does not vary: one process (no worker pool, whose children valgrind
would not count), a fixed hash seed, bytecode already written, the same tree. It is work, not time (a parse
runs more instructions per nanosecond than the readers' Python), so it ranks changes to the same code; where
a cold run's time goes is `bench.stages`'s table. Counting runs the check 40-60 times slower than it runs:
about four minutes for SGLang; the checkouts of a tree are counted side by side, one process each.

    python -m bench.instructions --tree /tmp/sglang/python --tree /tmp/vllm --against /tmp/main-checkout

Prints a markdown table (instructions per checkout and their ratio, with an empty project's as the start-up
every run pays); exit 2 when valgrind is not installed or a run fails.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parents[1]
# One process: a batch never reaches the pool's threshold. The command's own entry point otherwise.
DRIVER = ("import sys\n"
          "from lint_plugin.project import workers\n"
          "workers.MIN_COST = 1 << 62\n"
          "from lint_plugin.frontends.cli import console\n"
          "sys.argv = ['archsync'] + sys.argv[1:]\n"
          "console()\n")
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def command(checkout: Path, tree: Path) -> Tuple[List[str], Dict[str, str]]:
    """The counted run of `archsync check --no-cache` on `tree` with `checkout`'s code, and its environment."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(checkout))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return [sys.executable, "-c", DRIVER, "check", "--no-cache", str(tree)], env


def count(checkout: Path, tree: Path) -> int:
    """Instructions one cold check executes (after an uncounted run that writes the bytecode)."""
    argv, env = command(checkout, tree)
    subprocess.run(argv, env=env, cwd=tree, capture_output=True, check=False)
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
                          + argv, env=env, cwd=tree, capture_output=True, text=True, check=False)
    found = _REFS.search(done.stderr)
    if found is None or done.returncode not in (0, 1):
        raise RuntimeError(f"counting {checkout} on {tree} failed (exit {done.returncode}): {done.stderr[-400:]}")
    return int(found.group(1).replace(",", ""))


def measure(trees: Sequence[Path], checkouts: Sequence[Path], jobs: int = 2) -> Dict[Tuple[str, str], int]:
    """{(tree, checkout): instructions}, an empty project's under the tree "(start-up)"."""
    with tempfile.TemporaryDirectory(prefix="archsync-instructions-") as empty:
        (Path(empty) / "pyproject.toml").write_text("[project]\nname = \"empty\"\n")
        (Path(empty) / "empty.py").write_text("X = 1\n")
        runs = [(label, tree, checkout) for label, tree in [("(start-up)", Path(empty))] + [(str(t), t) for t in trees]
                for checkout in checkouts]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            counted = list(pool.map(lambda run: count(run[2], run[1]), runs))
    return {(label, str(checkout)): n for (label, _, checkout), n in zip(runs, counted)}


def table(figures: Dict[Tuple[str, str], int], checkouts: Sequence[Path]) -> str:
    labels = list(dict.fromkeys(label for label, _ in figures))
    names = [str(c) for c in checkouts]
    head = "| tree | " + " | ".join(f"`{n}`" for n in names) + (" | ratio |" if len(names) == 2 else " |")
    rows = [head, "|---" * (len(names) + 1 + (len(names) == 2)) + "|"]
    for label in labels:
        cells = [f"{figures[(label, n)] / 1e9:.3f} G" for n in names]
        ratio = [f"{figures[(label, names[0])] / figures[(label, names[1])]:.4f}"] if len(names) == 2 else []
        rows.append("| " + " | ".join([label] + cells + ratio) + " |")
    return "\n".join(rows)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True, action="append", help="a project directory; repeatable")
    parser.add_argument("--against", type=Path, help="another checkout's root (its lint_plugin is counted too)")
    parser.add_argument("--jobs", type=int, default=2, help="counted runs at a time (default 2)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("bench.instructions: valgrind is not installed (it counts the instructions)", file=sys.stderr)
        return 2
    checkouts = [HERE] + ([args.against.resolve()] if args.against else [])
    for checkout in checkouts:
        if not (checkout / "lint_plugin" / "__init__.py").is_file():
            print(f"bench.instructions: {checkout} holds no lint_plugin package", file=sys.stderr)
            return 2
    try:
        figures = measure([t.resolve() for t in args.tree], checkouts, args.jobs)
    except RuntimeError as exc:
        print(f"bench.instructions: {exc}", file=sys.stderr)
        return 2
    print(table(figures, checkouts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
