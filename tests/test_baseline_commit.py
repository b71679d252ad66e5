"""`archsync check --baseline-commit REV`: only the drift a change introduced (issue 16, adoption).

Real `git` repositories in temporary directories, holding a copy of the seed bug tree (four
ARC101 in overrides.py); the change under test inserts lines above every finding (so each one
moves) and adds one new drift, a duplicate name (ARC301).
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from conftest import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, SGLANG_BUG, add_config, archsync, copy_tree, places, write

pytestmark = pytest.mark.e2e  # every test here runs a real process

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
NEW_DUPLICATE = (f"{OVERRIDES}:47:9: ARC301 'KimiLinearForCausalLM' is listed twice in _MAMBA_RADIX_CACHE_ARCHS "
                 f"(first at line 44)")
# After the change, each place plain `check` reports (the four of the seed's cause are one finding, naming
# the others: `places`): every line moved, and so did the predicate they quote.
AFTER_CHANGE = [
    f"{OVERRIDES}:38:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() ({MODEL_CONFIG}:19) "
    f"but missing from _MAMBA_RADIX_CACHE_ARCHS",
    f"{OVERRIDES}:38:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() ({MODEL_CONFIG}:19) "
    f"but missing from _MAMBA_RADIX_CACHE_ARCHS",
    NEW_DUPLICATE,
    f"{OVERRIDES}:52:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() ({MODEL_CONFIG}:19) "
    f"but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
    f"{OVERRIDES}:52:1: ARC101 'Qwen3_5MoeForCausalLM' is matched by is_qwen3_5() ({MODEL_CONFIG}:19) "
    f"but missing from _MAMBA_EXTRA_BUFFER_ARCHS",
]


@pytest.fixture(autouse=True)
def isolated_git(tmp_path, monkeypatch):
    """No user or system git configuration, and no repository found above the test's directory."""
    for key, value in {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
                       "GIT_CEILING_DIRECTORIES": str(tmp_path.parent),
                       "GIT_AUTHOR_NAME": "archsync tests", "GIT_AUTHOR_EMAIL": "tests@archsync.invalid",
                       "GIT_COMMITTER_NAME": "archsync tests", "GIT_COMMITTER_EMAIL": "tests@archsync.invalid"}.items():
        monkeypatch.setenv(key, value)
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(key, raising=False)


