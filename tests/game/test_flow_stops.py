"""Choices before the rules that follow them (issue 13.5), in the interpreter: each group
of choices is offered where it stands with a go-on option named after the next rule; a
paragraph may have several such stops; a snapshot taken at the second one resumes there;
choices' effects run before the turn (issue 13.3)."""

from __future__ import annotations

from dedale import events
from dedale.game import Game
from dedale.language import load_book

HEAD = "---\ntitle: t\nruleset: df-classic\nlanguage: {lang}\n---\n"
BOOK = """§ 1
-> 2 Run to the boat
> lose 1 STAMINA
-> 3 Hide in the reeds
> roll 1d6
> 1-3: gain 1 gold
> 4-6: lose 1 gold
-> 2 (gain 2 gold, set codeword PAID) Take the ferryman's purse
> go to 3

§ 2
> victory

§ 3
> victory
"""


def _game(tmp_path, lang: str = "en") -> Game:
    path = tmp_path / "book.dd"
    path.write_text(HEAD.format(lang=lang) + BOOK, "utf-8")
    game = Game.new(load_book(path), 1, hero=(10, 20, 9), name="Ari", lang=lang)
    game.rng.force([2])
    return game


def _options(game: Game) -> list[str]:
    prompt = game.prompt
    assert isinstance(prompt, events.ChoosePrompt)
    return [option.text for option in prompt.options]


def test_each_group_of_choices_is_offered_where_it_stands(tmp_path):
    game = _game(tmp_path)
    game.replay([])
    assert _options(game) == ["Run to the boat", "Read on"]
    assert game.state.hero.stats["STAMINA"] == 20  # the loss after the choice not yet run
    game.answer(2)
    game.replay([])
    assert _options(game) == ["Hide in the reeds", "Roll the dice"]
    assert game.state.hero.stats["STAMINA"] == 19
    game.answer(2)  # the roll: 2, one gold
    game.replay([])
    assert _options(game) == ["Take the ferryman's purse", "Read on"]
    assert game.state.hero.counters["gold"] == 1
    game.answer(1)  # the purse: its effects, then paragraph 2
    game.replay([])
    assert game.outcome == "victory"
    assert game.state.paragraph == 2
    assert game.state.hero.counters["gold"] == 3 and game.state.has_codeword("PAID")


def test_the_labels_in_french(tmp_path):
    game = _game(tmp_path, "fr")
    game.replay([2])
    assert _options(game) == ["Hide in the reeds", "Lancer les dés"]
    game.answer(2)
    game.replay([])
    assert _options(game) == ["Take the ferryman's purse", "Lire la suite"]


def test_a_snapshot_at_the_second_stop_resumes_there(tmp_path):
    game = _game(tmp_path)
    game.replay([2])
    state = game.snapshot()
    assert state["stop"] == 2
    resumed = Game(game.book, 5, origin={"state": state, "seed": 5})
    resumed.replay([])
    assert _options(resumed) == ["Hide in the reeds", "Roll the dice"]
    assert resumed.state.hero.stats["STAMINA"] == 19  # not lost twice
    resumed.answer(1)
    resumed.replay([])
    assert resumed.state.paragraph == 3


def test_going_on_past_every_stop_runs_the_whole_paragraph(tmp_path):
    game = _game(tmp_path)
    game.replay([2, 2, 2])
    assert game.outcome == "victory" and game.state.paragraph == 3
    assert "stop" not in game.snapshot()


def test_declarations_after_the_choices_do_not_stop(tmp_path):
    path = tmp_path / "book.dd"
    text = "§ 1\n-> 2 Go on\n> note paragraph camp\n> meal allowed\n\n§ 2\n> victory\n"
    path.write_text(HEAD.format(lang="en") + text, "utf-8")
    game = Game.new(load_book(path), 1, hero=(10, 20, 9), name="Ari", lang="en")
    game.replay([])
    assert _options(game) == ["Go on"]
    assert game.state.marks  # the note ran before the choices were offered


def test_a_choice_before_a_rule_may_kill_by_its_effects(tmp_path):
    path = tmp_path / "book.dd"
    text = (
        "§ 1\n-> 2 (lose 30 STAMINA) Leap into the gorge\n> fight TROLL SKILL 6 STAMINA 4\n"
        "> win -> 2\n\n§ 2\n> victory\n"
    )
    path.write_text(HEAD.format(lang="en") + text, "utf-8")
    game = Game.new(load_book(path), 1, hero=(10, 20, 9), name="Ari", lang="en")
    game.replay([])
    assert _options(game) == ["Leap into the gorge", "Fight TROLL"]
    game.answer(1)
    game.replay([])
    assert game.outcome == "death" and game.state.paragraph == 1
