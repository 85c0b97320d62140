"""Write the JSON Schemas of book.yaml and of ruleset YAML files under ``schemas/``.

    python tools/gen_schemas.py           # write schemas/book.schema.json, ruleset.schema.json
    python tools/gen_schemas.py --check   # exit 1 when a committed schema is out of date

book.yaml's keys come from the loader's own tables (``dedale.language.meta_keys`` and
``dedale.language.book_state``): every English key, its documented French spelling (with and
without accents) and its other accepted spellings. The ruleset's keys are the tables below
(``RULESET_TABLES``); tests/schemas checks them against the keys the ruleset loader itself
accepts, so that neither schema can drift from the code. YAML editors use the schemas to
complete and check keys (docs/editors.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dedale.language.book_state import ENTRY_KEYS, SECTION_KEYS, SHEET_VALUES
from dedale.language.keywords import fold
from dedale.language.meta_keys import (
    BOOL_VALUES,
    CREATION,
    GENDER_VALUES,
    LANGUAGE_VALUES,
    REROLL_VALUES,
    TOP,
    VALIDATOR,
    KeySet,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
BASE_URI = "https://dedale.invalid/schemas/"
"""The schemas' ``$id`` prefix (a name, never fetched: editors read the files)."""
BUILT_IN = ("df-classic", "df24", "df48.5", "d20", "reliques")

Schema = dict[str, Any]

# ------------------------------------------------------------------ shared value schemas

TEXT: Schema = {"type": ["string", "number"]}
NAME: Schema = {"type": ["string", "integer"], "minLength": 1}
NAMES: Schema = {
    "description": "A name in each language: {fr: HABILETÉ, en: SKILL}",
    "type": "object",
    "properties": {"fr": {"type": "string"}, "en": {"type": "string"}},
    "additionalProperties": {"type": "string"},
}
NAME_LIST: Schema = {"type": "array", "items": NAME}
DICE: Schema = {
    "description": "A dice expression such as 2d6+12 (or a plain number)",
    "type": ["string", "integer"],
}
INT: Schema = {"type": "integer"}
TEXT_ONLY: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
PAIR: Schema = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
STAT_PAIR: Schema = {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}


def obj(properties: dict[str, Schema], required: tuple[str, ...] = (), **extra: Any) -> Schema:
    """A mapping with exactly these keys."""
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    schema.update(extra)
    return schema


def by_name(entry: Schema, example: str) -> Schema:
    """A mapping of identifiers (``SKILL:``, ``luck:``) to entries."""
    return {"type": ["object", "null"], "additionalProperties": entry, "examples": [example]}


# ------------------------------------------------------------------------------ rulesets

LUCK_TABLE = obj({"lucky": INT, "unlucky": INT})
ABILITY = obj(
    {
        "when": {"enum": ["modifier", "fight", "unarmed", "first_assault",
                          "first_successful_assault"]},
        "tag": NAME, "effect": NAME, "value": INT,
    },
    ("when", "effect"),
)  # fmt: skip

RULESET_TABLES: dict[str, dict[str, Schema]] = {
    "a ruleset": {
        "name": NAME,
        "title": NAMES,
        "stats": {},  # filled below: they refer to other tables
        "counters": {},
        "meals": {},
        "tests": {},
        "duo_test": {},
        "d20_test": {},
        "fight": {},
        "classes": {},
        "items": {},
        "inventory_limit": {"type": ["integer", "null"], "minimum": 1},
        "worlds": BOOL,
        "health": {},
        "heroism": {},
        "tags": {"type": "object", "additionalProperties": NAME_LIST},
        "inventory_exempt": NAME_LIST,
    },
    "stat": {
        "names": NAMES, "aliases": NAME_LIST, "roll": DICE, "may_exceed_initial": BOOL,
        "kind": {"enum": ["physical", "mental"]},
    },
    "counter": {
        "names": NAMES, "aliases": NAME_LIST, "initial": {"type": "integer", "minimum": 0},
        "max": {"type": "integer", "minimum": 0}, "singular": NAMES,
    },
    "test": {"names": NAMES, "stat": NAME, "dice": DICE, "cost": INT, "outcomes": {}},
    "outcomes": {"success": NAMES, "failure": NAMES},
    "meals": {
        "counter": NAME, "stat": NAME, "heal": INT, "where": {"enum": ["paragraph", "anywhere"]},
    },
    "duo_test": {
        "dice": DICE, "target": PAIR, "difficulty": PAIR, "stat_range": PAIR,
        "critical_success": {"type": "array", "items": INT},
        "critical_failure": {"type": "array", "items": INT},
    },
    "d20_test": {
        "trained": DICE, "untrained": DICE, "critical_margin": INT, "action": NAME,
        "difficulties": {},
    },
    "difficulty": {"value": {"type": ["integer", "null"]}, "names": NAMES},
    "item": {
        "names": NAMES, "aliases": NAME_LIST,
        "kind": {"enum": ["weapon", "armour", "shield", "other"]},
        "damage": DICE, "reduction": INT, "action_malus": INT, "protection": INT,
        "wear": {"type": ["integer", "null"], "minimum": 1},
        "abilities": {"type": "array", "items": ABILITY},
    },
    "an ability": ABILITY["properties"],
    "class": {
        "names": NAMES, "description": NAMES,
        "stats": {"type": "object", "additionalProperties": DICE},
        "counters": {"type": "object", "additionalProperties": INT},
        "kit": NAME_LIST, "abilities": {"type": "array", "items": ABILITY}, "trained": NAME_LIST,
    },
    "health": {"levels": {}},
    "a health level": {"id": NAME, "names": NAMES, "malus": INT},
    "heroism": {"physical": NAME, "mental": NAME, "any": NAME, "ignore_loss": NAME},
    "fight damage": {"to_enemy": INT, "to_hero": INT},
    "fight luck": {"test": NAME, "wounding": LUCK_TABLE, "wounded": LUCK_TABLE},
    "wounding": LUCK_TABLE["properties"],
    "wounded": LUCK_TABLE["properties"],
    "fight together": {"damage": INT},
    "fight escape": {"damage": INT, "luck": BOOL},
}  # fmt: skip
"""Each mapping the ruleset loader checks (named as its errors name it) and its keys."""

