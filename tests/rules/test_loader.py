"""Rulesets as data: built-ins, extends, overrides, author files, and bad YAML errors."""

from __future__ import annotations

import pytest
from dedale.errors import RulesetError
from dedale.rules import builtin_names, load_ruleset


def test_builtins(rulesets):
    assert builtin_names() == ["d20", "df-classic", "df24", "df48.5", "reliques"]
    assert {r.procedure for r in rulesets.values()} == {"opposed", "d20", "reliques"}


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("endurance", ("stat", "STAMINA")),
        ("ENDURANCE", ("stat", "STAMINA")),
        ("stamina", ("stat", "STAMINA")),
        ("Habileté", ("stat", "SKILL")),
        ("HABILETE", ("stat", "SKILL")),
        ("chance", ("stat", "LUCK")),
        ("or", ("counter", "gold")),
        ("gold", ("counter", "gold")),
        ("pièces d'or", ("counter", "gold")),
        ("Pieces  d’or", ("counter", "gold")),
        ("provisions", ("counter", "meals")),
        ("repas", ("counter", "meals")),
    ],
)
def test_resolve_is_case_accent_and_language_insensitive(rulesets, written, expected):
    assert rulesets["df-classic"].resolve(written) == expected


def test_display_names(rulesets):
    ruleset = rulesets["df-classic"]
    assert ruleset.display_name("SKILL", "fr") == "HABILETÉ"
    assert ruleset.display_name("STAMINA", "en") == "STAMINA"
    assert ruleset.display_name("meals", "en") == "Provisions"


def test_classic_values(rulesets):
    ruleset = rulesets["df-classic"]
    assert [s.roll.text for s in ruleset.stats] == ["1d6+6", "2d6+12", "1d6+6"]
    assert ruleset.counters[0].initial == 10
    assert ruleset.tests["luck"].cost == 1 and ruleset.tests["skill"].cost == 0
    assert ruleset.meals.heal == 4 and not ruleset.meals.anywhere
    assert ruleset.inventory_limit is None and not ruleset.worlds


def test_df24_extends_classic_with_its_differences(rulesets):
    df24 = rulesets["df24"]
    assert df24.counters[0].initial == 0
    assert df24.fight.damage_to_hero == 1 and df24.fight.damage_to_enemy == 2
    assert df24.fight.instant_kill_on_double
    assert (df24.fight.luck_wounded.lucky, df24.fight.luck_wounded.unlucky) == (0, 2)
    assert (df24.fight.luck_wounding.lucky, df24.fight.luck_wounding.unlucky) == (4, 1)
    assert df24.fight.together_damage == 1
    assert df24.stat("SKILL").names["fr"] == "HABILETÉ"  # inherited


def test_df485_classes_and_rules(rulesets):
    df = rulesets["df48.5"]
    assert df.inventory_limit == 10 and df.worlds and df.meals.anywhere
    assert df.fight.unarmed_penalty == -2
    merc = df.classes["Mercenaire"]
    assert merc.stats["SKILL"].text == "1d6+7" and merc.counters["meals"] == 10
    assert "armure" in merc.kit
    assert df.classes["Baroudeur"].counters["meals"] == 12
    assert df.item("armour").wear == 10


def test_overrides_are_merged_and_validated():
    ruleset = load_ruleset("df-classic", overrides={"counters": {"meals": {"initial": 3}}})
    assert ruleset.counters[0].initial == 3
    with pytest.raises(RulesetError, match="whole number"):
        load_ruleset("df-classic", overrides={"counters": {"meals": {"initial": "lots"}}})


def test_author_file_extends_a_builtin(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.yaml").write_text(
        "name: mine\nextends: df-classic\nfight:\n  damage: {to_enemy: 3}\n", encoding="utf-8"
    )
    ruleset = load_ruleset("rules/mine.yaml", base_dir=tmp_path)
    assert ruleset.name == "mine" and ruleset.fight.damage_to_enemy == 3


def test_author_file_must_stay_inside_the_book(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (tmp_path / "evil.yaml").write_text("name: x\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="outside the book folder"):
        load_ruleset("../evil.yaml", base_dir=book)


def test_unknown_builtin_suggests():
    with pytest.raises(RulesetError) as info:
        load_ruleset("df-clasic")
    assert info.value.hint == "did you mean `df-classic`?"


def test_extends_loop(tmp_path):
    (tmp_path / "a.yaml").write_text("name: a\nextends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: b\nextends: a.yaml\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="extends itself"):
        load_ruleset("a.yaml", base_dir=tmp_path)


def test_override_errors_point_into_book_yaml(tmp_path):
    from ruamel.yaml import YAML

    text = "title: T\nruleset: df-classic\nrules:\n  fight:\n    damage: {to_hero: lots}\n"
    data = YAML(typ="rt").load(text)
    with pytest.raises(RulesetError) as info:
        load_ruleset("df-classic", data["rules"], tmp_path, overrides_file="book.yaml")
    assert str(info.value.span) == "book.yaml:5:23"


@pytest.mark.parametrize(
    ("overrides", "counter", "initial"),
    [
        ({"counters": {"repas": {"initial": 5}}}, "meals", 5),  # an alias of meals
        ({"counters": {"Provisions": {"initial": 3}}}, "meals", 3),
        ({"counters": {"meals": {"initial": 4}}}, "meals", 4),  # the id itself
    ],
)
def test_an_override_named_by_an_alias_changes_that_entry(overrides, counter, initial):
    ruleset = load_ruleset("df-classic", overrides)
    (found,) = [c for c in ruleset.counters if c.id == counter]
    assert found.initial == initial
    assert len(ruleset.counters) == len(load_ruleset("df-classic").counters)  # no second one


def test_an_override_of_a_stat_by_its_french_name():
    ruleset = load_ruleset("df-classic", {"stats": {"HABILETÉ": {"roll": "2d6"}}})
    assert str(ruleset.stat("SKILL").roll) != str(load_ruleset("df-classic").stat("SKILL").roll)
    assert len(ruleset.stats) == len(load_ruleset("df-classic").stats)
