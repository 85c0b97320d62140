"""The solver's budget is CPU time (:mod:`dedale.solve.clock`): time the process spends
waiting (a loaded machine, here a sleep) does not count, time it spends working does."""

from __future__ import annotations

import time
from pathlib import Path

from dedale.language import load_book
from dedale.solve import clock, solve_book
from dedale.solve.explore import Explorer
from dedale.solve.heroes import Hero
from dedale.solve.report import solve_heroes

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
HERO = (9, 18, 9)


def test_the_clock_is_the_process_cpu_time():
    before = clock.now()
    assert abs(before - time.process_time()) < 0.05
    time.sleep(0.2)  # waiting uses no CPU
    assert clock.now() - before < 0.1


def _slowed(monkeypatch, wait):
    """Each node's tree built after ``wait()`` (a sleep or a busy loop); returns the
    number of trees built."""
    built = [0]
    original = Explorer.tree

    def tree(self, origin):
        built[0] += 1
        wait()
        return original(self, origin)

    monkeypatch.setattr(Explorer, "tree", tree)
    return built


def test_waiting_does_not_spend_the_budget(monkeypatch):
    book = load_book(BOOKS / "meal")
    full = solve_book(book, HERO, luck_policy="none")
    assert full.complete
    built = _slowed(monkeypatch, lambda: time.sleep(0.01))
    started = time.monotonic()
    # a budget of 0.25 s of CPU; the sleeps alone take longer on the wall clock
    [answer] = solve_heroes(book, [Hero("given", HERO, None)], luck_policy="none", budget=0.25)
    waited = time.monotonic() - started
    assert built[0] * 0.01 > 0.25 and waited > 0.25
    assert answer.result.complete and answer.result.states == full.states
    assert answer.result.win_probability == full.win_probability


def test_working_spends_it_and_the_cut_solve_says_so(monkeypatch):
    book = load_book(BOOKS / "meal")
    full = solve_book(book, HERO, luck_policy="none")

    def spin() -> None:  # 20 ms of CPU
        until = time.process_time() + 0.02
        while time.process_time() < until:
            pass

    built = _slowed(monkeypatch, spin)
    result = solve_book(book, HERO, luck_policy="none", deadline=clock.now() + 0.2)
    assert not result.complete and result.limit == "time"
    assert result.expanded < full.states and built[0] <= 0.2 / 0.02 + 2
    assert result.win_probability - 1e-9 <= full.win_probability <= result.upper_bound + 1e-9
