"""``dedale solve --exact``: the answer as a fraction (dice, tests and plain fights carried in
fractions, loops by exact policy iteration), matched to fractions computed here from the
rules, and the float answer to float(fraction) to 1e-12."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.language import load_book
from dedale.rules import load_ruleset
from dedale.rules.odds import fight_odds
from dedale.solve import solve_book
from dedale.solve.exact import exact_values, solve_exact
from dedale.solve.model import Chance, Decision, Leaf, Next

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
HEROES = [(7, 14, 7), (9, 18, 9), (12, 24, 12)]
RULES = load_ruleset("df-classic")
TWO_D6 = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def at_most(n: int) -> Fraction:
    return sum((p for t, p in TWO_D6.items() if t <= n), Fraction(0))


def chances(skill: int, enemy: int) -> tuple[Fraction, Fraction]:
    """(the hero wounds, the enemy wounds) in one assault: 2d6 + SKILL each side."""
    pairs = [(p * q, a + skill - b - enemy) for a, p in TWO_D6.items() for b, q in TWO_D6.items()]
    return sum(p for p, d in pairs if d > 0), sum(p for p, d in pairs if d < 0)


def fight(skill: int, enemy: int, stamina: int, value, luck_tested: bool = False, luck=0):
    """The value of a df-classic duel (a wound 2; a tie changes nothing) whose win with
    STAMINA h and LUCK l is worth ``value(h, l)``; with ``luck_tested`` Luck is tested after
    a wound when that raises the chance to **win the fight** (strictly), as the fight DP
    does, and the book's value follows that choice."""
    win, lose = chances(skill, enemy)

    @cache
    def both(h: int, e: int, lk: int) -> tuple[Fraction, Fraction]:
        """(chance to win the fight, value for the book)."""
        if h <= 0:
            return Fraction(0), Fraction(0)
        if e <= 0:
            return Fraction(1), value(h, lk)
        q = at_most(lk)
        dealt = both(h, e - 2, lk)
        taken = both(h - 2, e, lk)
        if luck_tested and lk > 0:
            lucky, unlucky = both(h, e - 4, lk - 1), both(h, e - 1, lk - 1)
            tried = (q * lucky[0] + (1 - q) * unlucky[0], q * lucky[1] + (1 - q) * unlucky[1])
            dealt = tried if tried[0] > dealt[0] else dealt
            lucky, unlucky = both(h - 1, e, lk - 1), both(h - 3, e, lk - 1)
            tried = (q * lucky[0] + (1 - q) * unlucky[0], q * lucky[1] + (1 - q) * unlucky[1])
            taken = tried if tried[0] > taken[0] else taken
        scale = win + lose
        return ((win * dealt[0] + lose * taken[0]) / scale,
                (win * dealt[1] + lose * taken[1]) / scale)  # fmt: skip

    return lambda h: both(h, stamina, luck)[1]


def _check(book: str, hero, expected: Fraction, policy: str, tolerance: float | None = 1e-12):
    """The fraction is the one computed here; the plain float solve agrees with it to
    ``tolerance`` (1e-12; a loop's value iteration stops within its own 1e-12 a sweep)."""
    result, exact = solve_exact(load_book(BOOKS / book), hero, luck_policy=policy)
    assert result.complete
    assert exact == expected
    assert result.win_probability == float(exact)
    if tolerance is not None:
        plain = solve_book(load_book(BOOKS / book), hero, luck_policy=policy)
        assert plain.win_probability == pytest.approx(float(exact), abs=tolerance)


@pytest.mark.parametrize("hero", HEROES)
def test_a_fork_between_two_fights(hero):
    skill, stamina, _ = hero
    goblin = fight(skill, 6, 5, lambda h, lk: Fraction(1))(stamina)
    ogre = fight(skill, 9, 10, lambda h, lk: Fraction(1))(stamina)
    _check("fork", hero, max(goblin, ogre), "none")


@pytest.mark.parametrize("hero", HEROES)
def test_a_luck_test_then_a_fight(hero):
    skill, stamina, luck = hero
    troll = fight(skill, 9, 9, lambda h, lk: Fraction(1))(stamina)
    _check("test-branch", hero, at_most(luck) + (1 - at_most(luck)) * troll, "none")


