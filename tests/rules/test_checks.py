"""Tests of Luck, Skill, reliques duo tests and d20 rolls, with scripted dice."""

from __future__ import annotations

import pytest
from dedale.events import YesNoPrompt
from dedale.rules import (
    AlwaysNo,
    Character,
    ScriptedDecider,
    ScriptedDice,
    collect,
    drive,
    run_d20_test,
    run_duo_test,
    run_test,
)
from rules_helpers import ff_hero


def test_luck_lucky_if_roll_at_most_luck_and_costs_1(rulesets):
    hero = ff_hero(luck=9)
    result = drive(run_test(rulesets["df-classic"], hero, ScriptedDice([4, 5]), "luck"), AlwaysNo())
    assert result.success and result.margin == 0 and hero.stats["LUCK"] == 8
    result = drive(run_test(rulesets["df-classic"], hero, ScriptedDice([4, 5]), "luck"), AlwaysNo())
    assert not result.success and hero.stats["LUCK"] == 7


def test_skill_test_costs_nothing(rulesets):
    hero = ff_hero(skill=7)
    result = drive(
        run_test(rulesets["df-classic"], hero, ScriptedDice([3, 4]), "skill"), AlwaysNo()
    )
    assert result.success and hero.stats["SKILL"] == 7


def test_piloting_penalty_ignored_or_halved_by_class(rulesets):
    ruleset = rulesets["df48.5"]
    dice = [4, 4]  # 8 vs SKILL 9 - 3 = 6 fails; ignored: 9 succeeds; halved (-1): 8 succeeds
    for klass, success in ((None, False), ("Baroudeur", True), ("Scientifique", True)):
        hero = ff_hero(skill=9, class_name=klass)
        gen = run_test(ruleset, hero, ScriptedDice(dice), "skill", [(-3, "piloting")])
        assert drive(gen, AlwaysNo()).success is success
    hero = ff_hero(skill=9, class_name="Scientifique")
    gen = run_test(ruleset, hero, ScriptedDice([4, 5]), "skill", [(-3, "piloting")])
    assert drive(gen, AlwaysNo()).target == 8  # -3 halved rounds the penalty down to -1


@pytest.mark.parametrize("tag", ["pilotage", "Pilotage", "technologie inconnue"])
def test_piloting_tag_in_french_is_the_same_tag(rulesets, tag):
    """The ruleset's `tags:` section lists other spellings of a tag (df48.5: pilotage)."""
    ruleset = rulesets["df48.5"]
    hero = ff_hero(skill=9, class_name="Baroudeur")
    gen = run_test(ruleset, hero, ScriptedDice([4, 5]), "skill", [(-3, tag)])
    assert drive(gen, AlwaysNo()).target == 9  # ignored, as for "piloting"
    hero = ff_hero(skill=9, class_name="Baroudeur")
    gen = run_test(ruleset, hero, ScriptedDice([4, 5]), "skill", [(-3, "night")])
    assert drive(gen, AlwaysNo()).target == 6  # another tag: not ignored


def reliques_hero(**stats) -> Character:
    base = {"FOR": 3, "AGL": 4, "PER": 3, "CON": 4, "ESP": 3, "CHA": 3, "HEALTH": 20}
    base.update(stats)
    return Character(stats=dict(base), initial=dict(base), counters={"courage": 0, "volonte": 0})


def duo(rulesets, hero, faces, stats=("FOR", "AGL"), answers=(), **kw):
    gen = run_duo_test(rulesets["reliques"], hero, ScriptedDice(faces), stats, **kw)
    return collect(gen, ScriptedDecider(answers))


def test_duo_roll_under_sum_with_margins(rulesets):
    result, _ = duo(rulesets, reliques_hero(), [3, 2])
    assert result.success and result.target == 7 and result.margin == 2
    result, _ = duo(rulesets, reliques_hero(), [6, 4])
    assert not result.success and result.margin == 3


def test_single_stat_counts_double_and_clamp(rulesets):
    result, _ = duo(rulesets, reliques_hero(PER=5), [5, 5], stats=("PER",))
    assert result.target == 10 and result.success
    result, _ = duo(rulesets, reliques_hero(FOR=6, AGL=6), [5, 5], difficulty=4)
    assert result.target == 12


def test_difficulty_makes_easier(rulesets):
    result, _ = duo(rulesets, reliques_hero(), [4, 5], difficulty=2)
    assert result.target == 9 and result.success and result.margin == 0


