"""Fights at once with exits, escapes and a fight's own codeword on the path of fights
(issue 14.4): two wolves at once held off for 6 assaults, a troll escaped from (its win
leaves the path), a goblin disarmed once on a double. The chain is checked against an
independent one: a recursion over the assaults of each fight from the dice faces (the best
target each assault, the escape when it is the better chance), written here."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_counters import LocalCounters
from dedale.validator.fight_path_steps import Fight, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

BOOK = (
    Path(__file__).resolve().parents[1] / "books_extra" / "validator" / "path-group-and-escape.dd"
)
FACES = [(a + b, a == b) for a in range(1, 7) for b in range(1, 7)]  # 2d6, each 1/36


def _add(out: dict, key, p: float) -> None:
    out[key] = out.get(key, 0) + p


@cache
def _assaults(skill: int, target: int, other: int | None) -> dict:
    """{(target wounded, hero wounded by the target, hero wounded by the other): p}, in
    fractions, for one assault of the hero against ``target``'s SKILL, ``other`` striking
    beside it."""
    out: dict = {}
    each = Fraction(1, 36**3 if other is not None else 36**2)
    for hero, _ in FACES:
        for roll, _ in FACES:
            mine, theirs = skill + hero, target + roll
            for side, _ in FACES if other is not None else [(0, False)]:
                hit = other is not None and other + side > mine
                _add(out, (mine > theirs, theirs > mine, hit), each)
    return out


def _wolves(skill: int, stamina: int) -> dict:
    """{(way, STAMINA): p} of two wolves at once (SKILL 7 STAMINA 6, SKILL 6 STAMINA 4),
    not won after 6 assaults: the target of best value each assault (the first on a tie),
    in fractions (so that a tie is one)."""
    skills = (7, 6)

    @cache
    def solve(h: int, es: tuple, k: int) -> tuple[float, tuple]:
        if k >= 6:
            return Fraction(1), ((("limit", h), Fraction(1)),)
        best = None
        for t in (i for i in range(2) if es[i] > 0):
            o = 1 - t
            other = skills[o] if es[o] > 0 else None
            value, ends = Fraction(0), {}
            for (wounds, hurt, hit), p in _assaults(skill, skills[t], other).items():
                h2 = h - 2 * hurt - 2 * hit
                e2 = list(es)
                if wounds:
                    e2[t] = max(0, e2[t] - 2)
                if h2 <= 0:
                    continue
                if not any(e2):
                    value += p
                    _add(ends, ("won", h2), p)
                    continue
                v, inner = solve(h2, tuple(e2), k + 1)
                value += p * v
                for key, q in inner:
                    _add(ends, key, p * q)
            if best is None or value > best[0]:
                best = (value, tuple(ends.items()))
        return best

    return {key: float(p) for key, p in solve(stamina, (6, 4), 0)[1]}


def _troll(skill: int, stamina: int) -> dict:
    """{(way, STAMINA): p} of the troll (SKILL 9 STAMINA 4), escape after 2 assaults (2
    STAMINA, no Luck): escaping is taken when it is the better chance to leave alive."""
    hero = sum(1 for a, _ in FACES for b, _ in FACES if skill + a > 9 + b) / 1296
    enemy = sum(1 for a, _ in FACES for b, _ in FACES if skill + a < 9 + b) / 1296
    tie = 1 - hero - enemy

    @cache
    def solve(h: int, e: int, k: int) -> tuple[float, tuple]:
        escape = 1.0 if h > 2 else 0.0
        if k >= 2 and escape >= 1.0:
            return 1.0, ((("escaped", h - 2), 1.0),)
        value, ends = 0.0, {}
        scale = 1 / (1 - tie) if k >= 2 else 1.0  # from the escape on, a tie changes nothing
        for p, h2, e2 in ((hero, h, e - 2), (enemy, h - 2, e)):
            if h2 <= 0:
                continue
            if e2 <= 0:
                value += p * scale
                _add(ends, ("won", h2), p * scale)
                continue
            v, inner = solve(h2, e2, min(k + 1, 2))
            value += p * scale * v
            for key, q in inner:
                _add(ends, key, p * scale * q)
        if k < 2:  # a tie before the escape: the next assault
            v, inner = solve(h, e, k + 1)
            value += tie * v
            for key, q in inner:
                _add(ends, key, tie * q)
        if k >= 2 and escape > value:
            return escape, ((("escaped", h - 2), 1.0),)
        return value, tuple(ends.items())

    return dict(solve(stamina, 4, 0)[1])


def _goblin(skill: int, stamina: int) -> dict:
    """{STAMINA: p} after a win over the goblin (SKILL 8 STAMINA 6): on the hero's double,
    unless disarmed, its SKILL -2 and disarmed (not after the assault that kills it)."""

    @cache
    def solve(h: int, e: int, disarmed: bool) -> tuple:
        enemy = 6 if disarmed else 8
        moves: dict = {}
        for hero, double in FACES:
            for roll, _ in FACES:
                h2, e2 = h, e
                if skill + hero > enemy + roll:
                    e2 -= 2
                elif skill + hero < enemy + roll:
                    h2 -= 2
                key = ("end", h2) if h2 <= 0 or e2 <= 0 else (h2, e2, disarmed or double)
                _add(moves, key, 1 / 1296)
        stay = moves.pop((h, e, disarmed), 0.0)
        out: dict = {}
        for key, p in moves.items():
            p /= 1 - stay
            if key[0] == "end":
                if key[1] > 0:
                    _add(out, key[1], p)
                continue
            for end, q in solve(*key):
                _add(out, end, p * q)
        return tuple(out.items())

    return dict(solve(stamina, 6, False))


def _sequence(skill: int, stamina: int) -> dict:
    """{(way, STAMINA): p} of a troll (SKILL 9 STAMINA 4) then an imp (SKILL 6 STAMINA 2)
    one after another, escape after 2 assaults (of the whole fight), no Luck."""
    enemies = ((9, 4), (6, 2))

    def odds(enemy: int) -> tuple[float, float, float]:
        hero = sum(1 for a, _ in FACES for b, _ in FACES if skill + a > enemy + b) / 1296
        lose = sum(1 for a, _ in FACES for b, _ in FACES if skill + a < enemy + b) / 1296
        return hero, lose, 1 - hero - lose

    @cache
    def solve(i: int, h: int, e: int, k: int) -> tuple[float, tuple]:
        if k >= 2 and h > 2:  # escaping is sure: taken
            return 1.0, ((("escaped", h - 2), 1.0),)
        hero, lose, tie = odds(enemies[i][0])
        scale = 1 / (1 - tie) if k >= 2 else 1.0  # from the escape on, a tie changes nothing
        value, ends = 0.0, {}
        for p, h2, e2 in ((hero, h, e - 2), (lose, h - 2, e)):
            if h2 <= 0:
                continue
            if e2 <= 0 and i + 1 == len(enemies):
                value += p * scale
                _add(ends, ("won", h2), p * scale)
                continue
            nxt = (i + 1, h2, enemies[i + 1][1]) if e2 <= 0 else (i, h2, e2)
            v, inner = solve(*nxt, min(k + 1, 2))
            value += p * scale * v
            for key, q in inner:
                _add(ends, key, p * scale * q)
        if k < 2:
            v, inner = solve(i, h, e, k + 1)
            value += tie * v
            for key, q in inner:
                _add(ends, key, tie * q)
        return value, tuple(ends.items())

    return dict(solve(0, stamina, 4, 0)[1])


def _hand_chain(hero, middle=None) -> list[float]:
    stats = dict(hero.stats)
    skill = stats["SKILL"]
    dist: dict = {}
    for (_, h), p in _wolves(skill, stats["STAMINA"]).items():  # both ways go on
        _add(dist, h, p)
    cumulative = [sum(dist.values())]
    new: dict = {}
    for h, p in dist.items():  # only the escape goes on (the win: § 7, death)
        for (way, end), q in (middle or _troll)(skill, h).items():
            if way == "escaped":
                _add(new, end, p * q)
    dist = new
    cumulative.append(sum(dist.values()))
    cumulative.append(sum(p * q for h, p in dist.items() for q in _goblin(skill, h).values()))
    return cumulative


def _chain(book, hero, local=True):
    graph = build_graph(book)
    reports = fight_reports(graph, book)
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4), (4, 5)):
        node = graph.nodes[number]
        edge = next(e for e in node.edges if e.target == target)
        steps += segments.of(node, edge)
    chain = HeroChain(
        book.ruleset, hero, "none", {r.fight.span: r for r in reports},
        local=LocalCounters(book) if local else None,
    )  # fmt: skip
    return tuple(steps), chain


@pytest.mark.parametrize("level", ["weakest", "median"])
def test_the_chain_matches_an_independent_recursion(level):
    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == level)
    steps, chain = _chain(book, hero)
    assert [type(step) for step in steps] == [Fight, Fight, Fight]
    assert steps[0].ways == {("won", -1), ("limit", -1)}
    assert steps[1].ways == {("escaped", -1)}  # the win goes to § 7
    result = chain.best(steps)
    assert result.exact, result.reasons
    expected = _hand_chain(hero)
    assert [step.cumulative for step in result.fights] == pytest.approx(expected, abs=1e-9)
    assert 0.05 < expected[-1] < 0.99


def test_the_escape_carries_its_wound():
    """From one start, the troll's ways out are the recursion's: the escape's STAMINA."""
    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    steps, chain = _chain(book, hero)
    skill, luck = dict(hero.stats)["SKILL"], dict(hero.stats)["LUCK"]
    win, ends, why = chain.exit_kernel(steps[1].fight, steps[1].ways, frozenset(), 9, luck)
    expected = {h: p for (way, h), p in _troll(skill, 9).items() if way == "escaped"}
    assert why is None and dict((h, p) for (h, _), p in ends) == pytest.approx(expected)
    assert win == pytest.approx(sum(expected.values())) and 0 < win < 1


