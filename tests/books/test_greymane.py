"""Greymane (books/greymane): a short book on ``df24`` where the hero is a wolf.

Structural checks (numbering, reachability, endings, the features the book must show) and
an end-to-end game along the winning route with a fixed seed, its transcript snapshotted.
"""

from __future__ import annotations

from dedale import ast
from scripted_play import check_structure, paragraphs, play_plain, play_route, statements_of

BOOK = "greymane"

# The winning route: the ridge, the hounds all at once, the sentry, gnaw the cage, and the
# Iron Warden (immune to the instant kill) at the bridge.
WINNING_ROUTE = (1, 3, 6, 10, 11, 13, 14, 16, 18, 20, 22, 24, 25)
HERO = (10, 20, 9)  # SKILL, STAMINA, LUCK
SEED = 0


def test_structure() -> None:
    check_structure(BOOK, 25, 40)


def test_the_book_shows_the_creature_rules() -> None:
    book = paragraphs(BOOK)
    fights = statements_of(book, ast.Fight)
    enemies = [enemy for fight in fights for enemy in fight.enemies]
    assert any(enemy.immune_instant_kill for enemy in enemies)
    assert any(not enemy.immune_instant_kill for enemy in enemies)
    assert any(fight.mode == "together" and len(fight.enemies) >= 3 for fight in fights)
    assert not statements_of(book, ast.MealRule)  # no provisions: no meal anywhere


def test_winning_route(snapshot) -> None:
    played = play_route(BOOK, WINNING_ROUTE, seed=SEED, hero=HERO)
    assert played.outcome == "victory"
    assert played.visited == list(WINNING_ROUTE)
    assert played.game is not None
    assert played.game.state.hero.counters.get("meals", 0) == 0  # a wolf carries no food
    notes = [line for line in played.transcript if "instant_kill" in line]
    assert notes, "the route shows an instant kill on a double"
    assert played.transcript == snapshot


def test_the_plain_player_plays_the_same_game() -> None:
    played = play_route(BOOK, WINNING_ROUTE, seed=SEED, hero=HERO)
    code, visited = play_plain(BOOK, played, seed=SEED, hero=HERO)
    assert (code, visited) == (0, list(WINNING_ROUTE))
