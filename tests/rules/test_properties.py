"""Hypothesis properties: stat bounds, Luck cost, replay from the roll log."""

from __future__ import annotations

from dedale.rules import AlwaysYes, RandomSource, ScriptedDice, collect, drive, run_fight, run_test
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import ff_hero, one_enemy


@settings(max_examples=60, deadline=None)
@given(
    initial=st.integers(0, 30),
    deltas=st.lists(st.tuples(st.integers(-40, 40), st.booleans()), max_size=20),
)
def test_stats_stay_within_bounds(initial, deltas):
    hero = ff_hero(stamina=initial)
    for delta, exceptional in deltas:
        before = hero.initial["STAMINA"]
        hero.change("STAMINA", delta, exceptional=exceptional)
        assert hero.stats["STAMINA"] >= 0
        if not exceptional:
            assert hero.stats["STAMINA"] <= hero.initial["STAMINA"] == before
        else:
            assert hero.stats["STAMINA"] <= max(before, hero.initial["STAMINA"])


@settings(max_examples=40, deadline=None)
@given(luck=st.integers(1, 14), seed=st.integers(0, 10_000))
def test_every_luck_test_costs_exactly_1(rulesets, luck, seed):
    hero = ff_hero(luck=luck)
    drive(run_test(rulesets["df-classic"], hero, RandomSource(seed), "luck"), AlwaysYes())
    assert hero.stats["LUCK"] == luck - 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), name=st.sampled_from(["df-classic", "df24", "df48.5"]))
def test_replay_from_roll_log_reproduces_the_fight(rulesets, seed, name):
    ruleset = rulesets[name]
    hero_a, hero_b = ff_hero(8, 16, 9), ff_hero(8, 16, 9)
    rng = RandomSource(seed)
    first, seen_a = collect(run_fight(ruleset, hero_a, rng, one_enemy(9, 12)), AlwaysYes())
    replay = ScriptedDice(rng.log)
    second, seen_b = collect(run_fight(ruleset, hero_b, replay, one_enemy(9, 12)), AlwaysYes())
    assert first == second and seen_a == seen_b and hero_a == hero_b
    assert replay.remaining == 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    name=st.sampled_from(["df-classic", "df24", "df48.5"]),
    hero=st.tuples(st.integers(4, 12), st.integers(1, 24), st.integers(0, 12)),
    enemy=st.tuples(st.integers(4, 12), st.integers(1, 20)),
    yes=st.booleans(),
)
def test_fights_keep_stats_in_bounds_and_luck_costs_1_per_test(rulesets, seed, name, hero, enemy,
                                                               yes):  # fmt: skip
    from dedale.events import TestResolved
    from dedale.rules import AlwaysNo

    character = ff_hero(*hero)
    decider = AlwaysYes() if yes else AlwaysNo()
    _, seen = collect(run_fight(rulesets[name], character, RandomSource(seed),
                                one_enemy(*enemy)), decider)  # fmt: skip
    for stat, value in character.stats.items():
        assert 0 <= value <= character.initial[stat]
    tests = sum(1 for e in seen if isinstance(e, TestResolved) and e.name == "luck")
    assert character.stats["LUCK"] == hero[2] - tests
