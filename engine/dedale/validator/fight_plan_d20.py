"""A d20 fight the book acts in, as its exact odds take it (rules/odds_d20_acting.py).

:func:`d20_plan_of` turns the fight's rules under an enemy, events, exits, "after N assaults
won", "when your HP falls to N" and assault table into an
:class:`~dedale.rules.odds_d20_acting.ActingPlan`. Conditions are read by the FF plan's
own :class:`~dedale.validator.fight_plan.Reader` (the counters the fight changes and the
hero's health vary with the fight's states; items and codewords are those the book can give;
counters start at their initial value, a codeword the events set or clear unset). A counter
or codeword no condition reads is not followed (its changes cannot change the odds).

What the exact odds do not follow raises :class:`~dedale.validator.fight_plan.Unsupported`
(the fight is then estimated by the seeded simulation of the real fight code): allies, an
effect that is not a change of a counter, a codeword, the hero's or the enemy's health by a
number, or a turn to a paragraph.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from dedale import ast
from dedale.i18n import tr
from dedale.rules.odds_d20_acting import ActingEvent, ActingPlan, Effect
from dedale.rules.odds_exits import Damage
from dedale.validator.death_ways import Deadly, doomed_ways
from dedale.validator.fight_plan import Reader, Unsupported, _codeword_key


def d20_plan_of(
    fight: ast.Fight,
    ruleset,
    hero: Mapping[str, int],
    carried: frozenset[str] = frozenset(),
    codewords: frozenset[str] = frozenset(),
    deadly: Deadly | None = None,
) -> ActingPlan:
    """The plan of a d20 ``fight`` for a hero with stats ``hero`` (see the module doc).
    ``deadly``: which destinations are death endings (dedale.validator.death_ways): an
    event's or a table row's turn there is a death, the fight's own ways out there are
    ``doomed`` (defeats, not ways out alive)."""
    if fight.allies:
        raise Unsupported(tr("fights with allies have no exact odds"))
    params = ruleset.fight
    reader = Reader(ruleset, hero, carried, codewords)
    read = _read_values(fight, ruleset)
    effects = _Effects(ruleset, params.health, reader, read, deadly)
    damages, attacks, events, exits, late = [], [], [], [], []
    first = False
    for rule in fight.rules:
        when = reader.when(rule.condition)
        if rule.kind in ("deals", "takes"):
            damages.append(Damage(rule.kind, rule.enemy, rule.value, rule.share, when))
        elif rule.kind == "attack":
            attacks.append((rule.enemy, rule.value, when))
        elif rule.kind == "exit":
            exits.append(when)
        elif rule.kind == "first":
            first = True
        else:
            found = effects.of(rule.effects, rule)
            events.append(ActingEvent(rule.on, rule.enemy, when, found))
    threshold = None
    if fight.threshold is not None:
        found = ruleset.resolve(fight.threshold.stat)
        if found is not None and found[1] == params.health:
            threshold = fight.threshold.value
        else:
            span = fight.threshold.span
            late.append(
                reader.when(
                    ast.Compare(
                        span=span, op="<=", left=ast.ValueRef(span=span, name=fight.threshold.stat),
                        right=ast.Num(span=span, value=fight.threshold.value),
                    )
                )
            )  # fmt: skip
    table = None
    if fight.assault_table is not None:
        table = _table(fight.assault_table, effects)
    maxima = {counter.id: getattr(counter, "maximum", None) for counter in ruleset.counters}
    counters = tuple(
        (name, max(0, start), maxima.get(name)) for name, start in reader.counters.items()
    )
    return ActingPlan(
        damages=tuple(damages), attacks=tuple(attacks), events=tuple(events),
        wound_rolls=tuple(effects.rolls), exits=tuple(exits), late_exits=tuple(late),
        first_won=first, threshold=threshold,
        win_assaults=None if fight.win_assaults is None else fight.win_assaults.count,
        table=table, counters=counters, health=params.health, reads_health=params.health in read,
        doomed=doomed_ways(fight, deadly),
    )  # fmt: skip


class _Effects:
    """The effects of events and table rows as the plan's :class:`Effect` list."""

    def __init__(self, ruleset, health: str, reader: Reader, read: set[str],
                 deadly: Deadly | None = None) -> None:  # fmt: skip
        self.ruleset, self.health, self.reader, self.read = ruleset, health, reader, read
        self.deadly = deadly
        self.rolls: list[tuple] = []

    def of(self, statements, rule: ast.EnemyRule | None = None) -> tuple[Effect, ...]:
        found: list[Effect] = []
        for effect in statements:
            if isinstance(effect, ast.WoundRoll):
                if rule is None or rule.on != "it_wounds":
                    raise Unsupported(tr("a wound roll acts only when the enemy wounds the hero"))
                self.rolls.append(
                    (rule.enemy, self.reader.when(rule.condition), _chance(effect), effect.value)
                )
            elif isinstance(effect, ast.EnemyStatChange):
                stat = self.ruleset.resolve(effect.stat)
                if stat is not None and stat[1] == self.health:  # its HP -2
                    found.append(Effect("enemy", amount=effect.amount))
                # another stat of the enemy: a d20 fight reads none of them once started
            elif isinstance(effect, ast.ChangeValue):
                found.extend(self._change(effect))
            elif isinstance(effect, ast.Goto):  # a turn to a death ending is a death
                dies = self.deadly is not None and self.deadly(effect.target)
                found.append(Effect("die" if dies else "leave"))
            elif isinstance(effect, ast.Ending):
                found.append(Effect("leave" if effect.kind == "victory" else "die"))
            elif isinstance(effect, ast.SetCodeword | ast.ClearCodeword):
                key = _codeword_key(effect.codeword)
                if key in self.read:
                    self.reader.counters.setdefault(key, 0)
                    value = int(type(effect) is ast.SetCodeword)
                    found.append(Effect("counter", key, "set", value))
            elif isinstance(effect, ast.GainItem | ast.LoseItem | ast.Prose):
                continue  # nothing the fight reads (conditions take the best loadout)
            else:
                raise Unsupported(tr("an effect the fight's odds cannot follow"))
        return tuple(found)

    def _change(self, effect: ast.ChangeValue) -> list[Effect]:
        found = self.ruleset.resolve(effect.name)
        if not isinstance(effect.amount, ast.Num) or found is None or effect.exceptional:
            raise Unsupported(tr("the fight's odds cannot follow '{name}'", name=effect.name))
        amount = effect.amount.value
        if found[1] == self.health and effect.op in ("add", "sub"):
            return [Effect("hero", amount=amount if effect.op == "add" else -amount)]
        if found[0] == "counter" and effect.op in ("add", "sub", "set"):
            if found[1] not in self.read:
                return []  # a counter no condition of the fight reads
            return [Effect("counter", self.reader.counter_of(effect.name), effect.op, amount)]
        raise Unsupported(tr("the fight's odds cannot follow '{name}'", name=effect.name))


