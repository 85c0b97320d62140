"""The book's abstract syntax tree: immutable dataclasses, each carrying its source Span.

The parser (dedale.language) builds these and nothing else; checking lives in the
validator and execution in the interpreter. Names (stats, counters, items, codewords,
worlds) are kept as the author wrote them; the Book resolves stat and counter aliases
against the ruleset.

Canonical vocabularies (whatever keyword language the author used):
- stat operations: "add", "sub", "set", "restore", "raise_initial", "lower_initial"
- test outcomes: "success", "failure", "critical_success", "critical_failure"
  (Luck tests use success = lucky, failure = unlucky)
- several-enemy modes: "single", "sequence", "together", "as_one"
- choice display when its condition fails: "hidden", "disabled"
- endings: "death", "victory"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from dedale.span import Span

node = dataclass(frozen=True, slots=True, kw_only=True)

# --------------------------------------------------------------------------- expressions


@node
class Num:
    """An integer literal."""

    span: Span
    value: int


@node
class DiceRoll:
    """A dice expression such as ``1d6`` or ``2d6+1``, parsed by dedale.rules.dice."""

    span: Span
    text: str


@node
class ValueRef:
    """The current value of a stat or counter (``SKILL``, ``gold``)."""

    span: Span
    name: str
    initial: bool = False


@node
class CurrentParagraph:
    """The number of the paragraph being read."""

    span: Span


@node
class BinOp:
    """``left op right`` with op in + - * /."""

    span: Span
    op: Literal["+", "-", "*", "/"]
    left: Expr
    right: Expr

    def apply(self, left: int, right: int) -> int | None:
        """The operator on two values (``/`` is floor division); None when dividing by 0."""
        if self.op == "+":
            return left + right
        if self.op == "-":
            return left - right
        if self.op == "*":
            return left * right
        return left // right if right else None


@node
class NotedParagraph:
    """The paragraph noted under ``name`` by ``note paragraph NAME`` (issue 8)."""

    span: Span
    name: str


@node
class PreviousParagraph:
    """The paragraph the reader came from (the one entered before the current one)."""

    span: Span


@node
class LastRoll:
    """``ROLL`` / ``TIRAGE``: the total of the last dice rolled in this paragraph."""

    span: Span


@node
class ItemNumber:
    """The number noted on a carried item (``take Brass Key (number 50)``); 0 when the hero
    does not carry it."""

    span: Span
    item: str


Expr: TypeAlias = (
    Num
    | DiceRoll
    | ValueRef
    | CurrentParagraph
    | BinOp
    | NotedParagraph
    | PreviousParagraph
    | ItemNumber
    | LastRoll
)

# --------------------------------------------------------------------------- destinations


@node
class ParagraphRef:
    """A paragraph by number, or by symbolic label (resolved by the Book)."""

    span: Span
    number: int | None = None
    label: str | None = None


@node
class ComputedRef:
    """A destination computed from an expression (``gold + 50``)."""

    span: Span
    expr: Expr


Destination: TypeAlias = ParagraphRef | ComputedRef

# --------------------------------------------------------------------------- conditions


@node
class HasItem:
    span: Span
    item: str
    count: int = 1


@node
class HasCodeword:
    span: Span
    codeword: str


@node
class Compare:
    """``left op right`` with op in < <= = != >= >."""

    span: Span
    left: Expr
    op: Literal["<", "<=", "=", "!=", ">=", ">"]
    right: Expr


@node
class Visited:
    span: Span
    paragraph: ParagraphRef


@node
class WorldVisited:
    span: Span
    world: str


@node
class HasClass:
    span: Span
    name: str


@node
class Not:
    span: Span
    operand: Condition


@node
class And:
    span: Span
    operands: tuple[Condition, ...]


@node
class Or:
    span: Span
    operands: tuple[Condition, ...]


@node
class HasStatus:
    """``status Poisoned``: an ongoing effect is on the hero."""

    span: Span
    name: str


@node
class HasFlag:
    """``met lieutenant``: a flag the book declares (book.yaml ``state:``) is set."""

    span: Span
    name: str


Condition: TypeAlias = (
    HasItem
    | HasCodeword
    | Compare
    | Visited
    | WorldVisited
    | HasClass
    | Not
    | And
    | Or
    | HasStatus
    | HasFlag
)

# --------------------------------------------------------------------------- statements


@node
class Prose:
    """A block of the paragraph's text (light Markdown, ``{NAME}`` interpolations)."""

    span: Span
    text: str


@node
class Cost:
    """What a choice costs: an amount of a counter (gold) or an item given up."""

    span: Span
    counter: str | None = None
    amount: int = 0
    item: str | None = None


