"""Replay real whitelist-drift fixes: would archsync, zero-config, have caught each one the day before?

For every case of `corpus.json` (a fix commit that added architecture names to a subject) the
parent commit's tree is extracted from a local mirror (a bare git directory, as `fetch` leaves
them: `<mirrors>/<owner>+<name>/repo`), outside this repository, and `archsync check --format json`
runs on it with no configuration. A case is caught when a diagnostic on the case's file names
one of the names the fix added, in the case's subject (`ModelConfig.__init__` matches
`ModelConfig.__init__#3`; `is_fa3_default_architecture` matches `...default_archs`).

Every other diagnostic at those parents is then looked up in later history: a "missing" finding
(ARC101-ARC105) is confirmed when the subject's own literal holds the name at the project's
reference commit, an unknown name (ARC201) when it no longer does (`later.py` finds the same
literal there). That is a lower bound on precision: a finding nobody has acted on yet is not
proof of a false alarm. For SGLang the reference is the last commit before 2026-01-01: later
SGLang history is kept aside, unread.
"""
from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from bench.history.hosts import archsync_as_of
from bench.history.later import confirmed, read_facts
from lint_plugin.project.model_types import load_table

CORPUS = Path(__file__).with_name("corpus.json")
SGLANG_CUTOFF = "2026-01-01"  # SGLang history from here on is not read (kept aside for judging)
MISSING_CODES = ("ARC101", "ARC102", "ARC103", "ARC104", "ARC105", "ARC107")


@dataclass(frozen=True)
class Case:
    id: str
    project: str
    mirror: str
    fix: str
    parent: str
    root: str
    file: str
    subject: str
    names: Tuple[str, ...]
    kind: str
    single_name_at_parent: bool
    fix_kind: str = ""  # drift cases: "drift" (the fix only completes lists) or "capability" (it adds the code too)
    split: str = "tuned"  # "tuned": archsync was tuned on it; "held-out": collected unseen, reported apart


@dataclass
class Outcome:
    case: Case
    status: str  # "caught", "missed", "skipped"
    caught_names: List[str] = field(default_factory=list)
    evidence: List[str] = field(default_factory=list)  # the diagnostics that caught it
    why: str = ""  # why it was missed or skipped


def load_corpus(path: Path = CORPUS) -> List[Case]:
    document = json.loads(path.read_text(encoding="utf-8"))
    return [Case(c["id"], c["project"], c["mirror"], c["fix"], c["parent"], c["root"], c["file"], c["subject"],
                 tuple(c["names"]), c["kind"], bool(c.get("single_name_at_parent")), c.get("fix_kind", ""),
                 c.get("split", "tuned"))
            for c in document["cases"]]


# -- trees ----------------------------------------------------------------------------------------

def mirror_dir(mirrors: Path, mirror: str) -> Optional[Path]:
    """The bare git directory of `github:owner/name` under `mirrors`, if it is there."""
    slug = mirror.split(":", 1)[-1].replace("/", "+")
    for candidate in (mirrors / slug / "repo", mirrors / slug):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout


def extract_tree(git_dir: Path, commit: str, root: str, work: Path) -> Path:
    """The `.py` files of `root` at `commit`, under `work` (reused when already there)."""
    target = work / f"{git_dir.parent.name if git_dir.name == 'repo' else git_dir.name}-{commit[:12]}"
    done = target / ".extracted"
    source_root = target / root if root not in ("", ".") else target
    if done.is_file():
        return source_root
    pathspec = f":(glob){root}/**/*.py" if root not in ("", ".") else ":(glob)**/*.py"
    data = git(git_dir, "archive", "--format=tar", commit, "--", pathspec)
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive.getmembers():
            name = member.name
            if not member.isfile() or name.startswith("/") or ".." in Path(name).parts:
                continue  # only regular files inside the tree
            archive.extract(member, target)
    source_root.mkdir(parents=True, exist_ok=True)
    (source_root / "pyproject.toml").write_text("# zero-config replay: no [tool.archsync] table\n", encoding="utf-8")
    done.write_text(commit, encoding="utf-8")
    return source_root


def reference_commit(git_dir: Path, project: str) -> str:
    """What "later history" means for a project: its newest commit (SGLang: before the cut-off)."""
    if project == "sglang":
        return git(git_dir, "rev-list", "-1", f"--before={SGLANG_CUTOFF}", "HEAD").decode().strip()
    return git(git_dir, "rev-parse", "HEAD").decode().strip()


# -- archsync ---------------------------------------------------------------------------------------

