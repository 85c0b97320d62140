"""The Textual player in good French (issue 16.5, 16.4, 16.6): the fight narration names
enemies with their article and agrees with their gender and number, the narration and prose
follow French typography, and Textual's own texts (Ctrl-C's toast, the command palette)
speak the player's language."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dedale import events as ev
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.narration import describe
from dedale.player.texts import Texts
from textual.widgets import RichLog

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "articles"
LOST, WON = (6, 6, 1, 1), (1, 1, 6, 6)  # the enemy's two dice, then the hero's
DICE = [*LOST, *WON, *WON, *WON, *WON]


def _app(lang: str) -> DedaleApp:
    def new_game(book):
        game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang=lang)
        game.rng.force(DICE)
        return game

    return DedaleApp(load_book(BOOKS / lang), new_game, lang=lang)


async def _to_first_fight_end(pilot) -> None:
    # new game, start, enter the tower, "Combattre" (the paragraph read first), no Luck twice
    for key in ("1", "1", "1", "1", "n", "n"):
        await pilot.press(key)
        await pilot.pause()


def _fight_log(app: DedaleApp) -> list[str]:
    return [strip.text.rstrip() for strip in app.screen.query_one(RichLog).lines]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "fr",
            [
                "Assaut 1\u00a0: vous 12, le GOBELIN 17\u00a0: Le GOBELIN vous blesse (-2)",
                "Assaut 2\u00a0: vous 22, le GOBELIN 7\u00a0: vous blessez le GOBELIN (-2)",
                "Le GOBELIN est vaincu",
            ],
        ),
        (
            "en",
            [
                "Assault 1: you 12, the GOBLIN 17: The GOBLIN wounds you (-2)",
                "Assault 2: you 22, the GOBLIN 7: you wound the GOBLIN (-2)",
                "The GOBLIN is defeated",
            ],
        ),
    ],
)
def test_the_fight_screen_names_the_enemy_as_a_book_does(lang, expected):
    app = _app(lang)
    seen: list[str] = []

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_first_fight_end(pilot)
            seen.extend(_fight_log(app))

    asyncio.run(scenario())
    for line in expected:
        assert any(line in shown for shown in seen), (line, seen)


def test_a_group_and_a_feminine_enemy_agree():
    texts = Texts("fr", {"Rat gris": "le", "Rat borgne": "le", "GOULE": "la"})

    def line(event: ev.Event) -> str | None:
        return describe(event, texts, str)

    group = ev.AssaultResolved(
        number=1, enemy="Rat gris & Rat borgne", hero_strength=7, enemy_strength=12,
        winner="enemy", hero_damage_taken=2,
    )  # fmt: skip
    assert "Le Rat gris et le Rat borgne vous blessent (-2)" in (line(group) or "")
    assert line(ev.EnemyDefeated(name="Rat gris & Rat borgne")) == (
        "[b]Le Rat gris et le Rat borgne sont vaincus[/b]"
    )
    assert line(ev.EnemyDefeated(name="GOULE")) == "[b]La GOULE est vaincue[/b]"


def test_ctrl_c_and_the_command_palette_speak_french():
    app = _app("fr")
    seen: dict[str, object] = {}

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_first_fight_end(pilot)
            await pilot.press("ctrl+c")
            await pilot.pause()
            seen["toast"] = [(n.message, n.title) for n in app._notifications]
            seen["commands"] = [(c.title, c.help) for c in app.get_system_commands(app.screen)]
            await pilot.press("ctrl+p")
            await pilot.pause()
            seen["placeholder"] = app.screen.query_one("CommandInput").placeholder

    asyncio.run(scenario())
    assert seen["toast"] == [("Appuyez sur [b]q[/b] pour quitter", "Voulez-vous quitter\u202f?")]
    titles = [title for title, _ in seen["commands"]]  # type: ignore[union-attr]
    assert {"Thème", "Quitter", "Touches", "Capture d'écran"} <= set(titles)
    assert (
        "Quitter",
        "Quitter la partie tout de suite (la sauvegarde automatique garde votre place)",
    ) in seen["commands"]  # type: ignore[operator]
    assert seen["placeholder"] == "Chercher une commande…"


def test_the_palette_speaks_english_to_an_english_player():
    app = _app("en")
    seen: list[tuple[str, str]] = []

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_first_fight_end(pilot)
            seen.extend((c.title, c.help) for c in app.get_system_commands(app.screen))

    asyncio.run(scenario())
    assert ("Theme", "Change the colours of the screen") in seen


def test_french_prose_is_typeset_on_the_reading_screen(snap_compare):
    async def play(pilot):
        await pilot.pause()
        for key in ("1", "1"):  # new game, start: §1's prose
            await pilot.press(key)
            await pilot.pause()

    assert snap_compare(_app("fr"), run_before=play, terminal_size=(80, 24))


def test_the_fight_screen_in_french(snap_compare):
    async def play(pilot):
        await pilot.pause()
        for key in ("1", "1", "1", "1", "n", "n"):  # ..., "Combattre", no Luck twice
            await pilot.press(key)
            await pilot.pause()

    assert snap_compare(_app("fr"), run_before=play, terminal_size=(80, 24))


def test_a_group_fight_in_french(snap_compare):
    async def play(pilot):
        await pilot.pause()
        # the goblin's fight, Continue, "Combattre", the two rats as one: two wounds, no Luck
        for key in ("1", "1", "1", "1", "n", "n", "enter", "1", "n", "n"):
            await pilot.press(key)
            await pilot.pause()

    assert snap_compare(_app("fr"), run_before=play, terminal_size=(80, 24))


def test_an_assaults_note_is_in_the_readers_language():
    """A d20 hit is "(touché)" in the Textual fight log, as in the plain player."""
    hit = ev.AssaultResolved(
        number=1, enemy="Brigand", hero_strength=12, enemy_strength=12, winner="hero",
        enemy_damage_taken=6, note="hit",
    )  # fmt: skip
    assert "(touché)" in describe(hit, Texts("fr", {}), str)
    assert "(hit)" in describe(hit, Texts("en", {}), str)


def test_a_blow_that_does_not_wound_and_a_blow_the_ally_takes():
    """The Textual fight log says what the blow did: a hit the armour absorbs (d20 RD,
    df48.5 armour, a lucky Luck test) does not "wound", and a blow the ally takes is said
    once, not "vous blesse" then the ally note."""
    texts = Texts("fr", {"GOULE": "la"})
    absorbed = ev.AssaultResolved(
        number=1, enemy="GOULE", hero_strength=13, enemy_strength=22, winner="enemy",
        hero_damage_taken=0, note="hit",
    )  # fmt: skip
    line = describe(absorbed, texts, str) or ""
    assert "La GOULE vous touche sans vous blesser" in line and "(touché)" not in line
    assert "hits you but does not wound you" in (describe(absorbed, Texts("en", {}), str) or "")
    taken = ev.AssaultResolved(
        number=1,
        enemy="GOULE",
        hero_strength=7,
        enemy_strength=12,
        winner="enemy",
        hero_damage_taken=0,
        note="ally",
    )  # fmt: skip  (the hero takes none of it: the ally's STAMINA falls, on its own bar)
    line = describe(taken, texts, str) or ""
    assert "La GOULE frappe" in line and "votre allié encaisse le coup" in line
    assert "(-" not in line
    assert "vous blesse" not in line and line.count("allié") == 1
    missed = ev.AssaultResolved(
        number=2, enemy="GOULE", hero_strength=12, enemy_strength=8, winner="hero",
        enemy_damage_taken=0, note="hit",
    )  # fmt: skip
    assert "vous touchez la GOULE sans la blesser" in (describe(missed, texts, str) or "")
