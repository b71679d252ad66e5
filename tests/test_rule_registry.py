"""The rule registry is the one source of what a code is: its module, docs, examples and front-end metadata.

Each rule's examples are small projects with the exact `archsync check` output written beside
them in the rule module; here every one of them is run through the real pipeline (in process,
milliseconds each), so `archsync explain` never shows an example that is not true.
"""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, REPO, archsync
from lint_plugin import pipeline, rules
from lint_plugin.diagnostics import Diagnostic
from lint_plugin.frontends import lsp
from lint_plugin.rules import BY_CODE, RULES, Example

EXAMPLES = [(rule.code, i, example) for rule in RULES for i, example in enumerate(rule.examples)]


def write_project(root: Path, files) -> Path:
    for path, text in files:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if not (root / "pyproject.toml").exists():
        (root / "pyproject.toml").write_text("", encoding="utf-8")
    return root


def printed(tmp_path: Path, example, files) -> list:
    """What `archsync check` prints for `files` (with `--baseline-commit`, for an example with a baseline: the
    same comparison, in process, of the project and its copy as the baseline held it)."""
    report = pipeline.run(pipeline.Request((write_project(tmp_path / "now", files),), use_cache=False))
    found = report.diagnostics
    if example.baseline:
        then = pipeline.run(pipeline.Request((write_project(tmp_path / "then", example.at_baseline()),),
                                             use_cache=False))
        found = pipeline.since(report, then, report.diagnostics).new
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.text}" for d in found]


@pytest.mark.parametrize("code, index, example", EXAMPLES, ids=[f"{c}-{i}" for c, i, _ in EXAMPLES])
def test_every_example_prints_exactly_what_it_says(tmp_path, code, index, example):
    assert printed(tmp_path, example, example.files) == list(example.expect)


CORRECTED = [(rule.code, i, example) for rule in RULES for i, example in enumerate(rule.examples) if example.corrected]


def corrected_files(example):
    """The example's project with its corrected files in place of the ones that fired."""
    fixed = dict(example.corrected)
    return tuple((path, fixed.get(path, text)) for path, text in example.files)


@pytest.mark.parametrize("code, index, example", CORRECTED, ids=[f"{c}-{i}" for c, i, _ in CORRECTED])
def test_every_corrected_form_prints_nothing(tmp_path, code, index, example):
    assert printed(tmp_path, example, corrected_files(example)) == []


def test_every_example_that_fires_shows_its_corrected_form():
    for rule in RULES:
        for example in rule.examples:
            assert bool(example.expect) == bool(example.corrected), (rule.code, example.title)


# an example with a baseline is fixed in a git repository: its commit is a process (`e2e`)
FIXED = [pytest.param(c, i, e, id=f"{c}-{i}", marks=[pytest.mark.e2e] if e.baseline else []) for c, i, e in CORRECTED]


@pytest.mark.parametrize("code, index, example", FIXED)
def test_archsync_fix_writes_the_corrected_form_of_a_rule_it_answers_and_nothing_for_another(
        tmp_path, code, index, example):
    """A page says whether `archsync fix` applies: where it does, it writes exactly the corrected files (for an
    example with a baseline, `fix --baseline-commit HEAD` in a git repository whose HEAD is that baseline)."""
    baseline = ()
    if example.baseline:
        committed(write_project(tmp_path, example.at_baseline()))
        baseline = ("--baseline-commit", "HEAD")
    root = write_project(tmp_path, example.files)
    result = archsync("fix", "--no-cache", *baseline, cwd=root, env=GIT_ALONE)
    written = {path: (root / path).read_text(encoding="utf-8") for path, _ in example.files}
    if BY_CODE[code].fix is None:
        assert result.returncode == EXIT_FINDINGS, result
        assert written == dict(example.files)
    else:
        assert result.returncode == EXIT_CLEAN, result
        assert written == dict(corrected_files(example))


# git with no user or system configuration, and an author, for the examples' baseline commits
GIT_ALONE = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "archsync tests",
             "GIT_AUTHOR_EMAIL": "tests@archsync.invalid", "GIT_COMMITTER_NAME": "archsync tests",
             "GIT_COMMITTER_EMAIL": "tests@archsync.invalid"}