def run_archsync(archsync: Sequence[str], tree: Path, command: str = "check", extra: Sequence[str] = ()) -> dict:
    """archsync's JSON document; a check's `diagnostics` as each place they report (a finding of one cause in
    a file carries the others as `related`), so a case is judged by the names each list is asked for."""
    args = [*archsync, command, "--no-cache", "--format", "json", *extra, "."]
    result = subprocess.run(args, cwd=tree, capture_output=True)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} in {tree}: exit {result.returncode}: "
                           f"{result.stderr.decode('utf-8', 'replace')[-400:]}")
    document = json.loads(result.stdout)
    if command == "check":
        document["diagnostics"] = [d for finding in document["diagnostics"]
                                   for d in (finding, *finding.get("related", ()))]
    return document


def in_subject(diagnostic_subject: str, case_subject: str) -> bool:
    """Does archsync's subject name denote the corpus's subject (or a literal inside it)?"""
    if diagnostic_subject == case_subject:
        return True
    if diagnostic_subject.startswith("@") and diagnostic_subject.rpartition(":")[2] == case_subject:
        return True
    return any(diagnostic_subject.startswith(case_subject + sep) for sep in ("#", "."))


def judge_case(case: Case, diagnostics: List[dict], inventory: Optional[dict]) -> Outcome:
    """Caught where a finding in the case's subject asks for one of its names: to add it, or (ARC201) to
    respell a name as it (`did you mean '<name>'?`, the fix a respelling made)."""
    hits = [(d, asked) for d in diagnostics if d.get("path") == case.file
            and in_subject(d.get("subject") or "", case.subject)
            for asked in (d.get("member"), _respelt_as(d)) if asked in case.names]
    if hits:
        return Outcome(case, "caught", sorted({asked for _, asked in hits}),
                       list(dict.fromkeys(f"{d['code']} {d['message']}" for d, _ in hits)))
    return Outcome(case, "missed", why=why_missed(case, inventory))


_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'")


def _respelt_as(diagnostic: dict) -> Optional[str]:
    """The name an ARC201 finding says a name should have been (`did you mean 'X'?`), or None."""
    found = _DID_YOU_MEAN.search(diagnostic.get("message") or "") if diagnostic.get("code") == "ARC201" else None
    return found.group(1) if found else None


def why_missed(case: Case, inventory: Optional[dict]) -> str:
    if case.kind == "new-model":
        return "the fix commit registers the names: nothing to catch at the parent"
    if inventory is None:
        return "no inventory"
    registered = {r["name"] for r in inventory.get("registered", ())}
    if not registered:
        return "nothing is registered at the parent (zero-config): no list is checked"
    model_types = inventory.get("model_types", {})  # a model type the lists write stands for what it names
    unnamed = [n for n in case.names if n not in registered and model_types.get(n) == []]
    if unnamed:
        return f"a model type naming no architecture registered at the parent (zero-config): {', '.join(unnamed)}"
    unknown = [n for n in case.names if n not in registered and not model_types.get(n)]
    if unknown and all(n == n.lower() for n in unknown):  # model types (`qwen3_5`), which no list wrote yet
        table = load_table().types  # ...but archsync's table may tie them to registered architectures
        untied = [n for n in unknown if not registered.intersection(table.get(n, ()))]
        if untied:
            return f"model types that neither the lists at the parent nor archsync's table tie to a registered " \
                   f"architecture: {', '.join(untied)}"
    elif unknown:
        return f"not registered at the parent (zero-config): {', '.join(unknown)}"
    subjects = [s for s in inventory.get("subjects", ()) if s["path"] == case.file
                and in_subject(s["name"], case.subject)]
    if not subjects:
        return "the subject is not read as a subject"
    if all(s["names"] <= 1 for s in subjects):
        return "the subject holds one name at the parent (typo checks only)"
    return NO_EVIDENCE


NO_EVIDENCE = "no evidence ties the names to what the subject holds"


def kinship_verdict(archsync: Sequence[str], tree: Path, subject: str, name: str) -> str:
    """What `archsync why` says of one missed name: its evidence kinds, confidence and the deciding guard."""
    result = subprocess.run([*archsync, "why", subject, name, ".", "--no-cache"], cwd=tree, capture_output=True)
    lines = result.stdout.decode("utf-8", "replace").splitlines()
    if result.returncode != 0 or not lines:
        return f"{name}: `archsync why` failed"
    kinds = sorted({line.split()[1] for line in lines if line.startswith("  ")})
    sure = next((line.split()[1] for line in lines if line.startswith(("estimate ", "confidence "))), None)
    verdict = lines[-1]
    for other in lines:  # the verdict is the last line before any "reported:" line
        if other.startswith("ARC105 "):
            verdict = other
    verdict = verdict.replace("ARC105 stays quiet: ", "").replace("ARC105 at ", "")
    if not kinds:
        return f"{name}: no kinship evidence"
    return f"{name}: {'+'.join(kinds)} {sure}; {verdict}"


