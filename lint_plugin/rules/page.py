"""A rule's page, in Markdown: what `archsync explain CODE` prints and docs/rules/CODE.md holds.

One renderer for both, so the terminal and the docs cannot say different things. Everything on
a page comes from the rule module (its text, its examples with their exact output and corrected
form, its settings) and the settings schema; the examples are run by the test suite, so a page
never shows an output archsync does not print.
"""
from __future__ import annotations

import re
import textwrap
from typing import List, Tuple

from ..config import schema
from .rule import Example, Rule

WIDTH = 92  # prose is wrapped for a terminal; code blocks stay as written
CONFIGURATION = "../configuration.md"  # the reference page of every key, from docs/rules/

_FIX = {
    "add": "`archsync fix` adds the missing name, where the collection is a literal it can edit.",
    "remove": "`archsync fix` removes the duplicate.",
    None: "`archsync fix` does not change it: it is corrected by hand.",
}


def render(rule: Rule) -> str:
    """The page of `rule`."""
    once = (" The places of a file where one cause leaves a name out (the same message but for the name and "
            "the list) are one finding, at the first, naming the others "
            "([one finding per cause](../command-line.md#one-finding-per-cause)).") if rule.one_per_cause else ""
    blocks = [f"# {rule.code} {rule.name}", _sentence(rule.summary),
              f"Severity: {rule.severity}. {_FIX[rule.fix]}{once}",
              "## What it reports", rule.what, "## Why it matters", rule.why]
    if rule.examples:
        blocks.append("## Examples")
        first = rule.examples[0].files
        for index, example in enumerate(rule.examples):
            blocks += _example(example, rule.fix is not None, first if index else ())
    blocks += ["## How to fix it", rule.fix_doc, "## Settings", *_settings(rule)]
    if rule.exempt_doc:
        blocks += ["## Exempting a finding", rule.exempt_doc]
    return "\n\n".join(wrap(block) for block in blocks) + "\n"


def _example(example: Example, fixable: bool, shown: Tuple[Tuple[str, str], ...]) -> List[str]:
    """An example's files, output and corrected form; files `shown` above in the same words are named only."""
    blocks = [f"### {'Reported' if example.expect else 'Accepted'}: {example.title}"]
    same = [path for path, text in example.files if (path, text) in shown]
    if same:
        blocks.append(f"The same {_names(same)} as in the first example, and:")
    blocks += _files(tuple(file for file in example.files if file[0] not in same))
    check, fix = ("`archsync check --baseline-commit HEAD`", "`archsync fix --baseline-commit HEAD`") \
        if example.baseline else ("`archsync check`", "`archsync fix`")
    if example.baseline:  # how the commit the change is judged against held what it touched
        blocks.append("At the baseline commit (`HEAD`), before the change:")
        for path, text in example.baseline:
            blocks += [f"`{path}` was not there."] if text is None else _files(((path, text),))
    if not example.expect:
        return blocks + [f"{check} prints nothing."]
    blocks += [f"{check} prints:", _fence("text", "\n".join(example.expect))]
    blocks.append(f"Corrected, as {fix} writes it:" if fixable else "Corrected:")
    return blocks + _files(example.corrected) + [f"{check} then prints nothing."]


def _files(files: Tuple[Tuple[str, str], ...]) -> List[str]:
    blocks = []
    for path, text in files:
        blocks += [f"`{path}`:", _fence("toml" if path.endswith(".toml") else "python", text.rstrip("\n"))]
    return blocks


def _names(paths: List[str]) -> str:
    quoted = [f"`{path}`" for path in paths]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _settings(rule: Rule) -> List[str]:
    """The rule's own keys, each with its type, default and summary; then the keys of the whole run."""
    own = [key for key in schema.KEYS if key.name in rule.settings]
    items = [f"- `{key.name}` ({_type_and_default(key)}): {key.summary}." for key in own]
    general = [f"`{key.name}`" for key in schema.KEYS if key.applies and key.name not in rule.settings]
    closing = (f"The keys about the run as a whole ({', '.join(general)}) and the details of every key are in "
               f"[the configuration reference]({CONFIGURATION}).")
    return ["\n".join(items), closing] if items else [closing]


def _type_and_default(key: schema.Key) -> str:
    if key.kind == schema.TABLES:
        return key.toml_type
    return f"{key.toml_type}, default `{key.default}`" if key.default else f"{key.toml_type}, unset by default"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _fence(language: str, text: str) -> str:
    return f"```{language}\n{text}\n```"


def wrap(block: str) -> str:
    """Wrap prose at WIDTH (list items with a hanging indent); headings and fenced code stay as written.

    A block may hold fenced code after its prose (`exempt_doc`), separated by a blank line.
    """
    out = []
    for paragraph in _paragraphs(block):
        if paragraph.startswith(("#", "```", "|")):  # a heading, code, a table: as written
            out.append(paragraph)
        elif paragraph.startswith("- "):
            out.append("\n".join(_fill(item, "  ") for item in paragraph.split("\n")))
        else:
            out.append(_fill(paragraph, ""))
    return "\n\n".join(out)


def _paragraphs(block: str) -> List[str]:
    """`block` split at blank lines, a fenced code block whole whatever it holds."""
    found: List[str] = []
    lines: List[str] = []
    fenced = False
    for line in block.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        if line or fenced:
            lines.append(line)
        elif lines:
            found.append("\n".join(lines))
            lines = []
    if lines:
        found.append("\n".join(lines))
    return found


_STARTS_BLOCK = re.compile(r"[#>*+=|-]|\d+[.)]$")  # a line starting so would be a heading, list, quote or table


def _fill(text: str, indent: str) -> str:
    """Fill `text`, never starting a line with a word Markdown would read as the start of a block."""
    words = text.split()
    glued = [words[0]] if words else []
    for word in words[1:]:
        if _STARTS_BLOCK.match(word):
            glued[-1] += "\0" + word  # kept on the previous word's line
        else:
            glued.append(word)
    filled = textwrap.fill(" ".join(glued), WIDTH, subsequent_indent=indent, break_long_words=False,
                           break_on_hyphens=False)
    return filled.replace("\0", " ")
