"""Fights: the spec a paragraph gives, the result, and the dispatch on the procedure.

``run_fight(ruleset, character, rng, spec)`` is a generator (events, prompts) returning a
:class:`FightResult`; the ruleset's ``fight.procedure`` key picks the mechanism
(``opposed`` FF family, ``d20``, ``reliques``). A hero at 0 health is reported as a
``lost`` fight; the interpreter handles death.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.ruleset import Ruleset

if TYPE_CHECKING:  # (the decisions module loads the interpreter's events)
    from dedale.rules.character import Character
    from dedale.rules.decisions import RulesGen
    from dedale.rules.dice import DiceExpr
    from dedale.rules.fight_state import FightHooks
    from dedale.rules.random_source import RandomSource

MODES = ("single", "sequence", "together", "as_one")
WON, LOST, ESCAPED, LIMIT = "won", "lost", "escaped", "limit"

MAX_ASSAULTS = 5_000
"""No fight goes on past this many assaults (a real one is over in a few dozen): a fight
nobody can win (an enemy damage of 0 against an unbeatable enemy, and no Luck to ask
about) would otherwise run for ever without a question."""


def endless_fight(assaults: int) -> GameError:
    """The error that stops a fight still going after ``assaults`` assaults."""
    return GameError(
        tr("the fight is still going after {count} assaults: it may never end", count=assaults),
        hint=tr(
            "check that each side can wound the other (an enemy damage of 0, a health no "
            "blow can bring down), or give the fight a way out (escape, an assault limit)"
        ),
    )


@dataclass(frozen=True, slots=True)
class EnemySpec:
    """An enemy: name and stats by canonical id (``{"SKILL": 8, "STAMINA": 10}``).

    ``weapon`` is a damage dice expression for d20 fights, a damage value for reliques.
    ``dice_stats`` are the stats still to roll; ``stats`` holds the others (and, once rolled,
    these too).
    """

    name: str
    stats: Mapping[str, int]
    immune_instant_kill: bool = False
    weapon: str | None = None
    dice_stats: tuple[tuple[str, DiceExpr], ...] = ()
    """Stats written as dice (``SKILL 2d6``), by canonical id: rolled when the fight starts
    (:func:`roll_enemies`); their possible values: :func:`enemy_outcomes`."""


@dataclass(frozen=True, slots=True)
class FightSpec:
    """What the paragraph says about a fight.

    ``escape_after``: escape is offered once this many assaults are over (0 = at once);
    ``assault_limit``: the fight stops (outcome ``limit``) after this many assaults;
    ``attack_bonus`` adds to the hero's attack strength; ``enemy_damage`` replaces the
    damage an enemy wound does; ``modifiers`` are tagged attack modifiers.
    """

    enemies: tuple[EnemySpec, ...]
    mode: str = "single"
    escape_after: int | None = None
    assault_limit: int | None = None
    attack_bonus: int = 0
    enemy_damage: int | None = None
    modifiers: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise GameError(
                tr("unknown fight mode '{mode}'", mode=self.mode),
                hint=tr("modes: {value}", value=", ".join(MODES)),
            )
        if not self.enemies:
            raise GameError(tr("a fight needs at least one enemy"))


@dataclass(frozen=True, slots=True)
class FightResult:
    """``outcome`` in won/lost/escaped/limit; ``enemies_left`` as (name, health) pairs."""

    outcome: str
    assaults: int
    enemies_left: tuple[tuple[str, int], ...] = field(default=())

    @property
    def won(self) -> bool:
        return self.outcome == WON


def run_fight(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    spec: FightSpec,
    *,
    emit: bool = True,
    hooks: FightHooks | None = None,
) -> RulesGen[FightResult]:
    """Run a fight with the ruleset's procedure; ``emit=False`` skips building events.
    ``hooks`` (:class:`dedale.rules.fight_state.FightHooks`): the book's rules acting
    between and inside the assaults of this one fight."""
    procedure = _PROCEDURES.get(type(ruleset.fight)) or _procedure(ruleset)
    if hooks is None:
        return procedure(ruleset, character, rng, spec, emit)
    return procedure(ruleset, character, rng, spec, emit, hooks)


_PROCEDURES: dict[type, Any] = {}


def _procedure(ruleset: Ruleset) -> Any:
    """The generator function of a fight procedure (imported once, on first use)."""
    kind = ruleset.procedure
    if kind == "opposed":
        from dedale.rules.fight_opposed import opposed_fight as found
    elif kind == "d20":
        from dedale.rules.fight_d20 import d20_fight as found
    else:
        from dedale.rules.fight_reliques import reliques_fight as found
    _PROCEDURES[type(ruleset.fight)] = found
    return found


# --------------------------------------------------------------------------- dice stats


@dataclass(frozen=True, slots=True)
class EnemyRoll:
    """One enemy stat rolled at the start of a fight (``SKILL 2d6`` -> faces, value)."""

    enemy: str
    stat: str
    expression: str
    faces: tuple[int, ...]
    value: int


def roll_enemy(enemy: EnemySpec, rng: RandomSource, rolls: list[EnemyRoll]) -> EnemySpec:
    """``enemy`` with its dice stats rolled (in the order written; never below 0); each roll
    is appended to ``rolls``. An enemy without dice stats is returned as it is."""
    if not enemy.dice_stats:
        return enemy
    stats = dict(enemy.stats)
    for stat, expr in enemy.dice_stats:
        total, faces = expr.roll(rng)
        stats[stat] = max(0, total)
        rolls.append(EnemyRoll(enemy.name, stat, expr.text, faces, stats[stat]))
    return replace(enemy, stats=stats, dice_stats=())


def roll_enemies(spec: FightSpec, rng: RandomSource) -> tuple[FightSpec, tuple[EnemyRoll, ...]]:
    """The fight with every enemy's dice stats rolled, and the rolls made (none: the same
    spec). The rolls come from ``rng``, so a replay of the game rolls the same values."""
    if not any(enemy.dice_stats for enemy in spec.enemies):
        return spec, ()
    rolls: list[EnemyRoll] = []
    enemies = tuple(roll_enemy(enemy, rng, rolls) for enemy in spec.enemies)
    return replace(spec, enemies=enemies), tuple(rolls)


def enemy_stat_values(enemy: EnemySpec) -> dict[str, dict[int, Fraction]]:
    """Each dice stat's possible values and their exact probabilities (values below 0 count
    as 0, as when rolled); the stats are rolled independently of one another."""
    values: dict[str, dict[int, Fraction]] = {}
    for stat, expr in enemy.dice_stats:
        law: dict[int, Fraction] = {}
        for total, chance in expr.distribution().items():
            value = max(0, total)
            law[value] = law.get(value, Fraction(0)) + chance
        values[stat] = law
    return values


def enemy_outcomes(enemy: EnemySpec) -> tuple[tuple[EnemySpec, Fraction], ...]:
    """Every enemy the dice can give (all stats fixed) with its exact probability; the
    probabilities sum to 1. An enemy without dice stats: itself, with probability 1.

    The validator mixes the odds of the fights against each outcome with these weights."""
    if not enemy.dice_stats:
        return ((enemy, Fraction(1)),)
    laws = enemy_stat_values(enemy)
    names = list(laws)
    found = []
    for combination in itertools.product(*(sorted(laws[name].items()) for name in names)):
        stats = dict(enemy.stats)
        chance = Fraction(1)
        for name, (value, probability) in zip(names, combination, strict=True):
            stats[name] = value
            chance *= probability
        found.append((replace(enemy, stats=stats, dice_stats=()), chance))
    return tuple(found)


def fight_outcomes(
    spec: FightSpec, limit: int = 10_000
) -> tuple[tuple[FightSpec, Fraction], ...] | None:
    """Every fight the enemies' dice stats can give, with its exact probability (the
    product over the enemies, rolled independently); None when there would be more than
    ``limit`` of them (the caller then estimates instead of enumerating)."""
    per_enemy = []
    count = 1
    for enemy in spec.enemies:
        if enemy.dice_stats:
            laws = enemy_stat_values(enemy)
            for law in laws.values():
                count *= len(law)
                if count > limit:
                    return None
        per_enemy.append(enemy_outcomes(enemy))
    found = []
    for combination in itertools.product(*per_enemy):
        chance = Fraction(1)
        for _enemy, probability in combination:
            chance *= probability
        found.append((replace(spec, enemies=tuple(e for e, _ in combination)), chance))
    return tuple(found)


# --------------------------------------------------------------------------- watched fights


def watched_fight(
    ruleset: Ruleset, first: EnemySpec, second: EnemySpec, rng: RandomSource
) -> RulesGen[FightResult]:
    """A fight the hero only watches (a wager on it, issue 13 §7), run quietly by the same
    procedure as any fight: ``first`` stands in the hero's place — a Character with only its
    own stats (no Luck to test, no class, no item but its weapon) — against ``second``.
    ``won`` means ``first`` won. Opposed (FF family) rulesets only."""
    from dedale.rules.character import BookItem, Character

    if ruleset.procedure != "opposed":
        raise GameError(
            tr("a wager on a watched fight needs a ruleset of the FF family"),
            hint=tr("bet on dice instead: `wager up to 10 gold, win on 2d6 8-12`"),
        )
    stats = {stat.id: max(0, int(first.stats.get(stat.id, 0))) for stat in ruleset.stats}
    stand_in = Character(
        stats=stats,
        initial=dict(stats),
        items={first.name: 1},
        item_effects={first.name: BookItem(weapon=True)},  # armed, as enemies are
    )
    return run_fight(ruleset, stand_in, rng, FightSpec(enemies=(second,)), emit=False)
