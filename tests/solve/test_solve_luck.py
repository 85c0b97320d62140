"""Luck in fights decided for the whole book (``--luck best``, dedale.solve.duel): matched to
an independent brute force in exact fractions, and compared with the fight DP's policy."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import solve_book

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
TWO_D6 = {t: Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t), 36)
          for t in range(2, 13)}  # fmt: skip


def at_most(n: int) -> Fraction:
    return sum((p for t, p in TWO_D6.items() if t <= n), Fraction(0))


def duel(skill: int, enemy_skill: int, value):
    """The best value of a df-classic fight for the terminal value ``value(h, luck)`` of a
    win, Luck tested after each wound exactly when it raises it (written from the rules:
    2d6 + SKILL each side, a wound 2; Luck after a wound dealt 4 / 1, taken 1 / 3)."""
    win = sum(
        p * q for a, p in TWO_D6.items() for b, q in TWO_D6.items() if a + skill > b + enemy_skill
    )
    lose = sum(
        p * q for a, p in TWO_D6.items() for b, q in TWO_D6.items() if a + skill < b + enemy_skill
    )

    @cache
    def v(h: int, e: int, luck: int) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if e <= 0:
            return value(h, luck)
        lucky = at_most(luck)
        dealt = v(h, e - 2, luck)
        if luck > 0:
            dealt = max(dealt, lucky * v(h, e - 4, luck - 1) + (1 - lucky) * v(h, e - 1, luck - 1))
        taken = v(h - 2, e, luck)
        if luck > 0:
            taken = max(taken, lucky * v(h - 1, e, luck - 1) + (1 - lucky) * v(h - 3, e, luck - 1))
        return (win * dealt + lose * taken) / (win + lose)  # a tie changes nothing

    return v


@pytest.mark.parametrize("hero", [(7, 14, 7), (9, 18, 9), (8, 16, 11)])
def test_luck_kept_for_the_ledge_is_the_books_best(hero):
    skill, stamina, luck = hero
    # after the bear (SKILL 8 STAMINA 6), a Luck test: a win with LUCK l is worth P(2d6 <= l)
    expected = duel(skill, 8, lambda h, lk: at_most(lk))(stamina, 6, luck)
    book = load_book(BOOKS / "kept-luck")
    best = solve_book(book, hero, luck_policy="best")
    assert best.complete
    assert best.win_probability == pytest.approx(float(expected), abs=1e-9)
    fight = solve_book(book, hero, luck_policy="fight").win_probability
    none = solve_book(book, hero, luck_policy="none").win_probability
    assert best.win_probability >= max(fight, none) - 1e-12


def test_the_two_policies_differ_on_the_ledge():
    book = load_book(BOOKS / "kept-luck")
    best = solve_book(book, (7, 14, 7), luck_policy="best").win_probability
    fight = solve_book(book, (7, 14, 7), luck_policy="fight").win_probability
    assert best == pytest.approx(0.437705728143, abs=1e-9)
    # Luck tested on the bear only where it raises the chance to win the bear (not on the
    # ties where the wound cannot change it): tests/solve/test_solve_exact.py derives it
    # as the fraction 275743574494618229962804080014096125/709412223059158905513899572712177664
    assert fight == pytest.approx(0.388693013077, abs=1e-9)


@pytest.mark.parametrize("name", ["kept-luck", "meal", "chain"])
def test_the_books_best_luck_agrees_without_shortcuts_or_pruning(name):
    book = load_book(BOOKS / name)
    hero = (7, 14, 7)
    found = solve_book(book, hero).win_probability
    assert solve_book(book, hero, shortcuts=False).win_probability == pytest.approx(
        found, abs=1e-12
    )
    assert solve_book(book, hero, prune=False).win_probability == pytest.approx(found, abs=1e-12)
    assert found >= solve_book(book, hero, luck_policy="fight").win_probability - 1e-12


def test_the_purse_prunes_and_keeps_the_answer():
    """Gold bounded by the fares left, a codeword and visits no later rule reads, meals
    anywhere not offered before harmless paragraphs: the same answer, fewer states."""
    book = load_book(BOOKS / "purse")
    pruned = solve_book(book, (7, 14, 7), luck_policy="none")
    full = solve_book(book, (7, 14, 7), luck_policy="none", prune=False, shortcuts=False)
    assert pruned.win_probability == pytest.approx(full.win_probability, abs=1e-12)
    assert pruned.states * 3 < full.states
