"""Estimated fight odds: a seeded Monte Carlo of the real fight code.

For the fights the rules core has no exact method for ("all at once" fights of the FF
family, d20 and reliques fights, fights with allies), the validator plays each fight
by batches of ``BATCH`` for every hero profile and Luck policy, at least ``MIN_SAMPLES``
times and until the 95% margin of the row is at most ``TARGET_MARGIN`` or ``SAMPLES``
fights are played (a fight always won or lost stops at 100, a coin toss runs
1,000; with many fights to estimate the cap shrinks so that a book simulates at most
``BUDGET`` fights, but never below ``MIN_SAMPLES``), through the interpreter's own code:
the ``FightSpec`` it builds from the paragraph (``dedale.game.rehearsal``), the ruleset it
fights with (``attack with``), and ``run_fight(..., emit=False)`` — or, for fights with
allies, the interpreter's assault-by-assault fight. Nothing here is a second fight engine.

Decisions, fixed and documented (docs/validator.md, "Estimated odds"):
- target: the enemy with the lowest attack stat, then the lowest starting health (ties:
  the first written) among those still standing;
- escape: never; dodge or parry (reliques): dodge when the hero's dodge stats add up to at
  least the parry stats (the rule the procedure applies to enemies);
- the hero: each profile's stats, with its class kit, plus the items the start paragraph
  gives unconditionally (``> take sword`` at the top level of the first paragraph: every
  reader holds them);
- Luck, policy ``none``: never; policy ``best`` (a heuristic, not the optimum): test Luck
  on every wound the hero takes while LUCK >= 7; spend a heroism point to ignore a loss of
  health whenever offered.

Deterministic: the dice of one (line-up, hero, policy) estimate come from
``RandomSource(seed)``, the seed made from ``--seed``, the paragraph of the first fight with
that line-up and the row's index. Estimates are memoised per distinct line-up and hero.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.validator.fights import LEVELS, Hero, Odds

SAMPLES = 1000  # most fights per row
MIN_SAMPLES = 100  # fewest fights per row
BATCH = 50
TARGET_MARGIN = 0.03  # a row stops once its 95% margin is this small (or at SAMPLES)
BUDGET = 50_000  # simulated fights per book at most: the cap per row shrinks with many fights
LUCK_AT_LEAST = 7
Z95 = 1.96
MAX_HEALTH = 1_000  # an enemy's health above this is not simulated (W032 says why)


def margin95(win: float, samples: int) -> float:
    """Half-width of the 95% confidence interval of an estimated chance (Wilson score
    interval, so that 0 and 1 estimates keep a margin)."""
    if samples <= 0:
        return 1.0
    z2 = Z95 * Z95
    centre = (win + z2 / (2 * samples)) / (1 + z2 / samples)
    half = Z95 * math.sqrt(win * (1 - win) / samples + z2 / (4 * samples * samples))
    half /= 1 + z2 / samples
    return max(abs(centre + half - win), abs(win - (centre - half)))


class _Decider:
    """Answers the fight's prompts with the documented fixed rules."""

    def __init__(self, rank: dict[str, int], luck: bool, dodge: bool) -> None:
        self.rank = rank
        self.luck = luck
        self.dodge = dodge
        self.answers: dict[Any, object] = {}  # prompts are immutable: one answer each

    def answer(self, prompt: Any) -> object:
        try:
            return self.answers[prompt]
        except KeyError:
            found = self.answers[prompt] = self._answer(prompt)
            return found
        except TypeError:  # an unhashable prompt
            return self._answer(prompt)

    def _answer(self, prompt: Any) -> object:
        enemies = getattr(prompt, "enemies", None)
        if enemies is not None:  # TargetPrompt
            ranks = [self.rank.get(name, 1 << 30) for name in enemies]
            return ranks.index(min(ranks))
        kind = getattr(prompt, "kind", None)
        if kind == "use_luck":
            if not self.luck:
                return False
            params = dict(prompt.params)
            return params.get("wound") == "taken" and params.get("luck", 0) >= LUCK_AT_LEAST
        if kind == "heroism":
            return self.luck
        if kind == "dodge":
            return self.dodge
        return False  # escape, and anything else: no


class _KeepFirst:
    """Inventory over its limit while the kit is handed out: drop the last item."""

    def answer(self, prompt: Any) -> object:
        return prompt.items[-1]


