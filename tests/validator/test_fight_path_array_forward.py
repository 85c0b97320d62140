"""The path of fights through a fight at once that only the array fill takes (issue 14.4):
three goblins held off for 8 assaults (``pas gagné après 8 assauts``), then an orc. The
goblins' ends with the best Luck (each way out with the STAMINA and LUCK it leaves) come from
the forward pass over the array fill's choices (rules/odds_group_exits_array_forward.py),
no longer a count without Luck (``≈``); the chain is checked against one written here: the
goblins' ends times the orc's exact odds with the best Luck from each (STAMINA, LUCK) they
leave (the single-fight DP, ``fight_odds``), summed."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import GroupExitSolver, group_exit_odds
from dedale.rules.odds_group_exits_array_forward import array_outcomes
from dedale.validator import validate_path
from dedale.validator.fights import class_fight_kit, hero_profiles

BOOK = (
    Path(__file__).resolve().parents[1]
    / "books_extra"
    / "validator"
    / "path-three-goblins-held-off.dd"
)
GOBLINS = ((5, 5, False), (6, 4, False), (5, 6, False))


def _hand_chain(book, hero) -> list[float]:
    """[chance alive after the goblins, after the orc], chained here."""
    rules = book.ruleset
    stats = dict(hero.stats)
    skill, stamina, luck = stats["SKILL"], stats["STAMINA"], stats["LUCK"]
    abilities, armour = class_fight_kit(rules, hero.class_name)
    plan = ExitPlan(enemies=GOBLINS, limit=8)
    solver = GroupExitSolver(rules, skill, plan, "best", abilities, armour, "best")
    found = array_outcomes(solver, stamina, luck)
    ends: dict = {}
    for way in ("won", "limit"):  # both go on to § 3
        for key, p in found.ways.get(way, {}).items():
            ends[key] = ends.get(key, 0.0) + p
    alive = sum(ends.values())
    value = group_exit_odds(rules, skill, stamina, plan, luck=luck, luck_policy="best",
                            abilities=abilities, armour=armour)  # fmt: skip
    assert alive == pytest.approx(value, abs=1e-12)  # every end of the goblins goes on
    final = 0.0
    for (h, lk), p in ends.items():
        odds = fight_odds(rules, skill, h, [(8, 7)], luck=lk, luck_policy="best",
                          class_name=hero.class_name, win_only=True)  # fmt: skip
        final += p * odds.win_probability
    return [alive, final]


@pytest.mark.parametrize("level", ["weakest", "median"])
def test_the_chain_through_three_goblins_with_best_luck_is_exact(level):
    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == level)
    path = validate_path(BOOK, runs=0).fight_path.of(level)
    assert path.paragraphs == (1, 2, 3, 4)
    assert [step.exact for step in path.fights] == [True, True]
    assert path.reasons == ()  # no longer "counted without Luck in this fight"
    expected = _hand_chain(book, hero)
    assert [step.cumulative for step in path.fights] == pytest.approx(expected, abs=1e-9)
    assert 0.05 < expected[-1] < 0.999
