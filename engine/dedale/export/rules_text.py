"""The rules of a book's ruleset written out for the front of the printed book.

Every sentence comes from the ruleset's data (creation dice, stats, counters, tests, the
fight's numbers, meals, inventory limit, classes), so a new ruleset YAML gets its rules
written without new Python. The fight procedures are the rules core's three mechanisms
(:attr:`Ruleset.procedure`), each described from its parameters.
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.export import document as doc
from dedale.export.rules_text_fight import fight_rules
from dedale.export.rules_text_tests import action_tests
from dedale.export.sentences import Clauses
from dedale.export.sentences_base import sentence, to_inlines
from dedale.export.sheet import statement_kinds
from dedale.i18n import ntr, tr
from dedale.rules.dice import Dice


def rules_front(book: Any) -> tuple[doc.FrontBlock, ...]:
    """Headings and sentences of the rules, in the book's language ("" ruleset: none)."""
    if book.ruleset is None:
        return ()
    writer = RulesWriter(book)
    return tuple(writer.front())


class RulesWriter(Clauses):
    """Writes the front matter's chapters from the ruleset."""

    def front(self) -> list[doc.FrontBlock]:
        say = self.say
        out: list[doc.FrontBlock] = [doc.Heading(say(tr("How to play")))]
        out.append(self.rule(say(tr("this book follows the rules of {title}", title=self.title()))))
        out.append(doc.Heading(say(tr("Your stats"))))
        out.extend(self.rule(text) for text in self.creation() + self.start_items())
        if self.ruleset.classes:
            out.append(doc.Heading(say(tr("Your class"))))
            out.extend(self.rule(text) for text in self.classes())
        tests = self.tests() + action_tests(self)
        if tests:
            out.append(doc.Heading(say(tr("Tests"))))
            out.extend(self.rule(text) for text in tests)
        out.append(doc.Heading(say(tr("Fights"))))
        out.extend(self.rule(text) for text in fight_rules(self))
        out.append(doc.Heading(say(tr("Equipment and provisions"))))
        out.extend(self.rule(text) for text in self.equipment())
        return out

    def rule(self, clause: str) -> doc.Rule:
        return doc.Rule(to_inlines(sentence(clause)))

    def title(self) -> str:
        titles = self.ruleset.title or {}
        return titles.get(self.lang) or next(iter(titles.values()), self.ruleset.name)

    def roll_phrase(self, roll: Any) -> str:
        """How to roll a creation expression ("lancez un dé et ajoutez 6 au résultat")."""
        dice = [term for sign, term in roll.terms if isinstance(term, Dice) and sign > 0]
        constant = sum(sign * term for sign, term in roll.terms if isinstance(term, int))
        others = [term for _, term in roll.terms if not isinstance(term, Dice | int)]
        if others or not dice:
            return self.say(tr("count {formula}", formula=self.formula(roll)))
        if len(dice) != 1 or dice[0].keep is not None:
            return self.say(tr("roll {dice}", dice=roll.text))
        shown = self.dice(str(dice[0]))
        if constant > 0:
            return self.say(
                tr("roll {dice} and add {count} to the total", dice=shown, count=constant)
            )
        if constant < 0:
            return self.say(
                tr("roll {dice} and take {count} from the total", dice=shown, count=-constant)
            )
        return self.say(tr("roll {dice}", dice=shown))

    def formula(self, roll: Any) -> str:
        """A creation value computed from other stats, as words ("5 × CONSTITUTION")."""
        counts: dict[str, int] = {}
        parts: list[str] = []
        for sign, term in roll.terms:
            if isinstance(term, Dice | int):
                parts.append(("-" if sign < 0 else "") + str(term))
            else:
                name = str(getattr(term, "name", term))
                if name not in counts:
                    parts.append(f"\0{name}")
                counts[name] = counts.get(name, 0) + sign
        shown = []
        for part in parts:
            if part.startswith("\0"):
                name = part[1:]
                label = self.stat(name)
                shown.append(label if counts[name] == 1 else f"{counts[name]} × {label}")
            else:
                shown.append(part)
        return " + ".join(shown).replace("+ -", "- ")

    def creation(self) -> list[str]:
        say = self.say
        out = []
        for stat in self.ruleset.stats:
            name = self.ruleset.display_name(stat.id, self.lang)
            if stat.roll is not None:
                out.append(
                    say(
                        tr(
                            "{roll}: this is your initial {stat}; write it in the {stat} box "
                            "of your Adventure Sheet",
                            roll=self.roll_phrase(stat.roll),
                            stat=name,
                        )
                    )
                )
        capped = [
            self.ruleset.display_name(stat.id, self.lang)
            for stat in self.ruleset.stats
            if not stat.may_exceed_initial
        ]
        if capped:
            out.append(
                say(
                    tr(
                        "unless a paragraph says so, these stats may never go above their "
                        "initial value: {stats}",
                        stats=self.join(capped),
                    )
                )
            )
        for counter in self.ruleset.counters:
            if counter.initial:
                shown = self.ruleset.counted_name(counter.id, counter.initial, self.lang)
                out.append(
                    say(
                        tr("you start with {count} {counter}", count=counter.initial, counter=shown)
                    )
                )
            if counter.maximum is not None:
                shown = self.ruleset.counted_name(counter.id, counter.maximum, self.lang)
                out.append(
                    say(
                        tr(
                            "you may never hold more than {count} {counter}",
                            count=counter.maximum,
                            counter=shown,
                        )
                    )
                )
        return out

    def _item_id(self, name: str) -> str:
        found = self.ruleset.resolve(name)
        return found[1] if found and found[0] == "item" else name

    def start_items(self) -> list[str]:
        """What the book gives the hero before paragraph 1 (book.yaml ``items:``)."""
        items = list(getattr(self.book.meta, "items", ()) or ())
        if not items:
            return []
        names = [f"{item.count} {item.item}" if item.count > 1 else item.item for item in items]
        return [self.say(tr("you start the adventure with: {items}", items=", ".join(names)))]

    def classes(self) -> list[str]:
        say = self.say
        out = [say(tr("choose your class among the following"))]
        for klass in self.ruleset.classes.values():
            name = klass.names.get(self.lang) or next(iter(klass.names.values()), klass.id)
            text = klass.description.get(self.lang) or next(iter(klass.description.values()), "")
            rolls = ", ".join(
                f"{self.ruleset.display_name(stat, self.lang)} {roll.text}"
                for stat, roll in klass.stats.items()
            )
            kit = [self.ruleset.display_name(self._item_id(item), self.lang) for item in klass.kit]
            equipment = self.say(tr("equipment: {items}", items=", ".join(kit))) if kit else ""
            parts = [part for part in (text.strip().rstrip("."), rolls, equipment) if part]
            separator = self.say(tr("{first}; {second}", first="", second=""))
            out.append(self.say(tr("{name}: {details}", name=name, details=separator.join(parts))))
        return out

    def tests(self) -> list[str]:
        say = self.say
        out = []
        for test in self.ruleset.tests.values():
            name = test.names.get(self.lang) or test.id
            stat = self.ruleset.display_name(test.stat, self.lang)
            success = self.ruleset.outcome_name(test.id, "success", self.lang)
            failure = self.ruleset.outcome_name(test.id, "failure", self.lang)
            if success and failure:
                out.append(
                    say(
                        tr(
                            "to test your {test}, roll {dice}: if the total is equal to or less "
                            "than your {stat}, you are {success}; otherwise, you are {failure}",
                            test=name,
                            dice=self.dice(test.dice.text),
                            stat=stat,
                            success=success,
                            failure=failure,
                        )
                    )
                )
            else:
                out.append(
                    say(
                        tr(
                            "to test your {test}, roll {dice}: if the total is equal to or less "
                            "than your {stat}, you succeed; otherwise, you fail",
                            test=name,
                            dice=self.dice(test.dice.text),
                            stat=stat,
                        )
                    )
                )
            if test.cost:
                out.append(
                    say(
                        ntr(
                            "each time you test your {test}, take {count} point from your {stat}",
                            "each time you test your {test}, take {count} points from your {stat}",
                            test.cost,
                            test=name,
                            stat=stat,
                            of_name=self.of(stat),
                        )
                    )
                )
        return out

    def equipment(self) -> list[str]:
        say = self.say
        out = [
            say(
                tr(
                    "write what you find in the Equipment box of your Adventure Sheet, and "
                    "cross off what you use or lose"
                )
            )
        ]
        meals = self.ruleset.meals
        if meals is not None:
            counter = self.ruleset.counted_name(meals.counter, 1, self.lang)
            stat = self.ruleset.display_name(meals.stat, self.lang)
            heal = ntr(
                "each {meal} you eat gives you back {count} {stat} point",
                "each {meal} you eat gives you back {count} {stat} points",
                meals.heal,
                meal=counter,
                stat=stat,
                of_name=self.of(stat),
            )
            out.append(say(heal))
            if meals.anywhere:
                out.append(say(tr("you may eat at any time, except during a fight")))
            else:
                out.append(say(tr("you may eat only when a paragraph says you may")))
        if self.ruleset.inventory_limit is not None:
            out.append(
                say(
                    ntr(
                        "you may carry at most {count} item",
                        "you may carry at most {count} items",
                        self.ruleset.inventory_limit,
                    )
                )
            )
        if ast.SetCodeword in statement_kinds(self.book):  # the sheet has the box then
            out.append(say(tr("a codeword you are told to note goes in the Codewords box")))
        return out
