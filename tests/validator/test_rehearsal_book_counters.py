"""The validator's seeded estimate of a fight whose rules move a counter book.yaml declares
(``quand il gagne un assaut : ajoutez 1 à morsures`` / ``fin du combat quand morsures >= 3
-> 4``, § 4 a death): each simulated fight starts from the counter's start, as a game does
(game/rehearsal.py). The counter was carried from one simulated fight to the next, so after
the first few every fight ended at once on the exit to the death: "W031 no hero won a single
one of 150 simulated fights" while random games won 80 % of the time."""

from __future__ import annotations

import math

from dedale.validator import validate_path

BOOK = """---
titre: Le marais aux vipères
langue: fr
état:
  compteurs: [morsures]
---
§ 1
Une vipère géante jaillit des roseaux.
> combat la VIPÈRE GÉANTE HABILETÉ 7 ENDURANCE 8
> quand elle gagne un assaut : ajoutez 1 à morsures
> fin du combat quand morsures >= 3 -> 4
> victoire -> 3

§ 3
> victoire

§ 4
Le venin vous paralyse.
> mort
"""
_SUMS = {
    t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) / 36 for t in range(2, 13)
}


def _exact(skill: int, stamina: int) -> float:
    """Four wounds (8 ENDURANCE, 2 a wound) before the viper's third won assault (or the
    hero's death): df-classic assaults, 2d6 + HABILETÉ each, ties left out."""
    won = sum(p * q for a, p in _SUMS.items() for b, q in _SUMS.items() if a + skill > b + 7)
    lost = sum(p * q for a, p in _SUMS.items() for b, q in _SUMS.items() if a + skill < b + 7)
    x, y = won / (won + lost), lost / (won + lost)
    bites = min(3, math.ceil(stamina / 2))  # the wounds he survives, or the exit
    return sum(math.comb(3 + k, k) * x**4 * y**k for k in range(bites))


def test_each_simulated_fight_starts_from_the_counters_start(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(BOOK, "utf-8")
    report = validate_path(path, runs=0)
    assert not [f for f in report.findings if f.code == "W031"], report.findings
    (fight,) = report.fights
    rows = [row for row in fight.odds if row.luck == "none"]
    assert rows and all(row.samples for row in rows)
    for row in rows:
        stats = dict(row.hero.stats)
        expected = _exact(stats["SKILL"], stats["STAMINA"])
        se = math.sqrt(max(expected * (1 - expected), 1e-4) / row.samples)
        assert abs(row.win - expected) <= 3 * se, (stats, row.win, expected, row.samples)
