"""Deterministic synthetic trees shaped like an LLM serving repository.

A tree of size N holds N times the files of the 1x tree (about 400 `.py` files and
150k lines at 1x), laid out like SGLang's `python/` tree:

    pyproject.toml
    servingpkg/_nn.py                   torch-like stubs (no torch import)
    servingpkg/models/*.py              3 model files per family, each with `EntryClass`
    servingpkg/models/registry.py       imports every model module
    servingpkg/configs/model_config.py  family predicates: `is_x(config)` over `_hf_arch(config)`
                                        (model_config_K.py for block K > 0 imports `_hf_arch`)
    servingpkg/configs/*_config.py      config classes
    servingpkg/arg_groups/overrides.py  module-level `_..._ARCHS = frozenset({...})` whitelists
                                        (overrides_K.py for block K > 0)
    servingpkg/{layers,kernels,utils,managers,entrypoints,test}/*.py   unrelated code

Most files hold no architecture name at all; a few managers and tests quote some (as
multimodal allow-lists and test parameters do in real trees). One family per 20 (the
first, `Qwen3_5...`) reproduces the SGLang seed drift: its text-only names are missing
from two whitelists, so `archsync check` has findings (exit 1) on every generated tree.

Families come in blocks of 20; each block has its own predicates and whitelists file, so
no file grows with N (only models/registry.py, which lists every model module). Every
file's content depends only on the seed and its path (and N for the registry), so the 1x
files are a subset of the 4x tree. Run `python -m bench.gen --size 1 --out DIR` to look at one.
"""
from __future__ import annotations

import argparse
import os
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

BASE_FAMILIES = (
    "Qwen3_5", "Llama4", "Mistral3", "DeepseekV4", "Glm4Moe", "Gemma3", "Phi4", "Olmo2",
    "Granite4", "Exaone4", "Minimax2", "Hunyuan2", "Ernie5", "Kimi2", "Falcon3", "Bailing2",
    "Step3", "Mimo2", "Dots2", "Seed2",
)
FAMILIES_PER_SIZE = len(BASE_FAMILIES)  # 20 families -> 60 model files per 1x

# Unrelated modules per 1x: (package, count, (min lines, max lines))
FILLER_PACKAGES = (
    ("layers", 80, (150, 650)),
    ("kernels", 50, (120, 580)),
    ("utils", 50, (80, 420)),
    ("managers", 40, (200, 800)),
    ("entrypoints", 20, (100, 500)),
    ("test", 70, (80, 320)),
)
CONFIG_CLASSES_PER_SIZE = 15
# Every file gets this mtime (2025-01-01): a real checkout is not seconds old, and archsync
# distrusts mtimes within 2 s of its cache write (it re-hashes those files and rewrites the
# cache), which on a tree written a moment ago would make the warm-up differ from reality.
FILE_TIME = 1735689600
MODEL_LINES = (380, 1050)

WORDS = (
    "attention", "rotary", "cache", "radix", "batch", "token", "sampler", "scheduler", "expert",
    "router", "quant", "weight", "loader", "stream", "buffer", "prefix", "decode", "prefill",
    "spec", "draft", "memory", "pool", "tensor", "shard", "parallel", "gather", "scatter",
    "kernel", "triton", "fused", "norm", "moe", "mamba", "lora", "adapter", "vision", "audio",
    "embed", "logits", "grammar", "tokenizer", "request", "session", "metrics", "profile",
)
CAP_WORDS = (
    "Eager", "Compiled", "Chunked", "Paged", "Ragged", "Dense", "Sparse", "Hybrid", "Static",
    "Dynamic", "Default", "Fallback", "Unsupported", "Pending", "Running", "Finished", "Aborted",
)


