"""``dedale odds`` for reliques fights: the hero's and the enemies' characteristics by name.

    dedale odds --rules reliques --stats FOR=4,AGL=3,PER=3,CON=3 --items épée,cuir \\
        --foe FOR=3,AGL=2,PER=2,CON=2,arme=2,protection=1 --json

``--stats`` gives the hero's characteristics (his health, when not given, comes from the
ruleset's roll of them: 5 x CON); ``--items`` what he carries (his weapon's damage, his
armour's protection); ``--courage N`` his heroism points (default: the ruleset's starting
value); ``--foe`` an enemy, its stats as a book writes them (``arme``/``weapon``,
``protection``; repeat for several; a value may be dice, ``FOR=1d6``: the odds are the mix
of the line-ups they roll, weighted exactly). ``--threshold N``: the book's "when your
health falls to N or less -> X", a way out; ``--win-assaults N``: "after N assaults won",
another. ``--luck-policy best`` spends heroism points at best
(``none``: never); dodge or parry, the target and an escape are always chosen at best.
``--mode sequence|as-one|best``, ``--survive N`` (an assault limit), ``--escape-after N``.
A missing characteristic is a usage error that names it (never a guess).
"""

from __future__ import annotations

import argparse
import json

from dedale.commands.odds_args import distribution_row, listed, percent, printer
from dedale.errors import DedaleError, GameError, UsageError
from dedale.i18n import tr


def is_reliques(ruleset) -> bool:
    """Whether the ruleset's fights are reliques fights (by its fight parameters' class)."""
    from dedale.rules.ruleset import ReliquesFight

    return isinstance(getattr(ruleset, "fight", None), ReliquesFight)


