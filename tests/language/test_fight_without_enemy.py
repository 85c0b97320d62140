"""A fight line with no enemy is a load error at its line (the game used to stop there at
run time): after enemy lines that already started a fight, the hint says how to write it."""

from __future__ import annotations

import pytest
from dedale.cli import main
from dedale.errors import BookLoadError
from dedale.language import load_book

HEAD = "---\ntitre: La tour\nlangue: {lang}\njeu-de-règles: {ruleset}\n---\n"
AFTER_ENEMY = {
    "d20": "> ennemi Squelette CA 12 attaque +2 dégâts 1d6 PV 9\n> combat\n> victoire -> 2\n",
    "df-classic": "> ennemi GOBELIN HABILETÉ 5 ENDURANCE 4\n> combat\n> victoire -> 2\n",
}


def _book(tmp_path, body: str, lang: str = "fr", ruleset: str = "df-classic"):
    path = tmp_path / "tour.dd"
    text = HEAD.format(lang=lang, ruleset=ruleset) + "§ 1\nUn garde.\n" + body
    path.write_text(text + "\n§ 2\n> victoire\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("ruleset", sorted(AFTER_ENEMY))
def test_a_fight_line_after_the_enemy_lines_is_an_error_with_a_hint(tmp_path, ruleset):
    path = _book(tmp_path, AFTER_ENEMY[ruleset], ruleset=ruleset)
    with pytest.raises(BookLoadError) as caught:
        load_book(path)
    (error,) = caught.value.errors
    assert (error.span.line, error.span.column) == (9, 3)
    assert error.render(lang="fr").splitlines()[0].endswith("ce combat n'a pas d'ennemi")
    assert "les lignes d'ennemi au-dessus commencent déjà un combat" in error.render(lang="fr")


def test_a_fight_line_with_nothing_after_it(tmp_path, capsys):
    path = _book(tmp_path, "> fight\n> win -> 2\n", lang="en")
    assert main(["validate", str(path), "--runs", "0"]) == 1
    out = capsys.readouterr().out
    assert "tour.dd:8:3: error E002 this fight has no enemy" in out
    assert "write its enemies on the lines after it" in out


@pytest.mark.parametrize(
    "body",
    [
        "> combat\n> ennemi GOBELIN HABILETÉ 5 ENDURANCE 4\n> victoire -> 2\n",
        "> ennemi GOBELIN HABILETÉ 5 ENDURANCE 4\n> victoire -> 2\n",
        "> combat ensemble\n> ennemi RAT HABILETÉ 5 ENDURANCE 4\n"
        "> ennemi CHAT HABILETÉ 5 ENDURANCE 4\n> victoire -> 2\n",
    ],
)
def test_fights_with_their_enemies_load(tmp_path, body):
    assert load_book(_book(tmp_path, body)).paragraphs[1].body