def committed(root: Path) -> Path:
    """`root` as a git repository whose HEAD holds its files."""
    env = {**os.environ, **GIT_ALONE}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "baseline"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, timeout=120)
    return root


def test_a_corrected_form_belongs_to_an_example_that_fires_and_changes_its_files():
    with pytest.raises(ValueError) as quiet:
        Example("quiet", (("a.py", "A = 1\n"),), corrected=(("a.py", "A = 2\n"),))
    assert str(quiet.value) == "'quiet': only an example that fires has a corrected form"
    with pytest.raises(ValueError) as elsewhere:
        Example("elsewhere", (("a.py", "A = 1\n"),), ("a.py:1:1: ARC301 m",), corrected=(("b.py", "B = 1\n"),))
    assert str(elsewhere.value) == "'elsewhere': the corrected form changes files the example has not: ['b.py']"


def test_a_rule_names_only_settings_the_schema_knows():
    rule = BY_CODE["ARC104"]
    with pytest.raises(ValueError) as error:
        dataclasses.replace(rule, settings=("siblings", "sibling", "kinship-level"))
    assert str(error.value) == ("ARC104: settings ['sibling', 'kinship-level'] are not [tool.archsync] keys "
                                "(config/schema.py)")


def test_every_rule_that_checks_has_an_example_that_fires_and_one_that_does_not():
    for rule in RULES:
        if rule.check is None and not rule.examples:
            continue  # reported by a front end (ARC900): nothing to run
        fires = [e for e in rule.examples if any(f": {rule.code} " in line for line in e.expect)]
        assert fires, f"{rule.code} has no example that reports it"
        if rule.code not in ("ARC901", "ARC902"):  # what archsync cannot read has no quiet twin to show
            assert any(not e.expect for e in rule.examples), f"{rule.code} has no example it accepts"


def test_modules_are_named_after_their_code_and_name():
    for rule in RULES:
        module = REPO / "lint_plugin" / "rules" / f"{rule.code.lower()}_{rule.name.replace('-', '_')}.py"
        assert module.is_file(), module
    assert [rule.code for rule in RULES] == sorted(BY_CODE)


def test_the_markdown_table_is_the_registry_and_the_readme_links_to_it_rather_than_copying_it(tmp_path):
    """One table: `archsync rules --format markdown` prints it, docs/rules/README.md holds it with links
    (tests/test_docs.py keeps that page generated), and the README points there."""
    printed = archsync("rules", "--format", "markdown", cwd=tmp_path)
    assert printed.stdout == rules.rules_table()
    index = (REPO / "docs/rules/README.md").read_text(encoding="utf-8")
    assert rules.rules_table(pages=True) in index
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules/README.md)" in readme
    assert "| `ARC101` |" not in readme, "the README links to the table of codes; it holds no copy"