@dataclass(frozen=True)
class Family:
    name: str  # CamelCase stem, e.g. Qwen3_5 or Qwen3_5R1
    snake: str  # module / predicate stem, e.g. qwen3_5 or qwen3_5_r1
    index: int

    @property
    def text(self) -> Tuple[str, str]:
        return (f"{self.name}MoeForCausalLM", f"{self.name}ForCausalLM")

    @property
    def vl(self) -> Tuple[str, str]:
        return (f"{self.name}MoeForConditionalGeneration", f"{self.name}ForConditionalGeneration")

    @property
    def nextn(self) -> str:
        return f"{self.name}ForCausalLMNextN"

    @property
    def has_predicate(self) -> bool:
        return self.index % 2 == 0


@dataclass(frozen=True)
class TreeInfo:
    root: Path
    size: int
    files: int
    lines: int
    bytes: int
    edit_file: str  # a model file (relative path) the benchmark appends a comment to


def families(size: int) -> List[Family]:
    found = []
    for k in range(FAMILIES_PER_SIZE * size):
        base, rep = BASE_FAMILIES[k % FAMILIES_PER_SIZE], k // FAMILIES_PER_SIZE
        name = base if rep == 0 else f"{base}R{rep}"
        found.append(Family(name, _snake(name), k))
    return found


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def generate(root: Path, size: int, seed: int = 0) -> TreeInfo:
    """Write a tree of `size` x 1x into `root` (created; must be empty or absent)."""
    if size < 1:
        raise ValueError("size must be >= 1")
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    files: Dict[str, str] = {}
    fams = families(size)

    files["pyproject.toml"] = (
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "servingpkg"\nversion = "0.0.1"\nrequires-python = ">=3.9"\n'
    )
    files["servingpkg/__init__.py"] = '"""A synthetic serving package (archsync benchmark)."""\n__version__ = "0.0.1"\n'
    files["servingpkg/_nn.py"] = NN_STUBS
    for package in ("models", "configs", "arg_groups") + tuple(p for p, _, _ in FILLER_PACKAGES):
        files[f"servingpkg/{package}/__init__.py"] = ""

    model_modules = []
    for fam in fams:
        for kind in ("text", "vl", "mtp"):
            module = fam.snake if kind == "text" else f"{fam.snake}_{kind}"
            model_modules.append(module)
            rel = f"servingpkg/models/{module}.py"
            files[rel] = _model_file(_rng(seed, rel), fam, kind)
    files["servingpkg/models/registry.py"] = _registry(model_modules)

    for block in range(size):  # one predicates file and one whitelists file per 20 families
        shard = fams[block * FAMILIES_PER_SIZE:(block + 1) * FAMILIES_PER_SIZE]
        suffix = "" if block == 0 else f"_{block}"
        rel = f"servingpkg/configs/model_config{suffix}.py"
        files[rel] = _model_config(_rng(seed, rel), shard, block)
        rel = f"servingpkg/arg_groups/overrides{suffix}.py"
        files[rel] = _overrides(_rng(seed, rel), shard, block)
    for i in range(CONFIG_CLASSES_PER_SIZE * size):
        fam = fams[i % len(fams)]
        rel = f"servingpkg/configs/{fam.snake}_config.py"
        files[rel] = _config_class(_rng(seed, rel), fam)
    for i, extra in enumerate(("model_args", "cache_args", "parallel_args", "spec_args")):
        for rep in range(size):
            rel = f"servingpkg/arg_groups/{extra}{'' if rep == 0 else f'_{rep}'}.py"
            files[rel] = _filler_module(_rng(seed, rel), 200 + 40 * i)

    for package, count, (low, high) in FILLER_PACKAGES:
        for i in range(count * size):
            rng = _rng(seed, f"{package}/{i}")
            rel = f"servingpkg/{package}/{rng.choice(WORDS)}_{rng.choice(WORDS)}_{i}.py"
            quoting = package in ("managers", "test") and i % 10 == 3
            files[rel] = _filler_module(rng, rng.randint(low, high), quote=fams if quoting else None)

    total_lines = total_bytes = 0
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        os.utime(path, (FILE_TIME, FILE_TIME))
        total_bytes += len(data)
        total_lines += data.count(b"\n")
    n_py = sum(1 for rel in files if rel.endswith(".py"))
    return TreeInfo(root, size, n_py, total_lines, total_bytes, f"servingpkg/models/{fams[0].snake}.py")


