"""`archsync rules` and `explain`: the rule registry's documentation; no project is read."""
from __future__ import annotations

import argparse
import sys

from . import EXIT_CLEAN, EXIT_ERROR


def run_rules(args: argparse.Namespace) -> int:
    from ...rules import RULES, rules_table

    if args.format == "markdown":
        sys.stdout.write(rules_table())
        return EXIT_CLEAN
    for rule in RULES:
        print(f"{rule.code}  {rule.name:<26} {rule.summary}")
    return EXIT_CLEAN


def run_explain(args: argparse.Namespace) -> int:
    from ...rules import BY_CODE, explain

    code = args.code.upper()
    if code not in BY_CODE:
        print(f"archsync: error: unknown rule {args.code!r}; `archsync rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(explain(code))
    return EXIT_CLEAN
