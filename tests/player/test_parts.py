"""The player's non-Textual parts: texts, the sheet model, narration, the book watcher."""

from __future__ import annotations

import os

from dedale import events as ev
from dedale.player.narration import describe
from dedale.player.session import SheetModel
from dedale.player.texts import Texts, normalise_language
from dedale.player.watch import BookWatcher


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
    sheet = SheetModel()
    ids = frozenset({"SKILL", "STAMINA"})
    sheet.apply(ev.StatChanged(name="STAMINA", old=20, new=18, initial=22), ids)
    sheet.apply(ev.StatChanged(name="gold", old=0, new=5, initial=5, who="counter"), ids)
    sheet.apply(ev.ItemGained(item="Rope", count=2), ids)
    sheet.apply(ev.ItemLost(item="Rope", count=2), ids)
    sheet.apply(ev.CodewordChanged(codeword="Raven", is_set=True), ids)
    sheet.apply(ev.WorldEntered(world="Kaal"), ids)
    sheet.apply(ev.MealEaten(stamina_gained=4, meals_left=3), ids)
    assert sheet.stats == {"STAMINA": (18, 22)}
    assert sheet.counters == {"gold": 5, "meals": 3}
    assert not sheet.items and sheet.codewords == {"Raven"} and sheet.worlds == ["Kaal"]


def test_narration_uses_ruleset_names_and_interface_language():
    names = {"SKILL": "HABILETÉ", "LUCK": "CHANCE"}.get
    texts = Texts("fr")
    line = describe(
        ev.TestResolved(name="LUCK", roll=5, target=9, outcome="success"),
        texts,
        lambda s: names(s) or s,
    )
    assert "CHANCE : 5 obtenu contre 9" in line and "Chanceux" in line
    assault = ev.AssaultResolved(
        number=2,
        enemy="Orc",
        hero_strength=18,
        enemy_strength=15,
        winner="hero",
        enemy_damage_taken=2,
    )
    assert "vous blessez Orc (-2)" in describe(assault, texts, str)


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
    assert win_chance(book, sheet, goblin, mode="together") is None
