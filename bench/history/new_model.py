"""Replay a new model's commit with one list left behind: would archsync have told its author?

A `new-model` case is a commit that registers a model and adds it to a subject in the same change, so
at its parent there is nothing to catch. The case still says what a maintainer adding that model had
to do. Here it is replayed at the fix commit itself, with the lines of the case's file that added the
case's names taken back to the parent's (`reverted`): the model registered, every other part of the
commit in place, this one list left as it was. That is the author who forgot one place, the state
`archsync` sees in pre-commit or in pull-request CI, and it is checked as there: `archsync check
--baseline-commit HEAD` in a git repository whose HEAD holds the parent's tree. The case is caught as a
parent's is (`replay.judge_case`); every other finding new since the parent is judged by later history
from the fix commit on (the names the change registers, asked elsewhere, and anything else it said).
"""
from __future__ import annotations

import ast
import difflib
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from bench.history.replay import (
    Case,
    Outcome,
    Report,
    confirmed_later,
    extract_tree,
    git,
    in_subject,
    judge_case,
    kinship_verdict,
    mirror_dir,
    reference_commit,
    run_archsync,
)

NO_REVERT = "the fix's lines that add the names to the file could not be told apart"


def reverted(before: str, after: str, names: Sequence[str]) -> Optional[str]:
    """`after` with each changed run of lines that quotes one of `names` (and `before` did not quote it there)
    taken back to `before`'s lines; None when no run does, or the result does not parse."""
    quoted = re.compile("|".join(rf"""["']{re.escape(n)}["']""" for n in names))
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    out: List[str] = []
    changed = False
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        added = "".join(new[j1:j2])
        if tag != "equal" and quoted.search(added) and len(quoted.findall(added)) > len(quoted.findall(
                "".join(old[i1:i2]))):
            out += old[i1:i2]
            changed = True
        else:
            out += new[j1:j2]
    if not changed:
        return None
    text = "".join(out)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError:
        return None
    return text


# git with no user or system configuration, and an author for the parent's commit
_GIT = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "replay",
        "GIT_AUTHOR_EMAIL": "replay@archsync.invalid", "GIT_COMMITTER_NAME": "replay",
        "GIT_COMMITTER_EMAIL": "replay@archsync.invalid"}


def _top(tree: Path, root: str) -> Path:
    """The extracted commit's directory, above the project root `tree` is."""
    return tree if root in ("", ".") else tree.parents[len(Path(root).parts) - 1]


def _case_tree(git_dir: Path, case: Case, work: Path) -> Tuple[Optional[Path], str]:
    """A git repository whose HEAD is the parent's tree and whose working tree is the fix commit's, the case's
    file reverted (`reverted`): the change as its author had it before committing; or (None, why)."""
    path = f"{case.root}/{case.file}" if case.root not in ("", ".") else case.file
    try:
        before, after = (git(git_dir, "show", f"{commit}:{path}").decode("utf-8", "replace")
                         for commit in (case.parent, case.fix))
    except subprocess.CalledProcessError:
        return None, "the case's file is not in both commits"
    text = reverted(before, after, case.names)
    if text is None:
        return None, NO_REVERT
    tree = change_tree(git_dir, case.parent, case.fix, case.root, work, work / f"new-model-{case.id}")
    (tree / case.file).write_text(text, encoding="utf-8")
    return tree, ""


def change_tree(git_dir: Path, parent: str, commit: str, root: str, work: Path, mine: Path) -> Path:
    """At `mine`, a git repository whose HEAD holds `parent`'s tree and whose working tree is `commit`'s (their
    `.py` files, extracted under `work` as the replay extracts them): the change uncommitted, as `archsync check
    --baseline-commit HEAD` sees it in pre-commit. Returns the project root in it."""
    if mine.exists():
        shutil.rmtree(mine)
    shutil.copytree(_top(extract_tree(git_dir, parent, root, work), root), mine)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "parent"]):
        subprocess.run(["git", *args], cwd=mine, env={**os.environ, **_GIT}, check=True, capture_output=True)
    for entry in mine.iterdir():  # the parent's files out, the commit's in
        if entry.is_dir() and entry.name != ".git":
            shutil.rmtree(entry)
        elif not entry.is_dir():
            entry.unlink()
    shutil.copytree(_top(extract_tree(git_dir, commit, root, work), root), mine, dirs_exist_ok=True)
    return mine if root in ("", ".") else mine / root


def replay_new_models(cases: Sequence[Case], mirrors: Path, work: Path, archsync: Sequence[str],
                      progress=lambda message: print(message, file=sys.stderr, flush=True)) -> Report:
    """Each `new-model` case at its fix commit, its own list reverted, against its parent; `others`: every other
    finding new since the parent, with whether later history (from the fix on) did what it asks."""
    outcomes: List[Outcome] = []
    others: List[dict] = []
    skipped: Set[str] = set()
    references: Dict[str, str] = {}
    for case in cases:
        if case.kind != "new-model":
            continue
        git_dir = mirror_dir(mirrors, case.mirror)
        if git_dir is None:
            skipped.add(case.mirror)
            outcomes.append(Outcome(case, "skipped", why=f"no mirror of {case.mirror} under {mirrors}"))
            continue
        progress(f"{case.id}: {case.project} @ {case.fix[:12]}, {case.file} reverted")
        tree, why = _case_tree(git_dir, case, work)
        if tree is None:
            outcomes.append(Outcome(case, "skipped", why=why))
            continue
        diagnostics = run_archsync(archsync, tree, extra=("--baseline-commit", "HEAD"))["diagnostics"]
        outcome = judge_case(case, diagnostics, None)
        outcomes.append(outcome if outcome.status == "caught" else
                        Outcome(case, "missed", why=_why(case, diagnostics, archsync, tree)))
        if case.mirror not in references:
            references[case.mirror] = reference_commit(git_dir, case.project)
        for d in diagnostics:
            if d.get("code", "").startswith("ARC9"):
                continue  # what archsync could not see: informational, not a finding
            if d.get("path") == case.file and in_subject(d.get("subject") or "", case.subject):
                continue  # the case itself
            others.append({"project": case.project, "parent": case.fix, "case": case.id, "code": d.get("code"),
                           "path": d.get("path"), "line": d.get("line"), "subject": d.get("subject"),
                           "member": d.get("member"), "message": d.get("message"),
                           "confirmed": confirmed_later(git_dir, case.fix, references[case.mirror], case.root, d)})
        shutil.rmtree(work / f"new-model-{case.id}", ignore_errors=True)
    return Report(outcomes, others, skipped)


def _why(case: Case, diagnostics: List[dict], archsync: Sequence[str], tree: Path) -> str:
    """What archsync said of the names instead: what `archsync why` weighed in the subject, and any finding
    that asks for them elsewhere."""
    inventory = run_archsync(archsync, tree, "inventory")
    subjects = [s["name"] for s in inventory.get("subjects", ()) if s["path"] == case.file
                and in_subject(s["name"], case.subject)]
    if not subjects:
        said = "the subject is not read as a subject"
    else:
        said = "; ".join(f"{subject}: " + kinship_verdict(archsync, tree, subject, name)
                         for subject in subjects[:2] for name in case.names)
    elsewhere = sorted({d.get("subject") or "" for d in diagnostics if d.get("member") in case.names})
    if elsewhere:
        said += f" (asked for elsewhere: {', '.join(elsewhere[:3])}{', ...' if len(elsewhere) > 3 else ''})"
    return said
