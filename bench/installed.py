"""archsync as its users run it: this checkout built into a wheel and installed, not the editable install.

`pip install -e .` (setuptools) puts an import hook in site-packages that every start of the
interpreter loads, with `pathlib` and `urllib.parse` behind it: about 5 ms on this machine, a seventh
of a warm check, that neither a wheel from the package index nor pre-commit's install of the hook
(`pip install .` of the repository) ever pays. The benchmark therefore builds the checkout into a
wheel and installs it into a throwaway virtualenv whose dependencies are this interpreter's: a `.pth`
file names this interpreter's site-packages directories, which puts them on the path without running
their own `.pth` files (the editable install's hook among them).
"""
from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPOSITORY = Path(__file__).resolve().parent.parent


def wheel_install(workdir: Path, env: Dict[str, str],
                  repository: Path = REPOSITORY) -> Tuple[Optional[List[str]], str]:
    """(the command that runs the installed archsync, "") or (None, why it could not be installed); the
    tools run in `env` (the bench's children's, which compiles bytecode as the install does)."""
    wheels = workdir / "wheel"
    built = _run(env, [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(repository)])
    if built:
        return None, f"the wheel was not built: {built}"
    found = sorted(wheels.glob("flake8_archsync-*.whl"))
    if not found:
        return None, f"no wheel in {wheels}"
    environment = workdir / "installed"
    made = _run(env, [sys.executable, "-m", "venv", "--without-pip", str(environment)])
    if made:
        return None, f"no virtualenv: {made}"
    python = environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(environment), "platbase": str(environment)}))
    purelib.mkdir(parents=True, exist_ok=True)
    (purelib / "_archsync_bench_dependencies.pth").write_text(
        "".join(f"{directory}\n" for directory in site.getsitepackages()), encoding="utf-8")
    installed = _run(env, [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                      "--no-index", str(found[-1])])
    if installed:
        return None, f"the wheel was not installed: {installed}"
    script = environment / ("Scripts/archsync.exe" if os.name == "nt" else "bin/archsync")
    return ([str(script)], "") if script.exists() else (None, f"no console script at {script}")


def _run(env: Dict[str, str], command: List[str]) -> str:
    """"" when `command` succeeds, else the last line it printed."""
    try:
        done = subprocess.run(command, capture_output=True, env=env, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode == 0:
        return ""
    lines = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {done.returncode}"
