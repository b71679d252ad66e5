"""One answer per front end: the command line (text and JSON), flake8 and the language server report
the same findings, every path seen from the directory they run in (issue 30, items 4 and 5).

Each front end runs as a process of its own in `--cwd`, on the PATHs:

- `archsync check --no-cache --exit-zero PATHS`, as text and as `--format json`;
- `flake8 --isolated --select ARC PATHS` (the tree's own flake8 settings would change which files
  flake8 checks, not what archsync finds in them);
- `archsync lsp`, started in `--cwd`, with every Python file of every project under the PATHs opened
  as it is saved (or, with `--lsp-others N`, the files the others report in and N more, a seeded
  sample: with thousands of documents open each check publishes thousands); each document's
  diagnostics are those last published for it.

A finding is (code, path, line, column, message), its path as the front end prints it (the language
server's: its document's URI, seen from `--cwd`), its column in code points (the server's UTF-16
units converted with the document's text). JSON and the language server carry the member too
(the server in each diagnostic's `data`); flake8 and the text carry it in the message.

Every location the language server names beside a diagnostic (`relatedInformation`) must be a file
that exists, with the line in it; so must every `path:line` the messages name, read from `--cwd`.

    python -m bench.frontends --cwd /work/scratch/trees/sglang python --lsp-others 300
    python -m bench.frontends --cwd /work/scratch/trees/vllm . --json /tmp/vllm-frontends.json

Prints one table and the differences; exits 1 when the front ends disagree or a location does not open.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple
from urllib.parse import unquote, urlparse

if __package__ in (None, ""):  # `python bench/frontends.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.lsp import Session  # noqa: E402
else:
    from .lsp import Session

Finding = Tuple[str, str, int, int, str]  # code, path, line, column, message
WithMember = Tuple[str, str, int, int, str, Optional[str]]  # ... and the member

_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<code>ARC\d+) (?P<message>.*)$")
# a location a message names: a file of the tree (a .py/.pyi source or a pyproject.toml) and its line
_PLACE = re.compile(r"(?:^|[\s(])((?:[\w.-]+/)*[\w.-]+\.(?:pyi?|toml))(?::(\d+))?")
FRONT_ENDS = ("text", "json", "flake8", "lsp")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the lines LSP counts


@dataclass
class Answers:
    """What each front end reported, and what was checked beside it."""

    text: List[Finding] = field(default_factory=list)
    json: List[WithMember] = field(default_factory=list)
    places: List[WithMember] = field(default_factory=list)  # JSON's findings as each place of their cause
    flake8: List[Finding] = field(default_factory=list)
    lsp: List[WithMember] = field(default_factory=list)
    opened: int = 0  # documents the language server was given
    not_opened: List[str] = field(default_factory=list)  # files no editor could send as UTF-8 text
    related: int = 0  # locations the language server named beside its diagnostics
    named: int = 0  # `path:line` locations named in the messages
    broken: List[str] = field(default_factory=list)  # locations that do not open
    seconds: Dict[str, float] = field(default_factory=dict)

    def findings(self, front_end: str) -> List[Finding]:
        return sorted(tuple(f[:5]) for f in getattr(self, front_end))  # type: ignore[misc]

    def differences(self) -> List[str]:
        """Each front end against JSON's findings (the document a program reads), then the members. The
        language server shows each place of a finding of several (one cause in a file), with its own
        message: it is held to JSON's findings as their places."""
        found: List[str] = []
        for front_end, reference in (("text", "json"), ("flake8", "json"), ("lsp", "places")):
            mine, theirs = self.findings(front_end), self.findings(reference)
            found += [f"{front_end} lacks: {_shown(f)}" for f in _minus(theirs, mine)]
            found += [f"{front_end} adds: {_shown(f)}" for f in _minus(mine, theirs)]
        if sorted(self.places, key=_key) != sorted(self.lsp, key=_key) and not found:
            found += [f"member differs: {a} / {b}" for a, b in zip(sorted(self.places, key=_key),
                                                                   sorted(self.lsp, key=_key)) if a != b]
        return found + [f"does not open: {b}" for b in self.broken]


def _key(finding: WithMember) -> Tuple[Any, ...]:
    return tuple("" if part is None else part for part in finding)


def _minus(first: List[Finding], second: List[Finding]) -> List[Finding]:
    left = list(second)
    missing = []
    for finding in first:
        if finding in left:
            left.remove(finding)
        else:
            missing.append(finding)
    return missing


def _shown(finding: Finding) -> str:
    code, path, line, column, message = finding
    return f"{path}:{line}:{column}: {code} {message}"


