"""Lark tree -> AST for the test lines of a paragraph: Luck and Skill tests, characteristic
(duo) tests, d20 checks, their modifiers and options, outcome branches and dice tables — a
mixin of :class:`dedale.language.transform.LineTransformer` (one method per grammar rule)."""

from __future__ import annotations

from lark import Token

from dedale import ast
from dedale.errors import BookSyntaxError
from dedale.i18n import tr
from dedale.language.keywords import NAMED_TESTS, OUTCOMES, fold
from dedale.language.transform_parts import Mod
from dedale.language.transform_parts import signed as _signed
from dedale.language.transform_tests import EVERY_TEST
from dedale.language.transform_tests import test_forms as _forms
from dedale.limits import DICE_TOTAL, NUMBER
from dedale.limits import number as _number
from dedale.span import Span

_TAG_KEYWORDS = {
    "RISK", "ADVANTAGE", "DISADVANTAGE", "PHYSICAL", "MENTAL", "TRAINED",
    "OPTIONAL", "UNTIL_SUCCESS",
}  # fmt: skip


# The options each kind of test takes; another one on its line is an error, not ignored.
_OPTION_WORDS = {
    "RISK": "(risk) / (risque)",
    "ADVANTAGE": "(advantage) / (avantage)",
    "DISADVANTAGE": "(disadvantage) / (désavantage)",
    "PHYSICAL": "(physical) / (physique)",
    "MENTAL": "(mental)",
    "TRAINED": "(trained) / (maîtrisé)",
    "OPTIONAL": "(optional) / (facultatif)",
    "UNTIL_SUCCESS": "(until success) / (jusqu'à réussite)",
}
_NAMED_OPTIONS: frozenset[str] = EVERY_TEST
_DUO_OPTIONS = frozenset({"RISK", "PHYSICAL", "MENTAL"}) | EVERY_TEST
_D20_OPTIONS = frozenset({"ADVANTAGE", "DISADVANTAGE", "TRAINED"}) | EVERY_TEST


def _refuse_options(flags: set[str], allowed: frozenset[str], span: Span, test: str) -> None:
    """A located error for an option this kind of test does not take."""
    for flag in sorted(flags - allowed):
        takes = ", ".join(_OPTION_WORDS[f] for f in sorted(allowed)) or tr("none of these")
        raise BookSyntaxError(
            tr("{option} does not apply to {test}", option=_OPTION_WORDS[flag], test=test),
            span,
            tr("this test takes: {options}", options=takes),
        )


def _test_kind(flags: set[str]) -> str | None:
    """The kind a duo test line says (``physical``/``physique`` or ``mental``), if any."""
    if "PHYSICAL" in flags:
        return "physical"
    if "MENTAL" in flags:
        return "mental"
    return None


