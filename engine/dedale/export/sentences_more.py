"""Choices, hidden numbers, shops and wagers as the printed book says them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale import ast
from dedale.export.sentences_base import italic_marker
from dedale.i18n import tr

if TYPE_CHECKING:
    from dedale.export.sentences import Clauses


def choice_clause(writer: Clauses, choice: ast.Choice) -> str:
    """ "Ouvrir la porte (si vous avez la Clé) : rendez-vous au 12"."""
    notes: list[str] = []
    if choice.condition is not None:
        notes.append(writer.say(tr("if {condition}", condition=writer.condition(choice.condition))))
    for cost in choice.costs:
        notes.append(cost_clause(writer, cost))
    notes.extend(clause for clause in (writer.clause(s) for s in choice.effects) if clause)
    text = choice.text.strip()
    if not text and choice.condition is not None and len(notes) == 1:
        # no words of its own: "Si vous possédez la Lanterne, rendez-vous au 30"
        return writer.say(
            tr("{outcome}, {then}", outcome=notes[0], then=writer.turn_to(choice.target))
        )
    if notes:
        text = writer.say(tr("{text} ({notes})", text=text, notes=", ".join(notes)))
    turn = writer.turn_to(choice.target)
    if not text:
        return turn
    return writer.say(tr("{text}: {turn_to}", text=text, turn_to=turn))


def cost_clause(writer: Clauses, cost: ast.Cost) -> str:
    """What a choice costs ("payez 6 Pièces d'or", "donnez la Corde")."""
    if cost.item is not None:
        return writer.say(tr("give up the {item}", item=italic_marker(cost.item)))
    counter = writer.counted(cost.counter or "", cost.amount)
    return writer.say(tr("pay {count} {counter}", count=cost.amount, counter=counter))


def hidden_clause(writer: Clauses, stmt: ast.HiddenNumber) -> str:
    """The hidden-number prompt: the reader turns to the number he knows."""
    say = writer.say
    if stmt.offered and stmt.text:
        head = say(tr("{text}: turn to the number you know", text=stmt.text.strip()))
    else:
        head = say(tr("if you know the number to turn to, turn to it now"))
    if stmt.condition is not None:
        head = say(
            tr(
                "{text} ({notes})",
                text=head,
                notes=say(tr("if {condition}", condition=writer.condition(stmt.condition))),
            )
        )
    after: list[str] = [writer.clause(s) for s in stmt.wrong]
    if stmt.otherwise is not None:
        after.append(writer.turn_to(stmt.otherwise))
    after = [part for part in after if part]
    if not after:
        return head
    return say(tr("{then}; otherwise, {otherwise}", then=head, otherwise=writer.join(after)))


def _offer(writer: Clauses, offer: ast.ShopOffer) -> str:
    goods = offer.goods
    name = (
        italic_marker(goods.item)
        if goods.count == 1
        else f"{goods.count} {italic_marker(goods.item)}"
    )
    extras = writer.item_effects(goods) if isinstance(goods, ast.GainItem) else ""
    if extras:
        name = f"{name} ({extras})"
    price = f"{offer.price} {writer.counted(offer.counter, offer.price)}"
    return writer.say(tr("{goods} for {price}", goods=name, price=price))


def shop_clause(writer: Clauses, stmt: ast.Shop) -> str:
    """ "vous pouvez acheter : Épée pour 7 Pièces d'or, … ; vous pouvez vendre : …"."""
    bought = [_offer(writer, o) for o in stmt.offers if isinstance(o.goods, ast.GainItem)]
    sold = [_offer(writer, o) for o in stmt.offers if isinstance(o.goods, ast.LoseItem)]
    parts = []
    if bought:
        parts.append(writer.say(tr("you may buy: {offers}", offers=", ".join(bought))))
    if sold:
        parts.append(writer.say(tr("you may sell: {offers}", offers=", ".join(sold))))
    separator = writer.say(tr("{first}; {second}", first="", second=""))
    return separator.join(parts)


def wager_clause(writer: Clauses, stmt: ast.Wager) -> str:
    """A bet on the dice, even money."""
    counter = writer.counted(stmt.counter, stmt.limit)
    if stmt.low == stmt.high:
        range_text = writer.say(tr("on a {low}", low=stmt.low))
    else:
        range_text = writer.say(tr("from {low} to {high}", low=stmt.low, high=stmt.high))
    return writer.say(
        tr(
            "you may bet up to {limit} {counter}, then roll {dice}: {range}, you win as much "
            "as your stake; otherwise, you lose it",
            limit=stmt.limit,
            counter=counter,
            dice=writer.dice(stmt.dice.text),
            range=range_text,
        )
    )


def watched_wager_clause(writer: Clauses, stmt: ast.WatchedWager) -> str:
    """A bet on one of two fighters whose fight the hero watches."""
    first, second = stmt.fighters

    def named(foe: ast.Enemy) -> str:
        stats = " ".join(f"{writer.stat(key)} {value}" for key, value in foe.stats)
        return f"{foe.name} ({stats})"

    return writer.say(
        tr(
            "you may bet up to {limit} {counter} on {first} or on {second}; fight their "
            "fight for them, the first in your place: if yours wins, you win as much as "
            "your stake; otherwise, you lose it",
            limit=stmt.limit,
            counter=writer.counted(stmt.counter, stmt.limit),
            first=named(first),
            second=named(second),
        )
    )
