"""The rules core: dice, rulesets as data, characters, tests, fights and exact odds.

Typical use (the interpreter)::

    from dedale.rules import (RandomSource, load_ruleset, create_character, run_test,
                              run_fight, FightSpec, EnemySpec, drive, AlwaysNo)

    ruleset = load_ruleset("df-classic", overrides=book_rules, base_dir=book_folder)
    rng = RandomSource(seed)                     # the game's only source of randomness
    hero = create_character(ruleset, rng)        # or class_name=..., fixed={"SKILL": 10}
    result = yield from run_test(ruleset, hero, rng, "luck", modifiers=[(-2, "piloting")])
    spec = FightSpec((EnemySpec("Orc", {"SKILL": 8, "STAMINA": 10}),), mode="single")
    outcome = yield from run_fight(ruleset, hero, rng, spec)   # won/lost/escaped/limit

Every mechanism that rolls dice or needs a decision is a generator: it yields
``dedale.events.Event`` and ``Prompt`` objects, takes answers through ``send()`` and returns
its result. ``drive(gen, decider)`` runs one outside the interpreter (tests, simulations);
``emit=False`` skips building events (prompts are still asked). Names written in books
("endurance", "or", "stamina") resolve with ``ruleset.resolve(name) -> (kind, id)``;
``ruleset.display_name(id, lang)`` gives HABILETÉ / SKILL.
``fight_odds(...)`` computes exact FF-family fight odds by dynamic programming.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dedale.rules.character import BookItem, Character, StatRoll, create_character
    from dedale.rules.checks import (
        TestResult,
        health_malus,
        run_d20_test,
        run_duo_test,
        run_test,
    )
    from dedale.rules.decisions import (
        AlwaysNo,
        AlwaysYes,
        Decider,
        FunctionDecider,
        ScriptedDecider,
        collect,
        drive,
    )
    from dedale.rules.dice import DiceExpr, characteristic_bonus, parse_dice
    from dedale.rules.fights import EnemySpec, FightResult, FightSpec, run_fight
    from dedale.rules.loader import builtin_names, load_ruleset
    from dedale.rules.odds import BestLuckPolicy, OddsResult, OddsTable, fight_odds
    from dedale.rules.random_source import DiceExhaustedError, RandomSource, ScriptedDice
    from dedale.rules.ruleset import Ruleset, fold

# Public name -> submodule. The submodules load on first use (PEP 562): ``dedale validate``
# and the language loader never pay for the fights, tests, odds or the interpreter's events.
_EXPORTS = {
    "AlwaysNo": "decisions",
    "AlwaysYes": "decisions",
    "BestLuckPolicy": "odds",
    "BookItem": "character",
    "Character": "character",
    "Decider": "decisions",
    "DiceExhaustedError": "random_source",
    "DiceExpr": "dice",
    "EnemySpec": "fights",
    "FightResult": "fights",
    "FightSpec": "fights",
    "FunctionDecider": "decisions",
    "OddsResult": "odds",
    "OddsTable": "odds",
    "RandomSource": "random_source",
    "Ruleset": "ruleset",
    "ScriptedDecider": "decisions",
    "ScriptedDice": "random_source",
    "StatRoll": "character",
    "TestResult": "checks",
    "builtin_names": "loader",
    "characteristic_bonus": "dice",
    "collect": "decisions",
    "create_character": "character",
    "drive": "decisions",
    "fight_odds": "odds",
    "fold": "ruleset",
    "health_malus": "checks",
    "load_ruleset": "loader",
    "parse_dice": "dice",
    "run_d20_test": "checks",
    "run_duo_test": "checks",
    "run_fight": "fights",
    "run_test": "checks",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "AlwaysNo",
    "AlwaysYes",
    "BestLuckPolicy",
    "BookItem",
    "Character",
    "Decider",
    "DiceExhaustedError",
    "DiceExpr",
    "EnemySpec",
    "FightResult",
    "FightSpec",
    "FunctionDecider",
    "OddsResult",
    "OddsTable",
    "RandomSource",
    "Ruleset",
    "ScriptedDecider",
    "ScriptedDice",
    "StatRoll",
    "TestResult",
    "builtin_names",
    "characteristic_bonus",
    "collect",
    "create_character",
    "drive",
    "fight_odds",
    "fold",
    "health_malus",
    "load_ruleset",
    "parse_dice",
    "run_d20_test",
    "run_duo_test",
    "run_fight",
    "run_test",
]
