"""The public rule codes and their documentation (`archsync rules`, `archsync explain`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    doc: str


def _rule(code: str, name: str, summary: str, doc: str) -> Rule:
    return Rule(code, name, summary, doc.strip("\n"))


RULES: Dict[str, Rule] = {r.code: r for r in (
    _rule("ARC101", "family-member-missing", "a guarded collection holds part of a family but not all of it", """
What: a guarded collection (by default any module-level `*_ARCHS`) holds at least one
name of a family (the names a predicate such as `is_qwen3_5()` matches, limited to
registered names) but not all of them. Reported once per (collection, missing name)
at the collection's definition, naming every family that implies the name.

Why: a new variant lands in the predicate and the registry but not in the whitelist;
the server takes the wrong branch at launch (SGLang PR #35297).

Example:
    def is_qwen3_5(config):
        return _hf_arch(config) in ("Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM")
    _MAMBA_EXTRA_BUFFER_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})
    -> ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (...) but missing from _MAMBA_EXTRA_BUFFER_ARCHS

Fix: add the name to the collection (`archsync fix` does it where the collection is a literal).
Exempt: `# noqa: ARC101` on the reported line, or
    [[tool.archsync.exempt]]
    subject = "_MAMBA_EXTRA_BUFFER_ARCHS"
    members = ["Qwen3_5ForCausalLM"]
    reason = "why this difference is intended"
"""),
    _rule("ARC102", "mirror-drift", "collections declared as mirrors do not hold the same names", """
What: `[[tool.archsync.mirror]]` lists collections that must agree (optionally only over
the names of `families`). A name in one and not in another is reported at the
collection that lacks it.

Why: two whitelists that gate the same code path drift apart one pull request at a time.

Example:
    [[tool.archsync.mirror]]
    collections = ["_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS"]

Fix: add the name where it is missing, or exempt the deliberate difference.
Exempt: `[[tool.archsync.exempt]]` with subject = the lacking collection, or `# noqa: ARC102`.
"""),
    _rule("ARC103", "subset-broken", "a name of one collection is missing from a collection that must contain it", """
What: `[[tool.archsync.subset]]` with `of = "A"` and `in = "B"` says every name in A is
in B; `in = "registered"` says every name in A is registered.

Why: an allow-list that names a model nothing serves, or a table of supported models
that lags the registry.

Example:
    [[tool.archsync.subset]]
    of = "_MAMBA_EXTRA_BUFFER_ARCHS"
    in = "_MAMBA_RADIX_CACHE_ARCHS"

Fix: add the name to B or remove it from A.
Exempt: `[[tool.archsync.exempt]]` with subject = A, or `# noqa: ARC103`.
"""),
    _rule("ARC104", "sibling-variant-missing",
          "a collection or family holds one variant of a registered pair but not the other", """
What: a guarded collection or a family holds `<Stem>ForConditionalGeneration` while the
registered `<Stem>ForCausalLM` is absent, or the reverse. Suffix pairs come from
`siblings` (default [["ForConditionalGeneration", "ForCausalLM"]]; `siblings = []` turns
the rule off). Quiet where ARC101 already reports the same name; a family is judged
on its own literal, so predicates that delegate do not repeat it.

Why: text-only checkpoints of multimodal models (and the reverse) are registered
separately and forgotten in the lists that gate their behaviour (vLLM PR #47252,
TensorRT-LLM issue #18849).

Fix: add the sibling, or exempt it when the list is deliberately one-sided (for example
a multimodal-only allow-list).
Exempt: `[[tool.archsync.exempt]]` or `# noqa: ARC104`.
"""),
    _rule("ARC201", "unknown-architecture",
          "a guarded collection or a family names an architecture nothing registers", """
What: a name in a guarded collection or in a family predicate's own literal that no
registration (see `registries`) provides, with a did-you-mean when a registered name is
close. Only when the project registers something.

Why: a typo (`Qwen3NextForCasualLM`) silently disables the branch it guards.

Fix: correct the name, register the model, or exempt names that are deliberately
unregistered (checkpoint aliases rewritten at load time).
Exempt: `[[tool.archsync.exempt]]` or `# noqa: ARC201` on the member's line.
"""),
    _rule("ARC202", "stale-exemption", "an exemption no longer suppresses anything", """
What: a `[[tool.archsync.exempt]]` member of the project's own configuration that did not
suppress any diagnostic in this run. Reported in pyproject.toml at the exemption's table.
Exemptions that come from a rule pack are not reported.

Why: exceptions outlive the reason they were written for and then hide new drift.

Fix: delete the member (or the whole exemption) from pyproject.toml.
"""),
    _rule("ARC301", "duplicate-member", "the same name is written twice in one literal", """
What: a guarded collection or a family predicate lists the same string twice in one
literal. The later occurrence is reported.

Why: usually a merge artefact; sometimes the second copy was meant to be a new variant.

Fix: remove the duplicate (`archsync fix`), or correct it to the intended name.
Exempt: `# noqa: ARC301` on the duplicate's line.
"""),
    _rule("ARC900", "configuration-error", "the configuration is invalid (flake8 only; the CLI exits 2)", """
What: `[tool.archsync]` or a rule pack is invalid. `archsync` prints the message and exits
with code 2; the flake8 plugin reports it once, on the first file checked.

Fix: correct the key the message names.
"""),
    _rule("ARC901", "partly-analysed", "a guarded collection or family depends on something archsync cannot follow", """
What: a guarded collection or a family predicate depends on a value the static analysis
cannot read: a call result, a comprehension, growth by `.append()` / `.add()` / `.update()`
inside a function, an environment variable, a star import, a name that resolves nowhere.
One diagnostic per subject says what could not be followed and where; every name that
could be read still takes part in the other rules.

Why: a linter that is silently blind is worse than none. Where archsync cannot see the
whole set, its other findings about that set may be incomplete.

Fix: spell the set as a literal (or compose it from literals), or accept the partial view.
Exempt: `# noqa: ARC901` on the reported line, or narrow `guard`.
"""),
    _rule("ARC902", "file-not-analysed", "a file that may hold architecture names could not be analysed", """
What: a file that passed the byte prefilter does not parse or cannot be read. The rest of
the project is still checked, but names in this file take no part.

Fix: fix the syntax error or the permissions; exclude generated files with `exclude`.
"""),
)}


def explain(code: str) -> str:
    rule = RULES[code]
    return f"{rule.code} {rule.name}: {rule.summary}\n\n{rule.doc}\n"
