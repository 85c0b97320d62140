"""The path of fights (issue 14.4) of reliques books (procedure ``reliques``).

The same main-path search and report as the FF family (:mod:`dedale.validator.fight_path`)
and d20 books (:mod:`dedale.validator.fight_path_d20`, the template), for the fight table's
own heroes (weakest, median, strongest: :class:`dedale.validator.fights_reliques.
ReliquesCalculator`, the start paragraph's kit). The hero's state is what a reliques fight
changes that a later one reads (:mod:`dedale.rules.fight_reliques`):

- his health;
- his heroism points (``heroism.ignore_loss``, Courage): spent at best in each fight, as
  the fight table's ``best`` row (never when the ruleset has none to spend); the points a
  fight leaves are carried to the next;
- the wear of his armour: protection absorbs a blow and wears by 1, the wear charged to
  the first armour with protection left (``Character.protection_worn``, kept between
  fights): the next fight's protection is the sum of what each armour has left.

The chain's LUCK slot holds the last two, ``(heroism points, ((armour, wear), ...))``.
Each fight maps a state to the chance to leave it alive and the states a win leaves
(:attr:`dedale.rules.odds_reliques_dp.ReliquesOdds.end_states` of the exact DP,
:func:`dedale.rules.odds_reliques.mixed_reliques_odds`, one per line-up and start), so
the fights are chained exactly; changes of health and meals between them are the FF
chain's (:class:`dedale.validator.fight_path_chain.HeroChain`). Outside the fights the
hero never spends a heroism point (the interpreter offers one when he loses health).

Fights with exits (an assault limit, an escape, "when your health falls to N", "after N
assaults won") are the DP's own ways out, the path keeping those that go its way (the
escape off the path never taken; one the path takes, beside another way out alive off it,
is the DP's: ``≈``). Approximate (``≈``, saying why), the fight table's chance to leave the
fight alive then used with the state unchanged: a fight the book acts in otherwise (rules,
events, allies), an assault limit beside a threshold, an estimated fight, a fight past the
exact budget; a change of the heroism counter on the path (not followed); the book's potion.
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.rules.odds_reliques_dp import WON
from dedale.validator.fight_path_d20 import D20Chain, _nameless, searched_paths
from dedale.validator.fight_path_reasons import error_reason
from dedale.validator.fights_reliques import Unsupported

ReliquesLuck = tuple[int, tuple[tuple[str, int], ...]]  # heroism points, armour wear


class ReliquesChain(D20Chain):
    """HeroChain for a reliques hero: STAMINA is his health, LUCK ``(heroism, wear)``."""

    SHARED = ("odds", "models")

    def __init__(self, ruleset, hero, character, rehearsal, reports, policy="none",
                 local=None) -> None:  # fmt: skip
        super().__init__(ruleset, hero, character, rehearsal, reports, local=local)
        self.policy = policy  # the heroism points: "best" spends them at best, "none" never
        self.counter = (ruleset.heroism or {}).get("ignore_loss") or None
        points = int(character.counters.get(self.counter, 0)) if self.counter else 0
        worn = tuple(sorted(character.protection_worn.items()))
        self.init_luck = (max(0, points), worn)  # type: ignore[assignment]
        self.models: dict = {}  # one DP per fight, shared by every start

    def kernel(self, fight: ast.Fight, held: frozenset[str], s: int, luck):
        """(win chance, ((health, (heroism, wear)), chance) after a win, reason it is ≈)."""
        why = self._inexact(fight)
        if why is not None:
            return self._estimated(fight, s, luck, why)
        from dedale.validator.simulate import _lineup

        spec = self.rehearsal.spec(fight)  # type: ignore[attr-defined]
        key = (_nameless(_lineup(spec, fight)), s, luck)  # fights alike share their DP
        found = self.odds.get(key)
        if found is None:
            found = self.odds[key] = self._solve(fight, spec, s, luck)
        return found

    def bound(self, dist, held, steps) -> float | None:
        """A bound strictly above the chance a move through one exact fight keeps, below
        the chance before it (validator.fight_path_later: the fight then waits until the
        search needs it); None: computed at once (nothing costly, or no such bound). Each
        state's chance to win is the DP's value from it, which the fight table's DP
        mostly holds already; the margin (1e-12 of the mass) covers the rounding of the
        forward pass's sums and of the value's fixed point (a bound it misses makes the
        search start again without waiting moves: fight_path_later.Unsound)."""
        from dedale.validator.fight_path_steps import Fight, Item, Unknown
        from dedale.validator.simulate import _lineup

        fights = [step for step in steps if not isinstance(step, Item | Unknown)]
        if len(fights) != 1 or not isinstance(fights[0], Fight) or fights[0].ways is not None:
            return None  # (the items held change no reliques fight: self.relevant is empty)
        fight = fights[0].fight
        if self._inexact(fight) is not None:
            return None  # the fight table's figure: nothing to compute
        spec = self.rehearsal.spec(fight)  # type: ignore[attr-defined]
        lineup = _nameless(_lineup(spec, fight))
        if all((lineup, s, luck) in self.odds for s, luck, _, _ in dist):
            return None  # computed already
        mass = total = 0.0
        for (s, luck, _, _), p in dist.items():
            key = ("value", lineup, s, luck)
            win = self.odds.get(key)
            if win is None:
                odds = self._dp(fight, spec, s, luck, win_only=True)
                win = self.odds[key] = (
                    None
                    if isinstance(odds, Message | str)
                    else (  # type: ignore[assignment]
                        odds.win_probability,
                    )
                )
            if win is None:
                return None
            mass += p
            total += p * win[0]
        bound = total + 1e-12 * mass
        return bound if bound < mass else None

    def _solve(self, fight: ast.Fight, spec, s: int, luck):
        """The exact DP from the state: its wins and the states they leave."""
        odds = self._dp(fight, spec, s, luck)
        if isinstance(odds, Message | str):
            return self._estimated(fight, s, luck, odds)
        if odds.win_probability <= 0:
            return 0.0, (), None
        ends = self._ends(odds, fight, s, luck, {WON})
        win = sum(ends.values())
        return win, tuple(sorted((state, p / win) for state, p in ends.items())), None

    def _dp(self, fight: ast.Fight, spec, s: int, luck, threshold=None, needed=None,
            win_only: bool = False):  # fmt: skip
        """The reliques DP's odds from the state (or why there are none)."""
        from dedale.rules.odds_reliques import ReliquesOddsTooLarge, mixed_reliques_odds
        from dedale.validator.fights_reliques import MAX_NODES, SECONDS

        ruleset = self.rehearsal.ruleset(fight)  # type: ignore[attr-defined]
        try:
            return mixed_reliques_odds(
                ruleset, self._hero(s, luck), spec, luck_policy=self.policy,
                max_nodes=MAX_NODES, seconds=SECONDS, models=self.models,
                threshold=threshold, win_assaults=needed, win_only=win_only,
            )  # fmt: skip
        except (ReliquesOddsTooLarge, DedaleError, ValueError, KeyError) as error:
            return tr("no exact odds ({reason})", reason=error_reason(error))

    def _hero(self, s: int, luck):
        """The fight table's hero in the state: health, heroism points, armour wear."""
        points, worn = luck
        hero = self.character.copy()  # type: ignore[attr-defined]
        hero.stats[self.health_stat] = s
        if self.counter:
            hero.counters[self.counter] = points
        hero.protection_worn = dict(worn)
        return hero

    def _ends(self, odds, fight: ast.Fight, s: int, luck, kept_ways) -> dict[tuple, float]:
        """The DP's outcomes by a way in ``kept_ways`` (absolute chances), each as the
        chain's state (the protection it wore charged to the first armour left, as
        fight_reliques.hit does)."""
        from dedale.rules.fight_reliques import make_hero

        ruleset = self.rehearsal.ruleset(fight)  # type: ignore[attr-defined]
        points, worn = luck
        side = make_hero(ruleset, self._hero(s, luck), ruleset.fight)
        ends: dict[tuple, float] = {}
        for (way, h, left, heroism), p in odds.outcomes.items():
            if way not in kept_ways or h <= 0:
                continue
            after = dict(worn)
            if side.protection > left and side.armour:
                first = side.armour[0]
                after[first] = after.get(first, 0) + side.protection - left
            kept = heroism if self.policy == "best" else points
            state = (h, (kept, tuple(sorted(after.items()))))
            ends[state] = ends.get(state, 0.0) + p
        return ends

    def _inexact(self, fight: ast.Fight) -> Message | None:
        if self.init_health <= 0:
            return tr("an estimated fight (its wounds are not carried on)")
        if fight.threshold is not None or fight.win_assaults is not None:
            return tr("a fight with exits (its wounds are not carried on)")
        return super()._inexact(fight)

    def exit_kernel(self, fight: ast.Fight, ways, held, s: int, luck):
        """(chance to leave the fight by one of ``ways``, (state, chance), reason it is ≈
        or None): an assault limit, an escape, "when your health falls to N" and "after N
        assaults won" are the DP's own ways out; the path keeps those that go its way.
        Without the escape among them the hero never escapes (escaping would leave the
        path: the DP without it is his best); with it and another way out alive that
        leaves the path, the escape is the DP's (to leave alive), and the figure is ≈."""
        key = ("exits", id(fight), ways, s, luck)
        found = self.odds.get(key)
        if found is None:
            found = self.odds[key] = self._exit_kernel(fight, ways, s, luck)
        return found

    def _exit_kernel(self, fight: ast.Fight, ways, s: int, luck):
        from dedale.rules.odds_reliques import ESCAPED, LIMIT
        from dedale.rules.odds_reliques_dp import TURNS_WON

        exits = tr("a fight with exits (its wounds are not carried on)")
        why, odds = self._exits_why(fight), None
        if why is None:
            ruleset = self.rehearsal.ruleset(fight)  # type: ignore[attr-defined]
            spec = self.rehearsal.spec(fight)  # type: ignore[attr-defined]
            threshold, needed = _extras(self.rehearsal, fight, ruleset)
            if threshold is not None and spec.assault_limit is not None:
                threshold = False  # both end by the DP's one way "limit": not told apart
            taken = {way for way, _ in ways}
            if "escaped" not in taken and spec.escape_after is not None:
                spec = dataclasses.replace(spec, escape_after=None)
            names = {WON: "won", LIMIT: "limit" if threshold is None else "threshold",
                     TURNS_WON: "assaults", ESCAPED: "escaped"}  # fmt: skip
            if threshold is False:
                why = exits
            else:
                odds = self._dp(fight, spec, s, luck, threshold, needed)
                if isinstance(odds, Message | str):
                    why, odds = odds, None
            if (
                odds is not None
                and spec.escape_after is not None
                and any(names[way] not in taken and p > 0 for (way, *_), p in odds.outcomes.items())
            ):  # a choice to leave alive that the path does not take
                why = tr("the escape taken as the fight table takes it (to leave alive)")
        if odds is None:
            win, ends, why = self._estimated(fight, s, luck, why or exits)
            return win, tuple((state, win * p) for state, p in ends), why
        kept = {way for way, name in names.items() if (name, -1) in ways}
        ends = self._ends(odds, fight, s, luck, kept)
        return sum(ends.values()), tuple(sorted(ends.items())), why

    def _exits_why(self, fight: ast.Fight) -> Message | None:
        """Why a fight with exits is not followed exactly (None: its ways out are the
        DP's: won, the assault limit, the escape, the threshold, the assaults won)."""
        estimated = self._unknown(fight)
        if estimated is not None:
            return estimated
        if fight.allies or fight.rules:
            return tr("a fight with exits (its wounds are not carried on)")
        try:
            _extras(self.rehearsal, fight, self.rehearsal.ruleset(fight))  # type: ignore[attr-defined]
        except (Unsupported, DedaleError, ValueError, KeyError):
            return tr("a fight with exits (its wounds are not carried on)")
        return None


