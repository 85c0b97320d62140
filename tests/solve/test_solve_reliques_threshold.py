"""``dedale solve`` on reliques fights with "when your health falls to 8 or less -> 2" and
with "after 2 assaults won -> 2" (solve/fights_reliques.py: the DP stops there, the runner
turns to 2, here a death): the book's chance to the end, to 1e-9 against an independent
chain of the exact model written from RULES.md alone (tests/rules/reliques_exact.py), the
threshold, then the turns won, checked after each turn before the enemy down, as the
fight's hooks check them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from dedale.cli import main

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))
from reliques_exact import ExactFight, Fighter  # noqa: E402

BOOK = Path(__file__).parents[1] / "books_extra" / "solve" / "reliques-threshold"
TURNS_WON_BOOK = Path(__file__).parents[1] / "books_extra" / "solve" / "reliques-turns-won"
HERO = ("3", "3", "3", "3", "3", "3", "15")
THRESHOLD = 8


def _won_above_the_threshold(fight: ExactFight) -> float:
    """The chance the goblin falls in a turn that leaves the hero above the threshold:
    the model's turn kernel spread forward (a turn where nothing changes: a geometric
    sum), every state after a turn at the threshold or below leaving the fight."""
    hero, enemy = fight.sides
    mass = {(hero.health, enemy.health): 1.0}
    won = 0.0
    for total in range(hero.health + enemy.health, 0, -1):
        for state in sorted(s for s in list(mass) if sum(s) == total):
            m = mass.pop(state)
            kernel = fight.turn(state)
            stay = kernel.pop(state, 0.0)
            for (hh, eh), p in kernel.items():
                share = m * p / (1 - stay)
                if hh <= THRESHOLD or eh == 0:  # over: dead, the threshold, or the win
                    won += share if hh > THRESHOLD and eh == 0 else 0.0
                else:
                    mass[(hh, eh)] = mass.get((hh, eh), 0.0) + share
    return won


def test_the_threshold_fight_is_solved_to_1e_9(capsys):
    assert main(["solve", str(BOOK), "--hero", *HERO, "--json", "--luck", "none"]) == 0
    found = json.loads(capsys.readouterr().out)
    goblin = ExactFight(Fighter(3, 3, 3, weapon=3, health=15, initial=15),
                        Fighter(3, 3, 3, weapon=2, health=10))  # fmt: skip
    expected = _won_above_the_threshold(goblin)
    assert 0.1 < expected < goblin.win() - 0.05  # the threshold matters
    assert found["win_probability"] == pytest.approx(expected, abs=1e-9)
    assert found["complete"] is True


def _felled_before_two_turns_won(fight: ExactFight) -> float:
    """The chance the goblin falls in the first turn its health goes down (the second such
    turn ends the fight by "after 2 assaults won", checked before the enemy down)."""
    hero, enemy = fight.sides
    mass = {(hero.health, enemy.health): 1.0}  # no turn won yet
    felled = 0.0
    for total in range(hero.health + enemy.health, 0, -1):
        for state in sorted(s for s in list(mass) if sum(s) == total):
            m = mass.pop(state)
            kernel = fight.turn(state)
            stay = kernel.pop(state, 0.0)
            for (hh, eh), p in kernel.items():
                share = m * p / (1 - stay)
                if hh <= 0:
                    continue
                if eh < state[1]:  # a turn won: the first one, so it must fell the goblin
                    felled += share if eh == 0 else 0.0
                else:
                    mass[(hh, eh)] = mass.get((hh, eh), 0.0) + share
    return felled


def test_the_turns_won_fight_is_solved_to_1e_9(capsys):
    args = ["solve", str(TURNS_WON_BOOK), "--hero", *HERO, "--json", "--luck", "none"]
    assert main(args) == 0
    found = json.loads(capsys.readouterr().out)
    goblin = ExactFight(Fighter(3, 3, 3, weapon=3, health=15, initial=15),
                        Fighter(3, 3, 3, weapon=2, health=10))  # fmt: skip
    expected = _felled_before_two_turns_won(goblin)
    assert 0.01 < expected < goblin.win() - 0.1  # the turns won matter
    assert found["win_probability"] == pytest.approx(expected, abs=1e-9)
    assert found["complete"] is True