def _rng(seed: int, key: str) -> random.Random:
    return random.Random(f"archsync-bench:{seed}:{key}")


# --------------------------------------------------------------------------- models

def _model_file(rng: random.Random, fam: Family, kind: str) -> str:
    out = [LICENSE_HEADER, MODULE_IMPORTS]
    if kind != "text":
        out.append(f"from servingpkg.models.{fam.snake} import {fam.name}DecoderLayer, {fam.name}Model\n")
    out.append("\nlogger = logging.getLogger(__name__)\n\n")
    prefix = fam.name if kind == "text" else f"{fam.name}{kind.capitalize()}"
    if kind == "text":
        out.append(_decoder_stack(rng, fam.name))
    else:
        out.append(_filler_class(rng, f"{prefix}Projector"))
    archs = {"text": fam.text, "vl": fam.vl, "mtp": (fam.nextn,)}[kind]
    body = _lines(out)
    target = rng.randint(*MODEL_LINES)
    while body < target - 60 * len(archs):
        block = _filler_block(rng, prefix)
        out.append(block)
        body += block.count("\n")
    for arch in archs:
        out.append(_arch_class(rng, arch, fam.name))
    if len(archs) == 1:
        out.append(f"\nEntryClass = {archs[0]}\n")
    else:
        out.append(f"\nEntryClass = [{', '.join(archs)}]\n")
    return _finish(out)


def _decoder_stack(rng: random.Random, name: str) -> str:
    heads = rng.choice((16, 32, 40, 64))
    return f'''
class {name}Attention(Module):
    """Multi-head attention with rotary embeddings."""

    def __init__(self, hidden_size: int, num_heads: int = {heads}, layer_id: int = 0) -> None:
        super().__init__()
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.scaling = self.head_dim**-0.5
        self.qkv_proj = Linear(hidden_size, 3 * hidden_size, bias=False)
        self.o_proj = Linear(hidden_size, hidden_size, bias=False)
        self.layer_id = layer_id

    def forward(self, positions: Tensor, hidden_states: Tensor) -> Tensor:
        qkv = self.qkv_proj(hidden_states)
        q, k, v = F.split(qkv, [self.hidden_size, self.hidden_size, self.hidden_size], dim=-1)
        q, k = F.rotary(positions, q, k)
        attn = F.softmax(F.matmul(q, k) * self.scaling, dim=-1)
        return self.o_proj(F.matmul(attn, v))


class {name}MLP(Module):
    def __init__(self, hidden_size: int, intermediate_size: int) -> None:
        super().__init__()
        self.gate_up_proj = Linear(hidden_size, 2 * intermediate_size, bias=False)
        self.down_proj = Linear(intermediate_size, hidden_size, bias=False)
        self.act_fn = SiluAndMul()

    def forward(self, x: Tensor) -> Tensor:
        gate_up = self.gate_up_proj(x)
        x = self.act_fn(gate_up)
        return self.down_proj(x)


class {name}DecoderLayer(Module):
    def __init__(self, hidden_size: int, intermediate_size: int, layer_id: int) -> None:
        super().__init__()
        self.self_attn = {name}Attention(hidden_size, layer_id=layer_id)
        self.mlp = {name}MLP(hidden_size, intermediate_size)
        self.input_layernorm = RMSNorm(hidden_size)
        self.post_attention_layernorm = RMSNorm(hidden_size)

    def forward(self, positions: Tensor, hidden_states: Tensor, residual: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
        if residual is None:
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
        else:
            hidden_states, residual = self.input_layernorm(hidden_states, residual)
        hidden_states = self.self_attn(positions, hidden_states)
        hidden_states, residual = self.post_attention_layernorm(hidden_states, residual)
        return self.mlp(hidden_states), residual


class {name}Model(Module):
    def __init__(self, vocab_size: int, hidden_size: int, intermediate_size: int, num_layers: int) -> None:
        super().__init__()
        self.embed_tokens = Embedding(vocab_size, hidden_size)
        self.layers = [
            {name}DecoderLayer(hidden_size, intermediate_size, layer_id=i) for i in range(num_layers)
        ]
        self.norm = RMSNorm(hidden_size)

    def forward(self, input_ids: Tensor, positions: Tensor) -> Tensor:
        hidden_states = self.embed_tokens(input_ids)
        residual = None
        for layer in self.layers:
            hidden_states, residual = layer(positions, hidden_states, residual)
        hidden_states, _ = self.norm(hidden_states, residual)
        return hidden_states
'''


