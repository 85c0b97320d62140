"""Fights with allies and ways out on the path of fights (issue 14.4): the allies' exact odds
with exits give, with their ways out labelled, the STAMINA each way leaves, and the chain
carries it to the next fight. Checked against a brute force in fractions (a tiny fight: an
ally, enemies striking at random, a threshold, an assault limit, ``first assault won``),
against an independent chain (that brute force, then ``fight_odds`` for the next fight), and
against the real interpreter with seeded dice (within 3 standard errors)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Fight, Segments
from dedale.validator.fight_rows import Hero
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOK / "path-ally-exit-then-fight.dd"

TINY = """---
title: Tiny
language: en
ruleset: df-classic
---
§ 1
> fight RAT SKILL 7 STAMINA 4
> ally ODO SKILL 6 STAMINA 2
> enemies strike at random
> first assault won -> 2
> when your STAMINA falls to 2 or less -> 3
> not won after 3 assaults -> 4
> win -> 5
§ 2
> victory
§ 3
> victory
§ 4
> victory
§ 5
> victory
"""


def _differences() -> dict[int, Fraction]:
    """The law of (2d6 - 2d6)."""
    law: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    law[a + b - c - d] = law.get(a + b - c - d, 0) + Fraction(1, 1296)
    return law


def _brute(
    hero_skill: int,
    hero_stamina: int,
    *,
    enemy=(7, 4),
    deals=2,
    ally=(6, 2),
    limit=3,
    threshold: int | None = 2,
    first=True,
) -> dict[tuple[str, int], Fraction]:
    """{(way, STAMINA): chance} of a fight with one ally and enemies striking at random,
    assault by assault as the interpreter plays it (no Luck): the hero's exchange (a lost
    one wounds the ally instead when the roll says the enemies strike the ally and it
    stands), then the ally's (it is wounded when it loses and is struck), the last enemy's
    fall a win ("first" in assault 1), the rule "first assault won" (the hero won the first
    exchange), the threshold, then the limit before the next assault."""
    law = _differences()
    first_name = "first" if first else "won"

    @cache
    def ends(h: int, e: int, a: int, k: int) -> tuple:
        if k == limit:
            return ((("limit", h), Fraction(1)),)
        out: dict[tuple[str, int], Fraction] = {}

        def add(key, p):
            out[key] = out.get(key, 0) + p

        for diff, p in law.items():
            lead = diff + hero_skill - enemy[0]
            for struck in ("hero", "ally"):
                q = p / 2
                h1, e1, a1 = h, e, a
                if lead > 0:
                    e1 -= 2
                elif lead < 0:
                    if struck == "ally" and a1 > 0:
                        a1 = max(0, a1 - deals)
                    else:
                        h1 -= deals
                if h1 <= 0:
                    continue
                if e1 <= 0:
                    add((first_name if k == 0 else "won", h1), q)
                    continue
                phases = [(Fraction(1), e1, a1)]
                if a1 > 0:  # the ally's exchange
                    phases = []
                    for d2, p2 in law.items():
                        ally_lead = d2 + ally[0] - enemy[0]
                        if ally_lead > 0:
                            phases.append((p2, e1 - 2, a1))
                        elif ally_lead < 0 and struck == "ally":
                            phases.append((p2, e1, max(0, a1 - deals)))
                        else:
                            phases.append((p2, e1, a1))
                for r, e2, a2 in phases:
                    if e2 <= 0:
                        add((first_name if k == 0 else "won", h1), q * r)
                    elif first and k == 0 and lead > 0:  # "first assault won"
                        add(("first", h1), q * r)
                    elif threshold is not None and h1 <= threshold:
                        add(("threshold", h1), q * r)
                    else:
                        for key, s in ends(h1, e2, a2, k + 1):
                            add(key, q * r * s)
        return tuple(out.items())

    return dict(ends(hero_stamina, enemy[1], ally[1], 0))


def _chain_of(book, hero: Hero):
    reports = {r.fight.span: r for r in fight_reports(build_graph(book), book)}
    return HeroChain(book.ruleset, hero, "none", reports)


@pytest.mark.parametrize("stamina", [2, 5, 8, 12])
def test_the_ways_out_agree_with_a_brute_force_in_fractions(stamina, tmp_path):
    path = tmp_path / "tiny.dd"
    path.write_text(TINY, "utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if type(s).__name__ == "Fight")
    hero = Hero("median", None, (("SKILL", 7), ("STAMINA", 9), ("LUCK", 7)))
    chain = _chain_of(book, hero)
    brute = _brute(7, stamina)
    assert (sum(brute.values()) < 1) == (stamina == 2)  # one wound kills, else the threshold
    for way in (("first", 0), ("exit", 1), ("threshold", -1), ("limit", -1), ("won", -1)):
        kind = way[0]
        chance, ends, why = chain.exit_kernel(fight, frozenset({way}), frozenset(), stamina, 7)
        assert why is None
        expected = {h: p for (w, h), p in brute.items() if w == kind}
        got = {h: p for (h, _), p in ends}
        assert set(got) == set(expected), (kind, got, expected)
        for h, p in expected.items():
            assert got[h] == pytest.approx(float(p), abs=1e-12), (kind, h)
        assert chance == pytest.approx(float(sum(expected.values())), abs=1e-12)


def _steps(book):
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4)):
        node = graph.nodes[number]
        steps += segments.of(node, next(e for e in node.edges if e.target == target))
    return tuple(steps)


def _weakest(book):
    return next(h for h in hero_profiles(book.ruleset) if h.level == "weakest")


def test_the_chain_carries_the_wounds_of_the_ally_fight():
    """The wolf held off with an ally for 6 assaults (won or not, both go on to § 3), then
    the bear alone: the chain's figure is the independent chain's (the brute force, then
    the bear's exact odds from each STAMINA it leaves)."""
    book = load_book(BOOK)
    hero = _weakest(book)
    steps = _steps(book)
    chain = _chain_of(book, hero)
    result = chain.best(steps)
    assert result.exact, result.reasons
    assert [type(step) for step in steps if isinstance(step, Fight)] == [Fight, Fight]
    stats = dict(hero.stats)
    wolf = _brute(stats["SKILL"], stats["STAMINA"], enemy=(10, 12), deals=3, ally=(7, 4),
                  limit=6, threshold=None, first=False)  # fmt: skip
    through = float(sum(wolf.values()))
    total = 0.0
    for (_, h), p in wolf.items():
        bear = fight_odds(book.ruleset, stats["SKILL"], h, [(8, 8)]).win_probability
        total += float(p) * bear
    assert result.fights[0].cumulative == pytest.approx(through, abs=1e-12)
    assert result.win == pytest.approx(total, abs=1e-12)
    alone = fight_odds(book.ruleset, stats["SKILL"], stats["STAMINA"], [(8, 8)]).win_probability
    assert result.win < through * alone - 0.05  # the wounds carried on matter


def test_the_chain_agrees_with_the_real_interpreter_within_3_se():
    book = load_book(BOOK)
    hero = _weakest(book)
    exact = _chain_of(book, hero).best(_steps(book)).win
    runs = 2000
    played = victory_rate(book, ff_values(hero), runs, lang="fr", steps=500)
    assert 0.05 < exact < 0.95
    assert_within_3_se(played, exact, runs)


def test_the_validator_follows_the_ally_fight_exactly():
    fight_path = validate_path(BOOK, runs=0).fight_path
    assert all(hero.exact for hero in fight_path.heroes)


ESCAPE = """---
title: Escape
language: en
ruleset: df-classic
---
§ 1
> fight TROLL SKILL 9 STAMINA 8
> ally ODO SKILL 7 STAMINA 4
> the enemy strikes the ally
> escape -> 2 after 2
> when your STAMINA falls to 4 or less -> 3
> win -> 4
§ 2
> victory
§ 3
> victory
§ 4
> victory
"""


@pytest.mark.parametrize("policy", ["none", "best"])
def test_every_way_out_sums_to_the_chance_to_leave_alive(policy, tmp_path):
    """With an escape and the best Luck, the labelled ways out (escaped, threshold, won)
    sum to the allies' exits DP's own chance to leave alive, from every start."""
    from dedale.rules.odds_allies_exits import ally_exit_odds
    from dedale.validator.fight_plan import plan_of

    path = tmp_path / "escape.dd"
    path.write_text(ESCAPE, "utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if type(s).__name__ == "Fight")
    hero = Hero("median", None, (("SKILL", 8), ("STAMINA", 12), ("LUCK", 8)))
    reports = {r.fight.span: r for r in fight_reports(build_graph(book), book)}
    chain = HeroChain(book.ruleset, hero, policy, reports)
    ways = frozenset({("escaped", -1), ("threshold", -1), ("won", -1)})
    plan = plan_of(fight, book.ruleset, ((9, 8, False),), dict(hero.stats), allies=True)
    for stamina, luck in ((12, 8), (7, 3), (5, 0)):
        chance, ends, why = chain.exit_kernel(fight, ways, frozenset(), stamina, luck)
        assert why is None
        alive = ally_exit_odds(book.ruleset, 8, stamina, plan, ((7, 4),), struck="ally",
                               luck=luck, luck_policy=policy)  # fmt: skip
        assert chance == pytest.approx(alive, abs=1e-12)
        assert sum(p for _, p in ends) == pytest.approx(chance, abs=1e-12)
        escaped, _, _ = chain.exit_kernel(
            fight, frozenset({("escaped", -1)}), frozenset(), stamina, luck
        )
        assert 0 < escaped < chance