def test_a_codeword_set_elsewhere_keeps_the_estimate(tmp_path):
    text = BOOK.read_text("utf-8").replace(
        "-> 2 Go down to the ford", "> set codeword DISARMED\n-> 2 Go down to the ford"
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    book = load_book(path)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    steps, chain = _chain(book, hero)
    result = chain.best(steps)
    assert [number for number, _ in result.reasons] == [4]
    assert "does not follow" in result.reasons[0][1].translate("en")
    _, chain = _chain(load_book(BOOK), hero, local=False)  # no book: no counter followed
    assert not chain.best(steps).exact


def test_the_validator_reports_the_path_with_best_luck():
    """With the best Luck, the wolves' states fit the at-once DP's budget: every fight of
    the path is followed exactly."""
    median = validate_path(BOOK, runs=0).fight_path.of("median")
    assert median.paragraphs == (1, 2, 3, 4, 5)
    assert [step.exact for step in median.fights] == [True, True, True]
    assert median.reasons == ()


def test_past_the_best_luck_budget_the_fight_is_followed_without_luck(monkeypatch):
    """With the best Luck past the at-once DP's budget, that fight is followed without Luck
    (its wounds carried, ``≈`` with the reason), the others exactly: the scalar recursion's
    budget made too small, and the array fill (which would take the wolves) not taking
    fights at once."""
    from dedale.rules import odds_group_exits, odds_group_exits_array

    monkeypatch.setattr(odds_group_exits, "LUCK_WORK", 1)
    takes = odds_group_exits_array.eligible
    monkeypatch.setattr(
        odds_group_exits_array,
        "eligible",
        lambda solver: len(solver.plan.enemies) == 1 and takes(solver),
    )
    median = validate_path(BOOK, runs=0).fight_path.of("median")
    assert median.paragraphs == (1, 2, 3, 4, 5)
    assert [step.exact for step in median.fights] == [False, True, True]
    assert [number for number, _ in median.reasons] == [2]
    assert "without Luck" in median.reasons[0][1].translate("en")


def _escape_while_standing(item, game) -> bool:
    """Escape whenever the escape's wound (2) leaves the hero standing, as the chain does."""
    return item.kind == "escape" and game.state.hero.stats["STAMINA"] > 2


def test_the_escape_and_the_codeword_against_the_real_interpreter_within_3_se(tmp_path):
    """Without the wolves, the median hero plays the book 2,000 times through the
    interpreter, seeded dice, no Luck, escaping as the chain does (whenever the escape's
    wound leaves him standing): the victories are within 3 standard errors of the chain."""
    from dedale import events

    text = BOOK.read_text("utf-8")
    start, end = text.index("> fight all at once"), text.index("§ 3")
    path = tmp_path / "book.dd"
    path.write_text(text[:start] + "-> 3 Wade across\n\n" + text[end:], "utf-8")
    book = load_book(path)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    steps, chain = _chain(book, hero)
    exact = chain.best(steps).win
    assert chain.best(steps).exact
    runs = 2000
    played = victory_rate(
        book, ff_values(hero), runs, steps=500, answers={events.YesNoPrompt: _escape_while_standing}
    )
    assert 0.05 < exact < 0.95
    assert_within_3_se(played, exact, runs)


def test_the_potion_acts_when_a_fight_with_exits_is_over(tmp_path):
    """A potion (when STAMINA falls to 4: gain 6) held through the wolves: it acts inside
    that fight, blow by blow (tests/validator/test_fight_path_potion_at_once.py), and once
    the fight is over, as the interpreter makes it after every statement: no state alive
    keeps STAMINA 4 or less with a dose left."""
    text = BOOK.read_text("utf-8").replace(
        "-> 2 Go down to the ford",
        "> take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)\n"
        "-> 2 Go down to the ford",
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    book = load_book(path)
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "weakest")
    reports = {r.fight.span: r for r in fight_reports(graph, book)}
    chain = HeroChain(
        book.ruleset, hero, "none", reports, potion=segments.potions.potion, doses=0,
        local=LocalCounters(book),
    )  # fmt: skip
    steps = tuple(segments.of(graph.nodes[1], graph.nodes[1].edges[0]))
    wolves = segments.of(graph.nodes[2], next(e for e in graph.nodes[2].edges if e.target == 3))
    stats = dict(hero.stats)
    dist = chain.forward(chain.start(), frozenset(), steps)[0]
    assert {state[3] for state in dist} == {2}  # the two doses held
    after = {}
    for state, p in dist.items():
        for target, q in chain.moves(wolves[0], state, frozenset())[0]:
            _add(after, target, p * q)
    assert after and all(h > 4 for (h, _, _, d) in after if d > 0)
    assert any(d < 2 for (_, _, _, d) in after)  # some doses were drunk after the fight
    bare = {(h, stats["LUCK"], 0, 0): 1.0 for h in [stats["STAMINA"]]}
    alive = sum(q for _, q in chain.moves(wolves[0], next(iter(bare)), frozenset())[0])
    assert sum(after.values()) > alive + 0.05  # the doses drunk in the fight save him


def test_a_fight_with_its_own_codeword_met_twice_is_approximate():
    """The second time the goblin is met, DISARMED may already be set: not exact."""
    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    steps, chain = _chain(book, hero)
    assert chain.best(steps).exact
    steps, chain = _chain(book, hero)
    result = chain.best((*steps, steps[-1]))
    assert result.reasons and {number for number, _ in result.reasons} == {4}


COUNTED = """---
title: The toll bridge
language: en
ruleset: df-classic
---
§ 1
-> 2 Walk to the bridge

§ 2
Two toll-keepers at once: each blow you land shakes a coin from their purses.
> fight all at once
> enemy TALL KEEPER SKILL 8 STAMINA 12
> enemy SHORT KEEPER SKILL 7 STAMINA 10
WAY
> win -> 3

§ 3
> fight OGRE SKILL 9 STAMINA 9
> win -> 4

§ 4
> victory
"""


@pytest.mark.parametrize("level", ["weakest", "median"])
def test_a_counter_of_the_fight_s_own_is_followed(tmp_path, level):
    """A gold piece for each assault won, and the fight ends at 3: the same chain as
    "after 3 assaults won" (the fight's own count, another way through the solver)."""
    figures = []
    for way in (
        "> when you win an assault: add 1 gold\n> end the fight when gold >= 3 -> 3",
        "> after 3 assaults won -> 3",
    ):
        path = tmp_path / f"book{len(figures)}.dd"
        path.write_text(COUNTED.replace("WAY", way), "utf-8")
        book = load_book(path)
        hero = next(h for h in hero_profiles(book.ruleset) if h.level == level)
        graph = build_graph(book)
        segments = Segments(book.ruleset, book)
        steps = []
        for number, target in ((1, 2), (2, 3), (3, 4)):
            node = graph.nodes[number]
            steps += segments.of(node, next(e for e in node.edges if e.target == target))
        reports = {r.fight.span: r for r in fight_reports(graph, book)}
        chain = HeroChain(book.ruleset, hero, "none", reports, local=LocalCounters(book))
        result = chain.best(tuple(steps))
        assert result.exact, result.reasons
        figures.append([step.cumulative for step in result.fights])
    assert figures[0] == pytest.approx(figures[1], abs=1e-9)
    assert 0.02 < figures[0][-1] < 0.98


def test_a_counter_the_book_also_changes_is_approximate(tmp_path):
    text = COUNTED.replace(
        "WAY", "> when you win an assault: add 1 gold\n> end the fight when gold >= 3 -> 3"
    ).replace("-> 2 Walk to the bridge", "> add 1 gold\n-> 2 Walk to the bridge")
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    median = validate_path(path, runs=0).fight_path.of("median")
    assert not median.exact and [number for number, _ in median.reasons] == [2]


@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_escape_s_ways_out_sum_to_the_one_enemy_exit_odds(policy):
    """Every way out of the troll kept (its win and its escape), from each start: the
    chance is the one-enemy exact odds with exits (rules/odds_exits.py, another DP), with
    no Luck and with the best Luck."""
    from dedale.rules.odds_exits import exit_odds
    from dedale.validator.fight_plan import plan_of

    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    steps, _ = _chain(book, hero)
    chain = HeroChain(book.ruleset, hero, policy, {}, local=LocalCounters(book))
    troll = steps[1].fight
    stats = dict(hero.stats)
    every = frozenset({("won", -1), ("escaped", -1)})
    for stamina in (1, 3, 5, 8, stats["STAMINA"]):
        for luck in (0, 2, stats["LUCK"]):
            win, ends, why = chain.exit_kernel(troll, every, frozenset(), stamina, luck)
            plan = plan_of(troll, book.ruleset, ((9, 4, False),), stats)
            expected = exit_odds(
                book.ruleset, stats["SKILL"], stamina, plan, luck=luck, luck_policy=policy
            )
            assert why is None and win == pytest.approx(expected, abs=1e-9)
            assert sum(p for _, p in ends) == pytest.approx(win, abs=1e-12)


def test_enemies_one_after_another_with_an_escape(tmp_path):
    """A troll then an imp one after another, escape after 2 assaults: the chain (the
    solver of fights with exits, with the escape, fight_path_acting.py) is the recursion."""
    text = BOOK.read_text("utf-8").replace(
        "> fight TROLL SKILL 9 STAMINA 4\n",
        "> fight one after another\n> enemy TROLL SKILL 9 STAMINA 4\n"
        "> enemy IMP SKILL 6 STAMINA 2\n",
    )
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    book = load_book(path)
    for level in ("weakest", "median"):
        hero = next(h for h in hero_profiles(book.ruleset) if h.level == level)
        steps, chain = _chain(book, hero)
        assert steps[1].ways == {("escaped", -1)}
        result = chain.best(steps)
        assert result.exact, result.reasons
        expected = _hand_chain(hero, _sequence)
        assert [step.cumulative for step in result.fights] == pytest.approx(expected, abs=1e-9)
    from dedale.rules.odds_exits import exit_odds
    from dedale.validator.fight_plan import plan_of

    fight = steps[1].fight
    every = frozenset({("won", -1), ("escaped", -1)})
    chain = HeroChain(book.ruleset, hero, "best", {}, local=LocalCounters(book))
    stats = dict(hero.stats)
    plan = plan_of(fight, book.ruleset, ((9, 4, False), (6, 2, False)), stats)
    for stamina in (2, 3, 6, stats["STAMINA"]):
        for luck in (1, stats["LUCK"]):
            win, ends, why = chain.exit_kernel(fight, every, frozenset(), stamina, luck)
            expected = exit_odds(
                book.ruleset, stats["SKILL"], stamina, plan, luck=luck, luck_policy="best"
            )
            assert why is None and win == pytest.approx(expected, abs=1e-9)


def test_a_setting_past_its_time_budget_is_approximate_and_says_so(monkeypatch):
    from dedale.validator import fight_path_group

    monkeypatch.setattr(fight_path_group, "SETTING_SECONDS", -1.0)  # spent at once
    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    steps, chain = _chain(book, hero)
    result = chain.best(steps)
    assert not result.exact
    assert any("seconds" in why.translate("en") for _, why in result.reasons)
