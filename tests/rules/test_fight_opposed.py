"""FF-family fights, rule by rule (RULES.md sections 1-3), with scripted dice.

Dice order in an assault: the enemy's 2d6, the hero's 2d6, then (if asked) the Luck
test's 2d6; in "together" fights the other enemies' 2d6 follow the hero's.
"""

from __future__ import annotations

from dedale.events import AssaultResolved, EnemyDefeated, FightEnded, TargetPrompt, YesNoPrompt
from dedale.rules import (
    AlwaysNo,
    EnemySpec,
    FightSpec,
    ScriptedDecider,
    ScriptedDice,
    collect,
    drive,
    run_fight,
)
from rules_helpers import ff_hero, one_enemy


def fight(ruleset, hero, faces, spec, answers=None):
    decider = ScriptedDecider(answers) if answers is not None else AlwaysNo()
    dice = ScriptedDice(faces)
    result, seen = collect(run_fight(ruleset, hero, dice, spec), decider)
    return result, seen, dice


def assaults(seen):
    return [e for e in seen if isinstance(e, AssaultResolved)]


# ----------------------------------------------------------------- df-classic


def test_higher_attack_strength_wounds_for_2(rulesets):
    hero = ff_hero()
    # enemy 8+2=10 < hero 10+6=16: enemy -2; then enemy 8+12=20 > hero 10+2: hero -2
    result, seen, _ = fight(rulesets["df-classic"], hero, [1, 1, 3, 3, 6, 6, 1, 1], one_enemy(
        stamina=2, assault_limit=2))  # fmt: skip
    first = assaults(seen)[0]
    assert first.winner == "hero" and first.enemy_damage_taken == 2
    assert result.outcome == "won" and hero.stats["STAMINA"] == 20


def test_enemy_wounds_hero_for_2_and_tie_hurts_nobody(rulesets):
    hero = ff_hero()
    spec = one_enemy(assault_limit=2)
    result, seen, _ = fight(rulesets["df-classic"], hero, [6, 6, 1, 1, 3, 3, 2, 2], spec)
    enemy_win, tie = assaults(seen)
    assert enemy_win.winner == "enemy" and enemy_win.hero_damage_taken == 2
    assert tie.winner == "tie" and tie.hero_damage_taken == tie.enemy_damage_taken == 0
    assert hero.stats["STAMINA"] == 18 and result.outcome == "limit"
    assert result.enemies_left == (("Orc", 10),)


def test_hero_at_zero_stamina_loses(rulesets):
    hero = ff_hero(stamina=2)
    result, seen, _ = fight(rulesets["df-classic"], hero, [6, 6, 1, 1], one_enemy())
    assert result.outcome == "lost" and hero.stats["STAMINA"] == 0
    assert isinstance(seen[-1], FightEnded) and seen[-1].outcome == "lost"


def test_luck_when_wounding_lucky_4_unlucky_1(rulesets):
    ruleset = rulesets["df-classic"]
    hero = ff_hero(luck=9)
    # hero wins; Luck 4+4=8 <= 9 lucky: 4 damage; LUCK 9 -> 8
    result, seen, _ = fight(ruleset, hero, [1, 1, 6, 6, 4, 4], one_enemy(stamina=4), [True])
    assert result.outcome == "won" and hero.stats["LUCK"] == 8
    hero = ff_hero(luck=9)
    # unlucky (6+5=11 > 9): 1 damage only
    result, seen, _ = fight(ruleset, hero, [1, 1, 6, 6, 6, 5], one_enemy(
        stamina=4, assault_limit=1), [True])  # fmt: skip
    assert result.enemies_left == (("Orc", 3),) and hero.stats["LUCK"] == 8


def test_luck_when_wounded_lucky_1_unlucky_3(rulesets):
    ruleset = rulesets["df-classic"]
    for luck_faces, expected in (([1, 2], 19), ([6, 6], 17)):
        hero = ff_hero(luck=9)
        spec = one_enemy(assault_limit=1)
        fight(ruleset, hero, [6, 6, 1, 1, *luck_faces], spec, [True])
        assert hero.stats["STAMINA"] == expected and hero.stats["LUCK"] == 8


