"""The exact odds of reliques fights (dedale.rules.odds_reliques) against an independent
model and against seeded simulations of the real fight code.

- to 1e-9: the exact model written from RULES.md alone (tests/rules/reliques_exact.py) on
  fights it covers (no protection, no heroism, the hero's dodge and parry the same duo);
- within 3 standard errors: 3,000 seeded fights of ``reliques_fight`` on line-ups with
  protection worn, many actions, criticals, two enemies (in turn and at once), an assault
  limit, and the hero's health after a win (the end states);
- the hero's choices are maxima: spending Courage at best is never below never spending
  it, nor below a simulation that always spends it.
"""

from __future__ import annotations

import math

import pytest
from dedale.events import TargetPrompt
from dedale.rules import Character, EnemySpec, FightSpec, RandomSource, drive
from dedale.rules.fight_reliques import reliques_fight
from dedale.rules.odds_reliques import ReliquesOddsTooLarge, reliques_odds, reliques_wins
from reliques_exact import ExactFight, Fighter

FIGHTS = 3000
COUNTERS = {"courage": 0, "volonte": 0, "chance": 0}


def _hero(FOR, AGL, PER, health, *, initial=None, items=("épée",), courage=0) -> Character:
    stats = {"FOR": FOR, "AGL": AGL, "PER": PER, "CON": 3, "ESP": 3, "CHA": 3, "HEALTH": health}
    return Character(
        stats=dict(stats), initial={**stats, "HEALTH": initial or health},
        items={item: 1 for item in items}, counters={**COUNTERS, "courage": courage},
    )  # fmt: skip


def _enemy(name, FOR, AGL, PER, weapon, health, protection=0) -> EnemySpec:
    stats = {"FOR": FOR, "AGL": AGL, "PER": PER, "CON": 3, "HEALTH": health, "arme": weapon}
    if protection:
        stats["protection"] = protection
    return EnemySpec(name, stats)


class _Decider:
    """Dodge always (or never), spend Courage always (or never), strike the first enemy."""

    def __init__(self, dodge: bool = True, courage: bool = False) -> None:
        self.dodge, self.courage = dodge, courage

    def answer(self, prompt):
        if isinstance(prompt, TargetPrompt):
            return 0
        kind = getattr(prompt, "kind", None)
        return {"dodge": self.dodge, "heroism": self.courage}.get(kind, False)


def _simulate(ruleset, hero: Character, spec: FightSpec, seed: int, decider=None):
    """(chance to leave alive, mean health after it, its standard error)."""
    rng = RandomSource(seed)
    decider = decider or _Decider()
    ends = []
    for _ in range(FIGHTS):
        fighter = hero.copy()
        result = drive(reliques_fight(ruleset, fighter, rng, spec, False), decider)
        if result.outcome in ("won", "limit", "escaped") and fighter.stats["HEALTH"] > 0:
            ends.append(fighter.stats["HEALTH"])
    mean = sum(ends) / len(ends) if ends else 0.0
    spread = math.sqrt(sum((h - mean) ** 2 for h in ends) / max(1, len(ends) - 1))
    return len(ends) / FIGHTS, mean, spread / math.sqrt(max(1, len(ends)))


def _within(exact: float, simulated: float) -> None:
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / FIGHTS)
    assert abs(simulated - exact) <= 3 * se, (simulated, exact, se)


# the exact model's fights: (hero FOR AGL PER health initial), (enemy FOR AGL PER weapon health)
MODEL = {
    "three_actions_against_two": ((3, 5, 3, 12, 15), (4, 3, 2, 2, 11)),
    "one_action_hurt_hero": ((4, 2, 4, 8, 15), (3, 2, 3, 2, 8)),
    "even_duel": ((3, 3, 3, 15, 15), (3, 3, 3, 2, 12)),
}


@pytest.mark.parametrize("name", sorted(MODEL))
def test_the_dp_matches_the_independent_exact_model_to_1e_9(rulesets, name):
    (FOR, AGL, PER, health, initial), (e_for, e_agl, e_per, weapon, e_health) = MODEL[name]
    model = ExactFight(
        Fighter(FOR, AGL, PER, weapon=3, health=health, initial=initial),
        Fighter(e_for, e_agl, e_per, weapon=weapon, health=e_health),
    ).win()
    hero = _hero(FOR, AGL, PER, health, initial=initial)
    spec = FightSpec((_enemy("Goule", e_for, e_agl, e_per, weapon, e_health),))
    result = reliques_odds(rulesets["reliques"], hero, spec, luck_policy="none")
    assert 0.02 < model < 0.98
    assert result.win_probability == pytest.approx(model, abs=1e-9)
    assert result.won == pytest.approx(model, abs=1e-9)
    assert sum(result.end_states.values()) == pytest.approx(1.0, abs=1e-9)


