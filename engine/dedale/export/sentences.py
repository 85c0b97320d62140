"""Every rule line of a paragraph as the printed book's clause, in the book's language.

:class:`Clauses` has one method per statement kind of :mod:`dedale.ast` (the table
``HANDLERS``; ``tests/export/test_build_sentences.py`` fails when a kind has none). A clause
is lower case without its full stop ("perdez 2 points d'ENDURANCE"), so that the outcome of a
test can chain several ("si vous êtes Malchanceux, perdez 2 points d'ENDURANCE et
rendez-vous au 7"); :func:`~dedale.export.sentences_base.sentence` makes it a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dedale import ast
from dedale.export.sentences_base import italic_marker, ref_marker
from dedale.export.sentences_fights import enemy_stat_clause, fight_clause, wound_clause
from dedale.export.sentences_more import (
    choice_clause,
    hidden_clause,
    shop_clause,
    wager_clause,
    watched_wager_clause,
)
from dedale.export.sentences_terms import Terms
from dedale.export.sentences_tests import d20_clause, duo_clause, table_clause, test_clause
from dedale.i18n import ntr, tr

_SIMPLE_DICE = re.compile(r"(\d{1,2})d6")


class Clauses(Terms):
    """Clauses of statements, one method per kind (see ``HANDLERS``)."""

    def clause(self, stmt: ast.Statement) -> str:
        """The statement as a clause ("" for marks a reader never sees)."""
        handler = HANDLERS.get(type(stmt))
        if handler is None:  # pragma: no cover - the coverage test keeps HANDLERS complete
            return ""
        return handler(self, stmt)

    def clauses(self, body: tuple[ast.Statement, ...]) -> str:
        """Several statements as one clause ("perdez 1 point de CHANCE et rendez-vous au 7")."""
        return self.join([self.clause(stmt) for stmt in body])

    # ------------------------------------------------------------------ dice

    def dice(self, text: str) -> str:
        """A dice expression as printed books say it ("deux dés"; else as written)."""
        found = _SIMPLE_DICE.fullmatch(text.strip().lower())
        if found is None:
            return text
        count = int(found.group(1))
        if count == 1:
            return self.say(tr("one die"))
        return self.say(ntr("{count} die", "{count} dice", count))

    # ------------------------------------------------------------------ moves and values

    def goto(self, stmt: ast.Goto) -> str:
        return self.turn_to(stmt.target)

    def change(self, stmt: ast.ChangeValue) -> str:
        if self.is_book_counter(stmt.name) and stmt.op in ("add", "sub", "set"):
            amount = stmt.amount if stmt.amount is not None else ast.Num(span=stmt.span, value=1)
            return self.count_change(
                ast.ChangeCount(span=stmt.span, op=stmt.op, name=stmt.name, amount=amount)
            )
        name = self.stat(stmt.name)
        amount = stmt.amount
        fixed = amount.value if isinstance(amount, ast.Num) else None
        value = self.value(amount) if amount is not None else "1"
        if stmt.op in ("add", "sub") and fixed is not None:
            return self._gain_or_loss(stmt.op == "add", stmt.name, name, fixed, stmt.exceptional)
        params = {"stat": name, "of_name": self.of(name), "value": value}
        if isinstance(amount, ast.DiceRoll) and stmt.op in ("add", "sub"):
            params["dice"] = self.dice(amount.text)
            if stmt.op == "add":
                return self.say(tr("roll {dice} and gain as many {stat} points", **params))
            return self.say(tr("roll {dice} and lose as many {stat} points", **params))
        if stmt.op == "add":
            return self.say(tr("add {value} to your {stat}", **params))
        if stmt.op == "sub":
            return self.say(tr("take {value} from your {stat}", **params))
        if stmt.op == "set" and self.is_counter(stmt.name):
            return self.say(tr("write {value} in the box {name}", value=value, name=name))
        if stmt.op == "set":
            return self.say(tr("your {stat} is now {value}", **params))
        if stmt.op == "restore":
            return self.say(tr("bring your {stat} back to its initial value", **params))
        if stmt.op == "raise_initial":
            return self.say(tr("raise your initial {stat} by {value}", **params))
        return self.say(tr("lower your initial {stat} by {value}", **params))

    def _gain_or_loss(
        self, gain: bool, written: str, name: str, count: int, exceptional: bool
    ) -> str:
        if self.is_counter(written) or self.ruleset is None or self.book.stat_id(written) is None:
            shown = self.counted(written, count)
            if gain:
                return self.say(tr("gain {count} {counter}", count=count, counter=shown))
            return self.say(tr("lose {count} {counter}", count=count, counter=shown))
        params = {"stat": name, "of_name": self.of(name)}
        if gain and exceptional:
            return self.say(
                ntr(
                    "gain {count} {stat} point, even beyond its initial value",
                    "gain {count} {stat} points, even beyond its initial value",
                    count,
                    **params,
                )
            )
        if gain:
            return self.say(
                ntr("gain {count} {stat} point", "gain {count} {stat} points", count, **params)
            )
        return self.say(
            ntr("lose {count} {stat} point", "lose {count} {stat} points", count, **params)
        )

    def penalty(self, stmt: ast.Penalty) -> str:
        loss = self._gain_or_loss(False, stmt.stat, self.stat(stmt.stat), stmt.amount, False)
        if stmt.weapon or stmt.item is None:
            return self.say(tr("{loss} until you find a weapon", loss=loss))
        item = italic_marker(stmt.item)
        return self.say(tr("{loss} until you find the {item}", loss=loss, item=item))

    def count_change(self, stmt: ast.ChangeCount) -> str:
        params = {"name": italic_marker(stmt.name), "value": self.value(stmt.amount)}
        if stmt.op == "add":
            return self.say(tr("add {value} to the box {name}", **params))
        if stmt.op == "sub":
            return self.say(tr("take {value} from the box {name}", **params))
        return self.say(tr("write {value} in the box {name}", **params))

    # ------------------------------------------------------------------ items and marks

    def gain_item(self, stmt: ast.GainItem) -> str:
        item = italic_marker(stmt.item)
        extras = self.item_effects(stmt)
        if stmt.count > 1:
            text = self.say(tr("add {count} {item} to your Equipment", count=stmt.count, item=item))
        else:
            text = self.say(tr("add the {item} to your Equipment", item=item))
        return f"{text} ({extras})" if extras else text

    def item_effects(self, stmt: ast.GainItem) -> str:
        """What the sheet must say of an item ("une arme, HABILETÉ +1")."""
        parts = [self.say(tr("a weapon"))] if stmt.weapon else []
        for effect in stmt.effects:
            if effect.stat is not None and effect.amount:
                parts.append(f"{self.stat(effect.stat)} {effect.amount:+d}")
            if effect.number is not None:
                parts.append(self.say(tr("number {number}", number=effect.number)))
            if effect.trigger is not None:
                trigger = effect.trigger
                parts.append(
                    self.say(
                        tr(
                            "when your {stat} falls to {value}: {change}",
                            stat=self.stat(trigger.stat),
                            value=trigger.at,
                            change=self.change(trigger.change),
                        )
                    )
                )
        return ", ".join(parts)

    def may_take(self, stmt: ast.MayTake) -> str:
        take = self.gain_item(stmt.take)
        return self.say(tr("if you wish, {take}", take=take))

    def lose_item(self, stmt: ast.LoseItem) -> str:
        item = italic_marker(stmt.item)
        if stmt.count > 1:
            return self.say(
                tr("cross {count} {item} off your Equipment", count=stmt.count, item=item)
            )
        return self.say(tr("cross the {item} off your Equipment", item=item))

    def set_codeword(self, stmt: ast.SetCodeword) -> str:
        return self.say(tr("note the codeword {word}", word=italic_marker(stmt.codeword)))

    def clear_codeword(self, stmt: ast.ClearCodeword) -> str:
        return self.say(tr("cross off the codeword {word}", word=italic_marker(stmt.codeword)))

    def set_flag(self, stmt: ast.SetFlag) -> str:
        return self.say(tr("tick the box {name}", name=italic_marker(stmt.name)))

    def clear_flag(self, stmt: ast.ClearFlag) -> str:
        return self.say(tr("clear the box {name}", name=italic_marker(stmt.name)))

    def note_paragraph(self, stmt: ast.NoteParagraph) -> str:
        return self.say(
            tr(
                "note the number of this paragraph ({number}) as {name}",
                number=ref_marker(self.here),
                name=italic_marker(stmt.name),
            )
        )

    # ------------------------------------------------------------------ places and meals

    def open_world(self, stmt: ast.OpenWorld) -> str:
        return self.say(tr("here begins {world}", world=italic_marker(stmt.world)))

    def meal_rule(self, stmt: ast.MealRule) -> str:
        if stmt.allowed:
            return self.say(tr("you may eat a meal here"))
        return self.say(tr("you may not eat here"))

    def forced_meal(self, stmt: ast.ForcedMeal) -> str:
        return self.say(
            tr(
                "eat a meal now; if you have none left, {penalty}",
                penalty=self.change(stmt.penalty),
            )
        )

    def ending(self, stmt: ast.Ending) -> str:
        if stmt.kind == "victory":
            return self.say(tr("you have succeeded in your quest"))
        return self.say(tr("your adventure ends here"))

    def status_on(self, stmt: ast.StatusOn) -> str:
        params = {"name": italic_marker(stmt.name), "change": self.change(stmt.change)}
        if stmt.per == "assault":
            return self.say(tr("you are {name}: after each assault, {change}", **params))
        return self.say(tr("you are {name}: at each new paragraph, {change}", **params))

    def status_off(self, stmt: ast.StatusOff) -> str:
        return self.say(tr("you are no longer {name}", name=italic_marker(stmt.name)))

    def silent(self, stmt: ast.Statement) -> str:
        """A mark for the player or the checker, which the printed book does not print."""
        return ""

    def conditional(self, stmt: ast.If) -> str:
        then = self.say(
            tr(
                "if {condition}, {then}",
                condition=self.condition(stmt.condition),
                then=self.clauses(stmt.then),
            )
        )
        if not stmt.otherwise:
            return then
        otherwise = self.clauses(stmt.otherwise)
        return self.say(tr("{then}; otherwise, {otherwise}", then=then, otherwise=otherwise))

    def prose(self, stmt: ast.Prose) -> str:
        return stmt.text


HANDLERS: dict[type, Callable[[Any, Any], str]] = {
    ast.Prose: Clauses.prose,
    ast.Choice: choice_clause,
    ast.Goto: Clauses.goto,
    ast.ChangeValue: Clauses.change,
    ast.GainItem: Clauses.gain_item,
    ast.LoseItem: Clauses.lose_item,
    ast.SetCodeword: Clauses.set_codeword,
    ast.ClearCodeword: Clauses.clear_codeword,
    ast.OpenWorld: Clauses.open_world,
    ast.AllowRevisit: Clauses.silent,
    ast.MealRule: Clauses.meal_rule,
    ast.Ending: Clauses.ending,
    ast.Test: test_clause,
    ast.DuoTest: duo_clause,
    ast.D20Test: d20_clause,
    ast.RandomRoll: table_clause,
    ast.Fight: fight_clause,
    ast.If: Clauses.conditional,
    ast.HiddenNumber: hidden_clause,
    ast.HiddenParagraph: Clauses.silent,
    ast.NoteParagraph: Clauses.note_paragraph,
    ast.StatusOn: Clauses.status_on,
    ast.StatusOff: Clauses.status_off,
    ast.ForcedMeal: Clauses.forced_meal,
    ast.Shop: shop_clause,
    ast.Wager: wager_clause,
    ast.SetFlag: Clauses.set_flag,
    ast.ClearFlag: Clauses.clear_flag,
    ast.ChangeCount: Clauses.count_change,
    ast.Penalty: Clauses.penalty,
    ast.MayTake: Clauses.may_take,
    ast.WatchedWager: watched_wager_clause,
    ast.EnemyStatChange: enemy_stat_clause,
    ast.WoundRoll: wound_clause,
}
"""Every statement kind -> its clause (``Clauses.silent``: never printed)."""