def _arch_class(rng: random.Random, arch: str, name: str) -> str:
    layers = rng.choice((24, 28, 32, 48, 64))
    return f'''

class {arch}(Module):
    """{arch}: registered with the model registry through `EntryClass`."""

    packed_modules_mapping = {{
        "qkv_proj": ["q_proj", "k_proj", "v_proj"],
        "gate_up_proj": ["gate_proj", "up_proj"],
    }}

    def __init__(self, config, quant_config=None, prefix: str = "") -> None:
        super().__init__()
        self.config = config
        self.quant_config = quant_config
        self.model = {name}Model(
            config.vocab_size,
            config.hidden_size,
            config.intermediate_size,
            getattr(config, "num_hidden_layers", {layers}),
        )
        self.lm_head = Linear(config.hidden_size, config.vocab_size, bias=False)

    def forward(self, input_ids: Tensor, positions: Tensor) -> Tensor:
        hidden_states = self.model(input_ids, positions)
        return self.lm_head(hidden_states)

    def load_weights(self, weights: Iterable[Tuple[str, Tensor]]) -> None:
        stacked_params_mapping = [
            ("qkv_proj", "q_proj", "q"),
            ("qkv_proj", "k_proj", "k"),
            ("qkv_proj", "v_proj", "v"),
            ("gate_up_proj", "gate_proj", 0),
            ("gate_up_proj", "up_proj", 1),
        ]
        params_dict = dict(self.named_parameters())
        for name, loaded_weight in weights:
            if "rotary_emb.inv_freq" in name:
                continue
            for param_name, weight_name, shard_id in stacked_params_mapping:
                if weight_name not in name:
                    continue
                name = name.replace(weight_name, param_name)
                if name not in params_dict:
                    break
                params_dict[name].weight_loader(params_dict[name], loaded_weight, shard_id)
                break
            else:
                if name in params_dict:
                    params_dict[name].copy_(loaded_weight)
                else:
                    logger.warning("Parameter %s not found in params_dict", name)
'''


def _registry(modules: List[str]) -> str:
    listed = "".join(f'    "{m}",\n' for m in modules)
    return f'''"""Model registry: imports every model module and reads its `EntryClass`."""
import importlib
import logging
from typing import Dict, List

logger = logging.getLogger(__name__)

_MODEL_MODULES: List[str] = [
{listed}]


def import_model_classes() -> Dict[str, type]:
    classes: Dict[str, type] = {{}}
    for name in _MODEL_MODULES:
        try:
            module = importlib.import_module(f"servingpkg.models.{{name}}")
        except ImportError as exc:
            logger.warning("Ignore import error when loading %s: %s", name, exc)
            continue
        entry = getattr(module, "EntryClass", None)
        if entry is None:
            continue
        for cls in entry if isinstance(entry, list) else [entry]:
            assert cls.__name__ not in classes, f"Duplicated model implementation for {{cls.__name__}}"
            classes[cls.__name__] = cls
    return classes


ModelRegistry = import_model_classes
'''


