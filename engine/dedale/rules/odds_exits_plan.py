"""The plan of a fight as the exact odds with exits take it (:mod:`dedale.rules.odds_exits`):
its enemies, ways out, damage rules, events and table as data (conditions are callables over
the counters and the hero's health, so nothing here knows of paragraphs), the solvers'
error and their state budget."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.i18n import number, tr

MAX_STATES = 200_000
"""The exact odds with exits stop past this many states (the W032 cap of the DP)."""

Condition = Callable[[Mapping[str, int]], bool]


class ExitOddsTooLarge(GameError):
    """The exact odds with exits would need more than ``MAX_STATES`` states, or loop."""


def past_states() -> ExitOddsTooLarge:
    """The error of a pass over the exits DP's states past :data:`MAX_STATES`."""
    return ExitOddsTooLarge(
        tr("the exact odds would need more than {limit} states", limit=number(MAX_STATES, ","))
    )


@dataclass(frozen=True, slots=True)
class Event:
    """An event rule: on ``on`` (it_wins, you_win, double, it_wounds), for enemy ``enemy``
    (None: each), when ``when`` holds: counter changes ``(name, op, amount)`` (op add, sub,
    set), a change of the hero's health, of the enemy's SKILL and of its STAMINA
    (``stamina``), and ``leaves`` (the effects turn to a paragraph: the hero leaves the
    fight there)."""

    on: str
    enemy: int | None = None
    when: Condition | None = None
    counters: tuple[tuple[str, str, int], ...] = ()
    health: int = 0
    skill: int = 0
    leaves: bool = False
    stamina: int = 0


@dataclass(frozen=True, slots=True)
class Damage:
    """A damage rule: ``kind`` deals/takes, ``value`` or ``share`` (value, half, all)."""

    kind: str
    enemy: int | None = None
    value: int = 0
    share: str = "value"
    when: Condition | None = None


@dataclass(frozen=True, slots=True)
class ExitPlan:
    """A fight as the exact odds with exits take it (opposed procedure).

    ``enemies``: (SKILL, STAMINA, immune) in order (``as one`` already merged); ``bonus``:
    the hero's attack bonus; ``attacks``: per-enemy attack modifiers ``(enemy, value, when)``;
    ``wound_rolls``: ``(enemy, when, p, value)``: when it wounds the hero, with probability
    ``p`` the wound is ``value``; ``limit``, ``escape_after``, ``threshold`` (hero health at
    or below it after an assault: an exit), ``win_assaults``, ``first_won``; ``exits``:
    conditions that end the fight alive after an assault; ``counters``: their start values;
    ``table``: a table rolled after each assault the fight survives, rows ``(chance,
    Event)`` (after the exits; a total no row names does nothing); ``late_exits``: exits
    read after the table (a threshold on a counter), with the threshold; ``caps``: see
    :func:`changed`.
    """

    enemies: tuple[tuple[int, int, bool], ...]
    bonus: int = 0
    enemy_damage: int | None = None
    damages: tuple[Damage, ...] = ()
    attacks: tuple[tuple[int | None, int, Condition | None], ...] = ()
    events: tuple[Event, ...] = ()
    wound_rolls: tuple[tuple[int | None, Condition | None, float, int], ...] = ()
    exits: tuple[Condition, ...] = ()
    limit: int | None = None
    escape_after: int | None = None
    threshold: int | None = None
    win_assaults: int | None = None
    first_won: bool = False
    counters: tuple[tuple[str, int], ...] = field(default=())
    late_exits: tuple[Condition, ...] = ()
    table: tuple[tuple[float, Event], ...] = ()
    caps: tuple[tuple[str, int], ...] = ()
    doomed: frozenset[str] = frozenset()
    """The ways out whose paragraph is a death ending (``limit``, ``escape``, ``threshold``,
    ``assaults``, ``first``, ``exit:I``: dedale.validator.death_ways): they count as a
    defeat, not as leaving alive (an event's or a table row's such turn is a death in its
    Event already). This DP, the DP at once (rules/odds_group_exits.py) and those with
    allies (which build on them) read it."""


def changed(values: list[int], names: tuple[str, ...], changes, caps: dict[str, int]) -> None:
    """Apply an event's counter changes ``(name, op, amount)`` to ``values`` (in the order
    of ``names``), never below 0; a counter with a cap (only ever raised, and read only
    against numbers below the cap) stops there: every value from the cap on reads alike."""
    for name, op, amount in changes:
        at = names.index(name)
        old = values[at]
        new = old + amount if op == "add" else max(0, old - amount) if op == "sub" else amount
        cap = caps.get(name)
        values[at] = max(0, new if cap is None else min(new, cap))
