"""A fight decided for the book is valued once for every node that enters it with ends
worth the same (:func:`dedale.solve.duel._shared`): the same answers with fewer fills."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import duel, solve_book
from dedale.solve.group_duel import GroupValueTable

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"


def _fills(monkeypatch) -> list[int]:
    count = [0]
    original = GroupValueTable.value

    def value(self, state, terminal=None):
        if terminal is not None:
            count[0] += 1
        return original(self, state, terminal)

    monkeypatch.setattr(GroupValueTable, "value", value)
    return count


@pytest.mark.parametrize(("name", "hero"), [("corde", (9, 18, 9)), ("corde", (7, 14, 7))])
def test_two_nodes_before_the_same_fight_share_its_fill(monkeypatch, name, hero):
    book = load_book(BOOKS / name)
    fills = _fills(monkeypatch)
    shared = solve_book(book, hero, luck_policy="none")
    once = fills[0]
    monkeypatch.setattr(duel, "_shared", lambda table: {})
    fills[0] = 0
    alone = solve_book(book, hero, luck_policy="none")
    assert shared.complete and alone.complete and shared.states == alone.states
    assert shared.win_probability == alone.win_probability  # the same floats
    assert once == 1 and fills[0] == 2  # with the rope and without: one fill, not two


@pytest.mark.parametrize("name", ["ghouls", "gauntlet-together", "together"])
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_answers_do_not_move(monkeypatch, name, policy):
    book = load_book(BOOKS / name)
    shared = solve_book(book, (9, 18, 9), luck_policy=policy, max_states=20_000)
    monkeypatch.setattr(duel, "_shared", lambda table: {})
    alone = solve_book(book, (9, 18, 9), luck_policy=policy, max_states=20_000)
    assert shared.win_probability == alone.win_probability
    assert shared.states == alone.states
