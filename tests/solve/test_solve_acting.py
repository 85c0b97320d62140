"""Fights in which the book acts (rules under an enemy, events, exits), solved as one chance
node over their exact outcomes (:mod:`dedale.solve.fights_acting`), matched to a recursion
written here from the rules (df-classic, 2d6 each, ties change nothing) in exact fractions."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale import events
from dedale.game.interpreter import Game
from dedale.language import load_book
from dedale.solve import SolveLimit, solve_book

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
HEROES = [(7, 14, 7), (9, 18, 9), (11, 20, 8)]
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}  # 2d6 totals, of 36


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


def lucky(luck: int) -> Fraction:
    return Fraction(sum(w for t, w in WAYS.items() if t <= luck), 36)


def fight(start, step) -> dict:
    """The ways out of a fight: ``step(state)`` gives ``(p, next state or ("end", key))``
    for one assault, ties (next state == state) folded in."""
    found: dict = {}

    @cache
    def reach(state) -> tuple:
        moves = step(state)
        stay = sum(p for p, nxt in moves if nxt == state)
        out: dict = {}
        for p, nxt in moves:
            if nxt == state:
                continue
            share = p / (1 - stay)
            if nxt[0] == "end":
                out[nxt[1]] = out.get(nxt[1], 0) + share
            else:
                for key, q in reach(nxt):
                    out[key] = out.get(key, 0) + share * q
        return tuple(out.items())

    for key, p in reach(start):
        found[key] = found.get(key, 0) + p
    return found


def viper_pit(skill: int, stamina: int, luck: int, weapons=(True, False)) -> Fraction:
    """tests/books_extra/solve/viper-pit with Luck never tested in fights: the best of
    ``weapons`` (True: the silver sword, False: the iron mace)."""

    def ogre(h: int, sword: bool) -> Fraction:  # § 12
        win, tie, lose = assault(skill - 9)

        def step(state):
            h, e, won = state
            hit = 3 if sword else 2
            after_hit = (
                ("end", ("won", h))
                if e - hit <= 0
                # no hook after a fall
                else (("end", ("assaults", h)) if won + 1 >= 3 else (h, e - hit, won + 1))
            )
            hurt = ("end", ("lost",)) if h - 2 <= 0 else (h - 2, e, won)
            return [(win, after_hit), (tie, state), (lose, hurt)]

        total = Fraction(0)
        for key, p in fight((h, 7, 0), step).items():
            if key[0] == "won":
                total += p
            elif key[0] == "assaults":  # § 16: a Luck test
                total += p * lucky(luck_now[0])
        return total

    def guard(h: int, sword: bool) -> Fraction:  # § 10
        win, tie, lose = assault(skill - 8)

        def step(state):
            h, e, first = state
            e2 = e - 2
            if first:  # (a fall in the first assault turns to "first assault won" too)
                after_hit = ("end", ("first", h))
            elif e2 <= 0:
                after_hit = ("end", ("won", h))
            else:
                after_hit = ("end", ("threshold", h)) if h <= 4 else (h, e2, False)
            after_tie = ("end", ("threshold", h)) if h <= 4 else (h, e, False)
            if h - 2 <= 0:
                hurt = ("end", ("lost",))
            elif h - 2 <= 4:
                hurt = ("end", ("threshold", h - 2))
            else:
                hurt = (h - 2, e, False)
            return [(win, after_hit), (tie, after_tie if after_tie != state else state),
                    (lose, hurt)]  # fmt: skip

        total = Fraction(0)
        for key, p in fight((h, 8, True), step).items():
            if key[0] in ("first", "won"):
                total += p * ogre(key[1], sword)
            elif key[0] == "threshold":  # § 11: a Luck test, then § 12 with a point less
                luck_now[0] -= 1
                total += p * lucky(luck_now[0] + 1) * ogre(key[1], sword)
                luck_now[0] += 1
        return total

    def skeleton(h: int, sword: bool) -> Fraction:  # § 5
        win, tie, lose = assault(skill - 6)

        def step(state):
            h, e, bites = state
            after_hit = ("end", ("won", h, bites)) if e - 2 <= 0 else (h, e - 2, bites)
            if h - 2 <= 0:
                hurt = ("end", ("lost",))
            elif bites + 1 >= 2:
                hurt = ("end", ("exit", h - 2, bites + 1))
            else:
                hurt = (h - 2, e, bites + 1)
            return [(win, after_hit), (tie, state), (lose, hurt)]

        total = Fraction(0)
        for key, p in fight((h, 5, 0), step).items():
            if key[0] == "lost":
                continue
            h2 = key[1] - 3 if key[2] >= 1 else key[1]  # § 7: the venom
            if h2 > 0:
                total += p * guard(h2, sword)
        return total

    def viper(sword: bool) -> Fraction:  # § 4
        win, tie, lose = assault(skill + (2 if sword else 0) - 7)
        hit = 1 if sword else 2

        def step(state):
            h, e = state
            after_hit = ("end", ("won", h)) if e - hit <= 0 else (h, e - hit)
            hurt = ("end", ("lost",)) if h - 4 <= 0 else (h - 4, e)
            return [(win, after_hit), (tie, state), (lose, hurt)]

        return sum(
            (p * skeleton(key[1], sword) for key, p in fight((stamina, 6), step).items()
             if key[0] == "won"), Fraction(0),
        )  # fmt: skip

    luck_now = [luck]
    return max(viper(sword) for sword in weapons)


@pytest.mark.parametrize("hero", HEROES)
def test_the_viper_pit_matches_the_recursion(hero):
    result = solve_book(load_book(BOOKS / "viper-pit"), hero, luck_policy="none")
    assert result.complete
    assert result.win_probability == pytest.approx(float(viper_pit(*hero)), abs=1e-9)


def test_the_recursion_agrees_with_the_real_interpreter():
    """The recursion's reading of the rules (the hooks after the killing assault, the order
    of the exits, the venom read from the counter) against seeded games of the real
    interpreter, sword and mace each, within 3 standard errors."""
    book = load_book(BOOKS / "viper-pit")
    hero, games = (9, 18, 9), 3000
    for sword in (True, False):
        wins = 0
        for seed in range(games):
            game = Game.new(book, seed, hero=hero, name="Hero", quiet=True)
            while (item := game.next()) is not None:
                if isinstance(item, events.ChoosePrompt):
                    target = 2 if sword else 3
                    game.answer(next(o.index for o in item.options if o.target == target))
                elif isinstance(item, events.Prompt):
                    game.answer(False)  # no Luck in fights
            wins += game.outcome == "victory"
        exact = float(viper_pit(*hero, weapons=(sword,)))
        se = math.sqrt(exact * (1 - exact) / games)
        assert abs(wins / games - exact) <= 3 * se, (sword, wins / games, exact)


FIGHTS = {  # fights whose every way out alive turns to a victory
    "crab": "> fight CRAB SKILL 9 STAMINA 8\n> it deals 3",
    "escape": "> fight OGRE SKILL 9 STAMINA 8\n> it deals 3\n> escape -> 3 after 2",
    "bites": (
        "> fight RAT SKILL 10 STAMINA 9\n> it deals 4\n> when it wins an assault: gain 1 bites\n"
        "> end the fight when bites >= 3 -> 3"
    ),
    "double once": (
        "> fight CAPTAIN SKILL 11 STAMINA 8\n"
        "> on a double (if not codeword DISARMED): its SKILL -3, set codeword DISARMED"
    ),
    "threshold and shield": (
        "> fight TROLL SKILL 10 STAMINA 10\n> when it wounds you: roll 1d6, 5-6: wound 1\n"
        "> when your STAMINA falls to 5 or less -> 3"
    ),
    "two in turn": (
        "> fight\n> enemy GUARD SKILL 8 STAMINA 4\n> it takes half\n"
        "> enemy SERGEANT SKILL 10 STAMINA 6\n> after 3 assaults won -> 3\n"
        "> first assault won -> 3\n> not won after 9 assaults -> 3"
    ),
}
HEADER = """---
title: Acting
language: en
ruleset: df-classic
start: 1
rules:
  counters:
    bites: {{names: {{en: Bites, fr: Morsures}}, aliases: [bites], initial: 0}}
