"""The settings schema: every `[tool.archsync]` key, once, as data.

The loader takes its key lists from here (which keys are lists of strings, strings, tables) and
the configuration reference page (docs/configuration.md) is generated from it, so a key cannot
be accepted without being documented, nor documented without being accepted. Which rules a key
changes is said by the rules (`Rule.settings`); a key that changes the run as a whole says so
in `applies`.

`Key` is a NamedTuple rather than a frozen dataclass: config/ is imported on every run, even a
warm one that prints the stored report, and a NamedTuple class costs a tenth as much to create.
"""
from __future__ import annotations

from typing import Dict, NamedTuple, Tuple

# How the loader validates a key's value (`loading._Validator.table`).
STRINGS = "strings"  # an array of strings
STRING = "string"  # a non-empty string
PAIRS = "pairs"  # an array of [string, string] pairs
TABLES = "tables"  # an array of tables, each with the keys in `fields`


class Key(NamedTuple):
    """One key of `[tool.archsync]`, or one field of its array-of-tables keys."""

    name: str  # as written in TOML, with `-` (the loader also takes `_`)
    kind: str  # STRINGS, STRING, PAIRS or TABLES; for a table's field, STRINGS or STRING
    summary: str  # one line: what it sets
    description: str  # one paragraph: what it does, what unset means, how mistakes are reported
    default: str = ""  # the default as TOML ("" when unset means something no value spells)
    example: str = ""  # TOML, as written under `[tool.archsync]`
    choices: Tuple[str, ...] = ()  # the only values a STRING key takes, in order
    applies: str = ""  # what it changes when that is the run as a whole rather than some rules
    matched: bool = False  # each entry must match something in the project (`resolve.unmatched`)
    fields: Tuple["Key", ...] = ()  # TABLES: the keys of each table
    required: bool = False  # a table's field that must be given

    @property
    def toml_type(self) -> str:
        """The TOML type in words, for the reference page."""
        return {STRINGS: "array of strings", STRING: "string", PAIRS: "array of [string, string] pairs",
                TABLES: "array of tables"}[self.kind]

    @property
    def field_name(self) -> str:
        """The `Config` field a top-level key sets (`mirror` is `Config.mirrors`)."""
        return _FIELDS.get(self.name, self.name.replace("-", "_"))


_FIELDS = {"mirror": "mirrors", "subset": "subsets", "cover": "covers", "exempt": "exemptions"}

KINSHIP_LEVELS = ("strong", "all", "off")

