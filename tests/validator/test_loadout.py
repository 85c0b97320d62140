"""What the hero carries at each fight (issue 14.3): surely and maybe held items."""

from __future__ import annotations

from pathlib import Path

from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.graph import build_graph
from dedale.validator.loadout import item_effects, loadouts

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator" / "loadout-fights.dd"


def _by_enemy(book) -> dict[str, object]:
    graph = build_graph(book)
    found = loadouts(graph, book)
    fights = {
        s.span: s.enemies[0].name
        for node in graph.nodes.values()
        for s in node.paragraph.body
        if hasattr(s, "enemies")
    }
    return {fights[span]: loadout for span, loadout in found.items()}


def test_a_weapon_given_on_every_path_is_surely_held_a_branch_one_maybe():
    orc = _by_enemy(load_book(BOOK))["ORC"]
    assert orc.surely == {"sword"}
    assert orc.maybe == {"shield"}
    assert orc.best == {"sword", "shield"}


def test_an_item_given_up_on_one_path_is_only_maybe_held_and_a_gain_before_the_fight_counts():
    troll = _by_enemy(load_book(BOOK))["TROLL"]
    assert troll.surely == {"torch"}
    assert troll.maybe == {"sword", "shield"}


def test_item_effects_name_the_line_that_gives_the_weapon():
    book = load_book(BOOK)
    effects = item_effects(build_graph(book))
    assert effects["sword"].weapon
    assert set(effects) == {"sword", "shield"}
    assert effects["sword"].span.line == 8


def test_an_inventory_limit_that_can_be_passed_makes_nothing_sure(tmp_path):
    path = tmp_path / "book.dd"
    limited = "ruleset: df-classic\nrules:\n  inventory_limit: 1"
    path.write_text(BOOK.read_text("utf-8").replace("ruleset: df-classic", limited), "utf-8")
    book = load_book(path)
    assert book.ruleset.inventory_limit == 1
    loadouts_by_enemy = _by_enemy(book)
    assert loadouts_by_enemy["TROLL"].surely == set()
    assert loadouts_by_enemy["TROLL"].best == {"sword", "shield", "torch"}


def test_the_loadout_fixture_book_is_clean():
    report = validate_path(BOOK, runs=0)
    assert [(f.code, f.span.line) for f in report.findings] == []
