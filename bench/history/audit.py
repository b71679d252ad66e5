"""`python -m bench.history.audit`: two promises checked on real history, not on fixtures alone.

- `prefilter`: what the byte prefilter skips never changes a result. At each replayed parent tree (or `--per`
  of each project's), `check` and `inventory` run with and without `--no-prefilter`; the diagnostics and the
  registered names, subjects and families must be the same.
- `warm`: a cache never outlives a change. At commits of the sweep's projects that register a model
  (`sweep.TARGETS`), the parent's tree is checked (the cache written), the commit's files are laid over it as a
  working tree has them (deleted ones go), and it is checked again with the cache and without; diagnostics and
  inventory must be the same.

Each tree that differs is written whole under `--out` (both documents), and the exit status is 1; 0 when every
tree agrees. Trees are extracted under `--work`, never inside the repository.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple

from bench.history.cold import parent_trees
from bench.history.replay import default_archsync, extract_tree, load_corpus, mirror_dir
from bench.history.sweep import TARGETS, commits

INVENTORY_KEYS = ("registered", "subjects", "families")


@dataclass(frozen=True)
class Compared:
    """One tree's two runs: where they differ (empty: they agree)."""

    project: str
    label: str
    findings: int
    differs: Tuple[str, ...]


def run_json(archsync: Sequence[str], tree: Path, *args: str) -> dict:
    """archsync's JSON document (a failed run is a document saying so, which differs from any other)."""
    result = subprocess.run([*archsync, *args, "--format", "json", "."], cwd=tree, capture_output=True)
    try:
        return json.loads(result.stdout) if result.returncode in (0, 1) else {"failed": result.returncode}
    except json.JSONDecodeError:
        return {"failed": result.stderr.decode("utf-8", "replace")[-300:]}


def findings(document: dict) -> List[Tuple[str, str, int, int, str]]:
    return sorted((d.get("code", ""), d.get("path", ""), d.get("line", 0), d.get("column", 0), d.get("message", ""))
                  for d in document.get("diagnostics", ()))


def differences(checks: Tuple[dict, dict], inventories: Tuple[dict, dict]) -> Tuple[str, ...]:
    """What two runs of one tree disagree on: "diagnostics", or an inventory key, or "failed"."""
    found = ["failed" for document in (*checks, *inventories) if "failed" in document][:1]
    if findings(checks[0]) != findings(checks[1]):
        found.append("diagnostics")
    found += [key for key in INVENTORY_KEYS if inventories[0].get(key) != inventories[1].get(key)]
    return tuple(found)


def sampled(items: Sequence, per: int, key: str) -> List:
    """At most `per` of `items` (all when `per` is 0), the same ones from run to run: those whose digest of
    `key` and their position is smallest."""
    if not per or len(items) <= per:
        return list(items)
    rank = sorted(range(len(items)), key=lambda i: hashlib.sha256(f"{key}:{i}".encode()).hexdigest())
    return [items[i] for i in sorted(rank[:per])]


def audit_prefilter(archsync: Sequence[str], mirrors: Path, work: Path, per: int, projects: Sequence[str],
                    out: Path, trees: Sequence[Path] = ()) -> List[Compared]:
    """The replay's parent trees (`per` of each project's, 0: all), or `trees` where given (each a project
    directory, or a directory of them: a checkout holding several, as SGLang's does, is read as one)."""
    if trees:
        return [prefilter_or_not(archsync, "trees", tree.name, tree, out) for tree in trees]
    cases = [c for c in load_corpus() if not projects or c.project in projects]
    parents, absent = parent_trees(cases, mirrors, work)
    for mirror in absent:
        print(f"no mirror of {mirror}: its cases skipped", file=sys.stderr)
    by_project: Dict[str, List[Tuple[str, Path]]] = {}
    for label, tree in parents:  # labelled `project @ parent`
        by_project.setdefault(label.split(" @ ")[0], []).append((label, tree))
    return [prefilter_or_not(archsync, project, label, tree, out)
            for project, mine in by_project.items() for label, tree in sampled(mine, per, project)]


def prefilter_or_not(archsync: Sequence[str], project: str, label: str, tree: Path, out: Path) -> Compared:
    """One tree checked and inventoried with the prefilter and without."""
    checks = (run_json(archsync, tree, "check", "--no-cache"),
              run_json(archsync, tree, "check", "--no-cache", "--no-prefilter"))
    inventories = (run_json(archsync, tree, "inventory", "--no-cache"),
                   run_json(archsync, tree, "inventory", "--no-cache", "--no-prefilter"))
    return _record(project, label, checks, inventories, out, ("prefilter", "no-prefilter"))


