"""A fight with a defeat exit (`> défaite -> 3`) in the solver: the defeat goes on at 3 with
the hero alive (1 STAMINA), as the game plays it, instead of counting as a death. Matched to
an independent computation in exact fractions (the duel's chance to win, then the Luck test
of paragraph 3 with the LUCK the hero kept)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from dedale.language import load_book
from dedale.solve import solve_book

TWO_D6 = {t: Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t), 36)
          for t in range(2, 13)}  # fmt: skip
BOOK = (
    "---\ntitle: t\nlanguage: fr\n---\n"
    "§ 1\n> combat CHAMPION HABILETÉ 11 ENDURANCE 12\n> défaite -> 3\n> victoire -> 2\n\n"
    "§ 2\n> victoire\n\n"
    "§ 3\nVous vous réveillez dans une cellule.\n> gagnez 4 ENDURANCE\n> tentez votre chance\n"
    "> chanceux -> 2\n> malchanceux -> 4\n\n§ 4\n> mort\n"
)


def win_chance(skill: int, stamina: int, enemy_skill: int, enemy_stamina: int) -> Fraction:
    """The chance to win a df-classic duel without Luck (2d6 + SKILL each side, a wound 2)."""
    pairs = [(p * q, a + skill - b - enemy_skill) for a, p in TWO_D6.items()
             for b, q in TWO_D6.items()]  # fmt: skip
    win = sum(p for p, d in pairs if d > 0)
    lose = sum(p for p, d in pairs if d < 0)

    @cache
    def v(h: int, e: int) -> Fraction:
        if e <= 0:
            return Fraction(1)
        if h <= 0:
            return Fraction(0)
        return (win * v(h, e - 2) + lose * v(h - 2, e)) / (win + lose)  # ties change nothing

    return v(stamina, enemy_stamina)


def test_the_solver_follows_a_defeat_to_its_paragraph(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(BOOK, "utf-8")
    book = load_book(path)
    w = win_chance(9, 14, 11, 12)
    lucky = sum((p for t, p in TWO_D6.items() if t <= 9), Fraction(0))  # LUCK 9 kept
    expected = w + (1 - w) * lucky
    none = solve_book(book, (9, 14, 9), luck_policy="none").win_probability
    assert abs(none - float(expected)) < 1e-12
    assert float(w) < none < 1.0  # the defeat is not a death (it was w before)
    best = solve_book(book, (9, 14, 9), luck_policy="best").win_probability
    fight = solve_book(book, (9, 14, 9), luck_policy="fight").win_probability
    assert abs(best - fight) < 1e-12  # a defeat exit keeps the fight DP's own Luck
    assert best >= none - 1e-12
