"""Escapes the reader decides in fights played state by state (:mod:`dedale.solve.
fight_graph`): in a fight in which the book acts (flee-viper: "it deals 3"), against two
enemies in turn (flee-line) and two at once (flee-rats), each fleeing to a Luck test.

The best-play chance is matched (1e-9, and exactly with ``--exact``) to a recursion written
here from the rules (df-classic: 2d6 each, wounds of 2, Luck's shifts, the escape's wound
of 2 with Luck on it, the other enemies' blows at once), in exact fractions, deciding
every escape, target and Luck test for the book."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale import events
from dedale.game.interpreter import Game
from dedale.language import load_book
from dedale.solve import solve_book

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
HEROES = [(7, 14, 7), (9, 14, 8), (10, 16, 9), (12, 20, 11)]
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}  # 2d6 totals, of 36


def lucky(luck: int) -> Fraction:
    return Fraction(sum(w for t, w in WAYS.items() if t <= luck), 36)


@cache
def assault(lead: int) -> tuple[Fraction, Fraction, Fraction]:
    """(hero wins, tie, enemy wins) of one assault, the hero's attack ``lead`` higher."""
    win = tie = 0
    for a, wa in WAYS.items():
        for b, wb in WAYS.items():
            if a + lead > b:
                win += wa * wb
            elif a + lead == b:
                tie += wa * wb
    return Fraction(win, 1296), Fraction(tie, 1296), Fraction(1296 - win - tie, 1296)


def flee(h: int, luck: int, book_luck: bool) -> Fraction:
    """Escaping (a wound of 2, Luck on it) to the guard's Luck test."""
    best = lucky(luck) if h > 2 else Fraction(0)
    if book_luck and luck > 0:
        q, after = lucky(luck), lucky(luck - 1)
        best = max(best, q * (h > 1) * after + (1 - q) * (h > 3) * after)
    return best


def in_turn(
    skill,
    stamina,
    luck,
    enemies,
    book_luck: bool,
    limit: int | None = None,
    flee_at: int | None = None,
    escape: bool = True,
) -> Fraction:
    """Enemies ``(SKILL, STAMINA, damage)`` one after the other, escape after 1 assault
    (unless not ``escape``); with ``limit``: the fight lost after that many assaults (the
    limit checked before the escape is offered)."""

    @cache
    def value(i: int, h: int, e: int, luck: int, k: int) -> Fraction:
        if limit is not None and k >= limit:
            return Fraction(0)
        win, tie, lose = assault(skill - enemies[i][0])
        deals = enemies[i][2]
        nk = k + 1 if limit is not None else 1  # (the assaults told apart up to the escape)
        q = lucky(luck)

        def hit(e2: int, lk: int) -> Fraction:
            if e2 > 0:
                return value(i, h, e2, lk, nk)
            return Fraction(1) if i + 1 == len(enemies) else value(i + 1, h, enemies[i + 1][1],
                                                                  lk, nk)  # fmt: skip

        def hurt(d: int, lk: int) -> Fraction:
            return value(i, h - d, e, lk, nk) if h - d > 0 else Fraction(0)

        on_hit, on_hurt = hit(e - 2, luck), hurt(deals, luck)
        if book_luck and luck > 0:
            on_hit = max(on_hit, q * hit(e - 4, luck - 1) + (1 - q) * hit(e - 1, luck - 1))
            on_hurt = max(
                on_hurt, q * hurt(deals - 1, luck - 1) + (1 - q) * hurt(deals + 1, luck - 1)
            )
        rest = win * on_hit + lose * on_hurt
        if limit is not None or k < 1:
            fight_on = rest + tie * value(i, h, e, luck, nk)
            return max(flee(h, luck, book_luck), fight_on) if escape and k >= 1 else fight_on
        if flee_at is not None:  # a fixed policy: flee at STAMINA flee_at or less
            return flee(h, luck, book_luck) if h <= flee_at else rest / (1 - tie)
        return max(flee(h, luck, book_luck), rest / (1 - tie))  # a tie: this very state

    return value(0, stamina, enemies[0][1], luck, 0)


@cache
def side(lead_t: int, lead_o: int) -> tuple:
    """One assault at once: ``((p, target's outcome, the other's blow lands), ...)``."""
    found: dict = {}
    for a, wa in WAYS.items():
        for b, wb in WAYS.items():
            who = "hero" if a + lead_t > b else "tie" if a + lead_t == b else "enemy"
            for c, wc in WAYS.items():
                key = (who, c > a + lead_o)
                found[key] = found.get(key, 0) + wa * wb * wc
    return tuple((Fraction(w, 36**3), who, blow) for (who, blow), w in found.items())


