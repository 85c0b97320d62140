"""Exact fight odds for every fight of a book, for the heroes the ruleset can roll.

For each fight: the chance of winning for the weakest, the median and the strongest hero
(every stat at its minimum, median or maximum roll), for each class (with its abilities
and kit) and overall, with no Luck and with the best Luck policy, computed exactly by
``dedale.rules.odds.fight_odds``.
Fights with no exact method (fights past a DP's budget, what the DPs do not follow) are
estimated by a seeded simulation of the real fight code (:mod:`dedale.validator.simulate`);
their rows carry the sample size and a 95% margin.
W030 when the median hero (of any class) wins less often than the threshold of book.yaml
(default 5%) even with the best Luck; W031 when even the strongest hero cannot win.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.validator.budget import FIGHTS_SECONDS, Deadline
from dedale.validator.carried import AttackShifts, Carried, ItemBook, carried_at
from dedale.validator.enemy_dice import mixed_win
from dedale.validator.fight_plan import Unsupported as PlanUnsupported
from dedale.validator.fight_plan import needs_exits, plan_of
from dedale.validator.graph import Graph, walk

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


EXACT_MODES = ("single", "sequence", "as_one", "together")


class Unsupported(Exception):
    """The rules core has no exact odds for this ruleset or fight mode."""


class OddsCalculator:
    """Computes (and caches) fight odds through the rules core's ``fight_odds``."""

    def __init__(self, ruleset: object) -> None:
        from dedale.rules.odds import fight_odds
        from dedale.rules.ruleset import OpposedFight

        if not isinstance(getattr(ruleset, "fight", None), OpposedFight):
            raise Unsupported("exact odds exist only for opposed (FF-family) fights")
        self.ruleset = ruleset
        self.params = ruleset.fight
        luck_test = ruleset.tests.get(self.params.luck_test) if self.params.luck_test else None
        self.luck_stat = luck_test.stat if luck_test is not None else None
        # without a Luck test that costs Luck there is no Luck policy to compare
        has_luck = luck_test is not None and luck_test.cost > 0
        self.policies = POLICIES if has_luck else ("none",)
        self.heroes = hero_profiles(ruleset)
        self.cache: dict[tuple, float] = {}
        self.fight_odds = fight_odds
        self.carried: frozenset[str] = frozenset()  # see book_loadout
        self.codewords: frozenset[str] = frozenset()

    def odds(
        self, fight: ast.Fight, shift: Callable[[Hero], int] | None = None
    ) -> tuple[Odds, ...]:
        """The rows of ``fight``; ``shift`` gives what each hero's items add to his attack
        (:mod:`dedale.validator.carried`)."""
        if fight.mode not in EXACT_MODES:
            raise Unsupported(f"no exact odds for the '{fight.mode}' mode")
        enemies = self._enemies(fight)
        bonus = fight.attack_bonus + sum(modifier.value for modifier in fight.modifiers)
        mode = "sequence" if fight.mode == "single" else fight.mode
        exits = needs_exits(fight)
        allies = self._allies(fight)
        results = []
        for hero in self.heroes:
            own = bonus + (shift(hero) if shift is not None else 0)
            for luck in self.policies:
                key = (enemies, mode, own, fight.enemy_damage, hero, luck)
                if allies is not None:  # exact odds with allies: dedale.validator.fights_allies
                    key, compute = (key, allies, id(fight) if exits else None), allies[2]
                elif exits:  # the chance to leave the fight alive by any of its ways out
                    key = (key, id(fight))
                    compute = self._exit_compute
                else:
                    compute = self._compute
                if key not in self.cache:
                    self.cache[key] = mixed_win(  # stats as dice: the mix of their line-ups
                        enemies,
                        lambda e, hero=hero, luck=luck, compute=compute, own=own: compute(
                            hero, luck, e, mode, own, fight
                        ),
                    )
                results.append(Odds(hero, luck, self.cache[key]))
        if any(odds.hero.class_name for odds in results):
            results = overall(results) + results
        return tuple(results)

    def _allies(self, fight: ast.Fight) -> tuple | None:
        """A fight's allies, whom the enemies strike and the DP that takes them (None: none)."""
        if not fight.allies:
            return None
        from dedale.validator.fights_allies import allies_of, ally_compute

        compute = functools.partial(ally_compute, self)
        return allies_of(self, fight), fight.struck, compute

    def _enemies(self, fight: ast.Fight) -> tuple[tuple[object, object, bool], ...]:
        attack, health = self.params.attack_stat, self.params.health
        enemies = []
        for enemy in fight.enemies:
            stats: dict[str, int] = {}
            for name, value in enemy.stats:
                found = self.ruleset.resolve(name)
                if found is not None and not isinstance(value, bool):  # a number, or dice
                    stats[found[1]] = value
            if attack not in stats or health not in stats:
                missing = attack if attack not in stats else health
                raise ValueError(tr("enemy {name} has no {stat}", name=enemy.name, stat=missing))
            enemies.append((stats[attack], stats[health], enemy.immune_instant_kill))
        return tuple(enemies)

    def _compute(self, hero: Hero, luck: str, enemies, mode, bonus, fight) -> float:
        skill, stamina = hero.get(self.params.attack_stat), hero.get(self.params.health)
        if skill is None or stamina is None:
            raise ValueError(tr("the ruleset's heroes have no fixed attack or health roll"))
        result = self.fight_odds(
            self.ruleset,
            skill,
            stamina,
            enemies,
            luck=hero.get(self.luck_stat) if self.luck_stat else None,
            luck_policy=luck,
            class_name=hero.class_name,
            mode=mode,
            attack_bonus=bonus,
            enemy_damage=fight.enemy_damage,
            win_only=True,
        )
        return float(result.win_probability)

    def _exit_compute(self, hero: Hero, luck: str, enemies, mode, bonus, fight) -> float:
        """The exact chance to leave a fight with exits or per-enemy rules alive."""
        from dedale.rules.odds_exits import ExitOddsTooLarge, exit_odds  # noqa: F401

        skill, stamina = hero.get(self.params.attack_stat), hero.get(self.params.health)
        if skill is None or stamina is None:
            raise ValueError(tr("the ruleset's heroes have no fixed attack or health roll"))
        line_up = tuple((int(a), int(h), bool(i)) for a, h, i in enemies)
        if mode == "together":  # rules/odds_group_exits.py (too large: OddsTooLarge, I115)
            from dedale.validator.fight_plan import together_exit_odds

            return together_exit_odds(self, hero, luck, line_up, bonus, fight)
        if mode == "as_one":
            line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                        all(i for _, _, i in line_up)),)  # fmt: skip
        abilities, armour = class_fight_kit(self.ruleset, hero.class_name)
        try:
            plan = plan_of(fight, self.ruleset, line_up, dict(hero.stats), self.carried,
                           self.codewords)  # fmt: skip
            plan = dataclasses.replace(plan, bonus=bonus)  # the fight's and the items' bonus
            return exit_odds(
                self.ruleset, skill, stamina, plan,
                luck=hero.get(self.luck_stat) if self.luck_stat else None,
                luck_policy=luck, abilities=abilities, armour=armour,
            )  # fmt: skip
        except ExitOddsTooLarge as error:  # W032, as for the plain DP's too many states
            raise ValueError(error.message) from None