_KEEP_FIRST = _KeepFirst()


class FightSimulator:
    """Estimates (and memoises) the chance of winning of fights the rules core cannot
    compute exactly, for the validator's hero profiles."""

    def __init__(
        self,
        book: Any,
        profiles: list[Hero],
        seed: int = 0,
        samples: int = SAMPLES,
        kit: tuple[ast.GainItem, ...] = (),
        fights: int = 1,
    ):
        from dedale.game.rehearsal import FightRehearsal
        from dedale.rules import create_character
        from dedale.rules.random_source import RandomSource

        self.book = book
        self.ruleset = book.ruleset
        self.seed = seed
        self.samples = samples
        self.rehearsal = FightRehearsal(book, seed)
        self.cache: dict[tuple, tuple[Odds, ...]] = {}
        self._deaths: frozenset[int] | None = None  # the book's death endings, when needed
        fight = self.ruleset.fight
        self.health = getattr(fight, "health", None)
        self.RandomSource = RandomSource
        luck_test = None
        tests = getattr(self.ruleset, "tests", None) or {}
        if getattr(fight, "luck_test", None):
            luck_test = tests.get(fight.luck_test)
        heroism = getattr(self.ruleset, "heroism", None) or {}
        has_luck = (luck_test is not None and luck_test.cost > 0) or bool(
            heroism.get("ignore_loss")
        )
        self.policies = ("none", "best") if has_luck else ("none",)
        # the cap per row: SAMPLES, or less when the book has many fights to estimate
        # (``fights``: how many; each distinct line-up costs one set of rows)
        rows = max(1, fights * len(profiles) * len(self.policies))
        cap = min(samples, max(MIN_SAMPLES, BUDGET // rows))
        self.samples = max(BATCH, cap // BATCH * BATCH)
        # the heroes: each profile's fixed stats, the others (rolled from other stats,
        # d20 HP = 8+CON) worked out by character creation
        self.heroes = []
        for profile in profiles:
            character = create_character(
                self.ruleset, RandomSource(0), profile.class_name, fixed=dict(profile.stats)
            )
            self.rehearsal.equip(character, kit, _KEEP_FIRST)  # the start paragraph's kit
            stats = tuple(sorted(character.stats.items()))
            self.heroes.append((Hero(profile.level, profile.class_name, stats), character))

    def odds(self, number: int, fight: ast.Fight) -> tuple[Odds, ...]:
        spec = self.rehearsal.spec(fight)
        ruleset = self.rehearsal.ruleset(fight)
        doomed = self._doomed_ways(fight)
        key = (_lineup(spec, fight), doomed)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        self._check_health(spec)
        attack = getattr(ruleset.fight, "attack_stat", None)
        order = sorted(
            range(len(spec.enemies)),
            key=lambda i: (
                spec.enemies[i].stats.get(attack, 0) if attack else 0,
                spec.enemies[i].stats.get(self.health, 0) if self.health else 0,
                i,
            ),
        )
        rank: dict[str, int] = {}
        for position, index in enumerate(order):
            rank.setdefault(spec.enemies[index].name, position)
        results = []
        row = 0
        for hero, character in self.heroes:
            for luck in self.policies:
                seed = (self.seed * 1_000_003 + number) * 1_009 + row
                row += 1
                wins, played = self._play(
                    fight, spec, ruleset, character, luck == "best", rank, seed, doomed
                )
                win = wins / played
                results.append(Odds(hero, luck, win, samples=played, margin=margin95(win, played)))
        found = self.cache[key] = _best_is_a_maximum(results)
        return found

    def _check_health(self, spec: Any) -> None:
        """Refuse to simulate enemies whose health an author typed too large to fight out
        (each simulated fight would last as many assaults)."""
        if self.health is None:
            return
        for enemy in spec.enemies:
            health = enemy.stats.get(self.health, 0)
            if isinstance(health, int) and health > MAX_HEALTH:
                raise GameError(
                    tr(
                        "{name} has {health} {stat}: too much to simulate its fights "
                        "(at most {limit})",
                        name=enemy.name,
                        health=health if health < 10**12 else format(health, ".3g"),
                        stat=self.health,
                        limit=MAX_HEALTH,
                    ),
                    hint=tr("estimated odds are simulated for enemies of ordinary strength"),
                )

    def _doomed_ways(self, fight: ast.Fight) -> tuple:
        """``(the death endings among the paragraphs the fight's rules turn to, the fight's
        limit and escape if they lead to one)``: a way out there is no way out alive
        (validator.death_ways)."""
        from dedale.validator.death_ways import death_endings
        from dedale.validator.graph import build_graph, resolve

        if self._deaths is None:
            self._deaths = death_endings(build_graph(self.book))
        if not self._deaths:
            return ()

        def number(way) -> int | None:
            target = getattr(way, "target", None)
            if not isinstance(target, ast.ParagraphRef):
                return None
            return resolve(self.book, target)

        own = tuple(
            kind for kind, way in (("limit", fight.assault_limit), ("escaped", fight.escape))
            if number(way) in self._deaths
        )  # fmt: skip
        return (self._deaths, own)

    def _play(self, fight, spec, ruleset, character, luck, rank, seed, doomed=()) -> tuple:
        """Play one row's fights; returns (won, played)."""
        rng = self.RandomSource(seed)
        params = ruleset.fight
        dodge_stats, parry_stats = getattr(params, "dodge", ()), getattr(params, "parry", ())
        stats = character.stats
        dodge = sum(stats.get(s, 0) for s in dodge_stats) >= sum(
            stats.get(s, 0) for s in parry_stats
        )
        decider = _Decider(rank, luck, dodge)
        wins = played = 0
        least = min(MIN_SAMPLES, self.samples)
        while played < self.samples:
            if played >= least and margin95(wins / played, played) <= TARGET_MARGIN:
                break
            wins += self._batch(fight, spec, character, rng, decider, doomed)
            played += BATCH
        return wins, played

    def _batch(self, fight, spec, character, rng, decider, doomed=()) -> int:
        """Play ``BATCH`` fights; returns the number won (``doomed``: see
        :meth:`_doomed_ways`)."""
        play = self.rehearsal.play
        deaths, own = doomed if doomed else (frozenset(), ())
        health = self.health
        wins = 0
        for _ in range(BATCH):
            hero = character.copy()
            result = play(fight, spec, hero, rng, decider)
            rng.log.clear()
            # a way out alive counts as a win: the fight leads on (an assault limit, a
            # threshold, an exit: their destinations), as in the exact odds with exits
            alive = health is None or hero.stats.get(health, 1) > 0
            if alive and result.outcome in _WAYS_ON:
                # ... unless it turns to a death ending (validator.death_ways)
                target = self.rehearsal.last_target
                if result.outcome in own and target is None or target in deaths:
                    continue
                wins += 1
        return wins


_WAYS_ON = ("won", "limit", "escaped")


def _best_is_a_maximum(rows: list[Odds]) -> tuple[Odds, ...]:
    """Best Luck is the best policy played, never testing Luck included (issue 14.5): a
    "best" row below its hero's "none" row takes that row's figure, samples and margin."""
    plain = {row.hero: row for row in rows if row.luck == "none"}
    found = []
    for row in rows:
        other = plain.get(row.hero)
        if row.luck == "best" and other is not None and other.win > row.win:
            row = dataclasses.replace(other, luck="best")
        found.append(row)
    return tuple(found)


def _lineup(spec: Any, fight: ast.Fight) -> tuple:
    """What makes two fights the same fight for the estimate (not where they lead)."""

    def fighters(items):
        return tuple(
            (e.name, tuple(sorted(e.stats.items())), e.immune_instant_kill, e.weapon,
             tuple((stat, expr.text) for stat, expr in getattr(e, "dice_stats", ())))
            for e in items
        )  # fmt: skip

    allies = tuple((a.name, a.stats, a.immune_instant_kill) for a in fight.allies)
    return (
        fighters(spec.enemies),
        spec.mode,
        spec.escape_after,
        spec.assault_limit,
        spec.attack_bonus,
        spec.enemy_damage,
        tuple((m.value, m.tags) for m in spec.modifiers),
        fight.attack_stat,
        allies,
        fight.struck,
        fight.threshold is not None and (fight.threshold.stat, fight.threshold.value),
        fight.win_assaults is not None and fight.win_assaults.count,
        id(fight) if fight.assault_table is not None or fight.rules else None,
    )


__all__ = ["LEVELS", "SAMPLES", "FightSimulator", "margin95"]
