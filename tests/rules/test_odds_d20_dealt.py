"""The wounds a d20 fight without choices deals (rules/odds_d20_dealt): against the engine's
``ends`` (rules/odds_d20_engine, an independent DP over (assaults, HP) groups) to 1e-12,
and against a seeded simulation of the real fight code (within 3 SE)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from dedale.rules import FightSpec, RandomSource, drive, run_fight
from dedale.rules.odds_d20 import d20_odds
from dedale.rules.odds_d20_attack import AttackLaw
from dedale.rules.odds_d20_dealt import duel_dealt, fight_dealt
from dedale.rules.odds_d20_engine import WON

from tests.rules.test_odds_d20 import LINE_UPS, RULESET, FirstTarget, _dice, enemy, hero

PLAIN = sorted(
    name for name, (_, spec) in LINE_UPS.items()
    if spec.assault_limit is None and spec.escape_after is None
    and not (spec.mode == "together" and len(spec.enemies) > 1)
)  # fmt: skip


def engine_dealt(character, spec, top):
    """The engine's wins from HP ``top`` as damage taken: {d: chance}."""
    fighter = character.copy()
    fighter.stats["HP"] = top
    odds = d20_odds(RULESET, fighter, spec)
    return {top - h: p for (way, h), p in odds.ends.items() if way == WON}


def test_the_plain_line_ups_are_the_ones_this_pass_takes():
    assert {"riposte-heavy", "natural-20-heavy", "two-in-sequence", "as-one"} <= set(PLAIN)


@pytest.mark.parametrize("name", PLAIN)
@pytest.mark.parametrize("top", [1, 3, 9, 20])
def test_the_sweep_equals_the_engine(name, top):
    character, spec = LINE_UPS[name]
    found = fight_dealt(RULESET, character, spec, top, 20_000)
    expected = engine_dealt(character, spec, top)
    assert found is not None
    assert list(found) == sorted(found, reverse=True)  # the engine's order (by HP left)
    assert set(found) == set(expected)
    for d, p in expected.items():
        assert abs(found[d] - p) < 1e-12


def test_dice_stats_are_mixed_as_the_engine_mixes_them():
    spec = FightSpec((dataclasses.replace(enemy(HP=0), dice_stats=(("HP", _dice("1d3+4")),)),))
    found = fight_dealt(RULESET, hero(), spec, 12, 20_000)
    expected = engine_dealt(hero(), spec, 12)
    assert found is not None and set(found) == set(expected)
    assert all(abs(found[d] - p) < 1e-12 for d, p in expected.items())


def test_a_start_below_the_top_reads_the_same_sweep():
    # the wins from HP 7 are the sweep's from HP 20 with less than 7 damage taken
    character, spec = LINE_UPS["two-in-sequence"]
    top = fight_dealt(RULESET, character, spec, 20, 20_000)
    low = engine_dealt(character, spec, 7)
    assert top is not None
    assert {d: p for d, p in top.items() if d < 7}.keys() == low.keys()
    assert all(abs(top[d] - p) < 1e-12 for d, p in low.items())


def test_the_sweep_matches_a_seeded_simulation_of_the_fight():
    character, spec = LINE_UPS["two-in-sequence"]
    dealt = fight_dealt(RULESET, character, spec, character.stats["HP"], 20_000)
    assert dealt is not None
    win = sum(dealt.values())
    mean_left = sum((character.stats["HP"] - d) * p for d, p in dealt.items()) / win
    rng, samples, won, left = RandomSource(11), 4000, 0, 0
    for _ in range(samples):
        fighter = character.copy()
        result = drive(run_fight(RULESET, fighter, rng, spec, emit=False), FirstTarget())
        rng.log.clear()
        if result.outcome == "won":
            won += 1
            left += fighter.stats["HP"]
    se = math.sqrt(win * (1 - win) / samples)
    assert abs(won / samples - win) <= 3 * se + 1e-12
    assert abs(left / won - mean_left) < 0.35  # the mean HP left (a few hundredths of SE)


def test_what_the_sweep_leaves_to_the_engine():
    character, spec = LINE_UPS["two-together"]
    assert fight_dealt(RULESET, character, spec, 16, 20_000) is None  # a target to choose
    _, limited = LINE_UPS["assault-limit"]
    assert fight_dealt(RULESET, character, limited, 12, 20_000) is None
    _, plain = LINE_UPS["riposte-heavy"]
    assert fight_dealt(RULESET, character, plain, 12, 50) is None  # past the cells' budget
    never = AttackLaw(miss=1.0, stay=0.0, hits=())
    assert duel_dealt(never, never, 5, 10) is None  # nothing ever changes: the engine's error


def test_a_duel_by_hand():
    # the hero always hits for 1; the enemy (2 HP) misses, and he ripostes for 1: he
    # wins in the first assault untouched
    sure = AttackLaw(miss=0.0, stay=0.0, hits=((1, 1.0),))
    blank = AttackLaw(miss=1.0, stay=0.0, hits=())
    assert duel_dealt(sure, blank, 2, 4) == [1.0, 0.0, 0.0, 0.0]
    # each side hits for 1 half the time, else misses (and the other side ripostes); an
    # enemy of 1 HP. Untouched, from his blow: x = 1/2 + 1/4 y (he misses, the riposte
    # misses); from the enemy's: y = 1/4 (it misses, his riposte hits) + 1/4 x: x = 0.6
    half = AttackLaw(miss=0.5, stay=0.0, hits=((1, 0.5),))
    found = duel_dealt(half, half, 1, 200)
    assert found is not None
    assert found[0] == pytest.approx(0.6, abs=1e-12)
    assert sum(found) == pytest.approx(1.0, abs=1e-12)  # he cannot die: he always wins