def class_fight_kit(ruleset: object, class_name: str | None) -> tuple[tuple, bool]:
    """A class's abilities and whether its kit (or an ability) guards the first assault,
    as in the hero's first fight (the exact DP's assumption)."""
    from dedale.rules import modifiers as mods

    if class_name is None:
        return (), False
    klass = ruleset.classes[class_name]  # type: ignore[attr-defined]
    armour = mods.has_ability(klass.abilities, "first_assault", "no_wound")
    for item in klass.kit:
        found = ruleset.item(item)  # type: ignore[attr-defined]
        if found and mods.has_ability(found.abilities, "first_assault", "no_wound"):
            armour = armour or found.wear is None or found.wear > 0
    return tuple(klass.abilities), armour


def book_loadout(
    graph: Graph, ruleset: object, given: list[ast.GainItem] | None = None
) -> tuple[frozenset[str], frozenset[str]]:
    """Every item and codeword the book can give (the best loadout, for the conditions of
    rules under an enemy), names folded; ``given`` receives the book's ``take`` lines."""
    items: set[str] = set()
    codewords: set[str] = set()
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem):
                items.add(statement.item.casefold())
                if given is not None:
                    given.append(statement)
            elif isinstance(statement, ast.SetCodeword):
                codewords.add(statement.codeword.casefold())
    for klass in getattr(ruleset, "classes", {}).values():
        items.update(name.casefold() for name in klass.kit)
    return frozenset(items), frozenset(codewords)


