"""`python -m bench.history.sweep`: every commit that registered a model, checked as pull-request CI checks it.

The corpus replays the changes someone later had to fix. This asks the other half of precision at the
moment that matters most to a maintainer, a pull request that adds a model: at each commit of a project's
first-parent history that registers new names (a key added to its registry dict, or a module added to its
models package), the commit's tree is checked against its parent's (`archsync check --baseline-commit HEAD`,
HEAD holding the parent's tree: `new_model.change_tree`), and every finding is looked up in later history
(`replay.confirmed_later`, as the replay judges the other diagnostics at its parents). Nothing is reverted:
most such commits leave no list behind, and a check that stays quiet there is what is measured.

A plugin is checked against archsync's shipped snapshot of its host unless `--host-as-of-commit vllm=<mirror>`
is given: then against the host as it was at the commit's date (`hosts.py`), as the replay's
`--host-as-of-parent` does. A snapshot months newer than the commit tells a plugin's copy of a host list
what the host added after it (vllm-ascend's patch of `is_deepseek_mla`, told what vLLM's list held eight
months later): the host's future, which no maintainer could have acted on that day.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from bench.history.hosts import archsync_as_of, host_mirrors
from bench.history.new_model import change_tree
from bench.history.replay import (
    SGLANG_CUTOFF,
    confirmed_later,
    default_archsync,
    git,
    mirror_dir,
    reference_commit,
    run_archsync,
)


@dataclass(frozen=True)
class Target:
    """Where a project registers its models: a registry file whose dict gains keys, or (ending in `/`) a models
    package that gains modules; and the span of history swept."""

    mirror: str
    root: str
    registry: str
    since: str
    until: str
    by_strings: bool = False  # registrations are calls or subscript stores, not dict keys: see `registered_strings`
    module: str = ""  # of a models package, only an added module of this name is a model (`lightllm/models/x/model.py`)


# SGLang before its cut-off only (its later history is kept aside); vLLM and lmdeploy over the spans their
# mirrors reach since the model registries took today's shape.
TARGETS: Dict[str, Target] = {
    "vllm": Target("github:local-inference-lab/vllm", ".", "vllm/model_executor/models/registry.py",
                   "2025-09-01", "2026-06-01"),
    "sglang": Target("github:HaiShaw/sglang", "python", "sglang/srt/models/", "2025-03-01", SGLANG_CUTOFF),
    "lmdeploy": Target("github:InternLM/lmdeploy", ".", "lmdeploy/pytorch/models/module_map.py",
                       "2024-06-01", "2026-09-01"),
    # Not in the corpus, never tuned on: a fork of vLLM and three of its hardware plugins, which register
    # into vLLM by call (`ModelRegistry.register_model("X", ...)`) or by subscript (`_MODEL_REGISTRY["X"] = X`).
    "aphrodite": Target("github:aphrodite-engine/aphrodite-engine", ".", "aphrodite/modeling/models/registry.py",
                        "2025-02-01", "2026-04-24"),
    "tpu-inference": Target("github:vllm-project/tpu-inference", ".", "tpu_inference/models/common/model_loader.py",
                            "2025-05-01", "2026-09-01", by_strings=True),
    "vllm-gaudi": Target("github:vllm-project/vllm-gaudi", ".", "vllm_gaudi/models/__init__.py",
                         "2025-06-01", "2026-09-01", by_strings=True),
    "vllm-ascend": Target("github:vllm-project/vllm-ascend", ".", "vllm_ascend/models/__init__.py",
                          "2025-01-01", "2026-09-01", by_strings=True),
    # registers by model type, one decorated class per model package (`@ModelRegistry("qwen3")`)
    "lightllm": Target("github:ModelTC/LightLLM", ".", "lightllm/models/", "2024-06-01", "2026-09-01",
                       module="model.py"),
}

_KEY = r"""^{sign}\s*["']([A-Z]\w+)["']\s*:"""


def registered_keys(diff: str) -> List[str]:
    """The architecture-shaped keys a diff of a registry dict adds (and does not also remove: a key moved)."""
    added = set(re.findall(_KEY.format(sign=r"\+"), diff, re.M))
    return sorted(added - set(re.findall(_KEY.format(sign="-"), diff, re.M)))


_ARCHITECTURE_STRING = re.compile(r"""["']([A-Z][A-Za-z0-9_]*)["']""")


def registered_strings(before: str, after: str) -> List[str]:
    """The architecture-shaped string literals (a capital first, no dot) a registry file holds after a commit and
    not before: what a file of `register_model("X", "pkg.mod:Cls")` calls or `REGISTRY["X"] = Cls` stores gains,
    which a diff line cannot say when a call spans lines."""
    return sorted(set(_ARCHITECTURE_STRING.findall(after)) - set(_ARCHITECTURE_STRING.findall(before)))


def added_models(paths: List[str], module: str = "") -> List[str]:
    """The models a package gains with these added files: each module (`qwen3.py`), or, where a model is a package
    of its own, each package that gains a module named `module` (`qwen3/model.py` -> `qwen3`)."""
    if not module:
        return [path.rsplit("/", 1)[-1] for path in paths if path.endswith(".py")]
    return [path.rsplit("/", 2)[-2] for path in paths if path.rsplit("/", 1)[-1] == module]


def _file_at(git_dir: Path, commit: str, path: str) -> str:
    try:
        return git(git_dir, "show", f"{commit}:{path}").decode("utf-8", "replace")
    except subprocess.CalledProcessError:  # the file is new in the commit
        return ""


def commits(git_dir: Path, target: Target) -> List[Tuple[str, str, List[str]]]:
    """(commit, parent, what it adds) of each first-parent commit in the span that registers something."""
    path = target.registry if target.root in ("", ".") else f"{target.root}/{target.registry}"
    log = git(git_dir, "log", "--first-parent", "--format=%H %P", f"--since={target.since}",
              f"--until={target.until}", "HEAD", "--", path).decode().splitlines()
    found = []
    for line in log:
        commit, *parents = line.split()
        if not parents:
            continue
        if target.registry.endswith("/"):
            added = git(git_dir, "diff", "--name-only", "--diff-filter=A", parents[0], commit, "--", path).decode()
            new = added_models(added.split(), target.module)
        elif target.by_strings:
            new = registered_strings(_file_at(git_dir, parents[0], path), _file_at(git_dir, commit, path))
        else:
            new = registered_keys(git(git_dir, "diff", parents[0], commit, "--", path).decode("utf-8", "replace"))
        if new:
            found.append((commit, parents[0], new))
    return found


def sweep(project: str, target: Target, mirrors: Path, work: Path, archsync: Sequence[str], limit: int = 0,
          progress=lambda message: print(message, file=sys.stderr, flush=True),
          hosts: Optional[Dict[str, Path]] = None) -> List[dict]:
    """One record per commit that registers something: what it adds, and every finding with its judgement.
    `hosts`: host package -> its mirror, to check a plugin against its host as of the commit's date."""
    git_dir = mirror_dir(mirrors, target.mirror)
    if git_dir is None:
        raise SystemExit(f"no mirror of {target.mirror} under {mirrors}")
    reference = reference_commit(git_dir, project)
    records = []
    for commit, parent, new in commits(git_dir, target)[:limit or None]:
        tree = change_tree(git_dir, parent, commit, target.root, work, work / f"sweep-{commit[:12]}")
        try:
            command = (archsync_as_of(tree, git_dir, commit, hosts, work) if hosts else None) or archsync
            diagnostics = run_archsync(command, tree, extra=("--baseline-commit", "HEAD"))["diagnostics"]
        finally:  # a tree of vLLM is 50 MB: none is kept
            for done in (work / f"sweep-{commit[:12]}", *work.glob(f"*-{commit[:12]}"), *work.glob(f"*-{parent[:12]}")):
                shutil.rmtree(done, ignore_errors=True)
        found = [{**{k: d.get(k) for k in ("code", "path", "line", "subject", "member", "message")},
                  "confirmed": confirmed_later(git_dir, commit, reference, target.root, d)}
                 for d in diagnostics if not d.get("code", "").startswith("ARC9")]
        progress(f"{project} {commit[:12]}: {len(new)} new, {len(found)} finding(s)")
        records.append({"project": project, "commit": commit, "parent": parent, "new": new, "found": found})
    return records


def markdown(records: Sequence[dict]) -> str:
    """A row per project (commits, findings, judged, confirmed), then each finding."""
    lines = ["| project | commits | findings | judged by later history | confirmed |", "|---|---:|---:|---:|---:|"]
    for project in dict.fromkeys(r["project"] for r in records):
        mine = [r for r in records if r["project"] == project]
        found = [d for r in mine for d in r["found"]]
        lines.append(f"| {project} | {len(mine)} | {len(found)} | {sum(d['confirmed'] is not None for d in found)} "
                     f"| {sum(d['confirmed'] is True for d in found)} |")
    lines += ["", "| project | commit | code | subject | name | confirmed |", "|---|---|---|---|---|---|"]
    lines += [f"| {r['project']} | {r['commit'][:12]} | {d['code']} | {d['subject']} | {d['member']} | "
              f"{'-' if d['confirmed'] is None else d['confirmed']} |" for r in records for d in r["found"]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history.sweep", description=__doc__)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"),
                        help="directory of bare git mirrors, <owner>+<name>/repo")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "archsync-sweep",
                        help="where commit trees are extracted; never inside the repository")
    parser.add_argument("--project", action="append", choices=sorted(TARGETS), help="only these (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many commits a project (0: all)")
    parser.add_argument("--archsync", help="the archsync executable (default: next to this interpreter)")
    parser.add_argument("--json", type=Path, help="also write every record here")
    parser.add_argument("--host-as-of-commit", action="append", default=[], metavar="HOST=MIRROR",
                        help="check a plugin against its host as of each commit's date, from this mirror under "
                             "--mirrors (e.g. vllm=local-inference-lab+vllm); default: archsync's shipped snapshot")
    args = parser.parse_args()
    repo = Path(__file__).resolve().parents[2]
    work = args.work.resolve()
    if work == repo or repo in work.parents:
        parser.error(f"--work {work} is inside the repository; trees stay outside it")
    archsync = [args.archsync] if args.archsync else default_archsync()
    hosts = host_mirrors(args.host_as_of_commit, args.mirrors)
    records = [record for project in args.project or sorted(TARGETS)
               for record in sweep(project, TARGETS[project], args.mirrors, work, archsync, args.limit, hosts=hosts)]
    print(markdown(records))
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
