"""`python -m bench.history --mirrors DIR`: replay the corpus and print the tables (see bench/README.md)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from bench.history.hosts import host_mirrors
from bench.history.new_model import replay_new_models
from bench.history.replay import default_archsync, load_corpus, markdown, replay


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history", description=__doc__)
    parser.add_argument("--mirrors", type=Path, default=Path(os.environ.get("ARCHSYNC_MIRRORS", "/work/.mirror")),
                        help="directory of bare git mirrors, <owner>+<name>/repo (default: $ARCHSYNC_MIRRORS)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "archsync-history",
                        help="where parent trees are extracted (reused between runs); never inside the repository")
    parser.add_argument("--project", action="append", help="only these projects (repeatable)")
    parser.add_argument("--case", action="append", help="only these case ids (repeatable)")
    parser.add_argument("--split", choices=("tuned", "held-out"),
                        help="only the cases archsync was tuned on, or only those held out from tuning")
    parser.add_argument("--json", type=Path, help="also write the full results here")
    parser.add_argument("--archsync", help="the archsync executable (default: next to this interpreter)")
    parser.add_argument("--setting", action="append", default=[],
                        help='a `[tool.archsync]` line for every tree, e.g. \'kinship = "all"\' (default: none)')
    parser.add_argument("--host-as-of-parent", action="append", default=[], metavar="HOST=MIRROR",
                        help="check a plugin against its host as of the parent's date, from this mirror under "
                             "--mirrors (e.g. vllm=local-inference-lab+vllm); default: archsync's shipped snapshot")
    parser.add_argument("--new-models", action="store_true",
                        help="replay the new-model cases at their fix commit with the case's list reverted "
                             "(bench/history/new_model.py) instead of every case at its parent")
    args = parser.parse_args()
    repo = Path(__file__).resolve().parents[2]
    work = args.work.resolve()
    if work == repo or repo in work.parents:
        parser.error(f"--work {work} is inside the repository; trees stay outside it")
    cases = [c for c in load_corpus() if (not args.project or c.project in args.project)
             and (not args.case or c.id in args.case) and (not args.split or c.split == args.split)]
    if not cases:
        parser.error("no case matches")
    archsync = [args.archsync] if args.archsync else default_archsync()
    if args.new_models:
        if args.setting or args.host_as_of_parent:
            parser.error("--new-models replays zero-config, against archsync's shipped snapshots")
        report = replay_new_models([c for c in cases if c.kind == "new-model"], args.mirrors, work, archsync)
    else:
        report = replay(cases, args.mirrors, work, archsync, "\n".join(args.setting),
                        hosts=host_mirrors(args.host_as_of_parent, args.mirrors))
    print(markdown(report, "Other findings new since the parent, at these changes" if args.new_models else
                   "Other diagnostics at these parents"))
    if args.json:
        args.json.write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
