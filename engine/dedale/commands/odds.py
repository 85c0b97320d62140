"""``dedale odds``: the exact probability that the hero wins an FF-family fight.

    dedale odds --rules df-classic --hero 10 20 --enemy 8 10
    dedale odds --rules df-classic --hero 8 16 --luck 9 --luck-policy best --enemy 10 12
    dedale odds --rules df48.5 --class Mercenaire --hero 9 20 --enemy 9 12 --json

Several ``--enemy SKILL STAMINA`` are fought one after another (``--mode sequence``, the
default), as one (``--mode as-one``, or ``--as-one``), or all at once (``--mode order``: the
hero strikes the first one standing; ``--mode best``: the best target each assault). A
ruleset with classes needs ``--class`` (a hero's kit and abilities change every figure).
Allies (``--ally SKILL STAMINA``, repeat for several) fight beside the hero; ``--struck``
says whom the enemies strike (``hero``, the default; ``ally``; ``random``): exact odds by
:mod:`dedale.rules.odds_allies`.
Ways out (``--survive 3``: still standing after 3 assaults; ``--win-assaults 2``; ``--first-won``)
add the exact chance to leave the fight alive by any of them (``dedale.rules.odds_exits``;
with allies ``dedale.rules.odds_allies_exits``).

    dedale odds --rules df-classic --hero 9 14 --enemy 12 30 --survive 3
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dedale.commands import odds_args, odds_reliques
from dedale.errors import GameError, RulesetError, UsageError
from dedale.i18n import number, tr

CLI_LUCK_WORK = 300_000  # a fight at once with the best Luck: its scalar fill (FILL_SECONDS too)
CLI_SECONDS = 30.0  # a fight at once with ways out: CPU seconds at most ...
CLI_EXIT_LUCK_WORK = 10_000_000  # ... and its best Luck's work foreseen (odds_group_exits)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument(
        "--rules", default="df-classic", help="built-in ruleset name or path to a YAML file"
    )
    parser.add_argument(
        "--hero", nargs=2, type=int, metavar=("SKILL", "STAMINA"),
        help="the hero's SKILL and STAMINA",
    )  # fmt: skip
    parser.add_argument(
        "--enemy", nargs=2, type=int, action="append", metavar=("SKILL", "STAMINA"),
        help="an enemy (repeat for several, fought one after another)",
    )  # fmt: skip
    parser.add_argument("--luck", type=int, help="the hero's LUCK")
    parser.add_argument(
        "--luck-policy", choices=("none", "best"), default=None,
        help="never test Luck in the fight (none) or when it helps most (best)",
    )  # fmt: skip
    parser.add_argument("--class", dest="class_name", help="character class (kit, abilities)")
    parser.add_argument("--as-one", action="store_true", help="fight the enemies as one")
    parser.add_argument(
        "--mode", choices=("sequence", "as-one", "order", "best"), default=None,
        help="several enemies: one after another (sequence), as one (as-one), or all at once "
        "striking the first one standing (order) or the best target each assault (best)",
    )  # fmt: skip
    parser.add_argument(
        "--ally", nargs=2, type=int, action="append", metavar=("SKILL", "STAMINA"),
        help="an ally fighting beside the hero (repeat for several, in the book's order)",
    )  # fmt: skip
    parser.add_argument(
        "--struck", choices=("hero", "ally", "random"), default=None,
        help="with allies, whom the enemies strike: the hero (default), the ally, or one or "
        "the other at random each assault",
    )  # fmt: skip
    parser.add_argument("--attack-bonus", type=int, default=0, help="hero attack bonus")
    parser.add_argument("--enemy-damage", type=int, help="damage each enemy wound does")
    parser.add_argument(
        "--survive", type=int, metavar="N",
        help="a way out: the hero still stands after N assaults (not won after N -> X)",
    )  # fmt: skip
    parser.add_argument("--win-assaults", type=int, metavar="N", help="a way out: N assaults won")
    parser.add_argument("--first-won", action="store_true", help="a way out: the first assault won")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    odds_args.language_argument(parser)
    odds_args.other_fight_arguments(parser)  # d20 and reliques fights


def run(args: argparse.Namespace) -> int:
    """Compute and print the odds; bad arguments raise UsageError (exit code 2)."""
    from dedale.rules.odds import fight_odds

    if args.hero is None or not args.enemy or args.stat or args.foe:
        ruleset = _load(args.rules)  # d20 and reliques fights: by the ruleset's fight class
        if odds_reliques.is_reliques(ruleset):
            return odds_reliques.run(args, ruleset)
        from dedale.commands import odds_d20

        return odds_d20.run(args, ruleset)  # a d20 fight, or a usage error saying what's missing
    skill, stamina = args.hero
    if skill < 0 or stamina <= 0:
        raise UsageError(tr("--hero needs SKILL >= 0 and STAMINA >= 1"))
    for enemy_skill, enemy_stamina in args.enemy:
        if enemy_skill < 0 or enemy_stamina <= 0:
            raise UsageError(tr("each --enemy needs SKILL >= 0 and STAMINA >= 1"))
    if args.luck is not None and args.luck < 0:
        raise UsageError(tr("--luck must be 0 or more"))
    policy = args.luck_policy or "none"
    if policy == "best" and args.luck is None:
        raise UsageError(tr("--luck-policy best needs --luck"))
    ruleset = _load(args.rules)
    if odds_reliques.is_reliques(ruleset):
        return odds_reliques.run(args, ruleset)  # says what is missing
    if args.class_name is None and ruleset.classes:  # the hero's kit changes every figure
        raise UsageError(
            tr("this ruleset's heroes have a class: say which with --class"),
            hint=tr("classes: {names}", names=", ".join(ruleset.classes)),
        )
    if args.class_name is not None and args.class_name not in ruleset.classes:
        choices = ", ".join(ruleset.classes) or tr("none in this ruleset")
        raise UsageError(
            tr("unknown class '{class_name}'", class_name=args.class_name),
            hint=tr("classes: {choices}", choices=choices),
        )
    mode = args.mode or ("as-one" if args.as_one else "sequence")
    if args.as_one and mode != "as-one":
        raise UsageError(
            tr("--as-one contradicts --mode {mode}", mode=mode),
            hint=tr("give only one of them"),
        )
    at_once = mode in ("order", "best")
    allies = _allies(args)
    try:
        if allies and at_once:  # exact odds with allies at once: rules/odds_allies_group.py
            from dedale.rules.odds import OddsResult

            win = _ally_group(args, ruleset, skill, stamina, policy, allies, None)
            result = OddsResult(win, float("nan"), {}, {})  # the chance only
        elif allies:  # exact odds with allies: dedale.rules.odds_allies
            from dedale.rules.odds_allies import ally_odds

            result = ally_odds(
                ruleset, skill, stamina, [tuple(e) for e in args.enemy], allies,
                struck=args.struck or "hero", luck=args.luck, luck_policy=policy,
                class_name=args.class_name, mode=mode.replace("-", "_"),
                attack_bonus=args.attack_bonus, enemy_damage=args.enemy_damage,
            )  # fmt: skip
        else:
            result = fight_odds(
                ruleset, skill, stamina, [tuple(e) for e in args.enemy],
                luck=args.luck, luck_policy=policy, class_name=args.class_name,
                mode="together" if at_once else mode.replace("-", "_"),
                target=mode if at_once else "best", luck_work=CLI_LUCK_WORK,
                attack_bonus=args.attack_bonus, enemy_damage=args.enemy_damage,
            )  # fmt: skip
    except GameError as error:
        raise UsageError(error.message, hint=error.hint) from None
    way_out = _way_out(args, ruleset, skill, stamina, policy, allies)
    if args.json:
        print(
            json.dumps(
                {
                    "ruleset": ruleset.name,
                    **({} if way_out is None else {"way_out_probability": way_out}),
                    "win_probability": result.win_probability,
                    "expected_assaults": None
                    if result.expected_assaults != result.expected_assaults  # nan: not computed
                    else result.expected_assaults,
                    "stamina_distribution": {
                        str(k): v for k, v in result.stamina_distribution.items()
                    },
                    "luck_distribution": {str(k): v for k, v in result.luck_distribution.items()},
                    "end_states": [
                        {"stamina": h, "luck": lk, "probability": p}
                        for (h, lk), p in result.end_states.items()
                    ],
                    "luck_policy": policy,
                    "mode": mode,
                    **(
                        {"allies": [list(a) for a in allies], "struck": args.struck or "hero"}
                        if allies
                        else {}
                    ),
                }
            )
        )
        return 0
    say, lang = odds_args.printer(args.lang), args.lang
    say(tr("Ruleset: {name}   Luck policy: {policy}   Mode: {mode}", name=ruleset.name,
           policy=policy, mode=mode))  # fmt: skip
    if allies:
        say(tr("Allies: {allies}   the enemies strike: {struck}",
               allies=", ".join(f"{a} {h}" for a, h in allies),
               struck=args.struck or "hero"))  # fmt: skip
    say(tr("Win probability: {percent} %", percent=odds_args.percent(result.win_probability)))
    if way_out is not None:
        say(tr("Chance to leave the fight alive (any way out): {percent} %",
               percent=odds_args.percent(way_out)))  # fmt: skip
    if result.expected_assaults == result.expected_assaults:  # nan: not computed (allies at once)
        say(tr("Expected assaults: {count}", count=number(result.expected_assaults, ".2f")))
    if result.win_probability > 0 and result.stamina_distribution:
        stamina_name = ruleset.display_name(ruleset.fight.health, lang)
        say(tr("{stat} after a win:", stat=stamina_name))
        for value, p in result.stamina_distribution.items():
            say(odds_args.distribution_row(value, p))
        if policy == "best" and result.luck_distribution:
            test = ruleset.tests.get(ruleset.fight.luck_test or "")
            luck_name = ruleset.display_name(test.stat, lang) if test else "LUCK"
            say(tr("{stat} after a win:", stat=luck_name))
            for value, p in result.luck_distribution.items():
                say(odds_args.distribution_row(value, p))
    return 0


def _allies(args: argparse.Namespace) -> list[tuple[int, int]]:
    """The ``--ally SKILL STAMINA`` pairs (checked), or [] with none."""
    if not args.ally:
        if args.struck is not None:
            raise UsageError(tr("--struck needs at least one --ally"))
        return []
    for ally_skill, ally_stamina in args.ally:
        if ally_skill < 0 or ally_stamina < 0:
            raise UsageError(tr("each --ally needs SKILL >= 0 and STAMINA >= 0"))
    return [(int(a), int(h)) for a, h in args.ally]


def _way_out(args: argparse.Namespace, ruleset, skill: int, stamina: int, policy: str,
             allies: list[tuple[int, int]]):  # fmt: skip
    """The exact chance to leave the fight alive by any way out given, or None (none given);
    with allies: rules/odds_allies_exits.py."""
    ways = (args.survive, args.win_assaults, args.escape_after, args.threshold)
    if all(way is None for way in ways) and not args.first_won:
        return None
    if args.escape_after is not None and args.escape_after < 0:
        raise UsageError(tr("{option} must be 0 or more", option="--escape-after"))
    if args.threshold is not None and args.threshold < 1:
        raise UsageError(tr("{name} must be 1 or more", name="--threshold"))
    for name, value in (("--survive", args.survive), ("--win-assaults", args.win_assaults)):
        if value is not None and value < 1:
            raise UsageError(tr("{name} must be 1 or more", name=name))
    from dedale.rules.odds_exits import ExitPlan, exit_odds
    from dedale.validator.fights import class_fight_kit

    enemies = tuple((int(a), int(h), False) for a, h in args.enemy)
    if args.as_one or args.mode == "as-one":
        enemies = ((max(a for a, _, _ in enemies), sum(h for _, h, _ in enemies), False),)
    plan = ExitPlan(
        enemies=enemies, bonus=args.attack_bonus, enemy_damage=args.enemy_damage,
        limit=args.survive, win_assaults=args.win_assaults, first_won=args.first_won,
        escape_after=args.escape_after, threshold=args.threshold,
    )  # fmt: skip
    abilities, armour = class_fight_kit(ruleset, args.class_name)
    try:
        if allies and args.mode in ("order", "best"):
            return _ally_group(args, ruleset, skill, stamina, policy, allies, plan)
        if allies:
            from dedale.rules.odds_allies_exits import ally_exit_odds

            return ally_exit_odds(
                ruleset, skill, stamina, plan, allies, struck=args.struck or "hero",
                luck=args.luck, luck_policy=policy, abilities=abilities, armour=armour,
                seconds=CLI_SECONDS,
            )  # fmt: skip
        if args.mode in ("order", "best"):  # all at once: rules/odds_group_exits.py
            from dedale.rules.odds_group_exits import group_exit_odds

            return group_exit_odds(
                ruleset, skill, stamina, plan, luck=args.luck, luck_policy=policy,
                abilities=abilities, armour=armour, target=args.mode, luck_work=CLI_EXIT_LUCK_WORK,
                seconds=CLI_SECONDS,
            )  # fmt: skip
        return exit_odds(
            ruleset, skill, stamina, plan, luck=args.luck, luck_policy=policy,
            abilities=abilities, armour=armour,
        )  # fmt: skip
    except GameError as error:
        raise UsageError(error.message, hint=error.hint) from None


def _ally_group(args, ruleset, skill: int, stamina: int, policy: str, allies, plan) -> float:
    """The exact chance to win (``plan`` None) or to leave alive a fight at once with
    allies (rules/odds_allies_group.py; the target as ``--mode`` says)."""
    from dedale.rules.odds_allies_group import ally_group_odds
    from dedale.rules.odds_exits import ExitPlan
    from dedale.validator.fights import class_fight_kit

    if plan is None:
        plan = ExitPlan(enemies=tuple((int(a), int(h), False) for a, h in args.enemy),
                        bonus=args.attack_bonus, enemy_damage=args.enemy_damage)  # fmt: skip
    abilities, armour = class_fight_kit(ruleset, args.class_name)
    try:
        return ally_group_odds(
            ruleset, skill, stamina, plan, allies, struck=args.struck or "hero", luck=args.luck,
            luck_policy=policy, abilities=abilities, armour=armour, target=args.mode,
            seconds=CLI_SECONDS,
        )  # fmt: skip
    except GameError as error:
        raise UsageError(error.message, hint=error.hint) from None


def _load(ref: str):
    """The ruleset named by ``--rules`` (a file's folder is its base)."""
    from dedale.rules import load_ruleset

    base = Path.cwd()
    if ref.endswith((".yaml", ".yml")):
        path = Path(ref)
        ref, base = path.name, path.parent.resolve()
    try:
        return load_ruleset(ref, base_dir=base)
    except RulesetError as error:
        if error.message.startswith("unknown ruleset") or "not found" in error.message:
            raise UsageError(error.message, hint=error.hint) from None
        raise
