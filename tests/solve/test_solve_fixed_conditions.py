"""A rule under an enemy that reads a book's flag or counter (``il inflige 3 (si veau qui
suit)``, ``il subit 3 (si amulettes >= 2)``): nothing in the fight changes them, so the
solver reads them at the fight's start (:mod:`dedale.solve.fight_fixed`) instead of
refusing the fight. Book ``veau``: at § 1 the reader lets the calf follow (the flag, and 2
amulets: the wolf then deals 1 and takes 3), takes only the amulets (2 and 3) or neither
(2 and 2); a flag or counter misread would give the value of another way. Matched to a recursion in
exact fractions written here from the rules (df-classic: 2d6 + SKILL each side; Luck after
a wound dealt: lucky +2, unlucky -1; taken: lucky -1, unlucky +1; a test costs 1 LUCK)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.exact import solve_exact

BOOK = Path(__file__).parents[1] / "books_extra" / "solve" / "veau"
TWO_D6 = {t: Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t), 36)
          for t in range(2, 13)}  # fmt: skip


def at_most(n: int) -> Fraction:
    return sum((p for t, p in TWO_D6.items() if t <= n), Fraction(0))


def wolf(skill: int, stamina: int, luck: int, deals: int, takes: int, tested: bool) -> Fraction:
    """The chance to beat the wolf (SKILL 8 STAMINA 8) when it deals ``deals`` and takes
    ``takes`` a wound (Luck tested when it raises that chance, if ``tested``)."""
    pairs = [(p * q, a + skill - b - 8) for a, p in TWO_D6.items() for b, q in TWO_D6.items()]
    win = sum(p for p, d in pairs if d > 0)
    lose = sum(p for p, d in pairs if d < 0)

    @cache
    def v(h: int, e: int, lk: int) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if e <= 0:
            return Fraction(1)
        q = at_most(lk)
        dealt = v(h, e - takes, lk)
        taken = v(h - deals, e, lk)
        if tested and lk > 0:
            dealt = max(dealt, q * v(h, e - takes - 2, lk - 1)
                        + (1 - q) * v(h, e - max(0, takes - 1), lk - 1))  # fmt: skip
            taken = max(taken, q * v(h - max(0, deals - 1), e, lk - 1)
                        + (1 - q) * v(h - deals - 1, e, lk - 1))  # fmt: skip
        return (win * dealt + lose * taken) / (win + lose)

    return v(stamina, 8, luck)


WAYS = ((1, 3), (2, 3), (2, 2))
"""(deals, takes) with the calf and the amulets, the amulets only, neither."""


@pytest.mark.parametrize("hero", [(8, 16, 8), (10, 14, 7), (7, 14, 12)])
@pytest.mark.parametrize("policy", ["best", "none"])
def test_the_calf_and_the_amulets_are_read_at_the_fight(hero, policy):
    book = load_book(BOOK)
    tested = policy == "best"
    expected = max(wolf(*hero, *way, tested) for way in WAYS)
    assert expected == wolf(*hero, *WAYS[0], tested)  # the calf's way is the best
    found = solve_book(book, hero, luck_policy=policy)
    assert found.complete
    assert abs(found.win_probability - float(expected)) < 1e-9
    for options in ({"prune": False}, {"shortcuts": False}):
        again = solve_book(book, hero, luck_policy=policy, **options).win_probability
        assert abs(again - found.win_probability) < 1e-12
    _, exact = solve_exact(book, hero, luck_policy=policy)
    assert exact == expected


def test_the_three_ways_differ():
    """Each atom changes the fight (else the test above would not see one misread)."""
    for hero in [(8, 16, 8), (7, 14, 12)]:
        values = {wolf(*hero, *way, True) for way in WAYS}
        assert len(values) == 3