def at_once(skill, stamina, luck, rats, escape: bool = True, flee_at: int | None = None):
    """Rats ``(SKILL, STAMINA)`` all at once, escape after 1 assault (or none), Luck never
    tested."""

    @cache
    def value(es: tuple, h: int, k: int) -> Fraction:
        alive = [i for i, e in enumerate(es) if e > 0]
        best = Fraction(0)
        for t in alive if flee_at is None else alive[:1]:  # (a fixed policy: the first)
            others = [j for j in alive if j != t]
            outcomes = (
                side(skill - rats[t][0], skill - rats[others[0]][0]) if others
                else tuple((p, who, False) for p, who in zip(assault(skill - rats[t][0]),
                                                            ("hero", "tie", "enemy"), strict=True))
            )  # fmt: skip
            rest = back = Fraction(0)
            for p, who, blow in outcomes:
                es2, h2 = list(es), h - 2 * (who == "enemy") - 2 * blow
                if who == "hero":
                    es2[t] = max(0, es2[t] - 2)
                nxt = (tuple(es2), h2, 1)
                if h2 <= 0:
                    continue
                if not any(es2):
                    rest += p
                elif nxt == (es, h, k):
                    back += p
                else:
                    rest += p * value(*nxt)
            best = max(best, rest / (1 - back))
        if flee_at is not None and k >= 1:
            return flee(h, luck, False) if h <= flee_at else best
        return max(flee(h, luck, False), best) if k >= 1 and escape else best

    return value(tuple(s for _, s in rats), stamina, 0)


def expected(name: str, hero, policy: str) -> Fraction:
    book_luck = policy == "best"
    if name == "flee-viper":
        return in_turn(*hero, [(8, 6, 3)], book_luck)
    if name == "flee-line":
        return in_turn(*hero, [(7, 5, 2), (8, 6, 2)], book_luck)
    if name == "gauntlet":  # an assault limit, no escape (tests/books_extra/solve/gauntlet)
        return in_turn(*hero, [(6, 5, 2), (7, 6, 2)], book_luck, limit=6, escape=False)
    if name == "flee-bell":  # the jailers, an escape and the bell after 8 assaults
        return in_turn(*hero, [(7, 5, 2), (8, 6, 2)], book_luck, limit=8)
    return at_once(*hero, [(7, 4), (5, 6)])


CASES = [("flee-viper", "best"), ("flee-viper", "none"), ("flee-line", "best"),
         ("flee-line", "none"), ("flee-rats", "none"), ("gauntlet", "best"),
         ("flee-bell", "best"), ("flee-bell", "none")]  # fmt: skip
SLOW = ("gauntlet", "flee-bell")  # (solved for the first two heroes only)


@pytest.mark.parametrize(
    ("name", "policy", "hero"),
    [(*case, hero) for case in CASES for hero in (HEROES[:2] if case[0] in SLOW else HEROES)],
)
def test_the_escape_is_decided_for_the_book(name, policy, hero):
    result = solve_book(load_book(BOOKS / name), hero, luck_policy=policy)
    assert result.complete
    assert result.win_probability == pytest.approx(float(expected(name, hero, policy)), abs=1e-9)


@pytest.mark.parametrize("hero", HEROES[:1])
@pytest.mark.parametrize(("name", "policy"), [c for c in CASES if c[0] != "flee-rats"])
def test_the_escape_in_fractions_is_the_recursion(name, policy, hero):
    from dedale.solve.exact import solve_exact

    result, exact = solve_exact(load_book(BOOKS / name), hero, luck_policy=policy)
    assert result.complete
    assert exact == expected(name, hero, policy)


@pytest.mark.parametrize("hero", HEROES[:2])
def test_fights_at_once_in_fractions_are_the_recursion(hero):
    """Enemies at once in fractions (solve/exact_group.py): with an escape in the graph
    (flee-rats), and a plain fight at once as the oracle's outcomes (together: two rats of
    SKILL 5 STAMINA 4; its target is the fight's best, which there is the book's too)."""
    from dedale.solve.exact import solve_exact

    result, exact = solve_exact(load_book(BOOKS / "flee-rats"), hero, luck_policy="none")
    assert result.complete and exact == expected("flee-rats", hero, "none")
    result, exact = solve_exact(load_book(BOOKS / "together"), hero, luck_policy="none")
    assert exact == at_once(*hero, [(5, 4), (5, 4)], escape=False)
    assert result.win_probability == pytest.approx(
        solve_book(load_book(BOOKS / "together"), hero, luck_policy="none").win_probability,
        abs=1e-12,
    )


