"""Tests: roll-under with a cost (Luck) or without (Skill), reliques duo tests, d20 rolls,
dice against any value, and two rolls compared (higher / lower / equal).

Each is a generator (see dedale.rules.decisions) returning a :class:`TestResult`.
Outcomes use the book vocabulary: success, failure, critical_success, critical_failure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dedale.errors import GameError
from dedale.events import DiceRolled, MessageShown, StatChanged, TestResolved, YesNoPrompt
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.decisions import RulesGen
from dedale.rules.dice import DiceExpr, characteristic_bonus
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import HealthLevel, Ruleset

SUCCESS = "success"
FAILURE = "failure"
CRITICAL_SUCCESS = "critical_success"
CRITICAL_FAILURE = "critical_failure"
HIGHER, LOWER, EQUAL = "higher", "lower", "equal"


@dataclass(frozen=True, slots=True)
class TestResult:
    """A test's outcome; ``margin`` is MR (>= 0) on success, ME (>= 0) on failure for
    roll-under tests, and ``total - difficulty`` for d20 rolls."""

    __test__ = False  # not a pytest class

    name: str
    outcome: str
    roll: int
    target: int
    margin: int
    faces: tuple[int, ...] = ()
    rolled: int | None = None  # the dice's own total, before modifiers (None: ``roll``)

    @property
    def dice_total(self) -> int:
        """What the dice showed (``ROLL`` / ``TIRAGE`` in a book)."""
        return self.roll if self.rolled is None else self.rolled

    @property
    def success(self) -> bool:
        return self.outcome in (SUCCESS, CRITICAL_SUCCESS)


def run_test(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    name: str,
    modifiers: Iterable[Any] = (),
    *,
    emit: bool = True,
) -> RulesGen[TestResult]:
    """A roll-under test named in the ruleset (``luck``, ``skill``): dice <= stat + mods.

    The stat is compared before paying the test's cost (Luck loses 1 after every test).
    """
    test = ruleset.tests.get(name)
    if test is None:
        raise GameError(
            tr("the ruleset has no test '{name}'", name=name),
            hint=tr("tests: {value}", value=", ".join(ruleset.tests)),
        )
    extra = mods.item_modifiers(character, test.stat)
    bonus = mods.total((*modifiers, *extra), mods.hero_abilities(ruleset, character))
    target = character.stats[test.stat] + bonus
    under = getattr(rng, "roll_under", None)  # dedale.solve: only success or failure is read
    roll, faces = under(test.dice, target, name) if under is not None else test.dice.roll(rng)
    success = roll <= target
    outcome = SUCCESS if success else FAILURE
    margin = target - roll if success else roll - target
    if emit:
        yield DiceRolled(purpose=name, faces=faces, total=roll, expression=test.dice.text)
        yield TestResolved(name=name, roll=roll, target=target, outcome=outcome, margin=margin)
    if test.cost:
        old, new = character.change(test.stat, -test.cost)
        if emit:
            initial = character.initial[test.stat]
            yield StatChanged(name=test.stat, old=old, new=new, initial=initial)
    return TestResult(name, outcome, roll, target, margin, faces)


def _item_bonus(character: Character, stat: str) -> int:
    return sum(value for value, _ in mods.item_modifiers(character, stat))


def health_level(levels: tuple[HealthLevel, ...], current: int, initial: int) -> HealthLevel | None:
    """The health level (reliques) of a hero at ``current`` of ``initial`` health: the
    levels split the initial health in equal parts, the first one unhurt."""
    if not levels:
        return None
    size = max(1, initial // len(levels))
    return levels[min(len(levels) - 1, max(0, initial - current) // size)]


def health_level_suffix(
    levels: tuple[HealthLevel, ...], current: int, initial: int, lang: str
) -> str:
    """`` (Lightly wounded)``: the health level shown after the health on a sheet, or ""."""
    level = health_level(levels, current, initial)
    if level is None:
        return ""
    return f" ({level.names.get(lang) or level.names.get('en') or level.id})"


def health_malus(ruleset: Ruleset, character: Character) -> int:
    """Reliques: the malus of the hero's current health level (levels of size CON)."""
    health = getattr(ruleset.fight, "health", None)
    if health not in character.stats:
        return 0
    level = health_level(ruleset.health_levels, character.stats[health], character.initial[health])
    return level.malus if level is not None else 0


