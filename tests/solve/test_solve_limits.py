"""Assault limits (``> not won after N assaults -> X``): as graph nodes for one enemy (Luck
tested by the value for the book), by the forward pass over the exact exit odds' states
(:mod:`dedale.rules.odds_exits_forward`) for several enemies with ``--luck none``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.language import load_book
from dedale.rules import load_ruleset
from dedale.rules.odds_exits import Damage, ExitPlan, exit_odds
from dedale.rules.odds_exits_forward import ForwardUnsupported, exit_outcomes
from dedale.solve import SolveLimit, solve_book

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
RULES = load_ruleset("df-classic")
HEROES = [(7, 14, 7), (9, 18, 9), (12, 24, 12)]
PLANS = [
    ExitPlan(enemies=((9, 9, False),), limit=4),
    ExitPlan(enemies=((6, 5, False), (7, 6, False)), limit=6),
    ExitPlan(enemies=((7, 6, False), (9, 8, False)), limit=7, attacks=((1, -2, None),)),
    ExitPlan(enemies=((10, 12, False),), damages=(Damage("deals", None, 3),)),
    ExitPlan(enemies=((8, 8, False),), limit=3, bonus=2, enemy_damage=3),
]


@pytest.mark.parametrize("plan", PLANS)
@pytest.mark.parametrize("hero", HEROES)
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_forward_pass_matches_the_exit_odds(plan, hero, policy):
    skill, stamina, luck = hero
    found = exit_outcomes(RULES, skill, stamina, plan, luck=luck, luck_policy=policy)
    expected = exit_odds(RULES, skill, stamina, plan, luck=luck, luck_policy=policy)
    assert found.alive == pytest.approx(expected, abs=1e-9)
    assert found.alive + found.lost == pytest.approx(1.0, abs=1e-9)
    assert all(h > 0 for h, _ in found.won) and all(h > 0 for h, _ in found.limit)
    if plan.limit is None:
        assert not found.limit


def test_the_forward_pass_refuses_what_it_does_not_follow():
    with pytest.raises(ForwardUnsupported):
        exit_outcomes(RULES, 9, 18, ExitPlan(enemies=((8, 8, False),), escape_after=2))
    with pytest.raises(ForwardUnsupported):
        exit_outcomes(RULES, 9, 18, ExitPlan(enemies=((8, 8, False),), win_assaults=2))


@pytest.mark.parametrize("hero", HEROES)
@pytest.mark.parametrize("policy", ["none", "best"])
def test_a_limit_that_leads_to_victory_is_the_chance_to_leave_alive(hero, policy):
    """Both exits win the book: the solver's answer is exit_odds' chance to leave alive."""
    skill, stamina, luck = hero
    plan = ExitPlan(enemies=((10, 10, False),), limit=8)
    expected = exit_odds(RULES, skill, stamina, plan, luck=luck, luck_policy=policy)
    result = solve_book(load_book(BOOKS / "hourglass"), hero, luck_policy=policy)
    assert result.complete
    assert result.win_probability == pytest.approx(expected, abs=1e-9)


@cache
def _duel(h: int, e: int, luck: int, k: int) -> float:
    """Best chance to beat SKILL 9 STAMINA 9 within 4 assaults, hero SKILL 9 (by hand:
    equal SKILL, 2d6 each: a win, a loss or a tie), Luck tested when it helps winning."""
    if e <= 0:
        return 1.0
    if h <= 0 or k >= 4:
        return 0.0
    win = sum(1 for a in range(2, 13) for b in range(2, 13)
              if a > b for _ in range(_ways(a) * _ways(b))) / 1296  # fmt: skip
    tie = sum(_ways(a) ** 2 for a in range(2, 13)) / 1296
    lose = 1 - win - tie
    q = sum(_ways(t) for t in range(2, luck + 1)) / 36 if luck > 0 else 0.0
    hit = _duel(h, e - 2, luck, k + 1)
    if luck > 0:
        hit = max(hit, q * _duel(h, e - 4, luck - 1, k + 1)
                  + (1 - q) * _duel(h, e - 1, luck - 1, k + 1))  # fmt: skip
    hurt = _duel(h - 2, e, luck, k + 1)
    if luck > 0:
        hurt = max(hurt, q * _duel(h - 1, e, luck - 1, k + 1)
                   + (1 - q) * _duel(h - 3, e, luck - 1, k + 1))  # fmt: skip
    return win * hit + lose * hurt + tie * _duel(h, e, luck, k + 1)


def _ways(total: int) -> int:
    return 6 - abs(total - 7)


@pytest.mark.parametrize("hero", HEROES)
def test_luck_at_a_limit_is_tested_for_the_book(hero):
    """The limit leads to a death: Luck is tested to win within the assaults (the
    fight-optimal policy, which only counts leaving alive, would never test it here)."""
    skill, stamina, luck = hero
    result = solve_book(load_book(BOOKS / "limit"), (9, stamina, luck))
    assert result.complete
    assert result.win_probability == pytest.approx(_duel(stamina, 9, luck, 0), abs=1e-9)
    assert result.win_probability > 0


def test_several_enemies_and_a_limit_with_luck_none_is_the_forward_pass():
    book = load_book(BOOKS / "gauntlet")
    plan = ExitPlan(enemies=((6, 5, False), (7, 6, False)), limit=6)
    expected = exit_outcomes(RULES, 9, 18, plan, luck=9, luck_policy="none")
    result = solve_book(book, (9, 18, 9), luck_policy="none")
    assert result.win_probability == pytest.approx(sum(expected.won.values()), abs=1e-9)
    best = solve_book(book, (9, 18, 9))  # the book's Luck: played in the graph (fight_graph)
    assert best.complete and best.win_probability > result.win_probability


def test_the_walkthrough_names_the_fight_outcome(capsys):
    code = main(["solve", str(BOOKS / "gauntlet"), "--hero", "9", "18", "9", "--json",
                 "--walkthrough", "--luck", "none"])  # fmt: skip
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    rolled = data["walkthrough"][0]["rolled"][0]
    assert rolled["kind"] == "fight" and rolled["won"] is True


def test_a_fight_past_the_forward_bound_is_refused_at_its_line(monkeypatch):
    import dedale.rules.odds_exits_forward as forward

    monkeypatch.setattr(forward, "MAX_STATES", 3)
    with pytest.raises(SolveLimit) as caught:
        solve_book(load_book(BOOKS / "gauntlet"), (9, 18, 9), luck_policy="none")
    assert caught.value.span is not None and caught.value.span.line == 7


def test_enemies_at_once_and_a_limit_with_luck_none_is_their_forward_pass():
    from dedale.rules.odds_group_exits_forward import group_exit_outcomes

    book = load_book(BOOKS / "gauntlet-together")
    plan = ExitPlan(enemies=((6, 5, False), (7, 6, False)), limit=6)
    for hero in HEROES:
        expected = group_exit_outcomes(RULES, hero[0], hero[1], plan, luck=hero[2])
        result = solve_book(book, hero, luck_policy="none")
        assert result.win_probability == pytest.approx(sum(expected.won.values()), abs=1e-9)
        assert 0 < result.win_probability < 1
    # without a win paragraph (gauntlet-open) the forward pass too; its best Luck is refused
    # (with one, gauntlet-together is played in the graph: tests/solve/test_solve_group_luck.py)
    open_book = load_book(BOOKS / "gauntlet-open")
    for hero in HEROES[:1]:
        found = solve_book(open_book, hero, luck_policy="none").win_probability
        assert found == pytest.approx(solve_book(book, hero, luck_policy="none").win_probability,
                                      abs=1e-12)  # fmt: skip
    with pytest.raises(SolveLimit):
        solve_book(open_book, (9, 18, 9))
