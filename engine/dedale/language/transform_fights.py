"""Fight lines (enemies, allies, win/lose/escape, limits, bonuses): part of the
LineTransformer (see dedale.language.transform), kept apart to keep modules small."""

from __future__ import annotations

from lark import Token

from dedale import ast
from dedale.i18n.french import split_article
from dedale.language.groups import group_members
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

    def enemy_group(self, meta, children):
        each = next((str(c) for c in children if isinstance(c, Token)), None)
        return FightPart(self._span(meta), "enemy", group_members(children[0], each))

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

    # ------------------------------------------------- rules under an enemy (issue 13.2)
    def rule_if(self, meta, children):
        return children[-1]

    def _rule(self, meta, kind: str, children, **fields) -> FightPart:
        condition = next((c for c in children if isinstance(c, _CONDITIONS)), None)
        rule = ast.EnemyRule(span=self._span(meta), kind=kind, condition=condition, **fields)
        return FightPart(self._span(meta), "rule", rule)

    def rule_deals(self, meta, children):
        value = _number(children[0], STAT, self._tspan(children[0]))
        return self._rule(meta, "deals", children[1:], value=value)

    def rule_takes(self, meta, children):
        token = children[0]
        if token.type == "INT":
            value = _number(token, STAT, self._tspan(token))
            return self._rule(meta, "takes", children[1:], value=value)
        share = "half" if token.type == "HALF" else "all"
        return self._rule(meta, "takes", children[1:], share=share)

    def rule_attack(self, meta, children):
        value = next(c for c in children if isinstance(c, Token) and c.type == "SIGNED_INT")
        rest = [c for c in children if not isinstance(c, Token)]
        return self._rule(meta, "attack", rest, value=_signed(value))

    def rule_event(self, meta, children):
        word = " ".join(fold(str(children[0])).lower().split())
        if "double" in word:
            on = "double"
        elif "bless" in word or "wounds" in word:
            on = "it_wounds"
        elif "vous" in word or "you" in word:
            on = "you_win"
        else:
            on = "it_wins"
        rest = children[1:]
        condition = [c for c in rest if isinstance(c, _CONDITIONS)]
        effects = tuple(c for c in rest if not isinstance(c, _CONDITIONS))
        return self._rule(meta, "event", condition, on=on, effects=effects)

    def effect_goto(self, meta, children):
        """``-> 40`` among an event's effects: the fight stops and turns to 40."""
        return ast.Goto(span=self._span(meta), target=children[-1])

    def rule_exit(self, meta, children):
        return self._rule(meta, "exit", (children[0],), target=children[-1])

    def rule_first(self, meta, children):
        return self._rule(meta, "first", (), target=children[-1])

    def enemy_stat_change(self, meta, children):
        stat, amount = children
        return ast.EnemyStatChange(
            span=self._span(meta), stat=self._text(stat), amount=_signed(amount)
        )

    def wound_set(self, meta, children):
        value = _number(children[0], STAT, self._tspan(children[0]))
        return ast.WoundRoll(span=self._span(meta), value=value)

    def wound_roll(self, meta, children):
        dice_tok, *numbers = children
        low = _number(numbers[0], COUNT, self._tspan(numbers[0]))
        high = _number(numbers[-2], COUNT, self._tspan(numbers[-2])) if len(numbers) == 3 else low
        value = _number(numbers[-1], STAT, self._tspan(numbers[-1]))
        dice = ast.DiceRoll(span=self._tspan(dice_tok), text=str(dice_tok).lower())
        return ast.WoundRoll(span=self._span(meta), value=value, dice=dice, low=low, high=high)


_CONDITIONS = (
    ast.HasItem, ast.HasCodeword, ast.Compare, ast.Visited, ast.WorldVisited, ast.HasClass,
    ast.Not, ast.And, ast.Or, ast.HasStatus,
)  # fmt: skip
