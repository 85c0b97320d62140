"""The player's non-Textual parts: texts, the sheet model, narration, the book watcher."""

from __future__ import annotations

import io
import os

from dedale import events as ev
from dedale.game import GameState
from dedale.player.narration import describe
from dedale.player.session import SheetLayout, SheetModel
from dedale.player.texts import Texts, normalise_language
from dedale.player.watch import BookWatcher
from dedale.rules import Character, load_ruleset


def test_texts_in_both_languages_with_fallback():
    assert Texts("fr")("sheet.title") == "Feuille d'Aventure"
    assert Texts("en")("sheet.title") == "Adventure Sheet"
    assert Texts("fr")("app.saved", slot=2) == "Sauvegardé dans l'emplacement 2"
    assert Texts("en")("no.such.key") == "no.such.key"
    assert normalise_language("fr-FR") == "fr" and normalise_language("de") == "en"


def test_both_catalogues_have_the_same_keys():
    from dedale.player.texts import _catalogue

    def keys(node, prefix=""):
        for key, value in node.items():
            if isinstance(value, dict):
                yield from keys(value, f"{prefix}{key}.")
            else:
                yield f"{prefix}{key}"

    assert set(keys(_catalogue("fr"))) == set(keys(_catalogue("en")))


def test_sheet_model_follows_events():
    layout = SheetLayout(
        stats=("SKILL", "STAMINA"), counters=("meals", "gold"), meal_counter="meals"
    )
    sheet = SheetModel(layout=layout)
    sheet.apply(ev.StatChanged(name="STAMINA", old=20, new=18, initial=22))
    sheet.apply(ev.StatChanged(name="gold", old=0, new=5, initial=5, who="counter"))
    sheet.apply(ev.ItemGained(item="Rope", count=2))
    sheet.apply(ev.ItemLost(item="Rope", count=2))
    sheet.apply(ev.CodewordChanged(codeword="Raven", is_set=True))
    sheet.apply(ev.WorldEntered(world="Kaal"))
    sheet.apply(ev.MealEaten(stamina_gained=4, meals_left=3))
    assert sheet.stats == {"STAMINA": (18, 22)}
    assert sheet.counters == {"gold": 5, "meals": 3}
    assert not sheet.items and sheet.codewords == {"Raven"} and sheet.worlds == ["Kaal"]


def test_sheet_model_reads_the_real_game_state():
    hero = Character(
        stats={"SKILL": 9, "STAMINA": 15},
        initial={"SKILL": 10, "STAMINA": 20},
        counters={"meals": 4},
        items={"Rope": 2, "Torch": 0},
        class_name="Scout",
    )
    state = GameState(
        hero=hero,
        name="Ariane",
        codewords={"raven": "Raven"},
        worlds=["Kaal"],
        statuses={"poison": {"status": "Poisoned"}},
        item_numbers={"key": 50},
    )
    sheet = SheetModel()
    sheet.refresh(state)
    assert sheet.name == "Ariane" and sheet.class_name == "Scout"
    assert sheet.stats == {"SKILL": (9, 10), "STAMINA": (15, 20)}
    assert sheet.counters == {"meals": 4} and sheet.items == {"Rope": 2}
    assert sheet.codewords == {"Raven"} and sheet.worlds == ["Kaal"]
    assert sheet.statuses == ["Poisoned"] and sheet.item_numbers == {"key": 50}


