"""Lark tree -> per-line items: AST nodes (dedale.ast) and a few line-level parts.

The Transformer only builds frozen dataclasses, each with its Span; grouping lines into
paragraphs, tests with their branches and fights with their enemies is done by
dedale.language.assemble. Names are sliced from the original (unfolded) text so accents
and case are kept as the author wrote them.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from dedale import ast
from dedale.errors import BookSyntaxError
from dedale.i18n import tr
from dedale.language import roll_refs
from dedale.language.transform_amateur import AmateurLines
from dedale.language.transform_checks import TestLines
from dedale.language.transform_fights import FightLines
from dedale.language.transform_parts import ElsePart, FightPart, Header
from dedale.language.transform_parts import signed as _signed
from dedale.limits import AMOUNT, COUNT, NUMBER, PARAGRAPH
from dedale.limits import number as _number
from dedale.span import Span

__all__ = ["ElsePart", "FightPart", "Header", "LineTransformer"]


class LineTransformer(FightLines, AmateurLines, TestLines):
    """Builds one item per header, choice and directive line.

    A Lark-style transformer (one method per rule, called with the rule's ``meta`` and its
    transformed children, bottom-up), written as a plain recursive walk: it is several
    times faster than ``lark.Transformer`` with ``v_args(meta=True)`` on large books.
    """

    def __init__(self, file: str, source: str):
        self.file = file
        self.source = source  # same length and layout as the text Lark parsed

    def transform(self, tree: Tree) -> Any:
        """Transform ``tree`` bottom-up."""
        children = [
            self.transform(child) if isinstance(child, Tree) else child for child in tree.children
        ]
        return getattr(self, tree.data)(tree.meta, children)

    # ------------------------------------------------------------------ helpers
    def _span(self, meta: Any) -> Span:
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> Span:
        return Span(self.file, tok.line, tok.column, tok.end_line, tok.end_column)

    def _text(self, tok: Token) -> str:
        return self.source[tok.start_pos : tok.end_pos].strip()

    def start(self, meta, children):
        return list(children)

    # ------------------------------------------------------------------ headers, choices
    def header(self, meta, children):
        number = _number(children[1], PARAGRAPH, self._tspan(children[1]))
        label = None
        if len(children) > 2:
            label = self._text(children[2])
            if label.startswith("(") and label.endswith(")"):
                label = label[1:-1].strip()
            label = label or None
        return Header(self._span(meta), number, label)

    def target(self, meta, children):
        tok = children[0]
        if tok.type == "INT":
            return ast.ParagraphRef(
                span=self._tspan(tok), number=_number(tok, PARAGRAPH, self._tspan(tok))
            )
        return ast.ParagraphRef(span=self._tspan(tok), label=self._text(tok))

    choice_target = target

    def computed(self, meta, children):
        return ast.ComputedRef(span=self._span(meta), expr=children[0])

    def choice(self, meta, children):
        target = children[1]
        text = ""
        condition = None
        display = "hidden"
        costs: list[ast.Cost] = []
        revisit = False
        effects: list[ast.Statement] = []
        for child in children[2:]:
            if isinstance(child, Token):
                text = self._text(child)
                continue
            for kind, value in child:
                if kind == "if":
                    condition = value if condition is None else _and(condition, value)
                elif kind == "display":
                    display = value
                elif kind == "cost":
                    costs.append(value)
                elif kind == "revisit":
                    revisit = True
                elif kind == "do":
                    effects.append(value)
        return ast.Choice(
            span=self._span(meta),
            target=target,
            text=text,
            condition=condition,
            display=display,
            costs=tuple(costs),
            revisit=revisit,
            effects=tuple(effects),
        )

    def choice_group(self, meta, children):
        return list(children)

    def opt_if(self, meta, children):
        return ("if", children[1])

    def opt_disabled(self, meta, children):
        return ("display", "disabled")

    def opt_hidden(self, meta, children):
        return ("display", "hidden")

    def opt_pay(self, meta, children):
        amount, counter = children
        return (
            "cost",
            ast.Cost(
                span=self._span(meta),
                counter=self._text(counter),
                amount=_number(amount, AMOUNT, self._tspan(amount)),
            ),
        )

    def opt_give(self, meta, children):
        return ("cost", ast.Cost(span=self._span(meta), item=self._text(children[0])))

    def opt_revisit(self, meta, children):
        return ("revisit", True)

    def opt_do(self, meta, children):
        return ("do", children[0])

    # ------------------------------------------------------------------ conditions
    def or_cond(self, meta, children):
        return ast.Or(span=self._span(meta), operands=tuple(children))

    def and_cond(self, meta, children):
        return ast.And(span=self._span(meta), operands=tuple(children))

    def negation(self, meta, children):
        return ast.Not(span=self._span(meta), operand=children[0])

    def has_item(self, meta, children):
        return ast.HasItem(span=self._span(meta), item=self._text(children[0]))

    def has_items(self, meta, children):  # "2 Tooth-piece", "you have 2 Torches"
        count = next((int(t) for t in children if t.type == "INT"), 1)
        name = next(t for t in children if t.type == "NAME")
        return ast.HasItem(span=self._span(meta), item=self._text(name), count=count)

    def has_codeword(self, meta, children):
        return ast.HasCodeword(span=self._span(meta), codeword=self._text(children[0]))

    def visited(self, meta, children):
        return ast.Visited(span=self._span(meta), paragraph=children[0])

    def world_visited(self, meta, children):
        return ast.WorldVisited(span=self._span(meta), world=self._text(children[0]))

    def has_class(self, meta, children):
        return ast.HasClass(span=self._span(meta), name=self._text(children[0]))

    def has_status(self, meta, children):
        return ast.HasStatus(span=self._span(meta), name=self._text(children[0]))

    def compare(self, meta, children):
        left, op, right = children
        symbol = "=" if str(op) == "==" else str(op)
        return ast.Compare(span=self._span(meta), left=left, op=symbol, right=right)

    # ------------------------------------------------------------------ expressions
    def binop(self, meta, children):
        left, op, right = children
        symbol = "*" if str(op) == "×" else str(op)
        return ast.BinOp(span=self._span(meta), op=symbol, left=left, right=right)

    def num(self, meta, children):
        return ast.Num(span=self._span(meta), value=_number(children[0], NUMBER, self._span(meta)))

    def dice(self, meta, children):
        return ast.DiceRoll(span=self._span(meta), text=str(children[0]).lower())

    def current_paragraph(self, meta, children):
        return ast.CurrentParagraph(span=self._span(meta))

    def noted_paragraph(self, meta, children):
        return ast.NotedParagraph(span=self._span(meta), name=self._text(children[0]))

    def previous_paragraph(self, meta, children):
        return ast.PreviousParagraph(span=self._span(meta))

    def value(self, meta, children):
        name = next(t for t in children if t.type == "NAME")
        initial = any(t.type == "INITIAL" for t in children)
        return ast.ValueRef(span=self._span(meta), name=self._text(name), initial=initial)

    # ------------------------------------------------------------------ simple statements
    def directive(self, meta, children):
        return children[0]

    def goto(self, meta, children):
        return ast.Goto(span=self._span(meta), target=children[0])

    def body_goto(self, meta, children):
        return (ast.Goto(span=self._span(meta), target=children[1]),)

    def body_do(self, meta, children):
        return tuple(children)

    def body_open(self, meta, children):
        return ()  # an indented block follows (dedale.language.assemble)

    def exceptional(self, meta, children):
        return True

    def _stat(self, children) -> Token:
        return next(t for t in children if isinstance(t, Token) and t.type == "WORD")

    def _change(self, meta, children, op: str, amount: Any) -> ast.ChangeValue:
        return ast.ChangeValue(
            span=self._span(meta),
            op=op,
            name=self._text(self._stat(children)),
            amount=amount,
            exceptional=any(child is True for child in children),
        )

    def gain(self, meta, children):
        return self._change(meta, children, "add", children[0])

    def lose(self, meta, children):
        return self._change(meta, children, "sub", children[0])

    def set_value(self, meta, children):
        amount = next(c for c in children if isinstance(c, ast.Num | ast.DiceRoll))
        return self._change(meta, children, "set", amount)

    def restore(self, meta, children):
        return self._change(meta, children, "restore", None)

    def raise_initial(self, meta, children):
        return self._change(meta, children, "raise_initial", children[-1])

    def lower_initial(self, meta, children):
        return self._change(meta, children, "lower_initial", children[-1])

    def penalty(self, meta, children):
        amount = children[0]
        if not isinstance(amount, ast.Num):
            raise BookSyntaxError(
                tr("a penalty until an item is found takes a number, not dice"),
                self._span(meta),
                tr("write `lose 2 SKILL until you find a weapon`"),
            )
        stat = next(t for t in children if isinstance(t, Token) and t.type == "WORD")
        until = children[-1]
        weapon = until.type == "WEAPON"
        return ast.Penalty(
            span=self._span(meta),
            stat=self._text(stat),
            amount=amount.value,
            item=None if weapon else self._text(until).strip(),
            weapon=weapon,
        )

    def take(self, meta, children):
        count = 1
        name = ""
        weapon = False
        effects: tuple[ast.ItemEffect, ...] = ()
        for child in children:
            if isinstance(child, Token) and child.type == "INT":
                count = _number(child, COUNT, self._tspan(child))
            elif isinstance(child, Token):
                name = self._text(child)
            else:
                weapon = any(e is None for e in child)
                effects = tuple(e for e in child if e is not None)
        return ast.GainItem(
            span=self._span(meta), item=name, count=count, weapon=weapon, effects=effects
        )

    def may_take(self, meta, children):
        return ast.MayTake(span=self._span(meta), take=self.take(meta, children))

    def drop(self, meta, children):
        count = _number(children[0], COUNT, self._span(meta)) if len(children) > 1 else 1
        return ast.LoseItem(span=self._span(meta), item=self._text(children[-1]), count=count)

    def item_effects(self, meta, children):
        return list(children)

    def effect_weapon(self, meta, children):
        return None

    def effect_stat(self, meta, children):
        stat, value = children
        return ast.ItemEffect(span=self._span(meta), stat=self._text(stat), amount=_signed(value))

    def effect_number(self, meta, children):
        return ast.ItemEffect(
            span=self._span(meta), number=_number(children[0], NUMBER, self._span(meta))
        )

    def last_roll(self, meta, children):
        roll_refs.PARSED[0] += 1  # the paragraphs read from now on are checked for it
        return ast.LastRoll(span=self._span(meta))

    def effect_trigger(self, meta, children):
        stat = next(t for t in children if isinstance(t, Token) and t.type == "WORD")
        at = next(t for t in children if isinstance(t, Token) and t.type == "INT")
        trigger = ast.ItemTrigger(
            span=self._span(meta),
            stat=self._text(stat),
            at=_number(at, NUMBER, self._tspan(at)),
            change=children[-1],
        )
        return ast.ItemEffect(span=self._span(meta), trigger=trigger)

    def item_number(self, meta, children):
        return ast.ItemNumber(span=self._span(meta), item=self._text(children[-1]))

    def effect_tag(self, meta, children):
        return ast.ItemEffect(span=self._span(meta), tag=self._text(children[0]))

    def set_codeword(self, meta, children):
        return ast.SetCodeword(span=self._span(meta), codeword=self._text(children[-1]))

    def clear_codeword(self, meta, children):
        return ast.ClearCodeword(span=self._span(meta), codeword=self._text(children[-1]))

    def set_flag(self, meta, children):
        return ast.SetFlag(span=self._span(meta), name=self._text(children[-1]))

    def clear_flag(self, meta, children):
        return ast.ClearFlag(span=self._span(meta), name=self._text(children[-1]))

    def count_add(self, meta, children):
        return ast.ChangeCount(
            span=self._span(meta), op="add", name=self._text(children[-1]), amount=children[0]
        )

    def count_sub(self, meta, children):
        return ast.ChangeCount(
            span=self._span(meta), op="sub", name=self._text(children[-1]), amount=children[0]
        )

    def open_world(self, meta, children):
        return ast.OpenWorld(span=self._span(meta), world=self._text(children[0]))

    def allow_revisit(self, meta, children):
        return ast.AllowRevisit(span=self._span(meta))

    def meal_rule(self, meta, children):
        return ast.MealRule(span=self._span(meta), allowed=children[0].type == "ALLOWED")

    def ending(self, meta, children):
        kind = "death" if children[0].type == "DEATH" else "victory"
        return ast.Ending(span=self._span(meta), kind=kind)

    def if_stmt(self, meta, children):
        return ast.If(span=self._span(meta), condition=children[1], then=children[2])

    def else_stmt(self, meta, children):
        return ElsePart(self._span(meta), children[0])

    # ------------------------------------------------------------------ tests


def _and(left: ast.Condition, right: ast.Condition) -> ast.Condition:
    return ast.And(span=left.span, operands=(left, right))
