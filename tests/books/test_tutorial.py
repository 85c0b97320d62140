"""The Scriptorium (books/tutorial): a tutorial book, one construct of the language per
paragraph. Structural checks (every construct is shown), then the tour played to victory
with a fixed seed, its transcript snapshotted."""

from __future__ import annotations

from dedale import ast
from scripted_play import check_structure, paragraphs, play_plain, play_route, statements_of

BOOK = "tutorial"

# The whole tour, buying the map at §14 and winning the Skill test at §21.
WINNING_ROUTE = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25,
    27, 28, 29, 31, 33,
)  # fmt: skip
HERO = (9, 18, 9)  # SKILL, STAMINA, LUCK
SEED = 0

CONSTRUCTS = (
    ast.Choice, ast.Goto, ast.ChangeValue, ast.GainItem, ast.LoseItem, ast.SetCodeword,
    ast.ClearCodeword, ast.If, ast.MealRule, ast.Test, ast.RandomRoll, ast.Fight, ast.Ending,
)  # fmt: skip


def test_structure() -> None:
    check_structure(BOOK, 25, 45)


def test_every_construct_is_shown() -> None:
    book = paragraphs(BOOK)
    for kind in CONSTRUCTS:
        assert statements_of(book, kind), f"the tour never shows {kind.__name__}"
    ops = {change.op for change in statements_of(book, ast.ChangeValue)}
    assert ops == {"add", "sub", "set", "restore", "raise_initial"}
    fights = statements_of(book, ast.Fight)
    assert {fight.mode for fight in fights} == {"single", "sequence", "together", "as_one"}
    assert any(fight.escape for fight in fights)
    assert any(fight.assault_limit for fight in fights)
    assert any(fight.attack_bonus for fight in fights)
    assert any(fight.enemy_damage for fight in fights)
    choices = statements_of(book, ast.Choice)
    assert any(choice.display == "disabled" for choice in choices)
    assert any(choice.costs for choice in choices)
    assert any(choice.target.label for choice in choices)
    assert any(p.label for p in book.values())


def test_winning_route(snapshot) -> None:
    played = play_route(BOOK, WINNING_ROUTE, seed=SEED, hero=HERO, meals_at=(19,))
    assert played.outcome == "victory"
    assert played.visited == list(WINNING_ROUTE)
    # §13: SKILL 9 < 12, so the leap is shown greyed.
    assert "ChoosePrompt: 14, 16 (disabled)" in played.transcript
    assert played.transcript == snapshot


def test_the_plain_player_plays_the_same_game() -> None:
    played = play_route(BOOK, WINNING_ROUTE, seed=SEED, hero=HERO, meals_at=(19,))
    code, visited = play_plain(BOOK, played, seed=SEED, hero=HERO)
    assert (code, visited) == (0, list(WINNING_ROUTE))