def test_a_fight_at_once_with_the_fights_luck_in_fractions_is_the_float_one():
    """With Luck (the fight's policy at once), the fractions' answer is the floats' (the
    numpy DP's and the exact odds at once's)."""
    from dedale.solve.exact import solve_exact

    for name in ("together",):  # (flee-rats: the crypte's CLI test below)
        floats = solve_book(load_book(BOOKS / name), (7, 14, 7), luck_policy="best")
        _, exact = solve_exact(load_book(BOOKS / name), (7, 14, 7), luck_policy="best")
        assert float(exact) == pytest.approx(floats.win_probability, abs=1e-12)


def test_the_viper_pit_in_fractions_is_the_recursion():
    """Fights in which the book acts, played in the graph in fractions (``--exact``)."""
    from dedale.solve.exact import solve_exact

    from tests.solve.test_solve_acting import viper_pit

    hero = (9, 18, 9)
    result, exact = solve_exact(load_book(BOOKS / "viper-pit"), hero, luck_policy="none")
    assert result.complete
    assert exact == viper_pit(*hero)


@pytest.mark.parametrize("name", ["flee-viper", "flee-line", "flee-rats"])
def test_the_recursion_agrees_with_the_real_interpreter(name):
    """The recursions' reading of the rules (the escape offered before each assault from the
    second, its wound, the blows at once, "it deals 3") against seeded games of the real
    interpreter with a fixed policy — flee at STAMINA 8 or less, the first enemy standing as
    target, no Luck in the fight — within 3 standard errors."""
    hero, games, at = (7, 14, 7), 2500, 8
    book = load_book(BOOKS / name)
    wins = 0
    for seed in range(games):
        game = Game.new(book, seed, hero=hero, name="Hero", quiet=True)
        while (item := game.next()) is not None:
            if isinstance(item, events.TargetPrompt):
                game.answer(0)
            elif isinstance(item, events.YesNoPrompt) and item.kind == "escape":
                game.answer(game.state.hero.stats["STAMINA"] <= at)
            elif isinstance(item, events.Prompt):
                game.answer(False)  # no Luck in the fight
        wins += game.outcome == "victory"
    enemies = {"flee-viper": [(8, 6, 3)], "flee-line": [(7, 5, 2), (8, 6, 2)]}
    if name == "flee-rats":
        exact = float(at_once(*hero, [(7, 4), (5, 6)], flee_at=at))
    else:
        exact = float(in_turn(*hero, enemies[name], False, flee_at=at))
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(wins / games - exact) <= 3 * se, (wins / games, exact)


