"""The path of fights (issue 14.4) of books whose fights have no FF-family exact odds.

d20 books (procedure ``d20``): the same main-path search and report as the FF family
(:mod:`dedale.validator.fight_path`), for the fight table's own heroes (weakest, median,
strongest; each class: :class:`dedale.validator.simulate.FightSimulator`, the start
paragraph's kit). The hero's state is his HP: a d20 fight reads nothing else a fight
before it changes (his stats, weapon and armour stay as they are; the enemies start
whole). Each fight maps an HP to the chance to win from it and the HP a win leaves
(:attr:`dedale.rules.odds_d20_engine.D20Odds.end_states` of the exact DP,
:func:`dedale.rules.odds_d20.d20_odds`, one per line-up and starting HP), so the wounds of
a fight are carried to the next exactly; changes of HP and meals between the fights are
the FF chain's (:class:`dedale.validator.fight_path_chain.HeroChain`).

Approximate (``≈``, saying why), the fight table's chance to leave the fight alive then
used with the HP unchanged: a fight the book acts in, with an assault limit, an escape or
a "when your HP falls to N", an estimated fight, a fight past the exact budget. The book's
potion is not followed between d20 fights (``≈`` when it has one).

Reliques books: :mod:`dedale.validator.fight_path_reliques`. Other procedures: no path;
the report says so in one line (:func:`other_path`'s ``missing``).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.rules.fights import WON
from dedale.rules.odds_d20 import d20_odds
from dedale.validator.fight_path_chain import HeroChain, _start_meals
from dedale.validator.fight_path_reasons import error_reason
from dedale.validator.fights import Hero
from dedale.validator.fights_d20 import SECONDS, STATES, health_threshold


class D20Chain(HeroChain):
    """HeroChain for a d20 hero: the state's STAMINA is his HP, LUCK is unused (0)."""

    SHARED = ("odds", "dealt", "engines", "solved")
    """The caches of solved fights a path's replay shares with the search (searched_paths)."""

    def __init__(
        self,
        ruleset: object,
        hero: Hero,
        character: object,
        rehearsal: object,
        reports: Mapping,
        start_items: frozenset[str] = frozenset(),
        local: object = None,
    ) -> None:
        params = ruleset.fight  # type: ignore[attr-defined]
        self.ruleset, self.hero, self.policy = ruleset, hero, "none"
        self.character, self.rehearsal = character, rehearsal
        self.reports, self.shifts = reports, None
        self.relevant = frozenset()  # a d20 fight reads the kit of the fight table's hero
        self.start_items = frozenset()
        del start_items
        self.calculator = None
        self.luck_stat = None
        self.health_stat = params.health
        self.skill = 0
        self.init_health = character.stats.get(params.health) or 0  # type: ignore[attr-defined]
        self.init_luck = 0
        meals = getattr(ruleset, "meals", None)
        self.heal = meals.heal if meals is not None and meals.stat == params.health else 0
        self.meals0 = _start_meals(ruleset, hero, meals)
        self.tables, self.kernels, self.settings, self.after = {}, {}, {}, {}
        self.potion, self.doses0, self.potion_fights = None, 0, {}
        self.local = local
        self._frozen = None  # HeroChain.frozen's last key (HeroChain.__init__ is not run)
        self.odds: dict[tuple, tuple] = {}  # (line-up, HP) -> (win, ends, reason)
        self.dealt: dict[tuple, dict[int, float]] = {}  # the wounds a fight deals (_solve)
        self.engines: dict[tuple, object] = {}  # a D20Engine per fight with choices
        self.solved: dict[tuple, object] = {}  # (engine, HP) -> D20Odds or why not

    # ------------------------------------------------------------------ the fights

    def fight_after(self, fight: ast.Fight, held, dist):
        return None  # each starting HP through :meth:`kernel`

    def kernel(self, fight: ast.Fight, held: frozenset[str], s: int, luck: int):
        """(win chance, ((HP, 0), chance) after a win, reason it is ≈ or None)."""
        why = self._inexact(fight)
        if why is not None:
            return self._estimated(fight, s, luck, why)
        from dedale.validator.simulate import _lineup

        spec = self.rehearsal.spec(fight)  # type: ignore[attr-defined]
        key = (_lineup(spec, fight), s)
        found = self.odds.get(key)
        if found is None:
            found = self.odds[key] = self._solve(fight, spec, s, luck)
        return found

    def _solve(self, fight: ast.Fight, spec, s: int, luck: int):
        """From HP ``s``. Without a choice that reads the hero's HP (no target to choose:
        one enemy at a time), his HP only decides when he dies: the wounds the fight
        deals are those of a hero who cannot die, so one DP from the highest HP gives
        every lower start (a win from ``s`` with ``s - d`` HP is that fight dealing ``d``
        < ``s``)."""
        from dedale.validator.simulate import _lineup

        ruleset = self.rehearsal.ruleset(fight)  # type: ignore[attr-defined]
        if spec.mode == "together" and len(spec.enemies) > 1:  # the target reads the HP
            found = self._engine_odds(fight, ruleset, spec, s)
            if isinstance(found, Message | str):
                return self._estimated(fight, s, luck, found)
            ends = tuple(((h, luck), p) for h, p in found.end_states.items())
            return found.win_probability, ends, None
        top = max(s, self.init_health)
        key = ("dealt", _nameless(_lineup(spec, fight)), top)  # fights alike share their DP
        dealt = self.dealt.get(key)
        if dealt is None:
            dealt = self._dealt(fight, ruleset, spec, top)
            if isinstance(dealt, Message | str):
                return self._estimated(fight, s, luck, dealt)
            self.dealt[key] = dealt
        won = {s - d: p for d, p in dealt.items() if d < s}
        win = sum(won.values())
        if win <= 0:
            return 0.0, (), None
        return win, tuple(((h, luck), p / win) for h, p in sorted(won.items())), None

    def _dealt(self, fight, ruleset, spec, top: int):
        """``{damage: chance}`` of the wins from HP ``top`` (or why there are none): one
        sweep (rules/odds_d20_dealt.py), else the engine's DP."""
        from dedale.rules.odds_d20_dealt import fight_dealt

        hero = copy.deepcopy(self.character)
        hero.stats[self.health_stat] = top  # type: ignore[attr-defined]
        try:
            found = fight_dealt(ruleset, hero, spec, top, STATES)
        except (DedaleError, ValueError, KeyError, ArithmeticError):
            found = None  # the engine says why
        if found is not None:
            return found
        odds = self._odds(fight, ruleset, spec, top)
        if isinstance(odds, Message | str):
            return odds
        return {top - h: p for (way, h), p in odds.ends.items() if way == WON}

    def _engine_odds(self, fight, ruleset, spec, s: int, threshold: int | None = None):
        """The exact odds from HP ``s`` of a fight whose choices read the hero's HP (the
        target, the escape): one engine per fight, its values shared by every start (each
        start solves only the groups the others did not reach)."""
        from dedale.rules.fight_d20 import fighters
        from dedale.rules.fights import fight_outcomes
        from dedale.rules.odds_d20_engine import D20Engine

        key = (id(fight), spec.escape_after)
        engine = self.engines.get(key)
        if engine is None:
            mixed = fight_outcomes(spec)
            if mixed is None or len(mixed) != 1:  # enemies' dice stats: one DP a start
                return self._odds(fight, ruleset, spec, s, threshold)
            one = mixed[0][0]
            hero, enemies = fighters(ruleset, self.character, one)
            engine = self.engines[key] = D20Engine(
                ruleset.fight, hero, enemies, one, target="best", budget=STATES,
                seconds=SECONDS, threshold=threshold,
            )  # fmt: skip
        solved = self.solved.get((key, s))
        if solved is None:  # once per start, whatever the ways out the path keeps
            engine.start = (0, s, *engine.start[2:])
            try:
                solved = engine.solve()
            except (DedaleError, ValueError, KeyError, ArithmeticError) as error:
                solved = tr("no exact odds ({reason})", reason=error_reason(error))
            self.solved[(key, s)] = solved
        return solved

    def _odds(self, fight, ruleset, spec, s: int, threshold: int | None = None):
        """The exact odds from HP ``s`` (or why there are none)."""
        hero = copy.deepcopy(self.character)
        hero.stats[self.health_stat] = s  # type: ignore[attr-defined]
        try:
            return d20_odds(ruleset, hero, spec, target="best", budget=STATES, seconds=SECONDS,
                            threshold=threshold)  # fmt: skip
        except (DedaleError, ValueError, KeyError, ArithmeticError) as error:
            return tr("no exact odds ({reason})", reason=error_reason(error))

    def _inexact(self, fight: ast.Fight) -> Message | None:
        """Why the chain cannot carry this fight's wounds exactly (None: it can)."""
        if self.init_health <= 0:
            return tr("the ruleset's heroes have no fixed attack or health roll")
        report = self.reports.get(fight.span)
        if report is None or not report.odds or report.estimated_because:
            return tr("an estimated fight (its wounds are not carried on)")
        try:
            spec = self.rehearsal.spec(fight)  # type: ignore[attr-defined]
            acts = fight.allies or self.rehearsal.by_assault(fight)  # type: ignore[attr-defined]
        except (DedaleError, ValueError, KeyError):
            return tr("an estimated fight (its wounds are not carried on)")
        if acts or spec.assault_limit is not None or spec.escape_after is not None:
            return tr("a fight with exits (its wounds are not carried on)")
        if health_threshold(fight, self.ruleset) is not None or fight.threshold is not None:
            return tr("a fight with exits (its wounds are not carried on)")
        return None

    def exit_kernel(self, fight: ast.Fight, ways, held, s: int, luck: int):
        """(chance to leave the fight by one of ``ways``, ((HP, 0), chance), reason it is
        ≈ or None): an assault limit, an escape (taken when it is the better chance to
        leave alive, as the fight table takes it) or a "when your HP falls to N" are the
        DP's own ways out; a fight the book acts in is ≈ (the fight table's chance alive,
        the HP unchanged)."""
        key = ("exits", id(fight), ways, s)
        found = self.odds.get(key)
        if found is None:
            found = self.odds[key] = self._exit_kernel(fight, ways, s, luck)
        return found

    def _exit_kernel(self, fight: ast.Fight, ways, s: int, luck: int):
        """Without the escape among the path's ways the hero never escapes (escaping would
        leave the path: the DP without it is his best); with it, the DP's choices are his
        best when every way out alive goes on along the path, else they are the fight
        table's (to leave alive), and the figure is ≈."""
        why = self._exits_why(fight)
        odds = None
        if why is None:
            ruleset = self.rehearsal.ruleset(fight)  # type: ignore[attr-defined]
            spec = self.rehearsal.spec(fight)  # type: ignore[attr-defined]
            threshold = health_threshold(fight, ruleset)
            taken = {way for way, _ in ways}
            if "escaped" not in taken and spec.escape_after is not None:
                spec = dataclasses.replace(spec, escape_after=None)
            found = self._engine_odds(fight, ruleset, spec, s, threshold)
            if isinstance(found, Message | str):
                why = found
            else:
                odds = found
                alive = {"won", "limit", "threshold", "escaped"} - taken
                if spec.escape_after is not None and any(
                    way in alive and p > 0 for (way, _), p in odds.ends.items()
                ):  # a choice to leave alive that the path does not take
                    why = tr("the escape taken as the fight table takes it (to leave alive)")
        if odds is None:
            win, ends, why = self._estimated(fight, s, luck, why)
            return win, tuple((state, win * p) for state, p in ends), why
        kept: dict[tuple[int, int], float] = {}
        for (way, h), p in odds.ends.items():
            if (way, -1) in ways and h > 0:
                kept[(h, luck)] = kept.get((h, luck), 0.0) + p
        return sum(kept.values()), tuple(sorted(kept.items())), why

    def _exits_why(self, fight: ast.Fight) -> Message | None:
        """Why a fight with exits is not followed exactly (None: its ways out are the
        DP's: won, the assault limit, the escape, "when your HP falls to N")."""
        exits = tr("a fight with exits (its wounds are not carried on)")
        estimated = self._unknown(fight)
        if estimated is not None:
            return estimated
        if fight.allies or fight.rules or fight.win_assaults is not None:
            return exits
        if fight.threshold is not None and health_threshold(fight, self.ruleset) is None:
            return exits
        try:
            if self.rehearsal.by_assault(fight):  # type: ignore[attr-defined]
                return exits
        except (DedaleError, ValueError, KeyError):
            return exits
        return None

    def _unknown(self, fight: ast.Fight) -> Message | None:
        """Why the fight table gives no exact odds this chain could start from (None: it
        does), for the fights with exits (the reliques chain's too)."""
        report = self.reports.get(fight.span)
        if self.init_health <= 0 or report is None or not report.odds:
            return tr("an estimated fight (its wounds are not carried on)")
        if report.estimated_because:
            return tr("an estimated fight (its wounds are not carried on)")
        return None


