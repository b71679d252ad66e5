"""The generated reference pages under docs/: one per rule code, the code table, the configuration keys.

    python -m lint_plugin.frontends.reference --check   # exit 1 naming each stale, missing or extra page
    python -m lint_plugin.frontends.reference --write   # regenerate them (and remove pages of no rule)

A rule's page is `archsync explain CODE` (`rules.page`) under a line saying where it comes from;
the table and docs/configuration.md are built here from the registry and the settings schema.
Nothing on these pages is written by hand, so tests/test_docs.py fails when one is stale.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from ..config import schema
from ..rules import BY_CODE, RULES, explain, rules_table
from ..rules.page import wrap

COMMAND = "python -m lint_plugin.frontends.reference --write"
RULES_DIR = "rules"  # under docs/: every file there is generated
CONFIGURATION = "configuration.md"


def pages() -> Dict[str, str]:
    """Every generated page, by its path under docs/."""
    found = {f"{RULES_DIR}/{rule.code}.md": rule_page(rule.code) for rule in RULES}
    found[f"{RULES_DIR}/README.md"] = rules_index()
    found[CONFIGURATION] = configuration_page()
    return found


def rule_page(code: str) -> str:
    """docs/rules/CODE.md: exactly what `archsync explain CODE` prints, under a note of where it comes from."""
    module = f"lint_plugin/rules/{code.lower()}_{BY_CODE[code].name.replace('-', '_')}.py"
    return _note(module) + explain(code)


def rules_index() -> str:
    blocks = [
        "# Rule codes",
        "Every code archsync reports, in priority order: where several drift rules speak about one name in one "
        "subject, only the first of them is reported. Each code has a page (also printed by `archsync explain "
        "CODE`) with what it reports, why it matters, examples with their exact output and corrected form, the "
        "settings that change it and whether `archsync fix` applies.",
        rules_table(pages=True).rstrip("\n"),
        "The severity is the same in every medium: an *error* is an Error in the editor, `::error` on GitHub "
        "and `error` in SARIF; a *warning* is a Warning, `::warning` and `warning`; *information* is "
        "Information, `::notice` and `note`. Any finding shown makes `archsync check` exit 1, whatever its "
        "severity. `archsync rules` lists the codes.",
    ]
    return _note("the rule modules (lint_plugin/rules/arcNNN_*.py)") + "\n\n".join(map(_wrapped, blocks)) + "\n"


def configuration_page() -> str:
    blocks = [
        "# Configuration reference",
        "archsync reads `[tool.archsync]` from the project's `pyproject.toml` (the nearest one above a file: "
        "see [projects and monorepos](projects.md)). Nothing needs configuring to start: every key has a "
        "working default, and `archsync init` writes a starter table from what it finds. Keys may be written "
        "with `-` or `_`.",
        "A mistake (an unknown key, a wrong type, a missing reason, an unknown pack) is an error that names the "
        "file and the key path: `archsync` prints it and exits 2, the flake8 plugin reports it as ARC900. No "
        "setting is silently ignored: a key *held to the project* "
        "below must match something there, and an entry that matches nothing is an error with the nearest "
        "names found where it is most likely a typo, a warning where it is harmless. What a rule pack "
        "(`extends`) says is never held to the project.",
        "| key | type | default | changes |\n|---|---|---|---|\n" + "\n".join(
            f"| [`{key.name}`](#{key.name}) | {key.toml_type} | {_default(key)} | {_changes(key)} |"
            for key in schema.KEYS),
    ]
    for key in schema.KEYS:
        blocks += _key_section(key)
    return _note("lint_plugin/config/schema.py and the rules' settings") + "\n\n".join(map(_wrapped, blocks)) + "\n"


def _key_section(key: schema.Key) -> List[str]:
    facts = [f"- Type: {key.toml_type}" + (f", one of {', '.join(f'`{c}`' for c in key.choices)}"
                                           if key.choices else ""),
             f"- Default: {_default(key)}", f"- Changes: {_changes(key)}"]
    if key.matched:
        facts.append("- Held to the project: an entry that matches nothing there is reported.")
    blocks = [f"## `{key.name}`", key.summary[:1].upper() + key.summary[1:] + ".", key.description,
              "\n".join(facts)]
    if key.fields:
        blocks.append("| key | type | required | what it is |\n|---|---|---|---|\n" + "\n".join(
            f"| `{field.name}` | {field.toml_type} | {'yes' if field.required else 'no'} | {field.summary} |"
            for field in key.fields))
    example = key.example if key.kind == schema.TABLES else f"[tool.archsync]\n{key.example}"
    return blocks + [f"```toml\n{example.rstrip()}\n```"]


def _default(key: schema.Key) -> str:
    if key.kind == schema.TABLES:
        return "none"
    return f"`{key.default}`" if key.default else "unset"


def _changes(key: schema.Key) -> str:
    """What a key changes: what it says of the whole run, and the rules that name it among their settings."""
    codes = [f"[{rule.code}](rules/{rule.code}.md)" for rule in RULES if key.name in rule.settings]
    return "; ".join(filter(None, [key.applies, ", ".join(codes)]))


def _note(source: str) -> str:
    return f"<!-- Generated by `{COMMAND}` from {source}: edit that, not this page. -->\n\n"


def _wrapped(block: str) -> str:
    return block if block.startswith("|") else wrap(block)


def stale(docs: Path) -> List[str]:
    """What is out of date under `docs`: each generated page that differs or is missing, each extra one."""
    expected = pages()
    problems = []
    for relative, text in sorted(expected.items()):
        path = docs / relative
        if not path.is_file():
            problems.append(f"{relative}: missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{relative}: stale")
    for path in sorted((docs / RULES_DIR).glob("*")):
        relative = f"{RULES_DIR}/{path.name}"
        if relative not in expected:
            problems.append(f"{relative}: generated by nothing (no rule has this page)")
    return problems


def write(docs: Path) -> List[str]:
    """Bring every generated page under `docs` up to date; what was written or removed."""
    done = []
    for relative, text in sorted(pages().items()):
        path = docs / relative
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))  # "\n" line ends on every system (`newline=` is 3.10's)
            done.append(f"{relative}: written")
    expected = pages()
    for path in sorted((docs / RULES_DIR).glob("*")):
        if f"{RULES_DIR}/{path.name}" not in expected and path.is_file():
            path.unlink()
            done.append(f"{RULES_DIR}/{path.name}: removed")
    return done


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lint_plugin.frontends.reference", allow_abbrev=False,
                                     description="Check or regenerate the reference pages under docs/.")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="exit 1 naming each page that is not up to date")
    action.add_argument("--write", action="store_true", help="regenerate the pages")
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="the docs directory (default: ./docs)")
    args = parser.parse_args(argv)
    if args.write:
        for line in write(args.docs):
            print(f"{args.docs.as_posix()}/{line}")
        return 0
    problems = stale(args.docs)
    for line in problems:
        print(f"{args.docs.as_posix()}/{line}", file=sys.stderr)
    if problems:
        print(f"run `{COMMAND}`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover - the tests call main()
    sys.exit(main())
