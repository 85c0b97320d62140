"""Tests and dice tables as the printed book says them ("Tentez votre Chance : si vous êtes
Chanceux, rendez-vous au 41 ; si vous êtes Malchanceux, rendez-vous au 7")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale import ast
from dedale.i18n import tr
from dedale.rules.ruleset import fold

if TYPE_CHECKING:
    from dedale.export.sentences import Clauses


def outcome(writer: Clauses, test_id: str | None, branch: ast.Branch) -> str:
    """ "if you are Lucky" / "if you succeed" / "if you refuse"..., with its margin."""
    own = writer.ruleset.outcome_name(test_id, branch.outcome, writer.lang) if test_id else None
    kind = branch.outcome
    if own:
        text = writer.say(tr("if you are {word}", word=own))
    elif kind == "success":
        text = writer.say(tr("if you succeed"))
    elif kind == "failure":
        text = writer.say(tr("if you fail"))
    elif kind == "critical_success":
        text = writer.say(tr("if you succeed brilliantly (a critical success)"))
    elif kind == "critical_failure":
        text = writer.say(tr("if you fail badly (a critical failure)"))
    elif kind == "higher":
        text = writer.say(tr("if your total is higher"))
    elif kind == "lower":
        text = writer.say(tr("if your total is lower"))
    elif kind == "equal":
        text = writer.say(tr("if the totals are equal"))
    else:
        text = writer.say(tr("if you would rather not"))
    if branch.margin is not None:
        margin = writer.compare(branch.margin, False)
        text = writer.say(tr("{outcome} and {margin}", outcome=text, margin=margin))
    return text


def branches(writer: Clauses, test_id: str | None, items: tuple[ast.Branch, ...]) -> str:
    """ "si vous êtes Chanceux, rendez-vous au 41 ; si vous êtes Malchanceux, …"."""
    parts = [
        writer.say(
            tr(
                "{outcome}, {then}",
                outcome=outcome(writer, test_id, branch),
                then=writer.clauses(branch.body),
            )
        )
        for branch in items
    ]
    return writer.say(tr("{first}; {second}", first="", second="")).join(parts) if parts else ""


def modifier(writer: Clauses, mod: ast.Modifier, roll_under: bool) -> str:
    """A modifier as the printed book's instruction on the dice ("ajoutez 1 au résultat")."""
    to_dice = -mod.value if roll_under else mod.value
    if to_dice >= 0:
        text = writer.say(tr("add {count} to the dice", count=to_dice))
    else:
        text = writer.say(tr("take {count} from the dice", count=-to_dice))
    if mod.condition is not None:
        text = writer.say(
            tr("{change} if {condition}", change=text, condition=writer.condition(mod.condition))
        )
    return text


def _with_options(writer: Clauses, head: str, mods: list[str], stmt, body: str) -> str:
    if mods:
        head = writer.say(tr("{test} ({modifiers})", test=head, modifiers=", ".join(mods)))
    if body:
        head = writer.say(tr("{test}: {outcomes}", test=head, outcomes=body))
    if getattr(stmt, "repeat", False):
        head = writer.say(tr("{test}; try again until you succeed", test=head))
    return head


def test_id(writer: Clauses, name: str) -> str | None:
    """The ruleset's test a test line names (``luck``, ``chance``), else None."""
    tests = writer.ruleset.tests if writer.ruleset is not None else {}
    if name in tests:
        return name
    folded = fold(name)
    for test in tests.values():
        if folded in {fold(test.id), *(fold(n) for n in test.names.values())}:
            return test.id
    return None


def test_clause(writer: Clauses, stmt: ast.Test) -> str:
    """A Luck/Skill test of the ruleset, a free-form roll against a value, or two rolls."""
    body_id: str | None = None
    if stmt.dice is not None and stmt.against is not None:
        head = writer.say(
            tr(
                "roll {first} for yourself and {second} for your opponent",
                first=writer.dice(stmt.dice.text),
                second=writer.dice(stmt.against.text),
            )
        )
    elif stmt.dice is not None:
        head = writer.say(
            tr(
                "roll {dice} (you succeed when the total is at most your {stat})",
                dice=writer.dice(stmt.dice.text),
                stat=writer.stat(stmt.name),
            )
        )
    else:
        body_id = test_id(writer, stmt.name)
        name = writer.ruleset.display_name(body_id, writer.lang) if body_id else stmt.name
        if stmt.optional:
            head = writer.say(tr("you may test your {test}", test=name))
        else:
            head = writer.say(tr("test your {test}", test=name))
    mods = [modifier(writer, mod, stmt.dice is None) for mod in stmt.modifiers]
    return _with_options(writer, head, mods, stmt, branches(writer, body_id, stmt.branches))


def duo_clause(writer: Clauses, stmt: ast.DuoTest) -> str:
    """A reliques action test on one or two characteristics."""
    stats = writer.join([writer.stat(name) for name in stmt.stats])
    head = writer.say(
        tr(
            "make an action test on {stats}, difficulty {difficulty:+d}",
            stats=stats,
            of_name=writer.of(stats),
            difficulty=stmt.difficulty,
        )
    )
    if stmt.optional:
        head = writer.say(tr("if you wish, {test}", test=head))
    mods = [modifier(writer, mod, False) for mod in stmt.modifiers]
    if stmt.risk_allowed:
        mods.append(writer.say(tr("you may take the risk")))
    return _with_options(writer, head, mods, stmt, branches(writer, None, stmt.branches))


def d20_clause(writer: Clauses, stmt: ast.D20Test) -> str:
    """A d20 action roll against a difficulty."""
    difficulty = stmt.difficulty
    if writer.ruleset is not None and writer.ruleset.d20 is not None:
        try:
            value = writer.ruleset.difficulty(difficulty)
        except KeyError:
            value = None
        if value is not None and not isinstance(difficulty, int):
            difficulty = f"{difficulty} ({value})"
    head = writer.say(
        tr(
            "make a {stat} roll against difficulty {difficulty}",
            stat=writer.stat(stmt.stat),
            difficulty=difficulty,
        )
    )
    mods = [modifier(writer, mod, False) for mod in stmt.modifiers]
    if stmt.action:
        mods.insert(0, stmt.action)
    if stmt.advantage == "advantage":
        mods.append(writer.say(tr("with advantage")))
    elif stmt.advantage == "disadvantage":
        mods.append(writer.say(tr("with disadvantage")))
    if stmt.trained:
        mods.append(writer.say(tr("trained")))
    if stmt.optional:
        head = writer.say(tr("if you wish, {test}", test=head))
    return _with_options(writer, head, mods, stmt, branches(writer, None, stmt.branches))


def table_clause(writer: Clauses, stmt: ast.RandomRoll) -> str:
    """ "lancez un dé : de 1 à 2, rendez-vous au 40 ; 6, rendez-vous au 42"."""
    rows = []
    for row in stmt.branches:
        if row.low == row.high:
            when = writer.say(tr("on a {low}", low=row.low))
        else:
            when = writer.say(tr("from {low} to {high}", low=row.low, high=row.high))
        rows.append(
            writer.say(tr("{outcome}, {then}", outcome=when, then=writer.clauses(row.body)))
        )
    separator = writer.say(tr("{first}; {second}", first="", second=""))
    if not rows:  # the roll only feeds ROLL / TIRAGE in what follows
        return writer.say(tr("roll {dice}", dice=writer.dice(stmt.dice.text)))
    return writer.say(
        tr("roll {dice}: {rows}", dice=writer.dice(stmt.dice.text), rows=separator.join(rows))
    )