LINE_UPS = {
    # protection on both sides, worn by each blow it absorbs; a dagger
    "worn_protection": (
        dict(FOR=3, AGL=4, PER=3, health=14, items=("dague", "cuir")),
        FightSpec((_enemy("Squelette", 3, 3, 2, 2, 10, protection=2),)),
    ),
    # three actions against three, strong attacks: criticals and strikes back in plenty
    "many_actions": (
        dict(FOR=5, AGL=5, PER=5, health=12),
        FightSpec((_enemy("Maître", 5, 6, 4, 3, 12),)),
    ),
    # two enemies one after the other, the wounds carried on
    "two_in_turn": (
        dict(FOR=4, AGL=3, PER=4, health=16),
        FightSpec((_enemy("Rat", 2, 3, 2, 1, 6), _enemy("Gobelin", 3, 3, 3, 2, 8))),
    ),
    # two identical enemies at once: both strike each turn (the target does not matter)
    "two_at_once": (
        dict(FOR=4, AGL=4, PER=4, health=20),
        FightSpec((_enemy("Loup", 3, 3, 2, 2, 6), _enemy("Loup", 3, 3, 2, 2, 6)), "together"),
    ),
    # an assault limit: standing after 2 turns is a way on
    "assault_limit": (
        dict(FOR=3, AGL=3, PER=3, health=9),
        FightSpec((_enemy("Ogre", 4, 3, 3, 3, 20),), assault_limit=2),
    ),
    # no weapon: the unarmed damage, and the as-one mode
    "unarmed_as_one": (
        dict(FOR=4, AGL=4, PER=4, health=15, items=()),
        FightSpec((_enemy("A", 2, 2, 2, 1, 4), _enemy("B", 2, 2, 2, 1, 4)), "as_one"),
    ),
}


@pytest.mark.parametrize("name", sorted(LINE_UPS))
def test_the_exact_odds_match_a_seeded_simulation_of_the_real_fight(rulesets, name):
    hero_args, spec = LINE_UPS[name]
    ruleset = rulesets["reliques"]
    hero = _hero(hero_args.pop("FOR"), hero_args.pop("AGL"), hero_args.pop("PER"),
                 hero_args.pop("health"), **hero_args)  # fmt: skip
    assert hero.stats["FOR"] == hero.stats["PER"]  # dodge and parry the same duo: no choice
    result = reliques_odds(ruleset, hero, spec, luck_policy="none")
    win, mean, se = _simulate(ruleset, hero, spec, seed=sum(map(ord, name)))
    assert 0.05 < result.win_probability < 0.999 or name == "unarmed_as_one"
    _within(result.win_probability, win)
    exact_mean = sum(h * p for (_, h, _, _), p in result.end_states.items())
    assert abs(mean - exact_mean) <= 3 * se + 1e-9, (mean, exact_mean, se)


def test_worn_protection_shows_in_the_end_states(rulesets):
    hero = _hero(3, 4, 3, 14, items=("dague", "cuir"))
    spec = LINE_UPS["worn_protection"][1]
    result = reliques_odds(rulesets["reliques"], hero, spec, luck_policy="none")
    assert result.protection == 2
    left = {prot for (_, _, prot, _), p in result.end_states.items() if p > 0}
    assert left == {0, 1, 2}  # untouched, worn once, worn out


def test_courage_at_best_is_a_maximum(rulesets):
    ruleset = rulesets["reliques"]
    hero = _hero(3, 3, 3, 15, courage=1)
    spec = FightSpec((_enemy("Squelette", 3, 2, 2, 2, 15, protection=1),))
    wins = reliques_wins(ruleset, hero, spec)
    assert wins["best"] > wins["none"] + 0.03
    never = reliques_odds(ruleset, hero, spec, luck_policy="none").win_probability
    assert never == pytest.approx(wins["none"], abs=1e-12)
    always, _, _ = _simulate(ruleset, hero, spec, seed=7, decider=_Decider(courage=True))
    assert always <= wins["best"] + 3 * math.sqrt(wins["best"] * (1 - wins["best"]) / FIGHTS)
    best = reliques_odds(ruleset, hero, spec, luck_policy="best")
    spent = sum(p for (_, _, _, courage), p in best.end_states.items() if courage == 0)
    assert 0 < spent < 1


def test_dodge_or_parry_is_the_best_of_the_two(rulesets):
    """A hero whose parry is much better than his dodge: the DP's choice is at least as
    good as always parrying, and better than always dodging."""
    ruleset = rulesets["reliques"]
    hero = _hero(6, 3, 1, 14)
    spec = FightSpec((_enemy("Brute", 4, 3, 3, 3, 14),))
    exact = reliques_odds(ruleset, hero, spec, luck_policy="none").win_probability
    se = math.sqrt(exact * (1 - exact) / FIGHTS)
    for dodge in (True, False):
        win, _, _ = _simulate(ruleset, hero, spec, seed=11, decider=_Decider(dodge=dodge))
        assert win <= exact + 3 * se
    dodging, _, _ = _simulate(ruleset, hero, spec, seed=12, decider=_Decider(dodge=True))
    assert dodging < exact - 3 * se


def test_escape_is_taken_when_it_helps(rulesets):
    ruleset = rulesets["reliques"]
    hero = _hero(2, 2, 2, 10)
    spec = FightSpec((_enemy("Dragon", 6, 5, 5, 4, 30),), escape_after=0)
    result = reliques_odds(ruleset, hero, spec, luck_policy="none")
    assert result.escaped == pytest.approx(result.win_probability)
    assert result.win_probability > 0.5


def test_past_its_budget_the_dp_says_why(rulesets):
    hero = _hero(3, 3, 3, 15)
    spec = FightSpec((_enemy("Goule", 3, 3, 3, 2, 12),))
    with pytest.raises(ReliquesOddsTooLarge) as caught:
        reliques_odds(rulesets["reliques"], hero, spec, max_nodes=50)
    assert "50" in str(caught.value.message)
    assert caught.value.hint
