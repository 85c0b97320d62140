"""RULES.md, "Decisions added after the first audit", the reliques fight turn: one test per
rule, with scripted dice, in the order of the RULES.md bullet.

Hero FOR 4 AGL 3 PER 3: initiative (AGL+PER) 6, attack (FOR+AGL) 7, dodge 6, parry 7,
2 actions; sword (3), leather (protection 2), health 20. The enemy, a ghoul with 30 health
and a weapon of 2, changes its AGL/PER per test. Every test fights one turn; the dice come
in the order the turn rolls them (initiative hero then enemy, then the actions).
"""

from __future__ import annotations

from dedale.events import AssaultResolved, DiceRolled, MessageShown, YesNoPrompt
from dedale.rules import (
    AlwaysNo,
    Character,
    EnemySpec,
    FightSpec,
    ScriptedDecider,
    ScriptedDice,
    collect,
    run_fight,
)


def _fight(rulesets, faces, answers=None, hero_agl=3, **enemy):
    stats = {"FOR": 4, "AGL": hero_agl, "PER": 3, "CON": 4, "ESP": 3, "CHA": 3, "HEALTH": 20}
    hero = Character(stats=dict(stats), initial=dict(stats), items={"épée": 1, "cuir": 1},
                     counters={"courage": 0, "volonte": 0, "chance": 0})  # fmt: skip
    ghoul = {"FOR": 3, "AGL": 2, "PER": 2, "CON": 3, "HEALTH": 30, "arme": 2, **enemy}
    spec = FightSpec((EnemySpec("Goule", ghoul),), assault_limit=1)
    decider = ScriptedDecider(answers) if answers is not None else AlwaysNo()
    dice = ScriptedDice(faces)
    result, seen = collect(run_fight(rulesets["reliques"], hero, dice, spec), decider)
    return hero, result, seen


def _actions(seen) -> list[str]:
    """The dice a turn rolled after the initiative: ``hero_attack``, ``Goule_parry``..."""
    rolled = [e.purpose for e in seen if isinstance(e, DiceRolled)]
    return [purpose for purpose in rolled if not purpose.endswith("_initiative")]


def _notes(seen) -> list[str]:
    return [e.note for e in seen if isinstance(e, AssaultResolved)]


def _defence_prompts(seen) -> list[YesNoPrompt]:
    return [e for e in seen if isinstance(e, YesNoPrompt) and e.kind == "dodge"]


# "then each fighter takes ONE action in order of margin, then a second round for those with
#  a second action, and so on"
def test_each_fighter_takes_one_action_in_order_of_margin_then_a_round_per_extra_action(
    rulesets,
):
    # ghoul AGL 5 PER 2: initiative 7, attack 8, 3 actions. Initiative: hero 1+2 (margin 3),
    # ghoul 2+3 (margin 2): the hero first. Every attack misses.
    faces = [1, 2, 2, 3, 5, 4, 5, 4, 6, 5, 6, 5, 6, 5]
    _, _, seen = _fight(rulesets, faces, AGL=5)
    assert _actions(seen) == ["hero_attack", "Goule_attack"] * 2 + ["Goule_attack"]


# "a critical success acts first"
def test_a_critical_success_at_initiative_acts_first_whatever_the_margins(rulesets):
    # ghoul AGL 2 PER 1: initiative 3; it rolls 1+1 (margin 1), the hero 1+2 (margin 3)
    faces = [1, 2, 1, 1, 5, 4, 5, 4, 6, 5]
    _, _, seen = _fight(rulesets, faces, PER=1)
    first = next(e for e in seen if isinstance(e, MessageShown) and e.key == "initiative")
    assert dict(first.params)["first"] == "Goule"
    assert _actions(seen) == ["Goule_attack", "hero_attack", "hero_attack"]


# "a critical failure acts not at all that turn"
def test_a_critical_failure_at_initiative_leaves_a_one_action_fighter_no_action(rulesets):
    # ghoul AGL 2 (1 action) rolls 6+6; the hero 3+3 attacks twice (misses)
    faces = [3, 3, 6, 6, 5, 4, 6, 5]
    _, _, seen = _fight(rulesets, faces)
    assert _actions(seen) == ["hero_attack", "hero_attack"]


# "or, with 2 or more actions, has only 1"
def test_a_critical_failure_at_initiative_leaves_one_action_to_a_fighter_with_two(rulesets):
    # the hero (2 actions) rolls 6+6; the ghoul AGL 3 (2 actions, initiative 5) rolls 3+3
    # (margin -1, better than -6): ghoul, hero, ghoul; every attack misses
    faces = [6, 6, 3, 3, 5, 4, 5, 4, 6, 5]
    _, _, seen = _fight(rulesets, faces, AGL=3)
    assert _actions(seen) == ["Goule_attack", "hero_attack", "Goule_attack"]