@node
class Choice:
    """``turn to N`` offered to the reader, possibly conditional or with a cost."""

    span: Span
    target: Destination
    text: str
    condition: Condition | None = None
    display: Literal["hidden", "disabled"] = "hidden"
    costs: tuple[Cost, ...] = ()
    revisit: bool = False
    effects: tuple[Statement, ...] = ()  # run when taken, after the costs (issue 13.3)


@node
class Goto:
    """An unconditional ``go to N``: leaves the paragraph at once."""

    span: Span
    target: Destination


@node
class ChangeValue:
    """Change a stat or counter: add, sub, set, restore (to initial), raise_initial or
    lower_initial."""

    span: Span
    op: Literal["add", "sub", "set", "restore", "raise_initial", "lower_initial"]
    name: str
    amount: Expr | None = None
    exceptional: bool = False


@node
class Penalty:
    """``lose 2 SKILL until you find a weapon``: the stat is lowered now and given back as
    soon as the hero holds ``item`` (or, with ``weapon``, any weapon)."""

    span: Span
    stat: str
    amount: int
    item: str | None = None
    weapon: bool = False


@node
class ItemTrigger:
    """``when STAMINA falls to 0: restore STAMINA``: once the stat (or counter) is at or
    below ``at``, the change is made and one of the item is used up."""

    span: Span
    stat: str
    at: int
    change: ChangeValue


@node
class ItemEffect:
    """An item's effect: a stat bonus, whether it is a weapon, tags, a number noted on it,
    a trigger."""

    span: Span
    stat: str | None = None
    amount: int = 0
    tag: str | None = None
    number: int | None = None
    trigger: ItemTrigger | None = None


@node
class GainItem:
    span: Span
    item: str
    count: int = 1
    weapon: bool = False
    effects: tuple[ItemEffect, ...] = ()


@node
class MayTake:
    """``you may take Rope``: the reader is asked whether the hero takes the item."""

    span: Span
    take: GainItem


@node
class LoseItem:
    span: Span
    item: str
    count: int = 1


@node
class SetCodeword:
    span: Span
    codeword: str


@node
class ClearCodeword:
    span: Span
    codeword: str


@node
class SetFlag:
    """``note met lieutenant``: set a flag the book declares."""

    span: Span
    name: str


@node
class ClearFlag:
    """``clear calf following``: clear a flag the book declares."""

    span: Span
    name: str


@node
class ChangeCount:
    """``add 1 to lieutenants met``: change a counter the book declares (add, sub, set)."""

    span: Span
    op: Literal["add", "sub", "set"]
    name: str
    amount: Expr


@node
class OpenWorld:
    """This paragraph is the first paragraph of a World."""

    span: Span
    world: str


@node
class AllowRevisit:
    """Choices of this paragraph may lead into Worlds already visited."""

    span: Span


@node
class MealRule:
    """Meals allowed (or forbidden) while reading this paragraph."""

    span: Span
    allowed: bool


@node
class Ending:
    span: Span
    kind: Literal["death", "victory"]


@node
class Modifier:
    """A tagged modifier (``-2 (piloting)``); class abilities act on its tags. With a
    ``condition`` (``-1 if Dagger``) it counts only while the condition holds."""

    span: Span
    value: int
    tags: tuple[str, ...] = ()
    condition: Condition | None = None


@node
class Branch:
    """One outcome of a test: run ``body`` (a Goto or statements) when it matches.

    ``margin`` optionally constrains the test's margin (reliques MR/ME, d20 total - DD).
    """

    span: Span
    outcome: str
    body: tuple[Statement, ...]
    margin: Compare | None = None


@node
class RangeBranch:
    """One row of a dice table: ``1-2 -> 40``."""

    span: Span
    low: int
    high: int
    body: tuple[Statement, ...]


@node
class Test:
    """A roll-under test named in the ruleset (``luck``, ``skill``, ...).

    With ``dice`` it is a free-form test (``roll 4d6 against STAMINA +2``): those dice
    plus the modifiers against the current value of the stat or counter ``name``. With
    ``against`` too it compares two rolls (``roll 2d6 against 2d6``, ``name`` empty).
    ``optional``: the reader is asked first; ``repeat``: rolled again until a success.
    """

    span: Span
    name: str
    modifiers: tuple[Modifier, ...] = ()
    branches: tuple[Branch, ...] = ()
    dice: DiceRoll | None = None
    against: DiceRoll | None = None
    optional: bool = False
    repeat: bool = False


