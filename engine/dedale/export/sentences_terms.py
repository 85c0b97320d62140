"""The parts of sentences: destinations ("rendez-vous au 12"), values and conditions."""

from __future__ import annotations

from dedale import ast
from dedale.export.sentences_base import Voice, italic_marker, ref_marker
from dedale.i18n import tr


class Terms(Voice):
    """Destinations, expressions and conditions in the book's words; ``here``: the number
    of the paragraph being written."""

    here: int = 0

    # ------------------------------------------------------------------ destinations

    def number(self, dest: ast.ParagraphRef) -> int | None:
        """The number a fixed destination names (labels resolved), None if it names none."""
        if dest.number is not None:
            return dest.number
        return self.book.resolve(dest)

    def target(self, dest: ast.Destination) -> str:
        """Where a destination leads, after "turn to": a marked number or a computation."""
        if isinstance(dest, ast.ParagraphRef):
            found = self.number(dest)
            if found is None:
                return dest.label or "?"
            return ref_marker(found)
        constant = self.constant(dest.expr)
        if constant is not None and constant in self.book.paragraphs:
            return ref_marker(constant)
        if isinstance(dest.expr, ast.PreviousParagraph | ast.NotedParagraph):
            return self.value(dest.expr)
        return self.say(tr("the paragraph whose number is {value}", value=self.value(dest.expr)))

    def constant(self, expr: ast.Expr, depth: int = 0) -> int | None:
        """The value of an expression that is the same for every reader (numbers and the
        current paragraph's), else None."""
        if depth > 50:
            return None
        if isinstance(expr, ast.Num):
            return expr.value
        if isinstance(expr, ast.CurrentParagraph):
            return self.here
        if isinstance(expr, ast.BinOp):
            left = self.constant(expr.left, depth + 1)
            right = self.constant(expr.right, depth + 1)
            if left is None or right is None:
                return None
            return expr.apply(left, right)
        return None

    def turn_to(self, dest: ast.Destination) -> str:
        """ "turn to 12" / "rendez-vous au 12" (or to a computed paragraph)."""
        if isinstance(dest, ast.ComputedRef):
            return self.say(tr("turn to {target}", target=self.target(dest)))
        return self.say(tr("turn to {number}", number=self.target(dest)))

    # ------------------------------------------------------------------ values

    def value(self, expr: ast.Expr) -> str:
        """An expression as words ("your gold plus 50")."""
        kind = type(expr)
        if kind is ast.Num:
            return str(expr.value)  # type: ignore[union-attr]
        if kind is ast.DiceRoll:
            return self.say(tr("a roll of {dice}", dice=expr.text))  # type: ignore[union-attr]
        if kind is ast.ValueRef and self.is_book_counter(expr.name):  # type: ignore[union-attr]
            return italic_marker(expr.name)  # type: ignore[union-attr]
        if kind is ast.ValueRef:
            name = self.stat(expr.name)  # type: ignore[union-attr]
            if expr.initial:  # type: ignore[union-attr]
                return self.say(tr("your initial {stat}", stat=name))
            return self.say(tr("your {stat}", stat=name, of_name=self.of(name)))
        if kind is ast.CurrentParagraph:
            return self.say(tr("the number of this paragraph"))
        if kind is ast.BinOp:
            return self.operation(expr)  # type: ignore[arg-type]
        if kind is ast.NotedParagraph:
            return self.say(tr("the paragraph you noted as {name}", name=expr.name))  # type: ignore[union-attr]
        if kind is ast.PreviousParagraph:
            return self.say(tr("the paragraph you came from"))
        if kind is ast.ItemNumber:
            item = italic_marker(expr.item)  # type: ignore[union-attr]
            return self.say(tr("the number written on the {item}", item=item))
        return self.say(tr("the total of the dice you just rolled"))

    def operation(self, expr: ast.BinOp) -> str:
        left, right = self.value(expr.left), self.value(expr.right)
        if expr.op == "+":
            return self.say(tr("{left} plus {right}", left=left, right=right))
        if expr.op == "-":
            return self.say(tr("{left} minus {right}", left=left, right=right))
        if expr.op == "*":
            return self.say(tr("{left} times {right}", left=left, right=right))
        return self.say(tr("{left} divided by {right}", left=left, right=right))

    # ------------------------------------------------------------------ conditions

    def condition(self, cond: ast.Condition, negated: bool = False) -> str:
        """A condition after "if" ("you have the codeword AURORE")."""
        kind = type(cond)
        if kind is ast.Not:
            return self.condition(cond.operand, not negated)  # type: ignore[union-attr]
        if kind in (ast.And, ast.Or):
            parts = [self.condition(part, negated) for part in cond.operands]  # type: ignore[union-attr]
            if (kind is ast.Or) != negated:
                return self.say(
                    tr("{first} or {second}", first=", ".join(parts[:-1]), second=parts[-1])
                )
            return self.join(parts)
        return self._simple(cond, negated)

    def _simple(self, cond: ast.Condition, negated: bool) -> str:
        kind = type(cond)
        if kind is ast.HasItem:
            item = italic_marker(cond.item)  # type: ignore[union-attr]
            if cond.count > 1:  # type: ignore[union-attr]
                params = {"item": item, "count": cond.count}  # type: ignore[union-attr]
                if negated:
                    return self.say(tr("you have fewer than {count} {item}", **params))
                return self.say(tr("you have at least {count} {item}", **params))
            if negated:
                return self.say(tr("you do not have the {item}", item=item))
            return self.say(tr("you have the {item}", item=item))
        if kind is ast.HasCodeword:
            word = italic_marker(cond.codeword)  # type: ignore[union-attr]
            if negated:
                return self.say(tr("you do not have the codeword {word}", word=word))
            return self.say(tr("you have the codeword {word}", word=word))
        if kind is ast.Compare:
            return self.compare(cond, negated)  # type: ignore[arg-type]
        if kind is ast.Visited:
            where = self.target(cond.paragraph)  # type: ignore[union-attr]
            if negated:
                return self.say(tr("you have not yet been to {number}", number=where))
            return self.say(tr("you have already been to {number}", number=where))
        if kind is ast.WorldVisited:
            world = cond.world  # type: ignore[union-attr]
            if negated:
                return self.say(tr("you have not yet visited {world}", world=world))
            return self.say(tr("you have already visited {world}", world=world))
        if kind is ast.HasClass:
            name = cond.name  # type: ignore[union-attr]
            if negated:
                return self.say(tr("you are not a {name}", name=name))
            return self.say(tr("you are a {name}", name=name))
        if kind is ast.HasStatus:
            name = italic_marker(cond.name)  # type: ignore[union-attr]
            if negated:
                return self.say(tr("you are not {name}", name=name))
            return self.say(tr("you are {name}", name=name))
        name = italic_marker(cond.name)  # type: ignore[union-attr]  # HasFlag
        if negated:
            return self.say(tr("you have not ticked the box {name}", name=name))
        return self.say(tr("you have ticked the box {name}", name=name))

    def compare(self, cond: ast.Compare, negated: bool) -> str:
        op = cond.op
        if negated:
            op = {"<": ">=", "<=": ">", "=": "!=", "!=": "=", ">=": "<", ">": "<="}[op]  # type: ignore[assignment]
        left, right = self.value(cond.left), self.value(cond.right)
        params = {"left": left, "right": right}
        if op == "<":
            return self.say(tr("{left} is less than {right}", **params))
        if op == "<=":
            return self.say(tr("{left} is at most {right}", **params))
        if op == "=":
            return self.say(tr("{left} is {right}", **params))
        if op == "!=":
            return self.say(tr("{left} is not {right}", **params))
        if op == ">=":
            return self.say(tr("{left} is at least {right}", **params))
        return self.say(tr("{left} is more than {right}", **params))
