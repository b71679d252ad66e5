"""Monorepos (issue 16, part 3): a run from a repository root gives what a run inside each project gives.

A project is a directory holding a pyproject.toml; each is checked alone with its own
`[tool.archsync]`. Driven through the real `archsync` and `flake8` on `fixtures/monorepo`
(a root without a pyproject.toml, as SGLang's: `python/`, `kernels/`, and
`python/svc/kernels/aot/`, a distribution kept inside the package tree), and on a copy of
the seed bug tree placed in `python/` under a root that holds no pyproject.toml.
"""
from __future__ import annotations

import os

import pytest

from conftest import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, archsync, flake8, flake8_lines, only, set_config, write

KERNELS = ("kernels/tinykern/__init__.py:3:62: ARC301 'QuebecForCausalLM' is listed twice in _SUPPORTED_ARCHS "
           "(first at line 3)")
TABLES = ("python/svc/tables.py:4:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (python/svc/families.py:9) "
          "but missing from _CUDA_GRAPH_ARCHS")
AOT = ("python/svc/kernels/aot/aot_kernels/__init__.py:3:36: ARC301 'PapaForCausalLM' is listed twice in "
       "_TUNED_ARCHS (first at line 3)")


@pytest.fixture
def repo(tree):
    return tree("monorepo")


def inside(line: str, project: str) -> str:
    """A root-run line as a run inside `project` prints it: every path it names without the project's directory."""
    assert line.startswith(project + "/")
    return line.replace(project + "/", "")


def test_each_project_gives_from_the_root_what_it_gives_inside(repo):
    from_root = archsync("check", cwd=repo)
    assert (from_root.returncode, from_root.lines) == (EXIT_FINDINGS, [KERNELS, AOT, TABLES]), from_root
    assert from_root.err_lines == ["archsync: 3 problems (8 files in 3 projects, 4 analysed; "
                                   "1 in no project, not checked)"], from_root
    python = archsync("check", cwd=repo / "python")
    assert python.lines == [inside(AOT, "python"), inside(TABLES, "python")], python
    assert archsync("check", cwd=repo / "kernels").lines == [inside(KERNELS, "kernels")]
    aot = archsync("check", cwd=repo / "python/svc/kernels/aot")
    assert aot.lines == [inside(AOT, "python/svc/kernels/aot")], aot


def test_a_project_nested_in_a_package_is_not_part_of_it(repo):
    """svc never indexes aot_kernels: its list is checked once, in its own project, from every front end."""
    inventory = archsync("inventory", "--format", "json", cwd=repo / "python").json
    assert not any("aot" in subject["path"] for subject in inventory["subjects"]), inventory
    assert flake8_lines(flake8("python", cwd=repo)) == [AOT, TABLES]
    assert flake8_lines(flake8(".", cwd=repo / "python/svc/kernels/aot")) == [inside(AOT, "python/svc/kernels/aot")]


def test_flake8_from_the_root_prints_what_check_prints(repo):
    assert flake8_lines(flake8(".", cwd=repo)) == [KERNELS, AOT, TABLES]


def test_the_configuration_of_each_project_applies_from_the_root(repo):
    """The exemption in python/pyproject.toml holds from the root; a configuration error there is an error."""
    assert only("ARC101", archsync("check", cwd=repo).lines) == [TABLES]
    set_config(repo / "python", 'guard = ["_FP8_ARCHS"]\n')
    assert only("ARC101", archsync("check", cwd=repo).lines) == [TABLES.replace(":4:1:", ":3:1:").replace(
        "_CUDA_GRAPH_ARCHS", "_FP8_ARCHS")]
    set_config(repo / "python", 'srcs = ["."]\n')
    error = f"archsync: error: {(repo / 'python/pyproject.toml').resolve()}: tool.archsync.srcs: unknown key"
    for args in (["check"], ["check", "kernels", "python"], ["fix"]):
        broken = archsync(*args, cwd=repo)
        assert broken.returncode == EXIT_ERROR and broken.err_lines[0].startswith(error), (args, broken)


