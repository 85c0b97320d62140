"""Moves whose costly fights wait (validator/fight_path_later.py) change no result of the
path search: the same paths, fights, chances, reasons and labels as when every move is
computed at once (the reliques chain's bound switched off), on books whose best path
fights and on one whose best path avoids every fight (there the waiting fights are never
computed); a bound found wrong makes the search start again without waiting moves."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import fight_path_later
from dedale.validator.fight_path import fight_path
from dedale.validator.fight_path_reliques import ReliquesChain
from dedale.validator.fights import fight_reports
from dedale.validator.graph import build_graph

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "books_extra" / "validator" / "reliques-path-of-fights.dd"


def _bench_book(tmp_path: Path) -> Path:
    sys.path.insert(0, str(ROOT / "tools" / "bench"))
    try:
        from gen_book import write_book
    finally:
        sys.path.pop(0)
    return write_book(tmp_path / "reliques", 120, items=10, codewords=5, ruleset="reliques")


def _path(book_path: Path, monkeypatch, bound=None):
    """The path of fights, with ``bound`` as the reliques chain's (None: as it is), and how
    many moves waited and were computed later."""
    counts = {"waited": 0, "resolved": 0}
    real_init = fight_path_later.Later.__init__

    def init(self, chain):
        real_init(self, chain)
        counts.setdefault("laters", []).append(self)

    with monkeypatch.context() as patch:
        patch.setattr(fight_path_later.Later, "__init__", init)
        if bound is not None:
            patch.setattr(ReliquesChain, "bound", bound)
        book = load_book(book_path)
        graph = build_graph(book)
        found = fight_path(graph, book, fight_reports(graph, book), 600)
    for later in counts.pop("laters"):
        counts["waited"] += later.waited
        counts["resolved"] += later.resolved
    return found, counts


def _same(found, expected):
    assert found is not None and expected is not None
    assert (found.labels, found.bounded, found.cut) == (
        expected.labels, expected.bounded, expected.cut,
    )  # fmt: skip
    assert len(found.heroes) == len(expected.heroes)
    for hero, other in zip(found.heroes, expected.heroes, strict=True):
        assert hero.paragraphs == other.paragraphs
        assert hero.win == other.win  # the same fights from the same states: the same sums
        assert hero.fights == other.fights
        assert hero.reasons == other.reasons


def test_waiting_moves_change_nothing_where_the_best_path_fights(monkeypatch):
    found, counts = _path(FIXTURE, monkeypatch)
    eager, none = _path(FIXTURE, monkeypatch, bound=lambda self, dist, held, steps: None)
    assert counts["waited"] > 0 and none["waited"] == 0
    assert any(hero.fights for hero in found.heroes)
    _same(found, eager)


def test_fights_the_best_path_avoids_are_never_computed(monkeypatch, tmp_path):
    book = _bench_book(tmp_path)
    found, counts = _path(book, monkeypatch)
    eager, _ = _path(book, monkeypatch, bound=lambda self, dist, held, steps: None)
    _same(found, eager)
    assert counts["resolved"] < counts["waited"]  # some waited for nothing: not computed


def test_a_wrong_bound_makes_the_search_start_again(monkeypatch):
    real = ReliquesChain.bound
    calls = {"wrong": 0}

    def too_low(self, dist, held, steps):
        found = real(self, dist, held, steps)
        if found is None:
            return None
        calls["wrong"] += 1
        return found * 1e-6  # below the chance the fight keeps

    found, _ = _path(FIXTURE, monkeypatch, bound=too_low)
    eager, _ = _path(FIXTURE, monkeypatch, bound=lambda self, dist, held, steps: None)
    assert calls["wrong"] > 0
    _same(found, eager)


def test_claim_keeps_the_move_pushed_first():
    later = fight_path_later.Later(None)
    assert later.wait({}, frozenset(), ()) is None  # a chain without bounds: nothing waits
    assert later.claim(("key",), 7)
    assert not later.claim(("key",), 9)  # pushed after: dropped, as the search drops it
    assert later.claim(("key",), 3)  # pushed before, computed later: it takes the label
    assert later.dropped == {7}
    with pytest.raises(fight_path_later.Unsound):
        later.computed({(5, 0): 0.5}, 0.4)
    assert later.computed({(5, 0): 0.3}, 0.4) == pytest.approx(0.3)


def test_the_path_reads_the_fight_tables_dps():
    from dedale.validator.fights_reliques import shared_calculator

    book = load_book(FIXTURE)
    graph = build_graph(book)
    reports = fight_reports(graph, book)
    calculator = shared_calculator(graph, book)
    assert shared_calculator(graph, book) is calculator  # one per graph and book
    solved = dict(calculator.models)
    assert solved  # the fight table's DPs, their values solved
    before = {key: len(dp.values) for key, dp in solved.items()}
    fight_path(graph, book, reports, 600)
    for key, dp in solved.items():  # the path used them: no DP made again for its fights
        assert calculator.models[key] is dp
    assert any(len(dp.turn_kernels) for dp in solved.values())  # its end states: those DPs'
    assert all(len(dp.values) >= before[key] for key, dp in solved.items())
