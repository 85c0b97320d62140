"""What the game tells front ends (events) and what it asks them (prompts).

The interpreter and the rules core are generators: they ``yield`` Event objects (the front
end shows them and asks for the next one) and Prompt objects (the front end must answer,
``gen.send(answer)``). Both are plain immutable data: front ends render them, tests
compare them, the random tester answers prompts at random. Nothing here knows a screen.

Stat names in events are the ruleset's canonical ids (``SKILL``); front ends ask the
ruleset for the display name in the book's language (``HABILETÉ``).
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.span import Span

event = dataclass(frozen=True, slots=True, kw_only=True)


class Event:
    """Base of everything the game reports."""

    __slots__ = ()


class Prompt:
    """Base of everything the game asks; the answer type is documented on each."""

    __slots__ = ()


# --------------------------------------------------------------------------- events


@event
class ParagraphEntered(Event):
    number: int
    label: str | None = None
    span: Span | None = None


@event
class TextShown(Event):
    """Paragraph prose, already interpolated (light Markdown)."""

    text: str


@event
class MessageShown(Event):
    """A rules message with a stable key and parameters, for the front end to phrase."""

    key: str
    params: tuple[tuple[str, object], ...] = ()


@event
class StatChanged(Event):
    """A stat (or counter, ``who="counter"``) changed. ``rule`` marks a change made by an
    event written under an enemy (``when it wins an assault: lose 4 STAMINA``), which a
    fight log shows beside the assault's own wounds."""

    name: str
    old: int
    new: int
    initial: int
    who: str = "hero"
    rule: bool = False


@event
class DiceRolled(Event):
    """Dice thrown: the faces, the total and what they were for. ``who`` names the enemy
    when an enemy's stat is rolled (``SKILL 2d6`` at the start of a fight)."""

    purpose: str
    faces: tuple[int, ...]
    total: int
    expression: str = ""
    who: str = ""
    target: int | None = None  # a duo test's (reliques): the total must be at most this


@event
class TestResolved(Event):
    """A test's outcome: ``outcome`` in success/failure/critical_success/critical_failure."""

    name: str
    roll: int
    target: int
    outcome: str
    margin: int = 0


@event
class FightStarted(Event):
    enemies: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    mode: str = "single"
    allies: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # beside the hero


@event
class AssaultResolved(Event):
    """One assault (attack round). ``winner`` is "hero", "enemy" or "tie"."""

    number: int
    enemy: str
    hero_strength: int
    enemy_strength: int
    winner: str
    hero_damage_taken: int = 0
    enemy_damage_taken: int = 0
    note: str = ""


@event
class EnemyDefeated(Event):
    name: str


@event
class FightEnded(Event):
    """``outcome`` in won/lost/escaped/limit."""

    outcome: str
    assaults: int = 0


@event
class ItemGained(Event):
    item: str
    count: int = 1


@event
class ItemLost(Event):
    item: str
    count: int = 1


@event
class CodewordChanged(Event):
    codeword: str
    is_set: bool


@event
class WorldEntered(Event):
    world: str


@event
class MealEaten(Event):
    stamina_gained: int
    meals_left: int


@event
class Death(Event):
    reason: str = ""


@event
class Victory(Event):
    pass


# --------------------------------------------------------------------------- prompts


@event
class ChoiceOption:
    """One choice as the reader sees it; disabled options carry their reason."""

    index: int
    text: str
    target: int | None
    enabled: bool = True
    reason: str = ""
    computed: bool = False  # the target is worked out in play: a front end never prints it
    go_on: bool = False  # "Fight the TROLL" / "Read on": the rule after choices (issue 13.5)


@event
class ChoosePrompt(Prompt):
    """Answer: the ``index`` of an enabled option (int)."""

    options: tuple[ChoiceOption, ...]


@event
class YesNoPrompt(Prompt):
    """Answer: bool. ``kind`` is a stable key: use_luck, eat, risk, heroism, escape, ..."""

    kind: str
    params: tuple[tuple[str, object], ...] = ()


@event
class TargetPrompt(Prompt):
    """Answer: the index (int) of the enemy to attack among ``enemies``."""

    enemies: tuple[str, ...]


@event
class DropItemPrompt(Prompt):
    """Answer: the item (str) to drop among ``items`` (inventory over its limit)."""

    items: tuple[str, ...]
    limit: int = 0


@event
class NumberPrompt(Prompt):
    """Answer: an int typed by the reader (``kind``: hidden_number, ...).

    ``answers``: the numbers a hidden-number prompt opens, for testers (the random player
    tries them); a front end never shows them."""

    kind: str
    answers: tuple[int, ...] = ()


@event
class ClassPrompt(Prompt):
    """Answer: the name (str) of a class among ``classes``."""

    classes: tuple[str, ...]


@event
class StatEntry:
    """One stat the reader may type at creation: its id, the range the ruleset can roll."""

    stat: str
    low: int
    high: int


@event
class StatsPrompt(Prompt):
    """Answer: a tuple of ints, one per entry of ``stats`` in order, each within its
    ``low``-``high`` range (book.yaml ``creation: fixed_stats: true``); or None to roll
    the dice instead."""

    stats: tuple[StatEntry, ...]


@event
class NamePrompt(Prompt):
    """Answer: the hero's name (str)."""

    default: str = ""
