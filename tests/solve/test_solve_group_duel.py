"""A fight against several enemies at once with the targets (and Luck) decided for the
book (:mod:`dedale.solve.group_duel`), and the meals eaten at once before one
(:mod:`dedale.solve.eager`). The ghouls book: two ghouls at once, then a troll."""

from __future__ import annotations

import itertools
from functools import lru_cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules import odds_group_fast
from dedale.solve import solve_book
from dedale.solve.eager import EagerMeals

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"
TWO_D6 = {s: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) / 36 for s in
          range(2, 13)}  # fmt: skip


def _troll_win(skill: int, stamina: int) -> float:
    """One enemy (SKILL 8, STAMINA 8), wounds of 2 both ways, ties thrown again."""
    win = sum(p * q for (x, p), (y, q) in itertools.product(TWO_D6.items(), repeat=2)
              if x + skill > y + 8)  # fmt: skip
    lose = sum(p * q for (x, p), (y, q) in itertools.product(TWO_D6.items(), repeat=2)
               if x + skill < y + 8)  # fmt: skip

    @lru_cache(None)
    def v(h: int, e: int) -> float:
        if h <= 0:
            return 0.0
        if e <= 0:
            return 1.0
        return (win * v(h, e - 2) + lose * v(h - 2, e)) / (win + lose)

    return v(stamina, 8)


def _ghouls(skill: int, stamina: int, for_book: bool) -> float:
    """An independent expectimax of the ghouls then the troll (df-classic, no Luck): each
    assault the hero strikes his target (2 off it if his strength is higher, 2 off him if
    lower); each other living ghoul whose strength beats his wounds him for 2. Targets
    chosen for the book (``for_book``) or to win the ghouls' fight."""
    enemies = ((8, 7), (7, 6))

    @lru_cache(None)
    def moves(h: int, es: tuple, t: int) -> dict:
        out: dict = {}
        for x, p in TWO_D6.items():
            strength = x + skill
            branches = {(h, es): p}
            for j, (s, _) in enumerate(enemies):
                if es[j] <= 0:
                    continue
                grown: dict = {}
                for (h1, es1), q in branches.items():
                    for y, r in TWO_D6.items():
                        other = y + s
                        if j == t and strength > other:
                            nxt = (h1, es1[:j] + (max(0, es1[j] - 2),) + es1[j + 1 :])
                        elif other > strength:
                            nxt = (h1 - 2, es1)
                        else:
                            nxt = (h1, es1)
                        grown[nxt] = grown.get(nxt, 0.0) + q * r
                branches = grown
            for state, q in branches.items():
                out[state] = out.get(state, 0.0) + q
        return out

    def solve(terminal):
        choice: dict = {}

        @lru_cache(None)
        def v(h: int, es: tuple) -> float:
            if h <= 0:
                return 0.0
            if not any(es):
                return terminal(h)
            best = -1.0
            for t in (i for i, e in enumerate(es) if e > 0):
                d = moves(h, es, t)
                stay = d.get((h, es), 0.0)
                value = sum(q * v(*k) for k, q in d.items() if k != (h, es)) / (1 - stay)
                if value > best + 1e-15:
                    best, choice[h, es] = value, t
            return best

        return v, choice

    start = (stamina, (7, 6))
    then = lambda h: _troll_win(skill, h)  # noqa: E731
    if for_book:
        return solve(then)[0](*start)
    win, choice = solve(lambda h: 1.0)
    win(*start)

    @lru_cache(None)
    def u(h: int, es: tuple) -> float:
        if h <= 0:
            return 0.0
        if not any(es):
            return then(h)
        d = moves(h, es, choice[h, es])
        stay = d.get((h, es), 0.0)
        return sum(q * u(*k) for k, q in d.items() if k != (h, es)) / (1 - stay)

    return u(*start)


def test_the_targets_at_once_are_chosen_for_the_book():
    book = load_book(BOOKS / "ghouls")
    result = solve_book(book, (8, 14, 8), luck_policy="none")
    assert result.complete
    expected = _ghouls(8, 8, for_book=True)
    assert result.win_probability == pytest.approx(expected, abs=1e-9)
    # the targets that win the ghouls' fight most often lose the book more often
    assert expected > _ghouls(8, 8, for_book=False) + 1e-3


