"""df48.5 in French: classes at creation, the Worlds rule, the inventory limit, if/else."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.game import Game, InvalidAnswer
from dedale.language import load_book

from .conftest import BOOKS, of, play


@pytest.fixture(scope="module")
def mondes():
    return load_book(BOOKS / "mondes.dd")


def test_the_class_is_asked_and_its_kit_given(mondes):
    game = Game.new(mondes, 3, name="Ariane")
    prompt = game.next()
    assert isinstance(prompt, events.ClassPrompt)
    assert prompt.classes == ("Baroudeur", "Mercenaire", "Scientifique")
    with pytest.raises(InvalidAnswer):
        game.answer("Pilote")
    game.answer("scientist")  # any of the class's names, without case or accents
    items = play(game, [])
    hero = game.state.hero
    assert hero.class_name == "Scientifique"
    assert {"BFG 9000", "armure"} <= set(hero.items)
    text = of(events.TextShown, items)[0].text
    assert text.startswith("Ariane le Scientifique attend au spatioport avec ")
    assert [o.text for o in of(events.ChoosePrompt, items)[0].options][-1] == ("Étudier les cartes")


def test_worlds_rule_hides_or_disables_choices_into_visited_worlds(mondes):
    game = Game.new(mondes, 3, name="A", class_name="Mercenaire", hero=(9, 20, 9))
    items = play(game, [1, "caillou"])  # Mars: 8 items + a kit of 3 = 11 > 10
    drops = of(events.DropItemPrompt, items)
    assert drops and drops[0].limit == 10
    assert game.state.hero.item_count() == 10 and "Caillou" not in game.state.hero.items
    assert game.state.worlds == ["Mars"]
    back = play(game, [1])  # back to the spaceport
    options = of(events.ChoosePrompt, back)[-1].options
    assert [(o.target, o.enabled) for o in options] == [(20, True)]  # Mars hidden now
    venus = play(game, [1])
    assert of(events.WorldEntered, venus)[0].world == "Vénus"
    assert game.state.hero.stats["LUCK"] == 10  # the red stone: exceptional +1 over 9
    options = of(events.ChoosePrompt, venus)[-1].options
    assert [o.target for o in options] == [1, 21]
    home = play(game, [1])
    options = of(events.ChoosePrompt, home)[-1].options
    assert [(o.target, o.enabled) for o in options] == [(20, False), (30, True)]
    assert options[0].reason == "vous avez déjà visité le Monde Vénus"


def test_revisit_choice_and_else_branch(mondes):
    game = Game.new(mondes, 4, name="A", class_name="Baroudeur", hero=(9, 20, 9))
    items = play(game, [2])  # straight to Venus: no red stone
    assert game.state.hero.stats["STAMINA"] == 19
    again = play(game, [2] + ["Caillou"])  # (revisit) -> 21 -> go to 10 on Mars
    assert [e.number for e in of(events.ParagraphEntered, items + again)] == [1, 20, 21, 10]
    assert game.state.worlds == ["Vénus", "Mars"]


def test_skill_test_with_a_tagged_modifier(mondes):
    game = Game.new(mondes, 1, name="A", class_name="Mercenaire", hero=(9, 20, 9))
    answers = [1, "Caillou", 1, 1, 1, 2]  # Mars, back, Venus, back, go home
    game.rng.force([5, 1])  # 6 <= 9 - 2 : success
    items = play(game, answers)
    resolved = of(events.TestResolved, items)[-1]
    assert resolved.outcome == "success" and resolved.roll == 6
    assert game.outcome == "victory"
