"""A fight as the exact DP's outcome distribution, for the solver's replays.

Installed as ``game.fight_oracle`` (the hook in :meth:`dedale.game.statements.Statements._fight`):
instead of rolling the assaults, the fight reads one ``f`` token — an index into the joint
(STAMINA, LUCK) distribution of :func:`dedale.rules.odds.fight_odds` after a win, or the
loss — and sets the hero's STAMINA and LUCK to it. The setup (attack bonus, unarmed penalty,
items' bonuses, armour and its wear) comes from the interpreter's own functions.
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.fight_opposed import FightSetup, wear_armour
from dedale.rules.fights import FightResult, FightSpec
from dedale.rules.odds import fight_odds
from dedale.rules.ruleset import D20Fight, OpposedFight, ReliquesFight
from dedale.solve.dice import TokenStream
from dedale.solve.escape_duel import escape_duel
from dedale.solve.exactness import EXACT
from dedale.solve.group_duel import group_fight, group_plain
from dedale.solve.model import Chance, Leaf, SolveLimit

LOST = -1
"""The ``f`` token of a lost fight."""
GROUP_LUCK_WORK = 30_000
"""The best Luck's budget in a fight against several enemies at once (as ``dedale odds``)."""


class FightOracle:
    """Exact fight outcomes for one solve, memoised. ``luck_policy``: ``best`` (Luck in
    plain fights decided for the book, :mod:`dedale.solve.duel`; in the others as below),
    ``fight`` (the DP's policy: Luck tested when it raises the chance to win the fight;
    escapes and assault limits are decided for the book either way) or ``none``."""

    def __init__(self, luck_policy: str, shared: dict | None = None) -> None:
        self.book_luck = luck_policy == "best"
        self.luck_policy = "none" if luck_policy == "none" else "best"
        self.stream: TokenStream | None = None
        #: (state, paragraph) -> the Next node; None: every outcome is replayed
        self.resolve = None
        self.explorer = None  # the Explorer (escape fights add their own nodes)
        # fight outcomes, and the book's best Luck's value tables and end states: keyed on
        # everything the fight reads, so heroes solved in turn may share them (``shared``)
        shared = {} if shared is None else shared
        self._memo: dict[Any, tuple[tuple[float, Any], ...]] = shared.setdefault("memo", {})
        self._tables: dict[Any, Any] = shared.setdefault("tables", {})
        self._ends: dict[Any, tuple] = shared.setdefault("ends", {})
        self.fights = 0

    def __call__(self, runner, statement: ast.Fight, spec: FightSpec) -> FightResult:
        ruleset = runner._fight_ruleset(statement)
        if EXACT.get():  # --exact: refuse a fight whose outcomes exist only in floats
            from dedale.solve.exact_fights import exact_refusal

            exact_refusal(runner, statement, spec, ruleset)
        if isinstance(ruleset.fight, ReliquesFight):  # exact: dedale.solve.fights_reliques
            from dedale.solve.fights_reliques import reliques_outcome

            return reliques_outcome(self, runner, statement, spec)
        if isinstance(ruleset.fight, D20Fight):  # d20 fights: their own exact outcomes
            from dedale.solve.fights_d20 import d20_fight

            return d20_fight(self, runner, statement, spec, ruleset)
        hero = runner.state.hero
        params = ruleset.fight
        _check(runner, statement, spec, ruleset)
        armed = bool(hero.items) and hero.is_armed(ruleset)
        setup = FightSetup(ruleset, hero, spec, armed)
        armour = bool(setup.armour or (hero.items and wear_armour(ruleset, hero)))
        bonus = setup.attack_bonus
        if hero.item_effects:  # as opposed_fight adds the items' bonuses
            extra = mods.item_modifiers(hero, params.attack_stat)
            bonus += mods.total(extra, mods.hero_abilities(ruleset, hero))
        # the DP adds the class's own fight bonus itself (and its damage, first-hit bonus)
        bonus -= mods.ability_value(mods.hero_abilities(ruleset, hero), "fight", "attack_bonus")
        luck_stat = setup.luck_stat
        if runner._by_assault(statement) and not _allies_only(runner, statement):
            from dedale.solve.fights_acting import acting_fight  # the book acts in it

            return acting_fight(self, runner, statement, spec, ruleset, bonus, armour, luck_stat)
        if (
            group_plain(spec, statement) and statement.lose is None  # a defeat exit: below
            and (self.book_luck or self.luck_policy == "none")
        ):  # fmt: skip
            if not EXACT.get():  # targets (and Luck) for the book: dedale.solve.group_duel
                return group_fight(self, runner, statement, spec, ruleset, bonus, armour, luck_stat)
        if self.book_luck and luck_stat is not None and _plain(spec) and statement.allies:
            if statement.lose is None:  # the allies' DP, Luck for the book: solve/ally_duel
                from dedale.solve.ally_duel import ally_fight

                return ally_fight(self, runner, statement, spec, ruleset, bonus, armour,
                                  luck_stat)  # fmt: skip
        elif self.book_luck and luck_stat is not None and _plain(spec):
            return self._duel(runner, statement, spec, ruleset, bonus, armour, luck_stat)
        from dedale.solve.fight_graph import escape_fight, plays  # escapes, limits: graph nodes

        if plays(self, runner, statement, spec, setup, luck_stat):
            raise Resolved(escape_fight(self, runner, statement, spec, ruleset, setup, bonus,
                                        armour, luck_stat))  # fmt: skip
        if (
            statement.lose is not None
            and luck_stat is not None
            and self.luck_policy == "best"
            and (statement.allies or (spec.mode == "together" and len(spec.enemies) > 1))
        ):  # fmt: skip  (their outcomes know no LUCK at a defeat)
            raise defeat_refusal(statement)
        key = (
            id(ruleset), repr(spec), tuple(sorted(hero.stats.items())), bonus, armour,
            hero.class_name, repr(statement.allies), statement.struck,
        )  # fmt: skip
        outcomes = self._memo.get(key)
        if outcomes is None and statement.allies:  # exact with allies: solve/fights_allies.py
            from dedale.solve.fights_allies import ally_outcomes

            outcomes = self._memo[key] = ally_outcomes(
                self, runner, statement, spec, ruleset, bonus, armour
            )
        if outcomes is None:
            try:
                outcomes = self._memo[key] = self._outcomes(
                    ruleset, hero, spec, bonus, armour, luck_stat, statement.lose is not None
                )
            except SolveLimit:
                raise
            except GameError as error:  # too many fight states, a fight it cannot follow
                hint = error.hint
                if spec.mode == "together" and self.luck_policy == "best":
                    hint = tr("without Luck in fights its exact odds may fit: --luck none")
                raise SolveLimit(error.message, statement.span, hint=hint) from None
        stream = self.stream
        assert stream is not None
        if spec.assault_limit is not None and not _in_graph(spec, setup, statement):
            if luck_stat is not None and self.luck_policy == "best":
                raise SolveLimit(
                    tr("the solver plays an assault limit against several enemies, with "
                       "armour, a first-hit bonus or no win paragraph only with --luck none"),
                    statement.span,
                    hint=tr("with --luck best its Luck would be tested for the book"),
                )  # fmt: skip
            if EXACT.get() and not (spec.mode == "together" and len(spec.enemies) > 1):
                outcomes = self._exact_limit(runner, statement, spec, ruleset, bonus, armour,
                                             luck_stat, key)  # fmt: skip
            return self._limit_result(stream, outcomes, hero, params.health, luck_stat)
        if spec.escape_after is not None or spec.assault_limit is not None:
            # the escape (or the limit) is decided inside the fight, as graph nodes
            if self.explorer is None or _won_target(runner, statement) is None:
                raise SolveLimit(
                    tr("the solver plays an escape only in a fight that turns to a paragraph"),
                    statement.span,
                )
            if self.luck_policy == "none" and not EXACT.get():  # one node: solve/escape_duel
                escape_duel(self, runner, statement, setup, bonus)  # (raises when it applies)
            from dedale.solve.escape import EscapeFight

            raise Resolved(
                EscapeFight(
                    self.explorer, runner, statement, setup, bonus, self.luck_policy
                ).start()
            )
        if stream.at >= len(stream.tokens) and self.resolve is not None:
            target = _won_target(runner, statement)
            if target is not None:  # no replay needed: each outcome's next node, now
                raise Resolved(self._resolved(runner, outcomes, target, luck_stat, params.health))
        index = stream.take("f", lambda: outcomes)
        if index == LOST:
            hero.set(params.health, 0)
            return FightResult("lost", 0)
        stamina, luck = index
        hero.stats[params.health] = stamina  # the DP's end state, within 0..initial
        if luck_stat is not None and self.luck_policy == "best":
            hero.stats[luck_stat] = luck
        return FightResult("won" if stamina > 0 else "lost", 0)  # (0, LUCK): a defeat exit

    def _duel(self, runner, statement, spec, ruleset, bonus, armour, luck_stat) -> FightResult:
        """A plain fight with Luck decided for the book (:mod:`dedale.solve.duel`): one
        Duel node over every end state any Luck policy reaches."""
        from dedale.solve.duel import ValueTable

        hero = runner.state.hero
        params = ruleset.fight
        defeat = statement.lose is not None  # a lost end is worth the defeat's paragraph
        key = (id(ruleset), repr(spec), hero.stats[params.attack_stat], bonus, armour,
               hero.class_name, defeat)  # fmt: skip
        table = self._tables.get(key)
        if table is None:
            try:
                table = self._tables[key] = ValueTable(
                    ruleset, hero.stats[params.attack_stat], spec.enemies,
                    class_name=hero.class_name, mode=spec.mode, attack_bonus=bonus,
                    enemy_damage=spec.enemy_damage, armour=armour, defeat=defeat,
                )  # fmt: skip
            except GameError as error:
                raise SolveLimit(error.message, statement.span, hint=error.hint) from None
            if EXACT.get():  # --exact: its twin in fractions (solve.exact values the Duel)
                from dedale.solve.exact_fights import ExactFight

                table.exact = ExactFight(
                    ruleset, hero.stats[params.attack_stat], spec.enemies, mode=spec.mode,
                    bonus=bonus, enemy_damage=spec.enemy_damage, armour=armour,
                    class_name=hero.class_name, luck_policy="best", defeat=defeat,
                )  # fmt: skip
        begin = table.start(hero.stats[params.health], hero.stats.get(luck_stat, 0))
        ends = self._ends.get((key, begin))
        if ends is None:
            self.fights += 1
            try:
                ends = self._ends[key, begin] = tuple(table.ends(begin))
            except SolveLimit as error:
                raise SolveLimit(error.message, statement.span) from None

        def put(h: int, luck: int) -> None:
            hero.stats[params.health], hero.stats[luck_stat] = h, luck

        h, _ = duel_end(self, runner, statement, table, begin, ends, put)
        return FightResult("won" if h > 0 else "lost", 0)  # (0, LUCK): the defeat exit

    def _exact_limit(self, runner, statement, spec, ruleset, bonus, armour, luck_stat, key):
        """An assault limit's ways out in fractions (solve/exact_exits.py), memoised."""
        from dedale.solve.exact_exits import exact_limit_outcomes  # the forward pass

        found = self._memo.get(("exact limit", *key))
        if found is None:
            try:
                found = self._memo["exact limit", *key] = exact_limit_outcomes(
                    ruleset, runner.state.hero, spec, bonus, armour, luck_stat, self.luck_policy
                )
            except GameError as error:
                raise SolveLimit(error.message, statement.span, hint=error.hint) from None
        return found

    def _limit_result(self, stream, outcomes, hero, health: str, luck_stat) -> FightResult:
        """An assault-limit fight's outcome token: lost, won or the limit reached, with
        the hero's STAMINA and LUCK then (``rules.odds_exits_forward``)."""
        index = stream.take("f", lambda: outcomes)
        if index == LOST:
            hero.set(health, 0)
            return FightResult("lost", 0)
        stamina, luck, way = index
        hero.stats[health] = stamina
        if luck_stat is not None and self.luck_policy == "best":
            hero.stats[luck_stat] = luck
        return FightResult("won" if way == "won" else "limit", 0)

    def _resolved(self, runner, outcomes, target: int, luck_stat: str | None, health: str):
        """The fight's chance node: a loss is a death, a win goes on to ``target`` with
        the hero's STAMINA and LUCK of that outcome (the rest of the state as it is)."""
        hero = runner.state.hero
        kept = dict(hero.stats)
        branches = []
        for p, token in outcomes:
            index = token[1]
            if index == LOST:
                branches.append((p, token, Leaf(0.0)))
                continue
            hero.stats[health] = index[0]
            if luck_stat is not None and self.luck_policy == "best":
                hero.stats[luck_stat] = index[1]
            branches.append((p, token, self.resolve(runner.state, target)))
            hero.stats.clear()
            hero.stats.update(kept)
        return Chance(tuple(branches))

    def _outcomes(self, ruleset, hero, spec, bonus, armour, luck_stat, defeat=False):
        self.fights += 1
        params = ruleset.fight
        luck = hero.stats.get(luck_stat) if luck_stat else None
        # a defeat exit with the fight's Luck: the LUCK a loss leaves goes on (0, LUCK)
        defeat = defeat and luck is not None and self.luck_policy == "best" and _plain(spec)
        together = spec.mode == "together" and len(spec.enemies) > 1
        if EXACT.get() and spec.assault_limit is not None and not together:
            return ()  # in the graph, or the forward pass in fractions when it is read (below)
        if EXACT.get():  # the same fight in fractions (dedale.solve.exact_fights)
            from dedale.solve.exact_fights import exact_outcomes

            return exact_outcomes(ruleset, hero, spec, bonus, armour, luck_stat, self.luck_policy,
                                  defeat=defeat)  # fmt: skip
        if defeat:
            return self._defeat_outcomes(ruleset, hero, spec, bonus, armour, luck)
        if spec.assault_limit is not None:
            return self._limit_outcomes(ruleset, hero, spec, bonus, armour, luck)
        result = fight_odds(
            ruleset,
            hero.stats[params.attack_stat],
            hero.stats[params.health],
            spec.enemies,
            luck=luck,
            luck_policy=self.luck_policy if luck is not None else "none",
            mode=spec.mode,
            attack_bonus=bonus,
            enemy_damage=spec.enemy_damage,
            armour=armour,
            class_name=hero.class_name,
            # all at once: the reader's best target each assault, and a larger budget for
            # the best Luck than the validator's (the solver is the costly check)
            luck_work=GROUP_LUCK_WORK if spec.mode == "together" else None,
        )
        win = result.win_probability
        found: list[tuple[float, Any]] = [
            (win * share, ("f", end)) for end, share in result.end_states.items() if share > 0
        ]
        if win < 1.0:
            found.append((1.0 - win, ("f", LOST)))
        return tuple(found)

    def _defeat_outcomes(self, ruleset, hero, spec, bonus, armour, luck: int):
        """A plain fight with a defeat exit and the fight's Luck (tested when it raises the
        chance to win that fight): the joint (STAMINA, LUCK) after a win and ``(0, LUCK)``
        after a loss, by the fight DP's transitions (:class:`dedale.solve.duel.ValueTable`
        valued 1 for a win, 0 for a loss)."""
        from dedale.solve.duel import ValueTable

        params = ruleset.fight
        table = ValueTable(
            ruleset, hero.stats[params.attack_stat], spec.enemies, class_name=hero.class_name,
            mode=spec.mode, attack_bonus=bonus, enemy_damage=spec.enemy_damage, armour=armour,
            defeat=True,
        )  # fmt: skip
        begin = table.start(hero.stats[params.health], luck)
        ends = table.outcomes(begin, lambda h, _luck: 1.0 if h > 0 else 0.0)
        return tuple((p, ("f", key)) for key, p in sorted(ends.items()) if p > 0)

    def _limit_outcomes(self, ruleset, hero, spec, bonus, armour, luck):
        """The joint outcomes of a fight with an assault limit: the forward pass over the
        exact exit odds' states (won / limit, STAMINA, LUCK), and the loss."""
        from dedale.rules.odds_exits import ExitPlan
        from dedale.rules.odds_exits_forward import exit_outcomes
        from dedale.rules.odds_inputs import enemy_line_up

        params = ruleset.fight
        together = spec.mode == "together"  # all at once: rules/odds_group_exits_forward.py
        plan = ExitPlan(
            enemies=tuple(enemy_line_up(ruleset, spec.enemies, "sequence" if together else
                                        spec.mode)), bonus=bonus,
            enemy_damage=spec.enemy_damage, limit=spec.assault_limit,
        )  # fmt: skip
        if together:
            from dedale.rules.odds_group_exits_forward import group_exit_outcomes as exit_outcomes
        result = exit_outcomes(
            ruleset, hero.stats[params.attack_stat], hero.stats[params.health], plan,
            luck=luck, luck_policy=self.luck_policy if luck is not None else "none",
            abilities=mods.hero_abilities(ruleset, hero), armour=armour,
        )  # fmt: skip
        found: list[tuple[float, Any]] = []
        for way, table in (("won", result.won), ("limit", result.limit)):
            found += [(p, ("f", (h, lk, way))) for (h, lk), p in sorted(table.items()) if p > 0]
        if result.lost > 0:
            found.append((result.lost, ("f", LOST)))
        return tuple(found)


