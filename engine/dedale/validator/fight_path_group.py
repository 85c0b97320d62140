"""Fights at once with exits, and escapes, on the path of fights (issue 14.4).

A fight against several enemies at once with a way out (``not won after 6 assaults -> 40``,
an escape, a threshold, an exit on a condition, an event that turns to a paragraph), and a
fight against one enemy with an escape, are followed by the exact odds of fights at once
with exits (:class:`dedale.rules.odds_group_exits.GroupExitSolver`: the target the best
each assault, Luck the best at each wound, the escape taken when it gives the better chance
to leave the fight alive). One solver per fight setting keeps its values for every starting
(STAMINA, LUCK) the chain brings; from each start, the mass is pushed forward through the
solver's own choices (:meth:`~dedale.rules.odds_group_exits.GroupExitSolver.choose`, as
:func:`dedale.rules.odds_group_exits_forward.group_exit_outcomes` does) to the way out, with
the STAMINA and LUCK it leaves. With the best Luck past the solver's budget (for every
later start of that fight and hero too), a fight the array fill takes (an assault
limit, an escape, a threshold: :func:`dedale.rules.odds_group_exits_forward.array_takes`) is
pushed through the fill's own choices
(:mod:`dedale.rules.odds_group_exits_array_forward`), within the fill's larger budget. The
path keeps the ways out whose paragraph is the one it goes to: "escaped" carries the wound
of the escape to the escape's paragraph.

The solver tells its ways out by kind (won, first assault won, assaults won, limit,
threshold, exit, event, escaped), not by rule: when two rules of the same kind go to
different paragraphs and only one of them goes the path's way, the step is not exact
(``≈``, with its reason). A fight against one enemy with ``first assault won`` and an
escape stays estimated too (the solver counts a fall in the first assault as a win).
Bounds: the solver's own (states, CPU seconds a start, the best Luck's work foreseen),
``MAX_MOVES`` moves kept per setting for the forward passes, and ``SETTING_SECONDS`` of CPU
time per setting over all its starts (past them, the step is ``≈`` with the bound).
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.validator.fight_path_reasons import error_reason

MAX_MOVES = 400_000  # states whose moves a setting keeps for the forward passes
SETTING_SECONDS = 8.0  # CPU seconds one setting may spend over all its starts
ONE_ENEMY_LUCK_WORK = 400_000
"""With the best Luck, the work the solver may foresee for one enemy (its foresight counts
every (STAMINA, LUCK, enemy STAMINA, assault) cell, most of which a fight never reaches:
the strongest df-classic hero against SKILL 10 STAMINA 14 for 8 assaults foresees 43,875
and reaches 3,274 states, 0.2 s); its own bounds of states and CPU time still apply."""
TIE = 1e-9  # chances closer than this are equal: the first target, fighting on, are kept

#: the solver's ways out and the path's ways (kind, rule index) they stand for
_SINGLE = {
    "won": ("won", -1),
    "assaults_won": ("assaults", -1),
    "limit": ("limit", -1),
    "threshold": ("threshold", -1),
    "escaped": ("escaped", -1),
}
_BY_RULE = {"first_won": "first", "exit": "exit", "event": "event"}


def group_route(fight: ast.Fight) -> bool:
    """Whether the path follows this fight's ways out with the solver of fights at once:
    several enemies at once, or an escape or a table rolled each assault against one enemy
    (or enemies fought as one)."""
    if fight.allies:  # at once: the allies' solver of fights at once (odds_allies_group)
        return fight.mode == "together" and len(fight.enemies) > 1
    if fight.mode == "together" and len(fight.enemies) > 1:
        return True
    if fight.escape is None and fight.assault_table is None:
        return False
    if fight.mode in ("single", "sequence") and len(fight.enemies) > 1:
        return False  # one after another, with an escape: not the solver's fight
    return not any(rule.kind == "first" for rule in fight.rules)


def table_leaves(fight: ast.Fight) -> bool:
    """Whether a row of the fight's table turns to a paragraph or ends the book (the solver
    counts such a way out with the events': not told apart on the path)."""
    from dedale.validator.graph import walk

    table = fight.assault_table
    return table is not None and any(
        isinstance(statement, ast.Goto | ast.Ending)
        for branch in table.branches
        for statement in walk(branch.body)
    )


