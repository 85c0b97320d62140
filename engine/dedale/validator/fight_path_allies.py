"""Fights with allies and ways out on the path of fights (issue 14.4).

A fight with allies and an exit (``> ally BRAN SKILL 8 STAMINA 10``, ``> not won after 5
assaults -> 4``, a threshold, an escape, an exit on a condition, an event that turns to a
paragraph, rules under the enemy), enemies one after another or as one, is followed by the
allies' exact odds with exits (:class:`dedale.rules.odds_allies_exits.AllyExitSolver`, the
fight table's figure) with its ways out labelled
(:mod:`dedale.rules.odds_allies_exits_forward`): from each (STAMINA, LUCK) the chain brings,
the joint chance of each way out and the STAMINA and LUCK it leaves. One solver per fight
setting (the fight, the items held, the LUCK its conditions read) serves every start. The
allies' own STAMINA is the fight's (each fight names its allies with their stats): nothing
of them is carried on.

Still estimated, with the reason: allies against several enemies at once (their own solver,
:mod:`dedale.rules.odds_allies_group`, tells no way out apart), an assault table, and a
fight whose ``first assault won`` and ``end the fight when`` go to different paragraphs of
which only one is the path's (the solver checks the first before the others; the
interpreter reads them in the order written).
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.rules.ruleset import fold
from dedale.validator.fight_path_reasons import error_reason


def ally_reason(fight: ast.Fight) -> Message | None:
    """Why the path cannot follow this fight with allies and ways out (None: it can)."""
    if fight.assault_table is not None:
        return tr("a table is rolled each assault")
    return None


def _mixed_first(fight: ast.Fight, ways: frozenset) -> bool:
    """Whether ``first assault won`` and an ``end the fight when`` rule both lead out and
    only some of them go the path's way (their order then decides the paragraph)."""
    leaving = [(rule.kind, at) for at, rule in enumerate(fight.rules)
               if rule.kind in ("first", "exit") and rule.target is not None]  # fmt: skip
    kinds = {kind for kind, _ in leaving}
    if kinds != {"first", "exit"}:
        return False
    on = {way for way in leaving if way in ways}
    return bool(on) and len(on) < len(leaving)


class AllyKernels:
    """The fights with allies and exits of HeroChain (its attributes are set there)."""

    def ally_kernel(self, fight: ast.Fight, ways: frozenset, held, s: int, luck: int):
        """(chance to leave by one of ``ways``, (((STAMINA, LUCK), chance), ...)) from
        (``s``, ``luck``), or why it is not followed exactly (a Message)."""
        if _mixed_first(fight, ways):
            return tr("a fight with exits whose ways out of one kind go to different paragraphs")
        why = self._passes_left()
        if why is not None:
            return why
        try:
            forward = self._ally_setting(fight, held, luck)
            if isinstance(forward, Message):
                return forward
            found, _lost = forward.outcomes(s, luck if self.luck_stat else None)
        except (DedaleError, ValueError, KeyError, ArithmeticError) as error:
            reason = error_reason(error)  # its Message: the reader's language
            return tr("no exact odds ({reason})", reason=reason)
        ends: dict[tuple[int, int], float] = {}
        for (h, lk, way, at), p in found.items():
            if (way, at) in ways and h > 0:
                state = (h, lk if self.luck_stat else luck)
                ends[state] = ends.get(state, 0.0) + p
        return sum(ends.values()), tuple(ends.items())

    def _ally_setting(self, fight: ast.Fight, held, luck: int):
        """The setting's labelled solver and forward pass, or why there is none."""
        from dedale.rules.odds_allies_exits_forward import AllyExitForward, LabelledAllySolver
        from dedale.validator.fight_path_group import SETTING_SECONDS, _reads
        from dedale.validator.fights import class_fight_kit
        from dedale.validator.fights_allies import allies_of

        read = luck if self.luck_stat and _reads(fight, self.ruleset, self.luck_stat) else None
        settings = self.__dict__.setdefault("ally_settings", {})
        found = settings.get((id(fight), held, read))
        if found is not None:
            return found
        plan = setting_plan(self, fight, held, luck)
        if isinstance(plan, Message):
            return plan
        abilities, armour = class_fight_kit(self.ruleset, self.hero.class_name)
        solver = LabelledAllySolver(
            self.ruleset, self.skill, plan, self.policy if self.luck_stat else "none",
            abilities, armour, allies_of(self.calculator, fight), fight.struck,
            SETTING_SECONDS, rule_kinds=tuple(rule.kind for rule in fight.rules),
        )  # fmt: skip
        found = settings[(id(fight), held, read)] = AllyExitForward(solver)
        return found


def setting_plan(chain, fight: ast.Fight, held, luck: int):
    """The exits plan of a fight with allies for ``chain``'s hero, the items ``held`` and
    ``luck`` (its bonus set), or why there is none (a Message)."""
    from dedale.solve.fights_acting import _atoms, _conditions
    from dedale.validator.fight_plan import plan_of

    key = chain._table_key(fight, held)
    enemies, bonus = key[0], key[2]
    line_up = tuple((int(a), int(h), bool(i)) for a, h, i in enemies)
    if fight.mode == "as_one":
        line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                    all(i for _, _, i in line_up)),)  # fmt: skip
    stats = dict(chain.hero.stats)
    if chain.luck_stat:
        stats[chain.luck_stat] = luck
    carried = frozenset(
        atom.item.casefold()
        for condition in _conditions(fight)
        for atom in _atoms(condition)
        if type(atom) is ast.HasItem and fold(atom.item) in held
    )
    plan = plan_of(fight, chain.ruleset, line_up, stats, carried, allies=True,
                   deadly=chain.deadly)  # fmt: skip
    why = chain.counters_reason(fight, plan)
    if why is not None:
        return why
    return dataclasses.replace(plan, bonus=bonus)
