"""L'Archipel des Étoiles Mortes (books/etoiles-mortes): a science-fiction book on df48.5.

Structural checks, then one winning route per class, each played end to end with a fixed
seed, its transcript snapshotted. The routes show what each class does differently:
class-only choices, tagged piloting penalties ignored or halved, the unarmed fight, meals
eaten between paragraphs, and Worlds that cannot be entered twice.
"""

from __future__ import annotations

from functools import cache

import pytest
from dedale import ast, events
from scripted_play import check_structure, paragraphs, play_plain, play_route, statements_of

BOOK = "etoiles-mortes"

# class -> (route, fixed SKILL/STAMINA/LUCK, paragraphs where a meal is eaten)
ROUTES = {
    # Borrows the xil shuttle (piloting -4 ignored), Givre by force, Korr (interrogates the
    # pillager: FAILLE), Verdance (the unarmed duel: ALLIÉS), the shield frequency, Orrun's
    # flaw.
    "Mercenaire": (
        (1, 2, 3, 6, 10, 11, 12, 15, 17, 19, 10, 20, 21, 23, 25, 27, 29, 10, 30, 31, 33, 35,
         39, 10, 40, 42, 43, 45, 47, 49, 50, 52, 53),
        (10, 22, 9),
        (19, 29, 31, 39, 43, 47, 49),
    ),
    # Waits in the canteen (unarmed brawl at -1), Korr (the cargo hold, then the console by
    # force), Givre up the rope, the crystal blade, two guards at once, sabotage.
    "Baroudeur": (
        (1, 2, 5, 8, 6, 10, 20, 21, 24, 23, 25, 28, 29, 10, 11, 12, 16, 17, 19, 10, 30, 31, 34,
         36, 39, 10, 40, 42, 43, 46, 47, 48, 49, 50, 52, 53),
        (9, 24, 9),
        (8, 24, 29, 19, 31, 39, 43, 47, 49),
    ),
    # Repairs the ship, skips Givre and forces the shield (piloting -5 halved to -2).
    "Scientifique": (
        (1, 2, 4, 6, 10, 30, 31, 33, 35, 39, 10, 20, 21, 23, 25, 26, 29, 10, 40, 41, 43, 45,
         47, 48, 49, 50, 52, 53),
        (9, 18, 11),
        (31, 39, 21, 29, 43, 47, 49),
    ),
}  # fmt: skip
SEEDS = {"Mercenaire": 4, "Baroudeur": 5, "Scientifique": 9}
WORLDS = {11: "Givre", 20: "Korr", 30: "Verdance"}


@cache  # the games are deterministic: play each route once per session
def play(class_name: str):
    route, hero, meals = ROUTES[class_name]
    return play_route(
        BOOK, route, seed=SEEDS[class_name], hero=hero, class_name=class_name, meals_at=meals
    )


def test_structure() -> None:
    check_structure(BOOK, 40, 60)


def test_the_book_shows_the_science_fiction_rules() -> None:
    book = paragraphs(BOOK)
    tags = {tag for test in statements_of(book, ast.Test) for m in test.modifiers for tag in m.tags}
    assert "pilotage" in tags  # the French spelling of df48.5's `piloting` tag
    assert {w.world for w in statements_of(book, ast.OpenWorld)} >= set(WORLDS.values())
    classes = {
        choice.condition.name
        for choice in statements_of(book, ast.Choice)
        if isinstance(choice.condition, ast.HasClass)
    }
    assert classes == {"Scientifique", "Mercenaire"}


@pytest.mark.parametrize("class_name", sorted(ROUTES))
def test_winning_route(class_name: str, snapshot) -> None:
    played = play(class_name)
    assert played.outcome == "victory"
    assert played.visited == list(ROUTES[class_name][0])
    assert played.transcript == snapshot


def test_worlds_cannot_be_entered_twice() -> None:
    played = play("Mercenaire")
    offers = played.choices_in(10)  # the enabled choices at each visit of the star map
    assert 11 in offers[0]
    assert 11 not in offers[1] and 20 in offers[1]
    assert not {11, 20, 30} & set(offers[3])
    # The Worlds already visited are shown greyed, with their reason.
    last = [i for i in played.log if isinstance(i, events.ChoosePrompt)]
    greyed = [p for p in last if {o.target for o in p.options} >= {11, 20, 30, 40}][-1]
    assert [o.enabled for o in greyed.options] == [False, False, False, True]
    assert all(o.reason for o in greyed.options[:3])


def test_classes_act_on_the_tagged_piloting_penalty() -> None:
    hero_skill = {name: ROUTES[name][1][0] for name in ROUTES}
    (shuttle,) = play("Mercenaire").tests_in(3)  # -4 (piloting), ignored
    assert shuttle.target == hero_skill["Mercenaire"]
    (shield,) = play("Scientifique").tests_in(41)  # -5 (piloting), halved
    assert shield.target == hero_skill["Scientifique"] - 2
    (storm,) = play("Mercenaire").tests_in(30)  # -2 untagged: no class helps
    assert storm.target == hero_skill["Mercenaire"] - 2


def test_armour_stops_the_first_wound_of_a_fight() -> None:
    def first_assaults(class_name: str) -> list[events.AssaultResolved]:
        played = play(class_name)
        return [i for i in played.log if isinstance(i, events.AssaultResolved) and i.number == 1]

    for armoured in ("Mercenaire", "Scientifique"):
        assert all(a.hero_damage_taken == 0 for a in first_assaults(armoured))
    assert any(a.note == "armour" for a in first_assaults("Mercenaire"))
    # The Baroudeur carries a rope, not armour: wounded in a first assault.
    assert any(a.hero_damage_taken for a in first_assaults("Baroudeur"))


@pytest.mark.parametrize("class_name", sorted(ROUTES))
def test_the_plain_player_plays_the_same_game(class_name: str) -> None:
    route, hero, _ = ROUTES[class_name]
    code, visited = play_plain(
        BOOK, play(class_name), seed=SEEDS[class_name], hero=hero, class_name=class_name
    )
    assert (code, visited) == (0, list(route))