class NeedDuel(BaseException):  # noqa: N818 - a control signal, not an error
    """Raised by the oracle past the replay's tokens at a fight with the book's best Luck:
    the explorer replays each end state (``keys``) and makes the Duel node."""

    def __init__(self, table, begin: tuple, keys: tuple) -> None:
        super().__init__()
        self.table, self.begin, self.keys = table, begin, keys


def _plain(spec: FightSpec) -> bool:
    """A fight whose Luck the book decides (:mod:`dedale.solve.duel`): one enemy or several
    in turn or as one, no escape, no assault limit (those are graph nodes already)."""
    return spec.mode != "together" and spec.assault_limit is None and spec.escape_after is None


class Resolved(BaseException):  # noqa: N818 - a control signal, not an error
    """Raised by the oracle with a fight's whole chance node (see :func:`_won_target`)."""

    def __init__(self, tree) -> None:
        super().__init__()
        self.tree = tree


def _in_graph(spec: FightSpec, setup: FightSetup, statement: ast.Fight) -> bool:
    """Whether an assault-limit fight is played as graph nodes (:mod:`dedale.solve.escape`:
    one enemy, no armour, no first-hit bonus, a ``win ->`` paragraph); else its joint
    outcomes come from the forward pass (``--luck none`` only)."""
    return (
        len(setup.skills) == 1 and not setup.armour and not setup.first_hit_bonus
        and statement.win is not None
    )  # fmt: skip


