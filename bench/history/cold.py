"""`python -m bench.history.cold`: archsync's cold run beside ruff's on every parent tree of the replay.

The performance target has a bound for history as well as for today's trees: no tree of the
corpus may take archsync more than 1.5x what `ruff check --no-cache --isolated --select E,F,W`
takes on it. Each distinct parent tree is extracted as the replay extracts it (`replay.extract_tree`,
reused when there), given the replay's zero-config `pyproject.toml`, and both tools run on it in
alternating rounds through `bench.run`'s launcher (wall and CPU per child); medians are compared.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from bench import run as bench_run
from bench.history.replay import Case, default_archsync, extract_tree, load_corpus, mirror_dir

ZERO_CONFIG = "# zero-config replay: no [tool.archsync] table\n"


@dataclass(frozen=True)
class TreeTiming:
    label: str
    files: int
    archsync_s: float
    ruff_s: float
    archsync_cpu: Optional[float]
    ruff_cpu: Optional[float]

    @property
    def ratio(self) -> float:
        return self.archsync_s / self.ruff_s

    def to_json(self) -> dict:
        return {"tree": self.label, "files": self.files, "archsync_s": round(self.archsync_s, 4),
                "ruff_s": round(self.ruff_s, 4), "ratio": round(self.ratio, 3),
                "archsync_cpu_s": self.archsync_cpu, "ruff_cpu_s": self.ruff_cpu}


def parent_trees(cases: Sequence[Case], mirrors: Path, work: Path) -> Tuple[List[Tuple[str, Path]], List[str]]:
    """(label, tree) of each distinct parent commit, and the mirrors that are absent."""
    trees: Dict[Tuple[str, str], Tuple[str, Path]] = {}
    absent: List[str] = []
    for case in cases:
        git_dir = mirror_dir(mirrors, case.mirror)
        if git_dir is None:
            if case.mirror not in absent:
                absent.append(case.mirror)
            continue
        key = (case.mirror, case.parent)
        if key not in trees:
            tree = extract_tree(git_dir, case.parent, case.root, work)
            _zero_config(tree)
            trees[key] = (f"{case.project} @ {case.parent[:12]}", tree)
    return list(trees.values()), absent


def _zero_config(tree: Path) -> None:
    """The replay's `pyproject.toml`, replaced rather than rewritten (a hard-linked copy stays apart)."""
    target = tree / "pyproject.toml"
    temporary = tree / ".pyproject.toml.cold"
    temporary.write_text(ZERO_CONFIG, encoding="utf-8")
    os.replace(temporary, target)


def time_tree(label: str, tree: Path, archsync: Sequence[str], ruff: str, runs: int) -> TreeTiming:
    contenders = [bench_run.Contender("archsync", [*archsync, "check", "--no-cache", "."], tree),
                  bench_run.Contender("ruff", [ruff, *bench_run.RUFF_ARGS, "."], tree)]
    bench_run.interleave(label, runs, contenders)
    ours, theirs = contenders
    files = sum(1 for _ in tree.rglob("*.py"))
    return TreeTiming(label, files, statistics.median(s.seconds for s in ours.samples),
                      statistics.median(s.seconds for s in theirs.samples), ours.median_cpu, theirs.median_cpu)


def table(timings: Sequence[TreeTiming]) -> str:
    rows = ["| tree | files | archsync | ruff | ratio | CPU ratio |", "|---|---|---|---|---|---|"]
    for t in sorted(timings, key=lambda t: -t.ratio):
        cpu = f"{t.archsync_cpu / t.ruff_cpu:.2f}x" if t.archsync_cpu and t.ruff_cpu else "-"
        rows.append(f"| {t.label} | {t.files} | {t.archsync_s:.3f} s | {t.ruff_s:.3f} s | {t.ratio:.2f}x | {cpu} |")
    return "\n".join(rows)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history.cold", description=__doc__)
    parser.add_argument("--mirrors", type=Path, default=Path(os.environ.get("ARCHSYNC_MIRRORS", "/work/.mirror")))
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "archsync-history",
                        help="where parent trees are extracted (the replay's, reused); never inside the repository")
    parser.add_argument("--project", action="append", help="only these projects (repeatable)")
    parser.add_argument("--runs", type=int, default=3, help="alternating rounds per tree (default 3)")
    parser.add_argument("--bound", type=float, default=1.5, help="the ratio no tree may exceed (default 1.5)")
    parser.add_argument("--archsync", help="the archsync executable (default: next to this interpreter)")
    parser.add_argument("--ruff", help="the ruff executable (default: on PATH)")
    parser.add_argument("--json", type=Path, help="also write the timings here")
    args = parser.parse_args(argv)
    repo = Path(__file__).resolve().parents[2]
    work = args.work.resolve()
    if work == repo or repo in work.parents:
        parser.error(f"--work {work} is inside the repository; trees stay outside it")
    ruff = args.ruff or shutil.which("ruff")
    if not ruff:
        parser.error("ruff not found: pip install ruff, or --ruff PATH")
    cases = [c for c in load_corpus() if not args.project or c.project in args.project]
    trees, absent = parent_trees(cases, args.mirrors, work)
    for mirror in absent:
        print(f"skipped: no mirror of {mirror} under {args.mirrors}", file=sys.stderr)
    launcher_dir = Path(tempfile.mkdtemp(prefix="archsync-cold-history-"))
    bench_run._LAUNCHER = bench_run.Launcher(launcher_dir)
    try:
        archsync = [args.archsync] if args.archsync else default_archsync()
        timings = [time_tree(label, tree, archsync, ruff, args.runs) for label, tree in trees]
    finally:
        bench_run._LAUNCHER.close()
    print(table(timings))
    worst = max(timings, key=lambda t: t.ratio) if timings else None
    if worst is not None:
        over = [t for t in timings if t.ratio > args.bound]
        print(f"\n{len(timings)} trees; worst {worst.ratio:.2f}x ({worst.label}); "
              f"{len(over)} over the {args.bound}x bound")
    if args.json:
        args.json.write_text(json.dumps({"bound": args.bound, "machine": bench_run.machine_info(),
                                         "trees": [t.to_json() for t in timings]}, indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