def test_luck_is_asked_not_taken(rulesets):
    hero = ff_hero()
    _, seen, _ = fight(rulesets["df-classic"], hero, [6, 6, 1, 1], one_enemy(assault_limit=1))
    prompts = [p for p in seen if isinstance(p, YesNoPrompt)]
    assert [p.kind for p in prompts] == ["use_luck"]
    assert hero.stats["LUCK"] == 9


def test_escape_wounds_for_2_with_luck_usable(rulesets):
    ruleset = rulesets["df-classic"]
    hero = ff_hero()
    result, _, _ = fight(ruleset, hero, [], one_enemy(escape_after=0), [True, False])
    assert result.outcome == "escaped" and hero.stats["STAMINA"] == 18
    hero = ff_hero()
    result, _, _ = fight(ruleset, hero, [1, 1], one_enemy(escape_after=0), [True, True])
    assert result.outcome == "escaped" and hero.stats["STAMINA"] == 19


def test_escape_only_after_the_given_assault(rulesets):
    hero = ff_hero()
    spec = one_enemy(escape_after=1)
    # tie (8+4 = 10+2), then the escape is offered
    _, seen, _ = fight(rulesets["df-classic"], hero, [2, 2, 1, 1], spec, [True, False])
    kinds = [p.kind for p in seen if isinstance(p, YesNoPrompt)]
    assert kinds == ["escape", "use_luck"] and len(assaults(seen)) == 1


def test_sequence_next_enemy_steps_in(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 2}), EnemySpec("B", {"SKILL": 5, "STAMINA": 2})),
        mode="sequence",
    )
    result, seen, _ = fight(rulesets["df-classic"], hero, [1, 1, 6, 6] * 2, spec)
    assert [e.name for e in seen if isinstance(e, EnemyDefeated)] == ["A", "B"]
    assert result.outcome == "won" and result.assaults == 2


def test_as_one_fights_a_single_combined_enemy(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 2}), EnemySpec("B", {"SKILL": 7, "STAMINA": 2})),
        mode="as_one",
    )
    # combined SKILL 7: 7+4=11 vs hero 10+2=12 -> hero wins; STAMINA 4 needs two wins
    result, seen, _ = fight(rulesets["df-classic"], hero, [2, 2, 1, 1, 2, 2, 1, 1], spec)
    assert {a.enemy for a in assaults(seen)} == {"A & B"} and result.assaults == 2


def test_together_others_wound_when_higher(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 2}), EnemySpec("B", {"SKILL": 10, "STAMINA": 2})),
        mode="together",
        assault_limit=1,
    )
    # target A: 5+2 vs hero 10+2=12 -> A wounded; B: 10+6=16 > 12 -> hero -2
    answers = [0, False, False]
    result, seen, _ = fight(rulesets["df-classic"], hero, [1, 1, 1, 1, 3, 3], spec, answers)
    assert isinstance(seen[1], TargetPrompt) and seen[1].enemies == ("A", "B")
    assert hero.stats["STAMINA"] == 18
    assert [e.name for e in seen if isinstance(e, EnemyDefeated)] == ["A"]


def test_together_lower_other_is_only_dodged(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 4}), EnemySpec("B", {"SKILL": 5, "STAMINA": 4})),
        mode="together",
        assault_limit=1,
    )
    result, seen, _ = fight(rulesets["df-classic"], hero, [1, 1, 1, 1, 1, 1], spec, [1, False])
    assert hero.stats["STAMINA"] == 20
    assert result.enemies_left == (("A", 4), ("B", 2))
    assert assaults(seen)[-1].note == "dodged"


def test_assault_limit_and_attack_bonus_and_enemy_damage(rulesets):
    hero = ff_hero()
    spec = one_enemy(assault_limit=1, attack_bonus=3, enemy_damage=5)
    # enemy 8+7=15, hero 10+2+3=15 -> tie thanks to the bonus
    result, seen, _ = fight(rulesets["df-classic"], hero, [3, 4, 1, 1], spec)
    assert assaults(seen)[0].winner == "tie" and result.outcome == "limit"
    hero = ff_hero()
    fight(rulesets["df-classic"], hero, [6, 6, 1, 1], one_enemy(assault_limit=1, enemy_damage=5))
    assert hero.stats["STAMINA"] == 15


