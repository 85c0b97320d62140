"""Small French books played from their text to the plain player's screen, with scripted
dice: a fight's defeat exit (`> défaite -> N`: the hero beaten, not killed, turns to N) and
an event of the fight that turns to a paragraph (`quand il gagne un assaut : -> 40`), as
docs/language.md promises them."""

from __future__ import annotations

import io

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

LOSE = (6, 6, 1, 1)  # the enemy rolls 12, the hero 2
WIN = (1, 1, 3, 4)  # the enemy rolls 2, the hero 7
HEAD = "---\ntitle: t\nlanguage: fr\n---\n"


def play(tmp_path, text: str, dice, hero=(7, 4, 9), script: str = "") -> tuple[int, str, Game]:
    path = tmp_path / "livre.dd"
    path.write_text(HEAD + text, "utf-8")
    game = Game.new(load_book(path), 1, hero=hero, name="Ari", lang="fr", free_stats=True)
    game.rng.force(list(dice))
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(script + "n\n" * 20), out, echo=True).play()
    return code, out.getvalue().replace("\xa0", " ").replace("\u202f", " "), game


ARENA = (
    "§ 1\nLe champion de l'arène vous attend.\n> combat CHAMPION HABILETÉ 12 ENDURANCE 20\n"
    "> défaite -> 3\n> victoire -> 2\n\n§ 2\n> victoire\n\n"
    "§ 3\nVous vous réveillez dans une cellule.\n> gagnez 4 ENDURANCE\n-> 2 Vous évader\n"
)


def test_a_defeat_exit_turns_there_with_the_hero_alive(tmp_path):
    code, text, game = play(tmp_path, ARENA, LOSE * 2, script="n\nn\n1\n")
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == [1, 3, 2]
    lines = text.splitlines()
    at = lines.index("Vous perdez le combat.")
    assert lines[at + 1 : at + 3] == [
        "Vous survivez à la défaite.",
        "ENDURANCE : 0 -> 1 (total de départ 4)",
    ]
    assert "ENDURANCE : 1 -> 4 (total de départ 4)" in lines  # § 3 gives some back
    assert "mort" not in text.lower()


def test_without_a_defeat_exit_losing_is_death(tmp_path):
    code, text, game = play(tmp_path, ARENA.replace("> défaite -> 3\n", ""), LOSE * 2)
    assert code == EXIT_DEATH
    assert [entry.paragraph for entry in game.state.history] == [1]
    assert "Vous survivez" not in text


VIPER = (
    "§ 1\n> combat VIPÈRE HABILETÉ 5 ENDURANCE 4\n> quand il gagne un assaut : -> 40\n"
    "> victoire -> 2\n\n§ 2\n> victoire\n\n§ 40\nLe venin vous paralyse.\n> mort\n"
)


def test_an_event_of_the_fight_turns_to_a_paragraph(tmp_path):
    code, text, game = play(tmp_path, VIPER, WIN + LOSE, hero=(7, 20, 9))
    assert code == EXIT_DEATH
    assert [entry.paragraph for entry in game.state.history] == [1, 40]
    assert "Assaut 2 contre VIPÈRE : vous 9, lui 17. Il vous blesse." in text
    assert "Le venin vous paralyse." in text
    won = play(tmp_path, VIPER, WIN * 2, hero=(7, 20, 9))
    assert won[0] == EXIT_VICTORY  # the event never happened


def test_the_english_arrow_alike(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: t\nlanguage: en\n---\n§ 1\n> fight VIPER SKILL 5 STAMINA 4\n"
        "> when it wounds you: -> 40, set codeword BITTEN\n> win -> 2\n\n§ 2\n> victory\n\n"
        "§ 40\n> victory\n",
        "utf-8",
    )
    book = load_book(path)
    effects = book.paragraphs[1].body[0].rules[0].effects
    assert [type(e).__name__ for e in effects] == ["Goto", "SetCodeword"]
