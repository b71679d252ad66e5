"""The settings schema (`lint_plugin/config/schema.py`) says what the loader does, key by key.

The loader reads its key lists from the schema, and docs/configuration.md is generated from it;
here each documented default, example, choice and required field is held to the loader's
behaviour, in process.
"""
from __future__ import annotations

import dataclasses

import pytest

from lint_plugin.config import Config, ConfigError, config_from_text
from lint_plugin.config.schema import BY_NAME, KEYS, STRING, TABLES
from lint_plugin.rules import CODES

NAMES = [key.name for key in KEYS]


def load(tmp_path, body: str) -> Config:
    return config_from_text(tmp_path, "[tool.archsync]\n" + body, CODES)


@pytest.mark.parametrize("name", [k.name for k in KEYS if k.default])
def test_a_documented_default_is_the_default(tmp_path, name):
    key = BY_NAME[name]
    written = load(tmp_path, f"{name} = {key.default}\n")
    assert getattr(written, key.field_name) == getattr(Config(root=tmp_path), key.field_name)


def test_keys_without_a_default_are_tables_or_guard():
    """`guard` unset means every subject found by shape, which no value spells; a table key is absent."""
    assert [k.name for k in KEYS if not k.default] == ["guard", "mirror", "subset", "cover", "exempt"]
    assert all(k.kind == TABLES for k in KEYS if not k.default and k.name != "guard")


@pytest.mark.parametrize("name", NAMES)
def test_every_example_loads_and_sets_its_key(tmp_path, name):
    key = BY_NAME[name]
    assert key.example.startswith(f"{name} = " if key.kind != TABLES else f"[[tool.archsync.{name}]]\n"), key.example
    body = key.example if key.kind != TABLES else key.example.replace("[[tool.archsync.", "\n[[tool.archsync.")
    written = load(tmp_path, body)
    assert getattr(written, key.field_name) != getattr(Config(root=tmp_path), key.field_name), name


def test_a_string_key_with_choices_takes_those_and_no_other(tmp_path):
    (kinship,) = [k for k in KEYS if k.choices]
    assert (kinship.name, kinship.kind, kinship.choices) == ("kinship", STRING, ("strong", "all", "off"))
    for choice in kinship.choices:
        assert load(tmp_path, f'kinship = "{choice}"\n').kinship == choice
    with pytest.raises(ConfigError) as error:
        load(tmp_path, 'kinship = "some"\n')
    assert str(error.value) == (f"{tmp_path / 'pyproject.toml'}: tool.archsync.kinship: expected one of 'strong', "
                                f"'all', 'off', got 'some'")


@pytest.mark.parametrize("name", [k.name for k in KEYS if k.kind == TABLES])
def test_a_table_takes_exactly_its_documented_fields_and_requires_the_required_ones(tmp_path, name):
    key = BY_NAME[name]
    full = {"collections": '["A_ARCHS", "B_ARCHS"]', "families": '["is_a"]', "of": '"A_ARCHS"', "in": '"B_ARCHS"',
            "subject": '"A_ARCHS"', "members": '["A"]', "codes": '["ARC101"]', "reason": '"r"'}
    fields = {f.name: full[f.name] for f in key.fields}
    header = f"\n[[tool.archsync.{name}]]\n"
    load(tmp_path, header + "".join(f"{k} = {v}\n" for k, v in fields.items()))
    for field in key.fields:
        without = "".join(f"{k} = {v}\n" for k, v in fields.items() if k != field.name)
        if field.required:
            with pytest.raises(ConfigError) as error:
                load(tmp_path, header + without)
            missing = ("[0].reason: every exemption needs a reason (a non-empty string)" if field.name == "reason"
                       else f"[0]: missing required key {field.name!r}")
            assert str(error.value).endswith(f"tool.archsync.{name}{missing}"), str(error.value)
        else:
            load(tmp_path, header + without)
    with pytest.raises(ConfigError) as error:
        load(tmp_path, header + "".join(f"{k} = {v}\n" for k, v in fields.items()) + "extra = 1\n")
    known = ", ".join(sorted(fields))
    assert str(error.value).endswith(f"tool.archsync.{name}[0].extra: unknown key (known keys: {known})")


def test_an_unknown_key_lists_the_schema_keys(tmp_path):
    with pytest.raises(ConfigError) as error:
        load(tmp_path, "sources = []\n")
    assert str(error.value) == (
        f"{tmp_path / 'pyproject.toml'}: tool.archsync.sources: unknown key (known keys: cache-dir, config-maps, "
        "cover, exclude, exempt, extends, families, guard, ignore, kinship, mirror, name-pattern, registries, "
        "select, siblings, src, subset, universe-from)")


def test_every_key_sets_a_config_field_and_every_setting_field_has_a_key():
    settable = {f.name for f in dataclasses.fields(Config)} - {"root", "guard_set", "prefilter", "source", "stated"}
    assert {key.field_name for key in KEYS} == settable

