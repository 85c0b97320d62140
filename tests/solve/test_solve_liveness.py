"""Counters and item counts no later rule reads are left out of the solver's state
(:mod:`dedale.solve.liveness`): the answers stay the same, the graphs shrink."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.liveness import Liveness

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
SAMPLES = Path(__file__).parents[2] / "books"


def test_past_the_market_gold_and_the_number_of_torches_decide_nothing():
    liveness = Liveness(load_book(BOOKS / "market"))
    assert "gold" not in liveness.dead(2)  # the market still sells
    assert "gold" in liveness.dead(3) and "gold" in liveness.dead(5)
    assert "meals" not in liveness.dead(3)  # meals are allowed there
    assert "meals" in liveness.dead(5)
    assert liveness.clamped(3, "Torch") and liveness.clamped(2, "Torch")


@pytest.mark.parametrize("hero", [(7, 14, 7), (9, 18, 9)])
def test_pruning_keeps_the_answer_and_shrinks_the_graph(hero):
    book = load_book(BOOKS / "market")
    pruned, full = solve_book(book, hero), solve_book(book, hero, prune=False)
    assert pruned.complete and full.complete
    assert pruned.win_probability == pytest.approx(full.win_probability, abs=1e-12)
    assert pruned.states < full.states


def test_a_count_read_later_is_kept(tmp_path):
    shutil.copytree(BOOKS / "market", tmp_path / "market")
    path = tmp_path / "market" / "book.dd"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("> win -> 7", "> win -> 7\n> lose Torch"), encoding="utf-8")
    book = load_book(tmp_path / "market")
    liveness = Liveness(book)
    assert not liveness.clamped(3, "Torch")
    pruned, full = solve_book(book, (7, 14, 7)), solve_book(book, (7, 14, 7), prune=False)
    assert pruned.win_probability == pytest.approx(full.win_probability, abs=1e-12)


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
        "limit",
    ],
)
def test_pruning_agrees_on_every_solver_book(name):
    book = load_book(BOOKS / name)
    try:
        pruned = solve_book(book, (8, 16, 8))
    except Exception as error:  # a book the solver refuses refuses both ways
        with pytest.raises(type(error)):
            solve_book(book, (8, 16, 8), prune=False)
        return
    full = solve_book(book, (8, 16, 8), prune=False)
    assert pruned.win_probability == pytest.approx(full.win_probability, abs=1e-12)
    assert pruned.states <= full.states


def test_first_steps_is_solved_exactly_and_small():
    book = load_book(SAMPLES / "first-steps")
    result = solve_book(book, (7, 14, 7))
    assert result.complete and result.win_probability == pytest.approx(1.0, abs=1e-12)
    assert result.states < 6_000  # 88,022 before the fight and liveness keys


def test_a_world_reaches_no_paragraph_and_the_order_of_worlds_is_forgotten():
    """`world Base` at the pirate base only records the World: the beacon's codeword,
    asked about at the star map only, is dead there; the three moons visited in any
    order are one state per set of moons (with `prune=False` every order is kept)."""
    book = load_book(BOOKS / "worlds")
    atoms = Liveness(book).atoms
    assert "beacon" not in atoms.names[9] and "charm" in atoms.names[9]
    for hero, class_name in [((7, 17, 9), "Scientifique"), ((9, 18, 10), "Baroudeur")]:
        pruned = solve_book(book, hero, class_name, luck_policy="none")
        full = solve_book(book, hero, class_name, luck_policy="none", prune=False)
        assert pruned.complete and full.complete
        assert pruned.win_probability == pytest.approx(full.win_probability, abs=1e-12)
        assert pruned.states < full.states / 2
