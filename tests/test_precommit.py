"""The pre-commit hooks in .pre-commit-hooks.yaml, run by real `pre-commit` on temporary git repositories.

pre-commit installs a hook repository from a git commit, so the current working tree of
this repository (committed or not) is copied and committed into a temporary repository
first. pre-commit then builds its own virtualenv and pip-installs that commit into it, as
it would for a user: this needs a package index for the dependencies (libcst, flake8).

`pre-commit run` and `git commit` with a `.pre-commit-config.yaml` build each hook environment once
into the module's one PRE_COMMIT_HOME (`try-repo` would build a fresh one on every call: the hooks are
run through a configuration naming the same repository and rev instead). pre-commit builds one per
repository and rev, so every configuration here names the release tag the README's recipe names
(`v0.1.0`, tagged in the copy): a commit of the same tree would build a second, identical one.

The README's pre-commit section shows three recipes; each is run here as the README writes it,
with only its placeholders replaced (this repository's path for its URL or clone, a real commit
for `COMMIT`), through `pre-commit install` and a real `git commit`.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from conftest import FIXTURES, REPO, SGLANG_PATCH, Result, copy_tree
from lint_plugin import __version__

pytest.importorskip("pre_commit", reason="needs pre-commit (pip install pre-commit)")

TIMEOUT = 900
OVERRIDES = "sglang/srt/arg_groups/overrides.py"
CHECK_HOOK = "archsync (architecture lists in sync)"
FIX_HOOK = "archsync fix (add missing names, drop duplicates)"
_NO_INDEX = ("No matching distribution found", "Could not find a version that satisfies",
             "Temporary failure in name resolution", "NewConnectionError", "Network is unreachable")


def _env(home: Path) -> Dict[str, str]:
    env = dict(os.environ)
    for key in ("PYTHONPATH", "PRE_COMMIT", "PRE_COMMIT_CONFIG", "SKIP", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(key, None)
    env.update({
        "PRE_COMMIT_HOME": str(home),
        "PRE_COMMIT_COLOR": "never",
        "GIT_AUTHOR_NAME": "archsync tests", "GIT_AUTHOR_EMAIL": "tests@archsync.invalid",
        "GIT_COMMITTER_NAME": "archsync tests", "GIT_COMMITTER_EMAIL": "tests@archsync.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    return env


def _git(*args: str, cwd: Path, env: Dict[str, str]) -> str:
    proc = subprocess.run(["git", *args], cwd=str(cwd), env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"git {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}"
    return proc.stdout


def _commit_all(root: Path, env: Dict[str, str], message: str = "snapshot") -> str:
    if not (root / ".git").exists():
        _git("init", "-q", "-b", "main", cwd=root, env=env)
    _git("add", "-A", cwd=root, env=env)
    _git("commit", "-q", "--no-verify", "-m", message, cwd=root, env=env)
    return _git("rev-parse", "HEAD", cwd=root, env=env).strip()


def readme_recipes() -> Dict[str, str]:
    """The README's pre-commit recipes, as written, by kind: every YAML block of its pre-commit section."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## pre-commit\n", 1)[1].split("\n## ", 1)[0]
    recipes: Dict[str, str] = {}
    for block in re.findall(r"```yaml\n(.*?)```", section, flags=re.S):
        kind = ("system" if "language: system" in block else "python" if "language: python" in block
                else "repository" if "repo: https://" in block else "unknown")
        assert kind not in recipes, f"two {kind} recipes in the README:\n{block}"
        recipes[kind] = block
    assert sorted(recipes) == ["python", "repository", "system"], recipes  # a new recipe needs its test here
    return recipes


