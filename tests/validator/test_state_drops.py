"""The inventory limit's drops (issue 14.11): where more items never close a way, the
explorer may leave the drops out — same reachable paragraphs, same unpassable gates, and the
soft-locks a drop causes found one drop at a time (I158) — and a 400-paragraph book with 50
items and a limit of 10 is checked whole instead of stopping at the time budget."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import state_start
from dedale.validator.graph import build_graph
from dedale.validator.rules_checks import collect_uses
from dedale.validator.softlocks import check_softlocks, may_lose
from dedale.validator.state_monotone import more_items_never_hurt
from dedale.validator.state_reach import check_states

ROOT = Path(__file__).resolve().parents[2]
LIMITED = [
    ROOT / "tests/books_extra/validator/W086-dropped-for-the-limit.dd",
    ROOT / "tests/books_extra/changes",
]


def _explore(path, monkeypatch, trial: int):
    monkeypatch.setattr(state_start, "DROP_TRIAL", trial)
    book = load_book(path)
    graph = build_graph(book)
    uses = collect_uses(graph)
    explorer = state_start.explore_states(
        graph, book, uses, (), None, record=may_lose(graph, book, uses)
    )
    found = check_states(graph, book, uses, (), explorer=explorer)
    found += check_softlocks(explorer, graph, book, uses, ())
    closed = {
        key: frozenset(gate.missing or ())
        for key, gate in explorer.gates.items()
        if not gate.passable
    }
    return explorer, closed, [(f.code, str(f.message), f.span) for f in found]


@pytest.mark.parametrize("path", LIMITED, ids=lambda p: p.name)
def test_leaving_the_drops_out_finds_what_following_them_finds(path, monkeypatch):
    every, closed, found = _explore(path, monkeypatch, 1_000_000)
    assert not every.unfollowed_drops and not every.truncated
    fast, fast_closed, fast_found = _explore(path, monkeypatch, 0)
    assert fast.unfollowed_drops and not fast.truncated
    assert fast.reached == every.reached
    assert fast_closed == closed
    assert fast.count <= every.count
    assert [item for item in fast_found if item[0] != "I158"] == found
    assert [item[0] for item in fast_found].count("I158") == 1


NEGATIVE = """\
§ 1
> take Lantern
> take Rope
-> 2 On

§ 2
-> 3 (if not Lantern) Through the dark
-> 3 On

§ 3
> victory
"""


def test_a_condition_on_an_absent_item_keeps_every_drop(tmp_path, monkeypatch):
    path = tmp_path / "book.dd"
    path.write_text(NEGATIVE, "utf-8")
    (tmp_path / "book.yaml").write_text(
        "title: t\nlanguage: en\nstart: 1\nrules:\n  inventory_limit: 1\n", "utf-8"
    )
    book = load_book(tmp_path)
    graph = build_graph(book)
    assert not more_items_never_hurt(graph, {"lantern", "rope"})
    assert more_items_never_hurt(graph, {"rope"})
    explorer, _, found = _explore(tmp_path, monkeypatch, 0)
    assert not explorer.unfollowed_drops  # followed, whatever their number
    assert "I158" not in [item[0] for item in found]


def test_a_400_paragraph_book_with_an_inventory_limit_is_checked_whole(tmp_path):
    sys.path.insert(0, str(ROOT / "tools" / "bench"))
    from gen_book import write_book

    folder = write_book(tmp_path / "book", 400, items=50, codewords=20, ruleset="df48.5")
    book = load_book(folder)
    graph = build_graph(book)
    uses = collect_uses(graph)
    explorer = state_start.explore_states(graph, book, uses, (), 60.0, record=True)
    assert explorer.unfollowed_drops and not explorer.truncated and not explorer.timed_out
    codes = [f.code for f in check_states(graph, book, uses, (), explorer=explorer)]
    assert "I050" not in codes and "I051" not in codes
    notes = [f for f in check_softlocks(explorer, graph, book, uses, ()) if f.code == "I158"]
    assert len(notes) == 1


def test_the_soft_lock_search_stops_at_its_time_budget(monkeypatch):
    """W086's search has a time budget as well as a count (I051 says it stopped)."""
    from dedale.validator import softlocks

    path = ROOT / "tests/books_extra/validator/W086-dropped-for-the-limit.dd"
    _, _, found = _explore(path, monkeypatch, 1_000_000)
    assert [item[0] for item in found] == ["W086"]
    monkeypatch.setattr(softlocks, "SOFTLOCK_SECONDS", -1.0)  # already past
    _, _, found = _explore(path, monkeypatch, 1_000_000)
    assert [item[0] for item in found] == ["I051"]
    assert "soft-lock" in found[0][1]
    _, _, found = _explore(path, monkeypatch, 0)  # one drop at a time: the same budget
    assert "W086" not in [item[0] for item in found]
