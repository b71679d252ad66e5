"""Every target of the benchmark in one table: each tree's figure for each, and whether it is met.

Reads the JSON form of the scenarios (`Scenario.to_json`) and the linearity data that
`bench/run.py` computes; returns a Markdown table and the same as JSON (`summary`). The ratios to
ruff are targets on real trees (serving codebases); on generated trees, whose synthetic code
ruff checks far faster per line than real code, they are shown without a target, and the
generated trees carry the linearity, memory and flake8 targets.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

# (key, what is measured, ratio of); the targets themselves come from run.py
ROWS = (
    ("cold", "cold check, vs ruff", "wall ratio"),
    ("warm", "warm check, nothing changed, vs ruff", "wall ratio"),
    ("restored", "restored cache on a fresh clone, vs ruff", "wall ratio"),
    ("edited", "one file edited (comment appended), vs ruff", "wall ratio"),
    ("flake8", "flake8 with the plugin / without it", "wall ratio"),
    ("json_cold", "`check --format json` / text, cold", "wall ratio"),
    ("json_warm", "`check --format json` / text, warm", "wall ratio"),
    ("fix_diff", "`fix --diff` / a cold check", "wall ratio"),
)


def summarise(trees: List[Dict[str, Any]], linearity: Dict[str, Any], targets: Dict[str, float],
              peak_target_mb: float, lsp_target_s: float) -> Tuple[str, List[Dict[str, Any]]]:
    """(Markdown table, rows as JSON) over every tree benchmarked."""
    rows: List[Dict[str, Any]] = []
    for tree in trees:
        scenarios = tree["scenarios"]
        for key, what, unit in ROWS:
            scenario = scenarios.get(key)
            if scenario is None or scenario.get("status") != "ok" or scenario.get("ratio") is None:
                continue
            target = targets[key] if tree.get("kind") == "real" or key == "flake8" else None
            rows.append(_row(tree["label"], what, scenario["ratio"], target, unit, cpu_ratio=_cpu_ratio(scenario)))
        peaks = [c["peak_mb"] for key in ("cold", "cold_fill", "warm", "restored", "edited", "edited_shift")
                 for c in [scenarios.get(key, {}).get("contenders", {}).get("archsync")] if c and c.get("peak_mb")]
        if peaks:
            rows.append(_row(tree["label"], "peak memory of a check (MB)", max(peaks), peak_target_mb, "MB"))
        for key, what, target in (("lsp", "editor: didChange (comment appended) -> publishDiagnostics (s)",
                                   lsp_target_s),
                                  ("lsp-moved", "editor: didChange (lines moved) -> publishDiagnostics (s)",
                                   lsp_target_s)):
            lsp = scenarios.get(key)
            if lsp is not None and lsp.get("status") == "ok" and lsp.get("median_edit_s") is not None:
                rows.append(_row(tree["label"], what, lsp["median_edit_s"], target, "s"))
    for size, data in sorted(linearity.get("sizes", {}).items(), key=lambda item: int(item[0])):
        if data.get("target") is not None:
            rows.append(_row(f"generated {size}x", f"cold time vs the {linearity.get('base_size')}x tree",
                             data["archsync_ratio"], data["target"], "wall ratio",
                             cpu_ratio=data.get("archsync_cpu_ratio")))
    lines = ["| tree | what | measured | CPU ratio | target | met |", "|---|---|---|---|---|---|"]
    for row in rows:
        lines.append("| {tree} | {what} | {shown} | {cpu} | {limit} | {verdict} |".format(
            shown=_shown(row["measured"], row["unit"]), cpu=_shown(row.get("cpu_ratio"), "wall ratio"),
            limit="-" if row["target"] is None else f"<= {row['target']:g}",
            verdict="-" if row["met"] is None else "met" if row["met"] else "**not met**", **row))
    return "### Targets\n\n" + "\n".join(lines), rows


def _row(tree: str, what: str, measured: float, target: Optional[float], unit: str,
         cpu_ratio: Optional[float] = None) -> Dict[str, Any]:
    return {"tree": tree, "what": what, "measured": round(measured, 4), "unit": unit, "target": target,
            "met": None if target is None else measured <= target,
            "cpu_ratio": None if cpu_ratio is None else round(cpu_ratio, 3)}


def _cpu_ratio(scenario: Dict[str, Any]) -> Optional[float]:
    """The same ratio in CPU seconds (user + system of each side, children included)."""
    names = (scenario.get("ratio_of") or "").split("/")
    contenders = scenario.get("contenders", {})
    if len(names) != 2 or names[0] not in contenders or names[1] not in contenders:
        return None
    a, b = contenders[names[0]].get("median_cpu_s"), contenders[names[1]].get("median_cpu_s")
    return a / b if a is not None and b else None


def _shown(value: Optional[float], unit: str) -> str:
    if value is None:
        return "-"
    if unit == "wall ratio":
        return f"{value:.2f}x"
    if unit == "MB":
        return f"{value:.0f} MB"
    return f"{value:.3f} s"
