"""The Smugglers of Gull Rock (books/gull-rock): a demonstration book on ``d20``.

Structural checks (action rolls against named difficulties with their four outcomes,
advantage and disadvantage, attack-against-AC fights), then one winning route per
background, played end to end with fixed seeds, transcripts snapshotted.
"""

from __future__ import annotations

from functools import cache

import pytest
from dedale import ast, events
from scripted_play import check_structure, paragraphs, play_plain, play_route, statements_of

BOOK = "gull-rock"
HERO = (13, 14, 12, 12, 10, 12)  # FOR, DEX, CON, INT, SAG, CHA

# class -> (route, seed)
ROUTES = {
    # Seen on the goat path (the lookout), searches the boats (trained: the ledger), bluffs
    # the guard (advantage), shames the mate away and fights the captain alone.
    "Officer": ((1, 3, 7, 4, 10, 14, 9, 12, 16, 17, 19, 22), 17),
    # Climbs down the cliff (trained: critical success, the password), and fights the mate
    # and the captain one after the other.
    "Sailor": ((1, 2, 5, 4, 9, 11, 16, 18, 19, 22), 0),
}


@cache  # the games are deterministic: play each route once per session
def play(class_name: str):
    route, seed = ROUTES[class_name]
    return play_route(BOOK, route, seed=seed, hero=HERO, class_name=class_name)


def test_structure() -> None:
    check_structure(BOOK, 15, 25)


def test_the_book_shows_the_d20_rules() -> None:
    book = paragraphs(BOOK)
    checks = statements_of(book, ast.D20Test)
    assert {check.advantage for check in checks} == {None, "advantage", "disadvantage"}
    assert len({check.difficulty for check in checks}) >= 3
    for check in checks:
        outcomes = {branch.outcome for branch in check.branches}
        assert outcomes == {"success", "failure", "critical_success", "critical_failure"}
    enemies = [enemy for fight in statements_of(book, ast.Fight) for enemy in fight.enemies]
    assert all("AC" in dict(enemy.stats) for enemy in enemies)


@pytest.mark.parametrize("class_name", sorted(ROUTES))
def test_winning_route(class_name: str, snapshot) -> None:
    played = play(class_name)
    assert played.outcome == "victory"
    assert played.visited == list(ROUTES[class_name][0])
    assert played.transcript == snapshot


def dice_in(played, paragraph: int) -> list[events.DiceRolled]:
    return played.in_paragraph(paragraph, events.DiceRolled)


def test_trained_actions_advantage_and_disadvantage() -> None:
    officer = play("Officer")
    (path,) = dice_in(officer, 3)  # stealth: untrained, disadvantage
    assert path.expression == "1d10" and len(path.faces) == 2
    assert path.total == min(path.faces)
    (search,) = dice_in(officer, 10)  # investigation: trained
    assert search.expression == "1d20" and len(search.faces) == 1
    (bluff,) = dice_in(officer, 12)  # persuasion: trained, advantage
    assert bluff.expression == "1d20" and bluff.total == max(bluff.faces)
    (cliff,) = dice_in(play("Sailor"), 2)  # athletics: trained
    assert cliff.expression == "1d20"
    assert officer.tests_in(10)[0].target == 10  # "easy"


@pytest.mark.parametrize("class_name", sorted(ROUTES))
def test_the_plain_player_plays_the_same_game(class_name: str) -> None:
    route, seed = ROUTES[class_name]
    code, visited = play_plain(BOOK, play(class_name), seed=seed, hero=HERO, class_name=class_name)
    assert (code, visited) == (0, list(route))
