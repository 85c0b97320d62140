"""The path of fights' speed-ups (issue 14.11) change no figure: the same paths, fights and
chances (to 1e-12: sums may be added in another order) as the plain computations they
replace — the core's forward pass seeded start by start, every meal place of the path in
the backward induction, each meal place through :meth:`HeroChain.moves`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds_forward import Forward
from dedale.validator import fight_path_chain, fight_path_mix, fight_path_potion_fight
from dedale.validator.fight_path import fight_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Meal
from dedale.validator.fights import fight_reports
from dedale.validator.graph import build_graph

ROOT = Path(__file__).resolve().parents[2]
BOOKS = ROOT / "tests" / "books_extra" / "validator"


class _PlainSeeded(Forward):
    """The seeded pass as it was: the core's Forward, each start run in full."""

    weight = 1.0
    deferred = True

    def __init__(self, table, *_bounds):  # the whole grids
        super().__init__(table)

    def add(self, index, luck, h, e, flow):
        super().add(index, luck, h, e, flow * self.weight)

    def _run_regular(self):
        if not self.deferred:
            super()._run_regular()


def _plain_ate(self, dist, full):
    new: dict = {}
    for state, p in dist.items():
        options = self.moves(Meal(), state, frozenset())
        chosen = options[-1]
        if self.heal and not full:
            whole = max(0, (self.init_health - state[0]) // self.heal)
            chosen = options[min(whole, len(options) - 1)]
        for target, q in chosen:
            new[target] = new.get(target, 0.0) + p * q
    return new


def _figures(folder: Path):
    book = load_book(folder)
    graph = build_graph(book)
    path = fight_path(graph, book, fight_reports(graph, book), None)
    assert path is not None
    return [
        (hero.level, hero.class_name, hero.paragraphs, hero.win, hero.exact,
         [(f.paragraph, f.chance, f.cumulative) for f in hero.fights])
        for hero in path.heroes
    ]  # fmt: skip


def _same(fast, plain):
    assert len(fast) == len(plain)
    for a, b in zip(fast, plain, strict=True):
        assert a[:3] == b[:3] and a[4] == b[4]  # the same path for the same hero
        assert a[3] == pytest.approx(b[3], rel=1e-12, abs=1e-15)
        assert [f[0] for f in a[5]] == [f[0] for f in b[5]]
        for x, y in zip(a[5], b[5], strict=True):
            assert x[1:] == pytest.approx(y[1:], rel=1e-12, abs=1e-15)


@pytest.fixture
def generated(tmp_path):
    sys.path.insert(0, str(ROOT / "tools" / "bench"))
    from gen_book import write_book

    return write_book(tmp_path / "speed", 400, items=50, codewords=20, ruleset="df48.5")


def test_the_fast_path_of_fights_gives_the_plain_figures(generated, tmp_path, monkeypatch):
    potion = tmp_path / "potion.dd"
    potion.write_text(
        (BOOKS / "path-meal-between-fights.dd")
        .read_text("utf-8")
        .replace("§ 2\n", "§ 2\n> take 2 Salves (when STAMINA falls to 5: gain 4 STAMINA)\n", 1),
        "utf-8",
    )
    folders = [
        generated,
        potion,
        BOOKS / "W120-path-of-three-fights.dd",
        BOOKS / "path-meal-between-fights.dd",
        ROOT / "books" / "greymane",
    ]
    fast = [_figures(folder) for folder in folders]
    monkeypatch.setattr(fight_path_mix, "_Seeded", _PlainSeeded)
    monkeypatch.setattr(fight_path_potion_fight, "_Seeded", _PlainSeeded)
    monkeypatch.setattr(fight_path_chain, "_one_meal_a_window", lambda steps: steps)
    monkeypatch.setattr(HeroChain, "_ate", _plain_ate)
    plain = [_figures(folder) for folder in folders]
    for a, b in zip(fast, plain, strict=True):
        _same(a, b)
    assert any(f for hero in fast[0] for f in hero[5])  # the big book has fights on a path


def test_one_start_is_the_tables_solve_bit_for_bit(generated):
    """The fast seeded pass from one start (classes with armour, both Luck policies, one
    and two enemies) gives ``OddsTable.solve``'s win and end states exactly."""
    from dedale.rules.odds import OddsTable
    from dedale.validator.fight_path_mix import one_start

    ruleset = load_book(generated).ruleset
    checked = 0
    for class_name in list(ruleset.classes)[:3]:
        for policy in ("none", "best"):
            for enemies in ([(8, 8)], [(9, 10), (7, 6)]):
                plain = OddsTable(ruleset, 9, enemies, luck_policy=policy, class_name=class_name)
                fast = OddsTable(ruleset, 9, enemies, luck_policy=policy, class_name=class_name)
                for stamina, luck in ((3, None), (14, 2), (20, 9)):
                    result = plain.solve(stamina, luck)
                    win, ends = one_start(fast, stamina, luck)
                    assert (win, list(ends.items())) == (
                        result.win_probability,
                        list(result.end_states.items()),
                    )
                    checked += 1
    assert checked == 36


def test_the_seeded_pass_is_the_cores_bit_for_bit(generated, monkeypatch):
    """``mixed_ends`` from weighted starts (the seeded pass, its flows replayed and its
    adds inline) equals the core's Forward run start by start into the same grids, exactly:
    one, two and three enemies, armour, both Luck policies, weights that do not sum to 1."""
    import random

    from dedale.rules.odds import OddsTable

    ruleset = load_book(generated).ruleset
    rng = random.Random(1411)
    checked = 0
    for class_name in list(ruleset.classes)[:3]:
        for policy in ("none", "best"):
            for enemies in ([(8, 8)], [(9, 10), (7, 6)], [(6, 5), (10, 4), (7, 7)]):
                for has_luck in (True, False):
                    starts = {
                        (rng.randint(1, 22), rng.randint(0, 11)): rng.random() / 3
                        for _ in range(rng.randint(1, 6))
                    }
                    table = OddsTable(
                        ruleset, 9, enemies, luck_policy=policy, class_name=class_name
                    )
                    fast = fight_path_mix.mixed_ends(table, starts, has_luck)
                    with monkeypatch.context() as patch:
                        patch.setattr(fight_path_mix, "_Seeded", _PlainSeeded)
                        plain = fight_path_mix.mixed_ends(table, starts, has_luck)
                    assert list(fast.items()) == list(plain.items())
                    checked += 1
    assert checked == 36
