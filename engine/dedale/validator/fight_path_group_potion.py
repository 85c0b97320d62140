"""The book's potion inside a fight with exits against one enemy, on the path of fights.

A potion (``> take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)``) acts in
a fight as the interpreter makes it (:mod:`dedale.game.fight_hooks`): on a wound that would
kill (the wound lands, STAMINA is 0, the potion acts at once and the fight goes on), and
after each assault, after the book's exits on a condition and before the threshold ("when
your STAMINA falls to 4 or less -> 80") and the assaults won — each time one dose, again
while STAMINA is still at or below its number. :class:`PotionExitSolver` is the solver of
fights at once with exits (:class:`~dedale.rules.odds_group_exits.GroupExitSolver`) with
the doses left as one more counter of its states, and those two moments added; its ways
out carry the doses left. An escape's wound is not a fight's wound: a mortal one is death,
as in the interpreter.

Followed this way: one enemy (or enemies fought as one), no event under an enemy (``when it
wounds you`` would read a wound the potion took back) and no table rolled each assault (a
row's loss is a rule line: the potion acts after it, which the solver's rows do not do), a
potion whose amount is not rolled (each moment one state). Otherwise the step stays ``≈``
with its reason.
"""

from __future__ import annotations

from dedale import ast
from dedale.i18n import Message, tr
from dedale.rules.odds_group_exits import GroupExitSolver
from dedale.validator.fight_path_potion import Potion, settle

DOSES = "potion:doses"  # the counter the doses are followed under
FINISHED = 200_000  # ends of assaults a solver keeps (then it starts again)


def potion_reason(fight: ast.Fight, potion: Potion) -> Message | None:
    """Why the potion in this fight with exits (or at once) is not followed (None: it is)."""
    if fight.mode == "sequence" and len(fight.enemies) > 1:
        return tr("the book's potion in a fight with exits: its use is not counted")
    if any(rule.kind in ("event", "first") for rule in fight.rules) or fight.allies:
        return tr("the book's potion in a fight with exits: its use is not counted")
    if fight.assault_table is not None:  # a row's loss the potion would take back at once
        return tr("the book's potion in a fight with exits: its use is not counted")
    kinds = getattr(potion, "kinds", (potion,))  # several potions: fight_path_potions.py
    if any(kind.op != "restore" and len(kind.law or ()) > 1 for kind in kinds):
        return tr("the book's potion in a fight with exits: its use is not counted")
    return None


