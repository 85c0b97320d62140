"""The interpreter runs every construct against the rules core, with scripted dice."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.game import EAT_ACTION, Game, InvalidAnswer
from dedale.language import load_book

from .conftest import of, play


def new(book, **kw):
    return Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en", **kw)


def test_prose_is_interpolated_with_values_after_its_directives(trail):
    items = play(new(trail), [])
    texts = [e.text for e in of(events.TextShown, items)]
    assert texts[0] == "You are Ari, at the start of the trail. Your STAMINA is 20."
    items = play(new(trail), [1])
    assert "A pedlar sells a lantern. You now have 3 gold." in [
        e.text for e in of(events.TextShown, items)
    ]


def test_conditions_hide_or_disable_choices_with_a_reason(trail):
    game = new(trail)
    prompt = of(events.ChoosePrompt, play(game, []))[-1]
    assert [(o.index, o.target, o.enabled) for o in prompt.options] == [
        (1, 2, True),
        (2, 3, False),
    ]  # the Lantern choice is hidden, the codeword one disabled
    assert prompt.options[1].reason == "you need the codeword FOX"
    with pytest.raises(InvalidAnswer):
        game.answer(2)
    assert game.decisions == []


def test_costs_are_checked_and_paid(trail):
    game = new(trail)
    items = play(game, [1, 1])
    prompt = of(events.ChoosePrompt, items)[1]
    assert prompt.options[1].reason == "costs 10 Gold pieces"
    assert game.state.hero.counters["gold"] == 1
    assert game.state.hero.items == {"Lantern": 1}
    assert game.state.has_codeword("fox")


def test_luck_test_branches_and_death_outside_a_fight(trail):
    game = new(trail)
    game.rng.force([6, 6])  # unlucky: 12 > 9
    items = play(game, [1, 3, 1, 2])  # walk on, unlucky, go on, jump into the river
    resolved = of(events.TestResolved, items)[0]
    assert (resolved.outcome, resolved.roll, resolved.target) == ("failure", 12, 9)
    assert game.state.hero.stats["LUCK"] == 8
    assert of(events.Death, items) and game.outcome == "death" and game.over
    assert game.next() is None


def test_dice_table_and_fight(trail):
    game = new(trail)
    # luck 2+2 lucky; table 1 -> 11; fight: enemy 1+1+5=7 vs hero 6+6+10=22, twice
    game.rng.force([2, 2, 1, 1, 1, 6, 6, 1, 1, 6, 6])
    items = play(game, [1, 3, 1, False, False])
    assert [e.number for e in of(events.ParagraphEntered, items)] == [1, 2, 7, 8, 9, 11, 12]
    assert of(events.FightEnded, items)[0].outcome == "won"
    assert game.outcome == "victory"


def test_eating_is_an_action_logged_and_replayed(trail):
    game = new(trail)
    play(game, [1])
    game.state.hero.change("STAMINA", -6)
    assert game.can_eat()
    eaten = game.eat()
    assert of(events.MealEaten, eaten)[0].stamina_gained == 4
    assert game.decisions == [1, EAT_ACTION]
    assert isinstance(game.next(), events.ChoosePrompt)  # asked again


def test_meals_only_where_the_paragraph_allows_them_in_df_classic(trail):
    game = new(trail)
    play(game, [])
    assert not game.can_eat()
    with pytest.raises(InvalidAnswer):
        game.eat()


def test_undo_goes_back_a_paragraph_with_the_same_dice(trail):
    game = new(trail)
    first = play(game, [1, 3])
    roll = of(events.TestResolved, first)[0].roll
    assert game.state.paragraph in (7, 8)
    game.undo()
    assert game.state.paragraph == 2 and game.decisions == [1]
    again = play(game, [3])
    assert [e.number for e in of(events.ParagraphEntered, again)][:2] == [2, 7]
    assert of(events.TestResolved, again)[0].roll == roll  # the same dice come again
    game.rewind_to(0)
    assert game.state.paragraph == 1 and game.decisions == []
    with pytest.raises(Exception, match="nothing to undo"):
        game.undo()


def test_creation_asks_the_name_when_not_given(trail):
    game = Game.new(trail, 5, lang="fr")
    shown = []
    while not isinstance(prompt := game.next(), events.Prompt):
        shown.append(prompt)
    assert isinstance(prompt, events.NamePrompt) and prompt.default == "Héros"
    rolls = [e for e in shown if isinstance(e, events.DiceRolled)]
    assert [r.purpose for r in rolls] == ["SKILL", "STAMINA", "LUCK"]
    assert [r.expression for r in rolls] == ["1d6+6", "2d6+12", "1d6+6"]
    game.answer("")
    play(game, [])
    assert game.state.name == "Héros"
    assert 7 <= game.state.hero.initial["SKILL"] <= 12
    assert game.state.hero.initial["SKILL"] == rolls[0].total == 6 + rolls[0].faces[0]


def _reroll_book(tmp_path, policy):
    path = tmp_path / "reroll.dd"
    path.write_text(
        f"---\ntitle: R\nruleset: df-classic\ncreation:\n  reroll: {policy}\n---\n"
        "§ 1\nThe end.\n> victory\n",
        "utf-8",
    )
    return load_book(path)


@pytest.mark.parametrize(("policy", "asked"), [("never", 0), ("once", 1), ("unlimited", 3)])
def test_creation_reroll_policy(tmp_path, policy, asked):
    game = Game.new(_reroll_book(tmp_path, policy), 11, name="Ada")
    questions = 0
    while (item := game.next()) is not None:
        if isinstance(item, events.YesNoPrompt):
            assert item.kind == "reroll"
            questions += 1
            game.answer(questions < 3)  # yes, yes, then no
    assert questions == asked
    assert len(game.rng.log) == 4 * (1 + min(asked, 2))  # 1 + 2 + 1 dice per roll
    replayed = Game.new(_reroll_book(tmp_path, policy), 11, name="Ada")
    replayed.replay(game.decisions)
    assert replayed.state.hero.initial == game.state.hero.initial


def test_too_many_hero_values_is_an_error(trail):
    with pytest.raises(Exception, match="--hero gives 4 values"):
        Game.new(trail, 1, hero=(1, 2, 3, 4))


def test_death_inside_a_test_branch(trail):
    game = Game.new(trail, 1, hero=(10, 2, 9), name="Ari", lang="en", free_stats=True)
    game.rng.force([6, 6])  # unlucky: lose 2 STAMINA, from 2
    items = play(game, [1, 3])
    assert game.outcome == "death" and of(events.Death, items)[0].reason == "health"
    assert "You are bruised." not in [e.text for e in of(events.TextShown, items)]
    assert game.next() is None and game.over