ENEMY_KEY: Schema = {  # [HP, PV], or {names: {fr: PV, en: HP}, aliases: [...]}
    "anyOf": [NAME_LIST, obj({"names": NAMES, "aliases": NAME_LIST})]
}
ENEMY_KEYS = {
    "d20": ("armour_class", "attack", "damage", "reduction", "health"),
    "reliques": ("weapon", "protection", "health"),
}
FIGHT_KEYS: dict[str, dict[str, Schema]] = {
    "opposed": {
        "procedure": {"const": "opposed"}, "health": NAME, "attack_stat": NAME, "dice": DICE,
        "damage": obj(RULESET_TABLES["fight damage"]),
        "luck": obj(RULESET_TABLES["fight luck"]),
        "instant_kill_on_double": BOOL, "unarmed_penalty": INT,
        "together": obj(RULESET_TABLES["fight together"]),
        "escape": obj(RULESET_TABLES["fight escape"]),
    },
    "d20": {
        "procedure": {"const": "d20"}, "health": NAME, "attack_stat": NAME,
        "defence_stat": NAME, "action_stat": NAME, "dice": DICE, "base_ac": INT,
        "automatic_lead": INT, "critical_face": INT, "critical_multiplier": INT,
        "unarmed_damage": DICE,
        "enemy_keys": obj({key: ENEMY_KEY for key in ENEMY_KEYS["d20"]}),
    },
    "reliques": {
        "procedure": {"const": "reliques"}, "health": NAME, "initiative": STAT_PAIR,
        "attack": STAT_PAIR, "dodge": STAT_PAIR, "parry": STAT_PAIR, "actions_stat": NAME,
        "actions": {"type": "object", "additionalProperties": INT,
                    "propertyNames": {"pattern": "^[0-9]+$"}},
        "unarmed_damage": INT,
        "enemy_keys": obj({key: ENEMY_KEY for key in ENEMY_KEYS["reliques"]}),
    },
}  # fmt: skip
"""The keys of ``fight:`` for each procedure (the loader accepts one set per procedure)."""
TOP_DESCRIPTIONS = {
    "name": "The ruleset's identifier (df-classic)",
    "title": "Its title in each language: {fr: ..., en: ...}",
    "stats": "The hero's stats, in order: SKILL: {names, aliases, roll: 1d6+6}",
    "counters": "Counted things (meals, gold): gold: {names, singular, aliases, initial, max}",
    "meals": "What a meal restores: {counter: meals, stat: STAMINA, heal: 4, where}",
    "tests": "Roll-under tests: luck: {stat: LUCK, dice: 2d6, cost: 1}",
    "duo_test": "The reliques duo test: {dice, target, difficulty, criticals, stat_range}",
    "d20_test": "d20 action rolls: {trained: 1d20, untrained: 1d10, difficulties}",
    "fight": "How fights are fought: procedure opposed, d20 or reliques, and its values",
    "classes": "Character classes: Name: {names, stats, counters, kit, abilities}",
    "items": "Items the rules know: sword: {kind: weapon, damage, protection}",
    "inventory_limit": "How many items the hero may carry (null: no limit)",
    "worlds": "true: a World may not be visited twice",
    "health": "reliques health levels: {levels: [{id, names, malus}]}",
    "heroism": "reliques: the counter paying for each use of heroism",
    "tags": "Other spellings of modifier tags: {piloting: [pilotage]}",
    "inventory_exempt": "Items the inventory limit does not count: [ring, key]",
}
"""What each top-level key is for (shown by editors on hover; docs/rulesets.md says more)."""
LOADER_ONLY = {"extends": {"description": "A ruleset this one changes (df-classic)", **NAME}}
"""Keys the ruleset file loader reads before the schema (``extends:``)."""


