"""The language server's own file watcher, in process: which paths a run reads, and what changed."""
from __future__ import annotations

import os
from pathlib import Path

from lint_plugin.config import load_config
from lint_plugin.project.discovery import discover, is_discovered
from lint_plugin.project.stamps import changed, stamps

PYPROJECT = '[tool.archsync]\nsrc = ["src", "tools"]\nexclude = ["src/pkg/generated", "legacy_*.py"]\n'
FILES = [
    "src/pkg/__init__.py", "src/pkg/models.py", "src/pkg/generated/table.py", "src/pkg/legacy_models.py",
    "src/pkg/.hidden/x.py", "src/.cache.py", "src/build/x.py", "src/pkg/__pycache__/x.py", "src/venv/lib/x.py",
    "src/pkg/notes.txt", "src/pkg/stub.pyi", "tools/gen.py", "outside/x.py", "setup.py",
]


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for rel in FILES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("X = 1\n", encoding="utf-8")
    (root / "src/venv/pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return root


def test_is_discovered_says_what_discover_lists(tmp_path):
    root = _tree(tmp_path)
    config = load_config(root)
    listed = [f.rel for f in discover(config)]
    assert listed == ["src/pkg/__init__.py", "src/pkg/models.py", "tools/gen.py"]
    assert [rel for rel in FILES if is_discovered(config, rel)] == ["src/pkg/__init__.py", "src/pkg/models.py",
                                                                   "tools/gen.py"]
    # A file not there yet (a watcher reports its creation) is judged by its path alone.
    assert is_discovered(config, "src/pkg/new/module.py")
    assert not is_discovered(config, "src/pkg/generated/new.py")
    assert not is_discovered(config, "../project/src/pkg/models.py")


def test_stamps_cover_pyproject_and_the_sources_and_see_every_kind_of_change(tmp_path):
    root = _tree(tmp_path)
    before = stamps(root)
    assert sorted(before) == ["pyproject.toml", "src/pkg/__init__.py", "src/pkg/models.py", "tools/gen.py"]
    assert changed(before, stamps(root)) == []

    models = root / "src/pkg/models.py"
    stat = models.stat()
    models.write_text("X = 2\n", encoding="utf-8")  # the same size, and the old mtime put back
    os.utime(models, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    (root / "tools/gen.py").unlink()
    (root / "src/pkg/new.py").write_text("Y = 1\n", encoding="utf-8")
    (root / "src/pkg/generated/more.py").write_text("Y = 1\n", encoding="utf-8")  # excluded: read by no run
    after = stamps(root)
    assert changed(before, after) == ["src/pkg/models.py", "src/pkg/new.py", "tools/gen.py"]

    # A new exclude: the files it drops are no change on disk, pyproject.toml is.
    (root / "pyproject.toml").write_text(PYPROJECT.replace('"legacy_*.py"', '"legacy_*.py", "new.py"'),
                                         encoding="utf-8")
    excluded = stamps(root)
    assert "src/pkg/new.py" not in excluded
    assert changed(after, excluded) == ["pyproject.toml"]

    # A broken configuration: only pyproject.toml is stamped, until it is repaired.
    (root / "pyproject.toml").write_text("[tool.archsync]\nbogus = 1\n", encoding="utf-8")
    broken = stamps(root)
    assert sorted(broken) == ["pyproject.toml"]
    assert changed(excluded, broken) == ["pyproject.toml"]
