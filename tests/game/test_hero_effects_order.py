"""A save keeps the items' effects in the order the hero took them: the interpreter makes the
first potion due act first, so a save and a load must not reorder them (they were sorted by
name: two potions both due could act in another order after a load)."""

from __future__ import annotations

from dedale.game.hero import hero_from_dict, hero_to_dict
from dedale.rules import BookItem, Character


def test_the_effects_keep_the_order_taken_through_a_save():
    potion = BookItem(weapon=False, bonuses=(), triggers=(("STAMINA", 4, "<=", "STAMINA", 6),))
    hero = Character(
        stats={"STAMINA": 10},
        initial={"STAMINA": 20},
        items={"Zeste de vie": 1, "Ambre": 1},
        item_effects={"Zeste de vie": potion, "Ambre": potion},
    )
    again = hero_from_dict(hero_to_dict(hero))
    assert list(again.item_effects) == ["Zeste de vie", "Ambre"]
    assert list(again.items) == ["Zeste de vie", "Ambre"]