def fight_schema() -> Schema:
    """``fight:``: every procedure's keys, each procedure limited to its own."""
    union: dict[str, Schema] = {}
    for keys in FIGHT_KEYS.values():
        for key, schema in keys.items():
            union.setdefault(key, schema)
    union["procedure"] = {"enum": list(FIGHT_KEYS)}
    every_enemy_key = [key for keys in ENEMY_KEYS.values() for key in keys]
    union["enemy_keys"] = obj({key: ENEMY_KEY for key in dict.fromkeys(every_enemy_key)})
    rules = []
    for name, keys in FIGHT_KEYS.items():
        then: Schema = {"propertyNames": {"enum": list(keys)}}
        if name in ENEMY_KEYS:
            own = {"propertyNames": {"enum": list(ENEMY_KEYS[name])}}
            then["properties"] = {"enemy_keys": own}
        rules.append(
            {
                "if": {"properties": {"procedure": {"const": name}}, "required": ["procedure"]},
                "then": then,
            }
        )
    return obj(union, allOf=rules)


def ruleset_properties() -> dict[str, Schema]:
    """The top-level keys of a ruleset, with their schemas."""
    tables = RULESET_TABLES
    test = dict(tables["test"], outcomes=obj(tables["outcomes"]))
    d20 = dict(
        tables["d20_test"],
        difficulties=by_name(obj(tables["difficulty"]), "easy: {value: 10}"),
    )
    top = dict(tables["a ruleset"])
    top.update(
        stats=by_name(obj(tables["stat"]), "SKILL: {roll: 1d6+6}"),
        counters=by_name(obj(tables["counter"]), "gold: {initial: 0}"),
        meals={**obj(tables["meals"]), "type": ["object", "null"]},
        tests=by_name(obj(test), "luck: {stat: LUCK, dice: 2d6}"),
        duo_test={**obj(tables["duo_test"]), "type": ["object", "null"]},
        d20_test={**obj(d20), "type": ["object", "null"]},
        fight=fight_schema(),
        classes=by_name(obj(tables["class"]), "Mercenaire: {stats: {SKILL: 1d6+7}}"),
        items=by_name(obj(tables["item"]), "sword: {kind: weapon}"),
        health={
            **obj({"levels": {"type": "array", "items": obj(tables["a health level"], ("id",))}}),
            "type": ["object", "null"],
        },
        heroism={**obj(tables["heroism"]), "type": ["object", "null"]},
    )
    described = {
        key: {"description": TOP_DESCRIPTIONS[key], **schema} for key, schema in top.items()
    }
    return {**LOADER_ONLY, **described}


def ruleset_schema() -> Schema:
    """A ruleset file: a full one, or one that ``extends:`` another (then nothing required)."""
    properties = ruleset_properties()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE_URI + "ruleset.schema.json",
        "title": "Dédale ruleset",
        "description": "A Dédale ruleset (docs/rulesets.md). Keys are in English; names "
        "shown to players are given in each language (names: {fr: ..., en: ...}).",
        **obj(properties),
        "if": {"not": {"required": ["extends"]}},
        "then": {"required": ["name", "stats", "fight"]},
        "else": {"required": ["name"]},
    }


# ----------------------------------------------------------------------------- book.yaml


def spellings(keys: KeySet) -> dict[str, list[str]]:
    """Every spelling of each key the loader accepts: English, French (accented and not)
    and the other spellings, each also with ``_``, ``-`` or a space between its words (the
    loader reads them alike: ``jeu de règles``), and with a capital first letter."""
    result: dict[str, list[str]] = {}
    for canonical, (french, others) in keys.keys.items():
        names: list[str] = []
        for name in (canonical, french, fold(french), *others):
            words = name.replace("_", "-").split("-")
            for joined in ("-".join(words), "_".join(words), " ".join(words)):
                for variant in (joined, joined[:1].upper() + joined[1:]):
                    if variant not in names:
                        names.append(variant)
        result[canonical] = names
    return result


def keyed(keys: KeySet, values: dict[str, Schema], what: str) -> Schema:
    """A mapping whose keys may be written in English or French (a schema given as a
    ``$ref`` is shared by every spelling)."""
    properties: dict[str, Schema] = {}
    for canonical, names in spellings(keys).items():
        for name in names:
            schema = dict(values[canonical])
            if name != canonical:
                said = schema.get("description", what)
                schema["description"] = f"= {canonical}" + (f": {said}" if said else "")
            properties[name] = schema
    return obj(properties)


