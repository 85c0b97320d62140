"""The JSON Schemas of book.yaml and of rulesets (schemas/): up to date with their generator,
in step with the loaders' own key tables, and true to every sample book and ruleset."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import dedale.rules.schema as ruleset_schema
import dedale.rules.schema_fight as fight_schema
import jsonschema
import pytest
from dedale.errors import BookLoadError, BookMetadataError
from dedale.language import load_book
from dedale.language.keywords import fold
from dedale.language.meta_keys import CREATION, TOP, VALIDATOR, norm
from dedale.rules import load_ruleset
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas"
RULESETS = sorted((ROOT / "engine/dedale/rules/rulesets").glob("*.yaml"))
_spec = importlib.util.spec_from_file_location("gen_schemas", ROOT / "tools/gen_schemas.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)
Validator = jsonschema.Draft202012Validator


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def yaml_data(text: str):
    return YAML(typ="safe").load(text)


def front_matter(path: Path) -> str | None:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---", 4)
    return text[4:end] if end > 0 else None


def sample_metadata() -> list[tuple[Path, str]]:
    """Every sample book's metadata: book.yaml files and single-file front matters."""
    found = [(p, p.read_text(encoding="utf-8")) for p in sorted(ROOT.glob("books/*/book.yaml"))]
    found += [(p, p.read_text(encoding="utf-8")) for p in sorted(ROOT.glob("tests/**/book.yaml"))]
    for path in sorted(ROOT.glob("tests/books_extra/**/*.dd")):
        text = front_matter(path)
        if text is not None:
            found.append((path, text))
    return found


def metadata_loads(path: Path) -> bool:
    """Whether the loader accepts the book's metadata (its other mistakes do not matter)."""
    try:
        load_book(path.parent if path.name == "book.yaml" else path)
    except BookLoadError as error:
        return not any(isinstance(e, BookMetadataError) for e in error.errors)
    except BookMetadataError:
        return False
    except Exception:  # noqa: BLE001 - another kind of error: the metadata itself is fine
        return True
    return True


def test_committed_schemas_are_up_to_date():
    for path, text in gen.generated().items():
        assert path.read_text(encoding="utf-8") == text, "run python tools/gen_schemas.py"


@pytest.mark.parametrize("name", ["book", "ruleset"])
def test_each_schema_is_a_valid_json_schema(name):
    Validator.check_schema(schema(name))


SAMPLES = sample_metadata()


@pytest.mark.parametrize("path, text", SAMPLES, ids=[str(p.relative_to(ROOT)) for p, _ in SAMPLES])
def test_the_schema_agrees_with_the_loader_on_every_sample_book(path, text):
    errors = [e.message for e in Validator(schema("book")).iter_errors(yaml_data(text))]
    if metadata_loads(path):
        assert errors == []
    else:  # a sample of a metadata mistake (tests/books_extra/mistakes): the schema sees it
        assert errors


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_every_built_in_ruleset_is_valid(path):
    data = yaml_data(path.read_text(encoding="utf-8"))
    assert [e.message for e in Validator(schema("ruleset")).iter_errors(data)] == []


def test_a_wrong_book_yaml_is_rejected_at_each_mistake():
    text = (ROOT / "tests/schemas/wrong-book/book.yaml").read_text(encoding="utf-8")
    errors = list(Validator(schema("book")).iter_errors(yaml_data(text)))
    where = sorted("/".join(map(str, e.absolute_path)) or "<top>" for e in errors)
    assert where == ["<top>", "<top>", "language", "start"]  # titel: unknown, and no title
    assert any("'titel' was unexpected" in e.message for e in errors)
    with pytest.raises(BookLoadError):  # the loader refuses it too
        load_book(ROOT / "tests/schemas/wrong-book")


def test_french_keys_are_accepted_and_completed():
    book = schema("book")
    assert {"titre", "langue", "jeu-de-règles", "départ", "depart", "validateur"} <= set(
        book["properties"]
    )
    text = "titre: La Tour\nlangue: français\njeu-de-règles: df-classic\ndépart: 1\n"
    text += "création: {relance: une-fois, genre: féminin}\nvalidateur: {ignorer: [W012]}\n"
    assert list(Validator(book).iter_errors(yaml_data(text))) == []