# --------------------------------------------------------------------------- configs and overrides

def _model_config(rng: random.Random, fams: List[Family], block: int) -> str:
    out = [LICENSE_HEADER, MODULE_IMPORTS, "from enum import IntEnum\n\n"]
    if block:  # later blocks share the helper, as real config modules import helpers
        out.append("from servingpkg.configs.model_config import _hf_arch\n\n")
    out.append("logger = logging.getLogger(__name__)\n\n\n")
    out.append(f"class AttentionArch{block or ''}(IntEnum):\n    MLA = 1\n    MHA = 2\n\n\n")
    if not block:
        out.append("def _hf_arch(config) -> str:\n    archs = getattr(config, \"architectures\", None) or []\n"
                   "    return archs[0] if archs else \"\"\n\n")
    for fam in fams:
        if not fam.has_predicate:
            continue
        names = ", ".join(f'"{n}"' for n in fam.vl + fam.text)
        out.append(f"\ndef is_{fam.snake}(config) -> bool:\n    return _hf_arch(config) in ({names})\n\n")
    while _lines(out) < 1150:
        out.append(_filler_block(rng, "ModelConfig"))
    return _finish(out)


WHITELISTS = (
    ("_MAMBA_RADIX_CACHE", "Keep in sync with supports_mamba_radix_cache() callers."),
    ("_MAMBA_EXTRA_BUFFER", "Keep in sync with _MAMBA_RADIX_CACHE_ARCHS."),
    ("_FLASHINFER_ALLREDUCE_FUSION", "Architectures that may use the fused allreduce."),
    ("_HYBRID_SWA", "Hybrid sliding-window models."),
)


def _overrides(rng: random.Random, fams: List[Family], block: int) -> str:
    out = [LICENSE_HEADER, MODULE_IMPORTS, "\nlogger = logging.getLogger(__name__)\n\n"]
    shard = [f for f in fams if f.has_predicate]
    suffix = "" if block == 0 else f"_R{block}"
    for w, (stem, comment) in enumerate(WHITELISTS):
        chosen = [shard[0]] + rng.sample(shard[1:], 4)
        names = []
        for fam in chosen:
            if fam is shard[0] and w < 2:
                names += fam.vl  # the seed drift: text-only names left out
            else:
                names += fam.vl + fam.text
        if w == 1:
            names.append(shard[1].nextn)
        body = "".join(f'        "{n}",\n' for n in sorted(names))
        var = f"{stem}{suffix}_ARCHS"
        out.append(f"\n# {comment}\n{var} = frozenset(\n    {{\n{body}    }}\n)\n\n")
        out.append(f"\ndef supports_{stem.strip('_').lower()}{suffix.lower()}(arch: str) -> bool:\n"
                   f"    return arch in {var}\n\n")
        for _ in range(rng.randint(8, 14)):
            out.append(_filler_block(rng, "Overrides"))
    return _finish(out)


def _config_class(rng: random.Random, fam: Family) -> str:
    out = ['"""Configuration class for %s models."""\n' % fam.name, MODULE_IMPORTS,
           "from typing import Any\n\nlogger = logging.getLogger(__name__)\n\n",
           f"class {fam.name}Config:\n    model_type = \"{fam.snake}\"\n\n"
           "    def __init__(self, vocab_size: int = 151936, hidden_size: int = 4096, **kwargs: Any) -> None:\n"
           "        self.vocab_size = vocab_size\n        self.hidden_size = hidden_size\n"
           "        self.rope_scaling: Optional[Dict[str, Any]] = kwargs.pop(\"rope_scaling\", None)\n"
           "        for key, value in kwargs.items():\n            setattr(self, key, value)\n\n"]
    target = rng.randint(90, 220)
    while _lines(out) < target:
        out.append(_filler_block(rng, fam.name))
    return _finish(out)


