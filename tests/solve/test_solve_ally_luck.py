"""Luck in a fight with allies decided for the whole book (``--luck best``,
solve/ally_duel.py): matched to a recursion in exact fractions written here from the rules
of docs/language.md (Allies), which tests Luck after each wound exactly when it raises the
chance to win the book; in fractions with --exact (solve/exact_allies.py)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules import load_ruleset
from dedale.rules.odds_allies import ally_odds
from dedale.solve import solve_book
from dedale.solve.ally_duel import AllyValueTable

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
TWO_D6 = {t: Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t), 36)
          for t in range(2, 13)}  # fmt: skip
MODES = {"hero": ((Fraction(1), "hero"),), "ally": ((Fraction(1), "ally"),),
         "random": ((Fraction(1, 2), "hero"), (Fraction(1, 2), "ally"))}  # fmt: skip
STRUCK = {"hero": "the enemy strikes you", "ally": "the enemy strikes the ally",
          "random": "enemies strike at random"}  # fmt: skip


def at_most(n: int) -> Fraction:
    return sum((p for t, p in TWO_D6.items() if t <= n), Fraction(0))


def exchange(skill: int, enemy: int) -> tuple[Fraction, Fraction, Fraction]:
    """(the first side wins, the second wins, a tie) of 2d6 + SKILL each."""
    won = lost = Fraction(0)
    for a, p in TWO_D6.items():
        for b, q in TWO_D6.items():
            if a + skill > b + enemy:
                won += p * q
            elif a + skill < b + enemy:
                lost += p * q
    return won, lost, 1 - won - lost


def ally_fight(skill: int, enemy_skill: int, ally_skill: int, struck: str, value):
    """The best value of a df-classic fight against one enemy beside one ally, for the
    terminal value ``value(h, luck)`` of a win: the hero's assault (a wound 2 each way;
    Luck on a wound dealt 4 / 1, offered unless the wound kills whatever Luck gives, on a
    wound taken 1 / 3); the enemies strike the hero, the ally or either (1/2, rolled each
    assault): an ally standing takes the hero's wound (no Luck); then the ally standing
    exchanges blows (2d6 + SKILL each): higher ally wounds the enemy 2, higher enemy
    wounds the ally 2 when the ally is struck. The last enemy's death wins at once."""
    hero_p = exchange(skill, enemy_skill)
    ally_p = exchange(ally_skill, enemy_skill)
    modes = MODES[struck]

    def after(luck: int, h: int, e: int, a: int, mode: str) -> list:
        """The ally's exchange: [(p, ("win", h, luck) | (luck, h, e, a))]."""
        if e <= 0:
            return [(Fraction(1), ("win", h, luck))]
        if a <= 0:
            return [(Fraction(1), (luck, h, e, a))]
        won, lost, tie = ally_p
        hit = ("win", h, luck) if e <= 2 else (luck, h, e - 2, a)
        hurt = (luck, h, e, max(0, a - 2)) if mode == "ally" else (luck, h, e, a)
        return [(won, hit), (lost, hurt), (tie, (luck, h, e, a))]

    def worth(rows, state, v) -> tuple[Fraction, Fraction]:
        """(the value of the rows but the very state's return, that return's chance)."""
        total = back = Fraction(0)
        for p, nxt in rows:
            if nxt == state:
                back += p
            elif nxt[0] == "win":
                total += p * value(nxt[1], nxt[2])
            elif nxt[1] > 0:
                total += p * v(*nxt)
        return total, back

    @cache
    def v(luck: int, h: int, e: int, a: int) -> Fraction:
        state = (luck, h, e, a)
        lucky = at_most(luck)
        won, lost, tie = hero_p
        total = back = Fraction(0)
        # the hero wounds the enemy (Luck decided before whom the enemies strike is known)
        options = [[(Fraction(1), luck, e - 2)]]
        if luck > 0 and min(4, 1) < e:
            options.append([(lucky, luck - 1, e - 4), (1 - lucky, luck - 1, e - 1)])
        best = None
        for option in options:
            rows = []
            for q, lk, e2 in option:
                if e2 <= 0:  # the last enemy falls: won before the ally strikes
                    rows.append((q, ("win", h, lk)))
                    continue
                for m, mode in modes:
                    rows += [(q * m * r, nxt) for r, nxt in after(lk, h, e2, a, mode)]
            found, stay = worth(rows, state, v)
            assert stay == 0
            best = found if best is None else max(best, found)
        total += won * best
        # the enemy wins the assault: the ally standing takes it, else the hero (Luck)
        for m, mode in modes:
            if mode == "ally" and a > 0:
                found, stay = worth(after(luck, h, e, max(0, a - 2), mode), state, v)
                total += lost * m * found
                back += lost * m * stay
                continue
            options = [[(Fraction(1), luck, h - 2)]]
            if luck > 0:
                options.append([(lucky, luck - 1, h - 1), (1 - lucky, luck - 1, h - 3)])
            best = None
            for option in options:
                rows = [(q * r, nxt) for q, lk, h2 in option if h2 > 0
                        for r, nxt in after(lk, h2, e, a, mode)]  # fmt: skip
                found, _ = worth(rows, state, v)
                best = found if best is None else max(best, found)
            total += lost * m * best
        # a tie: the ally's exchange alone
        for m, mode in modes:
            found, stay = worth(after(luck, h, e, a, mode), state, v)
            total += tie * m * found
            back += tie * m * stay
        return total / (1 - back)

    return v