def other_path(graph, book, reports, seconds=None, reach=None):
    """The path of fights of a book whose fights are not the FF family's: d20 (see the
    module), else a FightPath without heroes whose ``missing`` says why."""
    from dedale.rules.ruleset import D20Fight, ReliquesFight
    from dedale.validator.fight_path import FightPath

    ruleset = getattr(book, "ruleset", None)
    params = getattr(ruleset, "fight", None)
    if params is None:
        return None
    if isinstance(params, ReliquesFight):  # dedale.validator.fight_path_reliques
        from dedale.validator.fight_path_reliques import reliques_path

        return reliques_path(graph, book, reports, seconds, reach)
    if not isinstance(params, D20Fight):
        procedure = getattr(ruleset, "procedure", None)
        missing = tr(
            "not computed for {procedure} fights (no exact chain of their wounds yet)",
            procedure=procedure if isinstance(procedure, str) else "?",
        )
        return FightPath((), missing=missing)
    return _d20_path(graph, book, reports, seconds, reach)


def _d20_path(graph, book, reports, seconds, reach):
    from dedale.validator.fight_path_steps import Segments
    from dedale.validator.fights import hero_profiles, start_kit
    from dedale.validator.simulate import FightSimulator

    ruleset = book.ruleset
    try:
        simulator = FightSimulator(book, hero_profiles(ruleset), 0, kit=start_kit(graph, book))
    except (DedaleError, KeyError, ValueError, AttributeError) as error:
        from dedale.validator.fight_path import FightPath

        return FightPath((), missing=tr("not computed: {reason}", reason=error_reason(error)))
    by_span = {report.fight.span: report for report in reports}
    segments = Segments(ruleset, book)
    potion_reason = None
    if segments.potions.potion is not None:
        potion_reason = tr("the book's potion is not followed between d20 fights")

    def chain_of(hero, character, local=None):
        return D20Chain(ruleset, hero, character, simulator.rehearsal, by_span, local=local)

    return searched_paths(graph, book, segments, seconds, reach, simulator.heroes, chain_of,
                          potion_reason)  # fmt: skip


