"""`config-maps`: a dict from architecture name to config class binds unannotated models."""
from conftest import EXIT_FINDINGS, archsync, write

FILES = {
    "pkg/__init__.py": "",
    "pkg/configs.py": "class NextConfig:\n    pass\n\n\nclass TextConfig(NextConfig):\n    pass\n",
    "pkg/maps.py": (
        "from pkg.configs import NextConfig, TextConfig\n\n"
        'ARCH_CONFIGS = {"TextForCausalLM": TextConfig, "NextForCausalLM": NextConfig}\n'
    ),
    "pkg/models.py": (
        "class TextForCausalLM:\n    def __init__(self, config, prefix=''):\n        self.config = config\n\n\n"
        "class NextForCausalLM:\n    def __init__(self, config, prefix=''):\n        self.config = config\n\n\n"
        "EntryClass = [TextForCausalLM, NextForCausalLM]\n"
        'HYBRID_ARCHS = frozenset({"NextForCausalLM"})\n'  # line 12
    ),
    "pkg/hybrid.py": (
        "from pkg.configs import NextConfig\n\n\n"
        "def hybrid(model_config):\n    config = model_config.hf_config\n"  # `def hybrid` on line 4
        "    if isinstance(config, NextConfig):\n        return config\n    return None\n"
    ),
}
COVER = '[[tool.archsync.cover]]\ncollections = ["HYBRID_ARCHS"]\nfamilies = ["hybrid"]\n'


def _tree(tmp_path, with_map):
    for rel, text in FILES.items():
        write(tmp_path / rel, text)
    maps = 'config-maps = ["pkg/maps.py::ARCH_CONFIGS"]\n' if with_map else ""
    write(tmp_path / "pyproject.toml", f"[tool.archsync]\n{maps}{COVER}")
    return tmp_path


def test_a_config_map_binds_architectures_to_config_classes(tmp_path):
    # TextConfig(NextConfig): the map makes TextForCausalLM a member of hybrid()'s family.
    result = archsync("check", "--no-cache", cwd=_tree(tmp_path, with_map=True))
    assert result.stdout.splitlines() == [
        "pkg/models.py:12:1: ARC101 'TextForCausalLM' is matched by hybrid() (pkg/hybrid.py:4) "
        "but missing from HYBRID_ARCHS",
    ], result
    assert result.returncode == EXIT_FINDINGS, result


def test_without_the_map_the_unannotated_models_are_reported_as_unreadable(tmp_path):
    result = archsync("check", "--no-cache", cwd=_tree(tmp_path, with_map=False))
    assert result.stdout.splitlines() == [
        "pkg/hybrid.py:4:1: ARC901 hybrid() is only partly analysed: config class unknown for 2 registered "
        "architectures: NextForCausalLM (NextForCausalLM has no `config` annotation on __init__ and no "
        "config_class), TextForCausalLM (TextForCausalLM has no `config` annotation on __init__ and no "
        "config_class) (0 names read still take part)",
    ], result
    assert result.returncode == EXIT_FINDINGS, result
