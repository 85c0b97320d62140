"""Play one paragraph's fight outside a game, exactly as the interpreter would set it up.

The validator estimates the odds of fights the exact method does not cover by simulating
them: it needs the interpreter's own reading of an ``ast.Fight`` (the FightSpec, the
ruleset it is fought with after ``attack with``, the assault-by-assault procedure of fights
with extras) and of the items a paragraph hands out. This class is that public door, so
nothing outside ``dedale.game`` reaches into the runner.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dedale import ast
from dedale.rules import Character, RandomSource, Ruleset, drive, run_fight
from dedale.rules.fights import FightResult, FightSpec, roll_enemies


class FightRehearsal:
    """A quiet game of ``book`` used only to set up and play fights."""

    def __init__(self, book, seed: int = 0) -> None:
        from dedale.game.interpreter import Game

        self._runner = Game(book, seed, {}, quiet=True)._runner
        #: where the last fight played turned to by a rule of its own (an event's ``-> N``,
        #: a threshold, an exit; None: its own win, limit or escape, or nowhere)
        self.last_target: Any = None

    def equip(self, character: Character, kit: Iterable[ast.GainItem], decider: Any) -> None:
        """Give ``character`` the items of ``kit`` as the interpreter would (weapons and their
        effects included); ``decider`` answers a drop prompt if the inventory overflows."""
        self._runner.state.hero = character
        for statement in kit:
            drive(self._runner._gain(statement), decider)

    def spec(self, fight: ast.Fight) -> FightSpec:
        """The FightSpec the interpreter builds for this fight."""
        return self._runner._fight_spec(fight)

    def ruleset(self, fight: ast.Fight) -> Ruleset:
        """The ruleset the fight is fought with (``attack with MAGIC`` changes it)."""
        return self._runner._fight_ruleset(fight)

    def by_assault(self, fight: ast.Fight) -> bool:
        """Whether the interpreter runs this fight assault by assault (fight extras)."""
        return self._runner._by_assault(fight)

    def play(
        self, fight: ast.Fight, spec: FightSpec, hero: Character, rng: RandomSource, decider: Any
    ) -> FightResult:
        """Play the fight once, quietly, answering its prompts with ``decider`` (enemy
        stats written as dice are rolled first, with ``rng``)."""
        spec, _rolls = roll_enemies(spec, rng)
        if bool(fight.allies) or self.by_assault(fight):
            runner = self._runner
            runner.state.hero = hero
            runner.rng = rng
            # each play starts from the same state: the codewords, the book's counters and
            # flags a rule of the fight changes (`when it wins an assault: add 1 to BITES`)
            state = runner.state
            kept = dict(state.codewords), dict(state.counts), set(state.flags)
            try:
                result, self.last_target = drive(runner._fight_by_assault(fight, spec), decider)
            finally:
                state.codewords, state.counts, state.flags = kept
            return result
        self.last_target = None
        return drive(run_fight(self.ruleset(fight), hero, rng, spec, emit=False), decider)