@node
class DuoTest:
    """A reliques action test on one or two characteristics; ``kind`` (physical/mental)
    when the line says it, else None (the characteristics' kinds decide)."""

    span: Span
    stats: tuple[str, ...]
    difficulty: int = 0
    risk_allowed: bool = False
    modifiers: tuple[Modifier, ...] = ()
    branches: tuple[Branch, ...] = ()
    kind: Literal["physical", "mental"] | None = None
    optional: bool = False
    repeat: bool = False


@node
class D20Test:
    """A d20 action roll against a named or numeric difficulty; ``trained`` when the line
    says so (``(trained)``), else the hero's class decides by ``action``."""

    span: Span
    stat: str
    difficulty: str | int
    action: str | None = None
    advantage: Literal["advantage", "disadvantage"] | None = None
    modifiers: tuple[Modifier, ...] = ()
    branches: tuple[Branch, ...] = ()
    trained: bool = False
    optional: bool = False
    repeat: bool = False


@node
class RandomRoll:
    """``roll 1d6: 1-2 -> 40, 3-6 -> 55``."""

    span: Span
    dice: DiceRoll
    branches: tuple[RangeBranch, ...]


@node
class Enemy:
    """An opponent; ``stats`` pairs stat names (as written) with values."""

    span: Span
    name: str
    stats: tuple[tuple[str, int | str], ...]
    immune_instant_kill: bool = False
    article: str | None = None
    """The article the author writes before the name (``> enemy the GOBLIN``: "the"), for
    the narration (:mod:`dedale.i18n.french`); None: the name alone."""
    group: EnemyGroup | None = None
    """The group this enemy belongs to (``> enemies the three RATS ... each``), else None."""
    member: int = 0
    """Its place in the group (1, 2, 3…; 0: not in a group)."""


@node
class EnemyGroup:
    """Like enemies written once with a plural name (``> enemies the three RATS SKILL 5
    STAMINA 4 each`` / ``> ennemis les trois RATS HABILETÉ 5 ENDURANCE 4 chacun``): the
    line gives ``count`` enemies, each named ``singular`` and its number (``RAT 1``)."""

    span: Span
    plural: str
    singular: str
    count: int
    feminine: bool = False


@node
class Escape:
    span: Span
    target: Destination
    after: int | None = None


@node
class AssaultLimit:
    span: Span
    assaults: int
    target: Destination


@node
class FightThreshold:
    """ "If your STAMINA falls to N or less during this fight, turn to X"."""

    span: Span
    stat: str
    value: int
    target: Destination


@node
class WinAssaults:
    """ "Win N assaults to win": the fight is won once the hero has won N assaults."""

    span: Span
    count: int
    target: Destination


@node
class Fight:
    """A fight against one or several enemies."""

    span: Span
    enemies: tuple[Enemy, ...]
    mode: Literal["single", "sequence", "together", "as_one"] = "single"
    win: Destination | None = None
    lose: Destination | None = None
    escape: Escape | None = None
    assault_limit: AssaultLimit | None = None
    attack_bonus: int = 0
    enemy_damage: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    attack_stat: str | None = None  # "attack with MAGIC": the stat that replaces SKILL
    threshold: FightThreshold | None = None
    win_assaults: WinAssaults | None = None
    allies: tuple[Enemy, ...] = ()  # fighting beside the hero, with their own stats
    struck: Literal["hero", "ally", "random"] = "hero"  # whom the enemies strike
    assault_table: RandomRoll | None = None  # "each assault roll 1d6" and its rows
    rules: tuple[EnemyRule, ...] = ()  # rules written under an enemy (issue 13.2)


@node
class EnemyRule:
    """A fight rule written under an enemy, or for the whole fight (issue 13.2).

    ``kind``: ``deals`` (each wound it gives costs ``value``), ``takes`` (each wound it
    gets costs it ``value``, or half, or all its health: ``share``), ``attack`` (the hero's
    attack strength against it, +``value``), ``event`` (``on`` one of ``it_wins``,
    ``you_win``, ``double``, ``it_wounds``: ``effects`` run), ``exit`` (the fight stops and
    turns to ``target`` once ``condition`` holds after an assault), ``first`` (the first
    assault won by the hero turns to ``target``). ``enemy``: the index of the enemy in the
    fight (None: every enemy). A ``condition`` on the other kinds says when they apply
    (checked at each wound or assault)."""

    span: Span
    kind: Literal["deals", "takes", "attack", "event", "exit", "first"]
    enemy: int | None = None
    value: int = 0
    share: Literal["value", "half", "all"] = "value"
    condition: Condition | None = None
    on: str = ""
    effects: tuple[Statement, ...] = ()
    target: Destination | None = None


