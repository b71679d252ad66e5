"""The README's GitHub Actions jobs, their `run:` steps executed as written (issue 16: every recipe is run).

GitHub runs each step with `bash --noprofile --norc -eo pipefail`; so does this test, in a git
repository of the seed bug tree whose `origin/main` is the pull request's base. The
`pip install` step is this test environment's own installation of archsync (on PATH);
`uses:` steps are GitHub's and not run.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
import yaml

from conftest import REPO, write

pytestmark = pytest.mark.e2e  # every test here runs a real process

BIN = Path(sys.executable).parent
NEW_DRIFT = '_NEW_ARCHS = ["FalconH1ForCausalLM", "FalconH1ForCausalLM"]\n'


def jobs() -> Dict[str, dict]:
    """The README's workflow files, by their name."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## GitHub Actions\n", 1)[1].split("\n## ", 1)[0]
    found = {}
    for block in re.findall(r"```yaml\n(.*?)```", section, flags=re.S):
        workflow = yaml.safe_load(block)
        found[workflow["name"]] = workflow["jobs"]["archsync"]
    return found


def run_steps(job: dict, cwd: Path, env: Dict[str, str]) -> List[subprocess.CompletedProcess]:
    """Each `run:` step but the installation, in order, stopping at the first failure unless `if: always()`."""
    done: List[subprocess.CompletedProcess] = []
    for step in job["steps"]:
        if "run" not in step or step["run"].startswith("pip install"):
            continue
        if done and done[-1].returncode != 0 and step.get("if") != "always()":
            continue
        full = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", GITHUB_OUTPUT=os.devnull)
        full.update(step.get("env", {}))
        full.update(env)  # what GitHub's expressions (`${{ github.base_ref }}`) stand for
        done.append(subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                   cwd=cwd, env=full, capture_output=True, text=True, timeout=180))
    return done


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", *args], cwd=cwd, check=True,
                   capture_output=True, timeout=60)


def repository(tree) -> Path:
    root = tree("sglang_qwen3_5/bug")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "base", cwd=root)
    git("update-ref", "refs/remotes/origin/main", "HEAD", cwd=root)  # as actions/checkout with fetch-depth: 0
    return root


def test_the_annotation_and_sarif_job_fails_on_drift_and_writes_the_sarif(tree):
    root = repository(tree)
    version, annotations, sarif = run_steps(jobs()["archsync"], root, {})
    assert version.returncode == 0, version  # the cache's key
    assert annotations.returncode == 1, annotations
    where = [line.split("::")[1] for line in annotations.stdout.splitlines()]
    overrides = "error file=sglang/srt/arg_groups/overrides.py"
    assert where == [f"{overrides},line=35,col=1,title=ARC101 family-member-missing"]  # one cause, both lists
    assert sarif.returncode == 0, sarif  # findings are exit 1, which the step accepts; the upload still runs
    results = json.loads((root / "archsync.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert [(r["ruleId"], len(r["relatedLocations"])) for r in results] == [("ARC101", 3)]


def test_the_pull_request_job_fails_on_the_new_drift_alone(tree):
    root = repository(tree)
    write(root / "sglang/srt/layers/new.py", NEW_DRIFT)
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "the pull request", cwd=root)
    (step,) = run_steps(jobs()["archsync (new drift only)"], root, {"BASE": "main"})
    assert step.returncode == 1, step
    assert step.stdout.splitlines() == [
        "::warning file=sglang/srt/layers/new.py,line=1,col=38,title=ARC301 duplicate-member::ARC301 "
        "'FalconH1ForCausalLM' is listed twice in _NEW_ARCHS (first at line 1)"], step
    (root / "sglang/srt/layers/new.py").unlink()
    git("commit", "-q", "-am", "no new drift", cwd=root)
    (clean,) = run_steps(jobs()["archsync (new drift only)"], root, {"BASE": "main"})
    assert (clean.returncode, clean.stdout) == (0, ""), clean
