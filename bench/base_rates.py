"""What a project's own lists say each pattern of ARC105's evidence means: counted, each member left out.

Every list a project keeps says which registered names belong together for one purpose. Hide one
member (and take the list out of the company counts) and weigh the evidence tying it to the rest:
that pattern of evidence meant "belongs" once. Weigh each name the evidence ties to the list and the
list lacks: that pattern meant "lacks" once (or the list is behind, the drift ARC105 looks for, which
makes the share a floor). Counted over every list that the completion rules may complete and that
holds three registered names or more. The share of "belongs" per pattern is what a rule that
reports the pattern would get right at most, as the project's own lists tell it; the summary splits
the patterns with list company (names held together elsewhere) from those without, which is all a
model added last has. Run alone:

    python -m bench.base_rates --tree /path/to/tree [--tree ...]
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Counter, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from lint_plugin.resolve import Model
    from lint_plugin.resolve.kinship import Evidence

Pattern = Tuple[str, ...]
Counts = Counter[Pattern]  # how many times each pattern of evidence was met
MIN_HELD = 3  # a list of two names says little about what a third would mean


def counts(model: "Model") -> Tuple[Counts, Counts]:
    """(held, lacked) per pattern of evidence (`kind:weight`, sorted) over the model's lists."""
    kinship, registered, collections = model.kinship, model.registered, model.collections
    # a list's place among those kinship counts company over (`resolve/model.py::_kinship`)
    position: Dict[int, int] = {}
    for c in collections:
        if len(c.members.names & registered.keys()) > 1:
            position[id(c)] = len(position)
    held_counts: Counts = Counter()
    lacked_counts: Counts = Counter()
    for c in collections:
        held = c.members.names & registered.keys()
        if not c.completable or len(held) < MIN_HELD:
            continue
        apart = position[id(c)]
        without = dataclasses.replace(kinship, company={n: lists - {apart} for n, lists in kinship.company.items()})
        for name in held:
            found = without.evidence(name, held - {name})
            if found:
                held_counts[_pattern(found)] += 1
        for name in kinship.candidates(held) - c.members.names:
            found = without.evidence(name, held)
            if found:
                lacked_counts[_pattern(found)] += 1
    return held_counts, lacked_counts


def _pattern(evidence: Sequence["Evidence"]) -> Pattern:
    return tuple(sorted({f"{e.kind}:{e.weight:.2f}" for e in evidence}))


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
    with tempfile.TemporaryDirectory(prefix="archsync-base-rates-") as caches:
        for number, root in enumerate(roots):
            config = dataclasses.replace(load_config(root, CODES), cache_dir=str(Path(caches) / str(number)))
            report = run_with(config, Request(use_cache=False, reuse=False))
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
