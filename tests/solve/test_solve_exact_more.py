"""``dedale solve --exact`` on the fights that were float-only before issue 17's session 8:
enemies at once with an assault limit and no ``win ->`` paragraph (solve/exact_group.py:
their ways out in fractions), each matched to a fraction computed here from the rules."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import SolveLimit, solve_book
from dedale.solve.exact import solve_exact

from tests.solve.test_solve_escapes import assault, side

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"


def guards_at_once(skill: int, stamina: int, guards, limit: int) -> Fraction:
    """Guards ``(SKILL, STAMINA)`` all at once (df-classic: 2d6 each, wounds of 2, the other
    guard's blow lands when its roll beats the hero's), the bell after ``limit`` assaults
    (a death), Luck never tested: the best chance to win, the target chosen each assault."""

    @cache
    def value(es: tuple, h: int, k: int) -> Fraction:
        if k >= limit:
            return Fraction(0)
        alive = [i for i, e in enumerate(es) if e > 0]
        best = Fraction(0)
        for t in alive:
            others = [j for j in alive if j != t]
            outcomes = (
                side(skill - guards[t][0], skill - guards[others[0]][0]) if others
                else tuple((p, who, False) for p, who in zip(assault(skill - guards[t][0]),
                                                            ("hero", "tie", "enemy"), strict=True))
            )  # fmt: skip
            found = Fraction(0)
            for p, who, blow in outcomes:
                es2, h2 = list(es), h - 2 * (who == "enemy") - 2 * blow
                if who == "hero":
                    es2[t] = max(0, es2[t] - 2)
                if h2 <= 0:
                    continue
                found += p if not any(es2) else p * value(tuple(es2), h2, k + 1)
            best = max(best, found)
        return best

    return value(tuple(s for _, s in guards), stamina, 0)


@pytest.mark.parametrize("hero", [(9, 18, 9), (12, 24, 12)])
def test_enemies_at_once_with_a_limit_and_no_win_paragraph_in_fractions(hero):
    """gauntlet-open: two guards at once, the bell after 6 assaults, the fight goes on to
    the choice written after it (no ``win ->``): its ways out in fractions."""
    book = load_book(BOOKS / "gauntlet-open")
    result, exact = solve_exact(book, hero, luck_policy="none")
    assert result.complete
    assert exact == guards_at_once(hero[0], hero[1], [(6, 5), (7, 6)], 6)
    floats = solve_book(book, hero, luck_policy="none").win_probability
    assert float(exact) == pytest.approx(floats, abs=1e-12)


def test_an_assault_limit_in_turn_without_a_win_paragraph_stays_float_only(tmp_path):
    """Two guards in turn with the bell and no ``win ->``: the forward pass of the exit
    odds, in floats only: refused at the fight's line under --exact."""
    folder = tmp_path / "gauntlet"
    folder.mkdir()
    for name in ("book.dd", "book.yaml"):
        text = (BOOKS / "gauntlet" / name).read_text("utf-8")
        (folder / name).write_text(text.replace("> win -> 2", "-> 2 Cross the bridge"), "utf-8")
    with pytest.raises(SolveLimit) as caught:
        solve_exact(load_book(folder), (9, 18, 9), luck_policy="none")
    assert "--exact" in caught.value.message
    assert caught.value.span is not None and caught.value.span.line == 7
