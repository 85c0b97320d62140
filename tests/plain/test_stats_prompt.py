"""book.yaml ``creation: fixed_stats: true``: the plain player asks each stat on its own line,
within its range, or rolls the dice on an empty first line (issue 12.2, front-end side)."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from dedale import events as ev
from dedale.game import InvalidAnswer
from dedale.plain.player import PlainPlayer
from dedale.rules import load_ruleset

PROMPT = ev.StatsPrompt(
    stats=(
        ev.StatEntry(stat="SKILL", low=7, high=12),
        ev.StatEntry(stat="STAMINA", low=14, high=24),
        ev.StatEntry(stat="LUCK", low=7, high=12),
    )
)


class StatsGame:
    """Asks the StatsPrompt, then ends; checks answers as Game._check does."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.book = SimpleNamespace(ruleset=load_ruleset("df-classic"))
        self.outcome = "victory"
        self.answers: list[object] = []
        self._asked = False

    def next(self):
        if not self._asked:
            self._asked = True
            return PROMPT
        return None

    def answer(self, value):
        if value is not None and len(value) != len(PROMPT.stats):
            raise InvalidAnswer("three stats are needed")
        self.answers.append(value)


def play(lang: str, typed: str) -> tuple[StatsGame, str, int]:
    game = StatsGame(lang)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(typed), out, echo=True).play()  # type: ignore[arg-type]
    return game, out.getvalue(), code


def test_one_line_per_stat_within_its_range():
    game, out, code = play("en", "13\n²\n11\n99999999999\n20\n9\n")
    assert game.answers == [(11, 20, 9)]
    assert code == 0
    assert "SKILL (7-12)?" in out and "STAMINA (14-24)?" in out and "LUCK (7-12)?" in out
    assert out.count("Not possible: type a whole number from 7 to 12") == 2
    assert "too long" in out and "invalid literal" not in out


def test_an_empty_first_line_rolls_the_dice():
    game, out, code = play("en", "\n")
    assert game.answers == [None]


@pytest.mark.parametrize("typed", ["10\n", "10\n20\n"])
def test_input_ending_midway_stops_cleanly(typed):
    game, out, code = play("en", typed)
    assert game.answers == [] and code == 4


def test_french_names_and_ranges():
    game, out, code = play("fr", "10\n20\n9\n")
    assert "HABILETÉ (7 à 12)\u202f?" in out and "ENDURANCE (14 à 24)\u202f?" in out
    assert game.answers == [(10, 20, 9)]