def duo_target(ruleset: Ruleset, values: tuple[int, ...], bonus: int) -> int:
    """The duo's target: the two values (one counts double) + bonus, clamped."""
    duo = ruleset.duo
    assert duo is not None
    base = values[0] * 2 if len(values) == 1 else sum(values)
    return max(duo.target_min, min(duo.target_max, base + bonus))


def run_duo_test(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    stats: tuple[str, ...],
    difficulty: int = 0,
    modifiers: Iterable[Any] = (),
    *,
    risk_allowed: bool = False,
    kind: str | None = None,
    emit: bool = True,
) -> RulesGen[TestResult]:
    """Reliques action test: 2d6 <= duo (+talent/-weakness, +difficulty, health malus).

    ``kind`` (physical/mental; None: decided by the characteristics' kinds, see
    Ruleset.test_kind) selects the health malus (physical only) and the heroism counter
    that may pay for rerolling one die after a failure; the ``any`` counter may pay too.
    """
    duo = ruleset.duo
    if duo is None:
        raise GameError(tr("this ruleset has no duo tests"))
    if not 1 <= len(stats) <= 2:
        raise GameError(tr("a duo test names one or two characteristics"))
    if not duo.difficulty_min <= difficulty <= duo.difficulty_max:
        raise GameError(
            tr("difficulty {difficulty} out of range", difficulty=difficulty),
            hint=tr(
                "use {difficulty_min}..{difficulty_max}",
                difficulty_min=duo.difficulty_min,
                difficulty_max=duo.difficulty_max,
            ),
        )
    if kind is None:
        kind = ruleset.test_kind(stats)
    values = tuple(character.stats[s] + _item_bonus(character, s) for s in stats)
    bonus = mods.total(modifiers, mods.hero_abilities(ruleset, character)) + difficulty
    if kind == "physical":
        bonus += health_malus(ruleset, character)
    target = duo_target(ruleset, values, bonus)
    risk = False
    if risk_allowed:
        risk = bool((yield YesNoPrompt(kind="risk", params=(("target", target),))))
    faces = rng.roll_dice(2, 6)
    if emit:
        yield DiceRolled(purpose="duo", faces=faces, total=sum(faces), expression="2d6")
    outcome = _duo_outcome(ruleset, values, faces, target)
    for counter in _reroll_counters(ruleset, kind):
        if outcome not in (FAILURE, CRITICAL_FAILURE) or not character.counters.get(counter):
            continue
        params = (("use", "reroll"), ("counter", counter), ("faces", faces))
        if (yield YesNoPrompt(kind="heroism", params=params)):
            character.change_counter(counter, -1)
            keep = min(faces)
            faces = (keep, rng.roll(6))
            if emit:
                yield DiceRolled(purpose="heroism", faces=faces, total=sum(faces))
            outcome = _duo_outcome(ruleset, values, faces, target)
    roll = sum(faces)
    if risk:
        outcome = CRITICAL_SUCCESS if outcome in (SUCCESS, CRITICAL_SUCCESS) else CRITICAL_FAILURE
    success = outcome in (SUCCESS, CRITICAL_SUCCESS)
    margin = max(0, target - roll) if success else max(0, roll - target)
    if emit:
        yield TestResolved(name="duo", roll=roll, target=target, outcome=outcome, margin=margin)
    return TestResult("duo", outcome, roll, target, margin, faces)


def _reroll_counters(ruleset: Ruleset, kind: str) -> tuple[str, ...]:
    """The heroism counters that may pay to reroll one die of a failed test of ``kind``:
    the kind's own (Courage, Volonté), then the one for any test (Chance), each once."""
    found = (ruleset.heroism.get(kind), ruleset.heroism.get("any"))
    return tuple(dict.fromkeys(c for c in found if c))


def _duo_outcome(ruleset: Ruleset, values: tuple[int, ...], faces: tuple[int, ...], target: int):
    duo = ruleset.duo
    assert duo is not None
    pair = tuple(sorted(values * 2 if len(values) == 1 else values))
    ordered = tuple(sorted(faces))
    if ordered == tuple(sorted(duo.critical_failure)):
        # A duo at the top (6+6) rolling the critical failure only fails plainly.
        return FAILURE if pair == (duo.stat_max, duo.stat_max) else CRITICAL_FAILURE
    if ordered == tuple(sorted(duo.critical_success)):
        return SUCCESS if pair == (duo.stat_min, duo.stat_min) else CRITICAL_SUCCESS
    return SUCCESS if sum(faces) <= target else FAILURE