def test_archsync_rules_lists_the_registry_in_priority_order(tmp_path):
    result = archsync("rules", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines == [
        "ARC101  family-member-missing      a guarded collection holds part of a family but not all of it",
        "ARC102  mirror-drift               collections declared as mirrors do not hold the same names",
        "ARC103  subset-broken              a name of one collection is missing from a collection that must "
        "contain it",
        "ARC104  sibling-variant-missing    a collection or family holds one variant of a registered pair but "
        "not the other",
        "ARC105  kin-missing                a subject holds an architecture but not another that runs the same "
        "code",
        "ARC106  host-copy-behind           a plugin's copy of a list of its host's lacks names the host's list "
        "holds",
        "ARC107  new-name-missing           a change registers an architecture and leaves out a list that takes it",
        "ARC201  unknown-architecture       a guarded collection or a family names an architecture nothing "
        "registers",
        "ARC202  stale-exemption            an exemption no longer suppresses anything",
        "ARC203  class-key-never-found      a table looked up with a class name holds a key no class is named",
        "ARC301  duplicate-member           the same name is written twice in one literal",
        "ARC900  configuration-error        the configuration is invalid (flake8 only; the CLI exits 2)",
        "ARC901  partly-analysed            a guarded collection or family depends on something archsync "
        "cannot follow",
        "ARC902  file-not-analysed          a file that may hold architecture names could not be analysed",
    ]


def test_explain_shows_the_examples_and_their_output(tmp_path):
    result = archsync("explain", "arc104", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.stdout == rules.explain("ARC104")
    assert "### Reported: a whitelist of text and multimodal models with the multimodal Gemma 3 but not the " \
           "text-only one\n" in result.stdout
    assert "`layers/attention.py`:\n\n```python\nSLIDING_WINDOW_ARCHS = [\"Gemma3ForConditionalGeneration\", " \
           "\"Gemma2ForCausalLM\"]\n```\n" in result.stdout
    assert "`archsync check` prints:\n\n```text\nlayers/attention.py:1:1: ARC104 'Gemma3ForCausalLM' is missing " \
           "from SLIDING_WINDOW_ARCHS" in result.stdout
    assert "### Accepted: both variants held\n\nThe same `models/gemma3.py` as in the first example, and:\n\n" \
           in result.stdout
    assert "\n\n`archsync check` prints nothing.\n\n" in result.stdout


def test_explain_an_unknown_code_is_an_error(tmp_path):
    result = archsync("explain", "ARC199", cwd=tmp_path)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines == ["archsync: error: unknown rule 'ARC199'; `archsync rules` lists them"]


def test_priority_is_registry_order_among_rules_that_compete_for_a_pair():
    competing = [rule.code for rule in RULES if rule.one_per_pair]
    assert competing == ["ARC101", "ARC102", "ARC103", "ARC104", "ARC105", "ARC106", "ARC107", "ARC201", "ARC203",
                         "ARC301"]


def test_every_front_end_gives_a_code_the_same_severity(tmp_path):
    """The editor, GitHub annotations and SARIF say error, warning or note alike, from the registry."""
    from lsprotocol.types import DiagnosticSeverity

    from lint_plugin.frontends.formats import render

    positions = lsp.Positions("X = 1\n")
    words = {"error": ("Error", "error", "error"), "warning": ("Warning", "warning", "warning"),
             "information": ("Information", "notice", "note")}
    seen = set()
    for rule in RULES:
        d = Diagnostic("a.py", 1, 1, rule.code, "m")
        editor, github, sarif = words[rule.severity]
        assert lsp.to_lsp(d, positions, tmp_path).severity == getattr(DiagnosticSeverity, editor), rule.code
        assert render("github", [d], tmp_path).startswith(f"::{github} "), rule.code
        assert json.loads(render("sarif", [d], tmp_path))["runs"][0]["results"][0]["level"] == sarif, rule.code
        seen.add(rule.severity)
    assert seen == set(words)
    drift = {rule.code for rule in RULES if rule.severity == "error"}
    assert {"ARC101", "ARC102", "ARC103", "ARC104", "ARC201", "ARC900"} <= drift


def test_an_exemption_naming_a_code_that_does_not_exist_is_a_configuration_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.archsync]\n\n[[tool.archsync.exempt]]\nsubject = "X_ARCHS"\nmembers = ["A"]\ncodes = ["ARC109"]\n'
        'reason = "r"\n', encoding="utf-8")
    result = archsync("check", cwd=tmp_path)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines == [
        f"archsync: error: {tmp_path / 'pyproject.toml'}: tool.archsync.exempt[0].codes: 'ARC109' is not an "
        f"archsync code (`archsync rules` lists them, like 'ARC101')"]


def test_the_codes_judged_against_a_baseline_are_the_rules_that_judge_a_change():
    from lint_plugin.rules.codes import JUDGED_AGAINST_A_BASELINE

    assert JUDGED_AGAINST_A_BASELINE == {rule.code for rule in RULES if rule.check_new is not None}


def test_the_codes_reported_once_per_cause_are_the_rules_that_say_so():
    from lint_plugin.rules.codes import ONE_PER_CAUSE

    assert ONE_PER_CAUSE == {rule.code for rule in RULES if rule.one_per_cause}