@pytest.mark.parametrize("hero", HEROES)
def test_the_fight_dps_luck_then_a_luck_test(hero):
    """kept-luck with --luck fight: Luck tested in the bear fight for the fight's sake, the
    LUCK left deciding the ledge's test."""
    skill, stamina, luck = hero
    bear = fight(skill, 8, 6, lambda h, lk: at_most(lk), luck_tested=True, luck=luck)
    _check("kept-luck", hero, bear(stamina), "fight")
    # The float DP (rules/odds.py) tests Luck only when that raises the chance to win the
    # fight by more than a rounding error (odds.LUCK_TIE): where both choices win it exactly
    # as often, it keeps the LUCK for the ledge as the fractions do (it used to test Luck on
    # some such ties: 37.8971 % for 7 14 7 instead of 38.8693 %). The bear's own chance:
    odds = fight_odds(RULES, skill, stamina, [(8, 6)], luck=luck, luck_policy="best")
    win = fight(skill, 8, 6, lambda h, lk: Fraction(1), luck_tested=True, luck=luck)(stamina)
    assert odds.win_probability == pytest.approx(float(win), abs=1e-12)


def test_a_hub_is_solved_by_exact_policy_iteration():
    """The lever: 1 wins, 2 dies, 3-6 back to the cell: 1/6 / (1 - 4/6) = 1/2 exactly."""
    _check("hub", (9, 18, 9), Fraction(1, 2), "none", tolerance=1e-10)


def test_policy_iteration_leaves_a_loop_that_never_wins():
    """From a policy that stays in the loop for ever (worth 0, the least fixed point), the
    improvement takes the gamble, which wins for sure in the end."""
    gamble = Chance(((Fraction(1, 2), ("d", 1), Leaf(1.0)), (Fraction(1, 2), ("d", 2), Next(0))))
    trees = [Decision(((("a", 0), {"kind": "wait"}, Next(0)), (("a", 1), {}, gamble)))]
    assert exact_values(trees, [0.0])[0] == 1


