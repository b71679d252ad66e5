"""Which module names may hold a collection, from the bytes (`extract/module_values.py`), against the reader.

A body that names a module-level collection is parsed whole (`bodies.py`); a name whose value the reader
never takes for a collection need not keep one. Each case gives the statement and the gate's answer; each is
also asked of the reader itself (the whole file parsed): wherever it makes a collection, the gate must say so.
"""
from __future__ import annotations

import pytest

from lint_plugin.extract.bodies import stubbed
from lint_plugin.extract.from_bytes import NEVER, extract_file
from lint_plugin.extract.module_values import may_be_collection

NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"

CASES = [
    # may be a collection
    ('archs = ["LlamaForCausalLM", "MistralForCausalLM"]', True),
    ("archs = frozenset(\n    {\n        \"LlamaForCausalLM\",\n    }\n)", True),
    ("archs = []", True),  # grows later
    ("archs = _BASE", True),  # a reference
    ("archs = models.ARCHS", True),
    ("archs = _BASE | {\"LlamaForCausalLM\"}", True),
    ("archs = _BASE + [\"LlamaForCausalLM\"]", True),
    ("archs = _BASE.union(_MORE)", True),
    ("archs = dict(LlamaForCausalLM=1)", True),
    ("extra = os.environ.get(\"EXTRA_ARCHS\", \"\").split(\",\")", True),
    ("extra = parse(envs.EXTRA_ARCHS.get())", True),  # reads an environment variable inside
    ("EXTRA = load_archs()", True),  # a constant: what a call gives is not known
    ("ARCH_TABLE = TABLES[\"llama\"]", True),  # a constant: what a subscript gives is not known
    ("archs = \\\n    [\"LlamaForCausalLM\"]", True),  # the value on a continued line
    ("archs = (\n    \"LlamaForCausalLM\",  # the one\n)", True),
    ("archs = *_BASE, \"LlamaForCausalLM\"", True),
    ("archs = torch.tensor([1]).cuda()", True),  # unsure: a call on a call's result
    ("archs = ()", True),
    # never a collection
    ("use_aiter = get_bool_env_var(\"SGLANG_USE_AITER\") and _is_hip", False),
    ("use_aiter = envs.SGLANG_USE_AITER.get() and _is_hip", False),  # a boolean, whatever it reads
    ("app = FastAPI(\n    title=\"server\",\n    version=get_version(),\n)", False),
    ("logger = logging.getLogger(__name__)", False),
    ("app = FastAPI(title=\"server\")  # the HTTP app", False),
    ("BUCKETS = (64, 128, 256, 512, 1024)", False),
    ("SIZES = [\n    1,  # small\n    2,\n]", False),
    ("GB = 1024 * 1024 * 1024", False),
    ("Handler = Callable[\n    [int], str\n]", False),
    ("head_dim = shape[2]", False),
    ("template = \"{system}\"", False),
    ("template = (\n    \"a\"\n    \"b\"\n)", True),  # unsure: a value in brackets that spells a string
    ("pattern = rb\"[a-z]+\"", False),
    ("default = ARCHS if FAST else None", False),
    ("check = lambda arch: arch in ARCHS", False),
    ("same = KIND == \"llama\"", False),
    ("negated = not ENABLED", False),
    ("ratio = 3 / 4", False),
]


@pytest.mark.parametrize("statement,expected", CASES)
def test_the_gate_answers_as_written(statement: str, expected: bool) -> None:
    source = statement.encode() + b"\n"
    value = source.index(b"=") + 1
    target = statement.split("=")[0].strip()
    constant = target.lstrip("_")[:1].isupper() and target.upper() == target
    assert may_be_collection(source, value, len(source), constant) is expected


@pytest.mark.parametrize("statement,expected", CASES)
def test_wherever_the_reader_makes_a_collection_the_gate_says_it_may(statement: str, expected: bool) -> None:
    source = b"import os\n" + statement.encode() + b"\n"
    facts = extract_file(source, "m.py", "m", (), False, NAME_PATTERN, stub_from=NEVER)
    target = statement.split("=")[0].strip()
    if any(c.name == target for c in facts.collections):
        assert expected


def test_a_keyword_argument_on_a_line_of_a_call_binds_no_module_name() -> None:
    """`dtype=torch.float32,` inside a module-level call is no assignment: a function naming `dtype` is
    stubbed; one naming the module's collection is kept."""
    source = (b"TABLE = torch.tensor(\n    [0.0, 0.5],\n    dtype=torch.float32,\n)\n"
              b"ARCHS = [\"LlamaForCausalLM\"]\n\n\n"
              b"def cast(x, dtype):\n    y = x.to(dtype)\n    return y.float()\n\n\n"
              b"def is_llama(config):\n    return config.architectures[0] in ARCHS\n")
    stub = stubbed(source, [])
    assert stub is not None
    assert b"def cast(x, dtype):\n    pass\n" in stub.text
    assert b"return config.architectures[0] in ARCHS" in stub.text
    whole = extract_file(source, "m.py", "m", (), False, NAME_PATTERN, stub_from=NEVER)
    assert extract_file(source, "m.py", "m", (), False, NAME_PATTERN, stub_from=0) == whole


def test_an_assignment_inside_a_module_level_block_is_found() -> None:
    """`if TYPE_CHECKING:` / `try:` blocks bind module names too; a function testing one stays whole."""
    source = (b"try:\n    from extra import MORE\nexcept ImportError:\n    MORE = frozenset()\n"
              b"if FAST:\n    ARCHS = MORE | {\"LlamaForCausalLM\"}\nelse:\n    ARCHS = MORE\n\n\n"
              b"def supported(arch):\n    found = arch\n    return found in ARCHS\n")
    stub = stubbed(source, [])
    assert stub is None or b"return found in ARCHS" in stub.text


def test_a_body_growing_a_name_read_from_the_projects_environment_module_is_read() -> None:
    """`extra = envs.SGLANG_EXTRA_ARCHS.get()` is a collection to the reader (read from an environment
    variable), so a function growing it is read whole: before, a name not spelt as a constant bound to such a
    call was taken for no collection, and the growth went unseen where the body was stubbed."""
    source = (b"from sglang import envs\n\nextra = envs.SGLANG_EXTRA_ARCHS.get()\n" + b"# padding\n" * 400
              + b"\n\ndef add(name):\n    extra.append(name)\n")
    stubbed_facts = extract_file(source, "m.py", "m", (), False, NAME_PATTERN, stub_from=0)
    assert stubbed_facts == extract_file(source, "m.py", "m", (), False, NAME_PATTERN, stub_from=NEVER)
    (extra,) = stubbed_facts.collections
    assert [getattr(part, "reason", "") for part in extra.parts] == [
        "read from an environment variable by envs.SGLANG_EXTRA_ARCHS.get()", "grown by extra.append() in add()"]