def test_the_seed_tree_below_a_root_without_pyproject_is_checked_with_its_configuration(tree, tmp_path):
    """SGLang's layout: the repository root has no pyproject.toml, python/ has it and [tool.archsync]."""
    python = tree("sglang_qwen3_5/bug", into="sglang/python")
    write(tmp_path / "sglang/test/srt/test_models.py", '_ARCHS = ["Qwen3_5ForCausalLM", "Qwen3_5ForCausalLM"]\n')
    set_config(python, '[[tool.archsync.exempt]]\nsubject = "_MAMBA_RADIX_CACHE_ARCHS"\nmembers = ["*"]\n'
                       'reason = "checked by a test"\n')
    inside_python = archsync("check", cwd=python)
    from_root = archsync("check", cwd=tmp_path / "sglang")
    assert inside_python.lines == [
        "sglang/srt/arg_groups/overrides.py:48:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there",
    ], inside_python
    # From the repository root, every path starts with python/: the family's in the message too.
    assert from_root.lines == [
        "python/sglang/srt/arg_groups/overrides.py:48:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
        "(python/sglang/srt/configs/model_config.py:18) but missing from _MAMBA_EXTRA_BUFFER_ARCHS; the same for "
        "'Qwen3_5MoeForCausalLM' there",
    ], from_root
    assert from_root.err_lines[-1].endswith("; 1 in no project, not checked)"), from_root


def test_a_file_in_no_project_is_checked_alone_when_named(repo):
    write(repo / "test/test_models.py", '_SMOKE_ARCHS = ["OscarForCausalLM", "OscarForCausalLM"]\n')
    named = archsync("check", "test/test_models.py", cwd=repo)
    assert named.lines == ["test/test_models.py:1:37: ARC301 'OscarForCausalLM' is listed twice in _SMOKE_ARCHS "
                           "(first at line 1)"], named
    assert archsync("check", cwd=repo).lines == [KERNELS, AOT, TABLES]


def test_several_paths_in_several_projects(repo):
    both = archsync("check", "kernels", "python/svc/tables.py", cwd=repo)
    assert (both.lines, both.err_lines) == ([KERNELS, TABLES], [
        "archsync: 2 problems (7 files in 2 projects, 3 analysed)"]), both
    mixed = archsync("check", "kernels", "test/test_models.py", cwd=repo)
    assert (mixed.returncode, mixed.err_lines) == (EXIT_ERROR, [
        "archsync: error: test/test_models.py is in no project (no pyproject.toml above or below it); "
        "check it on its own"]), mixed


def test_fix_from_the_root_fixes_each_project_and_the_diff_applies_from_here(repo):
    diff = archsync("fix", "--diff", cwd=repo)
    headers = [line for line in diff.lines if line.startswith("+++ ")]
    assert headers == ["+++ b/kernels/tinykern/__init__.py", "+++ b/python/svc/tables.py",
                       "+++ b/python/svc/kernels/aot/aot_kernels/__init__.py"], diff  # project by project
    assert diff.err_lines == ["archsync: would fix 3 problems in 3 files; 0 remaining"], diff
    fixed = archsync("fix", cwd=repo)
    assert (fixed.returncode, fixed.err_lines) == (EXIT_CLEAN, [
        "archsync: fixed 3 problems in 3 files; 0 remaining"]), fixed
    assert (repo / "python/svc/tables.py").read_text(encoding="utf-8").splitlines()[-1] == (
        '_CUDA_GRAPH_ARCHS = frozenset({"OscarForCausalLM", "OscarMoeForCausalLM"})')
    assert archsync("check", cwd=repo).returncode == EXIT_CLEAN


def test_fix_path_inside_one_project_edits_only_there(repo):
    fixed = archsync("fix", "kernels", cwd=repo)
    assert fixed.err_lines == ["archsync: fixed 1 problem in 1 file; 0 remaining"], fixed
    assert archsync("check", cwd=repo).lines == [AOT, TABLES]


@pytest.mark.parametrize("command", [["inventory"], ["show"], ["show", "--format", "markdown"]])
def test_a_view_from_above_several_projects_shows_each_as_from_inside(repo, command):
    """As `check` covers every project under the root, a view shows each one, headed by its directory, and
    says of each what a run inside it says (paths seen from where the command runs)."""
    result = archsync(*command, cwd=repo)
    assert result.returncode == EXIT_CLEAN, result
    heading = "## {}" if "markdown" in command else "Project {}:"
    sections = {}
    for line in result.lines:
        for project in ("kernels", "python", "python/svc/kernels/aot"):
            if line == heading.format(project):
                sections[project] = []
                break
        else:
            list(sections.values())[-1].append(line)
    assert list(sections) == ["kernels", "python", "python/svc/kernels/aot"], result
    inside_python = archsync(*command, "python", cwd=repo)
    assert inside_python.returncode == EXIT_CLEAN, inside_python
    assert [line for line in sections["python"] if line] == [line for line in inside_python.lines if line]


