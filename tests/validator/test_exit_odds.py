"""The exact odds of fights with exits and per-enemy rules (rules/odds_exits.py) against a
seeded simulation of the real fight code (the interpreter's fight, hooks included), within
3 standard errors; and the validator's report of such fights (issue 13.2, 14.2, 15.1)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale import ast
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import AlwaysNo, RandomSource, create_character
from dedale.rules.odds_exits import exit_odds
from dedale.validator.fight_plan import plan_of
from dedale.validator.fights import class_fight_kit

HEADER = """---
title: Exits
language: en
ruleset: {ruleset}
start: 1
rules:
  counters:
    bites: {{names: {{en: Bites, fr: Morsures}}, aliases: [bites], initial: 0}}
    held: {{names: {{en: Held, fr: Enserré}}, aliases: [held], initial: 0}}
---
§ 1
{fight}
> win -> 2
§ 2
> victory
§ 3
> victory
"""

CASES = {
    "survive 3 assaults": "> fight GIANT SKILL 12 STAMINA 30\n> not won after 3 assaults -> 3",
    "survive 8 assaults": "> fight GIANT SKILL 12 STAMINA 30\n> not won after 8 assaults -> 3",
    "assault limit": "> fight ORC SKILL 11 STAMINA 9\n> it deals 3\n> not won after 6 -> 3",
    "assaults won": "> fight ORC SKILL 10 STAMINA 12\n> after 2 assaults won -> 3",
    "threshold": (
        "> fight TROLL SKILL 11 STAMINA 10\n> it deals 5\n"
        "> when your STAMINA falls to 3 or less -> 3"
    ),
    "first assault won": "> fight DUELLIST SKILL 10 STAMINA 8\n> first assault won -> 3",
    "per-enemy damage": "> fight VIPER SKILL 9 STAMINA 6\n> it deals 3\n> it takes 1 (if not Mace)",
    "half and all": "> fight WRAITH SKILL 9 STAMINA 7\n> it takes all (if Mace)\n> it takes half",
    "bites and an exit": (
        "> fight RAT SKILL 10 STAMINA 9\n> it deals 4\n> when it wins an assault: gain 1 bites\n"
        "> end the fight when bites >= 4 -> 3"
    ),
    "held: attack -1": (
        "> fight CONSTRICTOR SKILL 8 STAMINA 8\n> against it: attack -1 (if held >= 1)\n"
        "> when it wins an assault: set held to 1\n> when you win an assault: set held to 0"
    ),
    "double and shield": (
        "> fight CAPTAIN SKILL 10 STAMINA 8\n> on a double: its SKILL -2\n"
        "> when it wounds you: roll 1d6, 5-6: wound 1"
    ),
    "double once": (
        "> fight CAPTAIN SKILL 11 STAMINA 8\n"
        "> on a double (if not codeword DISARMED): its SKILL -3, set codeword DISARMED"
    ),
    "escape": "> fight OGRE SKILL 11 STAMINA 14\n> it deals 4\n> escape -> 3 after 4",
    "assault table": (
        "> fight OGRE SKILL 10 STAMINA 10\n> each assault roll 1d6\n> 1: lose 2 STAMINA\n"
        "> 5: gain 1 bites\n> 6 -> 3\n> end the fight when bites >= 2 -> 3"
    ),
    "assault table and a counter threshold": (
        "> fight OGRE SKILL 10 STAMINA 12\n> each assault roll 2d6\n> 2-5: gain 1 bites\n"
        "> 12: lose 3 STAMINA\n> when bites falls to 0 -> 3"
    ),
    "its STAMINA": "> fight TROLL SKILL 10 STAMINA 12\n> on a double: its STAMINA -3",
    "several enemies": (
        "> fight\n> enemy GUARD SKILL 8 STAMINA 4\n> it deals 1\n"
        "> enemy SERGEANT SKILL 11 STAMINA 9\n> not won after 9 assaults -> 3"
    ),
}
HERO = {"SKILL": 9, "STAMINA": 14, "LUCK": 8}
SAMPLES = 6_000


def _fight(tmp_path: Path, text: str, ruleset: str = "df-classic"):
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ruleset=ruleset, fight=text), encoding="utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    return book, fight


def _line_up(book, fight):
    params = book.ruleset.fight
    found = []
    for enemy in fight.enemies:
        stats = {book.ruleset.resolve(n)[1]: v for n, v in enemy.stats}
        found.append((stats[params.attack_stat], stats[params.health], enemy.immune_instant_kill))
    return tuple(found)


class _Escape:
    """Escapes at once when offered (the exact odds take escape when it is better)."""

    def answer(self, prompt):
        return getattr(prompt, "kind", None) == "escape"


def _simulated(book, fight, hero, class_name=None, decider=None) -> float:
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    rng = RandomSource(1234)
    health = book.ruleset.fight.health
    kept = 0
    for _ in range(SAMPLES):
        character = create_character(book.ruleset, RandomSource(0), class_name, fixed=hero)
        result = rehearsal.play(fight, spec, character, rng, decider or AlwaysNo())
        rng.log.clear()
        alive = character.stats[health] > 0
        kept += alive and result.outcome in ("won", "limit", "escaped")
    return kept / SAMPLES


def _exact(book, fight, hero, class_name=None, policy="none") -> float:
    abilities, armour = class_fight_kit(book.ruleset, class_name)
    plan = plan_of(fight, book.ruleset, _line_up(book, fight), hero)
    return exit_odds(
        book.ruleset, hero["SKILL"], hero["STAMINA"], plan, luck=hero["LUCK"],
        luck_policy=policy, abilities=abilities, armour=armour,
    )  # fmt: skip


def _within_3_se(exact: float, simulated: float) -> None:
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / SAMPLES)
    assert abs(exact - simulated) <= 3 * se, (exact, simulated, se)


@pytest.mark.parametrize("name", list(CASES))
def test_exact_odds_with_exits_agree_with_the_real_fight(tmp_path, name):
    book, fight = _fight(tmp_path, CASES[name])
    decider = _Escape() if name == "escape" else None
    exact = _exact(book, fight, HERO)
    _within_3_se(exact, _simulated(book, fight, HERO, decider=decider))
    # best Luck is a maximum: never below no Luck
    assert _exact(book, fight, HERO, policy="best") >= exact - 1e-12


def test_mercenaire_in_a_per_assault_fight_agrees_with_the_real_fight(tmp_path):
    # issue 15.1: the +1 on the first hit and the armour of the first assault, in a fight
    # run with hooks (a threshold), exactly as the plain fight
    text = "> fight ORC SKILL 8 STAMINA 7\n> when your STAMINA falls to 4 or less -> 3"
    book, fight = _fight(tmp_path, text, "df48.5")
    hero = dict(HERO)
    exact = _exact(book, fight, hero, "Mercenaire")
    _within_3_se(exact, _simulated(book, fight, hero, "Mercenaire"))


def test_survive_three_assaults_is_not_reported_as_never_won(tmp_path):
    from dedale.validator.fights import OddsCalculator

    book, fight = _fight(tmp_path, CASES["survive 3 assaults"])
    odds = OddsCalculator(book.ruleset).odds(fight)
    assert all(row.win > 0.99 for row in odds)  # every hero lives through three assaults


@pytest.mark.parametrize("policy", ["none", "best"])
def test_without_exits_the_exact_odds_are_the_plain_dp(tmp_path, policy):
    from dedale.rules.odds import fight_odds

    book, fight = _fight(
        tmp_path, "> fight\n> enemy ORC SKILL 9 STAMINA 8\n> enemy IMP SKILL 7 STAMINA 5"
    )
    plain = fight_odds(book.ruleset, 9, 14, _line_up(book, fight), luck=8, luck_policy=policy)
    assert _exact(book, fight, HERO, policy=policy) == pytest.approx(
        plain.win_probability, abs=1e-9
    )


def test_a_fight_the_exact_odds_cannot_follow_is_estimated(tmp_path):
    from dedale.validator.fights import fight_reports
    from dedale.validator.graph import build_graph

    text = (  # an event on the hero's LUCK: not followed by the exact odds
        "> fight OGRE SKILL 9 STAMINA 8\n> when it wins an assault: lose 1 LUCK\n"
        "> not won after 5 assaults -> 3"
    )
    book, _fight_ = _fight(tmp_path, text)
    reports = fight_reports(build_graph(book), book, seconds=None)
    assert [r.method for r in reports] == ["estimate"]
    assert all(odds.win > 0.5 for odds in reports[0].odds)  # the limit is a way on


def test_malformed_fights_give_typed_errors_not_crashes(tmp_path):
    from dedale.errors import GameError
    from dedale.rules import load_ruleset
    from dedale.rules.odds_exits import ExitPlan

    ruleset = load_ruleset("df-classic")
    for enemies in ((), ((8, 0, False),), ((8, 10**9, False),)):
        with pytest.raises(GameError):
            exit_odds(ruleset, 10, 20, ExitPlan(enemies=enemies, limit=3))
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ruleset="df-classic", fight="> fight\n> not won after 3 -> 3"))
    from dedale.validator import validate_path

    validate_path(path, runs=0)  # a fight without enemies: findings, no traceback


def test_a_deadly_fight_with_exits_is_reported_as_leaving_it_alive(tmp_path):
    from dedale.validator import validate_path

    text = "> fight GIANT SKILL 14 STAMINA 40\n> it deals 6\n> not won after 9 assaults -> 3"
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ruleset="df-classic", fight=text), encoding="utf-8")
    report = validate_path(path, runs=0)
    (found,) = [f for f in report.findings if f.code == "W030"]
    assert "leaves the fight against GIANT alive" in str(found.message)