class Workspace:
    """A hook repository (this repo's working tree, committed) and projects beside it."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.home = base / "pre-commit-home"
        self.env = _env(self.home)
        self.hooks = base / "hooks"
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                cwd=str(REPO), capture_output=True, check=True).stdout.decode().split("\0")
        for rel in filter(None, listed):
            source = REPO / rel
            if source.is_file():  # not a tracked file deleted in the working tree
                (self.hooks / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, self.hooks / rel)
        assert (self.hooks / ".pre-commit-hooks.yaml").is_file()
        self.rev = _commit_all(self.hooks, self.env)
        self.tag = "v" + __version__  # as a release would be tagged
        _git("tag", self.tag, cwd=self.hooks, env=self.env)

    def recipe(self, kind: str) -> str:
        """A README recipe with its placeholders replaced: this repository's clone, a real commit."""
        text = readme_recipes()[kind]
        placeholders = {
            "system": {},
            "python": {"/path/to/flake8-archsync": str(self.hooks), "@COMMIT": "@" + self.rev},
            # the recipe names the current release's tag (`rev: v0.1.0`), which the copy has, as written
            "repository": {"https://github.com/OWNER/flake8-archsync": str(self.hooks),
                           f"rev: {self.tag} ": f"rev: {self.tag} "},
        }[kind]
        for placeholder, value in placeholders.items():
            assert text.count(placeholder) == 1, (placeholder, text)
            text = text.replace(placeholder, value)
        return text

    def commit(self, message: str, cwd: Path, env: Dict[str, str]) -> Result:
        """`git commit`, which runs the installed hook; git passes the hook's output on to stderr."""
        proc = subprocess.run(["git", "commit", "-q", "-m", message], cwd=str(cwd), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
        return self._checked(Result(("git", "commit", "-m", message), proc.returncode, proc.stdout, ""))

    def project(self, fixture: str, name: str) -> Path:
        """A git repository holding a copy of a fixture tree, everything committed."""
        root = copy_tree(FIXTURES / fixture, self.base / name)
        _commit_all(root, self.env, "initial")
        return root

    def pre_commit(self, *args: str, cwd: Path, env: Optional[Dict[str, str]] = None) -> Result:
        proc = subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=str(cwd), env=env or self.env,
                              capture_output=True, text=True, timeout=TIMEOUT)
        return self._checked(Result(("pre-commit", *args), proc.returncode, proc.stdout, proc.stderr))

    def _checked(self, result: Result) -> Result:
        if result.returncode != 0 and any(marker in result.stdout + result.stderr for marker in _NO_INDEX):
            log = self.home / "pre-commit.log"
            pytest.skip("pre-commit could not install the hook environment (no package index reachable):\n"
                        + str(result) + (log.read_text() if log.exists() else ""))
        return result

    def run_hook(self, hook: str, *args: str, cwd: Path) -> Result:
        """`pre-commit run HOOK` with a configuration outside the project that names this repository's tag."""
        config = self.base / f"run-{hook}.yaml"
        config.write_text(f"repos:\n  - repo: {self.hooks}\n    rev: {self.tag}\n    hooks:\n      - id: {hook}\n",
                          encoding="utf-8")
        return self.pre_commit("run", "--config", str(config), hook, *args, cwd=cwd)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("precommit"))


def hook_output(result: Result) -> List[str]:
    """The lines a hook printed: what follows pre-commit's `- exit code:` / `- files were modified` header."""
    lines = result.stdout.splitlines()
    return [line for line in lines if line.startswith("sglang/") or line.startswith("archsync:")]


def status_line(result: Result, name: str) -> str:
    (line,) = [line for line in result.stdout.splitlines() if line.startswith(name + ".")]
    return line


def assert_no_traceback(result: Result) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result
    assert "An unexpected error has occurred" not in result.stdout + result.stderr, result


def test_manifest_defines_both_hooks_judging_the_whole_project():
    from pre_commit.clientlib import load_manifest

    hooks = {hook["id"]: hook for hook in load_manifest(str(REPO / ".pre-commit-hooks.yaml"))}
    assert set(hooks) == {"archsync", "archsync-fix"}
    assert hooks["archsync"]["entry"] == "archsync check"
    assert hooks["archsync-fix"]["entry"] == "archsync fix"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False, hook  # the whole project, never just the staged files
        assert hook["always_run"] is True, hook  # even when no Python file is staged
        assert hook["require_serial"] is True, hook


@pytest.mark.e2e
def test_the_hook_fails_on_the_seed_bug_with_its_finding(workspace):
    project = workspace.project("sglang_qwen3_5/bug", "bug-all-files")
    result = workspace.run_hook("archsync", "--all-files", cwd=project)
    assert_no_traceback(result)
    assert result.returncode == 1, result
    assert status_line(result, CHECK_HOOK).endswith("Failed"), result
    assert "- hook id: archsync\n- exit code: 1\n" in result.stdout, result
    assert hook_output(result) == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
        "archsync: 1 problem (17 files, 3 analysed)",
    ], result


