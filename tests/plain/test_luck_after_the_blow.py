"""The reader is told the blow before being asked to test Luck on it (issue 14, session 7):
the plain player asked "Vous subissez une blessure (2) : tenter votre Chance ?" and only then
printed "Assaut 1 … Il vous blesse." The interpreter now emits the assault's line before the
Luck question on its wound, then the test, then the change of ENDURANCE it leaves: the same
order in both players. A small French book played through the plain player with scripted
dice, and through the Textual player with a Pilot."""

from __future__ import annotations

import asyncio
import io

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer

BOOK = """§ 1
Un molosse gronde devant la grille.
> combat
> ennemi le MOLOSSE HABILETÉ 4 ENDURANCE 4
> victoire -> 2

§ 2
> victoire
"""
# the dog wins assault 1 (12 + 4 against 2 + 10), Luck 3+3 (lucky); the hero wins assault 2
# (7 + 10 against 6 + 4), Luck 1+1 (lucky: 4 damage, the dog falls)
DICE = [6, 6, 1, 1, 3, 3, 1, 5, 6, 1, 1, 1]


def _game(tmp_path) -> Game:
    (tmp_path / "book.yaml").write_text(
        "title: Grille\nlanguage: fr\nruleset: df-classic\nstart: 1\n", "utf-8"
    )
    (tmp_path / "book.dd").write_text(BOOK, "utf-8")
    game = Game.new(load_book(tmp_path), 1, hero=(10, 20, 9), name="Ari", lang="fr")
    game.rng.force(list(DICE))
    return game


def _index(lines: list[str], start: str, after: int = -1) -> int:
    return next(i for i, line in enumerate(lines) if i > after and line.startswith(start))


def test_the_plain_player_tells_the_blow_then_asks_for_luck(tmp_path):
    out = io.StringIO()
    PlainPlayer(_game(tmp_path), io.StringIO("o\no\n"), out, echo=True).play()
    lines = out.getvalue().replace("\u00a0", " ").splitlines()
    hit = _index(lines, "Assaut 1 contre le MOLOSSE : vous 12, lui 16. Il vous blesse.")
    asked = _index(lines, "Vous subissez une blessure (2) : voulez-vous tenter votre Chance")
    test = _index(lines, "Test de Chance : 6 contre 9, chanceux")
    wound = _index(lines, "ENDURANCE : 20 -> 19")
    assert hit < asked < test < wound, lines
    struck = _index(lines, "Assaut 2 contre le MOLOSSE : vous 17, lui 10. Vous le blessez.")
    asked = _index(lines, "Vous blessez votre adversaire (2) : voulez-vous tenter", struck)
    test = _index(lines, "Test de Chance : 2 contre 8, chanceux", asked)
    felled = _index(lines, "Le MOLOSSE, ENDURANCE : 4 -> 0", test)
    assert wound < struck < asked < test < felled, lines
    assert sum(line.startswith("Assaut ") for line in lines) == 2  # each assault said once


def test_the_textual_player_logs_the_blow_before_the_luck_question(tmp_path):
    from dedale.player.app import DedaleApp
    from dedale.player.screens.fight import FightScreen
    from dedale.player.screens.prompts import YesNoScreen
    from textual.widgets import RichLog

    game = _game(tmp_path)
    app = DedaleApp(game.book, lambda book: _game(tmp_path), lang="fr")
    logs: list[list[str]] = []  # the fight log each time the Luck question is asked

    def log_lines() -> list[str]:
        fight = next(s for s in app.screen_stack if isinstance(s, FightScreen))
        return [strip.text.replace("\u00a0", " ") for strip in fight.query_one(RichLog).lines]

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for key in ("1", "1"):  # new game, start: the fight's paragraph
                await pilot.press(key)
                await pilot.pause()
            for _ in range(20):
                if isinstance(app.screen, YesNoScreen):
                    logs.append(log_lines())
                    await pilot.press("o")
                elif any(isinstance(s, FightScreen) for s in app.screen_stack):
                    if app.session is not None and app.session.outcome is not None:
                        break
                    await pilot.press("1")
                else:
                    await pilot.press("1")
                await pilot.pause()
                if len(logs) == 2:
                    logs.append(log_lines())
                    break

    asyncio.run(scenario())
    first, second, last = logs
    assert first and first[-1].startswith("Assaut 1 : vous 12, le MOLOSSE 16"), first
    assert "vous blesse" in first[-1], first
    assert second[-1].startswith("Assaut 2 : vous 17, le MOLOSSE 10"), second
    assert "vous blessez" in second[-1], second
    # between the two: the Luck test, then what the wound finally did (19, not 18)
    between = second[len(first) : -1]
    assert any("Chance" in line for line in between), between
    assert any("20 → 19" in line for line in between), between
    assert last[-3:-2] == ["Le MOLOSSE : ENDURANCE 4 → 0"], last  # Luck's 4, not the line's 2
