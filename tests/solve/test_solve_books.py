"""The solver's answers on small books, against best play computed by hand here from the
exact fight odds (``fight_odds(...).end_states``) and the dice: matched to 1e-9."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules import load_ruleset
from dedale.rules.odds import fight_odds
from dedale.solve import solve_book

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
RULES = load_ruleset("df-classic")
HEROES = [(7, 14, 7), (9, 18, 9), (12, 24, 12), (8, 16, 8)]


def lucky(luck: int) -> float:
    """P(2d6 <= luck)."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= luck) / 36


def fight(stamina: int, luck: int, skill: int, enemy: tuple[int, int], policy: str, bonus=0):
    """{(STAMINA, LUCK) after a win: probability} (unconditional)."""
    if stamina <= 0:
        return {}
    odds = fight_odds(
        RULES, skill, stamina, [enemy], luck=luck, luck_policy=policy, attack_bonus=bonus
    )
    found = {}
    for (s, lk), p in odds.end_states.items():
        found[s, lk if policy == "best" else luck] = p * odds.win_probability
    return found


def win(stamina: int, luck: int, skill: int, enemy, policy: str, bonus=0) -> float:
    return sum(fight(stamina, luck, skill, enemy, policy, bonus).values())


def solved(name: str, hero, policy: str) -> float:
    """The solver's answer; ``best`` here is the fight DP's own policy (``fight``), which
    these hand computations follow (the book's best Luck: test_solve_luck.py)."""
    policy = "fight" if policy == "best" else policy
    result = solve_book(load_book(BOOKS / name), hero, luck_policy=policy)
    assert result.complete
    return result.win_probability


@pytest.mark.parametrize("policy", ["best", "none"])
@pytest.mark.parametrize("hero", HEROES)
def test_fork_between_two_fights(hero, policy):
    skill, stamina, luck = hero
    expected = max(
        win(stamina, luck, skill, (6, 5), policy), win(stamina, luck, skill, (9, 10), policy)
    )
    assert solved("fork", hero, policy) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("policy", ["best", "none"])
@pytest.mark.parametrize("hero", HEROES)
def test_chained_fights_carry_the_wounds(hero, policy):
    skill, stamina, luck = hero
    expected = sum(
        p * win(s, lk, skill, (8, 8), policy)
        for (s, lk), p in fight(stamina, luck, skill, (6, 6), policy).items()
    )
    assert solved("chain", hero, policy) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("hero", HEROES)
def test_a_luck_test_branch(hero):
    skill, stamina, luck = hero
    p = lucky(luck)
    expected = p + (1 - p) * win(stamina, luck - 1, skill, (9, 9), "best")
    assert solved("test-branch", hero, "best") == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("hero", HEROES)
def test_an_item_that_changes_a_later_fight(hero):
    skill, stamina, luck = hero
    with_sword = win(stamina, luck, skill, (10, 10), "best", bonus=2)
    p = lucky(luck)
    sneaking = p + (1 - p) * win(stamina, luck - 1, skill, (10, 10), "best")
    assert solved("item", hero, "best") == pytest.approx(max(with_sword, sneaking), abs=1e-9)


@pytest.mark.parametrize("hero", HEROES)
def test_when_to_eat_the_last_meal(hero):
    skill, stamina, luck = hero

    def second_half(s: int, lk: int, meal: bool) -> float:
        s -= 5
        if s <= 0:
            return 0.0
        if meal:
            s = min(s + 4, stamina)
        return win(s, lk, skill, (8, 9), "best")

    def first_half(start: int, meal_later: bool) -> float:
        return sum(
            p * second_half(s, lk, meal_later)
            for (s, lk), p in fight(start, luck, skill, (7, 7), "best").items()
        )

    eat_now = first_half(min(stamina - 3 + 4, stamina), False)
    eat_later = first_half(stamina - 3, True)
    assert solved("meal", hero, "best") == pytest.approx(max(eat_now, eat_later), abs=1e-9)


@pytest.mark.parametrize("policy", ["best", "none"])
@pytest.mark.parametrize("hero", HEROES)
def test_an_escape_to_death_is_never_taken(hero, policy):
    """Fleeing leads to a death: best play is the plain fight, and the book-optimal Luck
    inside it is the fight-optimal one of the exact DP."""
    skill, stamina, luck = hero
    expected = win(stamina, luck, skill, (10, 12), policy)
    assert solved("escape", hero, policy) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("policy", ["best", "none"])
@pytest.mark.parametrize("hero", HEROES)
def test_an_escape_to_safety_matches_the_exact_exit_odds(hero, policy):
    """Fleeing after 6 assaults leads to the victory: the chance to leave the fight alive,
    escaping when it is better (odds_exits), without Luck on the escape's wound (the book's
    ruleset says so) and with it (df-classic: odds_exits tests Luck on it too)."""
    import dataclasses

    from dedale.rules.odds_exits import ExitPlan, exit_odds

    skill, stamina, luck = hero
    plan = ExitPlan(enemies=((11, 20, False),), escape_after=6)
    no_luck = dataclasses.replace(RULES, fight=dataclasses.replace(RULES.fight, escape_luck=False))
    expected = exit_odds(no_luck, skill, stamina, plan, luck=luck, luck_policy=policy)
    assert solved("flee-no-luck", hero, policy) == pytest.approx(expected, abs=1e-9)
    expected = exit_odds(RULES, skill, stamina, plan, luck=luck, luck_policy=policy)
    assert solved("flee", hero, policy) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    "name",
    [
        "fork",
        "chain",
        "test-branch",
        "item",
        "meal",
        "hub",
        "escape",
        "flee",
        "flee-viper",
        "flee-line",
        "flee-rats",
        "crypte",
    ],
)
def test_shortcuts_agree_with_replaying_everything(name):
    """Reading a plain choice's or a won fight's next node off the state gives the same
    graph values as replaying each answer and outcome through the interpreter."""
    book = load_book(BOOKS / name)
    fast = solve_book(book, (8, 16, 8))
    slow = solve_book(book, (8, 16, 8), shortcuts=False)
    assert fast.complete and slow.complete
    assert fast.win_probability == pytest.approx(slow.win_probability, abs=1e-12)
    assert fast.states == slow.states