def fight_reports(
    graph: Graph,
    book: object,
    seed: int = 0,
    seconds: float | None = FIGHTS_SECONDS,
    hidden: tuple[int, ...] = (),
) -> list[FightReport]:
    """The odds of every fight of the book, in paragraph order: exact where the rules core
    has a method, else estimated by a seeded simulation of the real fight code
    (:mod:`dedale.validator.simulate`, seeded with ``seed``). Past ``seconds`` the fights
    left get no odds (their error is ``CUT``; see :func:`fights_budget`). Exact odds take
    the items the hero carries there (:mod:`dedale.validator.carried`; ``hidden``: the
    paragraphs a reader may also open directly)."""
    fights = [
        (number, statement)
        for number in sorted(graph.nodes)
        for statement in walk(graph.nodes[number].paragraph.body)
        if isinstance(statement, ast.Fight)
    ]
    if not fights:
        return []
    ruleset = getattr(book, "ruleset", None)
    from dedale.rules.ruleset import D20Fight

    if isinstance(getattr(ruleset, "fight", None), D20Fight):  # exact d20 odds: their module
        from dedale.validator.fights_d20 import d20_fight_reports

        return d20_fight_reports(graph, book, fights, seed, seconds)
    calculators: dict[str | None, OddsCalculator] = {}
    reason = None
    given: list[ast.GainItem] = []
    try:
        calculators[None] = OddsCalculator(ruleset)
        calculators[None].carried, calculators[None].codewords = book_loadout(graph, ruleset, given)
    except (ImportError, Unsupported) as error:
        reason = str(error)
    held: dict = {}
    shifts = None
    if None in calculators:
        from dedale.validator.loadout import loadouts

        shifts = AttackShifts(ruleset, ItemBook(graph, book, given))
        stat = calculators[None].params.attack_stat
        classes = {hero.class_name for hero in calculators[None].heroes}
        if shifts.items.effects or any(shifts(frozenset(), c, stat) for c in classes):
            held = loadouts(graph, book, hidden)
        else:  # no item bonus, and armed by the kit or no unarmed penalty: items change nothing
            shifts = None
    simulator: list = []  # built on the first fight that needs it (imports the interpreter)
    reliques: list = []  # the same, for the exact odds of reliques fights
    from dedale.rules.odds_inputs import OddsTooLarge
    from dedale.validator.fights_allies import exact_allies

    estimated = sum(
        1
        for _, fight in fights
        if None not in calculators or fight.mode not in EXACT_MODES or not exact_allies(fight)
    )
    reports = []
    deadline = Deadline(seconds)
    for number, fight in fights:
        if deadline.passed():
            reports.append(FightReport(number, fight, (), CUT, supported=False))
            continue
        why = None
        try:
            if None in calculators and fight.mode in EXACT_MODES and exact_allies(fight):
                stat = _attack_stat(ruleset, fight)
                if stat not in calculators:  # "attack with MAGIC": that stat replaces SKILL
                    changed = dataclasses.replace(ruleset.fight, attack_stat=stat)
                    calculators[stat] = OddsCalculator(dataclasses.replace(ruleset, fight=changed))
                    calculators[stat].carried = calculators[None].carried
                    calculators[stat].codewords = calculators[None].codewords
                try:
                    calculator = calculators[stat]
                    loadout = held.get(fight.span)
                    reports.append(_loadout_report(calculator, number, fight, loadout, shifts))
                    continue
                except PlanUnsupported as error:  # what the exact odds with exits cannot follow
                    why = str(error)
                except OddsTooLarge as error:  # at once, or with allies: too many states
                    if fight.mode != "together" and not fight.allies:
                        raise
                    report = _estimated(
                        simulator, graph, book, (seed, estimated), number, fight, error.message
                    )
                    exact = _with_exact_rows(report, calculator, fight, loadout, shifts)
                    # I115 says why (the whole fight, or only its best-Luck rows: never a
                    # bare ≈)
                    reports.append(dataclasses.replace(exact, estimated_because=error.message))
                    continue
            too_large = None
            if _is_reliques(ruleset):  # exact: dedale.validator.fights_reliques
                from dedale.validator.fights_reliques import reliques_report

                found = reliques_report(reliques, graph, book, number, fight)
                if isinstance(found, FightReport):
                    reports.append(found)
                    continue
                why = too_large = found  # too many states (or None): estimated, I115 says why
            why = (
                why
                or reason
                or (
                    tr("fights with allies have no exact odds")
                    if fight.allies
                    else tr("no exact odds for the '{mode}' mode", mode=fight.mode)
                )
            )
            report = _estimated(simulator, graph, book, (seed, estimated), number, fight, why)
            if too_large is not None:
                report = dataclasses.replace(report, estimated_because=too_large)
            reports.append(report)
        except Unsupported as error:
            reports.append(FightReport(number, fight, (), str(error), supported=False))
        except (DedaleError, KeyError, ValueError) as error:
            reports.append(FightReport(number, fight, (), _reason(error)))
    return reports


