"""The fight DP's best Luck breaks a tie by not testing Luck (``odds.LUCK_TIE``).

Where testing Luck after a wound and not testing win the fight exactly as often, the float
comparison used to go either way with rounding, spending a LUCK point for nothing. The DP now
tests Luck only when that raises the chance to win by more than ``LUCK_TIE`` (relative), as
the exact fraction twin (:class:`dedale.solve.exact_fights.ExactFight`, which tests only when
strictly better) does: checked here on the joint (STAMINA, LUCK) after a win, which any
different Luck decision on a reachable state moves. The win chances do not change (the
choice is between equals): checked on every fight of the sample books, as the validator
computes them, against the DP with the bare float comparison.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules import load_ruleset, odds_shared
from dedale.rules import odds as odds_module
from dedale.rules.odds import BestLuckPolicy, OddsTable, fight_odds
from dedale.solve.exact_fights import ExactFight
from dedale.validator.fights import fight_reports
from dedale.validator.graph import build_graph

ROOT = Path(__file__).resolve().parents[2]
RULES = load_ruleset("df-classic")

# (hero SKILL, enemies, hero STAMINA, LUCK): fights in which the bare float comparison tested
# Luck on exact ties (measured: their LUCK after a win then differs from the fractions')
TIED = [
    (7, ((8, 6),), 14, 7),
    (9, ((8, 6),), 18, 9),
    (10, ((10, 20),), 30, 12),
    (8, ((7, 10), (8, 10)), 24, 12),
]


def _exact_ends(skill, enemies, stamina, luck) -> tuple[dict, float]:
    fight = ExactFight(
        RULES, skill, list(enemies), mode="sequence", bonus=0, enemy_damage=None,
        armour=False, class_name=None, luck_policy="best",
    )  # fmt: skip
    ends, lost = fight.outcomes(stamina, luck)
    return {key: float(p) for key, p in ends.items()}, float(1 - lost)


def _float_ends(skill, enemies, stamina, luck) -> tuple[dict, float]:
    result = fight_odds(RULES, skill, stamina, list(enemies), luck=luck, luck_policy="best")
    win = result.win_probability
    return {key: p * win for key, p in result.end_states.items()}, win


def _gap(one: dict, other: dict) -> float:
    return max(abs(one.get(key, 0.0) - other.get(key, 0.0)) for key in set(one) | set(other))


@pytest.mark.parametrize("case", TIED, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}-vs-{len(c[1])}")
def test_the_dp_keeps_luck_on_ties_as_the_fractions_do(case, monkeypatch):
    exact, exact_win = _exact_ends(*case)
    ends, win = _float_ends(*case)
    assert win == pytest.approx(exact_win, abs=1e-12)
    assert _gap(ends, exact) < 1e-12
    # the case does exercise a tie: with the bare comparison, LUCK is spent on one
    monkeypatch.setattr(odds_module, "LUCK_TIE", 0.0)
    bare, bare_win = _float_ends(*case)
    assert bare_win == pytest.approx(exact_win, abs=1e-12)
    assert _gap(bare, exact) > 1e-3
    assert sum(p * lk for (_, lk), p in bare.items()) < sum(p * lk for (_, lk), p in ends.items())


def test_the_simulation_policy_takes_the_dps_choices():
    """BestLuckPolicy (the deciding side of the real fight code) keeps LUCK on a tie too:
    its answer at every wound equals the grid's recorded choice."""
    skill, enemies, stamina, luck = TIED[0]
    table = OddsTable(RULES, skill, list(enemies), luck_policy="best")
    policy = BestLuckPolicy(table, stamina, luck)
    fight = table.fight
    checked = 0
    answers = set()
    for lk in range(1, luck + 1):
        for h in range(1, stamina + 1):
            for e in range(1, enemies[0][1] + 1):
                flag = table.choices[0][lk][h][e]
                for wound, bit, damage in (("dealt", 1, fight.damage_to_enemy),
                                           ("taken", 2, fight.damage_to_hero)):  # fmt: skip
                    params = {"luck": lk, "hero": h, "enemy": e, "enemy_index": 0,
                              "hit": True, "damage": damage, "wound": wound}  # fmt: skip
                    answer = policy.answer(_prompt(params))
                    assert answer == bool(flag & bit), (lk, h, e, wound)
                    answers.add(answer)
                    checked += 1
    assert checked == 2 * luck * stamina * enemies[0][1] and answers == {True, False}


def _prompt(params: dict):
    from dedale.events import YesNoPrompt

    return YesNoPrompt(kind="use_luck", params=tuple(params.items()))


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in (ROOT / "books").iterdir() if (p / "book.yaml").exists()),
)
def test_the_validators_fight_chances_do_not_move(name, monkeypatch):
    """Only which of two equal choices is taken changed: every fight row of the sample
    books (exact and best-loadout rows) wins as often as with the bare comparison."""
    book = load_book(ROOT / "books" / name)

    def rows() -> dict:
        odds_shared._TABLES.clear()  # the shared tables were built under the other rule
        found = {}
        for report in fight_reports(build_graph(book), book, seconds=None):
            for kind, odds in (("odds", report.odds), ("best", report.best)):
                for row in odds:
                    key = (report.fight.span.line, report.paragraph, kind, row.hero.level,
                           row.hero.class_name, row.luck)  # fmt: skip
                    found[key] = row.win
        return found

    kept = rows()
    monkeypatch.setattr(odds_module, "LUCK_TIE", 0.0)
    bare = rows()
    odds_shared._TABLES.clear()
    assert kept and kept.keys() == bare.keys()
    for key, win in kept.items():
        assert win == pytest.approx(bare[key], abs=1e-12), key