@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_array_fill_gives_the_scalar_values(policy, monkeypatch):
    book = load_book(BOOKS / "ghouls")
    fast = solve_book(book, (8, 14, 8), luck_policy=policy)
    monkeypatch.setattr(odds_group_fast, "fits", lambda *args: False)
    scalar = solve_book(book, (8, 14, 8), luck_policy=policy)
    assert fast.complete and scalar.complete and fast.states == scalar.states
    assert fast.win_probability == pytest.approx(scalar.win_probability, abs=1e-12)


def _camp(tmp_path: Path) -> Path:
    """The ghouls with a camp before them (meals allowed where the rockfall hurt)."""
    folder = tmp_path / "camp"
    folder.mkdir()
    source = BOOKS / "ghouls"
    (folder / "book.yaml").write_text((source / "book.yaml").read_text())
    text = (source / "book.dd").read_text()
    (folder / "book.dd").write_text(text.replace("> lose 6 STAMINA\n", "> lose 6 STAMINA\n"
                                                 "> meals allowed\n"))  # fmt: skip
    return folder


@pytest.mark.parametrize("policy", ["none", "best"])
def test_a_meal_is_eaten_at_once_before_a_fight_at_once(tmp_path, policy):
    book = load_book(_camp(tmp_path))
    assert EagerMeals(book, policy)._ok[1]  # the camp leads to the ghouls
    eager = solve_book(book, (8, 14, 8), luck_policy=policy)
    offered = solve_book(book, (8, 14, 8), luck_policy=policy, eager=False)
    full = solve_book(book, (8, 14, 8), luck_policy=policy, prune=False)
    assert eager.complete and offered.complete and full.complete
    assert eager.win_probability == pytest.approx(offered.win_probability, abs=1e-12)
    assert eager.win_probability == pytest.approx(full.win_probability, abs=1e-12)
    assert eager.states <= offered.states <= full.states


@pytest.mark.parametrize(
    "name, hero",
    [("flee", (7, 14, 7)), ("flee-no-luck", (9, 18, 9)), ("escape", (9, 18, 9)),
     ("limit", (12, 24, 12)), ("first-steps", (9, 19, 9))],
)  # fmt: skip
def test_an_escape_fight_without_luck_is_one_node(name, hero):
    """:mod:`dedale.solve.escape_duel`: the fight's states as one Duel node, the same
    value as with each state a graph node (``collapse=False``), fewer states."""
    folder = BOOKS / name if name != "first-steps" else BOOKS.parents[2] / "books" / name
    book = load_book(folder)
    one = solve_book(book, hero, luck_policy="none")
    nodes = solve_book(book, hero, luck_policy="none", collapse=False)
    assert one.complete and nodes.complete
    assert one.win_probability == pytest.approx(nodes.win_probability, abs=1e-12)
    assert one.states < nodes.states


def test_the_walkthrough_keeps_the_escape_decisions():
    from dedale.solve.heroes import Hero
    from dedale.solve.report import solve_heroes

    book = load_book(BOOKS / "flee")
    (answer,) = solve_heroes(book, [Hero("given", (7, 14, 7))], luck_policy="none",
                             budget=60, steps=True)  # fmt: skip
    kinds = {step.decision["kind"] for step in answer.steps if step.decision}
    assert kinds & {"escape", "fight_on"}


def test_the_ends_from_less_stamina_are_the_ends_from_more_lowered():
    from dedale.rules import load_ruleset
    from dedale.solve.group_duel import GroupValueTable

    table = GroupValueTable(load_ruleset("df-classic"), 9, [(8, 7), (7, 6)], luck_policy="best")
    assert table.ends(table.start(16, 4))  # the walk from 16, kept
    for h in (3, 7, 12, 16):
        begin = table.start(h, 4)
        assert table.ends(begin) == table._walk(begin)


def test_the_walkthrough_of_a_fight_at_once_keeps_the_heros_luck():
    from dedale.solve.heroes import Hero
    from dedale.solve.report import solve_heroes

    book = load_book(BOOKS / "ghouls")
    (answer,) = solve_heroes(book, [Hero("given", (8, 14, 8))], luck_policy="none",
                             budget=60, steps=True)  # fmt: skip
    fights = [r for step in answer.steps for r in step.rolled if r["kind"] == "fight"]
    assert fights and all(r["luck"] == 8 for r in fights)
    assert answer.result.win_probability == pytest.approx(_ghouls(8, 8, True), abs=1e-9)
