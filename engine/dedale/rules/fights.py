"""Fights: the spec a paragraph gives, the result, and the dispatch on the procedure.

``run_fight(ruleset, character, rng, spec)`` is a generator (events, prompts) returning a
:class:`FightResult`; the ruleset's ``fight.procedure`` key picks the mechanism
(``opposed`` FF family, ``d20``, ``reliques``). A hero at 0 health is reported as a
``lost`` fight; the interpreter handles death.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dedale.errors import GameError
from dedale.rules.ruleset import Ruleset

if TYPE_CHECKING:  # (the decisions module loads the interpreter's events)
    from dedale.rules.character import Character
    from dedale.rules.decisions import RulesGen
    from dedale.rules.random_source import RandomSource

MODES = ("single", "sequence", "together", "as_one")
WON, LOST, ESCAPED, LIMIT = "won", "lost", "escaped", "limit"


@dataclass(frozen=True, slots=True)
class EnemySpec:
    """An enemy: name and stats by canonical id (``{"SKILL": 8, "STAMINA": 10}``).

    ``weapon`` is a damage dice expression for d20 fights, a damage value for reliques.
    """

    name: str
    stats: Mapping[str, int]
    immune_instant_kill: bool = False
    weapon: str | None = None


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
            raise GameError(f"unknown fight mode {self.mode!r}", hint=f"modes: {', '.join(MODES)}")
        if not self.enemies:
            raise GameError("a fight needs at least one enemy")


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
) -> RulesGen[FightResult]:
    """Run a fight with the ruleset's procedure; ``emit=False`` skips building events."""
    procedure = _PROCEDURES.get(type(ruleset.fight)) or _procedure(ruleset)
    return procedure(ruleset, character, rng, spec, emit)


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