@pytest.mark.e2e
def test_the_hook_judges_the_whole_project_when_only_a_models_file_is_staged(workspace):
    project = workspace.project("sglang_qwen3_5/bug", "bug-staged")
    model = project / "sglang/srt/models/qwen3_next.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n# a comment-only change\n", encoding="utf-8")
    _git("add", "sglang/srt/models/qwen3_next.py", cwd=project, env=workspace.env)
    result = workspace.run_hook("archsync", cwd=project)  # staged files only: one models file
    assert_no_traceback(result)
    assert result.returncode == 1, result
    assert status_line(result, CHECK_HOOK).endswith("Failed"), result
    # The drift is in overrides.py, which is not staged: it is reported all the same.
    assert hook_output(result)[:1] == [
        "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
        "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    ], result


def _write_config(project: Path, workspace: Workspace) -> None:
    """The README's repository recipe, its URL a clone of this repository (its rev the tag, as written)."""
    (project / ".pre-commit-config.yaml").write_text(workspace.recipe("repository"), encoding="utf-8")
    _git("add", ".pre-commit-config.yaml", cwd=project, env=workspace.env)


@pytest.mark.e2e
def test_config_recipe_passes_on_the_fixed_tree_and_catches_a_models_only_commit(workspace):
    project = workspace.project("sglang_qwen3_5/fixed", "fixed")
    _write_config(project, workspace)
    clean = workspace.pre_commit("run", "--all-files", cwd=project)
    assert_no_traceback(clean)
    assert clean.returncode == 0, clean
    assert status_line(clean, CHECK_HOOK).endswith("Passed"), clean
    _git("commit", "-q", "--no-verify", "-m", "pre-commit config", cwd=project, env=workspace.env)

    # Nothing staged at all: the hook still runs (always_run) and passes.
    nothing = workspace.pre_commit("run", cwd=project)
    assert nothing.returncode == 0 and status_line(nothing, CHECK_HOOK).endswith("Passed"), nothing

    # A commit that edits only models/: it unregisters a variant that two whitelists in
    # another file (and the family predicate) still name.
    model = project / "sglang/srt/models/qwen3_5_text.py"
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace("EntryClass = [Qwen3_5MoeForCausalLM, Qwen3_5ForCausalLM]",
                                  "EntryClass = [Qwen3_5ForCausalLM]"), encoding="utf-8")
    assert model.read_text(encoding="utf-8") != text
    _git("add", "sglang/srt/models/qwen3_5_text.py", cwd=project, env=workspace.env)
    broken = workspace.pre_commit("run", cwd=project)
    assert_no_traceback(broken)
    assert broken.returncode == 1, broken
    assert status_line(broken, CHECK_HOOK).endswith("Failed"), broken
    assert hook_output(broken) == [
        "sglang/srt/arg_groups/overrides.py:42:9: ARC201 'Qwen3_5MoeForCausalLM' in _MAMBA_RADIX_CACHE_ARCHS "
        "is not a registered architecture (its class is defined beside a registration that leaves it out)",
        "sglang/srt/arg_groups/overrides.py:57:9: ARC201 'Qwen3_5MoeForCausalLM' in _MAMBA_EXTRA_BUFFER_ARCHS "
        "is not a registered architecture (its class is defined beside a registration that leaves it out)",
        "sglang/srt/configs/model_config.py:23:9: ARC201 'Qwen3_5MoeForCausalLM' in is_qwen3_5() "
        "is not a registered architecture (its class is defined beside a registration that leaves it out)",
        "archsync: 3 problems (17 files, 3 analysed)",
    ], broken