def _sheet_rows(ruleset_name: str, lang: str, sheet: SheetModel | None = None) -> list[str]:
    from dedale.player.book_view import BookView
    from dedale.player.widgets.adventure_sheet import render_sheet
    from fake_game import fake_book
    from rich.console import Console

    view = BookView(fake_book(ruleset_name))
    sheet = sheet or SheetModel()
    sheet.layout = view.sheet_layout()
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render_sheet(sheet, Texts(lang), lambda ident: view.stat_name(ident, lang)))
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_sheet_lists_the_rulesets_stats_and_counters_in_its_order_and_names():
    sheet = SheetModel(stats={"LUCK": (9, 9), "SKILL": (10, 10)}, counters={"gold": 3, "meals": 7})
    rows = _sheet_rows("df-classic", "fr", sheet)
    labels = [row.split("  ")[0].split(" ")[0] for row in rows]
    assert labels[:4] == ["HABILETÉ", "CHANCE", "Repas", "Pièces"]
    assert rows[2].split() == ["Repas", "7"] and rows[3].split() == ["Pièces", "d'or", "3"]
    assert not any("Mondes" in row for row in rows)  # df-classic has no Worlds
    english = _sheet_rows("df-classic", "en", SheetModel(counters={"meals": 7}))
    assert english[0].split() == ["Provisions", "7"]  # every counter, even before it is known
    assert english[1].split() == ["Gold", "pieces", "0"]


def test_sheet_shows_worlds_only_for_rulesets_with_worlds_or_once_one_was_visited():
    assert any(row.startswith("Worlds visited") for row in _sheet_rows("df48.5", "en"))
    assert not any("Worlds" in row for row in _sheet_rows("reliques", "en"))
    visited = _sheet_rows("reliques", "en", SheetModel(worlds=["Kaal"]))
    assert any(row.split() == ["Worlds", "visited", "Kaal"] for row in visited)
    rows = _sheet_rows("reliques", "fr")
    assert [row.split()[0] for row in rows[:4]] == ["Chance", "Volonté", "Courage", "Pièces"]


def test_narration_uses_ruleset_names_and_interface_language():
    names = {"SKILL": "HABILETÉ", "LUCK": "CHANCE", "luck": "Chance"}.get
    texts = Texts("fr")
    ruleset = load_ruleset("df-classic")
    line = describe(
        ev.TestResolved(name="luck", roll=5, target=9, outcome="success"),
        texts,
        lambda s: names(s) or s,
        outcome_word=lambda test, outcome: ruleset.outcome_name(test, outcome, "fr"),
    )
    assert "Chance\u00a0: 5 obtenu contre 9" in line and "Chanceux" in line
    assault = ev.AssaultResolved(
        number=2,
        enemy="Orc",
        hero_strength=18,
        enemy_strength=15,
        winner="hero",
        enemy_damage_taken=2,
    )
    assert "vous blessez Orc (-2)" in describe(assault, texts, str)
    meal = ev.MealEaten(stamina_gained=3, meals_left=1)
    line = describe(meal, texts, {"VIGOUR": "VIGUEUR"}.get, meal_stat="VIGOUR")
    assert "(+3 VIGUEUR)" in line and "il en reste 1" in line  # the ruleset's meal stat
    full = ev.StatChanged(name="LUCK", old=9, new=9, initial=9)  # a gain at its initial value
    assert describe(full, texts, lambda s: names(s) or s) == "CHANCE reste à 9"
    assert describe(full, Texts("en"), str) == "LUCK stays at 9"


def test_watcher_notices_an_edit_once(tmp_path):
    page = tmp_path / "01.dd"
    page.write_text("# 1\nHello\n", encoding="utf-8")
    watcher = BookWatcher(tmp_path)
    assert not watcher.changed()
    page.write_text("# 1\nHello again\n", encoding="utf-8")
    stamp = page.stat().st_mtime_ns + 10_000_000
    os.utime(page, ns=(stamp, stamp))
    assert watcher.changed()
    assert not watcher.changed()


def test_rules_summary_is_written_from_each_ruleset(repo_root):
    from dedale.language import load_book
    from dedale.player.rules_summary import summarise

    classic = summarise(load_book(repo_root / "books" / "tutorial").ruleset, Texts("fr"))
    assert "HABILETÉ (1d6+6)" in classic and "ENDURANCE −2 pour l'ennemi" in classic
    creature = summarise(load_book(repo_root / "books" / "greymane").ruleset, Texts("en"))
    assert "to the enemy, 1 to you" in creature and "slays the enemy at once" in creature
    d20 = summarise(load_book(repo_root / "books" / "gull-rock").ruleset, Texts("en"))
    assert "1d20 for a trained action" in d20 and "armour class" in d20
    assert summarise(None, Texts("en")) is None