def collect(cwd: Path, paths: Sequence[str], archsync: str, python: str = sys.executable, jobs: int = 2,
            timeout: float = 1800, lsp_others: Optional[int] = None) -> Answers:
    """Run every front end in `cwd` on `paths` and read what each reports (the language server: with
    every project file open, or the files the others report in and `lsp_others` more, a seeded sample)."""
    answers = Answers()
    started = time.perf_counter()
    text = _run([archsync, "check", "--no-cache", "--exit-zero", "--quiet", *paths], cwd, timeout)
    answers.text = [_parsed(line) for line in text.splitlines() if line]
    answers.seconds["text"] = time.perf_counter() - started
    started = time.perf_counter()
    document = json.loads(_run([archsync, "check", "--no-cache", "--exit-zero", "--format", "json", *paths],
                               cwd, timeout))
    answers.json = [(d["code"], os.path.normpath(d["path"]), d["line"], d["column"], d["message"], d["member"])
                    for d in document["diagnostics"]]
    answers.places = [(d["code"], os.path.normpath(d["path"]), d["line"], d["column"],
                       d["message"].split("; the same for ")[0], d["member"])
                      for finding in document["diagnostics"] for d in (finding, *finding.get("related", ()))]
    answers.seconds["json"] = time.perf_counter() - started
    started = time.perf_counter()
    out = _run([python, "-m", "flake8", "--isolated", "--select=ARC", f"--jobs={jobs}", *paths], cwd, timeout,
               ok=(0, 1))
    answers.flake8 = [_parsed(line) for line in out.splitlines() if line]
    answers.seconds["flake8"] = time.perf_counter() - started
    started = time.perf_counter()
    _language_server(answers, cwd, _opened(answers, cwd, paths, lsp_others), archsync, timeout)
    answers.seconds["lsp"] = time.perf_counter() - started
    _check_places(answers, cwd)
    return answers


def _run(command: Sequence[str], cwd: Path, timeout: float, ok: Tuple[int, ...] = (0,)) -> str:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    done = subprocess.run(list(command), cwd=str(cwd), env=env, capture_output=True, timeout=timeout)
    if done.returncode not in ok:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode("utf-8", "replace")


def _parsed(line: str) -> Finding:
    match = _LINE.match(line)
    if match is None:
        raise ValueError(f"not a finding: {line!r}")
    return (match["code"], os.path.normpath(match["path"]), int(match["line"]), int(match["column"]),
            match["message"])


def project_files(cwd: Path, paths: Sequence[str]) -> List[Path]:
    """Every file archsync checks under `paths`: each project's own discovery (the language server's
    documents are the files of a project; a file in no project is not checked from a directory)."""
    from lint_plugin.config import load_config
    from lint_plugin.project.discovery import discover
    from lint_plugin.project.projects import projects_of
    from lint_plugin.rules.codes import CODES

    files: List[Path] = []
    for path in paths:
        under = (cwd / path).resolve()
        found = projects_of(under)
        for root in found.roots if found is not None else ():
            for source in discover(load_config(root, CODES)):
                file = root / source.rel
                if (file == under or under in file.parents) and file not in files:
                    files.append(file)
    return files


def _opened(answers: Answers, cwd: Path, paths: Sequence[str], others: Optional[int]) -> List[Path]:
    """The files to open in the language server: every project file, or those the other front ends report
    in and `others` more (a server publishes for open documents only; each check publishes for all of them,
    so thousands open at once cost minutes)."""
    files = project_files(cwd, paths)
    if others is None:
        return files
    reported = {(cwd / f[1]).resolve() for name in ("text", "json", "flake8") for f in getattr(answers, name)}
    rest = [f for f in files if f not in reported]
    return [f for f in files if f in reported] + random.Random(0).sample(rest, min(others, len(rest)))


def _language_server(answers: Answers, cwd: Path, files: Sequence[Path], archsync: str, timeout: float) -> None:
    """Open `files` in a server started in `cwd`; each document's last published diagnostics."""
    texts: Dict[str, str] = {}
    for file in files:
        try:
            texts[file.as_uri()] = file.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            answers.not_opened.append(os.path.relpath(file, cwd))
    answers.opened = len(texts)
    session = Session([archsync, "lsp"], cwd)
    try:
        ident = session.send("initialize", {
            "processId": os.getpid(), "rootUri": cwd.resolve().as_uri(),
            "workspaceFolders": [{"uri": cwd.resolve().as_uri(), "name": cwd.name}],
            "capabilities": {"textDocument": {"publishDiagnostics": {"relatedInformation": True,
                                                                      "versionSupport": True}}},
            "initializationOptions": {"debounce": 0.5}}, request=True)
        session.wait_for(lambda m: m.get("id") == ident, timeout)
        session.send("initialized", {})
        # Opened from a thread while this one reads: the server publishes as the buffers arrive, and
        # a client that only wrote would fill its output pipe, and both would wait on a write.
        opener = threading.Thread(target=_open_all, args=(session, texts), daemon=True)
        opener.start()
        published: Dict[str, List[Dict[str, Any]]] = {}
        deadline = time.perf_counter() + timeout
        while len(published) < len(texts):
            message = session.receive(deadline)
            if message is None:
                raise TimeoutError(f"{len(texts) - len(published)} documents never got diagnostics")
            if message.get("method") == "textDocument/publishDiagnostics":
                published[message["params"]["uri"]] = message["params"]["diagnostics"]
        # what a check still under way publishes (the buffers are the files: the same findings)
        while True:
            message = session.receive(time.perf_counter() + 1.0)
            if message is None:
                break
            if message.get("method") == "textDocument/publishDiagnostics":
                published[message["params"]["uri"]] = message["params"]["diagnostics"]
        opener.join()
    finally:
        session.close()
    for uri, diagnostics in published.items():
        path = os.path.relpath(_fs_path(uri), cwd)
        lines = _LINE_BREAK.split(texts[uri])
        for d in diagnostics:
            start = d["range"]["start"]
            column = _code_points(lines[start["line"]] if start["line"] < len(lines) else "", start["character"])
            answers.lsp.append((d["code"], path, start["line"] + 1, column + 1, d["message"],
                                (d.get("data") or {}).get("member")))
            for related in d.get("relatedInformation") or ():
                answers.related += 1
                location = related["location"]
                _opens(answers, _fs_path(location["uri"]), location["range"]["start"]["line"] + 1, cwd)


