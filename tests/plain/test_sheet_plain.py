"""The sheet test book (issue 16.7-8) through the plain player: the ``feuille`` command shows
a weapon's bonus with its cause, the initial values, tagged items in their own boxes and one
item a line; the payment of a choice is narrated; Luck is not offered on a blow that kills
whatever Luck gives. Transcript snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

SHEET_BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "sheet"


def test_the_sheet_command_and_a_payment(snapshot):
    game = Game.new(load_book(SHEET_BOOK), 1, hero=(9, 20, 9), name="Ari", lang="fr")
    # the rat's attack 1+1 against the hero's 6+5, twice: two wounds of 2 on its 3 STAMINA
    game.rng.force([1, 1, 6, 5, 1, 1, 6, 5])
    out = io.StringIO()
    # sheet, buy, a meal at full STAMINA refused then eaten, sheet, go on, no Luck
    script = "feuille\n1\nmanger\nn\nmanger\no\nfeuille\n1\nn\n"
    code = PlainPlayer(game, io.StringIO(script), out, echo=True).play()
    text = out.getvalue()
    assert code == EXIT_VICTORY
    assert "  HABILETÉ\u00a0: 9 (+1 Épée d'argent) = 10 (au départ 9)" in text
    assert "  Potion\u00a0:\n    Potion d'Adresse\n" in text
    assert "Pièces d'or\u00a0: 10 -> 7" in text  # the lantern's price, narrated
    assert "    Lanterne à double mèche et verre fumé des mines de l'Est\n" in text
    # Luck is offered on the first wound (a bad luck's 1 would leave the rat standing), not
    # on the second: even an unlucky 1 kills it
    assert text.count("tenter votre Chance") == 1
    asked = "Votre ENDURANCE est déjà à son total de départ (20)\u00a0: voulez-vous"
    assert text.count(asked) == 2
    assert text.count("Repas\u00a0: 10 -> 9") == 1  # refused once, eaten once
    assert text == snapshot


def test_the_sheet_book_validates_clean():
    from dedale.validator import validate_path

    report = validate_path(SHEET_BOOK, runs=50)
    assert report.count("error") == 0 and report.count("warning") == 0
    # the (potion)/(bijou) marks only sort the items into the sheet's boxes (no I060 since
    # they are close to no tag of the ruleset); the info is real: the lantern is never needed
    assert sorted(f.code for f in report.findings) == ["I025"]


def _fight(stamina: int, answers: str) -> tuple[int, str]:
    book = load_book(SHEET_BOOK)
    game = Game.new(book, 1, hero=(9, stamina, 9), name="Ari", lang="fr", free_stats=True)
    game.rng.force([6, 6, 1, 1])  # the rat's 4+12 against the hero's 10+2: a wound of 2
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO("2\n" + answers), out, echo=True).play()
    return code, out.getvalue()


def test_no_luck_on_a_wound_that_kills_whatever_luck_gives():
    # STAMINA 1: even a lucky wound (1) kills: the hero is not asked, he dies
    code, text = _fight(1, "")
    assert code == EXIT_DEATH and "Chance" not in text.split("Combat")[1]
    # STAMINA 2: a lucky wound (1) would save him: he is asked
    code, text = _fight(2, "n\n")
    assert code == EXIT_DEATH and "voulez-vous tenter votre Chance" in text