# "Dodging and parrying each cost an action" — the hero's dodge
def test_dodging_costs_the_hero_an_action(rulesets):
    # ghoul first (1+2, margin 1 vs 0); its attack 2+2 vs 5: MR 1; the hero dodges 2+2
    # vs 6 (margin 2 >= 1): dodged. One action left: one attack (a miss), not two.
    faces = [3, 3, 1, 2, 2, 2, 2, 2, 5, 4]
    _, _, seen = _fight(rulesets, faces, answers=[True])
    assert _actions(seen) == ["Goule_attack", "hero_dodge", "hero_attack"]
    assert _notes(seen) == ["dodged", "miss"]


# "Dodging and parrying each cost an action" — the enemy's parry
def test_parrying_costs_the_enemy_its_action(rulesets):
    # hero first (1+2 vs 3+3); his attack 3+3 vs 7: MR 1; the ghoul (parry 5 > dodge 4)
    # parries 1+2 (margin 2): parried, and its only action is spent: it never attacks
    faces = [1, 2, 3, 3, 3, 3, 1, 2, 5, 4]
    _, _, seen = _fight(rulesets, faces)
    assert _actions(seen) == ["hero_attack", "Goule_parry", "hero_attack"]
    assert _notes(seen) == ["parried", "miss"]


# "a fighter with no action left cannot dodge or parry" — the enemy
def test_an_enemy_with_no_action_left_cannot_defend(rulesets):
    # ghoul first (1+2 vs 3+3): its attack misses; the hero's 3+3 (MR 1) lands undefended:
    # weapon 3 + MR 1 = 4
    faces = [3, 3, 1, 2, 5, 4, 3, 3, 5, 4]
    _, result, seen = _fight(rulesets, faces)
    assert _actions(seen) == ["Goule_attack", "hero_attack", "hero_attack"]
    assert result.enemies_left == (("Goule", 26),)


# "a fighter with no action left cannot dodge or parry" — the hero is not even asked
def test_the_hero_with_no_action_left_is_not_asked_to_defend(rulesets):
    # hero AGL 2 (1 action, initiative 5, attack 6) first: 1+2 vs 3+3; his attack misses;
    # the ghoul's 2+2 vs 5 (MR 1) lands: 2 + 1 - leather 2 = 1
    faces = [1, 2, 3, 3, 5, 4, 2, 2]
    hero, _, seen = _fight(rulesets, faces, answers=[], hero_agl=2)
    assert not _defence_prompts(seen)
    assert _actions(seen) == ["hero_attack", "Goule_attack"]
    assert hero.stats["HEALTH"] == 19


# "A critical success (double 1) in defence parries and strikes back at once (the whole
#  counts as one action), and the attacker cannot defend against that blow unless it also
#  rolls a critical success in defence."
def test_a_critical_defence_parries_and_strikes_back_as_one_action(rulesets):
    # ghoul AGL 3 (2 actions, parry 6). Hero first (1+2 vs 3+3); his attack 2+2: MR 3; the
    # ghoul parries 1+1 (critical, margin 4) and strikes back: 2 + 4 - leather 2 = 4. The
    # hero dodges it with 1+2 (a success, margin 3, but not a critical): it lands. The
    # ghoul still has its second action: an attack (a miss), the hero cannot defend.
    faces = [1, 2, 3, 3, 2, 2, 1, 1, 1, 2, 5, 4]
    hero, _, seen = _fight(rulesets, faces, answers=[True], AGL=3)
    assert _actions(seen) == ["hero_attack", "Goule_parry", "hero_dodge", "Goule_attack"]
    assert _notes(seen) == ["parried", "riposte", "miss"]
    assert hero.stats["HEALTH"] == 16 and len(_defence_prompts(seen)) == 1


def test_only_a_critical_defence_avoids_the_strike_back_and_it_strikes_back_in_turn(rulesets):
    # as above, but the hero dodges the strike back with 1+1 (critical, margin 4): parried,
    # and his blow back (3 + 4 = 7) lands, the ghoul's plain parry 3+3 cannot stop it; the
    # ghoul's two actions are spent (parry, parry): it does not attack
    faces = [1, 2, 3, 3, 2, 2, 1, 1, 1, 1, 3, 3]
    hero, result, seen = _fight(rulesets, faces, answers=[True], AGL=3)
    assert _actions(seen) == ["hero_attack", "Goule_parry", "hero_dodge", "Goule_parry"]
    assert _notes(seen) == ["parried", "parried", "riposte"]
    assert hero.stats["HEALTH"] == 20 and result.enemies_left == (("Goule", 23),)