def _open_all(session: Session, texts: Dict[str, str]) -> None:
    for uri, text in texts.items():
        session.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python",
                                                               "version": 1, "text": text}})


def _fs_path(uri: str) -> str:
    return unquote(urlparse(uri).path)


def _code_points(line: str, units: int) -> int:
    """The code point index of a UTF-16 offset into `line` (what LSP's default position encoding counts)."""
    count = 0
    for index, char in enumerate(line):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def _check_places(answers: Answers, cwd: Path) -> None:
    """Every `path:line` a message names (text, JSON, flake8, the server) opens from `cwd`."""
    seen = set()
    for front_end in FRONT_ENDS:
        for finding in getattr(answers, front_end):
            for match in _PLACE.finditer(finding[4]):
                place = (match.group(1), int(match.group(2)) if match.group(2) else None)
                if place not in seen:
                    seen.add(place)
                    answers.named += 1
                    _opens(answers, str(cwd / place[0]), place[1], cwd)


def _opens(answers: Answers, path: str, line: Optional[int], cwd: Path) -> None:
    shown = os.path.relpath(path, cwd)
    if not os.path.isfile(path):
        answers.broken.append(f"{shown} (no such file from {cwd})")
    elif line is not None:
        with open(path, "rb") as handle:
            if line > handle.read().count(b"\n") + 1:
                answers.broken.append(f"{shown}:{line} (past the end of the file)")


def report(answers: Answers, cwd: Path, paths: Sequence[str]) -> str:
    """A Markdown summary: what each front end found, and whether they agree."""
    members = sum(1 for f in answers.places if f[5] is not None)
    rows = [f"### `{cwd}` : {' '.join(paths)}", "",
            "| front end | findings | seconds |", "|---|---|---|"]
    rows += [f"| {name} | {len(getattr(answers, name))} | {answers.seconds.get(name, 0):.1f} |" for name in FRONT_ENDS]
    differences = answers.differences()
    rows += ["", f"documents opened in the language server: {answers.opened}"
             + (f" ({len(answers.not_opened)} not UTF-8, not opened)" if answers.not_opened else ""),
             f"places with a member: {members} (JSON's and the server's members "
             f"{'agree' if sorted(answers.places, key=_key) == sorted(answers.lsp, key=_key) else 'DIFFER'}; "
             f"JSON's {len(answers.json)} findings stand for {len(answers.places)} places, one per cause)",
             f"locations named in messages: {answers.named}; beside the server's diagnostics: {answers.related}; "
             f"not opening: {len(answers.broken)}",
             "", "**the front ends agree**" if not differences else "**DIFFERENCES**"]
    rows += [f"- {d}" for d in differences[:50]]
    return "\n".join(rows) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.frontends", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="as given to each front end")
    parser.add_argument("--cwd", type=Path, default=Path("."), help="where every front end runs (default: .)")
    parser.add_argument("--archsync", default=str(Path(sys.executable).parent / "archsync"))
    parser.add_argument("-j", "--jobs", type=int, default=2, help="flake8 jobs (default 2)")
    parser.add_argument("--json", type=Path, help="also write every finding of every front end here")
    parser.add_argument("--lsp-others", type=int, metavar="N",
                        help="open in the language server the files the others report in and N more "
                             "(default: every project file)")
    args = parser.parse_args(argv)
    answers = collect(args.cwd, args.paths, args.archsync, jobs=args.jobs, lsp_others=args.lsp_others)
    sys.stdout.write(report(answers, args.cwd, args.paths))
    if args.json:
        args.json.write_text(json.dumps({name: answers.findings(name) for name in FRONT_ENDS}
                                        | {"json_members": answers.json, "lsp_members": answers.lsp,
                                           "broken": answers.broken, "seconds": answers.seconds}, indent=1))
    return 1 if answers.differences() else 0


if __name__ == "__main__":
    sys.exit(main())