def _extras(rehearsal, fight: ast.Fight, ruleset) -> tuple[int | None, int | None]:
    """The fight's threshold and assaults won as the DP follows them (the fight table's
    :meth:`ReliquesCalculator._extras`; Unsupported when the book does more)."""
    from dedale.validator.fights_reliques import ReliquesCalculator

    if fight.threshold is None and fight.win_assaults is None:
        if rehearsal.by_assault(fight):
            raise Unsupported(tr("the book acts inside this fight (rules, thresholds, tables)"))
        return None, None
    holder = type("_Holder", (), {"rehearsal": rehearsal})()
    return ReliquesCalculator._extras(holder, fight, ruleset)  # type: ignore[arg-type]


def heroism_reasons(graph, ruleset, path) -> list[tuple[int, Message]]:
    """A change of the heroism counter on the path: the chain does not follow it (≈)."""
    from dedale.validator.graph import walk

    counter = (getattr(ruleset, "heroism", None) or {}).get("ignore_loss")
    if not counter:
        return []
    reasons = []
    for number, _ in path:
        node = graph.nodes.get(number)
        if node is None:
            continue
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.ChangeValue):
                found = ruleset.resolve(statement.name)
                if found is not None and found[1] == counter:
                    why = tr("a change of {counter} (not followed between the fights)",
                             counter=statement.name)  # fmt: skip
                    reasons.append((number, why))
                    break
    return reasons