def test_tagged_modifier_applies_to_attack(rulesets):
    hero = ff_hero()
    spec = one_enemy(assault_limit=1, modifiers=((-2, "darkness"),))
    # enemy 8+4=12, hero 10-2+3=11 -> enemy wins
    _, seen, _ = fight(rulesets["df-classic"], hero, [2, 2, 1, 2], spec)
    assert assaults(seen)[0].winner == "enemy"


# ----------------------------------------------------------------- df24


def test_df24_enemy_wound_is_1(rulesets):
    hero = ff_hero()
    fight(rulesets["df24"], hero, [6, 6, 1, 2], one_enemy(assault_limit=1))
    assert hero.stats["STAMINA"] == 19


def test_df24_instant_kill_on_a_double_whatever_the_strengths(rulesets):
    hero = ff_hero()
    # enemy 8+12=20 vs hero 10+2=12 but the hero rolled a double 1: the enemy dies
    result, seen, _ = fight(rulesets["df24"], hero, [6, 6, 1, 1], one_enemy(stamina=20))
    assert result.outcome == "won" and assaults(seen)[0].note == "instant_kill"


def test_df24_immune_enemy(rulesets):
    hero = ff_hero()
    spec = FightSpec((EnemySpec("Golem", {"SKILL": 8, "STAMINA": 20}, immune_instant_kill=True),),
                     assault_limit=1)  # fmt: skip
    result, _, _ = fight(rulesets["df24"], hero, [6, 6, 1, 1], spec)
    assert result.outcome == "limit" and hero.stats["STAMINA"] == 19


def test_df24_luck_when_wounded_lucky_0_unlucky_2(rulesets):
    for luck_faces, expected in (([1, 2], 20), ([6, 6], 18)):
        hero = ff_hero()
        fight(rulesets["df24"], hero, [6, 6, 1, 2, *luck_faces], one_enemy(assault_limit=1), [True])
        assert hero.stats["STAMINA"] == expected


def test_df24_together_others_wound_for_1(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 9}), EnemySpec("B", {"SKILL": 10, "STAMINA": 9})),
        mode="together",
        assault_limit=1,
    )
    fight(rulesets["df24"], hero, [1, 1, 1, 2, 6, 6], spec, [0, False, False])
    assert hero.stats["STAMINA"] == 19


def test_df24_no_meals(rulesets):
    from dedale.rules import RandomSource, create_character

    hero = create_character(rulesets["df24"], RandomSource(1))
    assert hero.counters["meals"] == 0


# ----------------------------------------------------------------- df48.5


def df485_hero(klass, items=None, **stats):
    hero = ff_hero(**stats, class_name=klass)
    hero.items = dict(items if items is not None else {"BFG 9000": 1, "armure": 1})
    return hero


def test_armour_blocks_first_assault_wound_then_wears(rulesets):
    ruleset = rulesets["df48.5"]
    hero = df485_hero("Mercenaire")
    _, seen, _ = fight(ruleset, hero, [6, 6, 1, 2, 6, 6, 1, 2], one_enemy(assault_limit=2),
                       [False])  # fmt: skip
    first, second = assaults(seen)
    assert first.note == "armour" and hero.stats["STAMINA"] == 18
    assert hero.fights_with_armour == 1


def test_armour_used_up_by_a_first_assault_tie(rulesets):
    hero = df485_hero("Mercenaire")
    spec = one_enemy(assault_limit=2)
    fight(rulesets["df48.5"], hero, [3, 3, 1, 3, 6, 6, 1, 2], spec, [False])
    assert hero.stats["STAMINA"] == 18


def test_armour_stops_after_10_fights(rulesets):
    hero = df485_hero("Mercenaire")
    hero.armour_wear["armure"] = [10]
    fight(rulesets["df48.5"], hero, [6, 6, 1, 2], one_enemy(assault_limit=1), [False])
    assert hero.stats["STAMINA"] == 18 and hero.armour_wear["armure"] == [10]