def kept_kinds(fight: ast.Fight, ways: frozenset) -> tuple[frozenset[str], Message | None]:
    """The solver's ways out that go on along the path (``ways``: the path's), or why
    they cannot be told apart (two rules of one kind, one on the path and one not)."""
    members: dict[str, set] = {kind: {way} for kind, way in _SINGLE.items()}
    for kind, rule_kind in _BY_RULE.items():
        members[kind] = set()
        for at, rule in enumerate(fight.rules):
            if rule.kind != rule_kind:
                continue
            leaves = rule.target is not None or any(type(e) is ast.Goto for e in rule.effects)
            if leaves:
                members[kind].add((rule_kind, at))
    kept = set()
    for kind, found in members.items():
        on = found & ways
        if on and on != found:
            return frozenset(), tr(
                "a fight with exits whose ways out of one kind go to different paragraphs"
            )
        if on:
            kept.add(kind)
    return frozenset(kept), None


class _Setting:
    """One solver (its values for every start) and the moves its choices make."""

    def __init__(self, solver) -> None:
        self.solver = solver
        self.moves: dict[tuple, list] = {}
        self.spent = 0.0  # CPU seconds over the starts so far (SETTING_SECONDS at most)

    def outcomes(
        self, stamina: int, luck: int | None, doses: int | None = None, array: bool = False
    ) -> dict:
        """{(way, STAMINA, LUCK, doses left): chance} from one start (the loss left out;
        ``doses``: held at the start, for a solver that follows the potion, else None;
        ``array``: by the array fill's forward pass, for a fight it takes)."""
        import time

        if self.spent > SETTING_SECONDS:
            seconds = format(SETTING_SECONDS, "g")
            raise ValueError(tr("more than {seconds} seconds", seconds=seconds))
        began = time.process_time()
        try:
            return self._outcomes(stamina, luck, doses, array)
        finally:
            self.spent += time.process_time() - began

    def _outcomes(self, stamina: int, luck: int | None, doses: int | None, array: bool) -> dict:
        solver = self.solver
        if array:
            from dedale.rules.odds_group_exits_array_forward import array_outcomes

            ends = array_outcomes(solver, stamina, luck).ways  # the array fill's choices
            return {(way, h, lk, 0): p for way, table in ends.items()
                    for (h, lk), p in table.items()}  # fmt: skip
        if doses is not None:
            solver.doses = doses
        solver.solve(stamina, luck)  # the values (memoised across the starts)
        start = solver.start(stamina, luck)
        order, seen, stack = [], {start}, [start]
        while stack:  # every state the choices reach from the start
            state = stack.pop()
            order.append(state)
            for _, node in self._moves(state):
                if node[0] != "end" and node not in seen:
                    seen.add(node)
                    stack.append(node)
        into = dict.fromkeys(order, 0)
        for state in order:
            for _, node in self._moves(state):
                if node[0] != "end":
                    into[node] += 1
        pending = {start: 1.0}
        ready = [start]
        found: dict[tuple[str, int, int, int], float] = {}
        while ready:  # in an order every move follows (the moves never loop)
            state = ready.pop()
            mass = pending.pop(state, 0.0)
            for share, node in self._moves(state):
                if node[0] == "end":
                    if node[1] != "lost" and mass * share > 0:
                        left = node[4] if len(node) > 4 else state[7][-1] if doses else 0
                        key = (node[1], node[2], node[3], left)
                        found[key] = found.get(key, 0.0) + mass * share
                    continue
                pending[node] = pending.get(node, 0.0) + mass * share
                into[node] -= 1
                if not into[node]:
                    ready.append(node)
        return found

    def _moves(self, state: tuple) -> list:
        found = self.moves.get(state)
        if found is None:
            if len(self.moves) >= MAX_MOVES:
                raise ValueError(tr("more than {limit} states", limit=MAX_MOVES))
            found = self.moves[state] = self._choose(state)
        return found

    def _choose(self, state: tuple) -> list:
        """The solver's choice in ``state`` (its values), with ties told within ``TIE``:
        the first target standing unless another is better, no escape unless it is
        sure or better (the solver's own rule, whose ties its rounding would decide)."""
        solver = self.solver
        plan = solver.plan
        h, luck, es, shifts, k = state[:5]
        if plan.limit is not None and k >= plan.limit:
            return solver.choose(state)[1]
        escape = None
        if plan.escape_after is not None and k >= plan.escape_after:
            escape = solver._escape(h, luck)
            if escape[0] >= 1.0 - TIE:
                return escape[1]
        best: tuple[float, list] | None = None
        for t in solver._targets(es, shifts):
            stay, rows = solver._assault(state, t)
            found: tuple[float, list] = (0.0, [])
            if stay < 1.0 - 1e-12:  # else nobody is ever wounded: the fight cannot end
                moves = [(q / (1.0 - stay), node) for q, node in rows]
                found = (min(1.0, sum(q * solver.value(node) for q, node in moves)), moves)
            if best is None or found[0] > best[0] + TIE:
                best = found
        if best is None or escape is not None and escape[0] > best[0] + TIE:
            return [] if escape is None else escape[1]
        return best[1]


