"""A fight's exits and per-enemy rules as the exact odds take them (rules/odds_exits.py).

:func:`needs_exits` says whether a fight has anything the plain DP ignores (an assault
limit, escape, "after N assaults won", a threshold, rules under an enemy, a table rolled
each assault); :func:`plan_of`
turns it into an :class:`~dedale.rules.odds_exits.ExitPlan`. Conditions are read with
:func:`dedale.game.conditions.holds` over a small world: the counters the fight changes and
the hero's health vary with the fight's states; items and codewords are those the book can
give (``carried``: the best loadout a reader can have there); other stats are the hero's.
Counters start at their initial value; a codeword the fight's events set or clear is
followed like a counter, unset at the start. A table rolled each assault becomes its rows'
chances, each row's effects read as an event's. What the exact odds cannot follow (allies, an
event or a table row that does anything but change a counter or a codeword, the hero's
health, the enemy's SKILL or STAMINA, a wound, or leave the fight) raises :class:`Unsupported`: the
fight is then estimated by the seeded simulation of the real fight code.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from dedale import ast
from dedale.i18n import tr
from dedale.rules.odds_exits import Damage, Event, ExitPlan
from dedale.validator.death_ways import Deadly, doomed_ways


class Unsupported(Exception):
    """The exact odds with exits cannot follow this fight (the reason is the message)."""


def needs_exits(fight: ast.Fight) -> bool:
    """Whether the fight has an exit or rule the plain exact DP leaves out."""
    return bool(
        fight.assault_limit is not None
        or fight.escape is not None
        or fight.win_assaults is not None
        or fight.threshold is not None
        or fight.rules
        or fight.assault_table is not None  # its rows act each assault (the plain DP: never)
    )


class _World:
    """What a rule's condition reads in a state of the fight (see the module docstring)."""

    def __init__(self, ruleset, hero: Mapping[str, int], carried, codewords, values) -> None:
        self.ruleset, self.hero = ruleset, hero
        self.carried, self.codewords, self.values = carried, codewords, values

    def value(self, name: str, initial: bool = False) -> int:
        found = self.ruleset.resolve(name)
        if found is None:
            raise Unsupported(tr("'{name}' is not a stat or counter", name=name))
        ident = found[1]
        if ident in self.values and not initial:
            return self.values[ident]
        if found[0] == "stat" and ident in self.hero:
            return self.hero[ident]
        raise Unsupported(tr("the fight's odds cannot follow '{name}'", name=name))

    def roll(self, text, span):
        raise Unsupported(tr("a condition that rolls dice"))

    @property
    def paragraph(self) -> int:
        raise Unsupported(tr("a condition on the paragraph number"))

    def word(self, name: str) -> str | None:
        return None

    def item_count(self, item: str) -> int:
        return 1 if item.casefold() in self.carried else 0

    def has_codeword(self, codeword: str) -> bool:
        key = _codeword_key(codeword)
        if key in self.values:  # a codeword the fight's own events set or clear
            return self.values[key] > 0
        return codeword.casefold() in self.codewords

    def visited(self, ref) -> bool:
        raise Unsupported(tr("a condition on a visited paragraph"))

    def world_visited(self, world: str) -> bool:
        raise Unsupported(tr("a condition on a World"))

    def has_class(self, name: str) -> bool:
        raise Unsupported(tr("a condition on the hero's class"))

    def has_status(self, name: str) -> bool:
        return False

    def has_flag(self, name: str) -> bool:  # a book's flag: not followed in a fight
        raise Unsupported(tr("the fight's odds cannot follow '{name}'", name=name))


class Reader:
    """The conditions of a fight's rules as callables over the counters the fight follows
    (and the hero's health), read with :func:`dedale.game.conditions.holds` over a
    :class:`_World`; ``counters``: the counters met so far, at their start values."""

    def __init__(self, ruleset, hero: Mapping[str, int], carried, codewords) -> None:
        self.ruleset, self.hero = ruleset, hero
        self.carried, self.codewords = carried, codewords
        self.counters: dict[str, int] = {}
        self.starts = {counter.id: counter.initial for counter in ruleset.counters}
        #: per counter: the numbers a condition compares it with (None: something else)
        self.read: dict[str, list[int] | None] = {}

    def counter_of(self, name: str, span=None) -> str:
        """The id of the counter ``name`` (now followed), or Unsupported."""
        found = self.ruleset.resolve(name)
        if found is None or found[0] != "counter":
            raise Unsupported(tr("the fight's odds cannot follow '{name}'", name=name))
        self.counters.setdefault(found[1], self.starts.get(found[1], 0))
        return found[1]

    def note_counters(self, condition) -> None:
        """The counters a condition reads vary too."""
        if condition is None:
            return
        for node in _atoms(condition):
            if isinstance(node, ast.Compare):
                for side, other in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(side, ast.ValueRef):
                        found = self.ruleset.resolve(side.name)
                        if found is not None and found[0] == "counter":
                            name = self.counter_of(side.name, side.span)
                            numbers = self.read.setdefault(name, [])
                            if isinstance(other, ast.Num) and numbers is not None:
                                numbers.append(other.value)
                            else:
                                self.read[name] = None

    def when(self, condition):
        """``condition`` as a callable over the followed values (None: always)."""
        from dedale.game.conditions import holds

        if condition is None:
            return None
        self.note_counters(condition)
        ruleset, hero, carried, codewords = self.ruleset, self.hero, self.carried, self.codewords

        def check(values: Mapping[str, int]) -> bool:
            return holds(condition, _World(ruleset, hero, carried, codewords, values))

        return check


