"""Exact odds of the tests repeated until success (issue 13 §6, dedale.game.test_forms).

For a roll-under test (``test your skill (until success)``) or a dice test against a stat
(``roll 4d6 against STAMINA (until success)``) whose failure costs health
(``failure: lose 1 STAMINA``), I100 gives the exact chance that the weakest, the median
and the strongest hero the ruleset rolls dies before succeeding, entering the test with
full health. The chance of one throw is the dice's exact distribution against the stat and
the modifiers; a Luck test's own cost lowers the stat after each throw, a loss of the tested
stat lowers it too. Modifiers that depend on a condition count at their worst (the
penalties in, the bonuses out). W101 when a hero can never succeed and the failure costs
nothing: the game would stop on the repeat limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import number as localised
from dedale.i18n import tr
from dedale.rules.dice import parse_dice
from dedale.validator.fights import LEVELS, hero_profiles
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, walk

Dice = dict[int, Fraction]
EXACT_THROWS = 100
"""Up to this many throws the odds are exact fractions; past it (a stat in the hundreds),
floats."""


def repeated_test_findings(graph: Graph, book: object) -> list[Finding]:
    """I100 and W101 for every test repeated until success of the book."""
    ruleset = getattr(book, "ruleset", None)
    health = getattr(getattr(ruleset, "fight", None), "health", None)
    if ruleset is None or health is None:
        return []
    heroes = hero_profiles(ruleset)
    found: list[Finding] = []
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if type(statement) is ast.Test and statement.repeat and statement.against is None:
                found.extend(_findings(statement, number, ruleset, health, heroes))
    return found


def _findings(statement: ast.Test, number: int, ruleset, health: str, heroes) -> Iterator[Finding]:
    shape = _shape(statement, ruleset, health)
    if shape is None:
        return
    stat, dice, cost_of_test, modifier = shape
    loss = _health_loss(statement, ruleset, health)
    worst: dict[str, Fraction] = {}
    for hero in heroes:
        value, start = hero.get(stat), hero.get(health)
        if value is None or start is None:
            return
        death = death_chance(dice, value + modifier, start, loss, cost_of_test, stat == health)
        if death is None:  # never succeeds, costs nothing
            yield finding(
                "W101",
                tr(
                    "{hero} may fail this test until no throw can succeed, and a failure "
                    "costs nothing: the game would stop after {count} throws",
                    hero=_hero_words(hero.level),
                    count=_repeat_limit(),
                ),
                statement.span,
                paragraph=number,
                hint=tr(
                    "give the failure a cost (`failure: lose 1 STAMINA`) or make a success possible"
                ),
            )
            return
        worst[hero.level] = max(worst.get(hero.level, Fraction(0)), death)
    if loss <= 0 or not worst:
        return
    shown = {level: _percent(worst[level]) for level in LEVELS if level in worst}
    yield finding(
        "I100",
        tr(
            "repeated until success, this test kills the weakest hero {weakest} of the time, "
            "the median {median}, the strongest {strongest}",
            weakest=shown.get("weakest", "-"),
            median=shown.get("median", "-"),
            strongest=shown.get("strongest", "-"),
        ),
        statement.span,
        paragraph=number,
        death={level: float(value) for level, value in worst.items()},
    )


def _shape(statement: ast.Test, ruleset, health: str) -> tuple[str, Dice, int, int] | None:
    """(tested stat, dice distribution, the test's own cost, modifier on the target)."""
    try:
        if statement.dice is None:  # a test of the ruleset (Luck, Skill)
            test = ruleset.tests.get(_test_id(ruleset, statement.name))
            if test is None:
                return None
            stat, dice, cost, sign = test.stat, test.dice, test.cost, 1
        else:  # dice against a stat: the modifiers add to the roll
            found = ruleset.resolve(statement.name)
            if found is None or found[0] != "stat":
                return None
            stat, dice, cost, sign = found[1], parse_dice(statement.dice.text), 0, -1
        distribution = dice.distribution()
    except (DedaleError, ValueError, KeyError):
        return None
    modifier = 0
    for mod in statement.modifiers:
        value = mod.value * sign  # as a change of the target
        if mod.condition is None or value < 0:
            modifier += value
    return stat, distribution, cost, modifier


def _test_id(ruleset, name: str) -> str:
    if name in ruleset.tests:
        return name
    wanted = name.casefold()
    for test in ruleset.tests.values():
        if wanted in {n.casefold() for n in (test.id, *test.names.values())}:
            return test.id
    return name


def _health_loss(statement: ast.Test, ruleset, health: str) -> int:
    """The health each failure costs (its ``lose N STAMINA`` lines, N a number)."""
    loss = 0
    for branch in statement.branches:
        if branch.outcome != "failure" or branch.margin is not None:
            continue
        for line in branch.body:
            if type(line) is not ast.ChangeValue or type(line.amount) is not ast.Num:
                continue
            found = ruleset.resolve(line.name)
            if found is not None and found[1] == health:
                loss += line.amount.value if line.op == "sub" else -line.amount.value
    return loss


def death_chance(
    dice: Dice, target: int, health: int, loss: int, test_cost: int, tests_health: bool
) -> Fraction | None:
    """P(the hero dies before a success), exactly; None when the failures cost no health
    and the hero may come to a target no throw can reach (the throws would go on to the
    limit: at once, or once a Luck test's cost has worn the stat down)."""

    def chance(value: int) -> Fraction:
        return sum((p for total, p in dice.items() if total <= value), Fraction(0))

    if loss <= 0:
        return None if chance(target) == 0 or test_cost > 0 else Fraction(0)
    reach: Fraction | float = Fraction(1)
    if health > EXACT_THROWS * loss:  # a huge stat: floats, not ever longer fractions
        reach = 1.0
    for _ in range(_repeat_limit()):  # each failure costs ``loss`` > 0: health / loss throws
        reach *= 1 - chance(target)
        if reach == 0:
            return Fraction(0)
        health -= loss
        if health <= 0:
            return Fraction(reach) if isinstance(reach, float) else reach
        target -= test_cost + (loss if tests_health else 0)
    return Fraction(0)  # alive after the limit of throws: the game stops, nobody died


def _percent(chance: Fraction):
    """``12.5%``; a chance that rounds to 0.0% but is not 0 reads ``< 0.1%``."""
    if 0 < chance < Fraction(1, 2000):
        return tr("< {value}", value=localised(0.001, ".1%"))
    return localised(float(chance), ".1%")


def _hero_words(level: str):
    return {
        "weakest": tr("the weakest hero"),
        "median": tr("the median hero"),
        "strongest": tr("the strongest hero"),
    }[level]


def _repeat_limit() -> int:
    """The interpreter's cap on repeated throws, imported on first use: importing
    ``dedale.game`` loads the whole interpreter, which ``validate --runs 0`` never runs."""
    from dedale.game.test_forms import REPEAT_LIMIT

    return REPEAT_LIMIT
