"""The path of fights (issue 14.4): the chained chance of the main path to victory,
checked against an independent chain of the exact DP's distributions (``fight_odds`` per
starting state, by hand), against the real fight code played in sequence with seeded
dice, and on books where a meal, a loss or a weapon on the way changes the figure."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.validator import validate_path
from dedale.validator.fight_path import fight_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Fight, Meal, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph, walk

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
THREE = BOOKS / "W120-path-of-three-fights.dd"
MEAL = BOOKS / "path-meal-between-fights.dd"
CLEAN = BOOKS / "path-clean.dd"
ENEMIES = [[(9, 10)], [(10, 10)], [(10, 12)]]  # the gatekeeper, the warden, the castellan


def _median(book):
    return next(h for h in hero_profiles(book.ruleset) if h.level == "median")


def _hand_chain(ruleset, hero, enemies, policy: str, between=None) -> list[float]:
    """The cumulative chance after each fight, by convolving ``fight_odds``'s joint end
    states by hand (``between(stamina, luck)``: a law applied between the fights)."""
    stats = dict(hero.stats)
    dist = {(stats["STAMINA"], stats["LUCK"]): 1.0}
    cumulative = []
    for index, line_up in enumerate(enemies):
        new: dict[tuple[int, int], float] = {}
        for (stamina, luck), p in dist.items():
            result = fight_odds(
                ruleset, stats["SKILL"], stamina, line_up, luck=luck, luck_policy=policy
            )
            for end, q in result.end_states.items():
                new[end] = new.get(end, 0.0) + p * result.win_probability * q
        dist = new
        if between is not None and index < len(enemies) - 1:
            dist = between(dist)
        cumulative.append(sum(dist.values()))
    return cumulative


@pytest.mark.parametrize("policy", ["none", "best"])
def test_three_fights_chain_as_the_dp_convolved_by_hand(policy):
    book = load_book(THREE)
    graph = build_graph(book)
    reports = fight_reports(graph, book)
    hero = _median(book)
    expected = _hand_chain(book.ruleset, hero, ENEMIES, policy)
    chain = HeroChain(book.ruleset, hero, policy, {r.fight.span: r for r in reports})
    segments = Segments(book.ruleset)
    steps = tuple(
        step
        for number in (1, 2, 3, 4)
        for edge in graph.nodes[number].edges[:1]
        for step in segments.of(graph.nodes[number], edge)
    )
    assert [type(step) for step in steps] == [Fight, Fight, Fight]
    result = chain.best(steps)
    assert [step.cumulative for step in result.fights] == pytest.approx(expected, rel=1e-9)
    assert result.win == pytest.approx(expected[-1], rel=1e-9) and result.exact
    if policy == "best":  # what the validator reports
        median = validate_path(THREE, runs=0).fight_path.of("median")
        assert median.win == pytest.approx(expected[-1], rel=1e-9)
        assert median.paragraphs == (1, 2, 3, 4, 5) and len(median.fights) == 3


class _NoLuck:
    def answer(self, prompt):
        return False


def test_the_chain_agrees_with_the_real_fights_played_in_sequence_within_3_se():
    """The median hero fights the three keepers one after the other with the real fight
    code, his wounds kept, 3,000 times with seeded dice and no Luck."""
    from dedale.game.rehearsal import FightRehearsal
    from dedale.rules import Character, RandomSource

    book = load_book(THREE)
    hero = _median(book)
    stats = dict(hero.stats)
    fights = [s for n in sorted(book.paragraphs) for s in walk(book.paragraphs[n].body)]
    fights = [s for s in fights if type(s).__name__ == "Fight"]
    rehearsal = FightRehearsal(book, 3)
    specs = [rehearsal.spec(fight) for fight in fights]
    rng = RandomSource(2026)
    runs, survived = 3000, 0
    for _ in range(runs):
        character = Character(stats=dict(stats), initial=dict(stats))
        rehearsal.equip(character, [], _NoLuck())
        for fight, spec in zip(fights, specs, strict=True):
            if rehearsal.play(fight, spec, character, rng, _NoLuck()).outcome != "won":
                break
        else:
            survived += 1
    exact = _hand_chain(book.ruleset, hero, ENEMIES, "none")[-1]
    se = math.sqrt(exact * (1 - exact) / runs)
    assert abs(survived / runs - exact) <= 3 * se, (survived / runs, exact)


def test_the_w120_finding_is_at_the_fight_where_the_median_hero_drops_below():
    report = validate_path(THREE, runs=0)
    (found,) = report.findings
    assert found.code == "W120" and found.paragraph == 4 and found.span.line == 22
    message = found.message.translate("en")
    assert "main path to § 5 only 3.8%" in message and "CASTELLAN" in message
    assert "§ 1 → § 2 → § 3 → § 4 → § 5" in message
    assert found.data["cumulative"] < 0.05 <= report.fight_path.of("median").fights[1].cumulative


def test_a_meal_between_the_fights_is_eaten_and_changes_the_figure(tmp_path):
    book = load_book(MEAL)
    hero = _median(book)

    def one_meal(dist):  # the single meal left, eaten: +4 STAMINA, never above the initial
        top = dict(hero.stats)["STAMINA"]
        moved: dict[tuple[int, int], float] = {}
        for (stamina, luck), p in dist.items():
            key = (min(top, stamina + 4), luck)
            moved[key] = moved.get(key, 0.0) + p
        return moved

    enemies = [[(9, 12)], [(10, 12)]]
    with_meal = _hand_chain(book.ruleset, hero, enemies, "best", one_meal)[-1]
    without = _hand_chain(book.ruleset, hero, enemies, "best")[-1]
    assert with_meal > without + 0.05
    median = validate_path(MEAL, runs=0).fight_path.of("median")
    assert median.win == pytest.approx(with_meal, rel=1e-9)
    path = tmp_path / "book.dd"
    path.write_text(MEAL.read_text("utf-8").replace("> meal allowed\n", ""), "utf-8")
    assert validate_path(path, runs=0).fight_path.of("median").win == pytest.approx(
        without, rel=1e-9
    )
    graph = build_graph(book)
    steps = Segments(book.ruleset).of(graph.nodes[3], graph.nodes[3].edges[0])
    assert steps == (Meal(),)


def test_one_meal_is_eaten_once_however_many_places_allow_it(tmp_path):
    """One meal left, two resting places in a row: the meal is eaten once, the figure is
    that of one resting place."""
    text = MEAL.read_text("utf-8").replace(
        "§ 4\n", "§ 4\nA second hummock.\n> meal allowed\n-> 6 Go on\n\n§ 6\n"
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    report = validate_path(path, runs=0)
    assert not [f for f in report.findings if f.code.startswith("E")]
    before = validate_path(MEAL, runs=0).fight_path.of("median").win
    assert report.fight_path.of("median").win == pytest.approx(before, rel=1e-9)


def test_a_loss_on_the_way_is_carried_and_a_gain_is_capped(tmp_path):
    book = load_book(THREE)
    base = validate_path(THREE, runs=0).fight_path.of("median").win
    lose = THREE.read_text("utf-8").replace("§ 3\n", "§ 3\n> lose 3 STAMINA\n")
    gain = THREE.read_text("utf-8").replace("§ 3\n", "§ 3\n> gain 30 STAMINA\n")
    dice = THREE.read_text("utf-8").replace("§ 3\n", "§ 3\n> lose 1d6 STAMINA\n")
    figures = {}
    for name, text in (("lose", lose), ("gain", gain), ("dice", dice)):
        path = tmp_path / f"{name}.dd"
        path.write_text(text, "utf-8")
        figures[name] = validate_path(path, runs=0).fight_path.of("median").win
    assert figures["lose"] < base < figures["gain"]
    assert figures["dice"] < base  # 1d6 loses 3.5 on average
    hero = _median(book)
    top = dict(hero.stats)["STAMINA"]

    def healed(dist):  # gain 30: back to the initial STAMINA, never above
        moved: dict[tuple[int, int], float] = {}
        for (_, luck), p in dist.items():
            moved[(top, luck)] = moved.get((top, luck), 0.0) + p
        return moved

    gain_chain = _hand_chain(book.ruleset, hero, ENEMIES, "best", _only_first(healed))[-1]
    assert figures["gain"] == pytest.approx(gain_chain, rel=1e-9)


def _only_first(law):
    calls = []

    def between(dist):
        calls.append(1)
        return law(dist) if len(calls) == 1 else dist

    return between


def test_a_clean_book_gives_no_finding_and_takes_the_easier_road():
    report = validate_path(CLEAN, runs=0)
    assert report.findings == []
    median = report.fight_path.of("median")
    assert median.paragraphs == (1, 3, 4, 5, 6)  # the goblins, not the bear
    assert median.win > 0.99 and median.exact and not report.fight_path.bounded


def test_an_estimated_fight_makes_the_figure_approximate(tmp_path):
    text = THREE.read_text("utf-8").replace(
        "> fight WARDEN SKILL 10 STAMINA 10\n",
        "> fight WARDEN SKILL 10 STAMINA 10\n> each assault roll 1d6\n"
        "> 1: lose 1 STAMINA\n> 6 -> 4\n",  # (a row turning away: not told apart)
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    median = validate_path(path, runs=0).fight_path.of("median")
    assert not median.exact and median.reasons[0][0] == 3
    assert "exits" in median.reasons[0][1].translate("en")


def test_the_reports_show_the_path(monkeypatch, capsys):
    from dedale.validator.report import json as json_report
    from dedale.validator.report import text as text_report

    report = validate_path(THREE, runs=0)
    stream = io.StringIO()
    text_report.render([report], stream)
    shown = stream.getvalue()
    assert "Path of fights to § 5: weak 0.0%, median 3.8%, strong 99.7%; 3 fights;" in shown
    assert "lowest step § 4 (CASTELLAN, median 9.3%)" in shown
    stream = io.StringIO()
    json_report.render([report], stream)
    data = json.loads(stream.getvalue())["books"][0]["fight_path"]
    assert [hero["hero"] for hero in data["heroes"]] == ["weakest", "median", "strongest"]
    median = data["heroes"][1]
    assert median["path"] == [1, 2, 3, 4, 5] and median["exact"] is True
    assert [f["paragraph"] for f in median["fights"]] == [2, 3, 4]
    assert median["fights"][-1]["cumulative"] == median["win"]


def test_no_path_of_fights_without_fights_or_exact_odds():
    book = load_book(BOOKS / "W083-no-meal-left.dd")
    graph = build_graph(book)
    assert fight_path(graph, book, []) is None


def test_a_potion_that_acts_when_stamina_falls_is_counted_exactly(tmp_path):
    """(tests/validator/test_fight_path_potion.py checks the figure itself.)"""
    text = THREE.read_text("utf-8").replace(
        "§ 2\n", "§ 2\n> take Healing Draught (when STAMINA falls to 4: gain 6 STAMINA)\n"
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    median = validate_path(path, runs=0).fight_path.of("median")
    without = validate_path(THREE, runs=0).fight_path.of("median")
    assert median.exact and median.win > without.win


SCARCE = """---
title: Two camps, one loaf
language: en
ruleset: df-classic
---
§ 1
> lose 9 meals
> fight WOLF SKILL 8 STAMINA 8
> win -> 2

