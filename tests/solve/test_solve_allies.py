"""dedale solve on a book with an ally fight (solve/fights_allies.py, issue 14.1): the best
play chance equals a chain computed here from the exact DPs (the ally fight's end states,
STAMINA and LUCK, carried to the next fight); with the book's best Luck the ally fight's Luck
is the book's (solve/ally_duel.py); an ally fight with a way out is a located refusal."""

from __future__ import annotations

import pytest
from dedale.language import load_book
from dedale.rules import fight_odds, load_ruleset
from dedale.rules.odds_allies import ally_odds
from dedale.solve import solve_book
from dedale.solve.model import SolveLimit

BOOK = """---
title: t
ruleset: df-classic
language: en
---
§ 1
> fight
> enemy OGRE SKILL 9 STAMINA 8
> ally BRAN SKILL 8 STAMINA 6
> the enemy strikes the ally
> win -> 2
§ 2
> fight GOBLIN SKILL 7 STAMINA 6
> win -> 3
§ 3
> victory
"""
HERO = (8, 14, 8)


def _book(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(BOOK, "utf-8")
    return load_book(path)


@pytest.mark.parametrize(("policy", "dp"), [("none", "none"), ("fight", "best")])
def test_a_book_with_an_ally_is_solved_exactly(tmp_path, policy, dp):
    rules = load_ruleset("df-classic")
    first = ally_odds(rules, 8, 14, [(9, 8)], [(8, 6)], struck="ally", luck=8, luck_policy=dp)
    chain = sum(
        first.win_probability * p
        * fight_odds(rules, 8, h, [(7, 6)], luck=lk, luck_policy=dp).win_probability
        for (h, lk), p in first.end_states.items()
    )  # fmt: skip
    result = solve_book(_book(tmp_path), HERO, luck_policy=policy)
    assert result.complete
    assert result.win_probability == pytest.approx(chain, abs=1e-9)
    assert result.win_probability < first.win_probability


def test_with_the_books_best_luck_an_ally_fight_spends_luck_for_the_book(tmp_path):
    """--luck best: Luck in the ally fight is decided for the book (solve/ally_duel.py):
    its end states are worth the goblin's fight (whose best Luck for the book is the
    fight's own: a victory follows), the recursion of test_solve_ally_luck.py; at least
    the chain with the ally DP's own Luck, and here more."""
    from fractions import Fraction

    from tests.solve.test_solve_ally_luck import ally_fight

    rules = load_ruleset("df-classic")
    first = ally_odds(rules, 8, 14, [(9, 8)], [(8, 6)], struck="ally", luck=8, luck_policy="best")
    chain = sum(
        first.win_probability * p
        * fight_odds(rules, 8, h, [(7, 6)], luck=lk, luck_policy="best").win_probability
        for (h, lk), p in first.end_states.items()
    )  # fmt: skip

    def goblin(h: int, lk: int) -> Fraction:
        return Fraction(fight_odds(rules, 8, h, [(7, 6)], luck=lk, luck_policy="best")
                        .win_probability)  # fmt: skip

    expected = ally_fight(8, 9, 8, "ally", goblin)(8, 14, 8, 6)
    result = solve_book(_book(tmp_path), HERO, luck_policy="best")
    assert result.complete
    assert result.win_probability == pytest.approx(float(expected), abs=1e-9)
    assert result.win_probability > chain + 1e-3  # 77.31 % against 77.07 %


def test_an_ally_fight_with_an_escape_is_refused_at_its_line(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(BOOK.replace("> win -> 2", "> escape -> 3\n> win -> 2", 1), "utf-8")
    with pytest.raises(SolveLimit) as caught:
        solve_book(load_book(path), HERO, luck_policy="none")
    assert "allies with an escape" in caught.value.message.translate("en")
    assert caught.value.span is not None
