"""bench.instructions: the counted run is the real command, one process, a fixed hash seed; the table compares."""
from __future__ import annotations

from pathlib import Path

from bench.instructions import DRIVER, command, table


def test_the_counted_run_is_archsyncs_check_in_one_process_with_a_fixed_hash_seed(tmp_path: Path) -> None:
    argv, env = command(Path("/checkout"), tmp_path)
    assert argv[1:3] == ["-c", DRIVER] and argv[3:] == ["check", "--no-cache", str(tmp_path)]
    assert env["PYTHONHASHSEED"] == "0" and env["PYTHONPATH"] == "/checkout"
    assert "PYTHONDONTWRITEBYTECODE" not in env  # the uncounted run writes the bytecode the counted one reads
    assert "workers.MIN_COST = 1 << 62" in DRIVER  # no pool: valgrind counts one process


def test_the_table_gives_each_checkouts_count_and_their_ratio() -> None:
    figures = {("(start-up)", "/a"): 731_000_000, ("(start-up)", "/b"): 729_000_000,
               ("/t", "/a"): 21_573_101_002, ("/t", "/b"): 21_694_160_699}
    assert table(figures, [Path("/a"), Path("/b")]).splitlines() == [
        "| tree | `/a` | `/b` | ratio |",
        "|---|---|---|---|",
        "| (start-up) | 0.731 G | 0.729 G | 1.0027 |",
        "| /t | 21.573 G | 21.694 G | 0.9944 |",
    ]
