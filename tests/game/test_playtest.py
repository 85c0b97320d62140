"""Playtest tools of the Game: jump, edit a value, force dice, god mode — all replayable."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.game import Game, InvalidAnswer
from dedale.game.saving import load_game, save_game
from dedale.language import load_book

from .conftest import BOOKS


@pytest.fixture(scope="module")
def bench():
    return load_book(BOOKS / "playtest.dd")


def at_choice(game: Game) -> tuple[list, events.ChoosePrompt]:
    """Pull events up to the next choice prompt."""
    seen = []
    while not isinstance(item := game.next(), events.ChoosePrompt):
        assert item is not None, "the game ended"
        seen.append(item)
    return seen, item


def new(bench) -> Game:
    return Game.new(bench, 3, hero=(10, 20, 9), name="Ada")


def test_without_god_mode_the_trap_kills(bench):
    game = new(bench)
    at_choice(game)
    game.answer(1)
    while game.next() is not None:
        pass
    assert game.outcome == "death"


def test_god_mode_spares_the_hero_and_replays(bench, tmp_path):
    game = new(bench)
    at_choice(game)
    game.set_god_mode(True)
    seen, _ = at_choice(game)
    assert events.MessageShown(key="god_mode_on", params=()) in seen
    game.answer(1)
    seen, prompt = at_choice(game)
    assert game.god_mode and game.state.paragraph == 2 and not game.over
    assert events.MessageShown(key="god_mode_spared", params=()) in seen
    assert game.state.hero.stats["STAMINA"] == 20
    assert [o.target for o in prompt.options] == [3]
    save_game(game, tmp_path / "god.json")
    loaded, _ = load_game(bench, tmp_path / "god.json")
    assert loaded.snapshot() == game.snapshot()


def test_jump_goes_to_the_paragraph(bench):
    game = new(bench)
    at_choice(game)
    game.jump_to(3)
    while game.next() is not None:
        pass
    assert game.outcome == "victory"
    assert game.decisions[-1] == {"action": "jump", "to": 3}
    with pytest.raises(InvalidAnswer):
        new(bench).jump_to(3)  # not at a choice yet


def test_jump_to_a_missing_paragraph_changes_nothing(bench):
    game = new(bench)
    at_choice(game)
    with pytest.raises(InvalidAnswer, match="no paragraph 99"):
        game.jump_to(99)
    assert game.decisions == [] and game.state.paragraph == 1


def test_forced_dice_are_thrown_next_and_replay(bench):
    game = new(bench)
    at_choice(game)
    game.force_dice([6, 6])
    at_choice(game)
    game.answer(2)
    at_choice(game)
    assert game.state.hero.stats["STAMINA"] == 20 - 12
    again = new(bench)
    again.replay(game.decisions)
    assert again.snapshot() == game.snapshot()


def test_set_value_raises_initial_and_sets_counters(bench):
    game = new(bench)
    at_choice(game)
    game.set_value("ENDURANCE", 25)
    seen, _ = at_choice(game)
    assert events.StatChanged(name="STAMINA", old=20, new=25, initial=25) in seen
    game.set_value("gold", 7)
    at_choice(game)
    assert game.state.hero.counters["gold"] == 7
    with pytest.raises(InvalidAnswer):
        game.set_value("MANA", 3)


def test_god_mode_turns_a_lost_fight_into_a_win(bench):
    game = new(bench)
    at_choice(game)
    game.set_god_mode(True)
    at_choice(game)
    game.jump_to(5)
    while (item := game.next()) is not None:
        assert not isinstance(item, events.Prompt) or isinstance(item, events.YesNoPrompt)
        if isinstance(item, events.YesNoPrompt):
            game.answer(False)  # no Luck
    assert game.outcome == "victory" and 5 in game.state.visited
    assert game.state.hero.stats["STAMINA"] == 20


def test_playtest_tools_refuse_huge_or_impossible_values(bench):
    game = new(bench)
    at_choice(game)
    with pytest.raises(InvalidAnswer, match="no paragraph a number too large"):
        game.jump_to(10**5000)
    with pytest.raises(InvalidAnswer, match="a number too large is not a number"):
        game.set_value("gold", 10**5000)
    with pytest.raises(InvalidAnswer, match="a die shows 1 to 1000, not 0"):
        game.force_dice([6, 0])
    assert game.decisions == [] and game.state.paragraph == 1