def searched_paths(graph, book, segments, seconds, reach, heroes, chain_of, potion_reason,
                   extra_of=None):  # fmt: skip
    """The path of fights of a d20 or reliques book: each hero's search (``chain_of(hero,
    character, local)``: his chain), then each level's path replayed by a chain with the
    book's local counters that shares the search's solved fights (the chain's ``SHARED``
    caches: the same fights from the same states); ``extra_of(path)``: more reasons."""
    from dedale.validator.budget import CpuDeadline
    from dedale.validator.fight_path import FightPath, _per_level, _Search
    from dedale.validator.fight_path_counters import LocalCounters

    deadline = CpuDeadline(seconds)  # CPU time: the load cuts nothing
    ranked, chains, characters = [], {}, {}
    bounded = cut = False
    labels = 0
    for hero, character in heroes:
        characters[hero] = character
        chain = chains[hero] = chain_of(hero, character)
        search = _Search(graph, chain, segments, deadline)
        search.names = reach.of(hero.class_name) if reach is not None else None
        search.reach = reach
        path = search.run()
        labels += search.labels
        bounded = bounded or search.bounded
        cut = cut or search.cut
        if path is not None:
            ranked.append((search.found, hero, path))
    found = []
    local = LocalCounters(book)
    for _, hero, path in _per_level(ranked):
        chain = chain_of(hero, characters[hero], local)
        for name in chain.SHARED:
            setattr(chain, name, getattr(chains[hero], name))
        extra = extra_of(path) if extra_of is not None else ()
        found.append(hero_path(chain, hero, path, graph, book, segments, potion_reason, extra))
    if not found:
        return None
    return FightPath(tuple(found), bounded, cut, labels)


def hero_path(chain, hero, path, graph, book, segments, potion_reason, extra=()):
    """A level's path replayed by its exact chain (a ``fight_path.HeroPath``): the figure,
    the fights and the reasons (the start's, ``extra`` ones, the potion's first)."""
    from dedale.validator.fight_path import HeroPath, _start_reasons  # (it imports this)

    steps = tuple(s for number, edge in path for s in segments.of(graph.nodes[number], edge))
    result = chain.best(steps)
    result.reasons[:0] = _start_reasons(graph, book, segments)
    result.reasons.extend(extra)
    if potion_reason is not None:
        result.reasons.insert(0, (graph.start, potion_reason))
    return HeroPath(
        hero.level,
        hero.class_name,
        result.win,
        path[-1][0],
        tuple(number for number, _ in path),
        tuple(result.fights),
        tuple(dict.fromkeys(result.reasons)),
    )


def _nameless(lineup: tuple) -> tuple:
    """A fight's line-up (validator.simulate._lineup) without its enemies' names, which
    change no odds: two fights against the same stats share one DP."""
    fighters, *rest = lineup
    return (tuple(enemy[1:] for enemy in fighters), *rest)
