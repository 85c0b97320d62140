"""The reliques DP with the book's "when your health falls to N or less -> X"
(``reliques_odds(..., threshold=N)``) and "after M assaults won -> Y" (``win_assaults=M``)
against 3,000 seeded plays of the real fight code: the interpreter runs such a fight with its
hooks (dedale.game.fight_hooks), which check them after each turn (the threshold first).
Within 3 standard errors: the chance to leave the fight alive, and how it splits between
``won`` (the enemies down, or M turns won) and the threshold (``limit``)."""

from __future__ import annotations

import math

import pytest
from dedale import ast
from dedale.events import TargetPrompt
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import Character, RandomSource
from dedale.rules.odds_reliques import reliques_odds

FIGHTS = 3000
BOOK = """---
title: Seuil
language: en
ruleset: reliques
---
§ 1
A wolf.
> fight
> enemy WOLF STRENGTH {FOR} AGILITY {AGL} PERCEPTION 3 CONSTITUTION 2 weapon 2
{extras}
> win -> 2

§ 2
The end.
> victory
"""


def _hero(FOR, AGL, health, courage=0) -> Character:
    stats = {"FOR": FOR, "AGL": AGL, "PER": FOR, "CON": 3, "ESP": 3, "CHA": 3, "HEALTH": health}
    counters = {"courage": courage, "volonte": 0, "chance": 0}
    return Character(stats=dict(stats), initial={**stats, "HEALTH": 15},
                     items={"épée": 1, "cuir": 1}, counters=counters)  # fmt: skip


class _Plain:
    """Dodge (the hero's dodge and parry are the same duo: FOR = PER), never Courage."""

    def answer(self, prompt):
        if isinstance(prompt, TargetPrompt):
            return 0
        return getattr(prompt, "kind", None) == "dodge"


# name: (enemy FOR, AGL), threshold, turns won, (hero FOR, AGL, health): a long fight, a
# hero starting at the threshold (one turn), a fight the threshold mostly ends, two turns
# won end it, both
CASES = {
    "long_fight": ((3, 3), 4, None, (3, 3, 15)),
    "starts_at_the_threshold": ((4, 4), 8, None, (3, 4, 8)),
    "threshold_first": ((4, 5), 10, None, (4, 3, 15)),
    "two_turns_won": ((4, 4), None, 2, (3, 3, 15)),
    "threshold_and_turns_won": ((4, 4), 7, 2, (3, 3, 15)),
}


def _extras(threshold, needed) -> str:
    lines = []
    if threshold is not None:
        lines.append(f"> when your HEALTH falls to {threshold} or less -> 2")
    if needed is not None:
        lines.append(f"> after {needed} assaults won -> 2")
    return "\n".join(lines)


@pytest.mark.parametrize("name", list(CASES))
def test_the_threshold_odds_agree_with_the_real_fight(tmp_path, name):
    (FOR, AGL), threshold, needed, (hero_for, hero_agl, health) = CASES[name]
    path = tmp_path / "book.dd"
    extras = _extras(threshold, needed)
    path.write_text(BOOK.format(FOR=FOR, AGL=AGL, extras=extras), encoding="utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    rehearsal = FightRehearsal(book)
    spec, ruleset = rehearsal.spec(fight), rehearsal.ruleset(fight)
    hero = _hero(hero_for, hero_agl, health)
    exact = reliques_odds(
        ruleset, hero.copy(), spec, luck_policy="none", threshold=threshold, win_assaults=needed
    )
    rng = RandomSource(sum(map(ord, name)))
    ways = {"won": 0, "limit": 0}
    for _ in range(FIGHTS):
        fighter = hero.copy()
        result = rehearsal.play(fight, spec, fighter, rng, _Plain())
        if result.outcome in ways and fighter.stats["HEALTH"] > 0:
            ways[result.outcome] += 1
    for simulated, expected in (
        (ways["won"] + ways["limit"], exact.win_probability),
        (ways["won"], exact.won),
        (ways["limit"], exact.limit),
    ):
        se = math.sqrt(max(expected * (1 - expected), 1e-4) / FIGHTS)
        assert abs(simulated / FIGHTS - expected) <= 3 * se, (simulated / FIGHTS, expected, se)
    if threshold is not None:
        assert exact.limit > 0.05  # the threshold matters
    if needed is not None:  # so do the turns won (the enemy is seldom down in 2 or 3 turns)
        alone = reliques_odds(ruleset, hero.copy(), spec, luck_policy="none", threshold=threshold)
        assert exact.won > alone.won + 0.02


def test_spending_courage_at_best_is_never_below_never_spending_it(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(FOR=4, AGL=4, extras=_extras(5, 3)), encoding="utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    rehearsal = FightRehearsal(book)
    spec, ruleset = rehearsal.spec(fight), rehearsal.ruleset(fight)
    hero = _hero(3, 3, 12, courage=2)
    options = {"threshold": 5, "win_assaults": 3}
    never = reliques_odds(ruleset, hero.copy(), spec, luck_policy="none", **options)
    best = reliques_odds(ruleset, hero.copy(), spec, luck_policy="best", **options)
    assert best.win_probability >= never.win_probability
    for odds in (never, best):  # the forward pass (kernels) and the values agree
        assert sum(odds.outcomes.values()) == pytest.approx(odds.win_probability, abs=1e-12)
