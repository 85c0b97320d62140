"""A choice may note the book's own flags and move its counters (issue 13 §3 with §4): an
outsider's book wrote `-> 2 (perdez 1 Repas, notez chien qui suit)` from the docs."""

from __future__ import annotations

from dedale.events import ChoosePrompt
from dedale.game import Game
from dedale.language import load_book
from dedale.validator import validate_path

FRONT = (
    "---\ntitre: t\njeu de règles: df-classic\nlangue: fr\n"
    "état:\n  drapeaux: [chien qui suit]\n  compteurs: [sacs fouillés]\n---\n"
)
BODY = (
    "§ 1\n-> 2 (perdez 1 Repas, notez chien qui suit, ajoutez 1 à sacs fouillés) Le nourrir\n"
    "-> 3 L'ignorer\n"
    "§ 2\n-> 4 (si chien qui suit et sacs fouillés >= 1) Suivre le chien\n-> 3 Repartir\n"
    "§ 3\n> mort\n§ 4\n> victoire\n"
)


def test_a_choice_notes_a_flag_and_adds_to_a_counter(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(FRONT + BODY, "utf-8")
    game = Game.new(load_book(path), 1, hero=(10, 20, 9), name="Ari", lang="fr")
    for _ in range(100):  # bounded: the book is three choices long
        item = game.next()
        if item is None:
            break
        if isinstance(item, ChoosePrompt):
            game.answer(1)
    assert game.state.flags == {"chien qui suit"}
    assert game.state.counts == {"sacs fouillés": 1}
    assert game.state.outcome == "victory"
    # the state-aware checks see the flag noted by the choice: no false alarm
    codes = {f.code for f in validate_path(path, runs=50, seed=0).findings}
    assert not codes & {"E028", "W029", "W094"}
