"""The meals past use (:mod:`dedale.solve.meal_cap`): capped exactly — the same answer as
an independent computation and as the solve without the cap, with fewer states."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.liveness import Liveness
from dedale.solve.meal_cap import INFINITE, MealCap

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
HEROES = [(9, 19, 9), (8, 16, 8), (12, 24, 12)]


def _dice(count: int, plus: int) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=count):
        total = sum(faces) + plus
        found[total] = found.get(total, Fraction(0)) + Fraction(1, 6**count)
    return found


def _pantry(stamina: int) -> Fraction:
    """garde-manger by hand: 14 lost; eat any number of the 5 meals (+4, up to the
    initial value); 2d6+2 lost; 2 meals found or not; eat again; 3d6+4 lost; alive wins."""
    top = stamina

    def eat(s: int, m: int, then) -> Fraction:
        return max(then(min(s + 4 * k, top), m - k) for k in range(m + 1))

    @cache
    def crevasse(s: int, m: int) -> Fraction:
        return sum((p for d, p in _dice(3, 4).items() if s - d > 0), Fraction(0))

    @cache
    def stones(s: int, m: int) -> Fraction:
        total = Fraction(0)
        for d, p in _dice(2, 2).items():
            if s - d > 0:
                total += p * max(eat(s - d, m, crevasse), eat(s - d, m + 2, crevasse))
        return total

    return eat(max(stamina - 14, 0), 5, stones) if stamina > 14 else Fraction(0)


@pytest.mark.parametrize("hero", HEROES)
def test_the_pantry_matches_a_computation_by_hand(hero, monkeypatch):
    book = load_book(BOOKS / "garde-manger")
    expected = float(_pantry(hero[1]))
    capped = solve_book(book, hero, luck_policy="none")
    monkeypatch.setattr(MealCap, "prune", lambda self, data, paragraph: None)
    uncapped = solve_book(book, hero, luck_policy="none")
    assert capped.complete and uncapped.complete
    assert capped.win_probability == pytest.approx(expected, abs=1e-9)
    assert uncapped.win_probability == pytest.approx(expected, abs=1e-9)
    assert capped.states < uncapped.states


def test_the_caps_of_the_pantry():
    caps = Liveness(load_book(BOOKS / "garde-manger")).atoms.meal_cap
    assert caps.enabled
    assert {n: caps.visits[n] for n in (1, 2, 4, 3, 5, 6)} == {1: 2, 2: 1, 4: 1, 3: 1, 5: 0, 6: 0}
    data = {"hero": {"initial": {"STAMINA": 19}, "stats": {"STAMINA": 10}, "counters": {}}}
    assert caps.cap(data, 3) == 3  # ceil(9 / 4) at the camp itself
    assert caps.cap(data, 2) == 5  # one camp ahead, STAMINA unknown there: ceil(18 / 4)
    assert caps.cap(data, 1) == 5 + 5  # it wounds before its meal: no tighter bound there


LOOP = """
§ 1
> repas autorisé
-> 2 Repartir
-> 3 Sortir

§ 2
> perdez 2 ENDURANCE
-> 1 Revenir

§ 3
> victoire
"""
COST = """
§ 1
> repas autorisé
-> 2 Repartir

§ 2
-> 3 (payez 1 repas) Nourrir le chien

§ 3
> victoire
"""


@pytest.mark.parametrize(("text", "capped"), [(LOOP, False), (COST, False), (None, True)])
def test_no_cap_before_a_loop_or_a_rule_that_reads_the_meals(tmp_path, text, capped):
    """A meal paragraph on a loop, or a cost in meals ahead: the meals are kept whole."""
    if text is None:  # the same book without the cost
        text = COST.replace("(payez 1 repas) ", "")
    (tmp_path / "book.yaml").write_text(
        "title: T\nlanguage: fr\nruleset: df-classic\nstart: 1\n", encoding="utf-8"
    )
    (tmp_path / "book.dd").write_text(text, encoding="utf-8")
    caps = Liveness(load_book(tmp_path)).atoms.meal_cap
    data = {"hero": {"initial": {"STAMINA": 19}, "stats": {"STAMINA": 10}, "counters": {}}}
    assert (caps.cap(data, 1) != INFINITE) == capped
    if capped:
        assert caps.cap(data, 1) == 3  # ceil(9 / 4) at the one meal ahead
