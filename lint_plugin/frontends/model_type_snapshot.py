"""Write the model-type table archsync ships (`lint_plugin/hosts/transformers.model_types.json`).

    python -m lint_plugin.frontends.model_type_snapshot /path/to/site-packages-or-checkout

Run at each release against the newest `transformers`: it reads the auto-model mappings of
`transformers/models/auto/modeling_auto.py` statically (never importing it) and the version
from `transformers/__init__.py`, and writes which architectures each model type names.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Optional, Sequence

from ..project.model_types import TABLE, ModelTypeTable, read_auto_mappings, table_document

_VERSION = re.compile(rb"^__version__\s*=\s*[\"']([^\"']+)[\"']", re.MULTILINE)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lint_plugin.frontends.model_type_snapshot", allow_abbrev=False,
                                     description="Write archsync's table of Hugging Face model types.")
    parser.add_argument("source", type=Path, help="the directory holding the `transformers` package")
    parser.add_argument("--out", type=Path, default=TABLE, help=f"default: {TABLE}")
    args = parser.parse_args(argv)
    package = args.source / "transformers"
    try:
        mappings = read_auto_mappings((package / "models" / "auto" / "modeling_auto.py").read_bytes())
        version = _VERSION.search((package / "__init__.py").read_bytes())
    except (OSError, SyntaxError, ValueError) as error:
        parser.error(f"cannot read transformers' auto mappings under {package}: {error}")
    if not mappings or version is None:
        parser.error(f"no auto mapping or no version under {package}")
    table = ModelTypeTable(f"transformers {version.group(1).decode()}", mappings)
    try:
        args.out.write_bytes(table_document(table))
    except OSError as error:
        parser.exit(2, f"{parser.prog}: error: cannot write {args.out}: {error.strerror or error}\n")
    print(f"wrote {args.out}: {len(mappings)} model types of {table.label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
