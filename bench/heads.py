"""`python -m bench.heads`: archsync on the real trees it is judged on, as one reproducible run.

Every capability is tried on serving codebases nobody here wrote. `bench/heads.json` names them: a
public repository and the commit whose tree was judged (with its date), as `fetch` leaves their
mirrors (`<mirrors>/<owner>+<name>/repo`, bare). `run` extracts each tree's Python and packaging
files under `--work` (never inside this repository; a blob a mirror lacks, such as a large file left
out of its snapshot, is skipped), runs `archsync check` and `archsync inventory` there zero-config,
writes `<owner>+<name>.check` and `.inv` under `--out`, and prints a table of the findings by code.
`compare OLD NEW` prints what changed between two such outputs: the review a change to the engine
gets before it lands (a new finding is judged by reading what its list gates).

    python -m bench.heads run --archsync /tmp/snap/archsync --out /tmp/heads-A
    python -m bench.heads compare /tmp/heads-A /tmp/heads-B
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Counter, List, Optional, Sequence, Tuple

from bench.history.replay import default_archsync, mirror_dir

MANIFEST = Path(__file__).with_name("heads.json")
KEPT = (b".py", b".pyi", b".toml", b".cfg")  # what archsync reads: sources, stubs, packaging
_CODE = re.compile(r": (ARC\d{3}) ")


@dataclass(frozen=True)
class Head:
    """One judged tree: `repository` (`owner/name`) at `commit`, archsync run in `root` of it."""

    repository: str
    commit: str
    date: str
    root: str = "."

    @property
    def slug(self) -> str:
        return self.repository.replace("/", "+")


def load_manifest(path: Path = MANIFEST) -> List[Head]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Head(h["repository"], h["commit"], h["date"], h.get("root", ".")) for h in data["heads"]]


def extract(git_dir: Path, commit: str, target: Path) -> int:
    """The commit's files archsync reads, written under `target` (kept when already there); how many."""
    done = target / ".extracted"
    if done.is_file() and done.read_text(encoding="utf-8") == commit:
        return -1
    listing = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=True).stdout
    wanted: List[Tuple[bytes, bytes]] = []
    for row in listing.split(b"\0"):
        if not row:
            continue
        meta, path = row.split(b"\t", 1)
        mode, kind, sha = meta.split()
        parts = path.split(b"/")
        if kind == b"blob" and mode != b"120000" and path.endswith(KEPT) and b".." not in parts:
            wanted.append((sha, path))
    reader = subprocess.Popen(["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert reader.stdin is not None and reader.stdout is not None
    stdin = reader.stdin

    def feed() -> None:  # a writer of its own: the answers fill the pipe long before the questions end
        stdin.write(b"".join(sha + b"\n" for sha, _ in wanted))
        stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    written = 0
    for _, path in wanted:  # cat-file answers in the order asked
        header = reader.stdout.readline().split()
        if header[-1] == b"missing":
            continue
        data = reader.stdout.read(int(header[2]))
        reader.stdout.read(1)
        destination = target / os.fsdecode(path)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
        written += 1
    reader.wait()
    done.write_text(commit, encoding="utf-8")
    return written


def run_one(head: Head, mirrors: Path, work: Path, out: Path, archsync: Sequence[str]) -> Tuple[Head, str]:
    """Extract one tree and write its check and inventory; a short status."""
    git_dir = mirror_dir(mirrors, f"github:{head.repository}")
    if git_dir is None:
        return head, "no mirror"
    tree = work / f"{head.slug}-{head.commit[:12]}"
    try:
        extract(git_dir, head.commit, tree)
    except subprocess.CalledProcessError as error:
        return head, f"not extracted: {error.stderr.decode('utf-8', 'replace').strip()[:200]}"
    where = tree / head.root
    for command, suffix in (("check", "check"), ("inventory", "inv")):
        result = subprocess.run([*archsync, command, "--no-cache", "."], cwd=where, capture_output=True)
        text = result.stdout.decode("utf-8", "replace") + result.stderr.decode("utf-8", "replace")
        (out / f"{head.slug}.{suffix}").write_text(f"{text}exit {result.returncode}\n", encoding="utf-8")
    return head, "ok"


def findings(check: str) -> Counter[str]:
    return Counter(m.group(1) for m in _CODE.finditer(check))


def run(heads: Sequence[Head], mirrors: Path, work: Path, out: Path, archsync: Sequence[str], jobs: int) -> str:
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda h: run_one(h, mirrors, work, out, archsync), heads))
    rows = ["| tree | commit | date | findings |", "|---|---|---|---|"]
    total: Counter[str] = Counter()
    for head, status in results:
        if status != "ok":
            rows.append(f"| {head.repository} | {head.commit[:12]} | {head.date} | {status} |")
            continue
        counts = findings((out / f"{head.slug}.check").read_text(encoding="utf-8"))
        total.update(counts)
        shown = ", ".join(f"{code} {n}" for code, n in sorted(counts.items())) or "-"
        rows.append(f"| {head.repository} | {head.commit[:12]} | {head.date} | {shown} |")
    rows.append(f"| **{len(heads)} trees** | | | {', '.join(f'{c} {n}' for c, n in sorted(total.items())) or '-'} |")
    return "\n".join(rows)


def compare(old: Path, new: Path) -> Tuple[str, int]:
    """The unified diff of every output that differs between two runs, and how many differ."""
    names = sorted({p.name for p in old.iterdir()} | {p.name for p in new.iterdir()})
    parts: List[str] = []
    for name in names:
        before = (old / name).read_text(encoding="utf-8").splitlines() if (old / name).is_file() else []
        after = (new / name).read_text(encoding="utf-8").splitlines() if (new / name).is_file() else []
        if before != after:
            parts.append("\n".join(difflib.unified_diff(before, after, f"{old.name}/{name}", f"{new.name}/{name}",
                                                         lineterm="", n=0)))
    return "\n".join(parts), len(parts)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.heads", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    running = commands.add_parser("run", help="extract the trees and run archsync on each")
    running.add_argument("--mirrors", type=Path, default=Path(os.environ.get("ARCHSYNC_MIRRORS", "/work/.mirror")))
    running.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "archsync-heads")
    running.add_argument("--out", type=Path, required=True, help="where each tree's .check and .inv are written")
    running.add_argument("--archsync", help="the archsync executable (default: next to this interpreter)")
    running.add_argument("--tree", action="append", help="only these repositories, owner/name (repeatable)")
    running.add_argument("-j", "--jobs", type=int, default=3)
    comparing = commands.add_parser("compare", help="what changed between two runs' outputs")
    comparing.add_argument("old", type=Path)
    comparing.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    if args.command == "compare":
        text, differing = compare(args.old, args.new)
        print(text or "the same")
        return 1 if differing else 0
    repo = Path(__file__).resolve().parents[1]
    for place in (args.work.resolve(), args.out.resolve()):
        if place == repo or repo in place.parents:
            parser.error(f"{place} is inside the repository; trees and outputs stay outside it")
    heads = [h for h in load_manifest() if not args.tree or h.repository in args.tree]
    archsync = [args.archsync] if args.archsync else default_archsync()
    print(run(heads, args.mirrors, args.work.resolve(), args.out.resolve(), archsync, args.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
