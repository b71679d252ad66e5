"""`archsync show`: the family x collection membership matrix, as text, Markdown or HTML; `where` says how a
project-relative path is shown (`paths.from_here`: from where the command runs)."""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable, List, Sequence, Tuple

from ..resolve import Collection, Predicate


@dataclass(frozen=True)
class Cell:
    state: str  # "full", "partial" or "absent"
    missing: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Matrix:
    rows: Tuple[Predicate, ...]
    columns: Tuple[Collection, ...]
    cells: Tuple[Tuple[Cell, ...], ...]


def build_matrix(families: Sequence[Predicate], collections: Sequence[Collection], everything: bool) -> Matrix:
    """Families against collections; without `everything`, only rows and columns that meet."""
    def cell(family: Predicate, collection: Collection) -> Cell:
        held = collection.members.names
        if not (held & family.names):
            return Cell("absent")
        missing = tuple(sorted(family.names - held))
        return Cell("partial", missing) if missing else Cell("full")

    rows = sorted(families, key=lambda f: (f.subject, f.path))
    columns = sorted(collections, key=lambda c: (c.subject, c.path))
    if not everything:
        rows = [f for f in rows if any(cell(f, c).state != "absent" for c in columns)]
        columns = [c for c in columns if any(cell(f, c).state != "absent" for f in rows)]
    return Matrix(tuple(rows), tuple(columns),
                  tuple(tuple(cell(f, c) for c in columns) for f in rows))


_SYMBOL = {"full": "full", "partial": "partial", "absent": "-"}


def render_text(matrix: Matrix, where: Callable[[str], str] = str) -> str:
    if not matrix.rows or not matrix.columns:
        return "No family meets a guarded collection.\n"
    header = ["family \\ collection"] + [f"[{i + 1}]" for i in range(len(matrix.columns))]
    body = []
    for family, cells in zip(matrix.rows, matrix.cells):
        body.append([f"{family.subject}()"] + [
            f"partial -{len(c.missing)}" if c.state == "partial" else _SYMBOL[c.state] for c in cells
        ])
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
    lines = ["  ".join(value.ljust(widths[i]) for i, value in enumerate(row)).rstrip() for row in [header] + body]
    lines.append("")
    for i, collection in enumerate(matrix.columns):
        lines.append(f"[{i + 1}] {collection.subject} ({where(collection.path)}:{collection.line})")
    details = [
        f"  {family.subject}() -> {column.subject}: missing {', '.join(cell.missing)}"
        for family, cells in zip(matrix.rows, matrix.cells)
        for column, cell in zip(matrix.columns, cells) if cell.state == "partial"
    ]
    if details:
        lines += ["", "Partial cells:"] + details
    return "\n".join(lines) + "\n"


def render_markdown(matrix: Matrix, where: Callable[[str], str] = str) -> str:
    """The matrix as a Markdown table (it names no path: `where` is taken as every renderer takes it)."""
    if not matrix.rows or not matrix.columns:
        return "_No family meets a guarded collection._\n"
    lines = ["| family | " + " | ".join(f"`{c.subject}`" for c in matrix.columns) + " |",
             "|---|" + "---|" * len(matrix.columns)]
    for family, cells in zip(matrix.rows, matrix.cells):
        rendered = []
        for c in cells:
            if c.state == "partial":
                rendered.append("partial, missing " + ", ".join(f"`{m}`" for m in c.missing))
            else:
                rendered.append("full" if c.state == "full" else "")
        lines.append(f"| `{family.subject}()` | " + " | ".join(rendered) + " |")
    return "\n".join(lines) + "\n"


def render_html(matrix: Matrix, where: Callable[[str], str] = str) -> str:
    """A self-contained page: no scripts, no external styles or fonts."""
    def esc(text: str) -> str:
        return html.escape(text, quote=True)

    head = "".join(f"<th title=\"{esc(where(c.path))}:{c.line}\"><code>{esc(c.subject)}</code></th>"
                   for c in matrix.columns)
    rows: List[str] = []
    for family, cells in zip(matrix.rows, matrix.cells):
        tds = []
        for c in cells:
            if c.state == "partial":
                items = "".join(f"<li><code>{esc(m)}</code></li>" for m in c.missing)
                tds.append(f"<td class=\"partial\">partial, missing<ul>{items}</ul></td>")
            elif c.state == "full":
                tds.append("<td class=\"full\">full</td>")
            else:
                tds.append("<td class=\"absent\"></td>")
        title = f"{esc(where(family.path))}:{family.line}"
        rows.append(f"<tr><th title=\"{title}\"><code>{esc(family.subject)}()</code></th>" + "".join(tds) + "</tr>")
    table = (f"<table><thead><tr><th>family</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
             if matrix.rows and matrix.columns else "<p>No family meets a guarded collection.</p>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>archsync membership</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "th,td{border:1px solid #999;padding:4px 8px;vertical-align:top;text-align:left}"
        "td.full{background:#d4f4d4}td.partial{background:#ffe2b3}td.absent{background:#f4f4f4}"
        "ul{margin:0;padding-left:1.2em}</style></head><body><h1>Families against guarded collections</h1>"
        f"{table}</body></html>\n"
    )