@pytest.mark.e2e
def test_fix_hook_edits_the_whitelists_then_the_check_hook_passes(workspace):
    project = workspace.project("sglang_qwen3_5/bug", "bug-fix")
    _write_config(project, workspace)
    _git("commit", "-q", "--no-verify", "-m", "pre-commit config", cwd=project, env=workspace.env)
    fixed = workspace.pre_commit("run", "archsync-fix", "--all-files", "--hook-stage", "manual", cwd=project)
    assert_no_traceback(fixed)
    assert fixed.returncode == 1, fixed  # pre-commit fails a hook that modified files
    assert status_line(fixed, FIX_HOOK).endswith("Failed"), fixed
    assert "- files were modified by this hook" in fixed.stdout, fixed
    assert "archsync: fixed 1 problem in 1 file; 0 remaining" in fixed.stdout, fixed
    changed = _git("diff", "--name-only", cwd=project, env=workspace.env).split()
    assert changed == ["sglang/srt/arg_groups/overrides.py"], fixed
    text = (project / OVERRIDES).read_text(encoding="utf-8")
    for collection in ("_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS"):
        body = text.split(f"{collection} = frozenset(", 1)[1].split("})", 1)[0]
        assert '"Qwen3_5ForCausalLM"' in body and '"Qwen3_5MoeForCausalLM"' in body, body

    _git("add", "-A", cwd=project, env=workspace.env)
    check = workspace.pre_commit("run", cwd=project)
    assert check.returncode == 0, check
    assert status_line(check, CHECK_HOOK).endswith("Passed"), check


SEED_FINDINGS = [
    "sglang/srt/arg_groups/overrides.py:35:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
    "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_RADIX_CACHE_ARCHS; the same for "
    "'Qwen3_5MoeForCausalLM' there, and for 'Qwen3_5ForCausalLM', 'Qwen3_5MoeForCausalLM' in "
    "_MAMBA_EXTRA_BUFFER_ARCHS (line 48)",
    "archsync: 1 problem (17 files, 3 analysed)",
]
RECIPE_HOOK = {"system": "archsync", "python": "archsync", "repository": CHECK_HOOK}  # the name pre-commit prints


@pytest.mark.parametrize("kind", ["system", "python", "repository"])
@pytest.mark.e2e
def test_each_readme_recipe_fails_a_commit_that_drifts_and_passes_once_fixed(workspace, kind):
    project = workspace.project("sglang_qwen3_5/bug", f"recipe-{kind}")
    env = dict(workspace.env)
    if kind == "system":  # archsync on PATH, as in the activated virtualenv a user commits from
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    (project / ".pre-commit-config.yaml").write_text(workspace.recipe(kind), encoding="utf-8")
    installed = workspace.pre_commit("install", cwd=project, env=env)
    assert installed.returncode == 0, installed
    _git("add", ".pre-commit-config.yaml", cwd=project, env=env)
    head = _git("rev-parse", "HEAD", cwd=project, env=env)

    refused = workspace.commit("run archsync on every commit", cwd=project, env=env)
    assert_no_traceback(refused)
    assert refused.returncode == 1, refused
    assert status_line(refused, RECIPE_HOOK[kind]).endswith("Failed"), refused
    assert "- hook id: archsync\n- exit code: 1\n" in refused.stdout, refused
    assert hook_output(refused) == SEED_FINDINGS, refused
    assert _git("rev-parse", "HEAD", cwd=project, env=env) == head, "the commit was made"

    _git("apply", "-p1", str(SGLANG_PATCH), cwd=project, env=env)  # the upstream fix
    _git("add", "-A", cwd=project, env=env)
    passed = workspace.commit("add the text-only Qwen3.5 variants to the mamba whitelists", cwd=project, env=env)
    assert passed.returncode == 0, passed
    assert status_line(passed, RECIPE_HOOK[kind]).endswith("Passed"), passed
    assert _git("log", "--format=%s", "-1", cwd=project, env=env) == \
        "add the text-only Qwen3.5 variants to the mamba whitelists\n"


def test_the_local_recipes_define_the_hook_as_the_manifest_does():
    import yaml
    from pre_commit.clientlib import load_manifest

    (manifest,) = [h for h in load_manifest(str(REPO / ".pre-commit-hooks.yaml")) if h["id"] == "archsync"]
    for kind in ("system", "python"):
        (repo,) = yaml.safe_load(readme_recipes()[kind])["repos"]
        (hook,) = repo["hooks"]
        assert repo["repo"] == "local" and hook["id"] == "archsync", hook
        for key in ("entry", "pass_filenames", "always_run", "require_serial"):
            assert hook[key] == manifest[key], (kind, key, hook)
