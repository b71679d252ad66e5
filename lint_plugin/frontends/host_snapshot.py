"""Write the snapshot of a host's registrations that archsync ships (`lint_plugin/hosts/<host>.json`).

    python -m lint_plugin.frontends.host_snapshot vllm /path/to/vllm-checkout \\
        --repository vllm-project/vllm --commit <sha> --date YYYY-MM-DD

Run at each release against the host's newest source: it reads the host's registrations exactly
as `universe-from` does (statically, from the source, never importing it) and writes them with
where and when they were read, so `archsync inventory` can say how old the names are. Beside them it
writes the host's lists of three registered names or more, as a zero-configuration check of the host
finds them: what ARC106 compares a plugin's copy of one with.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Optional, Sequence, Tuple

from ..config.loading import config_from_text
from ..pipeline.request import Request
from ..pipeline.run import run_with
from ..project.hosts import SNAPSHOTS, HostList, Snapshot, snapshot_document
from ..project.universe import read_universe

LISTED = 3  # names a list of the host's holds to be kept: fewer are too few to tell a copy of it (ARC106)

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lint_plugin.frontends.host_snapshot", allow_abbrev=False,
                                     description="Write archsync's snapshot of a host's registrations.")
    parser.add_argument("host", help="the host's top-level package, e.g. vllm")
    parser.add_argument("source", type=Path, help="a checkout of the host (the directory holding the package)")
    parser.add_argument("--repository", required=True, help="where the source comes from, e.g. vllm-project/vllm")
    parser.add_argument("--commit", required=True, help="the commit the checkout is at")
    parser.add_argument("--date", required=True, help="that commit's date, YYYY-MM-DD")
    parser.add_argument("--under", default=None, metavar="PATH",
                        help="keep only the registrations and lists under this path of the checkout, e.g. "
                             "sglang/srt (SGLang's diffusion models are another registry)")
    parser.add_argument("--out", type=Path, default=None, help=f"default: {SNAPSHOTS}/<host>.json")
    args = parser.parse_args(argv)
    if not _DATE.fullmatch(args.date) or not _COMMIT.fullmatch(args.commit):
        parser.error("--commit takes a hexadecimal commit id and --date a YYYY-MM-DD date")
    package = args.source / args.host
    if not (package / "__init__.py").is_file():
        parser.error(f"{package} is not the {args.host} package (no __init__.py)")
    root = args.source.resolve()
    under = (args.under or args.host).strip("/") + "/"
    if not under.startswith(args.host + "/") or not (root / under).is_dir():
        parser.error(f"--under takes a directory of the {args.host} package, e.g. {args.host}/...")
    universe = read_universe(config_from_text(root, f'[tool.archsync]\nuniverse-from = ["./{args.host}"]\n'))
    facts = tuple(f for f in universe.facts if f.path.startswith(under))
    if not facts:
        parser.error(f"no registration found under {root / under}")
    lists = tuple(found for found in host_lists(root) if found.path.startswith(under))
    snapshot = Snapshot(args.host, args.repository, args.commit, args.date, facts, lists)
    out = args.out or SNAPSHOTS / f"{args.host}.json"
    try:
        out.write_bytes(snapshot_document(snapshot))
    except OSError as error:
        parser.exit(2, f"{parser.prog}: error: cannot write {out}: {error.strerror or error}\n")
    names = sum(len(r.names) for f in facts for r in f.registrations)
    print(f"wrote {out}: {names} registrations in {len(facts)} files and {len(snapshot.lists)} lists of "
          f"{snapshot.label}")
    return 0


def host_lists(root: Path) -> Tuple[HostList, ...]:
    """The host's lists holding `LISTED` registered names or more, as a check of the host with no
    configuration reads them (its own `[tool.archsync]`, if it has one, is not the plugin's business)."""
    model = run_with(config_from_text(root, ""), Request(use_cache=False)).model
    return tuple(HostList(c.path, c.subject, c.line, tuple(sorted(names)), c.keyed)
                 for c in model.collections for names in (c.members.names & model.registered.keys(),)
                 if len(names) >= LISTED)


if __name__ == "__main__":
    sys.exit(main())
