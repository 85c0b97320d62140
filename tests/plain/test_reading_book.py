"""The "reading" test book (issue 16) played end to end by the plain player as the command
line sets it up for a French book: every choice says "rendez-vous au N" except the computed
one, the paragraph that brings the guard is printed before the fight, and the forced jump
from §2 prints §3 under its own number. The transcript is snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer
from dedale.player.options import show_targets

READING = Path(__file__).resolve().parents[1] / "books_extra" / "reading"
GUARD_FALLS = [1, 1, 6, 6]  # the guard's dice, then the hero's: 22 against 7, a wound of 2


def test_the_reading_book_in_french(snapshot):
    book = load_book(READING)
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ariane")
    game.rng.force(GUARD_FALLS)
    out = io.StringIO()
    player = PlainPlayer(game, io.StringIO("1\n1\nn\n1\n"), out, echo=True)
    player.render.turn_to = show_targets(None, book.meta.language)  # as dedale.plain.command
    assert player.play() == EXIT_VICTORY
    text = out.getvalue()
    assert "  1. Grimper à la corde (rendez-vous au 2)" in text
    assert "  1. Ajoutez vos pièces d'or à 3 et rendez-vous au paragraphe obtenu\n" in text
    assert text.index("un garde somnolent") < text.index("GARDE (HABILETÉ 5")  # text first
    assert text.index("§ 2\n") < text.index("tombez dans le noir") < text.index("§ 3\n")
    assert [entry.paragraph for entry in game.state.history] == [1, 2, 3, 4, 5, 6]
    assert text == snapshot
