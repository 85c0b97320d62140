"""Allies beside the hero against several enemies at once, with a way out, on the path of
fights (issue 14.4, item 4 of session 8): three goblins at once held off for 4 assaults
beside Maëlle, then a wolf alone. The fight is followed by the allies' solver of fights at
once (:class:`dedale.rules.odds_allies_group.AllyGroupSolver`, the fight table's), its ends
labelled by way out (``validator/fight_path_group.py``), the wounds carried to the wolf.
Checked against the fight table's chance, an independent chain (the ends from each start,
then the plain exact DP of the wolf from each STAMINA) and the real interpreter with seeded
dice (the goblins are alike and fall to one wound: the target does not matter)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Fight, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import ff_values, victories

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOK / "path-allies-at-once-exit.dd"


def _hero(book, level: str):
    return next(h for h in hero_profiles(book.ruleset) if h.level == level)


def _chain(book, hero, policy: str = "none"):
    graph = build_graph(book)
    reports = fight_reports(graph, book)
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4)):
        node = graph.nodes[number]
        steps += segments.of(node, next(e for e in node.edges if e.target == target))
    chain = HeroChain(book.ruleset, hero, policy, {r.fight.span: r for r in reports})
    return tuple(steps), chain, reports


@pytest.mark.parametrize("level", ["weakest", "median"])
def test_the_chain_matches_an_independent_chain(level):
    book = load_book(BOOK)
    hero = _hero(book, level)
    steps, chain, reports = _chain(book, hero)
    assert [type(step) for step in steps] == [Fight, Fight]
    assert steps[0].ways == {("won", -1), ("limit", -1)}
    stats = dict(hero.stats)
    result = chain.best(steps)
    assert result.exact, result.reasons
    through, ends, why = chain.exit_kernel(
        steps[0].fight, steps[0].ways, frozenset(), stats["STAMINA"], stats["LUCK"]
    )
    assert why is None
    table = next(r for r in reports if r.fight is steps[0].fight)
    row = next(o for o in table.odds if o.hero.level == level and o.luck == "none")
    assert through == pytest.approx(row.win, abs=1e-9)  # the fight table's chance alive
    total = 0.0
    for (h, _), p in ends:  # the wolf from each STAMINA the goblins leave
        total += p * fight_odds(book.ruleset, stats["SKILL"], h, [(8, 8)]).win_probability
    assert result.fights[0].cumulative == pytest.approx(through, abs=1e-12)
    assert result.win == pytest.approx(total, abs=1e-12)
    alone = fight_odds(book.ruleset, stats["SKILL"], stats["STAMINA"], [(8, 8)]).win_probability
    if level == "weakest":
        assert result.win < through * alone - 0.05  # the wounds carried on matter


def test_the_validator_follows_the_fight_exactly():
    fight_path = validate_path(BOOK, runs=0).fight_path
    for hero in fight_path.heroes:
        assert hero.reasons == () and all(step.exact for step in hero.fights)


def test_the_chain_agrees_with_the_real_interpreter_within_3_se():
    """The weakest hero plays the book 2,000 times, seeded dice, no Luck."""
    from dedale import events

    book = load_book(BOOK)
    hero = _hero(book, "weakest")
    steps, chain, _ = _chain(book, hero)
    exact = chain.best(steps).win
    runs = 2000
    answers = {events.TargetPrompt: lambda prompt, game: 0}  # alike, one wound each: any
    won = victories(book, ff_values(hero), runs, answers=answers)
    se = math.sqrt(exact * (1 - exact) / runs)
    assert 0.05 < exact < 0.95, exact
    assert abs(won / runs - exact) <= 3 * se, (won / runs, exact)


def test_the_potion_in_the_fight_at_once_keeps_the_estimate(tmp_path):
    """The allies' solver of fights at once has no doses: the potion in it is not counted
    (its doses carried through and drunk once it is over), and the figure says why."""
    text = BOOK.read_text("utf-8").replace(
        "-> 2 Go in", "> take Healing Draught (when STAMINA falls to 4: gain 4 STAMINA)\n-> 2 Go in"
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    weakest = validate_path(path, runs=0).fight_path.of("weakest")
    shown = [why.translate("en") for _, why in weakest.reasons]
    assert [number for number, _ in weakest.reasons] == [2]
    assert "allies against several enemies at once" in shown[0]
    assert [step.exact for step in weakest.fights] == [False, True]


def test_allies_at_once_with_no_way_out_go_the_same_way():
    """Two wolves at once beside Bran, no way out but the win: the same solver (its only way
    out, the win), its figure without Luck the fight table's; with the best Luck past the
    table's budget, the path says it counted the fight without Luck (before: "no exact
    odds", the wounds not carried on)."""
    book_path = BOOK.parent / "allies-fights-at-once.dd"
    book = load_book(book_path)
    graph = build_graph(book)
    reports = fight_reports(graph, book)
    segments = Segments(book.ruleset, book)
    node = graph.nodes[2]
    (step,) = segments.of(node, next(e for e in node.edges if e.target == 3))
    assert step.ways == {("won", -1)}
    for hero in hero_profiles(book.ruleset):
        chain = HeroChain(book.ruleset, hero, "none", {r.fight.span: r for r in reports})
        result = chain.best((step,))
        assert result.exact, result.reasons
        row = next(o for o in reports[0].odds if o.hero.level == hero.level and o.luck == "none")
        assert result.win == pytest.approx(row.win, abs=1e-9)
    report = validate_path(book_path, runs=0)
    weakest = report.fight_path.of("weakest")
    (fight,) = report.fights
    best = [o for o in fight.odds if o.hero.level == "weakest" and o.luck == "best"]
    if best and best[0].samples is None:  # the table's best Luck fitted its CPU budget
        assert weakest.reasons == () and all(step.exact for step in weakest.fights)
    else:  # past it: the path says it counted the fight without Luck
        assert "without Luck" in weakest.reasons[0][1].translate("en")
