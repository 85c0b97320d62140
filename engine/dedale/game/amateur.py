"""Handlers of the amateur-book constructs (issue 8), a mixin of the Runner: noted
paragraphs, ongoing effects (statuses) and forced
meals.

A status is kept in the game state as plain data (``{"op", "name", "amount"}``) so that
saves hold it; it is applied at the start of every paragraph entered after it was set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.game.cache import folded
from dedale.game.hidden import hidden_paragraphs  # noqa: F401 (re-exported)
from dedale.i18n import tr
from dedale.span import Span

Gen = Generator[Any, Any, Any]

_NOWHERE = Span("<status>", 1, 1)


def _eat_marker() -> object:
    from dedale.game.runner import EAT

    return EAT


class AmateurStatements:
    """Statement handlers and scope values for the constructs of issue 8."""

    # ------------------------------------------------------------------ scope values
    def noted(self, name: str, span=None) -> int:
        """The paragraph noted under ``name`` (a GameError when none was noted)."""
        number = self.state.marks.get(folded(name))
        if number is None:
            raise GameError(tr("no paragraph was noted as '{name}'", name=name), span)
        return number

    def came_from(self, span=None) -> int:
        """The paragraph entered before the current one."""
        if self.state.came_from is None:
            raise GameError(tr("there is no paragraph to go back to"), span)
        return self.state.came_from

    def item_number(self, item: str, span=None) -> int:
        """The number noted on a carried item (0 when it is not carried, or has none)."""
        key = self.item_key(item)
        if not self.state.hero.items.get(key, 0):
            return 0
        return self.state.item_numbers.get(folded(key), 0)

    def has_status(self, name: str) -> bool:
        return folded(name) in self.state.statuses

    def _nothing(self, statement: ast.Statement) -> Gen:
        return None
        yield  # a generator that does nothing (declarations)

    def _note(self, statement: ast.NoteParagraph) -> Gen:
        self.state.marks[folded(statement.name)] = self.state.paragraph or 0
        return None
        yield

    # ------------------------------------------------------------------ statuses
    def _status_on(self, statement: ast.StatusOn) -> Gen:
        change = statement.change
        self.resolve(change.name, change.span, ("stat", "counter"))
        amount = change.amount
        data: dict[str, Any] = {"status": statement.name, "op": change.op, "name": change.name}
        if statement.per != "paragraph":
            data["per"] = statement.per
        if isinstance(amount, ast.Num):
            data["amount"] = amount.value
        elif isinstance(amount, ast.DiceRoll):
            data["amount"] = amount.text
        self.state.statuses[folded(statement.name)] = data
        if self.emit:
            yield events.MessageShown(key="status_on", params=(("status", statement.name),))

    def _status_off(self, statement: ast.StatusOff) -> Gen:
        removed = self.state.statuses.pop(folded(statement.name), None)
        if removed is not None and self.emit:
            yield events.MessageShown(key="status_off", params=(("status", removed["status"]),))

    def _ongoing_effects(self, per: str = "paragraph") -> Gen:
        """Apply the statuses that act on every paragraph (or after every assault)."""
        for data in list(self.state.statuses.values()):
            if data.get("per", "paragraph") != per:
                continue
            amount = data.get("amount")
            expr: ast.Expr | None = None
            if isinstance(amount, int):
                expr = ast.Num(span=_NOWHERE, value=amount)
            elif isinstance(amount, str):
                expr = ast.DiceRoll(span=_NOWHERE, text=amount)
            change = ast.ChangeValue(span=_NOWHERE, op=data["op"], name=data["name"], amount=expr)
            if self.emit:
                yield events.MessageShown(key="status_effect", params=(("status", data["status"]),))
            yield from self._change(change)

    # ------------------------------------------------------------------ fights
    def _fight_ruleset(self, statement: ast.Fight):
        """The ruleset this fight runs with: the book's, or, for ``attack with MAGIC``, a
        copy whose fight uses that stat (for the hero and the enemies) instead of SKILL."""
        if statement.attack_stat is None:
            return self.ruleset
        stat = self.resolve(statement.attack_stat, statement.span, ("stat",))[1]
        cached = self._cache.rulesets.get(stat)
        if cached is None:
            fight = self.ruleset.fight
            if not hasattr(fight, "attack_stat"):
                raise GameError(
                    tr("this ruleset's fights cannot use another attack stat"),
                    statement.span,
                    hint=tr("`attack with` works with the opposed (FF) and d20 fights"),
                )
            fight = dataclasses.replace(fight, attack_stat=stat)
            cached = dataclasses.replace(self.ruleset, fight=fight)
            self._cache.rulesets[stat] = cached
        return cached

    # ------------------------------------------------------------------ shops and wagers
    def _shop(self, statement: ast.Shop) -> Gen:
        """Offer the shop's lines as choices, and a way out, until the reader leaves."""
        hero = self.state.hero
        while True:
            options = []
            for index, offer in enumerate(statement.offers, start=1):
                counter = self.counter_id(offer.counter, offer.span)
                name = self.ruleset.counted_name(counter, offer.price, self.lang)
                goods = offer.goods
                shown = goods.item
                if (traded := self._goods_counter(goods)) is not None:  # Provisions, arrows
                    shown = self.ruleset.display_name(traded, self.lang)
                item = f"{goods.count} {shown}" if goods.count > 1 else shown
                buying = type(goods) is ast.GainItem
                text = self.text(
                    "shop.buy" if buying else "shop.sell", item=item, price=offer.price, name=name
                )
                reason = ""
                if buying and hero.counters.get(counter, 0) < offer.price:
                    reason = self.text("reason.cost", amount=offer.price, name=name)
                elif not buying and self._goods_held(goods) < goods.count:
                    reason = self.text("reason.item", item=goods.item)
                options.append(
                    events.ChoiceOption(index=index, text=text, target=None, enabled=not reason,
                                        reason=reason)
                )  # fmt: skip
            leave = len(options) + 1
            options.append(
                events.ChoiceOption(index=leave, text=self.text("shop.leave"), target=None)
            )
            answer = yield events.ChoosePrompt(options=tuple(options))
            if answer is _eat_marker():
                yield from self.eat()
                continue
            if answer == leave:
                return None
            offer = statement.offers[answer - 1]
            counter = self.counter_id(offer.counter, offer.span)
            price = offer.price if type(offer.goods) is ast.GainItem else -offer.price
            old, new = hero.change_counter(counter, -price)
            if self.emit:
                yield events.StatChanged(name=counter, old=old, new=new, initial=new, who="counter")
            goods_counter = self._goods_counter(offer.goods)
            if goods_counter is not None:  # "buy 2 Provisions for 3 gold": a counter
                yield from self._trade_counter(goods_counter, offer.goods)
            elif type(offer.goods) is ast.GainItem:
                yield from self._gain(offer.goods)
            else:
                yield from self._lose(offer.goods)

    def _goods_counter(self, goods: ast.GainItem | ast.LoseItem) -> str | None:
        """The counter a shop line trades (Provisions, arrows...), or None for an item."""
        found = self._lookup(goods.item)
        return found[1] if found is not None and found[0] == "counter" else None

    def _goods_held(self, goods: ast.GainItem | ast.LoseItem) -> int:
        """How many of the goods the hero has to sell (a counter's value, or the item's)."""
        counter = self._goods_counter(goods)
        if counter is not None:
            return self.state.hero.counters.get(counter, 0)
        return self.state.hero.items.get(self.item_key(goods.item), 0)

    def _trade_counter(self, counter: str, goods: ast.GainItem | ast.LoseItem) -> Gen:
        """Add the bought count to a counter (capped at its maximum), or take the sold one."""
        hero = self.state.hero
        delta = goods.count if type(goods) is ast.GainItem else -goods.count
        old, _ = hero.change_counter(counter, delta)
        capped = self._cap_counter(counter)
        new = hero.counters.get(counter, 0)
        if self.emit:
            yield events.StatChanged(name=counter, old=old, new=new, initial=new, who="counter")
            if capped:
                yield self._cap_message(counter)

    def _wager(self, statement: ast.Wager) -> Gen:
        """Ask the stake (clamped to the limit and to what the hero has), roll, pay out."""
        hero = self.state.hero
        counter = self.counter_id(statement.counter, statement.span)
        most = max(0, min(statement.limit, hero.counters.get(counter, 0)))
        name = self.ruleset.counted_name(counter, most, self.lang)
        if most == 0:
            return None  # nothing to bet: the wager is not offered
        if self.emit:
            params = (
                ("limit", most), ("name", name), ("dice", statement.dice.text),
                ("low", statement.low), ("high", statement.high),
            )  # fmt: skip
            yield events.MessageShown(key="wager_offer", params=params)
        stake = yield events.NumberPrompt(kind="wager")
        stake = max(0, min(most, stake))
        if stake == 0:
            return None
        expr = self._parsed(statement.dice.text, statement.dice.span)
        total, faces = expr.roll(self.rng)
        won = statement.low <= total <= statement.high
        old, new = hero.change_counter(counter, stake if won else -stake)
        if self.emit:
            yield events.DiceRolled(
                purpose="wager", faces=tuple(faces), total=total, expression=expr.text
            )
            key = "wager_won" if won else "wager_lost"
            name = self.ruleset.counted_name(counter, stake, self.lang)
            yield events.MessageShown(key=key, params=(("stake", stake), ("name", name)))
            yield events.StatChanged(name=counter, old=old, new=new, initial=new, who="counter")
        return None

    def _watched_wager(self, statement: ast.WatchedWager) -> Gen:
        """Bet on one of two fighters (or not), watch their fight, pay out even money."""
        hero = self.state.hero
        counter = self.counter_id(statement.counter, statement.span)
        most = max(0, min(statement.limit, hero.counters.get(counter, 0)))
        if most == 0:
            return None  # nothing to bet: the wager is not offered
        name = self.ruleset.display_name(counter, self.lang)
        first, second = (self._enemy(fighter) for fighter in statement.fighters)
        first = yield from self._roll_fighter(first)
        second = yield from self._roll_fighter(second)
        if self.emit:
            params = (("limit", most), ("name", name), ("first", first.name),
                      ("second", second.name))  # fmt: skip
            yield events.MessageShown(key="watched_wager_offer", params=params)
        options = tuple(
            events.ChoiceOption(index=index, text=text, target=None)
            for index, text in enumerate(
                (self.text("wager.on", fighter=first.name),
                 self.text("wager.on", fighter=second.name), self.text("wager.none")),
                start=1,
            )
        )  # fmt: skip
        while True:
            pick = yield events.ChoosePrompt(options=options)
            if pick is not _eat_marker():
                break
            yield from self.eat()
        if pick == 3:
            return None
        stake = yield events.NumberPrompt(kind="wager")
        stake = max(0, min(most, stake))
        if stake == 0:
            return None
        from dedale.rules.fights import watched_fight

        try:
            result = yield from watched_fight(self.ruleset, first, second, self.rng)
        except GameError as error:
            if error.span is None:
                error.span = statement.span
            raise
        winner, loser = (first, second) if result.won else (second, first)
        won = (pick == 1) == result.won
        old, new = hero.change_counter(counter, stake if won else -stake)
        if self.emit:
            params = (("winner", winner.name), ("loser", loser.name),
                      ("assaults", result.assaults))  # fmt: skip
            yield events.MessageShown(key="watched_fight", params=params)
            key = "wager_won" if won else "wager_lost"
            name = self.ruleset.counted_name(counter, stake, self.lang)
            yield events.MessageShown(key=key, params=(("stake", stake), ("name", name)))
            yield events.StatChanged(name=counter, old=old, new=new, initial=new, who="counter")
        return None

    # ------------------------------------------------------------------ counter limits
    def _cap_counter(self, ident: str) -> bool:
        """Bring a counter back to its ruleset maximum (``max``); True if it was above."""
        limit = self._counter_max(ident)
        counters = self.state.hero.counters
        if limit is None or counters.get(ident, 0) <= limit:
            return False
        counters[ident] = limit
        return True

    def _counter_max(self, ident: str) -> int | None:
        for counter in self.ruleset.counters:
            if counter.id == ident:
                return getattr(counter, "maximum", None)
        return None

    def _cap_message(self, ident: str) -> events.MessageShown:
        name = self.ruleset.display_name(ident, self.lang)
        params = (("limit", self._counter_max(ident)), ("name", name))
        return events.MessageShown(key="counter_max", params=params)

    # ------------------------------------------------------------------ forced meals
    def _forced_meal(self, statement: ast.ForcedMeal) -> Gen:
        """One meal is used up (without healing); with none left, the penalty applies."""
        meals = self.ruleset.meals
        hero = self.state.hero
        if meals is not None and hero.counters.get(meals.counter, 0) > 0:
            old, new = hero.change_counter(meals.counter, -1)
            if self.emit:
                yield events.MessageShown(key="forced_meal_eaten", params=())
                yield events.StatChanged(
                    name=meals.counter, old=old, new=new, initial=new, who="counter"
                )
            return None
        if self.emit:
            yield events.MessageShown(key="forced_meal_none", params=())
        yield from self._change(statement.penalty)
        return None