def duel_end(oracle, runner, statement: ast.Fight, table, begin, ends, put) -> tuple[int, int]:
    """A fight valued as one Duel node: past the replay's tokens, NeedDuel (the explorer
    replays each end state) or, when a won fight turns at once, Resolved with every end
    state's paragraph; else the end state the tokens chose, ``put`` on the hero."""
    from dedale.solve.duel import Duel

    stream = oracle.stream
    assert stream is not None
    if stream.at >= len(stream.tokens):
        target = _won_target(runner, statement) if oracle.resolve is not None else None
        if target is None:
            raise NeedDuel(table, begin, ends)
        hero = runner.state.hero
        kept = dict(hero.stats)
        found = {}
        for h, luck in ends:
            put(h, luck)
            found[h, luck] = oracle.resolve(runner.state, target)
            hero.stats.clear()
            hero.stats.update(kept)
        raise Resolved(Duel(table, begin, found))
    h, luck = stream.take("f", lambda: ())
    put(h, luck)
    return h, luck


def _won_target(runner, statement: ast.Fight, defeat: bool = False) -> int | None:
    """Where a won fight turns at once, when nothing of the interpreter acts between the
    win and the next paragraph: the fight names its ``win ->`` paragraph (the statements
    after it are then never run), no item trigger or penalty waits to be checked (after
    each statement), no playtest god mode, no ``lose ->`` paragraph (a lost fight goes
    there, with 1 STAMINA: Statements._fight; each outcome is then replayed) — unless
    ``defeat``: the caller turns a defeat to that paragraph itself (the graph's fights,
    :func:`lose_target`)."""
    if statement.win is None or (statement.lose is not None and not defeat):
        return None
    if runner.watch_triggers or runner.state.penalties:
        return None
    if runner.god_mode or runner.emit:
        return None
    if statement.lose is not None and lose_target(runner, statement) is None:
        return None
    target = runner.destination(statement.win)
    return target if target in runner.book.paragraphs else None


