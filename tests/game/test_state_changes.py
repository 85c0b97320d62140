"""State changes (issue 13 §7) in the interpreter: lowering an initial value, stat
triggers on items, penalties until an item is found, inventory limits with exemptions,
optional pick-ups and dropping, shops selling counters — one small book each."""

from __future__ import annotations

from dedale.game import Game
from dedale.language import load_book
from dedale.rules.character import Character

from .conftest import play

HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"


def book_of(tmp_path, text: str, header: str = HEADER):
    path = tmp_path / "book.dd"
    path.write_text(header + text, "utf-8")
    return load_book(path)


def new_game(book, force=(), hero=(10, 20, 9)) -> Game:
    game = Game.new(book, 1, hero=hero, name="Ari", lang="en", free_stats=True)
    game.rng.force(list(force))
    return game


LOWER = """
§ 1
> lower initial SKILL by 2
> diminuez votre HABILETÉ initiale de 1
> reduce your LUCK initial by 20
> lower initial meals by 3
-> 2 On
§ 2
> victory
"""


def test_lower_initial_brings_the_current_value_down(tmp_path):
    game = new_game(book_of(tmp_path, LOWER))
    play(game, [1])
    hero = game.state.hero
    assert (hero.initial["SKILL"], hero.stats["SKILL"]) == (7, 7)
    assert (hero.initial["LUCK"], hero.stats["LUCK"]) == (0, 0)  # never below 0
    assert hero.counters["meals"] == 7  # a counter: its starting value less 3
    assert game.state.outcome == "victory"


def test_lower_initial_keeps_a_current_value_already_below():
    hero = Character(stats={"SKILL": 6}, initial={"SKILL": 10})
    assert hero.lower_initial("SKILL", 2) == (6, 6) and hero.initial["SKILL"] == 8


def test_lower_initial_leaves_an_uncapped_stat_above():
    hero = Character(stats={"SKILL": 12}, initial={"SKILL": 10}, uncapped=frozenset({"SKILL"}))
    assert hero.lower_initial("SKILL", 3) == (12, 12) and hero.initial["SKILL"] == 7