class TestLines:
    """The test lines' rules of the line transformer."""

    def mod_value(self, meta, children):
        return Mod(self._span(meta), _signed(children[0]), ())

    def mod_if(self, meta, children):
        return Mod(self._span(meta), _signed(children[0]), (), children[-1])

    def mod_compare(self, meta, children):
        name, op, value = children
        left = ast.ValueRef(span=self._tspan(name), name=self._text(name))
        right = ast.Num(span=self._tspan(value), value=_number(value, NUMBER, self._tspan(value)))
        symbol = "=" if str(op) == "==" else str(op)
        return ast.Compare(span=self._span(meta), left=left, op=symbol, right=right)

    def mod_group(self, meta, children):
        return Mod(self._span(meta), None, tuple((t.type, self._text(t)) for t in children))

    def test_opt(self, meta, children):
        return children[0]

    def _mods(self, mods: list[Mod], allow_if: bool = False):
        """Fold modifier pieces: ``-2 (piloting)`` is one tagged modifier; a modifier with
        a condition (``-1 if Dagger``, tests only: ``allow_if``) is kept as a Modifier."""
        for mod in mods:
            if mod.condition is not None and not allow_if:
                raise BookSyntaxError(
                    tr("a modifier with `if` / `si` applies to a test only"),
                    mod.span,
                    tr("write the condition on its own line: `> if ...` / `> si ...`"),
                )
        untagged: list[int] = []
        tagged: list[ast.Modifier] = []
        flags: set[str] = set()
        names: list[str] = []
        pending: Mod | None = None
        for mod in mods + [None]:  # type: ignore[list-item]
            if mod is not None and mod.value is None and pending is not None:
                tags = tuple(text for kind, text in mod.options if kind not in _TAG_KEYWORDS)
                flags.update(kind for kind, _ in mod.options if kind in _TAG_KEYWORDS)
                if tags or pending.condition is not None:
                    tagged.append(_modifier(pending, tags))
                else:
                    untagged.append(pending.value)  # type: ignore[arg-type]
                pending = None
                continue
            if pending is not None:
                if pending.condition is not None:
                    tagged.append(_modifier(pending, ()))
                else:
                    untagged.append(pending.value)  # type: ignore[arg-type]
                pending = None
            if mod is None:
                break
            if mod.value is not None:
                pending = mod
            else:
                for kind, text in mod.options:
                    if kind in _TAG_KEYWORDS:
                        flags.add(kind)
                    else:
                        names.append(text)
        return untagged, tagged, flags, names

    def test(self, meta, children):
        span = self._span(meta)
        words = [t for t in children if isinstance(t, Token) and t.type == "WORD"]
        has_your = any(isinstance(t, Token) and t.type == "YOUR" for t in children)
        mods = [c for c in children if isinstance(c, Mod)]
        untagged, tagged, flags, names = self._mods(mods, allow_if=True)
        key = fold(str(words[0])).lower()
        if len(words) == 1 and (has_your or key in NAMED_TESTS):
            _refuse_options(flags, _NAMED_OPTIONS, span, tr("a roll-under test"))
            modifiers = [ast.Modifier(span=span, value=v) for v in untagged] + tagged
            if names:
                modifiers.append(ast.Modifier(span=span, value=0, tags=tuple(names)))
            return ast.Test(
                span=span, name=NAMED_TESTS.get(key, self._text(words[0])),
                modifiers=tuple(modifiers), **_forms(flags),
            )  # fmt: skip
        _refuse_options(flags, _DUO_OPTIONS, span, tr("a characteristic test"))
        if names:
            tagged.append(ast.Modifier(span=span, value=0, tags=tuple(names)))
        return ast.DuoTest(
            span=span,
            stats=tuple(self._text(w) for w in words),
            difficulty=sum(untagged),
            risk_allowed="RISK" in flags,
            modifiers=tuple(tagged),
            kind=_test_kind(flags),
            **_forms(flags),
        )

    def difficulty(self, meta, children):
        tok = children[0]
        return _number(tok, NUMBER, self._tspan(tok)) if tok.type == "INT" else self._text(tok)

    def d20_test(self, meta, children):
        span = self._span(meta)
        stat, difficulty, *rest = children
        pieces = [c for c in rest if isinstance(c, Mod)]
        untagged, _tagged, flags, names = self._mods([p for p in pieces if p.value is None])
        untagged = [p.value for p in pieces if p.value is not None and p.condition is None]
        _refuse_options(flags, _D20_OPTIONS, span, tr("a d20 check"))
        tagged = [_modifier(p, ()) for p in pieces if p.condition is not None]
        advantage = None
        if "ADVANTAGE" in flags:
            advantage = "advantage"
        if "DISADVANTAGE" in flags:
            advantage = "disadvantage"
        modifiers = [ast.Modifier(span=span, value=v) for v in untagged] + tagged
        return ast.D20Test(
            span=span,
            stat=self._text(stat),
            difficulty=difficulty,
            action=names[0] if names else None,
            advantage=advantage,
            modifiers=tuple(modifiers),
            trained="TRAINED" in flags,
            **_forms(flags),
        )

    def margin(self, meta, children):
        op, value = children
        symbol = "=" if str(op) == "==" else str(op)
        span = self._span(meta)
        return ast.Compare(
            span=span,
            left=ast.ValueRef(span=span, name="margin"),
            op=symbol,
            right=ast.Num(
                span=self._tspan(value), value=_number(value, NUMBER, self._tspan(value))
            ),
        )

    def branch(self, meta, children):
        outcome = OUTCOMES[" ".join(fold(str(children[0])).lower().split())]
        margin = children[1] if len(children) == 3 else None
        return ast.Branch(span=self._span(meta), outcome=outcome, body=children[-1], margin=margin)

    def _row(self, meta, children, body) -> ast.RangeBranch:
        ints = [
            _number(c, DICE_TOTAL, self._tspan(c))
            for c in children
            if isinstance(c, Token) and c.type == "INT"
        ]
        low, high = ints[0], ints[1] if len(ints) > 1 else ints[0]
        return ast.RangeBranch(span=self._span(meta), low=low, high=high, body=body)

    def range_row(self, meta, children):
        return self._row(meta, children[:-1], children[-1])

    def inline_row(self, meta, children):
        goto = ast.Goto(span=self._span(meta), target=children[-1])
        return self._row(meta, children[:-2], (goto,))

    def roll(self, meta, children):
        dice_tok = children[0]
        dice = ast.DiceRoll(span=self._tspan(dice_tok), text=str(dice_tok).lower())
        return ast.RandomRoll(span=self._span(meta), dice=dice, branches=tuple(children[1:]))


def _modifier(mod: Mod, tags: tuple[str, ...]) -> ast.Modifier:
    return ast.Modifier(span=mod.span, value=mod.value or 0, tags=tags, condition=mod.condition)