§ 2
A first camp.
> meal allowed
-> 3 On

§ 3
> fight BEAR SKILL 9 STAMINA 10
> win -> 4

§ 4
A second camp.
> meal allowed
-> 5 On

§ 5
> fight TROLL SKILL 10 STAMINA 10
> win -> 6

§ 6
> victory
"""


def test_the_meal_policy_is_the_best_of_every_policy(tmp_path):
    """One meal, two camps: the backward induction's figure is the best of all the
    policies "eat at the first camp in these states, else at the second" (every subset
    of the states the first camp can see, tried one by one)."""
    import itertools

    path = tmp_path / "book.dd"
    path.write_text(SCARCE, "utf-8")
    book = load_book(path)
    graph = build_graph(book)
    hero = _median(book)
    chain = HeroChain(book.ruleset, hero, "none", {})
    segments = Segments(book.ruleset)
    steps = tuple(
        step
        for number in (1, 2, 3, 4, 5)
        for step in segments.of(graph.nodes[number], graph.nodes[number].edges[0])
    )
    assert [type(step).__name__ for step in steps].count("Meal") == 2
    best = chain.best(steps).win

    def run(first_camp: set) -> float:
        dist = chain.start()
        camps = 0
        for step in steps:
            new: dict = {}
            for state, p in dist.items():
                options = chain.moves(step, state, frozenset())
                if isinstance(step, Meal):
                    eat = (state in first_camp) if camps == 0 else True
                    option = options[min(1, len(options) - 1)] if eat else options[0]
                else:
                    option = options[0]
                for target, q in option:
                    new[target] = new.get(target, 0.0) + p * q
            camps += isinstance(step, Meal)
            dist = new
        return sum(dist.values())

    after_wolf = sorted(chain.forward(chain.start(), frozenset(), steps[:2])[0])
    hurt = [state for state in after_wolf if state[0] < dict(hero.stats)["STAMINA"]]
    assert 3 <= len(hurt) <= 12
    figures = [
        run(set(chosen))
        for size in range(len(hurt) + 1)
        for chosen in itertools.combinations(hurt, size)
    ]
    assert best == pytest.approx(max(figures), rel=1e-12)
    assert best > run(set()) and best > run(set(hurt))  # the choice matters here


def test_a_hostile_stamina_gives_an_approximate_figure_not_a_crash(tmp_path):
    """A STAMINA too large for the exact odds: the chain says why, the report is whole."""
    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: t\nlanguage: en\nruleset: df-classic\n---\n"
        "§ 1\n> gain 200000 STAMINA (exceptional)\n> gain 999999 meals\n"
        "> fight GOBLIN SKILL 5 STAMINA 5\n> win -> 2\n\n"
        "§ 2\n> meal allowed\n> lose 100d6 STAMINA\n-> 3 On\n\n"
        "§ 3\n> fight ORC SKILL 7 STAMINA 7\n> win -> 4\n\n§ 4\n> victory\n",
        "utf-8",
    )
    median = validate_path(path, runs=0).fight_path.of("median")
    assert not median.exact and median.win > 0.9
    assert "1,000,000 states" in median.reasons[0][1].translate("en")


def test_the_text_line_shows_a_heros_other_path():
    from dedale.validator.fight_path import FightPath, HeroPath
    from dedale.validator.report.fight_path_report import fight_path_text

    weak = HeroPath("weakest", None, 0.5, 4, (1, 3, 4), ())
    median = HeroPath("median", None, 0.9, 4, (1, 2, 4), ())
    shown = fight_path_text(FightPath((weak, median)), "en").plain
    assert "Path of fights to § 4: weak 50.0%, median 90.0%; 0 fights" in shown
    assert "§ 1 → § 2 → § 4" in shown and "weak: § 1 → § 3 → § 4" in shown


def test_steps_past_the_last_risky_one_change_nothing(tmp_path, monkeypatch):
    """Meals, Luck costs and gains after the last fight are cut from the backward
    induction (no choice there changes the chance): the same figures, fight by fight, as
    the induction over every step, and the same reasons."""
    from dedale.validator import fight_path_chain
    from dedale.validator.fight_path_steps import Change, Unknown

    path = tmp_path / "book.dd"
    path.write_text(SCARCE, "utf-8")
    book = load_book(path)
    graph = build_graph(book)
    chain = HeroChain(book.ruleset, _median(book), "none", {})
    segments = Segments(book.ruleset)
    steps = tuple(
        step
        for number in (1, 2, 3, 4, 5)
        for step in segments.of(graph.nodes[number], graph.nodes[number].edges[0])
    )
    tail = (Meal(), Change("luck", "sub", ((1, 1.0),)), Unknown(5, "why"), Meal())
    gain = (Change("health", "add", ((2, 1.0),)),)
    for steps_now in (steps + tail, steps + gain + tail, steps[:2] + tail + steps[2:]):
        cut = chain.best(steps_now)
        assert fight_path_chain._last_risky(steps_now) <= len(steps_now)
        with monkeypatch.context() as patched:
            patched.setattr(fight_path_chain, "_last_risky", len)
            whole = chain.best(steps_now)
        assert cut.win == pytest.approx(whole.win, rel=1e-12)
        assert [s.cumulative for s in cut.fights] == pytest.approx(
            [s.cumulative for s in whole.fights], rel=1e-12
        )
        assert sorted(map(str, cut.reasons)) == sorted(map(str, whole.reasons))
    loss = Change("health", "sub", ((3, 1.0),))
    assert fight_path_chain._last_risky(steps + tail + (loss,) + tail) == len(steps) + 5
    assert fight_path_chain._last_risky(tail) == 0


def test_a_set_above_the_initial_value_is_capped_as_the_interpreter_does(tmp_path):
    from dedale.validator.fight_path_steps import Change

    book = load_book(THREE)
    hero = _median(book)
    chain = HeroChain(book.ruleset, hero, "none", {})
    top = dict(hero.stats)["STAMINA"]
    for law, exceptional, expected in ((30, False, top), (30, True, 30), (5, False, 5)):
        step = Change("health", "set", ((law, 1.0),), exceptional)
        ((state, p),) = chain.moves(step, next(iter(chain.start())), frozenset())[0]
        assert state[0] == expected and p == 1.0