def plan_of(
    fight: ast.Fight,
    ruleset,
    enemies: tuple,
    hero: Mapping[str, int],
    carried: frozenset[str] = frozenset(),
    codewords: frozenset[str] = frozenset(),
    allies: bool = False,
    deadly: Deadly | None = None,
) -> ExitPlan:
    """The plan of ``fight`` against ``enemies`` ((SKILL, STAMINA, immune) triples) for a
    hero with stats ``hero`` (see the module docstring); ``allies``: the caller takes the
    fight's allies (rules/odds_allies_exits.py), else a fight with allies is refused.
    ``deadly``: which destinations are death endings (dedale.validator.death_ways): an
    event's or a table row's turn there is a death, the fight's other ways out there are
    ``doomed`` (the chance to leave alive counts them as defeats; the solver, which values
    the paragraphs themselves, passes none)."""
    if fight.allies and not allies:
        raise Unsupported(tr("fights with allies have no exact odds"))
    params = ruleset.fight
    reader = Reader(ruleset, hero, carried, codewords)
    counters, counter_of, when = reader.counters, reader.counter_of, reader.when
    read = reader.read  # per counter: the numbers it is compared with (None: not only)
    damages, attacks, events, rolls, exits = [], [], [], [], []
    first = False
    for rule in fight.rules:
        if rule.kind in ("deals", "takes"):
            damages.append(
                Damage(rule.kind, rule.enemy, rule.value, rule.share, when(rule.condition))
            )
        elif rule.kind == "attack":
            attacks.append((rule.enemy, rule.value, when(rule.condition)))
        elif rule.kind == "exit":
            exits.append(when(rule.condition))
        elif rule.kind == "first":
            first = True
        else:
            events.append(_event(rule, ruleset, params, counter_of, when, rolls, counters, deadly))
    table = ()
    if fight.assault_table is not None:  # each row: its chance, its effects as an event
        table = _table_rows(
            fight.assault_table, ruleset, params, counter_of, when, counters, deadly
        )
    threshold, late = None, []
    if fight.threshold is not None:
        found = ruleset.resolve(fight.threshold.stat)
        if found is not None and found[1] == params.health:
            threshold = fight.threshold.value
        else:
            compare = ast.Compare(
                span=fight.threshold.span, op="<=",
                left=ast.ValueRef(span=fight.threshold.span, name=fight.threshold.stat),
                right=ast.Num(span=fight.threshold.span, value=fight.threshold.value),
            )  # fmt: skip
            late.append(when(compare))
    # Values read before the fight's own: the counters' starts (in the order first met).
    for name in list(counters):
        counters[name] = max(0, counters[name])
    caps = _caps(read, [*events, *(event for _, event in table)], counters)
    return ExitPlan(
        enemies=enemies,
        bonus=fight.attack_bonus + sum(modifier.value for modifier in fight.modifiers),
        enemy_damage=fight.enemy_damage,
        damages=tuple(damages),
        attacks=tuple(attacks),
        events=tuple(events),
        wound_rolls=tuple(rolls),
        exits=tuple(exits),
        late_exits=tuple(late),
        table=table,
        caps=caps,
        limit=None if fight.assault_limit is None else fight.assault_limit.assaults,
        escape_after=None if fight.escape is None else (fight.escape.after or 0),
        threshold=threshold,
        win_assaults=None if fight.win_assaults is None else fight.win_assaults.count,
        first_won=first,
        counters=tuple(counters.items()),
        doomed=doomed_ways(fight, deadly),
    )


def _table_rows(
    roll: ast.RandomRoll, ruleset, params, counter_of, when, counters, deadly=None
) -> tuple:
    """The rows of "each assault roll 1d6" as ``(chance, Event)`` pairs: the first row whose
    range holds the total acts (a total no row names does nothing)."""
    from types import SimpleNamespace

    from dedale.rules import parse_dice

    law = parse_dice(roll.dice.text).distribution()
    rows = []
    for branch in roll.branches:
        chance = Fraction(0)
        for total, p in law.items():
            first = next((b for b in roll.branches if b.low <= total <= b.high), None)
            if first is branch:
                chance += p
        if not chance:
            continue
        rule = SimpleNamespace(on="table", enemy=None, condition=None, effects=branch.body)
        event = _event(rule, ruleset, params, counter_of, when, [], counters, deadly)
        rows.append((float(chance), event))
    return tuple(rows)