def reliques_path(graph, book, reports, seconds, reach):
    """The path of fights of a reliques book (see the module)."""
    from dedale.validator.fight_path import FightPath
    from dedale.validator.fight_path_steps import Segments
    from dedale.validator.fights_reliques import shared_calculator

    ruleset = book.ruleset
    try:
        calculator = shared_calculator(graph, book)  # the fight table's: its DPs solved
    except (DedaleError, KeyError, ValueError, AttributeError) as error:
        return FightPath((), missing=tr("not computed: {reason}", reason=str(error)))
    policy = "best" if "best" in calculator.policies else "none"
    by_span = {report.fight.span: report for report in reports}
    segments = Segments(ruleset, book)
    potion_reason = None
    if segments.potions.potion is not None:
        potion_reason = tr("the book's potion is not followed between reliques fights")

    def chain_of(hero, character, local=None):
        chain = ReliquesChain(ruleset, hero, character, calculator.rehearsal, by_span, policy,
                              local)  # fmt: skip
        chain.models = calculator.models  # the fight table's DPs: their values are known
        return chain

    def extra_of(path):
        return heroism_reasons(graph, ruleset, path)

    return searched_paths(graph, book, segments, seconds, reach, calculator.heroes, chain_of,
                          potion_reason, extra_of)  # fmt: skip