def test_inventory_json_from_above_several_projects_holds_each_document(repo):
    documents = archsync("inventory", "--format", "json", cwd=repo).json
    alone = archsync("inventory", "--format", "json", "python", cwd=repo).json
    assert [os.path.relpath(d["root"], repo) for d in documents["projects"]] == [
        "kernels", "python", os.path.join("python", "svc", "kernels", "aot")]
    assert (documents["version"], documents["projects"][1]) == (2, alone)


def test_why_from_above_several_projects_explains_where_the_subject_is(repo):
    from_root = archsync("why", "_CUDA_GRAPH_ARCHS", "OscarMoeForCausalLM", cwd=repo)
    assert from_root.returncode == EXIT_CLEAN, from_root
    assert from_root.lines[0] == "_CUDA_GRAPH_ARCHS at python/svc/tables.py:4:1 holds 1 registered name " \
                                 "(OscarForCausalLM)", from_root
    assert from_root.lines == archsync("why", "_CUDA_GRAPH_ARCHS", "OscarMoeForCausalLM", "python", cwd=repo).lines
    missing = archsync("why", "_NO_SUCH_ARCHS", "OscarMoeForCausalLM", cwd=repo)
    assert (missing.returncode, missing.err_lines) == (EXIT_ERROR, [
        "archsync: error: no subject '_NO_SUCH_ARCHS'; `archsync inventory` lists them"]), missing


def test_an_html_page_is_of_one_project(repo):
    result = archsync("show", "--format", "html", cwd=repo)
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, [
        "archsync: error: . holds 3 projects (kernels, python, python/svc/kernels/aot); "
        "give show --format html one of them"]), result
    assert archsync("show", "--format", "html", "python", cwd=repo).returncode == EXIT_CLEAN


@pytest.mark.e2e
def test_a_baseline_and_recorded_exemptions_work_project_by_project(repo, monkeypatch):
    """From the root: each project is compared with its own tree at REV, and records in its own pyproject.toml."""
    from test_baseline_commit import commit_all

    for key, value in {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
                       "GIT_CEILING_DIRECTORIES": str(repo.parent), "SOURCE_DATE_EPOCH": "1785000000",
                       "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t.invalid",
                       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t.invalid"}.items():
        monkeypatch.setenv(key, value)
    commit_all(repo, "today's tree")
    with open(repo / "kernels/tinykern/__init__.py", "a", encoding="utf-8") as handle:
        handle.write('_MORE_ARCHS = ["RomeoForCausalLM", "RomeoForCausalLM"]\n')
    new = archsync("check", "--baseline-commit", "HEAD", cwd=repo)
    assert (new.returncode, new.lines) == (EXIT_FINDINGS, [
        "kernels/tinykern/__init__.py:4:36: ARC301 'RomeoForCausalLM' is listed twice in _MORE_ARCHS "
        "(first at line 4)"]), new
    assert new.err_lines[-1].startswith("archsync: 1 new problem (8 files in 3 projects, 4 analysed; 1 in no "
                                        "project, not checked); the baseline HEAD ("), new
    assert new.err_lines[-1].endswith(") hid 3"), new  # one per project
    recorded = archsync("check", "--add-exemptions", cwd=repo)
    assert recorded.returncode == EXIT_CLEAN, recorded
    assert sorted(line.split(" in ")[1].split(",")[0] for line in recorded.err_lines if "recorded" in line) == [
        "kernels/pyproject.toml", "python/pyproject.toml", "python/svc/kernels/aot/pyproject.toml"], recorded
    assert archsync("check", cwd=repo).returncode == EXIT_CLEAN
    again = archsync("check", "--add-exemptions", cwd=repo)  # each project says it is the one with nothing
    assert again.err_lines == ["archsync: nothing to record in kernels/pyproject.toml",
                               "archsync: nothing to record in python/pyproject.toml",
                               "archsync: nothing to record in python/svc/kernels/aot/pyproject.toml",
                               "archsync: no problems (8 files in 3 projects, 4 analysed; 1 in no project, "
                               "not checked)"], again


def test_init_asks_for_one_project_and_writes_none_at_a_root_in_no_project(repo):
    """A pyproject.toml at the root would make the loose files a project: init names the projects instead."""
    result = archsync("init", cwd=repo)
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, [
        "archsync: error: . holds 3 projects (kernels, python, python/svc/kernels/aot); give init one of them"]), result
    assert not (repo / "pyproject.toml").exists()
    assert archsync("init", "--diff", "kernels", cwd=repo).returncode == EXIT_CLEAN
