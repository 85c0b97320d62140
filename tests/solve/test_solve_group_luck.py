"""Luck inside an assault at once decided for the book (``--luck best``,
:mod:`dedale.solve.group_luck`): two rats at once with an escape (flee-rats) and two at once
with a defeat exit, matched (1e-9, and exactly with ``--exact``) to a recursion written here
from the rules (df-classic: 2d6 each; the target's wound 2, Luck on it lucky 4 / unlucky 1;
the other rat's blow lands when its 2d6 + SKILL beats the hero's attack, a wound of 2, Luck
on it lucky 1 / unlucky 3; a Luck test costs 1 LUCK), in exact fractions: the target, the
escape and every Luck test decided for the book, the Luck on the target's wound knowing the
hero's roll, the Luck on the other blow knowing the target's outcome."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.exact import solve_exact

from tests.solve.test_solve_escapes import BOOKS, WAYS, flee, lucky


def beats(x: int) -> Fraction:
    """P(2d6 > x)."""
    return Fraction(sum(w for t, w in WAYS.items() if t > x), 36)


def at_once_luck(
    skill,
    stamina,
    luck,
    rats,
    *,
    escape: bool,
    lost=lambda lk: Fraction(0),
    limit=None,
    fixed: bool = False,
):
    """Rats ``(SKILL, STAMINA)`` at once; escape after 1 assault (to the guard's Luck test)
    if ``escape``; a defeat worth ``lost(LUCK)``; a win worth 1; with ``limit``, the fight
    lost (worth 0) once that many assaults have gone without a win. ``fixed``: a fixed
    policy instead of the best (the first rat standing as target, Luck always tested)."""
    pick = (lambda plain, tested: tested) if fixed else max
    cap = limit or 1  # the assaults told apart

    def after(es2, h2, l2, k2):
        if h2 <= 0:
            return lost(l2)
        if not any(es2):
            return Fraction(1)
        return value(es2, h2, l2, k2)

    def landed(es2, h2, l2, k2):
        """The other rat's blow landing, Luck on it for the book."""
        found = after(es2, h2 - 2, l2, k2)
        if l2 > 0:
            q = lucky(l2)
            found = pick(
                found, q * after(es2, h2 - 1, l2 - 1, k2) + (1 - q) * after(es2, h2 - 3, l2 - 1, k2)
            )
        return found

    def blow(es2, h2, l2, s, k2):
        """The other rat's blow (landing with chance ``s``), then what follows."""
        if not s or h2 <= 0:
            return after(es2, h2, l2, k2)
        return (1 - s) * after(es2, h2, l2, k2) + s * landed(es2, h2, l2, k2)

    def cut(es, t, d):
        return tuple(max(0, e - d) if i == t else e for i, e in enumerate(es))

    @cache
    def value(es: tuple, h: int, lk: int, k: int) -> Fraction:
        if limit is not None and k >= limit:
            return Fraction(0)
        alive = [i for i, e in enumerate(es) if e > 0]
        best = Fraction(0)
        q = lucky(lk)
        nk = min(k + 1, cap)
        for t in alive[:1] if fixed else alive:
            others = [j for j in alive if j != t]
            total = back = Fraction(0)
            for a, wa in WAYS.items():
                pa = Fraction(wa, 36)
                attack_t = a + skill - rats[t][0]  # the target's roll must beat it to wound
                s = beats(a + skill - rats[others[0]][0]) if others else Fraction(0)
                win = 1 - beats(attack_t - 1)  # the target rolls below the hero's attack
                lose = beats(attack_t)
                hit = blow(cut(es, t, 2), h, lk, s, nk)
                hurt = blow(es, h - 2, lk, s, nk)
                if lk > 0:
                    hit = pick(hit, q * blow(cut(es, t, 4), h, lk - 1, s, nk)
                              + (1 - q) * blow(cut(es, t, 1), h, lk - 1, s, nk))  # fmt: skip
                    hurt = pick(hurt, q * blow(es, h - 1, lk - 1, s, nk)
                               + (1 - q) * blow(es, h - 3, lk - 1, s, nk))  # fmt: skip
                tie = 1 - win - lose
                if nk == k:  # a tie that the other rat misses: this very state
                    struck = s * landed(es, h, lk, nk) if s else Fraction(0)
                    total += pa * (win * hit + lose * hurt + tie * struck)
                    back += pa * tie * (1 - s)
                else:
                    total += pa * (win * hit + lose * hurt + tie * blow(es, h, lk, s, nk))
            best = max(best, total / (1 - back))
        if escape and k >= 1:
            return max(flee(h, lk, True), best)
        return best

    return value(tuple(e for _, e in rats), stamina, luck, 0)


DEFEAT = (
    "---\ntitle: t\nlanguage: fr\n---\n"
    "§ 1\n> combat ensemble\n> ennemi RAT GRIS HABILETÉ 7 ENDURANCE 4\n"
    "> ennemi RAT BRUN HABILETÉ 5 ENDURANCE 6\n> défaite -> 3\n> victoire -> 2\n\n"
    "§ 2\n> victoire\n\n§ 3\n> gagnez 4 ENDURANCE\n> tentez votre chance\n"
    "> chanceux -> 2\n> malchanceux -> 4\n\n§ 4\n> mort\n"
)


@pytest.mark.parametrize("hero", [(7, 14, 7)])
def test_the_rats_luck_is_decided_for_the_book(hero):
    book = load_book(BOOKS / "flee-rats")
    expected = at_once_luck(*hero, [(7, 4), (5, 6)], escape=True)
    result = solve_book(book, hero, luck_policy="best")
    assert result.complete
    assert abs(result.win_probability - float(expected)) < 1e-9
    none = solve_book(book, hero, luck_policy="none").win_probability
    assert result.win_probability >= none - 1e-12


def test_the_rats_luck_for_the_book_in_fractions():
    book = load_book(BOOKS / "flee-rats")
    _, exact = solve_exact(book, (7, 14, 7), luck_policy="best")
    assert exact == at_once_luck(7, 14, 7, [(7, 4), (5, 6)], escape=True)


@pytest.mark.parametrize("hero", [(9, 16, 9)])
def test_a_defeat_at_once_keeps_the_luck_the_book_needs(tmp_path, hero):
    path = tmp_path / "livre.dd"
    path.write_text(DEFEAT, "utf-8")
    book = load_book(path)
    expected = at_once_luck(*hero, [(7, 4), (5, 6)], escape=False, lost=lucky)
    result = solve_book(book, hero, luck_policy="best")
    assert result.complete
    assert abs(result.win_probability - float(expected)) < 1e-9
    none = solve_book(book, hero, luck_policy="none").win_probability
    assert result.win_probability >= none - 1e-12


def test_guards_at_once_before_the_bell_with_the_books_luck():
    """tests/books_extra/solve/gauntlet-together: two guards at once (SKILL 6 STAMINA 5,
    SKILL 7 STAMINA 6), the bell after 6 assaults (death): refused with --luck best before,
    now played in the graph with every Luck test for the book (and in fractions)."""
    book = load_book(BOOKS / "gauntlet-together")
    hero = (7, 14, 7)
    expected = at_once_luck(*hero, [(6, 5), (7, 6)], escape=False, limit=6)
    result = solve_book(book, hero, luck_policy="best")
    assert result.complete
    assert abs(result.win_probability - float(expected)) < 1e-9
    none = solve_book(book, hero, luck_policy="none").win_probability
    assert none < result.win_probability
    _, exact = solve_exact(book, hero, luck_policy="none")
    assert exact == at_once_luck(7, 14, 0, [(6, 5), (7, 6)], escape=False, limit=6)


def test_the_recursions_reading_of_luck_at_once_is_the_interpreters():
    """The recursion's reading of Luck at once (on the target's wound, then on the other
    rat's blow that lands; a defeat going on with the LUCK left) against seeded games of the
    real interpreter with a fixed policy — the first rat standing as target, Luck always
    tested — within 3 standard errors."""
    import math

    from dedale import events
    from dedale.game.interpreter import Game

    book = load_book_text(DEFEAT)
    hero, games = (7, 14, 7), 2000
    wins = 0
    for seed in range(games):
        game = Game.new(book, seed, hero=hero, name="Hero", quiet=True)
        while (item := game.next()) is not None:
            if isinstance(item, events.TargetPrompt):
                game.answer(0)
            elif isinstance(item, events.YesNoPrompt) and item.kind == "use_luck":
                game.answer(True)
            elif isinstance(item, events.Prompt):
                game.answer(False)
        wins += game.outcome == "victory"
    exact = float(at_once_luck(*hero, [(7, 4), (5, 6)], escape=False, lost=lucky, fixed=True))
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(wins / games - exact) <= 3 * se, (wins / games, exact)


def load_book_text(text: str):
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp())
    (folder / "livre.dd").write_text(text, "utf-8")
    return load_book(folder / "livre.dd")