def run_d20_test(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    stat: str,
    difficulty: str | int,
    *,
    trained: bool | None = None,
    action: str | None = None,
    advantage: str | None = None,
    modifiers: Iterable[Any] = (),
    emit: bool = True,
) -> RulesGen[TestResult]:
    """d20 action roll: trained ``1d20 + action bonus + bonus(stat)``, else ``1d10 +
    bonus(stat)``; ``advantage``/``disadvantage`` rolls the die twice and keeps one.

    ``trained`` (True: the book's line says so) defaults to whether ``action`` is among the
    hero's trained actions (his class's list).
    Critical success at difficulty + margin, critical failure at difficulty - margin.
    """
    d20 = ruleset.d20
    if d20 is None:
        raise GameError(tr("this ruleset has no d20 action rolls"))
    try:
        dd = ruleset.difficulty(difficulty)
    except KeyError:
        names = ", ".join(level.id for level in d20.difficulties)
        raise GameError(
            tr("unknown difficulty '{difficulty}'", difficulty=difficulty),
            hint=tr("use {names}", names=names),
        ) from None
    name = f"d20:{stat}"
    if dd is None:  # obvious: no roll
        if emit:
            yield TestResolved(name=name, roll=0, target=0, outcome=SUCCESS)
        return TestResult(name, SUCCESS, 0, 0, 0)
    if trained is None:
        trained = action is not None and action in character.trained
    expr = d20.trained if trained else d20.untrained
    die, faces = expr.roll(rng)
    if advantage in ("advantage", "disadvantage"):
        second, more = expr.roll(rng)
        faces = faces + more
        die = max(die, second) if advantage == "advantage" else min(die, second)
    bonus = characteristic_bonus(character.stats[stat] + _item_bonus(character, stat))
    if trained:
        bonus += character.stats.get(d20.action_stat, 0)
    bonus += mods.total(modifiers, mods.hero_abilities(ruleset, character))
    total = die + bonus
    margin = total - dd
    if margin >= d20.critical_margin:
        outcome = CRITICAL_SUCCESS
    elif margin >= 0:
        outcome = SUCCESS
    elif margin <= -d20.critical_margin:
        outcome = CRITICAL_FAILURE
    else:
        outcome = FAILURE
    if emit:
        yield DiceRolled(purpose=name, faces=faces, total=die, expression=expr.text)
        yield TestResolved(name=name, roll=total, target=dd, outcome=outcome, margin=margin)
    return TestResult(name, outcome, total, dd, margin, faces)


def run_dice_test(
    rng: RandomSource,
    dice: DiceExpr,
    name: str,
    target: int,
    bonus: int = 0,
    *,
    emit: bool = True,
) -> RulesGen[TestResult]:
    """Dice against any value (``roll 4d6 against STAMINA +2``): a success when the dice
    plus ``bonus`` do not exceed ``target``; the margin is the distance between them."""
    total, faces = dice.roll(rng)
    roll = total + bonus
    outcome = SUCCESS if roll <= target else FAILURE
    margin = abs(target - roll)
    if emit:
        yield DiceRolled(purpose="test", faces=tuple(faces), total=total, expression=dice.text)
        yield TestResolved(name=name, roll=roll, target=target, outcome=outcome, margin=margin)
    return TestResult(name, outcome, roll, target, margin, tuple(faces), total)


def run_roll_compare(
    rng: RandomSource,
    first: DiceExpr,
    second: DiceExpr,
    bonus: int = 0,
    *,
    emit: bool = True,
) -> RulesGen[TestResult]:
    """Two rolls compared (``roll 2d6 against 2d6``): the outcome says how the first total
    plus ``bonus`` compares with the second (higher, lower, equal); both rolls are shown."""
    rolled, first_faces = first.roll(rng)
    second_total, second_faces = second.roll(rng)
    total = rolled + bonus
    outcome = HIGHER if total > second_total else LOWER if total < second_total else EQUAL
    if emit:
        yield DiceRolled(
            purpose="first_roll", faces=tuple(first_faces), total=rolled, expression=first.text
        )
        yield DiceRolled(
            purpose="second_roll", faces=tuple(second_faces), total=second_total,
            expression=second.text,
        )  # fmt: skip
        params = (("first", total), ("second", second_total))
        yield MessageShown(key=f"rolls_{outcome}", params=params)
    margin = abs(total - second_total)
    return TestResult("compare", outcome, total, second_total, margin, tuple(first_faces), rolled)