ACCENTED = {
    "francais": "français", "feminin": "féminin", "illimite": "illimité",
    "illimitee": "illimitée", "illimitees": "illimitées", "caracteristiques": "caractéristiques",
    "cache": "caché", "cachee": "cachée",
}  # fmt: skip
"""The French values of the loader's tables as authors write them (the loader folds
accents, so both spellings are accepted)."""


def choice(table: dict[str, Any], description: str) -> Schema:
    """One of the values a loader table accepts (accented French spellings included)."""
    values = sorted({*table, *(ACCENTED[key] for key in table if key in ACCENTED)})
    return {"description": description, "enum": values}


def book_schema() -> Schema:
    """book.yaml (and a single-file book's front matter), in English or French keys."""
    words = sorted({*BOOL_VALUES, *[str(v).lower() for v in (True, False)]})
    yes_no: Schema = {"anyOf": [BOOL, {"enum": words}]}
    creation = keyed(
        CREATION,
        {
            "fixed_stats": {**yes_no, "description": "The player may type the hero's stats"},
            "reroll": {
                "anyOf": [choice(REROLL_VALUES, "How often the player may reroll"), {"const": 1}]
            },
            "default_name": {"type": "string", "description": "The hero's name by default"},
            "gender": choice(GENDER_VALUES, "The hero's grammatical gender"),
        },
        "creation",
    )
    validator = keyed(
        VALIDATOR,
        {
            "ignore": {
                "description": "Finding codes to silence (W012)",
                "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
            },
            "fight_threshold": {"type": "number", "minimum": 0, "maximum": 1},
            "runs": {"type": "integer", "minimum": 0},
            "max_steps": {"type": "integer", "minimum": 1},
            "hidden": {"type": "array", "items": {"type": "integer"}},
            "time_budget": {"type": "number", "minimum": 0, "maximum": 86400},
        },
        "validator",
    )
    entry = keyed(
        ENTRY_KEYS,
        {
            "name": {"type": ["string", "integer"], "description": "The name shown"},
            "sheet": choice(SHEET_VALUES, "Where the sheet shows it"),
            "start": INT,
            "max": INT,
        },
        "flag or counter",
    )
    names = {"type": "array", "items": NAME}
    entries = {"anyOf": [names, {"type": "object", "additionalProperties": {
        "anyOf": [{"type": "null"}, {"type": "string"}, entry]}}]}  # fmt: skip
    shared = {"$ref": "#/$defs/entries"}
    state = keyed(SECTION_KEYS, {"flags": shared, "counters": shared}, "state")
    defs = {
        "entries": entries,
        "rules": obj(ruleset_properties(), description="Ruleset values this book changes"),
        "creation": creation,
        "validator": validator,
        "state": state,
    }
    top = keyed(
        TOP,
        {
            "title": {**TEXT, "description": "The book's title"},
            "author": {"anyOf": [TEXT, {"type": "array", "items": TEXT}]},
            "language": choice(LANGUAGE_VALUES, "The language of the book and its keywords"),
            "ruleset": {
                "description": "A built-in ruleset or a YAML file in the book's folder",
                "anyOf": [{"enum": list(BUILT_IN)}, {"type": "string", "minLength": 1}],
            },
            "rules": {"$ref": "#/$defs/rules"},
            "start": {"type": "integer", "minimum": 0, "description": "The first paragraph"},
            "files": {
                "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
            },
            "items": {"type": "array", "items": {"type": ["string", "integer"]}},
            "creation": {"$ref": "#/$defs/creation"},
            "validator": {"$ref": "#/$defs/validator"},
            "state": {"$ref": "#/$defs/state"},
            "pinned": {
                "description": "Paragraphs `dedale export --shuffle` keeps at their numbers",
                "anyOf": [INT, {"type": "array", "items": INT}],
            },
        },
        "",
    )
    title_keys = spellings(TOP)["title"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE_URI + "book.schema.json",
        "title": "Dédale book.yaml",
        "description": "A Dédale book's metadata (docs/language.md), keys in English or French.",
        **top,
        "anyOf": [{"required": [key]} for key in title_keys],
        "$defs": defs,
    }


def render(schema: Schema) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def generated() -> dict[Path, str]:
    """The text of each schema file, as this script writes it."""
    return {
        SCHEMAS / "book.schema.json": render(book_schema()),
        SCHEMAS / "ruleset.schema.json": render(ruleset_schema()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a schema is stale")
    args = parser.parse_args(argv)
    stale = []
    for path, text in generated().items():
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path.relative_to(ROOT)} is out of date: run python tools/gen_schemas.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