# --------------------------------------------------------------------------- filler

def _filler_module(rng: random.Random, target: int, quote=None) -> str:
    out = [LICENSE_HEADER if rng.random() < 0.6 else "", MODULE_IMPORTS, "\nlogger = logging.getLogger(__name__)\n"]
    if quote:
        chosen = rng.sample(quote, min(3, len(quote)))
        names = ", ".join(f'"{n}"' for f in chosen for n in f.vl)
        var = rng.choice(("multimodal_model_archs", "ENCODER_DISAGG_ALLOWED", "_VISION_MODELS"))
        out.append(f"\n{var} = [{names}]\n")
    stem = "".join(w.capitalize() for w in (rng.choice(WORDS), rng.choice(WORDS)))
    while _lines(out) < target:
        out.append(_filler_block(rng, stem))
    return _finish(out)


def _filler_block(rng: random.Random, stem: str) -> str:
    kind = rng.random()
    n = rng.randint(0, 99999)
    if kind < 0.35:
        return _filler_function(rng, n)
    if kind < 0.65:
        return _filler_class(rng, f"{stem}{rng.choice(WORDS).capitalize()}{n}")
    if kind < 0.8:
        return _filler_table(rng, n)
    return _filler_dataclass(rng, f"{stem}{rng.choice(WORDS).capitalize()}Spec{n}")


def _filler_function(rng: random.Random, n: int) -> str:
    a, b = rng.choice(WORDS), rng.choice(WORDS)
    steps = rng.randint(2, 12)
    body = []
    for i in range(steps):
        choice = rng.random()
        if choice < 0.3:
            body.append(f"    {a}_{i} = (x * {rng.randint(1, 9)} + y) // ({i} + 1)\n    total += {a}_{i}\n")
        elif choice < 0.55:
            body.append(f"    if total > {rng.randint(10, 5000)}:\n"
                        f"        logger.debug(\"{a} {b} step {i}: %s\", total)\n"
                        f"        total = math.sqrt(total)\n")
        elif choice < 0.8:
            body.append(f"    for j in range({rng.randint(2, 64)}):\n        if j % {rng.randint(2, 7)} == 0:\n"
                        f"            continue\n        total += j * scale\n")
        else:
            body.append(f"    try:\n        total = total / (x - {i})\n    except ZeroDivisionError:\n"
                        f"        raise ValueError(\"{rng.choice(CAP_WORDS)}\")\n")
    return (f"\n\ndef {a}_{b}_{n}(x: int, y: Optional[int] = None, *, scale: float = 1.0) -> float:\n"
            f'    """Compute the {a} {b} value for a batch."""\n'
            "    if y is None:\n        y = x\n    total = 0.0\n" + "".join(body) + "    return total * scale\n")


def _filler_class(rng: random.Random, cls: str) -> str:
    size = rng.choice((256, 512, 1024, 2048, 4096))
    extra = "".join(
        f"\n    def {rng.choice(WORDS)}_{i}(self, x: Tensor, mode: str = \"{rng.choice(CAP_WORDS)}\") -> Tensor:\n"
        f"        if mode == \"{rng.choice(CAP_WORDS)}\":\n            return self.norm(x)\n"
        f"        x = F.silu(self.proj(x)) * {rng.randint(1, 8)}\n        return self.out(x)\n"
        for i in range(rng.randint(0, 4))
    )
    return f'''

class {cls}(Module):
    """{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} block."""

    def __init__(self, hidden_size: int = {size}, eps: float = 1e-6) -> None:
        super().__init__()
        self.proj = Linear(hidden_size, hidden_size * {rng.randint(1, 4)}, bias={rng.choice(("True", "False"))})
        self.out = Linear(hidden_size * {rng.randint(1, 4)}, hidden_size)
        self.norm = RMSNorm(hidden_size, eps=eps)
        self.cache: Dict[str, Tensor] = {{}}

    def forward(self, x: Tensor, residual: Optional[Tensor] = None) -> Tensor:
        h = self.proj(self.norm(x))
        h = F.silu(h)
        if residual is not None:
            h = h + residual
        return self.out(h)
{extra}'''


