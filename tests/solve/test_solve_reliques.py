"""``dedale solve`` on a reliques book (solve/fights_reliques.py): two fights in a row, the
wounds of the first carried into the second, solved to 1e-9 against an independent chain
of the exact model written from RULES.md alone (tests/rules/reliques_exact.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from dedale.cli import main

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))
from reliques_exact import ExactFight, Fighter  # noqa: E402

BOOK = Path(__file__).parents[1] / "books_extra" / "solve" / "reliques-chain"
HERO = ("3", "3", "3", "3", "3", "3", "15")


def _ends(fight: ExactFight) -> dict[int, float]:
    """The hero's health when he wins, by the model's own turn kernel (a forward pass
    in order of the total health left; a turn where nothing changes is a geometric sum)."""
    hero, enemy = fight.sides
    mass = {(hero.health, enemy.health): 1.0}
    ends: dict[int, float] = {}
    for total in range(hero.health + enemy.health, 0, -1):
        for state in sorted(s for s in list(mass) if sum(s) == total):
            m = mass.pop(state)
            if state[1] == 0:
                ends[state[0]] = ends.get(state[0], 0.0) + m
                continue
            if state[0] == 0:
                continue
            kernel = fight.turn(state)
            stay = kernel.pop(state, 0.0)
            for end, p in kernel.items():
                mass[end] = mass.get(end, 0.0) + m * p / (1 - stay)
    return ends


def _solve(capsys, *args: str) -> dict:
    assert main(["solve", str(BOOK), "--hero", *HERO, "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_two_reliques_fights_in_a_row_solved_to_1e_9(capsys):
    found = _solve(capsys, "--luck", "none")
    rat = ExactFight(Fighter(3, 3, 3, weapon=3, health=15, initial=15),
                     Fighter(2, 2, 2, weapon=1, health=5))  # fmt: skip
    expected = 0.0
    for health, p in _ends(rat).items():
        goblin = ExactFight(Fighter(3, 3, 3, weapon=3, health=health, initial=15),
                            Fighter(3, 3, 3, weapon=2, health=10))  # fmt: skip
        expected += p * goblin.win()
    assert 0.2 < expected < 0.9
    assert found["win_probability"] == pytest.approx(expected, abs=1e-9)
    assert found["complete"] is True


def test_courage_at_best_raises_the_book_s_chance(capsys):
    none = _solve(capsys, "--luck", "none")["win_probability"]
    best = _solve(capsys, "--luck", "best")["win_probability"]
    assert best > none + 0.01