class GroupKernels:
    """The fights at once with exits (and escapes) of HeroChain (its attributes are set
    by HeroChain.__init__; :mod:`dedale.validator.fight_path_exits` calls in)."""

    def group_kernel(self, fight: ast.Fight, ways: frozenset, held, s: int, luck: int,
                     doses: int | None = None):  # fmt: skip
        """(chance to leave by one of ``ways``, (((STAMINA, LUCK), chance), ...), None or
        why it is ``≈``), or the reason the fight is not followed at all (a Message).
        ``doses`` of the book's potion held (:mod:`.fight_path_group_potion`): the ends are
        then ((STAMINA, LUCK, doses left), chance).
        With the best Luck past its budget, the fight is followed without Luck tests (its
        wounds carried, the figure a lower bound: ``≈`` with the reason)."""
        from dedale.rules.odds_inputs import OddsTooLarge
        from dedale.validator.fight_plan import Unsupported

        kept, why = kept_kinds(fight, ways)
        if why is not None:
            return why
        policy = self.policy if self.luck_stat else "none"
        failed = self.__dict__.setdefault("group_failed", {})  # best Luck past its budget
        try:
            past = self._table_past_budget(fight) if policy == "best" else None
            past = past or failed.get((id(fight), held, doses is not None))
            if past is not None:  # the best Luck ran out of budget for this hero already
                raise OddsTooLarge(past)
            found = self._group_outcomes(fight, held, s, luck, policy, doses)
        except OddsTooLarge as error:
            if policy == "best":  # other starts would spend the budget again: not tried
                failed[(id(fight), held, doses is not None)] = error.message
            if policy == "none":
                return tr("no exact odds ({reason})", reason=error.message)
            found = None if doses is not None else self._group_array(fight, held, s, luck)
            if found is not None:  # the array fill's forward pass: exact
                return self._group_ends(found, kept, luck, None, None)
            try:
                found = self._group_outcomes(fight, held, s, luck, "none", doses)
            except (DedaleError, Unsupported, ValueError, KeyError, ArithmeticError,
                    RecursionError):  # fmt: skip
                return tr("no exact odds ({reason})", reason=error.message)
            why = tr("counted without Luck in this fight (a lower bound of this fight's "
                     "chance, not of the path's): {reason}",
                     reason=error.message)  # fmt: skip
        except (DedaleError, Unsupported, ValueError, KeyError, ArithmeticError,
                RecursionError) as error:  # fmt: skip
            reason = error_reason(error)  # its Message: the reader's language
            return tr("no exact odds ({reason})", reason=reason)
        if isinstance(found, Message | str):
            return found
        return self._group_ends(found, kept, luck, doses, why)

    def _group_ends(self, found: dict, kept, luck: int, doses, why):
        """The ends the path keeps (its ways) of the solver's ``found``, as ``group_kernel``
        gives them."""
        ends: dict[tuple, float] = {}
        for (way, h, lk, left), p in found.items():
            if way in kept:
                state = (h, lk if self.luck_stat else luck)
                if doses is not None:
                    state = (*state, left)
                ends[state] = ends.get(state, 0.0) + p
        return sum(ends.values()), tuple(ends.items()), why

    def _group_array(self, fight: ast.Fight, held, s: int, luck: int) -> dict | None:
        """With the best Luck past the state-by-state solver's budget: the ends by the array
        fill's forward pass (:mod:`dedale.rules.odds_group_exits_array_forward`) where the
        fill takes the fight and fits its own count, else None (the fight is then followed
        without Luck)."""
        from dedale.rules.odds_group_exits_forward import array_takes
        from dedale.rules.odds_inputs import OddsTooLarge

        if fight.allies:  # the array fill has no allies
            return None
        settings = self.__dict__.setdefault("group_settings", {})
        read = luck if self.luck_stat and _reads(fight, self.ruleset, self.luck_stat) else None
        key = ("group", id(fight), held, read, "best", False)
        setting = settings.get(key)
        if setting is None:
            setting = settings[key] = self._group_setting(fight, held, read, "best", False)
        if isinstance(setting, Message | str) or not array_takes(setting.solver, s, luck):
            return None
        try:
            return setting.outcomes(s, luck, array=True)
        except (OddsTooLarge, ValueError):  # past the fill's count, or the setting's seconds
            return None

    def _table_past_budget(self, fight: ast.Fight):
        """Why the fight table's best Luck for this hero is an estimate (its DP ran past
        the budget there: the path's, from the same or more STAMINA, would too, and spend
        the budget again), or None."""
        report = self.reports.get(fight.span)
        if report is None or report.estimated_because is None:
            return None
        for odds in report.odds:
            if (odds.hero.level, odds.hero.class_name, odds.luck) == (
                self.hero.level, self.hero.class_name, "best"
            ):  # fmt: skip
                return report.estimated_because if odds.estimate else None
        return None

    def _group_outcomes(self, fight: ast.Fight, held, s, luck, policy: str, doses=None):
        """The solver's ways out from (``s``, ``luck``, ``doses``) with ``policy`` (its
        setting kept for the other starts), or why there are none (a Message)."""
        settings = self.__dict__.setdefault("group_settings", {})
        read = luck if self.luck_stat and _reads(fight, self.ruleset, self.luck_stat) else None
        dosed = doses is not None
        key = ("group", id(fight), held, read, policy, dosed)
        setting = settings.get(key)
        if setting is None:
            setting = settings[key] = self._group_setting(fight, held, read, policy, dosed)
        if isinstance(setting, Message | str):
            return setting
        return setting.outcomes(s, luck if self.luck_stat else None, doses)

    def _group_setting(self, fight: ast.Fight, held, luck, policy: str, dosed: bool):
        """The solver of this fight for this hero and the items held (``luck``: the LUCK
        its conditions read, None: they read none; ``dosed``: with the potion's doses)."""
        from dedale.rules.odds_group_exits import GroupExitSolver
        from dedale.rules.ruleset import fold
        from dedale.solve.fights_acting import _atoms, _conditions
        from dedale.validator.fight_plan import plan_of
        from dedale.validator.fights import class_fight_kit

        key = self._table_key(fight, held)
        enemies, bonus = key[0], key[2]
        line_up = tuple((int(a), int(h), bool(i)) for a, h, i in enemies)
        if fight.mode == "as_one":
            line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                        all(i for _, _, i in line_up)),)  # fmt: skip
        carried = frozenset(
            atom.item.casefold()
            for condition in _conditions(fight)
            for atom in _atoms(condition)
            if type(atom) is ast.HasItem and fold(atom.item) in held
        )
        stats = dict(self.hero.stats)
        if luck is not None:
            stats[self.luck_stat] = luck
        plan = plan_of(fight, self.ruleset, line_up, stats, carried, allies=bool(fight.allies),
                       deadly=self.deadly)  # fmt: skip
        why = self.counters_reason(fight, plan)
        if why is not None:
            return why
        exits = {way for way in plan.doomed if way.startswith("exit:")}
        if exits and len(exits) != len(plan.exits):  # the solver's ends do not say which exit
            return tr("some exits of a fight at once lead to a death ending, others not")
        plan = dataclasses.replace(plan, bonus=bonus)
        abilities, armour = class_fight_kit(self.ruleset, self.hero.class_name)
        if fight.allies:  # beside the hero against enemies at once (odds_allies_group.py)
            from dedale.rules.odds_allies_group import AllyGroupSolver
            from dedale.validator.fights_allies import allies_of

            solver = AllyGroupSolver(
                self.ruleset, self.skill, plan, policy, abilities, armour, "best",
                allies_of(self.calculator, fight), fight.struck,
            )  # fmt: skip
        elif dosed:  # the potion's doses, one more counter (fight_path_group_potion.py)
            from dedale.validator.fight_path_group_potion import PotionExitSolver, with_doses

            solver = PotionExitSolver(
                self.ruleset, self.skill, with_doses(plan, 0), policy, abilities, armour,
                "best", potion=self.potion, top=self.init_health,
            )  # fmt: skip
        else:
            solver = GroupExitSolver(
                self.ruleset, self.skill, plan, policy, abilities, armour, "best"
            )  # fmt: skip
        if len(line_up) == 1:
            solver.luck_work = max(solver.luck_work, ONE_ENEMY_LUCK_WORK)
        return _Setting(solver)


def _reads(fight: ast.Fight, ruleset, stat: str) -> bool:
    """Whether a condition of the fight's rules reads ``stat`` (its value then is part of
    the solver's setting)."""
    from dedale.solve.fights_acting import _atoms, _conditions, _refs

    for condition in _conditions(fight):
        for atom in _atoms(condition):
            if type(atom) is not ast.Compare:
                continue
            for ref in _refs((atom.left, atom.right)):
                found = ruleset.resolve(ref.name) if type(ref) is ast.ValueRef else None
                if found is not None and found[1] == stat:
                    return True
    return False