# -- later history ------------------------------------------------------------------------------------

def confirmed_later(git_dir: Path, parent: str, reference: str, root: str, diagnostic: dict) -> Optional[bool]:
    """Did later history do what the diagnostic asks, in the subject's own literal? None when it cannot be told."""
    code, member, subject = diagnostic.get("code"), diagnostic.get("member"), diagnostic.get("subject")
    if not member or not subject or not (code in MISSING_CODES or code == "ARC201"):
        return None
    path = f"{root}/{diagnostic['path']}" if root not in ("", ".") else diagnostic["path"]
    try:
        before, after = (git(git_dir, "show", f"{commit}:{path}").decode("utf-8", "replace")
                         for commit in (parent, reference))
    except subprocess.CalledProcessError:
        return None  # the file moved or went away
    return confirmed(code, member, read_facts(before, diagnostic["path"]), read_facts(after, diagnostic["path"]),
                     subject, MISSING_CODES)


# -- the run ------------------------------------------------------------------------------------------

@dataclass
class Report:
    outcomes: List[Outcome]
    others: List[dict]  # diagnostics at the parents that are no case's, with "confirmed"
    skipped_mirrors: Set[str]

    def to_json(self) -> dict:
        return {
            "version": 1,
            "cases": [{"id": o.case.id, "project": o.case.project, "kind": o.case.kind, "fix_kind": o.case.fix_kind,
                       "split": o.case.split,
                       "status": o.status,
                       "names": list(o.case.names), "caught_names": o.caught_names, "evidence": o.evidence,
                       "why": o.why} for o in self.outcomes],
            "other_diagnostics": self.others,
            "skipped_mirrors": sorted(self.skipped_mirrors),
            "summary": summary(self),
        }


# The rows of the summary: each case kind, and the drift cases split by what their fix commit does.
KINDS = ("drift", "drift:lists", "drift:capability", "upstream", "unregistered", "new-model", "all")


def _of_kind(case: Case, kind: str) -> bool:
    if kind == "all":
        return True
    base, _, fix_kind = kind.partition(":")
    return case.kind == base and (not fix_kind or case.fix_kind == ("drift" if fix_kind == "lists" else fix_kind))


def summary(report: Report) -> dict:
    out: Dict[str, dict] = {}
    for kind in KINDS:
        chosen = [o for o in report.outcomes if o.status != "skipped" and _of_kind(o.case, kind)]
        names = sum(len(o.case.names) for o in chosen)
        caught_names = sum(len(o.caught_names) for o in chosen)
        caught = sum(1 for o in chosen if o.status == "caught")
        out[kind] = {"cases": len(chosen), "caught": caught, "names": names, "caught_names": caught_names}
    judged = [d for d in report.others if d["confirmed"] is not None]
    out["other_diagnostics"] = {"total": len(report.others), "judged_by_history": len(judged),
                                "confirmed": sum(1 for d in judged if d["confirmed"])}
    by_code: Dict[str, Dict[str, int]] = {}
    for d in report.others:
        counts = by_code.setdefault(d["code"], {"total": 0, "judged": 0, "confirmed": 0})
        counts["total"] += 1
        counts["judged"] += d["confirmed"] is not None
        counts["confirmed"] += bool(d["confirmed"])
    out["other_diagnostics_by_code"] = by_code
    return out