---
§ 1
{fight}
> win -> 2
§ 2
> victory
§ 3
> victory
"""


def _book(tmp_path: Path, text: str):
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(fight=text), encoding="utf-8")
    return load_book(path)


@pytest.mark.parametrize("name", list(FIGHTS))
@pytest.mark.parametrize("policy", ["none", "fight", "best"])
def test_a_fight_leading_to_victory_every_way_is_its_chance_to_leave_alive(tmp_path, name,
                                                                            policy):  # fmt: skip
    """Every way out alive wins: the solver's answer is the exit odds' chance to leave the
    fight alive (rules/odds_exits.py, its own value recursion), Luck at the fight's
    policy with --luck fight and --luck best alike."""
    from dedale import ast
    from dedale.rules.odds_exits import exit_odds
    from dedale.rules.odds_inputs import enemy_line_up
    from dedale.validator.fight_plan import plan_of

    book = _book(tmp_path, FIGHTS[name])
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    line_up = tuple(enemy_line_up(book.ruleset, _specs(book, fight), fight.mode))
    for hero in HEROES:
        plan = plan_of(
            fight, book.ruleset, line_up, dict(zip(("SKILL", "STAMINA", "LUCK"), hero, strict=True))
        )
        expected = exit_odds(book.ruleset, hero[0], hero[1], plan, luck=hero[2],
                             luck_policy="none" if policy == "none" else "best")  # fmt: skip
        result = solve_book(book, hero, luck_policy=policy)
        assert result.complete
        assert result.win_probability == pytest.approx(expected, abs=1e-9), hero


def _specs(book, fight):
    from dedale.rules.fights import EnemySpec

    specs = []
    for enemy in fight.enemies:
        stats = {book.ruleset.resolve(n)[1]: v for n, v in enemy.stats}
        specs.append(EnemySpec(enemy.name, stats, enemy.immune_instant_kill))
    return specs


def test_a_codeword_the_fight_sets_is_carried_on(tmp_path):
    """ "On a double: set codeword STRUCK" then a paragraph that reads it: the chance is that
    of winning with a double rolled on an assault the captain survived (recursion here)."""
    text = "> fight CAPTAIN SKILL 9 STAMINA 4\n> on a double: set codeword STRUCK"
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(fight=text).replace(
        "§ 2\n> victory", "§ 2\n> if codeword STRUCK -> 3\n> death"), encoding="utf-8")  # fmt: skip
    book = load_book(path)
    skill, stamina = 9, 14

    @cache
    def chance(h: int, e: int, struck: bool) -> Fraction:
        """Win having struck, hero SKILL 9 against SKILL 9 (2d6 each, faces enumerated)."""
        if h <= 0:
            return Fraction(0)
        total = stay = Fraction(0)
        for a in range(1, 7):
            for b in range(1, 7):
                for enemy, ways in WAYS.items():
                    p = Fraction(ways, 36 * 36)
                    if a + b + skill > enemy + 9:
                        if e - 2 <= 0:
                            total += p * struck  # the fall: no event after it
                        else:
                            total += p * chance(h, e - 2, struck or a == b)
                    elif a + b + skill < enemy + 9:
                        total += p * chance(h - 2, e, struck or a == b)
                    elif struck or a != b:
                        stay += p
                    else:
                        total += p * chance(h, e, True)
        return total / (1 - stay)

    result = solve_book(book, (skill, stamina, 9), luck_policy="none")
    assert result.win_probability == pytest.approx(float(chance(stamina, 4, False)), abs=1e-9)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("> fight OGRE SKILL 9 STAMINA 8\n> ally BRAN SKILL 8 STAMINA 10\n> escape -> 3", "allies"),
        ("> fight OGRE SKILL 9 STAMINA 8\n> when you win an assault: take Tooth", "item"),
        ("> fight OGRE SKILL 9 STAMINA 8\n> it deals 3 (if LUCK >= 8)", "LUCK"),
        ("> fight OGRE SKILL 9 STAMINA 8\n> it deals 4 (if bites + 1 >= 2)", "cannot follow"),
        ("> fight OGRE SKILL 9 STAMINA 8\n> when it wins an assault: gain 1 STAMINA", "raises"),
        ("> fight RAT SKILL 6 STAMINA 5\n> on a double: gain 1 bites", "too deep"),
    ],
)
def test_what_the_outcome_cannot_carry_is_refused_at_the_fight(tmp_path, text, reason):
    book = _book(tmp_path, text)
    with pytest.raises(SolveLimit) as caught:
        solve_book(book, (9, 18, 9), luck_policy="best")
    assert caught.value.span is not None and caught.value.span.line == 11
    assert reason in caught.value.message


@pytest.mark.parametrize("policy", ["none", "best"])
def test_without_shortcuts_or_pruning_the_viper_pit_is_the_same(policy):
    """The chance node built at once (each way out's paragraph resolved) and the replayed
    one agree, and so do the pruned and unpruned snapshots (the bites counter)."""
    book = load_book(BOOKS / "viper-pit")
    fast = solve_book(book, (8, 16, 8), luck_policy=policy)
    slow = solve_book(book, (8, 16, 8), luck_policy=policy, shortcuts=False, prune=False)
    assert fast.win_probability == pytest.approx(slow.win_probability, abs=1e-12)
    assert fast.states <= slow.states


@pytest.mark.parametrize("hero", HEROES)
def test_a_french_book_with_a_viper_and_a_threshold(hero):
    """tests/books_extra/solve/marais: « elle inflige 4 », then « quand votre ENDURANCE
    tombe à 4 ou moins -> 5 » and a Luck test there (recursion here, Luck never tested in
    fights)."""
    skill, stamina, luck = hero
    win, tie, lose = assault(skill - 6)

    def viper(state):
        h, e = state
        hit = ("end", ("won", h)) if e - 2 <= 0 else (h, e - 2)
        hurt = ("end", ("lost",)) if h - 4 <= 0 else (h - 4, e)
        return [(win, hit), (tie, state), (lose, hurt)]

    def brigand(state):
        w, t, lo = assault(skill - 8)
        h, e = state
        if e - 2 <= 0:
            hit = ("end", ("won",))  # the fall ends the fight before the threshold
        else:
            hit = ("end", ("threshold",)) if h <= 4 else (h, e - 2)
        still = ("end", ("threshold",)) if h <= 4 else state
        if h - 2 <= 0:
            hurt = ("end", ("lost",))
        else:
            hurt = ("end", ("threshold",)) if h - 2 <= 4 else (h - 2, e)
        return [(w, hit), (t, still), (lo, hurt)]

    expected = Fraction(0)
    for key, p in fight((stamina, 5), viper).items():
        if key[0] == "won":
            for way, q in fight((key[1], 8), brigand).items():
                expected += p * q * {"won": 1, "threshold": lucky(luck), "lost": 0}[way[0]]
    result = solve_book(load_book(BOOKS / "marais"), hero, luck_policy="none")
    assert result.win_probability == pytest.approx(float(expected), abs=1e-9)


def test_a_codeword_held_before_the_fight_is_read_from_the_state(tmp_path):
    """The captain drops his sword once (guarded by a codeword); a hero who already holds
    the codeword never sees it: the plain fight's odds (the validator's plan starts every
    codeword the fight sets unset)."""
    from dedale.rules.odds import fight_odds

    text = (
        "> set codeword DISARMED\n> fight CAPTAIN SKILL 11 STAMINA 8\n"
        "> on a double (if not codeword DISARMED): its SKILL -5, set codeword DISARMED"
    )
    book = _book(tmp_path, text)
    for policy in ("none", "fight"):
        expected = fight_odds(book.ruleset, 9, 18, [(11, 8)], luck=9,
                              luck_policy="none" if policy == "none" else "best")  # fmt: skip
        result = solve_book(book, (9, 18, 9), luck_policy=policy)
        assert result.win_probability == pytest.approx(expected.win_probability, abs=1e-9)
    unset = solve_book(_book(tmp_path, text.replace("> set codeword DISARMED\n", "")), (9, 18, 9))
    assert unset.win_probability > result.win_probability + 1e-3


@pytest.mark.parametrize(("book", "hero"), [("viper-pit", "7 14 7"), ("marais", "7 14 7")])
def test_the_plan_through_fights_in_which_the_book_acts_passes(capsys, tmp_path, book, hero):
    """--walkthrough names the rule that ended a fight; --plan's plan passes dedale test."""
    from dedale.cli import main

    path = tmp_path / "best.plan"
    args = ["solve", str(BOOKS / book), "--hero", *hero.split(), "--luck", "none"]
    assert main([*args, "--walkthrough", "--plan", str(path)]) == 0
    out = capsys.readouterr().out
    assert "first assault won" in out or "le seuil atteint" in out
    assert main(["test", str(BOOKS / book), str(path)]) == 0
