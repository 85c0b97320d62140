"""Lines of the constructs amateur books add (hidden numbers, note and return, statuses,
free-form tests, forced meals, shops and wagers): part of the LineTransformer (see
dedale.language.transform), kept apart to keep modules small."""

from __future__ import annotations

from lark import Token

from dedale import ast
from dedale.i18n import tr
from dedale.language.hidden_lines import WrongNumberPart, hidden_choice
from dedale.language.transform_parts import Mod
from dedale.language.transform_tests import EVERY_TEST, refuse_options, test_forms
from dedale.limits import AMOUNT, COUNT, DICE_TOTAL
from dedale.limits import number as _number


class AmateurLines:
    """The transformer methods of the amateur-book constructs (mixed into LineTransformer)."""

    def hidden_number(self, meta, children):
        answers = next((c for c in children if isinstance(c, tuple)), None)
        otherwise = children[-1] if children and not isinstance(children[-1], tuple) else None
        return ast.HiddenNumber(span=self._span(meta), otherwise=otherwise, answers=answers)

    def hidden_choice(self, meta, children):
        options = [pair for group in children[2:] if isinstance(group, list) for pair in group]
        text = next((self._text(c) for c in children[2:] if isinstance(c, Token)), "")
        return hidden_choice(self._span(meta), children[1], options, text)

    def answers(self, meta, children):
        return tuple(children)

    def wrong_number(self, meta, children):
        return WrongNumberPart(self._span(meta), children[0])

    def hidden_paragraph(self, meta, children):
        return ast.HiddenParagraph(span=self._span(meta))

    def note_paragraph(self, meta, children):
        return ast.NoteParagraph(span=self._span(meta), name=self._text(children[-1]))

    def go_back(self, meta, children):
        span = self._span(meta)
        back = ast.ComputedRef(span=span, expr=ast.PreviousParagraph(span=span))
        return ast.Goto(span=span, target=back)

    def dice_test(self, meta, children):
        span = self._span(meta)
        dice_tok = children[0]
        words = [t for t in children if isinstance(t, Token) and t.type == "WORD"]
        mods = [c for c in children if isinstance(c, Mod)]
        untagged, tagged, flags, names = self._mods(mods, allow_if=True)
        refuse_options(flags, EVERY_TEST, span, tr("a dice test"))
        modifiers = [ast.Modifier(span=span, value=v) for v in untagged] + tagged
        if names:
            modifiers.append(ast.Modifier(span=span, value=0, tags=tuple(names)))
        return ast.Test(
            span=span,
            name=self._text(words[0]),
            modifiers=tuple(modifiers),
            dice=ast.DiceRoll(span=self._tspan(dice_tok), text=str(dice_tok).lower()),
            **test_forms(flags),
        )

    def roll_compare(self, meta, children):
        """``roll 2d6 against 2d6``: the first roll (+ modifiers) against the second."""
        span = self._span(meta)
        first, second = (c for c in children if isinstance(c, Token) and c.type == "DICE")
        mods = [c for c in children if isinstance(c, Mod)]
        untagged, tagged, flags, names = self._mods(mods, allow_if=True)
        refuse_options(flags, frozenset({"OPTIONAL"}), span, tr("a comparison of two rolls"))
        modifiers = [ast.Modifier(span=span, value=v) for v in untagged] + tagged
        if names:
            modifiers.append(ast.Modifier(span=span, value=0, tags=tuple(names)))
        return ast.Test(
            span=span,
            name="",
            modifiers=tuple(modifiers),
            dice=ast.DiceRoll(span=self._tspan(first), text=str(first).lower()),
            against=ast.DiceRoll(span=self._tspan(second), text=str(second).lower()),
            optional="OPTIONAL" in flags,
        )

    def status_on(self, meta, children):
        change = next(c for c in children if isinstance(c, ast.ChangeValue))
        name = next(c for c in children if isinstance(c, Token) and c.type == "NAME")
        return ast.StatusOn(span=self._span(meta), name=self._text(name), change=change)

    def status_assault(self, meta, children):
        status = self.status_on(meta, children)
        return ast.StatusOn(span=status.span, name=status.name, change=status.change, per="assault")

    def status_off(self, meta, children):
        return ast.StatusOff(span=self._span(meta), name=self._text(children[-1]))

    def forced_meal(self, meta, children):
        change = next(c for c in children if isinstance(c, ast.ChangeValue))
        return ast.ForcedMeal(span=self._span(meta), penalty=change)

    def buy_offer(self, meta, children):
        span = self._span(meta)
        count = 1
        weapon = False
        effects: tuple[ast.ItemEffect, ...] = ()
        tokens = [c for c in children if isinstance(c, Token)]
        if tokens[0].type == "INT":
            count = _number(tokens[0], COUNT, self._tspan(tokens.pop(0)))
        item, price, counter = tokens
        for child in children:
            if isinstance(child, list):
                weapon = any(e is None for e in child)
                effects = tuple(e for e in child if e is not None)
        goods = ast.GainItem(
            span=span, item=self._text(item), count=count, weapon=weapon, effects=effects
        )
        return ast.ShopOffer(
            span=span,
            goods=goods,
            price=_number(price, AMOUNT, self._tspan(price)),
            counter=self._text(counter),
        )

    def sell_offer(self, meta, children):
        span = self._span(meta)
        tokens = [c for c in children if isinstance(c, Token)]
        count = (
            _number(tokens[0], COUNT, self._tspan(tokens.pop(0))) if tokens[0].type == "INT" else 1
        )
        item, price, counter = tokens
        goods = ast.LoseItem(span=span, item=self._text(item), count=count)
        return ast.ShopOffer(
            span=span,
            goods=goods,
            price=_number(price, AMOUNT, self._tspan(price)),
            counter=self._text(counter),
        )

    def watched_wager(self, meta, children):
        limit, counter = [c for c in children if isinstance(c, Token)][:2]
        first, second = [c for c in children if isinstance(c, ast.Enemy)]
        return ast.WatchedWager(
            span=self._span(meta),
            counter=self._text(counter),
            limit=_number(limit, AMOUNT, self._tspan(limit)),
            fighters=(first, second),
        )

    def wager(self, meta, children):
        limit, counter, dice_tok, *ints = [c for c in children if isinstance(c, Token)]
        low = _number(ints[0], DICE_TOTAL, self._tspan(ints[0]))
        high = _number(ints[1], DICE_TOTAL, self._tspan(ints[1])) if len(ints) > 1 else low
        return ast.Wager(
            span=self._span(meta),
            counter=self._text(counter),
            limit=_number(limit, AMOUNT, self._tspan(limit)),
            dice=ast.DiceRoll(span=self._tspan(dice_tok), text=str(dice_tok).lower()),
            low=low,
            high=high,
        )
