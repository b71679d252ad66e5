"""Write what archsync ships of `transformers`: its model-type table and its snapshot as a host.

    python -m lint_plugin.frontends.model_type_snapshot /path/to/site-packages-or-checkout --date YYYY-MM-DD

Run at each release against the newest `transformers`: it reads the auto-model mappings of
`transformers/models/auto/modeling_auto.py` statically (never importing it) and the version
from `transformers/__init__.py`, and writes which architectures each model type names
(`lint_plugin/hosts/transformers.model_types.json`) and, from the same mappings, where each
checkpoint architecture is registered (`lint_plugin/hosts/transformers.json`): the host of a
project that serves transformers' models and registers none of its own (`project/universe.py`).
Beside them it writes which of those classes build mixture-of-experts layers (their modeling
modules) and which subclasses which (the modular files each model's module is generated from).
`--date` is the release's.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Optional, Sequence

from ..project.hosts import LIBRARY, SNAPSHOTS, Snapshot, snapshot_document
from ..project.model_types import (
    AUTO,
    TABLE,
    ModelTypeTable,
    library_facts,
    read_auto_mappings,
    table_document,
)

_VERSION = re.compile(rb"^__version__\s*=\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lint_plugin.frontends.model_type_snapshot", allow_abbrev=False,
                                     description="Write archsync's table of Hugging Face model types.")
    parser.add_argument("source", type=Path, help="the directory holding the `transformers` package")
    parser.add_argument("--date", required=True, help="the release's date, YYYY-MM-DD")
    parser.add_argument("--out", type=Path, default=TABLE, help=f"default: {TABLE}")
    host_out = SNAPSHOTS / f"{LIBRARY}.json"
    parser.add_argument("--host-out", type=Path, default=host_out, help=f"default: {host_out}")
    args = parser.parse_args(argv)
    if not _DATE.fullmatch(args.date):
        parser.error("--date takes a YYYY-MM-DD date")
    package = args.source / "transformers"
    try:
        source = (args.source / AUTO).read_bytes()
        mappings, library = read_auto_mappings(source), library_facts(source, package)
        version = _VERSION.search((package / "__init__.py").read_bytes())
    except (OSError, SyntaxError, ValueError) as error:
        parser.error(f"cannot read transformers' auto mappings under {package}: {error}")
    if not mappings or not library.facts.registrations or version is None:
        parser.error(f"no auto mapping or no version under {package}")
    release = version.group(1).decode()
    table = ModelTypeTable(f"transformers {release}", mappings)
    snapshot = Snapshot(LIBRARY, "huggingface/transformers", f"v{release}", args.date, (library.facts,),
                        experts=library.experts, lineage=library.lineage)
    for out, document in ((args.out, table_document(table)), (args.host_out, snapshot_document(snapshot))):
        try:
            out.write_bytes(document)
        except OSError as error:
            parser.exit(2, f"{parser.prog}: error: cannot write {out}: {error.strerror or error}\n")
    names = sum(len(r.names) for r in library.facts.registrations)
    print(f"wrote {args.out}: {len(mappings)} model types of {table.label}; {args.host_out}: {names} architectures "
          f"of {snapshot.label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
