"""A solve cut short: its lower bound (the states not explored counted as lost) and its upper
bound (counted as won) frame the complete answer; the order the states are expanded in
(depth-first, the default, or breadth-first) changes neither the answer nor the state count
of a complete solve."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.graph import upper_bound
from dedale.solve.model import Chance, Decision, Leaf, Next

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
HERO = (9, 18, 9)
# a hub (a loop), chained fights with meals, a fork, an escape, a test branch, the book's Luck
CASES = [
    ("hub", "none"), ("meal", "none"), ("meal", "best"), ("fork", "best"),
    ("flee-viper", "none"), ("test-branch", "none"), ("rat-loop", "none"), ("purse", "none"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "policy"), CASES)
def test_the_order_changes_nothing_once_complete(name, policy):
    book = load_book(BOOKS / name)
    deep = solve_book(book, HERO, luck_policy=policy)
    wide = solve_book(book, HERO, luck_policy=policy, depth_first=False)
    assert deep.complete and wide.complete
    assert deep.states == wide.states
    assert deep.win_probability == pytest.approx(wide.win_probability, abs=1e-9)
    assert deep.upper_bound == deep.win_probability  # complete: the bounds meet


@pytest.mark.parametrize(("name", "policy"), CASES)
@pytest.mark.parametrize("depth_first", [True, False])
def test_a_cut_solve_frames_the_answer(name, policy, depth_first):
    book = load_book(BOOKS / name)
    full = solve_book(book, HERO, luck_policy=policy).win_probability
    cut_seen = False
    for cap in (0, 1, 3, 8, 21, 55, 144, 377):
        result = solve_book(book, HERO, luck_policy=policy, max_states=cap,
                            depth_first=depth_first)  # fmt: skip
        low, high = result.win_probability, result.upper_bound
        assert low - 1e-9 <= full <= high + 1e-9, (cap, low, full, high)
        if result.complete:
            assert low == pytest.approx(full, abs=1e-9) and high == low
        else:
            cut_seen = True
            assert result.limit == "states" and result.expanded < result.states
    assert cut_seen


def test_depth_first_reaches_an_ending_where_breadth_first_does_not():
    # meal: two fights with meals between them (60 states); 30 are not enough for a wide
    # search to reach the victory, the deep one has solved whole lines down to it
    book = load_book(BOOKS / "meal")
    full = solve_book(book, HERO, luck_policy="none").win_probability
    deep = solve_book(book, HERO, luck_policy="none", max_states=30)
    wide = solve_book(book, HERO, luck_policy="none", max_states=30, depth_first=False)
    assert not deep.complete and not wide.complete
    assert wide.win_probability == 0.0
    assert 0.5 < deep.win_probability <= full + 1e-9 < deep.upper_bound < 1.0


def test_the_upper_bound_of_a_small_graph_by_hand():
    # 0: a choice between a coin (1: won on heads, else node 2) and node 3;
    # 2 and 3 not explored. Lost-counted: max(0.5, 0) = 0.5; won-counted: max(1, 1) = 1,
    # and with only node 2 cut: max(0.5 + 0.5 * 1, value of 3 = 0.25) = 1.
    trees = [
        Decision(((("c", 0), {}, Next(1)), (("c", 1), {}, Next(3)))),
        Chance(((0.5, None, Leaf(1.0)), (0.5, None, Next(2)))),
        Leaf(0.0),
        Chance(((0.25, None, Leaf(1.0)), (0.75, None, Leaf(0.0)))),
    ]
    assert upper_bound(trees, [False, False, True, True]) == 1.0
    assert upper_bound(trees, [False, False, False, True]) == 1.0  # 3 may win outright
    assert upper_bound(trees, [False, False, True, False]) == 1.0
    trees[3] = Leaf(0.25)
    trees[1] = Chance(((0.5, None, Leaf(0.0)), (0.5, None, Next(2))))
    assert upper_bound(trees, [False, False, True, False]) == 0.5  # max(0.5 * 1, 0.25)
    # a loop back to the choice, its exit not explored: the least fixed point with 1 there
    trees[2] = Chance(((0.5, None, Next(0)), (0.5, None, Leaf(0.0))))
    trees.append(Leaf(0.0))
    trees[3] = Chance(((0.5, None, Next(4)), (0.5, None, Leaf(0.0))))
    # x0 = max(0.5 * x2, 0.5 * x4); x2 = 0.5 * x0; x4 cut (1): x0 = max(0.25 x0, 0.5) = 0.5
    assert upper_bound(trees, [False, False, False, False, True]) == pytest.approx(0.5, abs=1e-12)


def test_the_command_reports_both_bounds(capsys):
    from dedale.cli import main

    full = solve_book(load_book(BOOKS / "meal"), HERO, luck_policy="none").win_probability
    code = main(["solve", str(BOOKS / "meal"), "--hero", "9", "18", "9", "--luck", "none",
                 "--json", "--max-states", "30"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 3 and data["complete"] is False
    assert data["lower_bound"] == data["win_probability"]
    assert data["lower_bound"] <= full + 1e-9 <= data["upper_bound"] + 2e-9
    assert data["upper_bound"] < 1.0
    code = main(["solve", str(BOOKS / "meal"), "--hero", "9", "18", "9", "--luck", "none",
                 "--max-states", "30"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 3 and "at least" in out and "at most" in out
