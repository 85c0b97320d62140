"""Every construct of the language runs: reliques duo tests, d20 checks, computed targets,
counters, visited/codeword conditions; and no statement type is left without a handler."""

from __future__ import annotations

import dataclasses
import typing

import pytest
from dedale import ast, events
from dedale.game import Game
from dedale.game.runner import Runner
from dedale.language import load_book
from dedale.span import Span

from .conftest import BOOKS, of, play


@pytest.fixture(scope="module")
def crypt():
    return load_book(BOOKS / "crypt.dd")


@pytest.fixture(scope="module")
def cliffs():
    return load_book(BOOKS / "cliffs.dd")


def test_every_statement_type_has_a_handler(crypt):
    game = Game.new(crypt, 1, name="A")
    handled = set(Runner(game)._handlers)
    inline = {ast.Choice, ast.Goto, ast.If, ast.AllowRevisit, ast.MealRule, ast.Prose}
    assert set(typing.get_args(ast.Statement)) <= handled | inline


@pytest.mark.parametrize(
    ("faces", "risk", "paragraph", "outcome"),
    [
        ((1, 1), False, 10, "critical_success"),
        ((1, 2), False, 11, "success"),  # margin >= 3 branch first
        ((6, 6), False, 14, "critical_failure"),
        ((2, 3), True, 10, "critical_success"),  # the risk roll turns success critical
        ((6, 5), True, 14, "critical_failure"),
    ],
)
def test_duo_test_margins_criticals_and_risk(crypt, faces, risk, paragraph, outcome):
    game = Game.new(crypt, 1, name="A", hero=(3, 3, 3, 3, 3, 3, 15), free_stats=True)
    game.rng.force(faces)
    items = play(game, [risk, False, False])  # no Courage, no Chance reroll after a failure
    assert of(events.YesNoPrompt, items)[0].kind == "risk"
    assert of(events.TestResolved, items)[0].outcome == outcome
    assert game.state.paragraph == paragraph
    assert of(events.TextShown, items)[0].text == "Your STRENGTH is 3, your health 15."


def test_duo_failure_runs_its_effect_then_its_jump(crypt):
    game = Game.new(crypt, 1, name="A", hero=(3, 3, 3, 3, 3, 3, 15), free_stats=True)
    game.rng.force((5, 4))  # 9 > 7: failure
    items = play(game, [False, False, False, False])  # no risk, reroll nor cancelled loss
    assert game.state.hero.stats["HEALTH"] == 14 and game.state.paragraph == 13
    assert game.outcome == "death" and of(events.Death, items)


def test_d20_check_then_counters_conditions_and_codewords(cliffs):
    stats = [stat.id for stat in cliffs.ruleset.stats]
    hero = tuple(30 if s == "DEX" else 10 for s in stats)
    game = Game.new(cliffs, 1, name="A", hero=hero, free_stats=True)
    game.rng.force((10, 3))  # advantage keeps 10: 10 + 10 = 20 >= easy 10 + 5
    items = play(game, [])
    assert of(events.TestResolved, items)[0].outcome == "critical_success"
    assert game.state.hero.counters["gold"] == 5
    prompt = of(events.ChoosePrompt, items)[-1]
    assert [(o.target, o.enabled) for o in prompt.options] == [(1, True), (7, True), (8, False)]
    assert prompt.options[2].reason == "you need the codeword GULL"
    hp = next(s for s in stats if s == cliffs.ruleset.fight.health)
    before = game.state.hero.stats[hp]
    items = play(game, [2])
    assert game.state.hero.counters["gold"] == 0  # set to 2, then restored to its start
    assert game.state.hero.initial[hp] == before + 2
    assert game.state.hero.stats[hp] == before + 1
    assert [e.is_set for e in of(events.CodewordChanged, items)] == [True, False]
    assert game.outcome == "victory"


def test_a_computed_destination(cliffs):
    span = Span.unknown()
    target = ast.ComputedRef(
        span=span,
        expr=ast.BinOp(
            span=span,
            op="+",
            left=ast.ValueRef(span=span, name="gold"),
            right=ast.BinOp(
                span=span, op="/", left=ast.CurrentParagraph(span=span),
                right=ast.Num(span=span, value=2),
            ),
        ),
    )  # fmt: skip
    paragraphs = dict(cliffs.paragraphs)
    second = paragraphs[2]
    paragraphs[2] = dataclasses.replace(
        second, body=(second.body[0], ast.Goto(span=span, target=target))
    )
    book = dataclasses.replace(cliffs, paragraphs=paragraphs)
    stats = [stat.id for stat in book.ruleset.stats]
    game = Game.new(
        book, 1, name="A", hero=tuple(30 if s == "DEX" else 10 for s in stats), free_stats=True
    )
    game.rng.force((10, 3))
    play(game, [])
    assert game.state.paragraph == 6  # gold 5 + 2 // 2


def test_a_missing_destination_is_a_book_error(cliffs):
    span = Span("cliffs.dd", 9, 3)
    paragraphs = dict(cliffs.paragraphs)
    paragraphs[2] = dataclasses.replace(
        paragraphs[2],
        body=(ast.Goto(span=span, target=ast.ParagraphRef(span=span, number=99)),),
    )
    book = dataclasses.replace(cliffs, paragraphs=paragraphs)
    stats = [stat.id for stat in book.ruleset.stats]
    game = Game.new(
        book, 1, name="A", hero=tuple(30 if s == "DEX" else 10 for s in stats), free_stats=True
    )
    game.rng.force((10, 3))
    with pytest.raises(Exception, match="paragraph 99, which does not exist") as raised:
        play(game, [])
    assert raised.value.span == span