def audit_warm(archsync: Sequence[str], mirrors: Path, work: Path, per: int, projects: Sequence[str],
               out: Path) -> List[Compared]:
    compared = []
    for project, target in TARGETS.items():
        if projects and project not in projects:
            continue
        git_dir = mirror_dir(mirrors, target.mirror)
        if git_dir is None:
            print(f"no mirror of {target.mirror}: {project} skipped", file=sys.stderr)
            continue
        for commit, parent, _ in sampled(commits(git_dir, target), per or 8, project):
            before = extract_tree(git_dir, parent, target.root, work)
            after = extract_tree(git_dir, commit, target.root, work)
            compared.append(warm_or_cold(archsync, project, f"{project} @ {commit[:12]}", before, after,
                                         work / f"audit-warm-{commit[:12]}", out))
    return compared


def warm_or_cold(archsync: Sequence[str], project: str, label: str, before: Path, after: Path, scratch: Path,
                 out: Path) -> Compared:
    """`before` copied to `scratch` and checked (its cache written), `after`'s files laid over it, then checked
    and inventoried with the cache and without. `scratch` is removed after."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(before, scratch)
    try:
        run_json(archsync, scratch, "check")
        overlay(after, scratch)
        checks = (run_json(archsync, scratch, "check"), run_json(archsync, scratch, "check", "--no-cache"))
        inventories = (run_json(archsync, scratch, "inventory"),
                       run_json(archsync, scratch, "inventory", "--no-cache"))
        return _record(project, label, checks, inventories, out, ("warm", "cold"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def overlay(source: Path, tree: Path) -> None:
    """Make `tree`'s Python files `source`'s: a file gone from it goes, a changed or new one is copied."""
    have = {p.relative_to(tree) for p in tree.rglob("*.py")}
    want = {p.relative_to(source) for p in source.rglob("*.py")}
    for gone in have - want:
        (tree / gone).unlink()
    for relative in want:
        new, old = source / relative, tree / relative
        if not old.is_file() or new.read_bytes() != old.read_bytes():
            old.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(new, old)


def _record(project: str, label: str, checks: Tuple[dict, dict], inventories: Tuple[dict, dict], out: Path,
            names: Tuple[str, str]) -> Compared:
    differs = differences(checks, inventories)
    print(f"{label}: {'differs in ' + ', '.join(differs) if differs else 'the same'}", file=sys.stderr, flush=True)
    if differs:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{label.replace(' @ ', '@').replace('/', '+')}.json").write_text(json.dumps(
            {name: {"check": check, "inventory": inventory}
             for name, check, inventory in zip(names, checks, inventories)}, indent=1) + "\n", encoding="utf-8")
    return Compared(project, label, len(findings(checks[1])), differs)


def markdown(audit: str, compared: Iterable[Compared]) -> str:
    rows = list(compared)
    lines = [f"### {audit}", "", "| project | trees | the same | differ | findings |", "|---|---:|---:|---:|---:|"]
    for project in dict.fromkeys(c.project for c in rows):
        mine = [c for c in rows if c.project == project]
        lines.append(f"| {project} | {len(mine)} | {sum(not c.differs for c in mine)} | "
                     f"{sum(bool(c.differs) for c in mine)} | {sum(c.findings for c in mine)} |")
    lines += [f"\n{c.label}: differs in {', '.join(c.differs)}" for c in rows if c.differs]
    return "\n".join(lines)


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history.audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("audit", choices=("prefilter", "warm"), nargs="+")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"),
                        help="directory of bare git mirrors, <owner>+<name>/repo")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "archsync-history",
                        help="where trees are extracted (reused); never inside the repository")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "archsync-audit",
                        help="where the documents of a tree that differs are written")
    parser.add_argument("--per", type=int, default=0,
                        help="at most this many trees a project (prefilter: 0, every parent; warm: 0 means 8)")
    parser.add_argument("--project", action="append", default=[], help="only these projects (repeatable)")
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="prefilter: audit this tree instead of the replay's parents (repeatable)")
    parser.add_argument("--archsync", help="the archsync executable (default: next to this interpreter)")
    args = parser.parse_args(argv or None)
    repo = Path(__file__).resolve().parents[2]
    for path in (args.work.resolve(), args.out.resolve()):
        if path == repo or repo in path.parents:
            parser.error(f"{path} is inside the repository; trees stay outside it")
    archsync = [args.archsync] if args.archsync else default_archsync()
    failed = False
    for audit in dict.fromkeys(args.audit):
        if audit == "prefilter":
            compared = audit_prefilter(archsync, args.mirrors, args.work.resolve(), args.per, args.project,
                                       args.out.resolve(), [tree.resolve() for tree in args.tree])
        else:
            compared = audit_warm(archsync, args.mirrors, args.work.resolve(), args.per, args.project,
                                  args.out.resolve())
        print(markdown(audit, compared) + "\n", flush=True)
        failed = failed or any(c.differs for c in compared)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
