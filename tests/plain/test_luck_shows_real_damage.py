"""The Luck question shows the damage a wound really does (issue 16, the last session's
gap): under ``> il inflige 3`` the question says "(3)", not the ruleset's base "(2)"; the
prompt's ``damage`` keeps the fight's own value, which rules/odds.py's BestLuckPolicy reads,
and ``shown`` carries what the players say."""

from __future__ import annotations

import io

from dedale import events as ev
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer

BOOK = """§ 1
Un molosse gronde devant la grille.
> combat
> ennemi le MOLOSSE HABILETÉ 4 ENDURANCE 9
> il inflige 3
> victoire -> 2

§ 2
> victoire
"""


def _game(tmp_path, lang: str = "fr") -> Game:
    (tmp_path / "book.yaml").write_text(
        "title: Grille\nlanguage: fr\nruleset: df-classic\nstart: 1\n", "utf-8"
    )
    (tmp_path / "book.dd").write_text(BOOK, "utf-8")
    game = Game.new(load_book(tmp_path), 1, hero=(10, 20, 9), name="Ari", lang=lang)
    game.rng.force([6, 6, 1, 1])  # the dog wins the first assault
    return game


def test_the_question_says_the_real_damage(tmp_path):
    game = _game(tmp_path)
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("n\n"), out, echo=True).play()
    text = out.getvalue()
    assert "Vous subissez une blessure (3)" in text, text
    assert "ENDURANCE : 20 -> 17" in text.replace("\u00a0", " ")


def test_the_prompt_keeps_the_fight_damage_for_the_policy(tmp_path):
    game = _game(tmp_path, "en")
    item = game.next()
    while not isinstance(item, ev.YesNoPrompt):
        item = game.next()
    params = dict(item.params)
    assert (item.kind, params["damage"], params["shown"]) == ("use_luck", 2, 3)


def test_the_textual_question_says_it_too(tmp_path):
    from dedale.player.narration import prompt_question
    from dedale.player.texts import Texts

    game = _game(tmp_path, "fr")
    item = game.next()
    while not isinstance(item, ev.YesNoPrompt):
        item = game.next()
    question = prompt_question(item, Texts("fr"))
    assert "(3)" in question and "(2)" not in question, question