def test_the_cli_gives_the_fraction(capsys):
    code = main(["solve", str(BOOKS / "hub"), "--hero", "9", "18", "9", "--exact", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["win_probability_exact"] == "1/2"
    assert data["win_probability"] == pytest.approx(0.5, abs=1e-12)
    code = main(["solve", str(BOOKS / "test-branch"), "--hero", "9", "18", "9", "--exact",
                 "--luck", "none"])  # fmt: skip
    out = capsys.readouterr().out
    expected = at_most(9) + (1 - at_most(9)) * fight(9, 9, 9, lambda h, lk: Fraction(1))(18)
    assert code == 0
    assert f"exactly: {expected.numerator}/{expected.denominator}" in out


@pytest.mark.parametrize("hero", [(7, 14, 7), (9, 18, 9), (12, 24, 12)])
def test_an_assault_limit_in_the_graph_with_the_books_luck(hero):
    """tests/books_extra/solve/limit (beat SKILL 9 STAMINA 9 within 4 assaults, else die),
    --luck best: the fight's states are graph nodes and Luck a decision of the book, all in
    fractions (written here from the rules)."""
    skill, stamina, luck = hero
    win, lose = chances(skill, 9)
    tie = 1 - win - lose

    @cache
    def duel(h: int, e: int, lk: int, k: int) -> Fraction:
        if e <= 0:
            return Fraction(1)
        if h <= 0 or k >= 4:
            return Fraction(0)
        q = at_most(lk)
        hit = duel(h, e - 2, lk, k + 1)
        hurt = duel(h - 2, e, lk, k + 1)
        if lk > 0:
            hit = max(
                hit, q * duel(h, e - 4, lk - 1, k + 1) + (1 - q) * duel(h, e - 1, lk - 1, k + 1)
            )
            hurt = max(
                hurt, q * duel(h - 1, e, lk - 1, k + 1) + (1 - q) * duel(h - 3, e, lk - 1, k + 1)
            )
        return win * hit + lose * hurt + tie * duel(h, e, lk, k + 1)

    _check("limit", hero, duel(stamina, 9, luck, 0), "best")


@pytest.mark.parametrize("hero", [(7, 14, 7), (9, 18, 9)])
def test_an_escape_decided_in_the_graph(hero):
    """tests/books_extra/solve/flee with --luck none: fight the troll (SKILL 11 STAMINA 20)
    or, from the sixth assault on, flee to the gate for 2 STAMINA (both win the book): the
    best chance to get out alive, a tie changing nothing once fleeing is allowed."""
    skill, stamina, _ = hero
    win, lose = chances(skill, 11)
    tie = 1 - win - lose

    @cache
    def value(h: int, e: int, k: int) -> Fraction:
        if e <= 0:
            return Fraction(1)
        if h <= 0:
            return Fraction(0)
        if k >= 6:
            flee = Fraction(1 if h > 2 else 0)
            fight_on = (win * value(h, e - 2, 6) + lose * value(h - 2, e, 6)) / (win + lose)
            return max(flee, fight_on)
        return (
            win * value(h, e - 2, k + 1) + lose * value(h - 2, e, k + 1) + tie * value(h, e, k + 1)
        )

    _check("flee", hero, value(stamina, 20, 0), "none")


@pytest.mark.parametrize(
    ("ruleset", "enemies", "mode", "options"),
    [
        ("df-classic", [(8, 8)], "single", {}),
        ("df-classic", [(6, 5), (9, 7)], "sequence", {"enemy_damage": 3}),
        ("df-classic", [(6, 5), (7, 4)], "as_one", {"attack_bonus": 1}),
        ("df24", [(9, 8), (7, 6, True)], "sequence", {}),
        ("df48.5", [(9, 10)], "single", {"class_name": "Mercenaire"}),
        ("df48.5", [(8, 6), (9, 6)], "sequence", {"class_name": "Scientifique"}),
    ],
)
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_exact_fight_is_the_float_dp(ruleset, enemies, mode, options, policy):
    """solve.exact_fights against rules.odds.fight_odds: the chance to win to 1e-12, and,
    without Luck (no tie to break), every end state."""
    from dedale.solve.exact_fights import ExactFight

    rules = load_ruleset(ruleset)
    skill, stamina, luck = 9, 16, 8
    odds = fight_odds(rules, skill, stamina, enemies, luck=luck, luck_policy=policy,
                      mode=mode, **options)  # fmt: skip
    kit = dict(options)
    armour = None
    if "class_name" in kit:  # the DP's class kit: armour fresh on the first assault
        from dedale.validator.fights import class_fight_kit

        armour = class_fight_kit(rules, kit["class_name"])[1]
    exact = ExactFight(
        rules, skill, enemies, mode=mode, bonus=kit.get("attack_bonus", 0),
        enemy_damage=kit.get("enemy_damage"), armour=bool(armour),
        class_name=kit.get("class_name"), luck_policy=policy,
    )  # fmt: skip
    ends, lost = exact.outcomes(stamina, luck)
    assert float(1 - lost) == pytest.approx(odds.win_probability, abs=1e-12)
    assert sum(ends.values()) + lost == 1
    if policy == "none":
        for (h, lk), p in ends.items():
            assert float(p) == pytest.approx(
                odds.win_probability * odds.end_states[h, lk], abs=1e-12
            )


@pytest.mark.parametrize("hero", [(7, 14, 7), (9, 18, 9), (8, 16, 11)])
def test_luck_decided_for_the_book_in_fractions(hero):
    """kept-luck with --luck best: the Duel's exact twin matches the brute force of
    test_solve_luck (Luck tested after each wound when it raises the book's value)."""
    from tests.solve.test_solve_luck import at_most as luck_at_most
    from tests.solve.test_solve_luck import duel

    skill, stamina, luck = hero
    expected = duel(skill, 8, lambda h, lk: luck_at_most(lk))(stamina, 6, luck)
    _check("kept-luck", hero, expected, "best", tolerance=1e-9)


def test_a_loop_through_a_fight_with_the_books_luck():
    """tests/books_extra/solve/rat-loop: beat the rat, then a third of the time the key,
    else back to the start with the wounds: loops through Duel nodes (the Luck inside each
    fight part of the policy), solved by exact policy iteration; the float value iteration
    agrees to 1e-10."""
    book = load_book(BOOKS / "rat-loop")
    result, exact = solve_exact(book, (7, 14, 7), luck_policy="best")
    assert result.complete and result.loops > 0
    plain = solve_book(book, (7, 14, 7), luck_policy="best")
    assert plain.win_probability == pytest.approx(float(exact), abs=1e-10)
    assert 0 < exact < 1


def test_a_loop_past_the_exact_budget_keeps_the_float_answer(capsys, monkeypatch):
    import dedale.solve.exact as exact

    monkeypatch.setattr(exact, "MAX_LOOP_STATES", 0)
    with pytest.raises(exact.ExactBudget) as caught:
        solve_exact(load_book(BOOKS / "hub"), (9, 18, 9), luck_policy="none")
    assert caught.value.result.complete
    code = main(["solve", str(BOOKS / "hub"), "--hero", "9", "18", "9", "--exact", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and "win_probability_exact" not in data
    assert "policy iteration" in data["exact_note"]
    assert data["win_probability"] == pytest.approx(0.5, abs=1e-10)