def defeat_refusal(statement: ast.Fight) -> SolveLimit:
    """A defeat exit the solver cannot follow with the LUCK (and counters) it leaves."""
    return SolveLimit(
        tr("the solver cannot play this fight exactly: {reason}",
           reason=tr("a defeat exit in a fight that names no paragraph to turn to when won, "
                     "with allies, or in which the book changes a counter")),
        statement.span,
        hint=tr("name the paragraph a win turns to (> win -> N), or solve with --luck none"),
    )  # fmt: skip


def lose_target(runner, statement: ast.Fight) -> int | None:
    """The paragraph of a defeat exit (``> lose -> 51``), None without one (or a missing one:
    the interpreter reports it)."""
    if statement.lose is None:
        return None
    target = runner.destination(statement.lose)
    return target if target in runner.book.paragraphs else None


def _allies_only(runner, statement: ast.Fight) -> bool:
    from dedale.solve.fights_allies import allies_only

    return allies_only(runner, statement)


def _check(runner, statement: ast.Fight, spec: FightSpec, ruleset) -> None:
    """Refuse (never approximate) what the exact DP does not model."""
    reason = ""
    if not isinstance(ruleset.fight, OpposedFight):
        reason = tr("this ruleset's fights are not opposed (FF-family) fights")
    elif runner._by_assault(statement) and not _allies_only(runner, statement):
        return  # dedale.solve.fights_acting checks what it cannot follow
    elif spec.escape_after is not None and statement.escape is None:
        reason = tr("this fight has an assault limit and an escape")
    if reason:
        hint = tr("dedale solve handles plain opposed fights (see docs/solver.md)")
        raise SolveLimit(
            tr("the solver cannot play this fight exactly: {reason}", reason=reason),
            statement.span,
            hint=hint,
        )
