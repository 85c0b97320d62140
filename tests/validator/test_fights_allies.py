"""Exact odds of fights with allies in the validator (validator/fights_allies.py, issue
14.1): a book's ally fights get exact rows (each whom-the-enemies-strike mode, in turn and
as one) equal to the rules core's figures for the validator's own heroes and better than
the same fights alone; past the DP's budget the rows are estimated and I115 says why."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale import ast
from dedale.language import load_book
from dedale.rules import fight_odds, odds_allies
from dedale.rules.odds_allies import AllyTable, ally_odds
from dedale.validator import validate_path
from dedale.validator.fights import hero_profiles
from dedale.validator.graph import build_graph, walk

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
EXACT = BOOKS / "allies-fights-exact.dd"
LARGE = BOOKS / "allies-too-many-states.dd"


def _fights(path):
    book = load_book(path)
    graph = build_graph(book)
    return book, [
        s
        for number in sorted(graph.nodes)
        for s in walk(graph.nodes[number].paragraph.body)
        if isinstance(s, ast.Fight)
    ]


def test_ally_fights_get_exact_rows_and_no_finding():
    report = validate_path(EXACT, runs=0)
    assert report.findings == []
    assert [fight.method for fight in report.fights] == ["exact"] * 3
    assert all(o.samples is None for f in report.fights for o in f.odds)
    book, fights = _fights(EXACT)
    ruleset = book.ruleset
    assert [f.struck for f in fights] == ["hero", "ally", "random"]
    for fight, found in zip(fights, report.fights, strict=True):
        enemies = [(dict(e.stats)["SKILL"], dict(e.stats)["STAMINA"]) for e in fight.enemies]
        allies = [(dict(a.stats)["SKILL"], dict(a.stats)["STAMINA"]) for a in fight.allies]
        mode = "sequence" if fight.mode == "single" else fight.mode
        for hero in hero_profiles(ruleset):
            stats = dict(hero.stats)
            for policy in ("none", "best"):
                exact = ally_odds(
                    ruleset, stats["SKILL"], stats["STAMINA"], enemies, allies,
                    struck=fight.struck, luck=stats["LUCK"], luck_policy=policy, mode=mode,
                ).win_probability  # fmt: skip
                assert found.win(hero.level, policy) == pytest.approx(exact, abs=1e-12)
            alone = fight_odds(ruleset, stats["SKILL"], stats["STAMINA"], enemies, mode=mode)
            if alone.win_probability < 0.999:  # the ally helps
                assert found.win(hero.level, "none") > alone.win_probability


def test_past_the_budget_best_luck_is_estimated_never_below_no_luck():
    (fight,) = validate_path(LARGE, runs=0).fights
    assert fight.method == "estimate"
    for row in fight.odds:
        if row.luck == "none":  # the no-Luck table fits: exact
            assert row.samples is None
        else:
            assert row.samples is not None
            assert row.win >= fight.win(row.hero.level, "none")


def test_too_many_states_is_estimated_and_i115_says_why(monkeypatch):
    monkeypatch.setattr(odds_allies, "MAX_STATES", 1_000)
    report = validate_path(LARGE, runs=0)
    (fight,) = report.fights
    assert fight.method == "estimate" and all(o.samples for o in fight.odds)
    (info,) = [f for f in report.findings if f.code == "I115"]
    assert "allies" in str(info.message) and "1,000" in str(info.message)


def test_the_path_of_fights_carries_the_wounds_of_ally_fights():
    """The path of fights chains the ally fights' exact end states (STAMINA and LUCK), as a
    chain convolved here by hand from ``ally_odds``."""
    book, fights = _fights(EXACT)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    stats = dict(hero.stats)
    dist = {(stats["STAMINA"], stats["LUCK"]): 1.0}
    for fight in fights:
        enemies = [(dict(e.stats)["SKILL"], dict(e.stats)["STAMINA"]) for e in fight.enemies]
        allies = [(dict(a.stats)["SKILL"], dict(a.stats)["STAMINA"]) for a in fight.allies]
        mode = "sequence" if fight.mode == "single" else fight.mode
        new: dict[tuple[int, int], float] = {}
        table = AllyTable(book.ruleset, stats["SKILL"], enemies, allies, struck=fight.struck,
                          luck_policy="best", mode=mode)  # fmt: skip
        for (stamina, luck), p in sorted(dist.items(), reverse=True):
            result = table.solve(stamina, luck)  # one table answers every start
            for end, q in result.end_states.items():
                new[end] = new.get(end, 0.0) + p * result.win_probability * q
        dist = new
    median = validate_path(EXACT, runs=0).fight_path.of("median")
    assert median.win == pytest.approx(sum(dist.values()), rel=1e-9)
    assert len(median.fights) == 3


EXITS = BOOKS / "allies-fights-exits.dd"


def test_ally_fights_with_exits_and_rules_get_exact_rows():
    """A limit and a threshold, with ``il inflige 4`` (rules/odds_allies_exits.py): exact
    rows equal to the DP's for every hero (the plan read as the validator reads it), cached
    per fight (two fights with the same enemies, allies and heroes keep their own ways out)."""
    from dedale.rules.odds_allies_exits import ally_exit_odds
    from dedale.rules.odds_exits import Damage, ExitPlan

    report = validate_path(EXITS, runs=0)
    assert [fight.method for fight in report.fights] == ["exact"] * 2
    assert all(o.samples is None for f in report.fights for o in f.odds)
    book, fights = _fights(EXITS)
    ruleset = book.ruleset
    plans = [
        ExitPlan(enemies=((10, 14, False),), damages=(Damage("deals", None, 4),), limit=5),
        ExitPlan(enemies=((7, 8, False),), damages=(Damage("deals", None, 4),), threshold=2),
    ]
    allies = [[(8, 10)], [(8, 6)]]
    in_doubt = 0
    for fight, found, plan, friends in zip(fights, report.fights, plans, allies, strict=True):
        for hero in hero_profiles(ruleset):
            stats = dict(hero.stats)
            for policy in ("none", "best"):
                exact = ally_exit_odds(
                    ruleset, stats["SKILL"], stats["STAMINA"], plan, friends,
                    struck=fight.struck, luck=stats["LUCK"], luck_policy=policy,
                )  # fmt: skip
                assert found.win(hero.level, policy) == pytest.approx(exact, abs=1e-12)
                in_doubt += exact < 0.99
    assert in_doubt >= 3


AT_ONCE = BOOKS / "allies-fights-at-once.dd"


def test_ally_fights_at_once_get_exact_rows():
    """Two wolves at once and an ally struck in their place (rules/odds_allies_group.py, the
    reader's best target): the no-Luck rows are exact and equal to the DP's; the best-Luck
    rows past its budget (the strong heroes) are estimated, never below no Luck."""
    from dedale.rules.odds_allies_group import ally_group_odds
    from dedale.rules.odds_exits import ExitPlan

    (found,) = validate_path(AT_ONCE, runs=0).fights
    book, (fight,) = _fights(AT_ONCE)
    assert fight.mode == "together" and fight.struck == "ally"
    plan = ExitPlan(enemies=((7, 6, False), (6, 5, False)))
    for hero in hero_profiles(book.ruleset):
        stats = dict(hero.stats)
        exact = ally_group_odds(book.ruleset, stats["SKILL"], stats["STAMINA"], plan, [(8, 8)],
                                struck="ally", luck=stats["LUCK"])  # fmt: skip
        assert found.win(hero.level, "none") == pytest.approx(exact, abs=1e-12)
    for row in found.odds:
        if row.luck == "none":
            assert row.samples is None
        else:
            assert row.win >= found.win(row.hero.level, "none")
    assert min(row.win for row in found.odds) < 0.95  # the weak hero's fight is in doubt