def _book(tmp_path, struck: str):
    text = (BOOKS / "ally-ledge" / "book.dd").read_text("utf-8")
    folder = tmp_path / struck
    folder.mkdir()
    (folder / "book.dd").write_text(text.replace(STRUCK["ally"], STRUCK[struck]), "utf-8")
    (folder / "book.yaml").write_text(
        (BOOKS / "ally-ledge" / "book.yaml").read_text("utf-8"), "utf-8"
    )
    return load_book(folder)


@pytest.mark.parametrize(
    ("struck", "hero"), [("ally", (8, 14, 8)), ("ally", (11, 15, 11)), ("hero", (7, 14, 7)),
                         ("random", (9, 16, 9))],
)  # fmt: skip
def test_the_allies_fight_spends_luck_for_the_book(tmp_path, struck, hero):
    skill, stamina, luck = hero
    # after the ogre (SKILL 9 STAMINA 8) beside Bran (SKILL 8 STAMINA 6), a Luck test
    expected = ally_fight(skill, 9, 8, struck, lambda h, lk: at_most(lk))(luck, stamina, 8, 6)
    book = _book(tmp_path, struck)
    best = solve_book(book, hero, luck_policy="best")
    assert best.complete
    assert best.win_probability == pytest.approx(float(expected), abs=1e-9)
    fight = solve_book(book, hero, luck_policy="fight")  # Luck to win the ogre's fight
    assert best.win_probability >= fight.win_probability - 1e-12


def test_the_books_luck_beats_the_fights_on_the_ledge():
    """SKILL 8 STAMINA 14 LUCK 8: the fight's Luck spends what the ledge needs."""
    book = load_book(BOOKS / "ally-ledge")
    best = solve_book(book, (8, 14, 8), luck_policy="best").win_probability
    fight = solve_book(book, (8, 14, 8), luck_policy="fight").win_probability
    none = solve_book(book, (8, 14, 8), luck_policy="none").win_probability
    assert best == pytest.approx(0.592540, abs=1e-6)
    assert best > none > fight


@pytest.mark.parametrize("struck", ["hero", "ally", "random"])
def test_the_value_table_valued_one_for_a_win_is_the_allies_dp(struck):
    """With every win worth 1 the table is the allies' DP with the fight's best Luck, and
    its end states under that value are the DP's forward pass."""
    rules = load_ruleset("df-classic")
    table = AllyValueTable(rules, 8, [(9, 8, False)], [(8, 6, False)], struck=struck)
    begin = table.start(14, 8)
    dp = ally_odds(rules, 8, 14, [(9, 8)], [(8, 6)], struck=struck, luck=8, luck_policy="best")
    assert table.win(begin) == pytest.approx(dp.win_probability, abs=1e-12)
    ends = table.outcomes(begin, lambda h, luck: 1.0)
    for key, share in dp.end_states.items():
        assert ends.get(key, 0.0) == pytest.approx(dp.win_probability * share, abs=1e-12)
    assert set(ends) <= set(table.ends(begin))


@pytest.mark.parametrize(("struck", "hero"), [("ally", (8, 14, 8)), ("random", (9, 16, 9))])
def test_the_allies_fight_in_fractions_is_the_recursion(tmp_path, struck, hero):
    """--exact (solve/exact_allies.py): with the book's Luck the fraction is the recursion's;
    with Luck never tested too (the recursion from LUCK 0, the ledge's test at the hero's
    LUCK); with the fight's Luck, the float answer (1e-12)."""
    from dedale.solve.exact import solve_exact

    skill, stamina, luck = hero
    book = _book(tmp_path, struck)
    result, exact = solve_exact(book, hero, luck_policy="best")
    assert result.complete
    assert exact == ally_fight(skill, 9, 8, struck, lambda h, lk: at_most(lk))(luck, stamina, 8, 6)
    result, exact = solve_exact(book, hero, luck_policy="none")
    never = ally_fight(skill, 9, 8, struck, lambda h, lk: at_most(luck))(0, stamina, 8, 6)
    assert exact == never
    result, exact = solve_exact(book, hero, luck_policy="fight")
    floats = solve_book(book, hero, luck_policy="fight").win_probability
    assert isinstance(exact, Fraction)
    assert float(exact) == pytest.approx(floats, abs=1e-12)


def test_the_allies_table_past_its_cpu_seconds_is_a_solve_limit(monkeypatch):
    """The book's Luck fills the allies' table within the DP's CPU seconds (ally_duel.SECONDS):
    past them the solve stops with the DP's message, never a traceback."""
    import dedale.solve.ally_duel as ally_duel
    from dedale.solve.model import SolveLimit

    monkeypatch.setattr(ally_duel, "SECONDS", -1.0)
    with pytest.raises(SolveLimit) as caught:
        solve_book(load_book(BOOKS / "ally-ledge"), (8, 14, 8), luck_policy="best")
    assert "ran out of time" in caught.value.message.translate("en")