KEYS: Tuple[Key, ...] = (
    Key("src", STRINGS, "source roots, relative to the project root",
        "The directories archsync reads the project's Python files from; module names start there, so "
        "`from sglang.srt import x` resolves under `src = [\"python\"]`. Each entry must be a directory inside "
        "the project: an absolute path, `..` or a NUL character is a configuration error, so is an entry "
        "that is not a directory, and a directory that holds no Python file is a warning.",
        default='["."]', example='src = ["python"]', applies="which files are analysed, so every rule",
        matched=True),
    Key("exclude", STRINGS, "files and directories never read",
        "Globs matched against root-relative paths and against file and directory names. Discovery already "
        "skips `.git`, hidden directories, virtualenvs, `build/`, `dist/`, `__pycache__`, `node_modules` and "
        "symlinked directories. A glob that matches nothing is not reported: excluding what a checkout lacks "
        "changes nothing. A project's `exclude` also hides the projects nested below it that it matches.",
        default="[]", example='exclude = ["tests/fixtures", "*_pb2.py"]',
        applies="which files are analysed, so every rule"),
    Key("guard", STRINGS, "the subjects checked, instead of every subject found by shape",
        "Unset, the subjects are every `*_ARCHS` collection and every other literal that holds a registered "
        "name and that code tests a value against. Set, exactly the subjects it names are checked, so a "
        "project can narrow to its whitelists. Entries are globs on subject names as archsync spells them "
        "(`NAME`, `Class.attr`, `function.variable`, `function#2`, `@decorator:function`; a glob for `NAME` "
        "also covers `NAME@2`), optionally scoped to files (`\"path/glob.py::GLOB\"`). An entry that matches "
        "no subject is an error naming the nearest ones.",
        example='guard = ["*_ARCHS", "sglang/srt/configs/*.py::*"]', matched=True),
    Key("families", STRINGS, "predicates that are families besides the lineage ones; `!NAME`: never one",
        "A predicate is a family by default when its name names the lineage of every name it matches "
        "(`is_qwen3_5` and `Qwen3_5MoeForCausalLM`). `families = [\"NAME\"]` makes a predicate across "
        "lineages one too (`is_multimodal_model`), and a type family (`hybrid_gdn_config()`, read from "
        "`isinstance` tests of config classes) takes part only when named here or in a `cover`. "
        "`\"!NAME\"` keeps a predicate from being a family whatever its name says, a rule pack's "
        "included; naming and vetoing one in the same table is an error. `archsync inventory` lists the "
        "predicates that test names but are not families, each with why. An entry that matches no "
        "predicate is an error.",
        default="[]", example='families = ["is_multimodal_model", "!is_qwen3_hybrid"]', matched=True),
    Key("registries", STRINGS, "registries added to `EntryClass` and those found by shape; `!GLOB` drops some",
        "The names registered are those of `EntryClass` and of the registries found by their shape "
        "(dicts of name to class, registering calls and decorators). Entries add to them: a collection "
        "`NAME` (a dict so named registers every name-shaped key, whatever its values: rule tables and loader "
        "functions too; one keyed by model types, `{\"llama\": {\"causal-lm\": NeuronLlamaForCausalLM}}`, "
        "registers the architectures its model types name in archsync's table of `transformers`' model types), "
        "`path.py::NAME`, or a decorator `@register_model` (one used bare, `@register_draft`, "
        "registers each class it decorates under the class's own name). An entry starting with `!` removes the "
        "registries it matches (`\"!pkg/compat.py::*\"`, `\"!@register_legacy\"`); one that removes nothing "
        "is a warning. An entry that adds nothing found in the project is an error; where the code calls or "
        "decorates with that name, the error says where and with what first argument, since no architecture "
        "name was read from those uses (`register_model(ModelMeta(...))`).",
        default="[]", example='registries = ["_MODELS", "!*/legacy/*::*"]', matched=True),
    Key("universe-from", STRINGS, "installed packages (or paths) whose registrations count as registered",
        "For plugins that register into another package's registry (vllm-gaudi, tpu-inference, vllm-ascend): "
        "the named package is found on `sys.path`, in the project's `.venv` or `venv`, or in "
        "`$VIRTUAL_ENV`, or given as a path, and its registries are read from source like the project's, "
        "never imported. Without it, a project whose `setup.py` or `pyproject.toml` declares a host's plugin "
        "entry points (`vllm.general_plugins`, `vllm.platform_plugins`, SGLang's `sglang.srt.plugins` and "
        "`sglang.srt.platforms`), or whose code registers into the host's registry "
        "(`ModelRegistry.register_model(...)` from `vllm`, as vLLM-Omni does from an entry point of its own), "
        "gets the host's names from the snapshot of its registry that ships with "
        "archsync (vLLM's and SGLang's; `archsync inventory` says each one's commit and date), and ARC201 "
        "stays off in a project that registers into a registry imported from outside it: a snapshot may be "
        "older than the host it runs on. In a project of several hosts, a name registered only by one host "
        "(or in the project's files that serve it) is asked only of the lists that serve that host: their "
        "module imports it, or their directory, file or own name spells it (`plugin/sglang/`, `_VLLM_OVERRIDES`). "
        "A project that imports `transformers` and registers no model of its own (or whose files write more of "
        "the architectures transformers registers than of its own, quoted or as the model types they test: "
        "optimum-intel's drafts, ipex-llm's LangChain wrappers), with no host, serves "
        "transformers' models: the checkpoint architectures of transformers' auto mappings are its registry, from "
        "archsync's snapshot of them (`universe-from = [\"transformers\"]` reads the installed ones); ARC201 "
        "stays off there too (a checkpoint may name remote code), and a list is not told of a model the project "
        "names nowhere.",
        default="[]", example='universe-from = ["vllm"]'),
    Key("name-pattern", STRING, "what a string must look like to count as an architecture name",
        "A regular expression matched whole against each string a predicate tests; only matching strings "
        "are read as architecture names (never transformers' factories, `AutoModel...`, `AutoConfig`, whatever the "
        "pattern). An invalid expression, or one that no registered name matches, is "
        "an error. It cannot run code; a pathological pattern can only make a run slow.",
        default='"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"', example='name-pattern = "[A-Z][A-Za-z0-9_]*"',
        matched=True),
    Key("siblings", PAIRS, "suffix pairs whose variants are held together; `[]` turns ARC104 off",
        "Each pair names two suffixes of one stem that are registered separately and belong together: a "
        "subject or family that holds `<Stem><first>` while the registered `<Stem><second>` is absent (or "
        "the reverse) is reported by ARC104. Giving `siblings` replaces the default pairs. A suffix that "
        "ends no registered name is a warning naming the nearest suffix that does.",
        default='[["ForConditionalGeneration", "ForCausalLM"]]',
        example='siblings = [["ForConditionalGeneration", "ForCausalLM"], ["MoeForCausalLM", "ForCausalLM"]]',
        matched=True),
    Key("kinship", STRING, "how much kinship evidence ARC105 needs: `strong`, `all` or `off`",
        "`\"strong\"` reports a missing kin at a confidence of 0.80 or more when the project also treats the "
        "two alike (a second kind of evidence, two of its lists holding both, or two more clones of the held "
        "model in the list itself); `\"all\"` reports from 0.30; `\"off\"` turns ARC105 off. `archsync why "
        "SUBJECT NAME` prints the evidence behind a finding.",
        default='"strong"', example='kinship = "all"', choices=KINSHIP_LEVELS),
    Key("extends", STRINGS, "rule packs shipped with archsync, merged under this table",
        "A rule pack is plain configuration shipped in the wheel (`rules/*.toml` in the repository): "
        "`extends = [\"sglang\"]` merges the pack under your own settings, lists and tables appended, single "
        "values yours. A pack cannot extend another. Exemptions from a pack are never reported as stale, and "
        "nothing a pack names is held to matching the project (packs are written for many versions of a "
        "codebase). An unknown pack is an error naming the packs available; `archsync init` sets `extends` "
        "for a pack that fits the project.",
        default="[]", example='extends = ["sglang"]', applies="every rule: a pack can set any key"),
    Key("cache-dir", STRING, "the cache directory, relative to the project root",
        "archsync keeps each file's facts and the last report there, keyed by content, tool version (and the "
        "code of archsync that wrote them), configuration and Python version. It must be a directory inside "
        "the project, not the root itself, "
        "and hold nothing but archsync's files: a directory that holds others (a source package, docs) is an "
        "error, since archsync marks its cache directory with a `.gitignore` of `*` and a `CACHEDIR.TAG`. "
        "It writes those only into a directory it made, so an empty directory made for the cache gets none. "
        "`--no-cache` bypasses the cache for one run.",
        default='".archsync_cache"', example='cache-dir = ".cache/archsync"',
        applies="no finding: where the cache is kept"),
    Key("config-maps", STRINGS, "dicts from architecture name to config class, for type families",
        "A type family (a predicate that tests `isinstance(config, A | B)`) holds every registered "
        "architecture whose model is built with `A`, `B` or a subclass. The config class is read from the "
        "model's `__init__(self, config: X)`, a `config_class = X` attribute or a model base class; entries "
        "here (`path.py::NAME`) name dicts that map architecture names to config classes where the models "
        "do not say it. A key of such a dict is a checkpoint name the project knows: never taken for a typo "
        "(ARC201). An entry that matches no dict is an error.",
        default="[]", example='config-maps = ["pkg/configs.py::ARCH_TO_CONFIG"]', matched=True),
    Key("select", STRINGS, "the only codes reported, by every front end",
        "Codes or prefixes (`\"ARC1\"`), as `--select` takes them, for the whole project and every front end: "
        "the command line, flake8 and the editor. The command line narrows further. A code no rule starts "
        "with is an error.",
        default="[]", example='select = ["ARC1", "ARC2"]', applies="which codes are reported"),
    Key("ignore", STRINGS, "codes never reported, by any front end",
        "Codes or prefixes, as `--ignore` takes them, for the whole project and every front end. An "
        "exemption silences one subject; `ignore = [\"ARC901\"]` silences a code. A code no rule starts "
        "with is an error.",
        default="[]", example='ignore = ["ARC901"]', applies="which codes are reported"),
    Key("mirror", TABLES, "collections that must hold the same names (ARC102)",
        "Each `[[tool.archsync.mirror]]` table lists collections that must agree; a name in one and not in "
        "another is reported at the collection that lacks it. Each collection must match exactly one "
        "module-level collection (write `path/to/module.py::NAME` when a name is ambiguous) and is checked "
        "like a guarded one.",
        example='[[tool.archsync.mirror]]\ncollections = ["_MAMBA_RADIX_CACHE_ARCHS", "_MAMBA_EXTRA_BUFFER_ARCHS"]\n',
        fields=(
            Key("collections", STRINGS, "the collections that must agree, at least two", "", required=True),
            Key("families", STRINGS, "compare only the names of these predicates", ""),
        )),
    Key("subset", TABLES, "a collection whose names must all be in another (ARC103)",
        "Each `[[tool.archsync.subset]]` table says every name of `of` is in `in`; `in = \"registered\"` "
        "says every name of `of` is registered. The collections must each match exactly one module-level "
        "collection, as for `mirror`.",
        example='[[tool.archsync.subset]]\nof = "_MAMBA_EXTRA_BUFFER_ARCHS"\nin = "_MAMBA_RADIX_CACHE_ARCHS"\n',
        fields=(
            Key("of", STRING, "the collection whose names must be in `in`", "", required=True),
            Key("in", STRING, "the collection that must hold them, or \"registered\"", "", required=True),
        )),
    Key("cover", TABLES, "collections that must hold every name of some families (ARC101)",
        "Each `[[tool.archsync.cover]]` table says each collection holds all of each family, without "
        "ARC101's overlap test (a collection is otherwise asked to complete a family only when it already "
        "holds part of it). This is how a type family (`hybrid_gdn_config()`) is held to a whitelist. The "
        "collections must each match exactly one module-level collection, as for `mirror`.",
        example='[[tool.archsync.cover]]\ncollections = ["_MAMBA_RADIX_CACHE_ARCHS"]\n'
                'families = ["hybrid_gdn_config", "mamba2_config"]\n',
        fields=(
            Key("collections", STRINGS, "the collections, at least one", "", required=True),
            Key("families", STRINGS, "the families each must hold, at least one", "", required=True),
        )),
    Key("exempt", TABLES, "a deliberate difference, recorded with its reason",
        "Each `[[tool.archsync.exempt]]` table silences the findings about some names of one subject (or of "
        "every subject its glob matches, in every file). The reason is mandatory. An exemption of your own "
        "that no longer silences anything is reported by ARC202, so exemptions do not outlive their reason. "
        "`archsync check --add-exemptions` records every current finding as one.",
        example='[[tool.archsync.exempt]]\nsubject = "_MAMBA_RADIX_CACHE_ARCHS"\n'
                'members = ["GraniteMoeHybridForCausalLM"]\ncodes = ["ARC102"]\nreason = "special-cased in code"\n',
        fields=(
            Key("subject", STRING, "the collection or predicate, a glob", "", required=True),
            Key("members", STRINGS, "the names exempted, globs", "", required=True),
            Key("codes", STRINGS, "the codes exempted (default: every code)", ""),
            Key("reason", STRING, "why the difference is deliberate", "", required=True),
        )),
)

BY_NAME: Dict[str, Key] = {key.name: key for key in KEYS}