def _caps(read: dict, events: list, counters: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """The counters the fight only ever raises (or sets) and reads only against numbers:
    past the largest number, every value reads alike, so the states stop there (a table
    that adds a point each assault would otherwise make them endless)."""
    lowered = {name for event in events for name, op, _ in event.counters if op == "sub"}
    caps = []
    for name in counters:
        numbers = read.get(name, [])
        if name in lowered or numbers is None or name.startswith("codeword:"):
            continue
        caps.append((name, max(numbers, default=0) + 1))
    return tuple(caps)


def _codeword_key(codeword: str) -> str:
    return "codeword:" + codeword.casefold()


def _event(
    rule: ast.EnemyRule,
    ruleset,
    params,
    counter_of,
    when,
    rolls: list,
    counters: dict,
    deadly: Deadly | None = None,
) -> Event:
    changes, health, skill, stamina, leaves = [], 0, 0, 0, False
    for effect in rule.effects:
        if isinstance(effect, ast.WoundRoll):
            if rule.on != "it_wounds":  # (a table's rows are never wound rolls either)
                raise Unsupported(tr("a wound roll acts only when the enemy wounds the hero"))
            chance = 1.0
            if effect.dice is not None:
                from dedale.rules import parse_dice

                law = parse_dice(effect.dice.text).distribution()
                chance = float(sum((p for t, p in law.items() if effect.low <= t <= effect.high),
                                   Fraction(0)))  # fmt: skip
            rolls.append((rule.enemy, when(rule.condition), chance, effect.value))
        elif isinstance(effect, ast.EnemyStatChange) and rule.on != "table":
            found = ruleset.resolve(effect.stat)
            if found is not None and found[1] == params.health:
                stamina += effect.amount
            elif found is None or found[1] != params.attack_stat:
                raise Unsupported(tr("the fight's odds follow only the enemy's attack stat"))
            else:
                skill += effect.amount
        elif isinstance(effect, ast.ChangeValue) and isinstance(effect.amount, ast.Num):
            found = ruleset.resolve(effect.name)
            if found is not None and found[1] == params.health and effect.op in ("add", "sub"):
                health += effect.amount.value * (1 if effect.op == "add" else -1)
            elif found is not None and found[0] == "counter" and effect.op in ("add", "sub", "set"):
                changes.append(
                    (counter_of(effect.name, effect.span), effect.op, effect.amount.value)
                )
            else:
                raise Unsupported(tr("the fight's odds cannot follow '{name}'", name=effect.name))
        elif isinstance(effect, ast.Goto) and deadly is not None and deadly(effect.target):
            health -= 1 << 20  # a turn to a death ending: the hero does not leave alive
            break
        elif isinstance(effect, ast.Goto) or (
            isinstance(effect, ast.Ending) and effect.kind == "victory"
        ):
            leaves = True
            break  # the effects after a turn never act (the fight is left there)
        elif isinstance(effect, ast.Ending):
            health -= 1 << 20  # death
            break
        elif isinstance(effect, ast.SetCodeword | ast.ClearCodeword):
            # followed like a counter (0/1, unset when the fight starts): "on a double (if
            # not codeword DISARMED): its SKILL -2, set codeword DISARMED" acts once
            key = _codeword_key(effect.codeword)
            counters.setdefault(key, 0)
            changes.append((key, "set", int(isinstance(effect, ast.SetCodeword))))
        elif isinstance(effect, ast.GainItem | ast.LoseItem):
            continue  # nothing the fight reads (conditions take the best loadout)
        else:
            raise Unsupported(tr("an effect the fight's odds cannot follow"))
    return Event(
        rule.on, rule.enemy, when(rule.condition), tuple(changes), health, skill, leaves, stamina
    )


def _atoms(condition):
    yield condition
    for attribute in ("operand", "operands"):
        inner = getattr(condition, attribute, None)
        if inner is None:
            continue
        for part in inner if isinstance(inner, tuple) else (inner,):
            yield from _atoms(part)


def together_exit_odds(calculator, hero, luck: str, line_up: tuple, bonus: int, fight) -> float:
    """The exact chance to leave a fight against ``line_up`` at once alive, the target the
    reader's best each assault (:mod:`dedale.rules.odds_group_exits`; past its budget,
    its :class:`~dedale.rules.odds_inputs.OddsTooLarge`: the validator estimates the fight
    and says why)."""
    import dataclasses

    from dedale.rules.odds_group_exits import group_exit_odds
    from dedale.validator.fights import class_fight_kit

    params = calculator.params
    abilities, armour = class_fight_kit(calculator.ruleset, hero.class_name)
    plan = plan_of(fight, calculator.ruleset, line_up, dict(hero.stats), calculator.carried,
                   calculator.codewords, deadly=getattr(calculator, "deadly", None))  # fmt: skip
    plan = dataclasses.replace(plan, bonus=bonus)  # the fight's and the items' bonus
    exits = {way for way in plan.doomed if way.startswith("exit:")}
    if exits and len(exits) != len(plan.exits):  # the DP's ends do not say which exit
        raise Unsupported(tr("some exits of a fight at once lead to a death ending, others not"))
    return group_exit_odds(
        calculator.ruleset, hero.get(params.attack_stat), hero.get(params.health), plan,
        luck=hero.get(calculator.luck_stat) if calculator.luck_stat else None,
        luck_policy=luck, abilities=abilities, armour=armour, target="best",
    )  # fmt: skip
