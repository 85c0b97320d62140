"""The interpreter on tests as real books write them (issue 13 §6): optional tests and their
declined branch, tests repeated until success (bounded), modifiers with a condition, Luck
tests with a modifier, two rolls compared, and ROLL / TIRAGE as an amount."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.errors import GameError
from dedale.game import Game
from dedale.game.test_forms import REPEAT_LIMIT
from dedale.language import load_book

from .conftest import of, play

HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"
ENDS = "\n§ 40\n> victory\n§ 41\n> victory\n§ 42\n> victory\n§ 43\n> victory\n"


def game_of(tmp_path, text: str, force=(), hero=(10, 20, 9)) -> Game:
    path = tmp_path / "book.dd"
    path.write_text(HEADER + text + ENDS, "utf-8")
    game = Game.new(load_book(path), 1, hero=hero, name="Ari", lang="en", free_stats=True)
    game.rng.force(list(force))
    return game


def visited(game: Game) -> list[int]:
    return [entry.paragraph for entry in game.state.history]


OPTIONAL = """
§ 1
> test your skill (optional)
> declined -> 40
> success -> 41
> failure -> 42
"""


def test_an_optional_test_asks_first_and_declining_takes_its_branch(tmp_path):
    game = game_of(tmp_path, OPTIONAL)
    items = play(game, [False])
    prompt = of(events.YesNoPrompt, items)[0]
    assert (prompt.kind, dict(prompt.params)) == ("optional_test", {"test": "Skill"})
    assert not of(events.DiceRolled, items)  # no dice thrown when declined
    assert visited(game) == [1, 40]


def test_an_accepted_optional_test_is_rolled(tmp_path):
    game = game_of(tmp_path, OPTIONAL, force=[6, 6])
    items = play(game, [True])
    assert of(events.TestResolved, items)[0].outcome == "failure"
    assert visited(game) == [1, 42]


def test_declining_without_a_declined_branch_reads_on(tmp_path):
    text = "§ 1\n> test your luck (optional)\n> lucky -> 41\n> unlucky -> 42\n> go to 40\n"
    game = game_of(tmp_path, text)
    play(game, [False])
    assert visited(game) == [1, 40]
    assert game.state.hero.stats["LUCK"] == 9  # a declined Luck test costs no Luck


REPEAT = """
§ 1
> test your skill (until success)
> failure: lose 1 STAMINA
> success -> 40
"""


def test_a_repeated_test_rolls_until_success_each_failure_costing(tmp_path):
    game = game_of(tmp_path, REPEAT, force=[6, 6, 5, 6, 1, 2])
    items = play(game, [])
    assert [r.outcome for r in of(events.TestResolved, items)] == ["failure"] * 2 + ["success"]
    assert len(of(events.DiceRolled, items)) == 3  # each roll shown
    assert [m.key for m in of(events.MessageShown, items)] == ["test_again"] * 2
    assert game.state.hero.stats["STAMINA"] == 18
    assert visited(game) == [1, 40]


def test_a_repeated_test_stops_when_the_hero_dies(tmp_path):
    game = game_of(tmp_path, REPEAT, force=[6, 6] * 3, hero=(10, 2, 9))
    items = play(game, [])
    assert len(of(events.TestResolved, items)) == 2
    assert game.state.outcome == "death"
    assert of(events.Death, items)[0].reason == "health"


def test_a_repeated_test_that_can_never_succeed_is_a_located_error(tmp_path):
    text = "§ 1\n> roll 2d6 against gold (until success)\n> success -> 40\n"
    game = game_of(tmp_path, text)
    with pytest.raises(GameError) as raised:
        play(game, [], limit=10 * REPEAT_LIMIT)
    assert raised.value.span.line == 7
    assert str(REPEAT_LIMIT) in str(raised.value.message)


CONDITIONAL = """
§ 1
-> 2 (if not Dagger) Take it
-> 3 Go on
§ 2
> take Dagger
> go to 3
§ 3
> test your skill -1 if Dagger +2 if codeword Blessed
> success -> 40
> failure -> 41
"""


@pytest.mark.parametrize(("choice", "target", "shown"), [(1, 9, ["test_modifier"]), (2, 10, [])])
def test_a_conditional_modifier_counts_only_while_its_condition_holds(
    tmp_path, choice, target, shown
):
    game = game_of(tmp_path, CONDITIONAL, force=[5, 5])
    items = play(game, [choice])
    assert of(events.TestResolved, items)[0].target == target
    assert [m.key for m in of(events.MessageShown, items)] == shown
    assert visited(game)[-1] == (41 if target < 10 else 40)


def test_a_luck_test_takes_a_modifier_and_still_costs_luck(tmp_path):
    text = "§ 1\n> test your luck -2\n> lucky -> 40\n> unlucky -> 41\n"
    game = game_of(tmp_path, text, force=[4, 4])
    items = play(game, [])
    resolved = of(events.TestResolved, items)[0]
    assert (resolved.roll, resolved.target, resolved.outcome) == (8, 7, "failure")
    assert game.state.hero.stats["LUCK"] == 8
    assert visited(game) == [1, 41]


COMPARE = """
§ 1
> roll 2d6 against 2d6 +1 if STAMINA > 15
> higher -> 40
> lower -> 41
> equal -> 42
"""


@pytest.mark.parametrize(
    ("force", "stamina", "outcome", "target"),
    [
        ([3, 3, 2, 2], 20, "higher", 40),
        ([3, 3, 4, 4], 20, "lower", 41),
        ([3, 3, 3, 4], 20, "equal", 42),  # 6 + 1 (STAMINA above 15) against 7
        ([3, 3, 3, 4], 10, "lower", 41),
    ],
)
def test_two_rolls_compared(tmp_path, force, stamina, outcome, target):
    game = game_of(tmp_path, COMPARE, force=force, hero=(10, stamina, 9))
    items = play(game, [])
    rolls = of(events.DiceRolled, items)
    assert [r.purpose for r in rolls] == ["first_roll", "second_roll"]
    assert of(events.MessageShown, items)[-1].key == f"rolls_{outcome}"
    assert visited(game) == [1, target]


def test_an_optional_comparison_asks_without_naming_a_test(tmp_path):
    text = "§ 1\n> roll 1d6 against 1d6 (optional)\n> declined -> 43\n> higher -> 40\n"
    text += "> lower -> 41\n> equal -> 42\n"
    game = game_of(tmp_path, text)
    items = play(game, [False])
    assert of(events.YesNoPrompt, items)[0].kind == "optional_roll"
    assert visited(game) == [1, 43]


ROLL = """
§ 1
> roll 1d6
> lose ROLL STAMINA
> gain ROLL gold
> go to [ROLL + 38]
§ 2
> test your luck
> unlucky: lose ROLL STAMINA
> unlucky -> 41
> lucky -> 40
"""


def test_roll_is_the_total_of_the_last_roll(tmp_path):
    game = game_of(tmp_path, ROLL, force=[4])
    items = play(game, [])
    hero = game.state.hero
    assert (hero.stats["STAMINA"], hero.counters["gold"]) == (16, 4)
    assert len(of(events.DiceRolled, items)) == 1  # ROLL throws nothing more
    assert visited(game) == [1, 42]


def test_roll_after_a_test_is_the_tests_dice(tmp_path):
    game = game_of(tmp_path, ROLL.replace("§ 1", "§ 9").replace("§ 2", "§ 1"), force=[6, 5])
    play(game, [])
    assert game.state.hero.stats["STAMINA"] == 9
    assert visited(game) == [1, 41]


def test_a_loss_of_dice_shows_the_dice(tmp_path):
    text = "§ 1\n> lose 1d6 STAMINA\n> go to 40\n"
    game = game_of(tmp_path, text, force=[5])
    items = play(game, [])
    rolled = of(events.DiceRolled, items)
    assert [(r.faces, r.total) for r in rolled] == [((5,), 5)]
    assert game.state.hero.stats["STAMINA"] == 15


def test_a_dice_test_against_a_stat_counts_the_items_bonuses(tmp_path):
    text = "§ 1\n> take Charm (SKILL +2)\n> roll 2d6 against SKILL\n> success -> 40\n"
    text += "> failure -> 41\n"
    game = game_of(tmp_path, text, force=[6, 5])
    items = play(game, [])
    resolved = of(events.TestResolved, items)[0]
    assert (resolved.roll, resolved.target, resolved.outcome) == (11, 12, "success")


def test_a_failure_that_turns_to_a_paragraph_leaves_a_repeated_test(tmp_path):
    text = "§ 1\n> test your skill (until success)\n> failure: lose 1 STAMINA\n"
    text += "> failure -> 41\n> success -> 40\n"
    game = game_of(tmp_path, text, force=[6, 6])
    items = play(game, [])
    assert len(of(events.TestResolved, items)) == 1
    assert game.state.hero.stats["STAMINA"] == 19
    assert visited(game) == [1, 41]


def test_an_optional_repeated_test_asks_once(tmp_path):
    text = "§ 1\n> test your skill (optional, until success)\n> declined -> 41\n"
    text += "> failure: lose 1 STAMINA\n> success -> 40\n"
    game = game_of(tmp_path, text, force=[6, 6, 1, 1])
    items = play(game, [True])
    assert len(of(events.YesNoPrompt, items)) == 1
    assert [r.outcome for r in of(events.TestResolved, items)] == ["failure", "success"]
    assert visited(game) == [1, 40]
