"""The book's own flags and counters in play (issue 13 §4): the values a game holds, their
JSON form, the save checks on untrusted saves, and the reason a greyed choice gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale import events
from dedale.errors import SaveError
from dedale.game import Game
from dedale.game.book_state import sheet_rows
from dedale.game.saving import to_save
from dedale.game.state import GameState
from dedale.language import load_book
from dedale.saves import read_save, write_save

STATE = Path(__file__).resolve().parents[1] / "books_extra" / "state"


@pytest.fixture(scope="module")
def book():
    return load_book(STATE)


def run_to_prompt(game: Game, answers: list[int]) -> events.Prompt:
    """Answer the choice prompts in order (by position among enabled options)."""
    answers = list(answers)
    for _ in range(200):
        item = game.next()
        if isinstance(item, events.ChoosePrompt):
            if not answers:
                return item
            enabled = [o for o in item.options if o.enabled]
            game.answer(enabled[answers.pop(0)].index)
    raise AssertionError("no prompt")


def test_the_state_round_trips_through_its_json_form():
    state = GameState(flags={"calf following"}, counts={"lieutenants met": 2})
    data = state.to_dict()
    assert data["flags"] == ["calf following"] and data["counts"] == {"lieutenants met": 2}
    again = GameState.from_dict(json.loads(json.dumps(data)))
    assert (again.flags, again.counts) == (state.flags, state.counts)


def test_a_game_without_book_state_writes_no_new_field():
    data = GameState().to_dict()
    assert "flags" not in data and "counts" not in data  # older saves stay byte-identical


def test_a_greyed_choice_names_the_counter_it_needs(book):
    prompt = run_to_prompt(Game.new(book, 1, hero=(10, 20, 9), name="A", lang="en"), [1, 0, 2])
    greyed = [o for o in prompt.options if not o.enabled]
    assert [o.reason for o in greyed] == ["needs Lieutenants met >= 2"]


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("flags", [3], "flags[0]"),
        ("flags", "calf following", "flags"),
        ("counts", {"lieutenants met": -1}, "counts.lieutenants met"),
        ("counts", {"lieutenants met": "two"}, "counts.lieutenants met"),
    ],
)
def test_a_save_with_bad_flags_or_counts_is_refused_at_the_field(
    book, tmp_path, field, value, problem
):
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", lang="en")
    run_to_prompt(game, [0, 0, 0])
    path = write_save(tmp_path / "s.json", to_save(game))
    data = json.loads(path.read_text("utf-8"))
    data["state"][field] = value
    path.write_text(json.dumps(data, indent=1), "utf-8")
    with pytest.raises(SaveError) as raised:
        read_save(path)
    assert problem in str(raised.value.message)
    span = raised.value.span
    assert span is not None and span.file == str(path)
    key = problem.split(".")[-1].split("[")[0]  # the deepest key of the bad field
    assert f'"{key}"' in path.read_text("utf-8").splitlines()[span.line - 1]


def test_sheet_rows_follow_the_declared_places(book):
    declared = book.meta.state
    rows = sheet_rows(declared, {"calf following", "searched west corridor"}, {})
    assert rows.stats == (("Lieutenants met", "0"),)
    assert rows.notes == ("A calf follows you",)  # the searched flags are hidden


def test_a_greyed_choice_names_how_many_items_it_needs(tmp_path):
    (tmp_path / "b.dd").write_text(
        "---\ntitle: t\nlanguage: en\n---\n§ 1\n> take Torch\n"
        "-> 2 (if 2 Torch, disabled) Light both\n-> 2 Go\n\n§ 2\n> victory\n",
        "utf-8",
    )
    prompt = run_to_prompt(Game.new(load_book(tmp_path / "b.dd"), 1, name="A", lang="en"), [])
    assert [o.reason for o in prompt.options if not o.enabled] == ["you need 2 Torch"]


def test_a_forced_loop_that_counts_gets_out_and_one_past_the_max_is_refused(tmp_path):
    from dedale.game.forced import ForcedLoopError

    def run(limit: int) -> Game:
        (tmp_path / "b.dd").write_text(
            "---\ntitle: t\nlanguage: en\nstate:\n  counters:\n"
            f"    rounds: {{max: {limit}}}\n---\n§ 1\n> go to 4\n\n"
            "§ 4\n> add 1 to rounds\n> if rounds >= 3: go to 2\n> go to 4\n\n§ 2\n> victory\n",
            "utf-8",
        )
        game = Game.new(load_book(tmp_path / "b.dd"), 1, name="A", lang="en")
        while game.next() is not None:
            pass
        return game

    assert run(5).outcome == "victory" and run(5).state.counts == {"rounds": 3}
    with pytest.raises(ForcedLoopError):
        run(2)  # the counter stops at 2: nothing changes any more, the loop is certain