def test_a_french_book_at_once_and_acting_with_escapes_through_the_cli(capsys):
    """tests/books_extra/solve/crypte: two rats at once with an escape, then a spectre that
    deals 3 and whose bites end the fight, with an escape: the text names the Luck policy,
    the JSON lists the fights that keep the fight's own, and --exact gives the same answer
    as a fraction."""
    from dedale.cli import main

    # (a budget past the default 60 s of wall clock: --exact takes about 15 s of CPU, 50 s
    # of wall clock at a load average of 17)
    args = ["solve", str(BOOKS / "crypte"), "--hero", "9", "16", "8", "--budget", "600"]
    assert main([*args, "--json", "--walkthrough"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["luck_policy"] == "book-optimal"
    assert data["luck_fight_policy_in"] == ["acting_without_win"]
    kinds = {step["decision"]["kind"] for step in data["walkthrough"] if step["decision"]}
    assert {"target", "fight_on"} <= kinds
    assert main([*args, "--exact", "--walkthrough"]) == 0
    text = capsys.readouterr().out
    assert "attaquer RAT GRIS" in text and "combats où le livre agit" in text
    numerator, denominator = map(int, text.split("exactement")[1].split()[1].split("/"))
    assert numerator / denominator == pytest.approx(data["win_probability"], abs=1e-12)


SKELETON = """---
title: Bites
language: en
ruleset: df-classic
start: 1
rules:
  counters:
    bites: {names: {en: Bites, fr: Morsures}, aliases: [bites], initial: 0}
---
§ 1
> fight SKELETON SKILL 8 STAMINA 6
> when it wins an assault: gain 1 bites
> end the fight when bites >= 2 -> 3
> win -> 2
§ 2
> victory
§ 3
> test your luck
> lucky -> 2
> unlucky -> 4
§ 4
> death
"""


@pytest.mark.parametrize("hero", HEROES[:3])
@pytest.mark.parametrize("policy", ["best", "none"])
def test_the_books_luck_in_a_fight_in_which_the_book_acts(tmp_path, policy, hero):
    """A fight whose second bite turns to a Luck test: with --luck best, Luck after each
    wound is tested for the book (keeping LUCK for the test can be worth a wound), matched
    to a recursion in fractions (the wound, then the bite, then the exit), also --exact."""
    from dedale.solve.exact import solve_exact

    skill, stamina, luck = hero
    book_luck = policy == "best"
    win, tie, lose = assault(skill - 8)

    @cache
    def value(h: int, e: int, bites: int, luck: int) -> Fraction:
        q = lucky(luck)

        def hit(e2: int, lk: int) -> Fraction:
            return Fraction(1) if e2 <= 0 else value(h, e2, bites, lk)

        def hurt(d: int, lk: int) -> Fraction:
            if h - d <= 0:
                return Fraction(0)
            return lucky(lk) if bites + 1 >= 2 else value(h - d, e, bites + 1, lk)

        on_hit, on_hurt = hit(e - 2, luck), hurt(2, luck)
        if book_luck and luck > 0:
            on_hit = max(on_hit, q * hit(e - 4, luck - 1) + (1 - q) * hit(e - 1, luck - 1))
            on_hurt = max(on_hurt, q * hurt(1, luck - 1) + (1 - q) * hurt(3, luck - 1))
        return (win * on_hit + lose * on_hurt) / (1 - tie)

    path = tmp_path / "book.dd"
    path.write_text(SKELETON, encoding="utf-8")
    book = load_book(path)
    expected = value(stamina, 6, 0, luck)
    assert solve_book(book, hero, luck_policy=policy).win_probability == pytest.approx(
        float(expected), abs=1e-9
    )
    assert solve_exact(book, hero, luck_policy=policy)[1] == expected


@pytest.mark.parametrize("policy", ["best", "none"])
def test_an_escape_and_a_limit_against_one_enemy(tmp_path, policy):
    """One jailer (solve/escape.py's duel) with the escape and the bell, as the recursion."""
    text = (BOOKS / "flee-bell" / "book.dd").read_text(encoding="utf-8")
    (tmp_path / "book.dd").write_text(
        "\n".join(line for line in text.splitlines() if "SECOND JAILER" not in line),
        encoding="utf-8",
    )
    (tmp_path / "book.yaml").write_text(
        (BOOKS / "flee-bell" / "book.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    hero = (7, 14, 7)
    result = solve_book(load_book(tmp_path), hero, luck_policy=policy)
    expected = in_turn(*hero, [(7, 5, 2)], policy == "best", limit=8)
    assert result.win_probability == pytest.approx(float(expected), abs=1e-9)


OGRE = """---
title: Ogre
language: en
ruleset: df-classic
start: 1
---
§ 1
> fight OGRE SKILL 9 STAMINA 7
> after 3 assaults won -> 2
> win -> 2
§ 2
> test your luck
> lucky -> 3
> unlucky -> 4
§ 3
> victory
§ 4
> death
"""


@pytest.mark.parametrize("book", ["ogre", "viper-pit"])
def test_the_fights_luck_in_a_fight_in_which_the_book_acts_in_fractions(tmp_path, book):
    """--luck fight under --exact: the fight's Luck decided in fractions, in the graph; the
    floats' forward pass gives the same answer — it tested Luck by rounding where both
    choices leave the fight alive exactly as often (the hero all but sure to reach the third
    assault won), spending the LUCK of the test after it: 58.0037 % instead of 59.6901 %,
    SKILL 9 STAMINA 18 LUCK 9."""
    from dedale.solve.exact import solve_exact

    path = BOOKS / book
    if book == "ogre":
        path = tmp_path / "book.dd"
        path.write_text(OGRE, encoding="utf-8")
    hero = (9, 18, 9)
    floats = solve_book(load_book(path), hero, luck_policy="fight")
    _, exact = solve_exact(load_book(path), hero, luck_policy="fight")
    assert floats.win_probability == pytest.approx(float(exact), abs=1e-12)
    if book == "ogre":
        assert float(exact) == pytest.approx(0.596901, abs=1e-6)