@pytest.mark.parametrize(
    ("keys", "where"), [(TOP, "properties"), (CREATION, "creation"), (VALIDATOR, "validator")]
)
def test_every_book_key_is_one_the_loader_reads(keys, where):
    book = schema("book")
    properties = book["properties"] if where == "properties" else book["$defs"][where]["properties"]
    assert {keys.canonical(name) for name in properties} == set(keys.keys)


def test_every_value_in_a_book_enum_is_one_the_loader_reads():
    from dedale.language.meta_keys import GENDER_VALUES, LANGUAGE_VALUES, REROLL_VALUES

    book = schema("book")
    creation = book["$defs"]["creation"]["properties"]
    for values, table in (
        (book["properties"]["language"]["enum"], LANGUAGE_VALUES),
        (creation["gender"]["enum"], GENDER_VALUES),
        (creation["reroll"]["anyOf"][0]["enum"], REROLL_VALUES),
    ):
        assert {norm(fold(value)) for value in values} == set(table)


def loader_key_tables(monkeypatch) -> dict[str, set[frozenset[str]]]:
    """The keys the ruleset loader accepts in each mapping, as it checks them while loading
    every built-in ruleset (identifiers left out of the names: ``stat SKILL`` -> ``stat``)."""
    seen: dict[str, set[frozenset[str]]] = {}
    check = ruleset_schema.check_keys

    def spy(node, allowed, what):
        head, _, _ = what.partition(" ")
        name = head if head in ("stat", "counter", "test", "item", "class", "difficulty") else what
        seen.setdefault(name, set()).add(frozenset(allowed))
        return check(node, allowed, what)

    monkeypatch.setattr(ruleset_schema, "check_keys", spy)
    monkeypatch.setattr(fight_schema, "check_keys", spy)
    for path in RULESETS:
        load_ruleset(path.stem)
    return seen


def test_the_ruleset_tables_are_the_loaders(monkeypatch):
    seen = loader_key_tables(monkeypatch)
    fight = seen.pop("fight")
    enemy_keys = seen.pop("enemy_keys")
    assert seen.pop("enemy key") == {frozenset({"names", "aliases"})}  # {names: …, aliases: …}
    assert {what: {frozenset(keys)} for what, keys in gen.RULESET_TABLES.items()} == seen
    assert {frozenset(keys) for keys in gen.FIGHT_KEYS.values()} == fight
    assert {frozenset(keys) for keys in gen.ENEMY_KEYS.values()} == enemy_keys


def test_the_ruleset_schema_holds_every_table(monkeypatch):
    ruleset = schema("ruleset")
    top = set(ruleset["properties"]) - set(gen.LOADER_ONLY)
    assert top == set(gen.RULESET_TABLES["a ruleset"])
    stats = ruleset["properties"]["stats"]["additionalProperties"]["properties"]
    assert set(stats) == set(gen.RULESET_TABLES["stat"])
    fight = ruleset["properties"]["fight"]
    procedures = {rule["if"]["properties"]["procedure"]["const"]: rule for rule in fight["allOf"]}
    for name, keys in gen.FIGHT_KEYS.items():
        assert procedures[name]["then"]["propertyNames"]["enum"] == list(keys)


def test_a_ruleset_mistake_is_rejected():
    data = yaml_data((ROOT / "engine/dedale/rules/rulesets/df-classic.yaml").read_text("utf-8"))
    data["fight"]["critical_face"] = 20  # a d20 key in an opposed fight
    data["stats"]["SKILL"]["rol"] = "1d6+6"
    errors = {
        "/".join(map(str, e.absolute_path)) for e in Validator(schema("ruleset")).iter_errors(data)
    }
    assert errors == {"fight", "stats/SKILL"}


@pytest.mark.parametrize("key", ["jeu de règles", "Jeu de règles", "jeu_de_regles", "Titre"])
def test_keys_spelt_as_the_loader_reads_them(key, tmp_path):
    """The loader reads ``_``, ``-`` and spaces alike and any first capital: so does the
    schema (an outsider's book.yaml said ``jeu de règles``)."""
    if key == "Titre":
        text = "Titre: T\nlangue: fr\n"
    else:
        text = f"titre: T\nlangue: fr\n{key}: df-classic\n"
    assert list(Validator(schema("book")).iter_errors(yaml_data(text))) == []
    (tmp_path / "book.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "a.dd").write_text("§ 1\n> victoire\n", encoding="utf-8")
    assert metadata_loads(tmp_path / "book.yaml")