def _pairs(text: str, option: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        try:
            found[name.strip()] = int(value)
        except ValueError:
            raise UsageError(
                tr("{option} needs NAME=NUMBER pairs, not '{part}'", option=option, part=part)
            ) from None
        if not sep or not name.strip():
            raise UsageError(tr("{option} needs NAME=NUMBER pairs", option=option))
    return found


def _foe(text: str, index: int):
    """An enemy of ``--foe``: NAME=NUMBER pairs, a value may be dice (``FOR=1d6``), rolled
    when the fight starts: the odds mix its line-ups."""
    from dedale.rules.dice import parse_dice
    from dedale.rules.fights import EnemySpec

    stats: dict[str, int] = {}
    dice = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if "d" in value.lower():
            try:
                dice.append((name.strip(), parse_dice(value.strip())))
                continue
            except DedaleError:
                pass
        stats.update(_pairs(part, "--foe"))
    return EnemySpec(f"foe {index}", stats, dice_stats=tuple(dice))


def run(args: argparse.Namespace, ruleset) -> int:
    """Compute and print the exact odds of a reliques fight."""
    from dedale.rules import RandomSource, create_character
    from dedale.rules.fights import FightSpec
    from dedale.rules.odds_reliques import mixed_reliques_odds

    params = ruleset.fight
    if not args.stat or not args.foe:
        raise UsageError(
            tr("a reliques fight needs the hero's --stats and at least one --foe"),
            hint=tr("e.g. --stats FOR=4,AGL=3,PER=3,CON=3 --foe FOR=3,AGL=2,PER=2,CON=2,arme=2"),
        )
    if getattr(args, "first_won", None):
        raise UsageError(tr("{option} is not a way out of a reliques fight", option="--first-won"))
    turns_won = getattr(args, "win_assaults", None)
    if turns_won is not None and turns_won < 1:
        raise UsageError(tr("{option} must be 1 or more", option="--win-assaults"))
    mode = args.mode or ("as-one" if args.as_one else "sequence")
    if mode == "order":
        raise UsageError(
            tr("reliques fights at once are computed with the best target each turn"),
            hint=tr("use --mode best"),
        )
    given = _pairs(",".join(listed(args.stat)), "--stats").items()
    hero_stats = {_stat(ruleset, name, "--stats"): value for name, value in given}
    needed = [*params.initiative, *params.attack, *params.dodge, *params.parry]
    missing = sorted({s for s in needed if s not in hero_stats})
    roll = ruleset.stat(params.health).roll
    derived = roll is not None and not roll.dice
    if params.health not in hero_stats and not derived:
        missing.append(params.health)
    if params.health not in hero_stats and derived:
        missing += sorted({n for n in roll.names if _stat(ruleset, n, "") not in hero_stats})
    if missing:
        raise UsageError(
            tr("--stats is missing {names}", names=", ".join(dict.fromkeys(missing))),
            hint=tr("the fight reads {names}", names=", ".join(dict.fromkeys(needed))),
        )
    fixed = {s.id: 1 for s in ruleset.stats if s.roll is not None and not s.roll.names}
    fixed.update(hero_stats)
    hero = create_character(ruleset, RandomSource(0), None, fixed=fixed)
    hero.items.clear()
    for name in listed(args.item):
        item = ruleset.item(name)
        if item is None:
            raise UsageError(tr("unknown item '{name}'", name=name),
                             hint=tr("items: {names}", names=", ".join(ruleset.items)))  # fmt: skip
        hero.items[item.id] = hero.items.get(item.id, 0) + 1
    counter = ruleset.heroism.get("ignore_loss")
    if args.courage is not None:
        if args.courage < 0 or not counter:
            raise UsageError(tr("--courage needs a number >= 0 and a ruleset with heroism"))
        hero.counters[counter] = args.courage
    enemies = [_foe(text, index) for index, text in enumerate(args.foe, 1)]
    if args.threshold is not None and args.threshold < 0:
        raise UsageError(tr("{option} must be 0 or more", option="--threshold"))
    for value, option in ((args.survive, "--survive"), (args.escape_after, "--escape-after")):
        if value is not None and value < (1 if option == "--survive" else 0):
            raise UsageError(tr("{option} must be 1 or more", option=option))
    spec = FightSpec(
        tuple(enemies), {"sequence": "sequence", "as-one": "as_one", "best": "together"}[mode],
        escape_after=args.escape_after, assault_limit=args.survive,
        attack_bonus=args.attack_bonus,
    )  # fmt: skip
    policy = args.luck_policy or "none"
    try:
        result = mixed_reliques_odds(
            ruleset, hero, spec, luck_policy=policy, threshold=args.threshold,
            win_assaults=turns_won,
        )  # fmt: skip
    except GameError as error:
        raise UsageError(error.message, hint=error.hint) from None
    health = params.health
    if args.json:
        print(json.dumps({
            "ruleset": ruleset.name, "procedure": "reliques", "mode": mode,
            "luck_policy": policy, "hero": dict(sorted(hero.stats.items())),
            "protection": result.protection,
            "heroism": hero.counters.get(counter, 0) if counter else 0,
            "win_probability": result.win_probability, "won": result.won,
            "limit": result.limit, "escaped": result.escaped, "states": result.states,
            "end_states": [
                {"way": way, "health": h, "protection": prot, "heroism": c, "probability": p}
                for (way, h, prot, c), p in sorted(result.end_states.items())
            ],
        }))  # fmt: skip
        return 0
    say = printer(args.lang)
    say(tr("Ruleset: {name}   Heroism policy: {policy}   Mode: {mode}", name=ruleset.name,
           policy=policy, mode=mode))  # fmt: skip
    say(tr("Win probability: {percent} %", percent=percent(result.win_probability)))
    if result.win_probability > 0:
        by_health: dict[int, float] = {}
        for (_, h, _, _), p in result.end_states.items():
            by_health[h] = by_health.get(h, 0.0) + p
        say(tr("{stat} after a win:", stat=ruleset.display_name(health, args.lang)))
        for value in sorted(by_health):
            say(distribution_row(value, by_health[value]))
    return 0


def _stat(ruleset, name: str, option: str) -> str:
    found = ruleset.resolve(name)
    if found is None or found[0] != "stat":
        if not option:
            return name
        raise UsageError(tr("{option}: '{name}' is not a characteristic of this ruleset",
                            option=option, name=name))  # fmt: skip
    return found[1]
