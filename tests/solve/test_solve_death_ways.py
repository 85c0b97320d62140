"""The fight's own Luck policy in the solver does not count a way out to a death ending as
leaving alive (issue 14.2, session 7). ``when it wins an assault: -> 40`` with § 40 a
``> death`` paragraph, and a defeat exit (so the fight keeps its own Luck): the policy
maximised the chance to leave by any way — always 100% — so Luck was never tested and the
solver gave the no-Luck figure. It now values those ways as defeats: the book's chance is the
exact chance to win the fight with the best Luck, from a plan written here by hand."""

from __future__ import annotations

import pytest
from dedale.language import load_book
from dedale.rules.odds_exits import Event, ExitPlan, exit_odds
from dedale.solve import solve_book

BOOK = """---
title: The viper's pit
language: en
ruleset: df-classic
---
§ 1
> fight VIPER SKILL 8 STAMINA 6
> when it wins an assault: -> 40
> win -> 2
> lose -> 3

§ 2
> victory

§ 3
You never wake up.
> death

§ 40
The venom stops your heart.
> death
"""


@pytest.mark.parametrize("policy", ["fight", "best"])
@pytest.mark.parametrize("hero", [(9, 18, 9), (11, 20, 11)])
def test_the_fight_s_luck_values_a_way_to_a_death_ending_as_a_defeat(tmp_path, policy, hero):
    path = tmp_path / "book.dd"
    path.write_text(BOOK, "utf-8")
    book = load_book(path)
    skill, stamina, luck = hero
    dies = ExitPlan(enemies=((8, 6, False),), events=(Event("it_wins", health=-(1 << 20)),))
    best = exit_odds(book.ruleset, skill, stamina, dies, luck=luck, luck_policy="best")
    plain = exit_odds(book.ruleset, skill, stamina, dies, luck=luck, luck_policy="none")
    assert best > plain + 0.01  # Luck matters here: the test tells the policies apart
    result = solve_book(book, hero, luck_policy=policy)
    assert result.complete
    assert result.win_probability == pytest.approx(best, abs=1e-9)
    assert solve_book(book, hero, luck_policy="none").win_probability == pytest.approx(plain)


def test_in_fractions_the_fight_s_luck_counts_the_death_ending_too(tmp_path):
    """``--luck fight --exact``: the fight is played state by state in the graph
    (solve.fight_exits.ExitsFight), its Luck the fight's own: the same answer."""
    from dedale.solve.exact import solve_exact

    path = tmp_path / "book.dd"
    path.write_text(BOOK.replace("> lose -> 3\n", ""), "utf-8")  # (--exact needs none)
    book = load_book(path)
    skill, stamina, luck = hero = (9, 18, 9)
    dies = ExitPlan(enemies=((8, 6, False),), events=(Event("it_wins", health=-(1 << 20)),))
    best = exit_odds(book.ruleset, skill, stamina, dies, luck=luck, luck_policy="best")
    result, exact = solve_exact(book, hero, luck_policy="fight")
    assert exact is not None and float(exact) == pytest.approx(best, abs=1e-9)
