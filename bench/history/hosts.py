"""A plugin's parent commit checked against its host as the host was then, not as archsync's snapshot has it.

archsync ships one snapshot of vLLM (`lint_plugin/hosts/vllm.json`). Replaying a vllm-ascend fix from
January against a snapshot from May would let the host's later lists tell the plugin what to add: a
leak from the future. With `--host-as-of-parent vllm=<mirror>`, a case whose tree declares the host's
plugin entry points is checked by a copy of this checkout's `lint_plugin` whose snapshot of the host
is written (by `lint_plugin.frontends.host_snapshot`, this checkout's) from the host's newest commit
before the parent's commit date. Copies are kept under `--work`, one per host commit and code. The
sweep's `--host-as-of-commit` does the same at each commit that registers a model.
"""
from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Dict, List, Optional

from lint_plugin.project.hosts import declared_hosts

REPO = Path(__file__).resolve().parents[2]


def host_mirrors(specs: List[str], mirrors: Path) -> Dict[str, Path]:
    """`vllm=local-inference-lab+vllm` -> {"vllm": <mirrors>/local-inference-lab+vllm/repo}."""
    found = {}
    for spec in specs:
        host, _, name = spec.partition("=")
        git_dir = mirrors / name / "repo"
        if not host or not (git_dir / "HEAD").is_file():
            raise SystemExit(f"host {spec}: no mirror {git_dir}")
        found[host] = git_dir
    return found


def archsync_as_of(tree: Path, parent_git: Path, parent: str, hosts: Dict[str, Path], work: Path,
                   ) -> Optional[List[str]]:
    """The archsync command for `tree` with its declared host as of the parent's date; None if it declares none
    of `hosts` (the case runs with the shipped snapshot, or none)."""
    declared = [h for h in declared_hosts(tree) if h in hosts]
    if not declared:
        return None
    host = declared[0]
    when = _git(parent_git, "show", "-s", "--format=%cI", parent).strip()
    commit = _git(hosts[host], "rev-list", "-1", f"--before={when}", "HEAD").strip()
    date = _git(hosts[host], "show", "-s", "--format=%cs", commit).strip()
    tool = work / "hosts" / f"{host}-{commit[:12]}-{_code_digest()}"
    if not (tool / ".done").is_file():
        source = tool / "source"
        data = subprocess.run(["git", "--git-dir", str(hosts[host]), "archive", "--format=tar", commit, "--", host,
                               "setup.py", "pyproject.toml"], check=True, capture_output=True).stdout
        source.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            archive.extractall(source, members=[m for m in archive.getmembers() if m.isfile()
                                                and not m.name.startswith("/") and ".." not in Path(m.name).parts])
        shutil.rmtree(tool / "lint_plugin", ignore_errors=True)
        shutil.copytree(REPO / "lint_plugin", tool / "lint_plugin", ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run([sys.executable, "-m", "lint_plugin.frontends.host_snapshot", host, str(source),
                        "--repository", hosts[host].parent.name.replace("+", "/"), "--commit", commit, "--date", date,
                        "--out", str(tool / "lint_plugin" / "hosts" / f"{host}.json")],
                       check=True, capture_output=True, cwd=str(tool), env=dict(os.environ, PYTHONPATH=str(REPO)))
        shutil.rmtree(source)
        (tool / ".done").write_text(commit, encoding="utf-8")
    return ["env", f"PYTHONPATH={tool}", sys.executable, "-m", "lint_plugin.frontends.cli"]


@functools.lru_cache(maxsize=None)  # the checkout does not change during a replay: hashed once
def _code_digest() -> str:
    """This checkout's `lint_plugin`, as a short digest: a copy made by other code is made again."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted((REPO / "lint_plugin").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout.decode()