def test_mercenaire_first_successful_assault_bonus(rulesets):
    hero = df485_hero("Mercenaire", {"BFG 9000": 1})
    # 2 wins: first does 3, second 2
    result, seen, _ = fight(rulesets["df48.5"], hero, [1, 1, 6, 6, 1, 1, 6, 6],
                            one_enemy(assault_limit=2), [False, False])  # fmt: skip
    assert [a.enemy_damage_taken for a in assaults(seen)] == [3, 2]


def test_scientifique_attack_bonus(rulesets):
    hero = df485_hero("Scientifique", {"BFG 9000": 1})
    # enemy 8+5=13, hero 10+2+1=13 -> tie thanks to +1
    _, seen, _ = fight(rulesets["df48.5"], hero, [2, 3, 1, 1], one_enemy(assault_limit=1))
    assert assaults(seen)[0].winner == "tie"


def test_unarmed_penalty_2_and_baroudeur_1(rulesets):
    # enemy 8+4=12; hero 10+3=13 -2 = 11 loses; Baroudeur 13-1 = 12 ties
    hero = df485_hero(None, {})
    _, seen, _ = fight(rulesets["df48.5"], hero, [2, 2, 1, 2], one_enemy(assault_limit=1),
                       [False])  # fmt: skip
    assert assaults(seen)[0].winner == "enemy"
    hero = df485_hero("Baroudeur", {})
    _, seen, _ = fight(rulesets["df48.5"], hero, [2, 2, 1, 2], one_enemy(assault_limit=1))
    assert assaults(seen)[0].winner == "tie"


def test_df485_together_higher_hero_only_dodges(rulesets):
    hero = df485_hero("Baroudeur", {"BFG 9000": 1})
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 9}), EnemySpec("B", {"SKILL": 10, "STAMINA": 9})),
        mode="together",
        assault_limit=1,
    )
    _, seen, _ = fight(rulesets["df48.5"], hero, [1, 1, 1, 2, 6, 6], spec, [0, False, False])
    assert hero.stats["STAMINA"] == 18


def test_drive_returns_result(rulesets):
    hero = ff_hero()
    result = drive(run_fight(rulesets["df-classic"], hero, ScriptedDice([1, 1, 6, 6]),
                             one_enemy(stamina=2)), AlwaysNo())  # fmt: skip
    assert result.won


def test_together_killing_a_later_target_keeps_fighting_the_others(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("A", {"SKILL": 5, "STAMINA": 2}), EnemySpec("B", {"SKILL": 5, "STAMINA": 2})),
        mode="together",
    )
    # target B first (A's dice 1+1 after the hero's), then A alone
    faces = [1, 1, 6, 6, 1, 1, 1, 1, 6, 6]
    result, seen, _ = fight(rulesets["df-classic"], hero, faces, spec, [1, False, False])
    assert result.outcome == "won"
    assert [e.name for e in seen if isinstance(e, EnemyDefeated)] == ["B", "A"]


def test_weapon_bonus_only_the_best_weapon_counts(rulesets):
    from dedale.rules import BookItem

    hero = ff_hero()
    hero.gain("Sword", info=BookItem(weapon=True, bonuses=(("SKILL", 1, None),)))
    hero.gain("Axe", info=BookItem(weapon=True, bonuses=(("SKILL", 2, None),)))
    hero.gain("Ring", info=BookItem(bonuses=(("SKILL", 1, None),)))
    # enemy 8+7 = 15; hero 10+2 +2 (axe) +1 (ring) = 15 -> tie
    _, seen, _ = fight(rulesets["df-classic"], hero, [3, 4, 1, 1], one_enemy(assault_limit=1))
    assert assaults(seen)[0].winner == "tie"


def test_enemies_without_stamina_are_skipped(rulesets):
    hero = ff_hero()
    spec = FightSpec(
        (EnemySpec("Dead", {"SKILL": 5, "STAMINA": 0}), EnemySpec("B", {"SKILL": 5, "STAMINA": 2})),
        mode="sequence",
    )
    result, seen, _ = fight(rulesets["df-classic"], hero, [1, 1, 6, 6], spec)
    assert result.won and {a.enemy for a in assaults(seen)} == {"B"}
    nobody = FightSpec((EnemySpec("Dead", {"SKILL": 5, "STAMINA": 0}),))
    assert fight(rulesets["df-classic"], ff_hero(), [], nobody)[0].won
