"""La Crypte du Reliquaire (books/reliquaire): a demonstration book on ``reliques``.

Structural checks (duo tests with difficulty modifiers, margins, criticals, risk rolls, and
fights), then two winning routes played end to end with fixed seeds, their transcripts
snapshotted: a careful one, and a daring one that takes the risk roll at every chance.
"""

from __future__ import annotations

from functools import cache

import pytest
from dedale import ast, events
from scripted_play import check_structure, paragraphs, play_plain, play_route, statements_of

BOOK = "reliquaire"
HERO = (4, 4, 4, 4, 3, 3)  # FOR, AGL, PER, CON, ESP, CHA

# name -> (route, answers to yes/no questions, seed)
ROUTES = {
    # Forces the gate, reads the frescoes (PER alone, doubled), fights the guardian and the
    # spectre, climbs out without risking anything.
    "careful": ((1, 2, 4, 8, 7, 9, 11, 12, 13, 16, 20, 22, 25, 23), {}, 0),
    # Picks the lock with a risk roll (critical success: the secret passage), surprises the
    # guardian, guesses the flagstones, takes the risk again on the way out.
    "daring": ((1, 3, 6, 9, 10, 12, 14, 16, 20, 22, 25, 23), {"risk": True}, 5),
}


@cache  # the games are deterministic: play each route once per session
def play(name: str):
    route, answers, seed = ROUTES[name]
    return play_route(BOOK, route, seed=seed, hero=HERO, answers=answers)


def test_structure() -> None:
    check_structure(BOOK, 15, 25)


def test_the_book_shows_the_reliques_rules() -> None:
    book = paragraphs(BOOK)
    duos = statements_of(book, ast.DuoTest)
    assert any(len(duo.stats) == 1 for duo in duos)
    assert {duo.difficulty > 0 for duo in duos} == {True, False}
    assert any(duo.risk_allowed for duo in duos)
    outcomes = {branch.outcome for duo in duos for branch in duo.branches}
    assert outcomes == {"success", "failure", "critical_success", "critical_failure"}
    assert any(branch.margin for duo in duos for branch in duo.branches)
    assert len(statements_of(book, ast.Fight)) >= 3


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_winning_route(name: str, snapshot) -> None:
    played = play(name)
    assert played.outcome == "victory"
    assert played.visited == list(ROUTES[name][0])
    assert played.transcript == snapshot


def test_duo_targets_and_the_risk_roll() -> None:
    careful = play("careful")
    (gate,) = careful.tests_in(2)  # FOR + CON - 1
    assert gate.target == HERO[0] + HERO[3] - 1
    (frescoes,) = careful.tests_in(8)  # PER alone counts double
    assert frescoes.target == 2 * HERO[2]
    daring = play("daring")
    (lock,) = daring.tests_in(3)  # AGL + PER + 2, risked: only criticals
    assert lock.target == HERO[1] + HERO[2] + 2
    assert lock.outcome == "critical_success"
    risks = [i for i in daring.log if isinstance(i, events.YesNoPrompt) and i.kind == "risk"]
    assert len(risks) == 2


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_the_plain_player_plays_the_same_game(name: str) -> None:
    route, _, seed = ROUTES[name]
    code, visited = play_plain(BOOK, play(name), seed=seed, hero=HERO)
    assert (code, visited) == (0, list(route))
