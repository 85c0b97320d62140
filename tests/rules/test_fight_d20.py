"""d20 fights (RULES.md section 5), with scripted dice.

Hero: FOR 14 (+2), DEX 12 (+1), ACTION 3, HP 20, sword 1d8, leather (RD 2, action -1):
attack bonus 2 + 3 - 1 = +4, AC 10 + 1 + 3 = 14. Dice order: the attack d20, then the
damage dice on a hit; a miss is followed at once by the target's riposte.
"""

from __future__ import annotations

from dedale.events import AssaultResolved
from dedale.rules import (
    AlwaysNo,
    Character,
    EnemySpec,
    FightSpec,
    ScriptedDice,
    collect,
)
from dedale.rules import run_fight as fight_gen


def hero(items=None) -> Character:
    stats = {"FOR": 14, "DEX": 12, "CON": 10, "INT": 10, "SAG": 10, "CHA": 10, "ACTION": 3,
             "HP": 20}  # fmt: skip
    kit = items if items is not None else {"épée": 1, "cuir": 1}
    return Character(stats=dict(stats), initial=dict(stats), items=dict(kit))


def enemy(**stats) -> FightSpec:
    values = {"AC": 12, "attack": 2, "HP": 8}
    values.update(stats)
    return FightSpec((EnemySpec("Guard", values, weapon="1d6"),), assault_limit=1)


def run(faces, spec, h=None):
    h = h or hero()
    result, seen = collect(fight_gen_d20(h, faces, spec), AlwaysNo())
    return h, result, [e for e in seen if isinstance(e, AssaultResolved)]


def fight_gen_d20(h, faces, spec):
    from dedale.rules import load_ruleset

    return fight_gen(load_ruleset("d20"), h, ScriptedDice(faces), spec)


def test_hit_when_total_reaches_ac_damage_minus_rd():
    # hero 8+4 = 12 >= AC 12: 1d8 = 6 - RD 1 = 5; enemy 2+2 = 4 < 14 misses, hero ripostes 1+4 miss
    h, result, blows = run([8, 6, 2, 1], enemy(RD=1))
    assert blows[0].note == "hit" and blows[0].enemy_damage_taken == 5
    assert result.enemies_left == (("Guard", 3),)


def test_miss_gives_an_immediate_riposte():
    # hero 7+4 = 11 < 12 misses; guard ripostes 15+2 = 17 >= 14, 1d6 = 4 - RD 2 = 2
    h, result, blows = run([7, 15, 4, 2, 1], enemy())
    assert [b.note for b in blows[:2]] == ["miss", "riposte"]
    assert h.stats["HP"] == 18


def test_natural_20_ignores_rd_and_doubles():
    h, result, blows = run([20, 5, 2, 1], enemy(RD=3, HP=30))
    assert blows[0].enemy_damage_taken == 10


def test_damage_never_below_zero():
    h, result, blows = run([10, 1, 2, 1], enemy(RD=4))
    assert blows[0].enemy_damage_taken == 0 and result.enemies_left == (("Guard", 8),)


def test_automatic_hit_and_miss_by_a_lead_of_10():
    # guard's action bonus 15 vs hero defence bonus 4 (AC 14 - 10): lead 11 -> hits on a 1
    h, result, blows = run([2, 1, 3, 1, 1], enemy(attack=15, AC=30))
    assert blows[0].note == "miss" and blows[1].note == "riposte"
    assert blows[1].winner == "enemy"  # riposte hits automatically
    # guard defence bonus 20 (AC 30) vs hero action 2 (3 - 1): deficit 18 -> a 19 misses
    h, result, blows = run([19, 1, 1, 1], enemy(AC=30))
    assert blows[0].note == "miss"


def test_unarmed_uses_the_ruleset_unarmed_damage():
    h, result, blows = run([15, 3, 1, 1], enemy(HP=9), hero({}))
    assert blows[0].enemy_damage_taken == 3  # 1d3 rolled 3


def test_hero_at_zero_hp_loses():
    h = hero()
    h.stats["HP"] = 2
    h, result, _ = run([1, 15, 6, 1], enemy(), h)
    assert result.outcome == "lost" and h.stats["HP"] == 0


def test_armour_table_and_armour_class(rulesets):
    from dedale.rules.fight_d20 import make_hero

    ruleset = rulesets["d20"]
    table = {
        "robe enchantée": (1, 0), "cuir": (2, -1), "robe de cuir renforcé": (3, -2),
        "cuir clouté": (3, -2), "cotte de mailles": (4, -3), "harnois": (6, -4),
        "bouclier": (1, 0),
    }  # fmt: skip
    for name, (reduction, malus) in table.items():
        item = ruleset.item(name)
        assert (item.reduction, item.action_malus) == (reduction, malus)
    fighter = make_hero(ruleset, hero({"épée": 1, "harnois": 1, "bouclier": 1}), enemy())
    assert fighter.ac == 10 + 1 + 3  # AC = 10 + DEX bonus + action bonus
    assert fighter.reduction == 7  # plate 6 + shield 1
    assert fighter.attack == 2 + 3 - 4  # FOR bonus + action bonus + plate malus


def test_paragraph_enemy_damage_replaces_the_weapon():
    from dedale.rules import EnemySpec, FightSpec

    spec = FightSpec((EnemySpec("Guard", {"AC": 30, "attack": 30, "HP": 8}, weapon="1d6"),),
                     assault_limit=1, enemy_damage=5)  # fmt: skip
    # hero auto-misses (deficit 18); guard ripostes and hits: 5 - RD 2 = 3; then attacks: 3
    h, result, blows = run([10, 1, 1], spec)
    assert h.stats["HP"] == 14


def test_the_fight_names_the_armour_class_as_the_book_writes_it():
    from dedale.events import FightStarted

    def started(stats):
        spec = FightSpec((EnemySpec("Garde", stats, weapon="1d6"),), assault_limit=1)
        _, seen = collect(fight_gen_d20(hero(), [1, 1] * 4, spec), AlwaysNo())
        (event,) = [e for e in seen if isinstance(e, FightStarted)]
        return dict(event.enemies[0][1])

    assert "CA" in started({"ca": 12, "attack": 2, "HP": 8})  # a French book's `CA 12`
    assert started({"AC": 12, "attack": 2, "HP": 8})["AC"] == 12