class PotionExitSolver(GroupExitSolver):
    """GroupExitSolver with the doses of the potion (the plan's last counter)."""

    def __init__(self, *args, potion: Potion, top: int) -> None:
        super().__init__(*args)
        self.potion, self.top = potion, top
        self.doses = 0  # the doses of the next start
        self.bare = False  # the potion acts after every assault (_late)
        #: several enemies at once: a mortal blow is taken back before the next one lands
        self.per_blow = len(self.plan.enemies) > 1
        self.finished: dict[tuple, list] = {}  # _finish's ends, blow by blow

    def _plain_solver(self) -> PotionExitSolver:
        """The same fight without Luck (the best Luck's floor), the potion in it too."""
        ruleset, skill, abilities, armour, target = self.setting
        plain = PotionExitSolver(ruleset, skill, self.plan, "none", abilities, armour, target,
                                 potion=self.potion, top=self.top)  # fmt: skip
        plain.seconds, plain.owner = self.seconds, self
        return plain

    def _luck_assault(self, state, t, lead, sides, gaps, immune, guarded, rows) -> None:
        """Blow by blow (``per_blow``) without Luck: the target's outcome and which other
        enemies land a blow summed over the hero's rolls (``_joint``), then the blows one
        by one (:meth:`_sides`, each landing surely)."""
        if self.use_luck:
            super()._luck_assault(state, t, lead, sides, gaps, immune, guarded, rows)
            return
        ctx = (state, t, {})
        for p, winner, double, hits in self._joint(lead, gaps, immune, guarded):
            (option,) = self._target(state, t, winner)
            struck = tuple((j, 1.0) for j, yes in zip(sides, hits, strict=False) if yes)
            for q, h1, l1, es1, hit1, dealt in option:
                for r, node in self._sides(ctx, winner, double, h1, l1, es1, hit1, dealt, struck):
                    rows[node] = rows.get(node, 0.0) + p * q * r

    def _sides(self, ctx, winner, double, h, luck, es, hit, dealt, side_p) -> list:
        """The other enemies' blows, one by one (:meth:`GroupExitSolver._sides`); a blow
        that would kill — the target's or another's — lands, the potion acts from 0 at
        once and the next blow falls on the STAMINA it gives (the interpreter's rescue,
        ``game/fight_hooks.py``)."""
        state, t, cache = ctx
        d = state[7][-1]
        if h > 0 or d <= 0 or not side_p:  # (no blow left: _finish takes it back)
            return super()._sides(ctx, winner, double, h, luck, es, hit, dealt, side_p)
        out = []
        for (new, left), p in settle(self.potion, self.top, 0, d):
            if new <= 0:
                out.append((p, ("end", "lost", 0, luck, left)))
                continue
            key = ("rescued", left)
            inner = cache.get(key)
            if inner is None:  # the assault goes on with the doses left
                inner = cache[key] = ((*state[:7], state[7][:-1] + (left,)), t, {})
            found = self._sides(inner, winner, double, new, luck, es, hit, dealt, side_p)
            out += [(p * q, node) for q, node in found]
        return out

    def start(self, stamina: int, luck: int | None) -> tuple:
        state = super().start(stamina, luck)
        counters = state[7][:-1] + (self.doses,)
        return (*state[:7], counters)

    def _finish(self, state, t, winner, double, h, luck, es, hit, dealt) -> list:
        if not self.per_blow:
            return self._finished(state, t, winner, double, h, luck, es, hit, dealt)
        key = (state, t, winner, double, h, luck, es, hit, dealt)
        found = self.finished.get(key)
        if found is None:  # blow by blow, the same ends are met from many rolls
            if len(self.finished) >= FINISHED:
                self.finished.clear()
            found = self.finished[key] = self._finished(*key)
        return found

    def _finished(self, state, t, winner, double, h, luck, es, hit, dealt) -> list:
        d = state[7][-1]
        if h > 0 or d <= 0 or self.potion.at < 0:
            return [(p, _tagged(n, d)) for p, n in super()._finish(
                state, t, winner, double, h, luck, es, hit, dealt)]  # fmt: skip
        out = []  # a mortal wound: the potion takes the hero back from 0
        for (new, left), p in settle(self.potion, self.top, 0, d):
            if new <= 0:
                out.append((p, ("end", "lost", 0, luck, left)))
                continue
            moved = (*state[:7], state[7][:-1] + (left,))
            for q, node in super()._finish(moved, t, winner, double, new, luck, es, hit, dealt):
                out.append((p * q, _tagged(node, left)))
        return out

    def _late(self, after: tuple):
        h, luck, es, shifts, k, won, hit, counters = after
        d = counters[-1]
        if d > 0 and h <= self.potion.at:
            found = settle(self.potion, self.top, h, d)
            if len(found) != 1:
                raise ValueError(tr("the book's potion in a fight with exits: its use is not "
                                    "counted"))  # fmt: skip
            (h, d), _ = found[0]
            after = (h, luck, es, shifts, k, won, hit, counters[:-1] + (d,))
        return _tagged(super()._late(after), d)


class PotionAtOnce:
    """The potion in a fight against several enemies at once with no way out but the win
    (a part of HeroChain: the solver of fights at once with exits, its only way the win),
    and in a fight with allies and no way out (:mod:`.fight_path_ally_potion`)."""

    def dosed_at_once(self, fight: ast.Fight, held, s: int, luck: int, d: int):
        """(win chance, (((STAMINA, LUCK, doses left), chance), ...), None or why it is
        ``≈``), or why the potion in it is not followed (a Message)."""
        won = frozenset({("won", -1)})
        if fight.allies:  # the allies' exits DP with the doses: fight_path_ally_potion.py
            found = self.dosed_ally_kernel(fight, won, held, s, luck, d)
        elif potion_reason(fight, self.potion) is not None:
            return tr("a potion in a fight against several enemies at once: its use is not "
                      "counted")  # fmt: skip
        else:
            why = self._passes_left()
            if why is not None:
                return why
            found = self.group_kernel(fight, won, held, s, luck, d)
        if isinstance(found, Message | str):
            return found
        win, ends, why = found
        settled: dict[tuple[int, int, int], float] = {}
        for (h, lk, left), p in ends:  # the potion acts once the fight is won, too
            for (h2, left2), q in settle(self.potion, self.init_health, h, left):
                if h2 > 0:
                    key = (h2, lk, left2)
                    settled[key] = settled.get(key, 0.0) + p * q
        return win, tuple(settled.items()), why


def _tagged(node: tuple, doses: int) -> tuple:
    """A way out with the doses left (a state keeps them in its counters)."""
    if node[0] == "end" and len(node) == 4:
        return (*node, doses)
    return node


def with_doses(plan, doses: int):
    """The plan with the doses followed as its last counter."""
    import dataclasses

    return dataclasses.replace(plan, counters=(*plan.counters, (DOSES, doses)))
