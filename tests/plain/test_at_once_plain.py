"""A fight against two enemies at once (tests/books_extra/at_once), played end to end in the
plain player's screen-reader mode with scripted dice: the chance announced is the exact
best-Luck chance of the fight at once (no longer left out), the transcript snapshotted;
the validator's rows and path of fights for it are exact (issue 14.1, 14.4)."""

from __future__ import annotations

import io
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer
from dedale.player.odds import percentage
from dedale.rules import fight_odds

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "at_once" / "book.dd"
# enemy, hero, the other enemy, the Luck test; then the last enemy alone: enemy, hero, Luck
DICE = [1, 2, 6, 5, 1, 1, 1, 1, 1, 1, 6, 6, 1, 2]


def _play() -> tuple[int, str]:
    game = Game.new(load_book(BOOK), 1, hero=(8, 14, 9), name="Ari", lang="en")
    game.rng.force(DICE)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO("1\ny\ny\n"), out, echo=True, screen_reader=True).play()
    return code, out.getvalue()


def test_the_fight_at_once_is_read_aloud_with_its_best_luck_chance(snapshot):
    code, text = _play()
    assert code == EXIT_VICTORY
    book = load_book(BOOK)
    exact = fight_odds(
        book.ruleset, 8, 14, [(8, 4), (7, 4)], luck=9, luck_policy="best", mode="together"
    )
    chance = percentage(exact.win_probability, "en")
    assert f"Your chance of winning this fight: {chance}." in text
    assert "without testing your Luck" not in text
    assert text == snapshot


def test_the_validator_is_exact_on_the_fight_at_once():
    from dedale.validator import validate_path

    report = validate_path(BOOK, runs=0)
    assert [f.code for f in report.findings] == []
    (fight,) = report.fights
    assert fight.odds and not any(odds.estimate for odds in fight.odds)