def test_odds_percentages_never_round_to_certainty():
    from dedale.player.odds import percentage

    assert percentage(0.857449, "en") == "85.74 %"
    assert percentage(0.857449, "fr") == "85,74 %"
    assert percentage(0.999995, "en") == "> 99.99 %"
    assert percentage(0.000001, "fr") == "< 0,01 %"
    assert percentage(1.0, "en") == "100.00 %"


def test_odds_hint_uses_the_rules_core(repo_root):
    from dedale.language import load_book
    from dedale.player.book_view import BookView
    from dedale.player.odds import win_chance
    from dedale.rules import fight_odds

    book = BookView(load_book(repo_root / "books" / "tutorial"))
    sheet = SheetModel(stats={"SKILL": (8, 8), "STAMINA": (12, 19), "LUCK": (9, 10)})
    goblin = {"GOBLIN": {"SKILL": (8, 8), "STAMINA": (6, 6)}}
    expected = fight_odds(book.ruleset, 8, 12, [(8, 6)], luck=9, luck_policy="best")
    assert win_chance(book, sheet, goblin) == expected.win_probability
    two = {
        "GOBLIN": {"SKILL": (8, 8), "STAMINA": (6, 6)},
        "ORC": {"SKILL": (7, 7), "STAMINA": (5, 5)},
    }
    at_once = fight_odds(
        book.ruleset, 8, 12, [(8, 6), (7, 5)], luck=9, luck_policy="best", mode="together"
    )  # best Luck at once: exact (the array table)
    assert win_chance(book, sheet, two, mode="together") == at_once.win_probability


def test_odds_hint_of_a_fight_at_once_past_its_bounds_is_its_exact_no_luck_chance(
    repo_root, monkeypatch
):
    from dedale.language import load_book
    from dedale.player import odds
    from dedale.player.book_view import BookView
    from dedale.player.odds import fight_hint
    from dedale.rules import fight_odds, odds_group, odds_group_fast

    monkeypatch.setattr(odds_group_fast, "FAST_CELLS", 10)  # the scalar table, its budget
    monkeypatch.setattr(odds, "_CACHE", {})
    monkeypatch.setattr(odds_group, "_TABLES", {})

    book = BookView(load_book(repo_root / "books" / "tutorial"))
    sheet = SheetModel(stats={"SKILL": (8, 8), "STAMINA": (12, 19), "LUCK": (9, 10)})
    two = {
        "GOBLIN": {"SKILL": (8, 8), "STAMINA": (6, 6)},
        "ORC": {"SKILL": (7, 7), "STAMINA": (5, 5)},
    }
    chance, without_luck = fight_hint(book, sheet, two, mode="together")
    expected = fight_odds(book.ruleset, 8, 12, [(8, 6), (7, 5)], mode="together")
    assert without_luck and chance == expected.win_probability


def test_no_odds_hint_that_would_leave_an_ally_out(tmp_path):
    """The hint computes a fight without its allies: it is left out of a fight with allies
    (whose exact chance, allies counted, is the validator's and ``dedale odds --ally``)."""
    from dedale.language import load_book
    from dedale.player.book_view import BookView
    from dedale.player.odds import plain_fights

    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n§ 1\n"
        "> fight OGRE SKILL 9 STAMINA 12\n> ally BRAN SKILL 8 STAMINA 10\n> win -> 2\n"
        "§ 2\n> fight OGRE SKILL 9 STAMINA 12\n> win -> 3\n§ 3\n> victory\n",
        "utf-8",
    )
    book = BookView(load_book(path))
    assert not plain_fights(book, 1)
    assert plain_fights(book, 2)
