"""The solver's speed-ups and exact reductions of this file's modules, each checked by
solving with it and without it: a meal eaten at once where keeping it cannot be better
(:mod:`dedale.solve.eager`), a paragraph's tree replayed once per part of the state it
reads (:mod:`dedale.solve.templates`), compact node keys (:mod:`dedale.solve.snapshot`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.eager import EagerMeals
from dedale.solve.snapshot import expand, key

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
CLASSIC = [(7, 14, 7), (9, 18, 9), (12, 24, 12)]


def test_a_meal_is_forced_only_where_more_stamina_can_only_help():
    """The larder: camps at 2, 4 and 8. Before the goblins fought at once (6) the target
    is chosen for the fight, not the book; the healer's gain (7) is followed by a camp:
    there, and at every paragraph leading to them, the reader still decides."""
    ok = EagerMeals(load_book(BOOKS / "larder"), "none")._ok
    assert ok[4] and ok[8] and ok[3] and ok[10]
    assert not ok[1] and not ok[2] and not ok[6] and not ok[7]
    assert not EagerMeals(load_book(BOOKS / "larder"), "fight").enabled


@pytest.mark.parametrize(
    "name, hero, policy",
    [("larder", hero, "none") for hero in CLASSIC] + [("larder", (7, 14, 7), "best")]
    + [("meal", (7, 14, 7), "best"), ("meal", (9, 18, 9), "none"),
       ("purse", (7, 14, 7), "none"), ("purse", (9, 18, 9), "none"),
       ("market", (7, 14, 7), "best")],
)  # fmt: skip
def test_eating_at_once_keeps_the_answer(name, hero, policy):
    book = load_book(BOOKS / name)
    eager = solve_book(book, hero, luck_policy=policy)
    offered = solve_book(book, hero, luck_policy=policy, eager=False)
    full = solve_book(book, hero, luck_policy=policy, prune=False)
    assert eager.complete and offered.complete and full.complete
    assert eager.win_probability == pytest.approx(offered.win_probability, abs=1e-12)
    assert eager.win_probability == pytest.approx(full.win_probability, abs=1e-12)
    assert eager.states <= offered.states <= full.states


def test_eating_at_once_shrinks_the_larder():
    book = load_book(BOOKS / "larder")
    eager = solve_book(book, (9, 18, 9), luck_policy="none")
    assert eager.states < solve_book(book, (9, 18, 9), luck_policy="none", eager=False).states


@pytest.mark.parametrize(
    "name, hero, class_name",
    [("purse", (8, 16, 8), None), ("larder", (8, 16, 8), None),
     ("worlds", (7, 17, 9), "Scientifique")],
)  # fmt: skip
def test_templates_give_the_graph_replaying_every_state(name, hero, class_name):
    """The same values and state counts as replaying every answer of every state, with
    fewer replays (the second state of a key reuses the first one's tree)."""
    book = load_book(BOOKS / name)
    fast = solve_book(book, hero, class_name, luck_policy="none")
    slow = solve_book(book, hero, class_name, luck_policy="none", shortcuts=False)
    assert fast.complete and slow.complete
    assert fast.win_probability == pytest.approx(slow.win_probability, abs=1e-12)
    assert fast.states == slow.states
    assert fast.replays < slow.replays


def test_a_node_key_gives_back_the_whole_snapshot():
    data = {
        "codewords": ["HERON"], "death_reason": "", "history": [], "in_fight": False,
        "meal_allowed": False, "name": "-", "outcome": None, "paragraph": None,
        "version": 1, "visited": {"3": 1}, "worlds": [],
        "hero": {"armour_wear": {}, "class": None, "counters": {"gold": 2},
                 "fights_with_armour": 0, "initial": {"SKILL": 9}, "item_effects": {},
                 "items": {}, "protection_worn": {}, "stats": {"SKILL": 9}, "trained": [],
                 "uncapped": ["LUCK"]},
    }  # fmt: skip
    whole = json.loads(json.dumps(data))
    text = key(data)
    assert "death_reason" not in text and "uncapped" in text
    assert expand(text) == whole
