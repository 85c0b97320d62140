"""The exact odds of fights against several enemies at once with exits and rules under an
enemy (rules/odds_group_exits.py, issue 14.1/14.2): each kind against a seeded simulation of
the real fight code (the interpreter's fight, hooks included) within 3 standard errors; the
values without exits equal the group DP's (rules/odds_group.py) to 1e-9; an independent
computation in fractions from the dice faces on tiny stats; the forward outcomes; the
budget."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale import ast
from dedale.events import TargetPrompt
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import AlwaysNo, RandomSource, create_character, load_ruleset
from dedale.rules.odds_exits import Damage, Event, ExitPlan
from dedale.rules.odds_group import group_odds
from dedale.rules.odds_group_exits import GroupExitsTooLarge, group_exit_odds
from dedale.rules.odds_group_exits_forward import group_exit_outcomes
from dedale.rules.odds_inputs import OddsTooLarge
from dedale.validator.fight_plan import plan_of
from dedale.validator.fights import class_fight_kit

HEADER = """---
title: At once
language: en
ruleset: {ruleset}
start: 1
rules:
  counters:
    bites: {{names: {{en: Bites, fr: Morsures}}, aliases: [bites], initial: 0}}
---
§ 1
> fight all at once
{fight}
> win -> 2
§ 2
> victory
§ 3
> victory
"""

TWO = "> enemy ORC SKILL 8 STAMINA 6\n> enemy GOBLIN SKILL 7 STAMINA 5\n"
CASES = {
    "survive 4 assaults": (
        "> enemy TROLL SKILL 10 STAMINA 12\n> enemy OGRE SKILL 9 STAMINA 10\n"
        "> not won after 4 assaults -> 3"
    ),
    "assaults won": TWO + "> after 3 assaults won -> 3",
    "threshold": (
        "> enemy ORC SKILL 9 STAMINA 6\n> it deals 5\n> enemy GOBLIN SKILL 8 STAMINA 5\n"
        "> it deals 4\n> when your STAMINA falls to 6 or less -> 3"
    ),
    "first assault won": TWO + "> first assault won -> 3",
    "per-enemy damage": (
        "> enemy ORC SKILL 8 STAMINA 6\n> it deals 3\n"
        "> enemy WRAITH SKILL 7 STAMINA 6\n> it takes half\n> not won after 8 -> 3"
    ),
    "attack against one": (
        "> enemy ORC SKILL 9 STAMINA 6\n> against it: attack +2\n"
        "> enemy IMP SKILL 6 STAMINA 4\n> it deals 1"
    ),
    "bites and an exit": (
        "> enemy RAT SKILL 8 STAMINA 7\n> when it wins an assault: gain 1 bites\n"
        "> enemy BAT SKILL 7 STAMINA 4\n> end the fight when bites >= 2 -> 3"
    ),
    "double and a shield": (
        "> enemy CAPTAIN SKILL 10 STAMINA 7\n> on a double: its SKILL -2\n"
        "> when it wounds you: roll 1d6, 5-6: wound 1\n"
        "> enemy MATE SKILL 8 STAMINA 5\n> when it wounds you: roll 1d6, 4-6: wound 1"
    ),
    "an event turns away": (
        "> enemy SNAKE SKILL 11 STAMINA 6\n> it deals 4\n> on a double: turn to 3\n"
        "> enemy RAT SKILL 10 STAMINA 5\n> it deals 3"
    ),
    "its STAMINA": (
        "> enemy ORC SKILL 10 STAMINA 9\n> when you win an assault: its STAMINA -1\n"
        "> enemy IMP SKILL 8 STAMINA 4\n> it deals 3"
    ),
    "a table each assault": (
        "> enemy ORC SKILL 10 STAMINA 7\n> enemy IMP SKILL 9 STAMINA 5\n> each assault roll 1d6\n"
        "> 1: lose 2 STAMINA\n> 5-6: gain 1 bites\n> end the fight when bites >= 3 -> 3"
    ),
    "escape": (
        "> enemy TROLL SKILL 11 STAMINA 12\n> it deals 4\n> enemy OGRE SKILL 10 STAMINA 10\n"
        "> it deals 4\n> escape -> 3 after 2"
    ),
}
HERO = {"SKILL": 9, "STAMINA": 16, "LUCK": 8}
SAMPLES = 6_000


def _fight(tmp_path: Path, text: str, ruleset: str = "df-classic"):
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ruleset=ruleset, fight=text), encoding="utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    assert fight.mode == "together"
    return book, fight


def _line_up(book, fight):
    params = book.ruleset.fight
    found = []
    for enemy in fight.enemies:
        stats = {book.ruleset.resolve(n)[1]: v for n, v in enemy.stats}
        found.append((stats[params.attack_stat], stats[params.health], enemy.immune_instant_kill))
    return tuple(found)


class _Escape(AlwaysNo):
    """Escapes when offered while the escape wound cannot kill (as the exact odds do:
    escaping then is a sure way out), else fights on; targets the first enemy standing."""

    def __init__(self, character, health: str, damage: int) -> None:
        self.character, self.health, self.damage = character, health, damage

    def answer(self, prompt):
        if isinstance(prompt, TargetPrompt):
            return 0
        if getattr(prompt, "kind", None) == "escape":
            return self.character.stats[self.health] > self.damage
        return False


def _simulated(book, fight, hero, class_name=None) -> float:
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    rng = RandomSource(4321)
    params = book.ruleset.fight
    kept = 0
    for _ in range(SAMPLES):
        character = create_character(book.ruleset, RandomSource(0), class_name, fixed=hero)
        decider = _Escape(character, params.health, params.escape_damage)
        result = rehearsal.play(fight, spec, character, rng, decider)
        rng.log.clear()
        alive = character.stats[params.health] > 0
        kept += alive and result.outcome in ("won", "limit", "escaped")
    return kept / SAMPLES


def _exact(book, fight, hero, class_name=None, policy="none", target="order") -> float:
    abilities, armour = class_fight_kit(book.ruleset, class_name)
    plan = plan_of(fight, book.ruleset, _line_up(book, fight), hero)
    return group_exit_odds(
        book.ruleset, hero["SKILL"], hero["STAMINA"], plan, luck=hero["LUCK"],
        luck_policy=policy, abilities=abilities, armour=armour, target=target,
    )  # fmt: skip


def _within_3_se(exact: float, simulated: float) -> None:
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / SAMPLES)
    assert abs(exact - simulated) <= 3 * se, (exact, simulated, se)


@pytest.mark.parametrize("name", list(CASES))
def test_fights_at_once_with_exits_agree_with_the_real_fight(tmp_path, name):
    book, fight = _fight(tmp_path, CASES[name])
    exact = _exact(book, fight, HERO)  # the first enemy standing: the fight's default target
    assert 0.02 < exact < 0.999  # a case that tells something
    _within_3_se(exact, _simulated(book, fight, HERO))
    best_target = _exact(book, fight, HERO, target="best")
    assert best_target >= exact - 1e-12  # the best target is a maximum
    small = dict(HERO, STAMINA=6, LUCK=3)
    assert _exact(book, fight, small, policy="best") >= _exact(book, fight, small) - 1e-12


@pytest.mark.parametrize(
    ("ruleset", "class_name", "text"),
    [
        (  # instant kill on a double, the ruleset's side damage under the enemy's own
            "df24",
            None,
            "> enemy ORC SKILL 10 STAMINA 8\n> it deals 3\n> enemy GOBLIN SKILL 9 STAMINA 7\n"
            "> not won after 5 assaults -> 3",
        ),
        (  # armour on the first assault (no blow from the side either), +1 on the first hit
            "df48.5",
            "Mercenaire",
            "> enemy ORC SKILL 9 STAMINA 6\n> it deals 4\n> enemy GOBLIN SKILL 8 STAMINA 5\n"
            "> it deals 4\n> when your STAMINA falls to 6 or less -> 3",
        ),
    ],
)
def test_other_rulesets_at_once_agree_with_the_real_fight(tmp_path, ruleset, class_name, text):
    book, fight = _fight(tmp_path, text, ruleset)
    hero = dict(HERO, STAMINA=15)
    exact = _exact(book, fight, hero, class_name)
    assert 0.02 < exact < 0.999
    _within_3_se(exact, _simulated(book, fight, hero, class_name))


@pytest.mark.parametrize("ruleset", ["df-classic", "df24"])
@pytest.mark.parametrize("policy", ["none", "best"])
@pytest.mark.parametrize("target", ["order", "best"])
def test_without_exits_the_values_are_the_group_dp(ruleset, policy, target):
    rules = load_ruleset(ruleset)
    for enemies in (((8, 5, False), (7, 4, False)), ((7, 2, False), (7, 2, False), (6, 1, True))):
        plan = ExitPlan(enemies=enemies)
        found = group_exit_odds(rules, 9, 8, plan, luck=4, luck_policy=policy, target=target)
        plain = group_odds(rules, 9, 8, enemies, luck=4, luck_policy=policy, target=target)
        assert found == pytest.approx(plain.win_probability, abs=1e-9)
        outcomes = group_exit_outcomes(rules, 9, 8, plan, luck=4, luck_policy=policy,
                                       target=target)  # fmt: skip
        won = sum(outcomes.won.values())
        assert won == pytest.approx(found, abs=1e-9)
        for key, share in plain.end_states.items():  # the same end states, jointly
            assert outcomes.won.get(key, 0.0) / won == pytest.approx(share, abs=1e-9)


def _faces_value(stamina: int, enemies: tuple, limit: int, deals: int, table=()) -> Fraction:
    """Independently, in fractions from the dice faces: the chance to leave alive a df-classic
    fight at once (first enemy standing as target, no Luck) that ends "not won after
    ``limit`` assaults"; the first enemy deals ``deals`` (as target or from the side);
    ``table``: rows ``(chance, STAMINA change, leaves)`` rolled after each assault."""
    rest = 1 - sum((row[0] for row in table), Fraction(0))
    rows = [*table, (rest, 0, False)]

    def after(k: int, h: int, es: tuple) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if all(e <= 0 for e in es):
            return Fraction(1)
        total = Fraction(0)
        for chance, change, leaves in rows:
            if leaves:
                total += chance
            elif h + change > 0:
                total += chance * value(k + 1, h + change, es)
        return total

    faces = [(a, b) for a in range(1, 7) for b in range(1, 7)]

    @cache
    def value(k: int, h: int, es: tuple) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if all(e <= 0 for e in es):
            return Fraction(1)
        if k >= limit:
            return Fraction(1)
        target = next(i for i, e in enumerate(es) if e > 0)
        others = [i for i, e in enumerate(es) if e > 0 and i != target]
        total = Fraction(0)
        for hero in faces:
            hero_as = 9 + sum(hero)
            for foe in faces:
                foe_as = enemies[target][0] + sum(foe)
                h1, es1 = h, list(es)
                if hero_as > foe_as:
                    es1[target] = max(0, es1[target] - 2)
                elif foe_as > hero_as:
                    h1 -= deals if target == 0 else 2
                side_laws = [(Fraction(1), h1)]
                for j in others:
                    beat = Fraction(sum(1 for f in faces if enemies[j][0] + sum(f) > hero_as), 36)
                    hurt = deals if j == 0 else 2
                    side_laws = [
                        pair
                        for p, hh in side_laws
                        for pair in ((p * beat, hh - hurt), (p * (1 - beat), hh))
                    ]
                for p, hh in side_laws:
                    total += p * after(k, hh, tuple(es1)) / 1296
        return total

    return value(0, stamina, tuple(h for _, h in enemies))


def test_a_limit_and_per_enemy_damage_against_the_dice_faces():
    rules = load_ruleset("df-classic")
    enemies = ((9, 3), (8, 2))
    plan = ExitPlan(
        enemies=tuple((s, h, False) for s, h in enemies), limit=3,
        damages=(Damage("deals", 0, 3),),
    )  # fmt: skip
    exact = group_exit_odds(rules, 9, 6, plan, target="order")
    assert exact == pytest.approx(float(_faces_value(6, enemies, 3, 3)), abs=1e-12)
    # and a table each assault: 1 costs a STAMINA, 6 turns away (a way out)
    rows = ((Fraction(1, 6), -1, False), (Fraction(1, 6), 0, True))
    table = ((1 / 6, Event("table", health=-1)), (1 / 6, Event("table", leaves=True)))
    exact = group_exit_odds(rules, 9, 6, dataclasses.replace(plan, table=table), target="order")
    assert exact == pytest.approx(float(_faces_value(6, enemies, 3, 3, rows)), abs=1e-12)


def test_the_forward_outcomes_sum_to_the_value_by_way_out():
    rules = load_ruleset("df-classic")
    enemies = ((8, 5, False), (7, 4, False))
    plan = ExitPlan(enemies=enemies, threshold=5, win_assaults=3, escape_after=4)
    for policy in ("none", "best"):
        found = group_exit_outcomes(rules, 9, 12, plan, luck=5, luck_policy=policy)
        value = group_exit_odds(rules, 9, 12, plan, luck=5, luck_policy=policy)
        assert found.alive == pytest.approx(value, abs=1e-9)
        assert found.alive + found.lost == pytest.approx(1.0, abs=1e-9)
        assert set(found.ways) <= {"won", "threshold", "assaults_won", "escaped"}
        assert sum(found.limit.values()) == pytest.approx(
            sum(found.ways.get("threshold", {}).values()), abs=1e-12
        )
        assert all(h <= 5 for h, _ in found.ways.get("threshold", {}))  # left at the threshold


def test_the_budget_raises_a_typed_too_large_error(monkeypatch):
    from dedale.rules import odds_group_exits_array

    monkeypatch.setattr(odds_group_exits_array, "eligible", lambda solver: False)  # scalar
    rules = load_ruleset("df-classic")
    many = tuple((7, 12, False) for _ in range(4))
    with pytest.raises(OddsTooLarge):  # the plain bound: their STAMINA values multiply
        group_exit_odds(rules, 9, 20, ExitPlan(enemies=many * 2, threshold=3))
    plan = ExitPlan(enemies=((8, 10, False), (7, 10, False), (7, 9, False)), limit=6)
    with pytest.raises(GroupExitsTooLarge):  # the best Luck's foreseen work
        group_exit_odds(rules, 9, 20, plan, luck=11, luck_policy="best")
    with pytest.raises(GroupExitsTooLarge, match="seconds"):  # the time bound
        group_exit_odds(rules, 9, 24, plan, luck=11, seconds=0.0)


def test_the_cli_takes_ways_out_of_a_fight_at_once(capsys):
    import json

    from dedale.cli import main

    base = ["odds", "--lang", "en", "--hero", "9", "16", "--enemy", "8", "6", "--enemy", "7", "5"]
    assert main([*base, "--mode", "order", "--survive", "4", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["way_out_probability"]
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=((8, 6, False), (7, 5, False)), limit=4)
    assert found == pytest.approx(group_exit_odds(rules, 9, 16, plan, target="order"), abs=1e-12)
    assert main([*base, "--mode", "best", "--first-won"]) == 0
    assert "any way out" in capsys.readouterr().out


def test_luck_on_the_escape_wound_one_enemy_and_at_once():
    from dedale.rules.odds_exits import exit_odds

    rules = load_ruleset("df-classic")
    lucky = Fraction(30, 36)  # 2d6 <= 9: the escape wound costs 1 instead of 2
    for enemies in (((12, 20, False),), ((12, 20, False), (12, 20, False))):
        plan = ExitPlan(enemies=enemies, escape_after=0)
        found = group_exit_odds(rules, 6, 2, plan, luck=9, luck_policy="best")
        assert found == pytest.approx(float(lucky), abs=1e-12)
        assert group_exit_odds(rules, 6, 2, plan, luck=9) < 0.01  # without Luck: it kills
    one = exit_odds(rules, 6, 2, ExitPlan(enemies=((12, 20, False),), escape_after=0), luck=9,
                    luck_policy="best")  # fmt: skip
    assert one == pytest.approx(float(lucky), abs=1e-12)