def git(*args: str, cwd: Path) -> str:
    proc = subprocess.run(["git", *args], cwd=str(cwd), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"git {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}"
    return proc.stdout


def commit_all(repo: Path, message: str) -> str:
    if not (repo / ".git").exists():
        git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--no-verify", "-m", message, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo).strip()


def change(root: Path) -> None:
    """Three lines above both whitelists, one above the predicate, and a new duplicate (ARC301)."""
    overrides = root / OVERRIDES
    text = overrides.read_text(encoding="utf-8")
    text = text.replace("logger = logging.getLogger(__name__)\n",
                        "logger = logging.getLogger(__name__)\n# three\n# new\n# lines\n", 1)
    text = text.replace('        "FalconH1ForCausalLM",\n',
                        '        "FalconH1ForCausalLM",\n        "KimiLinearForCausalLM",\n', 1)
    overrides.write_text(text, encoding="utf-8")
    model_config = root / MODEL_CONFIG
    model_config.write_text("# one more line\n" + model_config.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.fixture
def repo(tmp_path):
    """The bug tree committed (HEAD), then changed in the working tree; the commit's name."""
    root = copy_tree(SGLANG_BUG, tmp_path / "project")
    head = commit_all(root, "the tree as it was")
    change(root)
    return root, head


def check(*args, cwd: Path, **options):
    return archsync("check", *args, cwd=cwd, **options)


def test_only_the_new_drift_is_reported_though_every_finding_moved(repo):
    root, head = repo
    plain = check(cwd=root)
    assert (plain.returncode, places(cwd=root)) == (EXIT_FINDINGS, AFTER_CHANGE), plain
    assert len(plain.lines) == 2, plain
    result = check("--baseline-commit", "HEAD", cwd=root)
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, [NEW_DUPLICATE]), result
    assert result.err_lines == [
        f"archsync: 1 new problem (17 files, 3 analysed); the baseline HEAD ({head[:12]}) hid 1"], result


@pytest.mark.parametrize("form", ["json", "github", "sarif"])
def test_every_format_shows_only_the_new_finding(repo, form):
    root, head = repo
    result = check("--baseline-commit", "HEAD", "--format", form, cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.err_lines == [f"archsync: the baseline HEAD ({head[:12]}) hid 1"], result
    if form == "json":
        assert [(d["code"], d["path"], d["line"], d["column"], d["subject"], d["member"])
                for d in result.json["diagnostics"]] == [
            ("ARC301", OVERRIDES, 47, 9, "_MAMBA_RADIX_CACHE_ARCHS", "KimiLinearForCausalLM")]
    elif form == "github":
        assert result.lines == [
            f"::warning file={OVERRIDES},line=47,col=9,title=ARC301 duplicate-member::ARC301 'KimiLinearForCausalLM' "
            f"is listed twice in _MAMBA_RADIX_CACHE_ARCHS (first at line 44)"]
    else:
        (run,) = result.json["runs"]
        assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                 r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in run["results"]] == [
            ("ARC301", OVERRIDES, 47)]


def test_nothing_new_exits_clean_and_says_what_the_baseline_hid(tmp_path):
    root = copy_tree(SGLANG_BUG, tmp_path / "project")
    head = commit_all(root, "the tree as it is")
    result = check("--baseline-commit", head[:8], cwd=root)
    assert (result.returncode, result.stdout) == (EXIT_CLEAN, ""), result
    assert result.err_lines == [f"archsync: no new problems (17 files, 3 analysed); the baseline {head[:8]} "
                                f"({head[:12]}) hid 1"], result


def test_select_and_ignore_apply_to_both_sides(repo):
    root, head = repo
    ignored = check("--baseline-commit", "HEAD", "--ignore", "ARC3", cwd=root)
    assert (ignored.returncode, ignored.lines) == (EXIT_CLEAN, []), ignored
    assert ignored.err_lines == [f"archsync: no new problems (17 files, 3 analysed); the baseline HEAD "
                                 f"({head[:12]}) hid 1"], ignored
    selected = check("--baseline-commit", "HEAD", "--select", "ARC301", cwd=root)
    assert (selected.returncode, selected.lines) == (EXIT_FINDINGS, [NEW_DUPLICATE]), selected
    assert selected.err_lines == [f"archsync: 1 new problem (17 files, 3 analysed); the baseline HEAD "
                                  f"({head[:12]}) hid 0"], selected
    counted = check("--baseline-commit", "HEAD", "--statistics", "--exit-zero", cwd=root)
    assert (counted.returncode, counted.lines) == (EXIT_CLEAN, ["    1  ARC301  duplicate-member"]), counted


def test_a_revision_older_than_the_drift_reports_it_all(repo):
    root, _ = repo
    commit_all(root, "the change")
    (root / OVERRIDES).write_text((root / OVERRIDES).read_text(encoding="utf-8") + "\n# a later edit\n",
                                  encoding="utf-8")
    against_parent = check("--baseline-commit", "HEAD~1", cwd=root)
    assert (against_parent.returncode, against_parent.lines) == (EXIT_FINDINGS, [NEW_DUPLICATE]), against_parent
    against_head = check("--baseline-commit", "HEAD", cwd=root)
    assert (against_head.returncode, against_head.lines) == (EXIT_CLEAN, []), against_head


def test_the_working_tree_the_index_and_the_cache_are_left_alone(repo, tmp_path):
    root, _ = repo
    check(cwd=root)  # the working tree's cache, as a normal run leaves it
    cache = root / ".archsync_cache"
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in cache.iterdir()}
    index = (root / ".git" / "index").read_bytes(), (root / ".git" / "index").stat().st_mtime_ns
    status = git("status", "--porcelain", "--untracked-files=all", cwd=root)
    temporary = tmp_path / "tmpdir"
    temporary.mkdir()
    result = check("--baseline-commit", "HEAD", cwd=root, env={"TMPDIR": str(temporary)})
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, [NEW_DUPLICATE]), result
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in cache.iterdir()} == before
    assert ((root / ".git" / "index").read_bytes(), (root / ".git" / "index").stat().st_mtime_ns) == index
    assert git("status", "--porcelain", "--untracked-files=all", cwd=root) == status
    assert list(temporary.iterdir()) == []  # the copy of HEAD is gone
    cold = check("--baseline-commit", "HEAD", "--no-cache", cwd=root)
    assert cold.lines == [NEW_DUPLICATE], cold


