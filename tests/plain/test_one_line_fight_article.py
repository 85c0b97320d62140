"""The article of a French enemy written on the fight line itself (``> combat la VIPÈRE
GÉANTE HABILETÉ 7 ENDURANCE 8``) gives the narration its gender, as on an ``ennemi`` line;
without it the name is a proper name, narrated in the masculine (docs/fr/language.md § 13
says to write the article: there is no other way to give a gender)."""

from __future__ import annotations

import io

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer

WON = (1, 1, 6, 6)  # the enemy's two dice, then the hero's


def _narration(tmp_path, line: str) -> list[str]:
    path = tmp_path / "livre.dd"
    text = f"---\ntitle: Le marais\nlanguage: fr\n---\n§ 1\n{line}\n> victoire -> 2\n\n"
    path.write_text(text + "§ 2\n> victoire\n", "utf-8")
    game = Game.new(load_book(path), 1, hero=(12, 20, 9), name="Ari", lang="fr")
    game.rng.force(list(WON * 10))
    out = io.StringIO()
    assert PlainPlayer(game, io.StringIO("n\n" * 10), out, echo=True).play() == EXIT_VICTORY
    shown = out.getvalue().replace("\xa0", " ").replace("\u202f", " ")
    return [line for line in shown.splitlines() if "VIPÈRE" in line]


@pytest.mark.parametrize(
    ("line", "assault", "defeated"),
    [
        (
            "> combat la VIPÈRE GÉANTE HABILETÉ 7 ENDURANCE 8",
            "Assaut 1 contre la VIPÈRE GÉANTE : vous 24, elle 9. Vous la blessez.",
            "La VIPÈRE GÉANTE est vaincue.",
        ),
        (
            "> combat VIPÈRE GÉANTE HABILETÉ 7 ENDURANCE 8",
            "Assaut 1 contre VIPÈRE GÉANTE : vous 24, lui 9. Vous le blessez.",
            "VIPÈRE GÉANTE est vaincu.",
        ),
    ],
)
def test_the_article_on_the_fight_line_gives_the_gender(tmp_path, line, assault, defeated):
    shown = _narration(tmp_path, line)
    assert assault in shown, shown
    assert shown[-1] == defeated, shown
