"""Fights with exits on the path of fights (issue 14.4): which way the hero leaves the fight,
jointly with the (STAMINA, LUCK) he leaves it with.

A fight with exits (``when your STAMINA falls to 3 or less -> 7``, ``not won after 3
assaults -> 40``, ``after 2 assaults won -> 50``, ``first assault won -> 11``, ``end the
fight when … -> 12``, an event that turns to a paragraph, rules under an enemy) ends in
several ways, each to its own paragraph. Its plan (:func:`dedale.validator.fight_plan.plan_of`)
is played by the forward pass the solver uses (``solve.acting_forward._Forward`` over the
states of the exact odds with exits, one solver per setting: :mod:`.fight_path_acting`,
which adds the escape), or, for enemies at once and escapes, by the solver of fights at
once (:mod:`.fight_path_group`): the joint distribution of (way out, STAMINA, LUCK). On the
path, the fight's step keeps the ways out whose paragraph is the one the path goes to
(:func:`ways_of`); the others leave the path, and their chance is lost to the path's
figure as a loss is. The counters of a fight's own: :mod:`.fight_path_counters`; the
book's potion in it: :mod:`.fight_path_group_potion`.

What the chain cannot carry keeps the old estimate (the fight's chance from the fight
table, the wounds not carried on) with its reason: allies, an assault table, an attack
stat of the fight's own, a counter or codeword the rest of the book also changes, a
condition on what the chain does not follow. The forward passes are bounded: at most
``MAX_PASSES`` per hero profile (one per fight setting and starting (STAMINA, LUCK)),
each within the exact odds' state bound.
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.rules.ruleset import fold
from dedale.validator.fight_path_allies import AllyKernels, ally_reason
from dedale.validator.fight_path_ally_potion import DosedAllyKernels
from dedale.validator.fight_path_counters import CounterChecks, unfollowed
from dedale.validator.fight_path_group import GroupKernels, group_route, table_leaves
from dedale.validator.fight_path_group_potion import PotionAtOnce
from dedale.validator.fight_path_reasons import error_reason

MAX_PASSES = 3000  # forward passes of fights with exits, per hero profile
Way = tuple[str, int]  # (won, limit, threshold, assaults, event, first, exit; rule index)


def fight_ways(fight: ast.Fight) -> list[tuple[Way, object]]:
    """Each way out of the fight that turns to a paragraph, with its destination (as
    :func:`dedale.solve.fights_acting._way` reads them; the loss and an escape left out)."""
    ways: list[tuple[Way, object]] = []
    if fight.win is not None:
        ways.append((("won", -1), fight.win))
    if fight.escape is not None:  # escaped (the fights the path follows with the group solver)
        ways.append((("escaped", -1), fight.escape.target))
    if fight.assault_limit is not None:
        ways.append((("limit", -1), fight.assault_limit.target))
    if fight.threshold is not None:
        ways.append((("threshold", -1), fight.threshold.target))
    if fight.win_assaults is not None:
        ways.append((("assaults", -1), fight.win_assaults.target))
    for at, rule in enumerate(fight.rules):
        if rule.kind in ("first", "exit") and rule.target is not None:
            ways.append(((rule.kind, at), rule.target))
        elif rule.kind == "event":
            for effect in rule.effects:
                if type(effect) is ast.Goto:
                    ways.append((("event", at), effect.target))
    return ways


def ways_of(fight: ast.Fight, edge, book: object) -> frozenset[Way]:
    """The ways out of ``fight`` that go on along ``edge`` (None: the paragraph's own
    victory): those whose destination is the edge's, or the win when the edge leaves the
    paragraph after the fight."""
    from dedale.validator.graph import resolve

    found: set[Way] = set()
    through = edge is not None and edge.kind != "choice"
    for way, ref in fight_ways(fight) if through else ():
        if ref is edge.ref:
            found.add(way)
        elif edge.target is not None and book is not None:
            try:
                if _rejoins(book, resolve(book, ref), edge.target):
                    found.add(way)
            except (DedaleError, KeyError, ValueError):
                continue
    if not found and fight.win is None:  # the paragraph reads on after a won fight
        found.add(("won", -1))
    return frozenset(found)


MAX_HOPS = 8  # paragraphs passed through from a way out to the path's next paragraph


def _rejoins(book: object, number: int | None, target: int) -> bool:
    """Whether a way out to ``number`` goes on with the path's next paragraph ``target``:
    ``number`` is ``target``, or both lead, through at most ``MAX_HOPS`` paragraphs each that
    do nothing to the hero and whose every way on (a goto, a choice with no condition, cost
    or effect) turns to the same paragraph, to one same paragraph (``§ 3 -> § 5`` and
    ``§ 4 -> § 5``: the win and the limit of a fight meet again at § 5)."""
    if number is None:
        return False
    if number == target:
        return True
    landing = _landing(book, number)
    return landing is not None and landing == _landing(book, target)


def _landing(book: object, number: int) -> int | None:
    """The paragraph a chain of pass-through paragraphs from ``number`` ends at (``number``
    itself when it does something); None past ``MAX_HOPS`` or at an unknown paragraph."""
    from dedale.validator.graph import resolve

    paragraphs = getattr(book, "paragraphs", None) or {}
    by_number = paragraphs if isinstance(paragraphs, dict) else {p.number: p for p in paragraphs}
    for _ in range(MAX_HOPS + 1):  # bounded: a chain of pass-through paragraphs
        paragraph = by_number.get(number)
        if paragraph is None:
            return None
        ahead = set()
        for statement in paragraph.body:
            if isinstance(statement, ast.Prose):
                continue
            if isinstance(statement, ast.Choice):
                if statement.condition is not None or statement.costs or statement.effects:
                    return number
            elif not isinstance(statement, ast.Goto):
                return number  # it may change the hero, or end the book: the chain ends here
            ref = statement.target
            if not isinstance(ref, ast.ParagraphRef):
                return number
            ahead.add(resolve(book, ref))
        if len(ahead) != 1 or None in ahead:
            return number
        (number,) = ahead
    return None


class ExitKernels(GroupKernels, AllyKernels, DosedAllyKernels, PotionAtOnce, CounterChecks):
    """The fights with exits of HeroChain (its attributes are set by HeroChain.__init__)."""

    exit_passes = 0
    deadly = None  # which destinations are death endings (HeroChain's ``deadly``)

    def exit_kernel(self, fight: ast.Fight, ways: frozenset[Way], held, s: int, luck: int):
        """(chance to leave the fight by one of ``ways``, ((STAMINA, LUCK), chance), reason
        it is ≈ or None); the chances of the ends sum to the first figure."""
        key = ("exits", id(fight), ways, held, s, luck)
        found = self.kernels.get(key)
        if found is None:
            found = self.kernels[key] = self._exit_kernel(fight, ways, held, s, luck)
        return found

    def _exit_kernel(self, fight: ast.Fight, ways, held, s: int, luck: int):
        group = group_route(fight)  # at once, or an escape: fight_path_group.py
        why = self._exits_inexact(fight, held)  # else fight_path_acting.py (an escape too)
        if why is None and group:
            why = self._passes_left()
            found = self.group_kernel(fight, ways, held, s, luck) if why is None else why
            if not isinstance(found, Message | str):
                return found
            why = found
        elif why is None and fight.allies:
            found = self.ally_kernel(fight, ways, held, s, luck)
            if not isinstance(found, Message | str):
                return (*found, None)
            why = found
        elif why is None:
            outcomes = self._exit_outcomes(fight, held, s, luck)
            if isinstance(outcomes, Message | str):
                why = outcomes
            else:
                ends: dict[tuple[int, int], float] = {}
                for p, (_, index) in outcomes:
                    if not isinstance(index, tuple) or (index[2], index[3]) not in ways:
                        continue  # lost, or a way out the path does not take
                    state = (index[0], index[1] if self.luck_stat else luck)
                    ends[state] = ends.get(state, 0.0) + p
                return sum(ends.values()), tuple(ends.items()), None
        win, ends, _ = self.kernel(fight, held, s, luck)  # the old estimate
        return win, tuple((state, win * p) for state, p in ends), why

    def dosed_exit_kernel(self, fight: ast.Fight, ways, held, s: int, luck: int, d: int):
        """With ``d`` doses of the book's potion held: (chance to leave by one of ``ways``,
        (((STAMINA, LUCK, doses left), chance), ...), None or why it is ``≈``), or why the
        potion is not followed inside this fight (a Message; :mod:`.fight_path_group_potion`)."""
        key = ("dosed-exits", id(fight), ways, held, s, luck, d)
        found = self.kernels.get(key)
        if found is None:
            found = self.kernels[key] = self._dosed_exit_kernel(fight, ways, held, s, luck, d)
        return found

    def _dosed_exit_kernel(self, fight: ast.Fight, ways, held, s: int, luck: int, d: int):
        from dedale.validator.fight_path_group_potion import potion_reason

        if fight.allies:  # the allies' exits DP with the doses: fight_path_ally_potion.py
            why = self._exits_inexact(fight, held)
            return why or self.dosed_ally_kernel(fight, ways, held, s, luck, d)
        why = potion_reason(fight, self.potion) or self._exits_inexact(fight, held)
        if why is None:
            why = self._passes_left()
        if why is not None:
            return why
        return self.group_kernel(fight, ways, held, s, luck, d)

    def _passes_left(self) -> Message | None:
        """None while a forward pass of a fight with exits is within the bound (counted)."""
        if self.exit_passes >= MAX_PASSES:
            return tr("more than {limit} exact passes of fights with exits",
                      limit=MAX_PASSES)  # fmt: skip
        self.exit_passes += 1
        return None

    def _exits_inexact(self, fight: ast.Fight, held) -> Message | None:
        """Why this fight's ways out are not followed exactly (None: they are): fights at
        once and escapes are (:mod:`.fight_path_group`, :mod:`.fight_path_acting`)."""
        from dedale.solve.fights_acting import _atoms, _conditions, _effects_reason, _refs
        from dedale.validator.fights import EXACT_MODES

        if self.skill is None or self.init_health <= 0:
            return tr("the ruleset's heroes have no fixed attack or health roll")
        if fight.mode not in EXACT_MODES or fight.attack_stat is not None:
            return tr("a fight with exits (its wounds are not carried on)")
        reason = _effects_reason(fight)  # the solver's own refusals, its messages
        if fight.allies:  # followed by fight_path_allies.py, but at once or with a table
            reason = ally_reason(fight) or reason
        elif fight.assault_table is not None and (not group_route(fight) or table_leaves(fight)):
            reason = tr("a table is rolled each assault")
        if reason:
            return tr("a fight with exits (its wounds are not carried on): {reason}",
                      reason=reason)  # fmt: skip
        health = self.calculator.params.health
        for rule in fight.rules:
            for effect in rule.effects:
                if type(effect) in (ast.ChangeValue, ast.SetCodeword, ast.ClearCodeword):
                    found = self.ruleset.resolve(getattr(effect, "name", ""))
                    if found is not None and found[1] == health and effect.op == "sub":
                        continue
                    if not self.change_ok(effect, fight):  # a counter of its own only
                        return unfollowed()
        for condition in _conditions(fight):
            for atom in _atoms(condition):
                kind = type(atom)
                if kind is ast.HasItem and fold(atom.item) not in self.relevant:
                    return unfollowed()
                if kind is ast.HasCodeword and self.read_ok(atom, fight):
                    continue  # a codeword only this fight sets
                if (
                    kind not in (ast.HasItem, ast.Compare)
                    and not hasattr(atom, "operand")
                    and (not hasattr(atom, "operands"))
                ):
                    return unfollowed()  # a codeword, a visit, a class, a status, a flag
                if kind is ast.Compare:
                    for ref in _refs((atom.left, atom.right)):
                        found = None
                        if type(ref) is ast.ValueRef and not ref.initial:
                            found = self.ruleset.resolve(ref.name)
                        if found is not None and found[0] == "counter" and self.read_ok(ref, fight):
                            continue  # a counter only this fight changes
                        if found is None or found[0] != "stat":
                            return unfollowed()
                        if found[1] == self.luck_stat and self.policy == "best":
                            return unfollowed()
        return None

    def _exit_outcomes(self, fight: ast.Fight, held, s: int, luck: int):
        """The fight's joint outcomes from (``s``, ``luck``), or why there are none."""
        from dedale.solve.fights_acting import _atoms, _conditions
        from dedale.validator.fight_path_acting import ActingSetting
        from dedale.validator.fight_path_group import _reads
        from dedale.validator.fight_plan import Unsupported, plan_of
        from dedale.validator.fights import class_fight_kit

        why = self._passes_left()
        if why is not None:
            return why
        params = self.calculator.params
        settings = self.__dict__.setdefault("acting_settings", {})
        read = luck if self.luck_stat and _reads(fight, self.ruleset, self.luck_stat) else None
        setting = settings.get((id(fight), held, read))
        try:
            if setting is not None:
                return setting.outcomes(s, luck if self.luck_stat else None)
            key = self._table_key(fight, held)
            enemies, bonus = key[0], key[2]
            line_up = tuple((int(a), int(h), bool(i)) for a, h, i in enemies)
            if fight.mode == "as_one":
                line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                            all(i for _, _, i in line_up)),)  # fmt: skip
            stats = dict(self.hero.stats)
            stats[params.health] = s
            if self.luck_stat:
                stats[self.luck_stat] = luck
            carried = frozenset(
                atom.item.casefold()
                for condition in _conditions(fight)
                for atom in _atoms(condition)
                if type(atom) is ast.HasItem and fold(atom.item) in held
            )
            plan = plan_of(fight, self.ruleset, line_up, stats, carried, deadly=self.deadly)
            why = self.counters_reason(fight, plan)
            if why is not None:
                return why
            plan = dataclasses.replace(plan, bonus=bonus)
            abilities, armour = class_fight_kit(self.ruleset, self.hero.class_name)
            setting = settings[(id(fight), held, read)] = ActingSetting(
                self.ruleset, self.skill, plan, self.policy if self.luck_stat else "none",
                abilities, armour, tuple(rule.kind for rule in fight.rules),
            )  # fmt: skip
            return setting.outcomes(s, luck if self.luck_stat else None)
        except (DedaleError, Unsupported, ValueError, KeyError, ArithmeticError) as error:
            reason = error_reason(error)  # its Message: the reader's language
            return tr("no exact odds ({reason})", reason=reason)