def test_a_project_in_a_subdirectory_and_a_contract_added_with_its_collection(tmp_path):
    repository = tmp_path / "repository"
    root = copy_tree(SGLANG_BUG, repository / "python")
    write(repository / "README.md", "# not the project\n")
    head = commit_all(repository, "the tree as it was")
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + '\n[tool.archsync]\n\n[[tool.archsync.mirror]]\n'
                         'collections = ["_MAMBA_EXTRA_BUFFER_ARCHS", "_SPEC_ARCHS"]\n', encoding="utf-8")
    overrides = root / OVERRIDES
    overrides.write_text(overrides.read_text(encoding="utf-8")
                         + '\n_SPEC_ARCHS = frozenset({"Qwen3NextForCausalLM", "KimiLinearForCausalLM"})\n',
                         encoding="utf-8")
    result = check("--baseline-commit", "HEAD", cwd=root)
    mirrored = "but missing from _SPEC_ARCHS, which must mirror it (pyproject.toml: tool.archsync.mirror[0])"
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, [
        f"{OVERRIDES}:94:1: ARC102 'GraniteMoeHybridForCausalLM' is in _MAMBA_EXTRA_BUFFER_ARCHS ({OVERRIDES}:48) "
        f"{mirrored}; the same for 'Qwen3_5ForConditionalGeneration', 'Qwen3_5MoeForConditionalGeneration' there",
    ]), result
    assert result.err_lines == [
        f"archsync: warning: --baseline-commit HEAD: at that commit, {pyproject}: tool.archsync.mirror[0].collections: "
        f"no collection named '_SPEC_ARCHS' in the project; that contract is left out of the baseline, so its "
        f"findings are all new",
        f"archsync: 1 new problem (17 files, 3 analysed); the baseline HEAD ({head[:12]}) hid 1",
    ], result


def test_a_project_the_commit_does_not_hold_is_all_new(tmp_path):
    repository = tmp_path / "repository"
    write(repository / "README.md", "# the project comes later\n")
    first = commit_all(repository, "before the project")
    root = copy_tree(SGLANG_BUG, repository / "python")
    result = check("--baseline-commit", first, cwd=root)
    assert result.returncode == EXIT_FINDINGS and len(result.lines) == 1, result  # the seed's one cause
    assert result.err_lines == [
        f"archsync: warning: --baseline-commit {first}: the project's directory is not in that commit; "
        f"every finding is new",
        f"archsync: 1 new problem (17 files, 3 analysed); the baseline {first} ({first[:12]}) hid 0"], result


def test_mistakes_are_errors_with_exit_2(repo, tmp_path):
    root, _ = repo
    plain = copy_tree(SGLANG_BUG, tmp_path / "not-a-repository")
    cases = [
        (("--baseline-commit", "no-such-branch"), root, {},
         "archsync: error: --baseline-commit: unknown revision 'no-such-branch' (a shallow clone may lack it: "
         "fetch it first)"),
        (("--baseline-commit", "HEAD^{tree}"), root, {},
         "archsync: error: --baseline-commit: unknown revision 'HEAD^{tree}' (a shallow clone may lack it: "
         "fetch it first)"),
        (("--baseline-commit=--output=x",), root, {},
         "archsync: error: --baseline-commit: '--output=x' is not a revision"),
        (("--baseline-commit", "HEAD"), plain, {},
         f"archsync: error: --baseline-commit: {plain} is not in a git repository"),
        (("--baseline-commit", "HEAD"), root, {"PATH": str(tmp_path / "nowhere")},
         "archsync: error: --baseline-commit needs git, and git was not found on PATH"),
    ]
    for args, cwd, env, message in cases:
        result = check(*args, cwd=cwd, env=env)
        assert (result.returncode, result.stdout, result.err_lines) == (EXIT_ERROR, "", [message]), result