def _chance(effect: ast.WoundRoll) -> float:
    if effect.dice is None:
        return 1.0
    from dedale.rules import parse_dice

    law = parse_dice(effect.dice.text).distribution()
    inside = (p for total, p in law.items() if effect.low <= total <= effect.high)
    return float(sum(inside, Fraction(0)))


def _table(roll: ast.RandomRoll, effects: _Effects) -> tuple[tuple[float, tuple], ...]:
    """The rows of an assault table with their chances (rolls no row takes: nothing)."""
    from dedale.rules import parse_dice

    law = parse_dice(roll.dice.text).distribution()
    chances: dict[int, Fraction] = {}
    for total, p in law.items():
        row = next((i for i, b in enumerate(roll.branches) if b.low <= total <= b.high), -1)
        chances[row] = chances.get(row, Fraction(0)) + p
    return tuple(
        (float(p), () if row < 0 else effects.of(roll.branches[row].body))
        for row, p in sorted(chances.items())
    )


def _read_values(fight: ast.Fight, ruleset) -> set[str]:
    """The counters (ids) and codewords (keys) the fight's conditions read."""
    conditions = [rule.condition for rule in fight.rules if rule.condition is not None]
    if fight.threshold is not None:
        conditions.append(ast.ValueRef(span=fight.threshold.span, name=fight.threshold.stat))
    read: set[str] = set()
    for condition in conditions:
        for node in _nodes(condition):
            if isinstance(node, ast.HasCodeword):
                read.add(_codeword_key(node.codeword))
            elif isinstance(node, ast.ValueRef):
                found = ruleset.resolve(node.name)
                if found is not None:
                    read.add(found[1])
    return read


def _nodes(node):
    """``node`` and every AST node inside it (conditions and their expressions)."""
    import dataclasses

    yield node
    if not dataclasses.is_dataclass(node):
        return
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        for part in value if isinstance(value, tuple) else (value,):
            if dataclasses.is_dataclass(part) and not isinstance(part, type):
                yield from _nodes(part)