def _is_reliques(ruleset: object) -> bool:
    """Whether the fights are reliques fights (their exact odds: validator.fights_reliques)."""
    from dedale.rules.ruleset import ReliquesFight

    return isinstance(getattr(ruleset, "fight", None), ReliquesFight)


def _with_exact_rows(report: FightReport, calculator: OddsCalculator, fight, loadout, shifts):
    """An estimated report of a fight at once whose best-Luck odds had too many states:
    the rows without Luck exact where they fit the budget, the best-Luck estimates never
    below them (best Luck is a maximum: not testing Luck is one of its choices)."""
    if "best" not in calculator.policies or not report.odds:
        return report
    policies = calculator.policies
    calculator.policies = ("none",)
    try:
        exact = _loadout_report(calculator, report.paragraph, fight, loadout, shifts).odds
    except (DedaleError, KeyError, ValueError, PlanUnsupported):
        return report
    finally:
        calculator.policies = policies
    plain = {odds.hero: odds for odds in exact}
    rows = []
    for odds in report.odds:
        found = plain.get(odds.hero)
        if found is None:
            rows.append(odds)
        elif odds.luck == "none":
            rows.append(found)
        else:
            rows.append(dataclasses.replace(odds, win=max(odds.win, found.win)))
    return dataclasses.replace(report, odds=tuple(rows))


def _loadout_report(calculator: OddsCalculator, number: int, fight, loadout, shifts):
    """The exact odds of a fight with the items surely held there, and with the best
    loadout a reachable path brings when it changes some hero's attack (``shifts`` None:
    no item of the book changes a fight)."""
    if shifts is None:
        return FightReport(number, fight, calculator.odds(fight))
    stat = calculator.params.attack_stat
    classes = tuple(dict.fromkeys(hero.class_name for hero in calculator.heroes))
    carried = carried_at(loadout, shifts, classes, stat)
    worst = calculator.odds(fight, lambda hero: shifts(carried.surely, hero.class_name, stat))
    best: tuple[Odds, ...] = ()
    if any(shifts(carried.best, c, stat) != shifts(carried.surely, c, stat) for c in classes):
        best = calculator.odds(fight, lambda hero: shifts(carried.best, hero.class_name, stat))
        if all(abs(a.win - b.win) < 1e-12 for a, b in zip(worst, best, strict=True)):
            best = ()  # the items help the attack but change no figure (a sure win already)
    return FightReport(number, fight, worst, best=best, carried=carried)


def _reason(error: Exception) -> str:
    """Why a fight has no odds: the error's (translatable) message, else its type's name."""
    if isinstance(error, DedaleError):
        return error.message
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error) or type(error).__name__


def _estimated(simulator: list, graph: Graph, book, seeds, number: int, fight, why: str):
    """The estimated odds of a fight with no exact method (``why``: shown if the
    simulation itself is impossible, e.g. a ruleset whose heroes cannot be created)."""
    if not simulator:
        try:
            from dedale.validator.simulate import FightSimulator

            heroes = hero_profiles(book.ruleset)
            seed, count = seeds  # count: the fights to estimate (for the book's budget)
            kit = start_kit(graph)
            simulator.append(FightSimulator(book, heroes, seed, kit=kit, fights=count))
        except (ImportError, DedaleError, KeyError, ValueError, AttributeError) as error:
            simulator.append(f"{why} ({error})")
    if isinstance(simulator[0], str):
        return FightReport(number, fight, (), simulator[0], supported=False)
    results = list(simulator[0].odds(number, fight))
    if any(odds.hero.class_name for odds in results):
        results = overall(results) + results
    return FightReport(number, fight, tuple(results))


def start_kit(graph: Graph) -> tuple[ast.GainItem, ...]:
    """The items the start paragraph gives every reader (``> take`` at its top level)."""
    node = graph.nodes.get(graph.start)
    if node is None:
        return ()
    return tuple(s for s in node.paragraph.body if isinstance(s, ast.GainItem))


def _attack_stat(ruleset: object, fight: ast.Fight) -> str | None:
    """The stat id a fight's ``attack with`` line names (None: the ruleset's own)."""
    if fight.attack_stat is None:
        return None
    found = ruleset.resolve(fight.attack_stat)  # type: ignore[attr-defined]
    if found is None or found[0] != "stat":
        raise ValueError(tr("'{name}' is not a stat", name=fight.attack_stat))
    return found[1]


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