def replay(cases: Sequence[Case], mirrors: Path, work: Path, archsync: Sequence[str], settings: str = "",
           progress=lambda message: print(message, file=sys.stderr, flush=True),
           hosts: Optional[Dict[str, Path]] = None) -> Report:
    """`settings`: lines for a `[tool.archsync]` table (none: zero-config, the point of the replay). `hosts`:
    host package -> its mirror, to check a plugin against its host as of the parent's date (`hosts.py`)."""
    outcomes: List[Outcome] = []
    others: List[dict] = []
    skipped: Set[str] = set()
    parents: Dict[Tuple[str, str], Tuple[List[dict], Optional[dict]]] = {}
    references: Dict[str, str] = {}
    trees: Dict[Tuple[str, str], Path] = {}
    commands: Dict[Tuple[str, str], Sequence[str]] = {}
    for case in cases:
        git_dir = mirror_dir(mirrors, case.mirror)
        if git_dir is None:
            skipped.add(case.mirror)
            outcomes.append(Outcome(case, "skipped", why=f"no mirror of {case.mirror} under {mirrors}"))
            continue
        key = (case.mirror, case.parent)
        if key not in parents:
            progress(f"{case.id}: {case.project} @ {case.parent[:12]}")
            tree = extract_tree(git_dir, case.parent, case.root, work)
            (tree / "pyproject.toml").write_text(f"[tool.archsync]\n{settings}\n" if settings else
                                                 "# zero-config replay: no [tool.archsync] table\n", encoding="utf-8")
            command = (archsync_as_of(tree, git_dir, case.parent, hosts, work) if hosts else None) or archsync
            diagnostics = run_archsync(command, tree)["diagnostics"]
            inventory = run_archsync(command, tree, "inventory")
            parents[key] = (diagnostics, inventory)
            commands[key] = command
            trees[key] = tree
            if case.mirror not in references:
                references[case.mirror] = reference_commit(git_dir, case.project)
        diagnostics, inventory = parents[key]
        outcome = judge_case(case, diagnostics, inventory)
        if outcome.why == NO_EVIDENCE and inventory is not None:  # say what the kinship rule saw instead
            subject = next(s["name"] for s in inventory.get("subjects", ()) if s["path"] == case.file
                           and in_subject(s["name"], case.subject) and s["names"] > 1)
            outcome = dataclasses.replace(outcome, why="; ".join(
                kinship_verdict(commands[key], trees[key], subject, name) for name in case.names))
        outcomes.append(outcome)
    for (mirror, parent), (diagnostics, _) in parents.items():
        mine = [c for c in cases if (c.mirror, c.parent) == (mirror, parent)]
        git_dir = mirror_dir(mirrors, mirror)
        assert git_dir is not None
        for d in diagnostics:
            if any(d.get("path") == c.file and d.get("member") in c.names and in_subject(d.get("subject") or "",
                                                                                          c.subject) for c in mine):
                continue
            if d.get("code", "").startswith("ARC9"):
                continue  # what archsync could not see: informational, not a finding
            others.append({"project": mine[0].project, "parent": parent, "code": d.get("code"), "path": d.get("path"),
                           "line": d.get("line"), "subject": d.get("subject"), "member": d.get("member"),
                           "message": d.get("message"),
                           "confirmed": confirmed_later(git_dir, parent, references[mirror], mine[0].root, d)})
    return Report(outcomes, others, skipped)


def markdown(report: Report, others: str = "Other diagnostics at these parents") -> str:
    lines = ["| case | project | split | kind | fix | result | names caught | evidence / why missed |",
             "|---|---|---|---|---|---|---|---|"]
    for o in report.outcomes:
        detail = "; ".join(e.split(" ", 1)[0] + " " + e.split(" ", 1)[1][:140] for e in o.evidence) or o.why
        lines.append(f"| {o.case.id} | {o.case.project} | {o.case.split} | {o.case.kind} | {o.case.fix_kind} | "
                     f"{o.status} | {len(o.caught_names)}/{len(o.case.names)} | {detail} |")
    s = summary(report)
    lines += ["", "| kind | cases | caught | names | names caught |", "|---|---|---|---|---|"]
    for kind in KINDS:
        k = s[kind]
        rate = f" ({100 * k['caught'] / k['cases']:.0f}%)" if k["cases"] else ""
        lines.append(f"| {kind} | {k['cases']} | {k['caught']}{rate} | {k['names']} | {k['caught_names']} |")
    o = s["other_diagnostics"]
    lines += ["", f"{others}: {o['total']}; later history could judge "
              f"{o['judged_by_history']}, and did what {o['confirmed']} of them ask."]
    lines += [f"- {code}: {c['total']}, judged {c['judged']}, confirmed {c['confirmed']}"
              for code, c in sorted(s["other_diagnostics_by_code"].items())]
    if report.skipped_mirrors:
        lines.append(f"Skipped (no mirror): {', '.join(sorted(report.skipped_mirrors))}")
    return "\n".join(lines)


def default_archsync() -> List[str]:
    here = Path(sys.executable).parent
    exe = here / ("archsync.exe" if os.name == "nt" else "archsync")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "lint_plugin.frontends.cli"]
