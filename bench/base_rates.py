"""What a project's own lists say each pattern of ARC105's evidence means, as a table per project.

The counts are `lint_plugin/rules/evidence_rates.py`'s (each member left out of its list in turn,
each name a list lacks weighed), from one cold run of the engine. The share held per pattern is
what a rule reporting that pattern would get right at least, as the project's lists tell it; the
summary splits the patterns with list company from those without, which is all a model added last
has. Run alone:

    python -m bench.base_rates --tree /path/to/tree [--tree ...]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Counter, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from lint_plugin.resolve import Model

Pattern = Tuple[str, ...]
Counts = Counter[Pattern]  # how many times each pattern of evidence was met


def counts(model: "Model") -> Tuple[Counts, Counts]:
    """(held, lacked) per pattern of evidence over the model's lists (`rules/evidence_rates.py`)."""
    from lint_plugin.rules.evidence_rates import evidence_rates

    rates = evidence_rates(model)
    return Counter(rates.held), Counter(rates.lacked)


def table(name: str, held: Counts, lacked: Counts, rows: int = 15) -> str:
    """The patterns met most often, then the totals with list company and without."""
    from lint_plugin.resolve.kinship import COOCCURRENCE

    lines = [f"### {name}", "", "| held | lacked | share held | pattern |", "|---|---|---|---|"]
    patterns = sorted(set(held) | set(lacked), key=lambda p: (-(held[p] + lacked[p]), p))
    for p in patterns[:rows]:
        lines.append(f"| {held[p]} | {lacked[p]} | {_share(held[p], lacked[p])} | {' + '.join(p)} |")
    company = [p for p in patterns if any(k.startswith(COOCCURRENCE + ":") for k in p)]
    alone = [p for p in patterns if p not in company]
    for label, group in (("with list company", company), ("without list company", alone)):
        h, la = sum(held[p] for p in group), sum(lacked[p] for p in group)
        best = max(((held[p] / (held[p] + lacked[p]), held[p], p) for p in group if held[p] + lacked[p] >= 5),
                   default=None)
        said = f"; best pattern met 5 times or more: {' + '.join(best[2])} ({best[0]:.2f})" if best else ""
        lines.append(f"\n{label}: {h} held, {la} lacked, share held {_share(h, la)}{said}")
    return "\n".join(lines)


def _share(held: int, lacked: int) -> str:
    return f"{held / (held + lacked):.2f}" if held + lacked else "-"


def measure(tree: Path) -> List[Tuple[str, Counts, Counts]]:
    """Counts for each project of `tree`, from one cold run of the engine (no cache kept)."""
    from lint_plugin.config import load_config
    from lint_plugin.pipeline.request import Request
    from lint_plugin.pipeline.run import run_with
    from lint_plugin.project.projects import projects_of
    from lint_plugin.rules.codes import CODES

    found = projects_of(tree)
    roots = list(found.roots) if found is not None else [tree.resolve()]
    results = []
    for root in roots:
        report = run_with(load_config(root, CODES), Request(use_cache=False, reuse=False))  # writes nothing
        held, lacked = counts(report.model_of.get())
        if held or lacked:
            results.append((str(root), held, lacked))
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.base_rates", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True, action="append")
    parser.add_argument("--rows", type=int, default=15)
    args = parser.parse_args(argv)
    for tree in args.tree:
        for root, held, lacked in measure(tree):
            print(table(root, held, lacked, args.rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
