"""Fight lines (enemies, allies, win/lose/escape, limits, bonuses): part of the
LineTransformer (see dedale.language.transform), kept apart to keep modules small."""

from __future__ import annotations

from lark import Token

from dedale import ast
from dedale.i18n.french import split_article
from dedale.language.keywords import MODES, fold
from dedale.language.transform_parts import FightPart, Mod
from dedale.language.transform_parts import signed as _signed
from dedale.limits import COUNT, STAT
from dedale.limits import number as _number


class FightLines:
    """The transformer methods of fight lines (mixed into LineTransformer)."""

    def enemy_stat(self, meta, children):
        name, value = children
        if value.type == "DICE":
            return (self._text(name), str(value).lower())
        return (self._text(name), _signed(value))

    def enemy_opt(self, meta, children):
        return True

    def enemy_body(self, meta, children):
        article, name = split_article(self._text(children[0]))
        return ast.Enemy(
            span=self._span(meta),
            name=name,
            stats=tuple(c for c in children[1:] if isinstance(c, tuple)),
            immune_instant_kill=any(c is True for c in children),
            article=article,
        )

    def fight(self, meta, children):
        mode = "single"
        enemies: tuple[ast.Enemy, ...] = ()
        for child in children:
            if isinstance(child, Token):
                mode = MODES[" ".join(fold(str(child)).lower().split())]
            else:
                enemies = (child,)
        return ast.Fight(span=self._span(meta), enemies=enemies, mode=mode)

    def enemy(self, meta, children):
        return FightPart(self._span(meta), "enemy", children[0])

    def fight_win(self, meta, children):
        return FightPart(self._span(meta), "win", children[-1])

    def fight_lose(self, meta, children):
        return FightPart(self._span(meta), "lose", children[-1])

    def after(self, meta, children):
        return _number(children[0], COUNT, self._span(meta))

    def escape(self, meta, children):
        target = next(c for c in children if isinstance(c, ast.ParagraphRef | ast.ComputedRef))
        after = next((c for c in children if isinstance(c, int)), None)
        return FightPart(
            self._span(meta), "escape",
            ast.Escape(span=self._span(meta), target=target, after=after),
        )  # fmt: skip

    def assault_limit(self, meta, children):
        limit = ast.AssaultLimit(span=self._span(meta), assaults=children[0], target=children[-1])
        return FightPart(self._span(meta), "assault_limit", limit)

    def attack_bonus(self, meta, children):
        span = self._span(meta)
        mods = [Mod(span, _signed(children[0]), ())] + [
            c for c in children[1:] if isinstance(c, Mod)
        ]
        untagged, tagged, _flags, names = self._mods(mods)
        if names:
            tagged.append(ast.Modifier(span=span, value=0, tags=tuple(names)))
        return FightPart(span, "attack", (sum(untagged), tuple(tagged)))

    def attack_stat(self, meta, children):
        return FightPart(self._span(meta), "attack_stat", self._text(children[-1]))

    def assault_table(self, meta, children):
        dice_tok = children[0]
        dice = ast.DiceRoll(span=self._tspan(dice_tok), text=str(dice_tok).lower())
        table = ast.RandomRoll(span=self._span(meta), dice=dice, branches=())
        return FightPart(self._span(meta), "assault_table", table)

    def ally(self, meta, children):
        return FightPart(self._span(meta), "ally", children[0])

    def struck(self, meta, children):
        word = fold(str(children[0])).lower()
        target = "random" if "hasard" in word or "random" in word else "hero"
        if "all" in word:
            target = "ally"
        return FightPart(self._span(meta), "struck", target)

    def fight_threshold(self, meta, children):
        stat = next(c for c in children if isinstance(c, Token) and c.type == "WORD")
        value = next(c for c in children if isinstance(c, Token) and c.type == "INT")
        span = self._span(meta)
        threshold = ast.FightThreshold(
            span=span,
            stat=self._text(stat),
            value=_number(value, STAT, self._tspan(value)),
            target=children[-1],
        )
        return FightPart(span, "threshold", threshold)

    def win_assaults(self, meta, children):
        count = next(c for c in children if isinstance(c, Token) and c.type == "INT")
        span = self._span(meta)
        part = ast.WinAssaults(
            span=span, count=_number(count, COUNT, self._tspan(count)), target=children[-1]
        )
        return FightPart(span, "win_assaults", part)

    def enemy_damage(self, meta, children):
        return FightPart(
            self._span(meta), "enemy_damage", _number(children[0], STAT, self._span(meta))
        )
