"""`archsync init` and `lsp`: commands whose work is a front end of its own (`frontends/init.py`,
`frontends/lsp/`); their handlers only pass the options on."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import EXIT_ERROR


def run_init(args: argparse.Namespace) -> int:
    from ..init import init_command

    return init_command(Path(args.path), args.diff, not args.no_cache)


def run_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp import serve
    except ModuleNotFoundError as exc:
        if exc.name not in ("pygls", "lsprotocol"):
            raise
        print("archsync: error: the language server needs pygls: pip install 'flake8-archsync[lsp]'", file=sys.stderr)
        return EXIT_ERROR
    return serve()
