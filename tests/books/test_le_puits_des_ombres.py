"""Le Puits des Ombres (books/le-puits-des-ombres): the default book of ``dedale play``.

Structural checks (every feature the book is meant to show), then two scripted games through
the ``dedale.game.Game`` API with their transcripts snapshotted: the intended winning path
(also written in the book's PLAN.md) played by a median hero, and a reader who reaches the
Sanctum without the Dawn Lantern and sees its choice greyed. Last, ``dedale play --plain``
with no book argument plays the same winning game from stdin.
"""

from __future__ import annotations

import io

from dedale import ast, events
from dedale.cli import main
from dedale.validator import validate_path
from scripted_play import BOOKS, check_structure, paragraphs, play_route, statements_of

BOOK = "le-puits-des-ombres"

# The intended winning path: silver sword, sage balm, the chapel's codeword and offering,
# the rope; the hermit's Dawn Lantern, Thibaut's codeword, the children freed first.
WINNING_PATH = (
    1, 2, 3, 4, 2, 5, 6, 2, 7, 8, 2, 11, 12, 15, 16, 17, 21, 23, 26, 30, 31, 32, 26, 44, 45,
    48, 50, 51, 55, 57, 60, 64, 66, 72, 68, 69, 73, 75, 76, 77, 80, 82, 86, 88,
)  # fmt: skip
MEDIAN_HERO = (9, 19, 9)  # HABILETÉ, ENDURANCE, CHANCE
SEED = 3
MEALS = (72, 75, 75)  # where the hero eats (once per listed occurrence)

# No lantern: the sentry's key opens the Gate of Sighs, Morvenne falls, the Heart remains.
NO_LANTERN_PATH = (
    1, 2, 11, 12, 15, 22, 27, 29, 26, 44, 45, 48, 50, 52, 55, 58, 60, 64, 68, 69, 74, 75, 77,
    78, 81, 79,
)  # fmt: skip
STRONG_HERO = (12, 24, 12)
NO_LANTERN_SEED = 0


def test_structure() -> None:
    check_structure(BOOK, 80, 120)


def test_strict_validation_passes() -> None:
    report = validate_path(BOOKS / BOOK, runs=200, seed=0)
    assert [f for f in report.findings if f.severity in ("error", "warning")] == []


def test_prose_is_compact() -> None:
    for number, paragraph in paragraphs(BOOK).items():
        words = sum(len(s.text.split()) for s in paragraph.body if isinstance(s, ast.Prose))
        assert 40 <= words <= 120, f"§{number} has {words} words"


def test_every_feature_is_shown() -> None:
    book = paragraphs(BOOK)
    kinds = [s.kind for s in statements_of(book, ast.Ending)]
    assert kinds.count("victory") == 1
    assert kinds.count("death") >= 5
    fights = statements_of(book, ast.Fight)
    assert {fight.mode for fight in fights} == {"single", "sequence", "together", "as_one"}
    assert any(fight.escape for fight in fights)
    assert any(fight.assault_limit for fight in fights)
    assert any(fight.attack_bonus for fight in fights)
    assert {test.name for test in statements_of(book, ast.Test)} == {"luck", "skill"}
    assert statements_of(book, ast.RandomRoll)
    gains = statements_of(book, ast.GainItem)
    assert any(gain.weapon and gain.effects for gain in gains)
    choices = statements_of(book, ast.Choice)
    assert any(choice.display == "disabled" for choice in choices)
    assert any(choice.condition and choice.display == "hidden" for choice in choices)
    assert any(cost.counter for choice in choices for cost in choice.costs)
    assert statements_of(book, ast.SetCodeword)
    assert statements_of(book, ast.If)
    assert sum(rule.allowed for rule in statements_of(book, ast.MealRule)) >= 4
    ops = {change.op for change in statements_of(book, ast.ChangeValue)}
    assert {"add", "sub", "raise_initial"} <= ops


def test_the_median_hero_wins(snapshot) -> None:
    played = play_route(BOOK, WINNING_PATH, seed=SEED, hero=MEDIAN_HERO, meals_at=MEALS)
    assert played.outcome == "victory"
    assert played.visited == list(WINNING_PATH)
    # §21: the chapel's codeword opens the hermit's greyed choice.
    assert played.choices_in(21) == [(23, 24, 26)]
    # §82: the children were freed at §66, so the book jumps straight to §86.
    assert played.visited[-3:] == [82, 86, 88]
    assert played.transcript == snapshot


def test_without_the_lantern_the_heart_wins(snapshot) -> None:
    played = play_route(BOOK, NO_LANTERN_PATH, seed=NO_LANTERN_SEED, hero=STRONG_HERO)
    assert played.outcome == "death"
    assert played.visited == list(NO_LANTERN_PATH)
    assert "ChoosePrompt: 82 (disabled), 79, 83" in played.transcript
    assert played.transcript == snapshot


def plain_answers(played) -> str:
    """The stdin lines that make the plain player repeat a scripted game."""
    lines: list[str] = []
    log = played.log
    for at, item in enumerate(log):
        if isinstance(item, events.MealEaten):
            lines.append("manger")
        elif isinstance(item, events.YesNoPrompt):
            lines.append("n")
        elif isinstance(item, events.TargetPrompt):
            lines.append("1")
        elif isinstance(item, events.ChoosePrompt):
            after = next(
                (e.number for e in log[at + 1 :] if isinstance(e, events.ParagraphEntered)),
                None,
            )
            eats = any(isinstance(e, events.MealEaten) for e in log[at + 1 : at + 3])
            if not eats:
                option = next(o for o in item.options if o.target == after and o.enabled)
                lines.append(str(option.index))
    return "\n".join(lines) + "\n"


def test_the_plain_player_plays_it_by_default(monkeypatch, capsys) -> None:
    played = play_route(BOOK, WINNING_PATH, seed=SEED, hero=MEDIAN_HERO, meals_at=MEALS)
    monkeypatch.setattr("sys.stdin", io.StringIO(plain_answers(played)))
    hero = [str(value) for value in MEDIAN_HERO]
    code = main(["play", "--plain", "--seed", str(SEED), "--hero", *hero, "--name", "Test"])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    assert "§ 88" in out
    assert out.count("§ ") == len(WINNING_PATH)