@node
class EnemyStatChange:
    """``its SKILL -2`` / ``son HABILETÉ -2``: an effect of a fight event on the enemy."""

    span: Span
    stat: str
    amount: int


@node
class WoundRoll:
    """``wound 1`` or ``roll 1d6, 6: wound 1`` in ``when it wounds you``: the wound the
    hero takes becomes ``value`` (when the roll falls in ``low``..``high``)."""

    span: Span
    value: int
    dice: DiceRoll | None = None
    low: int = 0
    high: int = 0


@node
class If:
    """``if <condition>: <statement>`` (with an optional else)."""

    span: Span
    condition: Condition
    then: tuple[Statement, ...]
    otherwise: tuple[Statement, ...] = ()


# ----------------------------------------------------------- amateur constructs (issue 8)


@node
class HiddenNumber:
    """Turn to "the number you know": the reader types a paragraph number.

    ``answers`` are the paragraphs this prompt may open (None: every declared hidden
    paragraph of the book). A number among them is entered; any other (or 0, "I don't
    know") runs the ``wrong`` lines (``> wrong number: ...``), then goes to ``otherwise``
    when there is one, else the paragraph reads on. The choice-line form (``-> ? (40, 56)
    Text``, ``offered``) is one option beside the paragraph's choices: 0 steps back, and a
    wrong number with no ``wrong`` line is refused, the reader chooses again."""

    span: Span
    otherwise: Destination | None = None
    answers: tuple[ParagraphRef, ...] | None = None
    wrong: tuple[Statement, ...] = ()
    offered: bool = False
    text: str = ""
    condition: Condition | None = None
    display: Literal["hidden", "disabled"] = "hidden"


@node
class HiddenParagraph:
    """Declares this paragraph as reached by a hidden number (not an orphan)."""

    span: Span


@node
class NoteParagraph:
    """Remember the current paragraph under ``name`` (``go to (noted NAME)`` later)."""

    span: Span
    name: str


@node
class StatusOn:
    """An ongoing effect: ``change`` is applied on every paragraph entered (or after every
    assault of a fight) until removed."""

    span: Span
    name: str
    change: ChangeValue
    per: Literal["paragraph", "assault"] = "paragraph"


@node
class StatusOff:
    """Remove an ongoing effect."""

    span: Span
    name: str


@node
class ForcedMeal:
    """Eat a meal now or suffer ``penalty``: one meal is used (no healing); without one, the
    penalty applies."""

    span: Span
    penalty: ChangeValue


@node
class ShopOffer:
    """One line of a shop: ``goods`` bought (a GainItem) or sold (a LoseItem) for
    ``price`` of ``counter``."""

    span: Span
    goods: GainItem | LoseItem
    price: int
    counter: str


@node
class Shop:
    """Consecutive ``buy``/``sell`` lines: the reader trades until leaving the shop."""

    span: Span
    offers: tuple[ShopOffer, ...]


@node
class Wager:
    """A bet of up to ``limit`` ``counter`` on ``dice``: even money when the total is in
    ``low``-``high``, the stake lost otherwise."""

    span: Span
    counter: str
    limit: int
    dice: DiceRoll
    low: int
    high: int


@node
class WatchedWager:
    """A bet of up to ``limit`` ``counter`` on one of two ``fighters`` whose fight the hero
    only watches (run by the rules core's fight, the first in the hero's place)."""

    span: Span
    counter: str
    limit: int
    fighters: tuple[Enemy, Enemy]


Statement: TypeAlias = (
    Prose
    | Choice
    | Goto
    | ChangeValue
    | GainItem
    | LoseItem
    | SetCodeword
    | ClearCodeword
    | OpenWorld
    | AllowRevisit
    | MealRule
    | Ending
    | Test
    | DuoTest
    | D20Test
    | RandomRoll
    | Fight
    | If
    | HiddenNumber
    | HiddenParagraph
    | NoteParagraph
    | StatusOn
    | StatusOff
    | ForcedMeal
    | Shop
    | Wager
    | SetFlag
    | ClearFlag
    | ChangeCount
    | Penalty
    | MayTake
    | WatchedWager
)

# --------------------------------------------------------------------------- paragraphs


@node
class Paragraph:
    """A numbered paragraph: what the reader sees as one entry of the book."""

    span: Span
    number: int
    body: tuple[Statement, ...]
    label: str | None = None


@node
class ParagraphFile:
    """One parsed paragraph file."""

    span: Span
    paragraphs: tuple[Paragraph, ...] = field(default_factory=tuple)
