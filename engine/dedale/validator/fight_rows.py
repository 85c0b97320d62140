"""The rows of the fight table: the hero profiles the ruleset can roll (weakest, median,
strongest, per class), one row of odds, the odds of one fight, and how a fight's enemies
are named. The data of :mod:`dedale.validator.fights`; no computation of odds here."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

from dedale import ast
from dedale.i18n import tr
from dedale.validator.carried import Carried

LEVELS = ("weakest", "median", "strongest")
CUT = tr("not computed: the time budget of the fight odds ran out")
POLICIES = ("none", "best")


@dataclass(frozen=True, slots=True)
class Hero:
    """A hero profile: its class (None: any) and level, and its stats."""

    level: str
    class_name: str | None
    stats: tuple[tuple[str, int], ...]

    def get(self, stat: str) -> int | None:
        return dict(self.stats).get(stat)


@dataclass(frozen=True, slots=True)
class Odds:
    """One row: ``samples`` and ``margin`` (the 95% half-width) are set for estimates
    (Monte Carlo of the real fight code) and None for exact odds."""

    hero: Hero
    luck: str
    win: float
    samples: int | None = None
    margin: float | None = None

    @property
    def estimate(self) -> bool:
        return self.samples is not None


@dataclass(frozen=True, slots=True)
class FightReport:
    """The odds of one fight."""

    paragraph: int
    fight: ast.Fight
    odds: tuple[Odds, ...]
    error: str | None = None
    supported: bool = True
    #: the rows with the best loadout a reachable path brings (empty: the same as ``odds``)
    best: tuple[Odds, ...] = ()
    carried: Carried | None = None  # the worst and best loadouts, the items that change them
    #: why a fight the exact odds cover is estimated all the same (too many states or too
    #: long: I115; the whole fight, or only its best-Luck rows beside exact ones)
    estimated_because: str | None = None
    #: the death endings some way out of the fight turns to, which its figures count as
    #: defeats, not as leaving alive (validator.death_ways)
    death_ways: tuple[int, ...] = ()

    def best_loadout_win(self, level: str, class_name: str | None = None) -> float | None:
        """With the best loadout and the best Luck policy (None: no better loadout)."""
        who = (level, class_name)
        wins = [o.win for o in self.best if (o.hero.level, o.hero.class_name) == who]
        return max(wins) if wins else None

    @property
    def method(self) -> str | None:
        """``exact``, ``estimate`` (seeded Monte Carlo), or None when unavailable."""
        if not self.odds:
            return None
        return "estimate" if any(odds.estimate for odds in self.odds) else "exact"

    def best_win(self, level: str, class_name: str | None = None) -> float | None:
        """The chance with the best Luck policy the ruleset has (none when it has no Luck)."""
        wins = [
            odds.win
            for odds in self.odds
            if (odds.hero.level, odds.hero.class_name) == (level, class_name)
        ]
        return max(wins) if wins else None

    def win(self, level: str, luck: str, class_name: str | None = None) -> float | None:
        for odds in self.odds:
            if (odds.hero.level, odds.luck, odds.hero.class_name) == (level, luck, class_name):
                return odds.win
        return None


def median(distribution: dict[int, Fraction]) -> int:
    """The smallest value whose cumulative probability reaches one half."""
    total = Fraction(0)
    for value in sorted(distribution):
        total += distribution[value]
        if total >= Fraction(1, 2):
            return value
    return max(distribution)


def hero_profiles(ruleset: object) -> list[Hero]:
    """Weakest, median and strongest hero: every creation roll at its minimum, median or
    maximum, with each class's own rolls when the ruleset has classes."""
    base = {
        stat.id: stat.roll.distribution()
        for stat in getattr(ruleset, "stats", ())
        if stat.roll is not None and not stat.roll.names
    }
    groups: dict[str | None, dict[str, dict[int, Fraction]]] = {
        name: {**base, **{s: d.distribution() for s, d in cls.stats.items() if not d.names}}
        for name, cls in (getattr(ruleset, "classes", None) or {}).items()
    } or {None: base}
    heroes = []
    for class_name, dists in groups.items():
        for level in LEVELS:
            pick = {"weakest": min, "strongest": max, "median": median}[level]
            stats = tuple(sorted((s, pick(d)) for s, d in dists.items()))
            heroes.append(Hero(level, class_name, stats))
    return heroes


def overall(odds: list[Odds]) -> list[Odds]:
    """With classes, the overall rows (class None): the weakest of the classes' weakest
    heroes, the median of their median heroes and the strongest of their strongest."""
    rows = []
    for level in LEVELS:
        for luck in POLICIES:
            same = sorted(
                (o for o in odds if o.hero.level == level and o.luck == luck),
                key=lambda o: o.win,
            )
            if not same:
                continue
            chosen = {"weakest": same[0], "strongest": same[-1]}.get(level)
            chosen = chosen or same[(len(same) - 1) // 2]
            rows.append(dataclasses.replace(chosen, hero=Hero(level, None, chosen.hero.stats)))
    return rows


def enemy_names(fight: ast.Fight) -> str:
    """The enemies as the book names them: a group written once (``> enemies the three
    RATS ...``) by its count and plural name (``3 RATS``), not member by member."""
    names: list[str] = []
    seen: set[int] = set()
    for enemy in fight.enemies:
        group = enemy.group
        if group is None:
            names.append(enemy.name)
        elif id(group) not in seen:
            seen.add(id(group))
            count = sum(1 for other in fight.enemies if other.group is group)
            names.append(f"{count} {group.plural}")
    return ", ".join(names)