def _filler_table(rng: random.Random, n: int) -> str:
    name = f"_{rng.choice(WORDS).upper()}_{rng.choice(WORDS).upper()}_{n}"
    items = "".join(f'    "{rng.choice(WORDS)}_{i}": ("{rng.choice(CAP_WORDS)}", {rng.randint(0, 4096)}),\n'
                    for i in range(rng.randint(3, 14)))
    return f"\n\n{name}: Dict[str, Tuple[str, int]] = {{\n{items}}}\n"


def _filler_dataclass(rng: random.Random, cls: str) -> str:
    fields = "".join(f"    {rng.choice(WORDS)}_{i}: int = {rng.randint(0, 512)}\n" for i in range(rng.randint(3, 10)))
    return (f"\n\n@dataclass\nclass {cls}:\n{fields}    mode: str = \"{rng.choice(CAP_WORDS)}\"\n\n"
            "    def validate(self) -> None:\n        if not self.mode:\n"
            "            raise ValueError(\"mode must be set\")\n")


def _finish(parts: List[str]) -> str:
    """Join a module's parts, keeping only the imports its code uses (no F401 noise)."""
    text = "".join(parts)
    if MODULE_IMPORTS not in text:
        return text
    head, _, body = text.partition(MODULE_IMPORTS)
    kept = []
    for line in MODULE_IMPORTS.splitlines():
        if line.startswith("import "):
            used = [m for m in line[7:].split(", ") if re.search(r"\b%s\." % m, body)]
            prefix = "import "
        elif line.startswith("from "):
            prefix, _, listed = line.partition(" import ")
            prefix += " import "
            used = []
            for item in listed.split(", "):
                alias = item.split(" as ")[-1]
                if re.search(r"(?<![\w.])%s\b" % re.escape(alias), body):
                    used.append(item)
        else:
            kept.append(line)
            continue
        if used:
            kept.append(prefix + ", ".join(used))
    return head + "\n".join(kept) + "\n" + body


def _lines(parts: List[str]) -> int:
    return sum(p.count("\n") for p in parts)


LICENSE_HEADER = """# Copyright 2025 The Serving Authors
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# ==============================================================================
"""

MODULE_IMPORTS = """
import logging
import math
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple

from servingpkg._nn import Embedding, Linear, Module, RMSNorm, SiluAndMul, Tensor
from servingpkg._nn import functional as F
"""

NN_STUBS = '''"""Torch-like stand-ins so generated code reads like model code without importing torch."""
from types import SimpleNamespace


class Tensor:
    pass


class Module:
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def named_parameters(self):
        return iter(())


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        self.in_features, self.out_features, self.bias = in_features, out_features, bias

    def forward(self, x):
        return x


class Embedding(Linear):
    pass


class RMSNorm(Module):
    def __init__(self, hidden_size, eps=1e-6):
        self.hidden_size, self.eps = hidden_size, eps

    def forward(self, x, residual=None):
        return x if residual is None else (x, residual)


class SiluAndMul(Module):
    def forward(self, x):
        return x


def _identity(*args, **kwargs):
    return args[0] if args else None


functional = SimpleNamespace(
    silu=_identity, softmax=_identity, matmul=_identity, split=_identity, rotary=_identity,
)
'''


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gen", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="directory to create (must not exist or be empty)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        parser.error(f"{out} is not empty")
    info = generate(out, args.size, args.seed)
    print(f"{info.root}: {info.files} .py files, {info.lines} lines, {info.bytes / 1e6:.1f} MB; "
          f"edit file {info.edit_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
