"""The interpreter on hidden numbers that belong to their puzzle (issue 13.1): each prompt
opens only its own answers, the choice-line prompt waits among the choices and may be
skipped, what a wrong number does is any rule line, wrong tries are bounded, and the
random player answers from the prompt's answers."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.errors import GameError
from dedale.game import Game
from dedale.game.hidden import MAX_WRONG
from dedale.game.random_player import play_random
from dedale.language import load_book

from .conftest import of, play

HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"


def book_of(tmp_path, text: str):
    path = tmp_path / "book.dd"
    path.write_text(HEADER + text, "utf-8")
    return load_book(path)


def new_game(book) -> Game:
    return Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en", free_stats=True)


def visited(game: Game) -> list[int]:
    return [entry.paragraph for entry in game.state.history]


TWO_PUZZLES = """
§ 1
-> ? (30) The bell's number
-> ? (40) (if Key, disabled) The dial's number
-> 2 Walk away
§ 2
> hidden number (40) otherwise -> 3
§ 3
> death
§ 30
> hidden paragraph
> victory
§ 40
> hidden paragraph
> victory
"""


@pytest.mark.parametrize(("answers", "path", "outcome"), [
    ([1, 30], [1, 30], "victory"),
    ([1, 40, 3, 40], [1, 2, 40], "victory"),  # 40 is the dial's: refused at the bell
    ([1, 0, 3, 2, 30], [1, 2, 3], "death"),  # 0 steps back; 30 is not the directive's
])  # fmt: skip
def test_each_prompt_opens_only_its_own_answers(tmp_path, answers, path, outcome):
    game = new_game(book_of(tmp_path, TWO_PUZZLES))
    items = play(game, answers)
    assert visited(game) == path and game.outcome == outcome
    first = of(events.ChoosePrompt, items)[0].options
    assert [(o.target, o.enabled) for o in first] == [(None, True), (None, False), (2, True)]
    kinds = [p.kind for p in of(events.NumberPrompt, items)]
    assert set(kinds) <= {"hidden_choice", "hidden_number"}


def test_a_refused_number_says_so_and_costs_nothing(tmp_path):
    game = new_game(book_of(tmp_path, TWO_PUZZLES))
    items = play(game, [1, 12])
    (message,) = of(events.MessageShown, items)
    assert (message.key, dict(message.params)) == ("hidden_wrong", {"number": 12})
    assert game.state.hero.stats["STAMINA"] == 20
    assert len(of(events.ChoosePrompt, items)) == 2  # the choices come back


def test_wrong_tries_are_bounded(tmp_path):
    game = new_game(book_of(tmp_path, TWO_PUZZLES))
    items = play(game, [1, 11] * MAX_WRONG)
    last = of(events.ChoosePrompt, items)[-1].options[0]
    assert not last.enabled and str(MAX_WRONG) in last.reason


WRONG_LINES = """
§ 1
-> ? (30) The bell's number
> wrong number: lose 3 STAMINA
-> 2 Walk away
§ 2
> hidden number (30)
> wrong number -> 4
> victory
§ 4
> death
§ 30
> hidden paragraph
> victory
"""


def test_a_wrong_number_at_a_choice_runs_its_lines_then_the_choices_come_back(tmp_path):
    game = new_game(book_of(tmp_path, WRONG_LINES))
    play(game, [1, 7, 1, 8, 2])
    assert game.state.hero.stats["STAMINA"] == 14
    assert visited(game) == [1, 2]


def test_a_wrong_number_line_can_kill(tmp_path):
    text = WRONG_LINES.replace("lose 3 STAMINA", "death")
    game = new_game(book_of(tmp_path, text))
    play(game, [1, 7])
    assert game.outcome == "death" and visited(game) == [1]


def test_the_directive_goes_on_its_wrong_lines(tmp_path):
    game = new_game(book_of(tmp_path, WRONG_LINES))
    play(game, [2, 0])
    assert visited(game) == [1, 2, 4] and game.outcome == "death"


def test_the_directive_without_fallback_reads_on(tmp_path):
    game = new_game(book_of(tmp_path, WRONG_LINES.replace("> wrong number -> 4\n", "")))
    play(game, [2, 5])
    assert visited(game) == [1, 2] and game.outcome == "victory"


def test_an_answer_that_names_no_paragraph_is_a_located_error(tmp_path):
    game = new_game(book_of(tmp_path, "§ 1\n-> ? (99) Guess\n-> 1 Wait\n"))
    with pytest.raises(GameError) as caught:
        play(game, [1, 99])
    assert "99" in caught.value.message and caught.value.span.line == 7


def test_the_random_player_tries_the_answers(tmp_path):
    book = book_of(tmp_path, TWO_PUZZLES)
    seen: set[int] = set()
    for seed in range(40):
        _, result = play_random(book, seed)
        assert result.error is None
        seen.update(result.paragraphs)
    assert {30, 40} <= seen