def test_add_exemptions_and_a_baseline_do_not_go_together(repo):
    root, _ = repo
    result = check("--baseline-commit", "HEAD", "--add-exemptions", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines[-1] == ("archsync check: error: argument --add-exemptions: not allowed with argument "
                                    "--baseline-commit"), result


# == a model the change registers (ARC107) ===================================================================

GRANITE = "sglang/srt/models/granitemoehybrid.py"
GRANITE_V2 = ("class GraniteMoeHybridV2ForCausalLM(GraniteMoeHybridForCausalLM):\n"
              "    \"\"\"Granite 4.1: the same layers, a longer context.\"\"\"\n\n\n"
              "EntryClass = [GraniteMoeHybridForCausalLM, GraniteMoeHybridV2ForCausalLM]\n")
RUNS_GRANITE = ("it runs the code of 'GraniteMoeHybridForCausalLM' (`class GraniteMoeHybridV2ForCausalLM("
                f"GraniteMoeHybridForCausalLM)` defines no method, at {GRANITE}:33)")
NEW_MODEL = [
    f"{OVERRIDES}:48:1: ARC105 'GraniteMoeHybridV2ForCausalLM' may belong in _MAMBA_EXTRA_BUFFER_ARCHS: "
    f"{RUNS_GRANITE}; is a versioned variant of 'GraniteMoeHybridForCausalLM' (confidence 0.91)",
    f"{OVERRIDES}:64:8: ARC107 'GraniteMoeHybridV2ForCausalLM', which the change registers, may belong in "
    f"supports_mamba_cache_extra_buffer#1: {RUNS_GRANITE}",
]


@pytest.fixture
def new_model(tmp_path):
    """The bug tree committed, then a change that registers the next Granite, a subclass defining no method."""
    root = copy_tree(SGLANG_BUG, tmp_path / "project")
    head = commit_all(root, "the tree as it was")
    granite = root / GRANITE
    text = granite.read_text(encoding="utf-8")
    write(granite, text.replace("EntryClass = [GraniteMoeHybridForCausalLM]\n", GRANITE_V2))
    return root, head


def test_a_model_the_change_registers_is_asked_of_a_test_of_the_model_whose_code_it_runs(new_model):
    root, head = new_model
    result = check("--baseline-commit", "HEAD", cwd=root)
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, NEW_MODEL), result
    plain = check(cwd=root)  # no baseline, nothing is new: the test of one name is not completed
    assert [line for line in plain.lines if "GraniteMoeHybridV2" in line] == NEW_MODEL[:1], plain
    # ARC107 alone: the pair ARC105 speaks of first is ARC107's to say then
    only = check("--baseline-commit", "HEAD", "--select", "ARC107", "--format", "json", cwd=root)
    assert [(d["code"], d["subject"], d["member"], d["fix"]["peers"]) for finding in only.json["diagnostics"]
            for d in (finding, *finding.get("related", ()))] == [
        ("ARC107", subject, "GraniteMoeHybridV2ForCausalLM", ["GraniteMoeHybridForCausalLM"])
        for subject in ("_MAMBA_EXTRA_BUFFER_ARCHS", "supports_mamba_cache_extra_buffer#1")], only
    elsewhere = check("--baseline-commit", "HEAD", "sglang/srt/models", cwd=root)  # the paths asked about
    assert (elsewhere.returncode, elsewhere.lines) == (EXIT_CLEAN, []), elsewhere


def test_fix_with_a_baseline_adds_the_new_model_where_the_change_left_it_out_and_nothing_else(new_model):
    root, head = new_model
    before = (root / OVERRIDES).read_text(encoding="utf-8")
    result = archsync("fix", "--baseline-commit", "HEAD", cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    assert result.err_lines[-1] == "archsync: fixed 2 problems in 1 file; 0 remaining", result
    listed, end = '        "GraniteMoeHybridForCausalLM",\n', '    }\n)\n\n# Sparse'
    assert (root / OVERRIDES).read_text(encoding="utf-8") == before.replace(
        listed + end, listed + '        "GraniteMoeHybridV2ForCausalLM",\n' + end).replace(
        '    if model_arch == "GraniteMoeHybridForCausalLM":',
        '    if model_arch in ("GraniteMoeHybridForCausalLM", "GraniteMoeHybridV2ForCausalLM"):')
    wrong = archsync("fix", "--baseline-commit", "no-such-rev", cwd=root)
    assert (wrong.returncode, wrong.err_lines) == (EXIT_ERROR, [
        "archsync: error: --baseline-commit: unknown revision 'no-such-rev' (a shallow clone may lack it: "
        "fetch it first)"]), wrong
    again = check("--baseline-commit", "HEAD", cwd=root)  # the four findings the baseline had are still there
    assert (again.returncode, again.lines) == (EXIT_CLEAN, []), again
    assert again.err_lines == [f"archsync: no new problems (17 files, 3 analysed); the baseline HEAD "
                               f"({head[:12]}) hid 1"], again


def test_an_exemption_of_arc107_holds_against_a_baseline_and_is_never_stale_without_one(new_model):
    root, head = new_model
    add_config(root, '[[tool.archsync.exempt]]\nsubject = "supports_mamba_cache_extra_buffer#1"\n'
                     'members = ["GraniteMoeHybridV2ForCausalLM"]\ncodes = ["ARC107"]\n'
                     'reason = "Granite 4.1 keeps its conv state in the pool"\n')
    result = check("--baseline-commit", "HEAD", cwd=root)
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, NEW_MODEL[:1]), result
    plain = check(cwd=root)  # ARC107 is judged against a baseline only: its exemption is not stale here
    assert not [line for line in plain.lines if "ARC202" in line], plain