def test_criticals_and_exceptions(rulesets):
    assert duo(rulesets, reliques_hero(), [1, 1])[0].outcome == "critical_success"
    assert duo(rulesets, reliques_hero(FOR=6, AGL=6), [6, 6])[0].outcome == "failure"
    assert duo(rulesets, reliques_hero(FOR=5, AGL=6), [6, 6])[0].outcome == "critical_failure"
    assert duo(rulesets, reliques_hero(FOR=1, AGL=1), [1, 1])[0].outcome == "success"


def test_risk_roll_turns_outcome_critical(rulesets):
    result, seen = duo(rulesets, reliques_hero(), [2, 3], answers=[True], risk_allowed=True)
    assert isinstance(seen[0], YesNoPrompt) and seen[0].kind == "risk"
    assert result.outcome == "critical_success"
    result, _ = duo(rulesets, reliques_hero(), [6, 5], answers=[True], risk_allowed=True)
    assert result.outcome == "critical_failure"


def test_heroism_rerolls_one_die(rulesets):
    hero = reliques_hero()
    hero.counters["courage"] = 1
    result, seen = duo(rulesets, hero, [6, 5, 1], answers=[True])
    assert result.faces == (5, 1) and result.success and hero.counters["courage"] == 0


def test_health_malus_on_physical_tests(rulesets):
    hero = reliques_hero()
    hero.stats["HEALTH"] = 9  # lost 11 of 20 (levels of 4): moderately wounded, -1
    result, _ = duo(rulesets, hero, [3, 2])
    assert result.target == 6
    result, _ = duo(rulesets, hero, [3, 2], kind="mental")
    assert result.target == 7


def d20_hero(**stats) -> Character:
    base = {"FOR": 10, "DEX": 14, "CON": 12, "INT": 10, "SAG": 10, "CHA": 10, "ACTION": 3, "HP": 20}
    base.update(stats)
    return Character(stats=dict(base), initial=dict(base), trained={"climb"})


@pytest.mark.parametrize(
    ("faces", "difficulty", "outcome"),
    [
        ([10], "medium", "success"),  # 10 + 3 + 2 = 15
        ([15], "moyen", "critical_success"),  # 20 >= 15 + 5
        ([9], 15, "failure"),  # 14
        ([5], "medium", "critical_failure"),  # 10 <= 15 - 5
    ],
)
def test_d20_trained_roll(rulesets, faces, difficulty, outcome):
    gen = run_d20_test(rulesets["d20"], d20_hero(), ScriptedDice(faces), "DEX", difficulty,
                       action="climb")  # fmt: skip
    assert drive(gen, AlwaysNo()).outcome == outcome


def test_d20_untrained_uses_1d10_without_action_bonus(rulesets):
    gen = run_d20_test(rulesets["d20"], d20_hero(), ScriptedDice([10]), "DEX", "easy", action="x")
    result = drive(gen, AlwaysNo())
    assert result.roll == 12 and result.outcome == "success"


def test_d20_advantage_and_disadvantage(rulesets):
    hero = d20_hero()
    adv = run_d20_test(rulesets["d20"], hero, ScriptedDice([3, 18]), "DEX", "hard",
                       trained=True, advantage="advantage")  # fmt: skip
    assert drive(adv, AlwaysNo()).roll == 23
    dis = run_d20_test(rulesets["d20"], hero, ScriptedDice([3, 18]), "DEX", "hard",
                       trained=True, advantage="disadvantage")  # fmt: skip
    assert drive(dis, AlwaysNo()).roll == 8


def test_d20_obvious_needs_no_roll(rulesets):
    result = drive(run_d20_test(rulesets["d20"], d20_hero(), ScriptedDice([]), "DEX", "évident"),
                   AlwaysNo())  # fmt: skip
    assert result.success


def test_item_bonus_from_the_book_counts_while_carried(rulesets):
    from dedale.rules import BookItem

    hero = ff_hero(skill=7)
    hero.gain("Silver Quill", info=BookItem(weapon=True, bonuses=(("SKILL", 1, None),)))
    gen = run_test(rulesets["df-classic"], hero, ScriptedDice([4, 4]), "skill")
    assert drive(gen, AlwaysNo()).success  # 8 <= 7 + 1
    hero.lose("Silver Quill")
    gen = run_test(rulesets["df-classic"], hero, ScriptedDice([4, 4]), "skill")
    assert not drive(gen, AlwaysNo()).success


def test_duo_difficulty_out_of_range_is_an_error(rulesets):
    from dedale.errors import GameError

    with pytest.raises(GameError, match="difficulty 5 out of range"):
        duo(rulesets, reliques_hero(), [1, 2], difficulty=5)
