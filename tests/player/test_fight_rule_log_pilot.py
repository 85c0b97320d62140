"""The Textual fight screen logs the stat changes an event written under the enemy makes
(``quand il gagne un assaut : perdez 4 ENDURANCE``, ``quand vous gagnez un assaut : son
HABILETÉ -1``), as the plain player does; the assault's own wounds stay on its line."""

from __future__ import annotations

import asyncio
import io

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer
from dedale.player.app import DedaleApp
from textual.widgets import RichLog

BOOK = (
    "---\ntitle: t\nlanguage: fr\nstate:\n  counters: [morsures]\n---\n"
    "§ 1\nUne vipère surgit.\n> combat VIPÈRE HABILETÉ 5 ENDURANCE 4\n"
    "> quand il gagne un assaut : perdez 4 ENDURANCE\n"
    "> quand il gagne un assaut : ajoutez 1 à morsures\n"
    "> quand vous gagnez un assaut : son HABILETÉ -1\n"
    "> victoire -> 2\n\n§ 2\n> victoire\n"
)
LOST, WON = (6, 6, 1, 1), (1, 1, 6, 6)  # the enemy's two dice, then the hero's
DICE = [*LOST, *WON, *WON]
HERO = (10, 20, 9)  # HABILETÉ, ENDURANCE, CHANCE


def _game(book) -> Game:
    game = Game.new(book, 1, hero=HERO, name="Ari", lang="fr")
    game.rng.force(DICE)
    return game


def _plain(path) -> list[str]:
    out = io.StringIO()
    PlainPlayer(_game(load_book(path)), io.StringIO("n\n" * 10), out, echo=True).play()
    return [line.replace("\xa0", " ") for line in out.getvalue().splitlines()]


def _textual(path) -> list[str]:
    app = DedaleApp(load_book(path), _game, lang="fr")
    seen: list[str] = []

    async def scenario():
        async with app.run_test(size=(110, 36)) as pilot:
            for key in ("1", "1", "1", "n", "n", "n"):  # new game, start, fight, no Luck
                await pilot.press(key)
                await pilot.pause()
            seen.extend(strip.text.rstrip() for strip in app.screen.query_one(RichLog).lines)

    asyncio.run(scenario())
    return [line.replace("\xa0", " ") for line in seen]


def test_the_fight_log_shows_what_the_enemys_events_change(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(BOOK, "utf-8")
    plain = _plain(path)
    # the plain player: the assault's wound (20 -> 18), then the event's loss (18 -> 14)
    assert "ENDURANCE : 18 -> 14 (total de départ 20)" in plain, plain
    assert "morsures : 0 -> 1" in plain, plain
    log = _textual(path)
    at = next(i for i, line in enumerate(log) if line.startswith("Assaut 1 :"))
    assert "VIPÈRE vous blesse (-2)" in log[at], log
    assert log[at + 1] == "ENDURANCE 18 → 14", log  # the event's loss, after the wound
    assert log[at + 2] == "morsures : 0 → 1", log  # a counter of the book the event moves
    assert not any("20 → 18" in line for line in log), log  # the wound is on its line
    assert any(line == "VIPÈRE : HABILETÉ 5 → 4" for line in log), log
