"""``dedale odds`` for d20 fights: the hero's stats and items, the enemies as a book writes
them, and the exact odds of :mod:`dedale.rules.odds_d20`.

    dedale odds --rules d20 --stat FOR=14 --stat DEX=12 --stat ACTION=3 --stat HP=20 \\
        --item sword --item "leather armour" --foe "Guard AC 13 attack +3 damage 1d6 HP 10"
    dedale odds --rules d20 ... --foe "RAT AC 11 attack +1 damage 1d4 HP 4" \\
        --foe "RAT AC 11 attack +1 damage 1d4 HP 5" --mode best --json
    dedale odds --rules d20 ... --foe "KNIGHT AC 14 attack +4 damage 1d8 RD 3 HP 12" \\
        --escape-after 2 --survive 6

Every stat the fight reads (attack, defence, action bonus, health) must be given: a missing
one is a usage error naming it, never a guess. ``--mode``: ``sequence`` (default), ``as-one``,
or at once striking the first standing (``order``) or the best target (``best``).
``--survive N``: the fight stops after N assaults (a way out alive); ``--escape-after N``:
escape is offered after N assaults, taken exactly when it is the better choice;
``--win-assaults N`` and ``--first-won``: the fight ends (a way out alive) once the hero has
won N assaults, or won the first (:mod:`dedale.rules.odds_d20_acting`).
"""

from __future__ import annotations

import argparse
import json
import shlex

from dedale.commands.odds_args import distribution_row, listed, percent, printer
from dedale.errors import GameError, UsageError
from dedale.i18n import number, tr, translate


def run(args: argparse.Namespace, ruleset) -> int:
    """A ``dedale odds`` call without ``--hero`` or ``--enemy``: a d20 fight (the ruleset's
    fight parameters say so), or a usage error saying what is missing."""
    from dedale.rules.fights import FightSpec
    from dedale.rules.odds_d20 import d20_odds
    from dedale.rules.ruleset import D20Fight

    if not isinstance(ruleset.fight, D20Fight):
        raise UsageError(
            tr("this fight needs --hero SKILL STAMINA and --enemy SKILL STAMINA"),
            hint=tr("--stat, --item and --foe are for rulesets with d20 or reliques fights"),
        )
    if args.hero is not None or args.enemy:
        raise UsageError(
            tr("a d20 fight takes the hero's stats with --stat and its enemies with --foe"),
            hint=tr("--hero SKILL STAMINA and --enemy SKILL STAMINA are for FF-family fights"),
        )
    character = _hero(args, ruleset)
    enemies = tuple(_foe(text, ruleset, i) for i, text in enumerate(args.foe))
    if not enemies:
        raise UsageError(tr("name at least one enemy with --foe"))
    mode = args.mode or ("as-one" if args.as_one else "sequence")
    for name, value in (("--survive", args.survive), ("--escape-after", args.escape_after)):
        if value is not None and value < (1 if name == "--survive" else 0):
            raise UsageError(tr("{option} is out of range", option=name))
    if args.luck_policy == "best":
        raise UsageError(tr("d20 fights have no Luck policy"))
    if args.win_assaults is not None and args.win_assaults < 1:
        raise UsageError(tr("{option} is out of range", option="--win-assaults"))
    try:
        spec = FightSpec(
            enemies, mode="together" if mode in ("order", "best") else mode.replace("-", "_"),
            escape_after=args.escape_after, assault_limit=args.survive,
            attack_bonus=args.attack_bonus, enemy_damage=args.enemy_damage,
        )  # fmt: skip
        target = "order" if mode == "order" else "best"
        if args.win_assaults is not None or args.first_won:  # the book's hooks act: their DP
            return _acting(args, ruleset, character, spec, target, mode)
        result = d20_odds(ruleset, character, spec, target=target)
    except GameError as error:
        raise UsageError(error.message, hint=error.hint) from None
    if args.json:
        print(json.dumps(_as_json(ruleset, mode, result)))
        return 0
    say = printer(args.lang)
    say(tr("Ruleset: {name}   Mode: {mode}", name=ruleset.name, mode=mode))
    say(tr("Win probability: {percent} %", percent=percent(result.win_probability)))
    if args.survive is not None or args.escape_after is not None:
        say(tr("Chance to leave the fight alive (any way out): {percent} %",
               percent=percent(result.alive_probability)))  # fmt: skip
    say(tr("Expected assaults: {count}", count=number(result.expected_assaults, ".2f")))
    if result.decisions:
        names = ", ".join(translate(_decision(d), args.lang) for d in result.decisions)
        say(tr("Decisions taken at best: {names}", names=names))
    if result.end_states:
        health = ruleset.display_name(ruleset.fight.health, args.lang)
        say(tr("{stat} after a win:", stat=health))
        for value, p in result.end_states.items():
            say(distribution_row(value, p))
    return 0


def _decision(code: str) -> str:
    """A decision the exact odds took at best (``target``, ``escape``), as the reader says it
    (the JSON keeps the code)."""
    return {"target": tr("the target"), "escape": tr("the escape")}.get(code, code)


def _acting(args: argparse.Namespace, ruleset, character, spec, target: str, mode: str) -> int:
    """``--win-assaults N`` / ``--first-won``: the chance to leave the fight alive by any way
    out, from :mod:`dedale.rules.odds_d20_acting` (the fight with the book's hooks)."""
    from dedale.rules.odds_d20_acting import ActingPlan, d20_acting_odds

    plan = ActingPlan(
        win_assaults=args.win_assaults, first_won=args.first_won, health=ruleset.fight.health
    )
    result = d20_acting_odds(ruleset, character, spec, plan, target=target)
    if args.json:
        print(json.dumps({
            "ruleset": ruleset.name, "procedure": "d20", "mode": mode,
            "alive_probability": result.alive_probability, "states": result.states,
        }))  # fmt: skip
        return 0
    say = printer(args.lang)
    say(tr("Ruleset: {name}   Mode: {mode}", name=ruleset.name, mode=mode))
    say(tr("Chance to leave the fight alive (any way out): {percent} %",
           percent=percent(result.alive_probability)))  # fmt: skip
    return 0


def _as_json(ruleset, mode: str, result) -> dict:
    return {
        "ruleset": ruleset.name,
        "procedure": "d20",
        "mode": mode,
        "win_probability": result.win_probability,
        "limit_probability": result.limit_probability,
        "escape_probability": result.escape_probability,
        "alive_probability": result.alive_probability,
        "expected_assaults": result.expected_assaults,
        "end_states": [{"hp": hp, "probability": p} for hp, p in result.end_states.items()],
        "ends": [{"way": way, "hp": hp, "probability": p} for (way, hp), p in result.ends.items()],
        "decisions": list(result.decisions),
        "states": result.states,
    }


def _hero(args: argparse.Namespace, ruleset):
    """The hero from ``--stat`` and ``--item``: every stat the fight reads must be given."""
    from dedale.rules.character import Character

    params = ruleset.fight
    stats: dict[str, int] = {}
    for text in listed(args.stat):
        name, _, value = text.partition("=")
        found = ruleset.resolve(name.strip())
        if found is None or found[0] != "stat" or not value.strip().lstrip("+-").isdigit():
            raise UsageError(
                tr("--stat {text} is not NAME=VALUE with a stat of the ruleset", text=text),
                hint=tr("stats: {names}", names=", ".join(s.id for s in ruleset.stats)),
            )
        stats[found[1]] = int(value)
    needed = (params.attack_stat, params.defence_stat, params.action_stat, params.health)
    missing = [stat for stat in dict.fromkeys(needed) if stat not in stats]
    if missing:
        raise UsageError(
            tr("the d20 hero needs {stats}: give them with --stat", stats=", ".join(missing)),
            hint=tr("for example --stat {stat}=12", stat=missing[0]),
        )
    if stats[params.health] < 1:
        raise UsageError(tr("the hero's {stat} must be 1 or more", stat=params.health))
    if ruleset.classes:
        raise UsageError(tr("d20 odds take a hero without a class: give his stats and items"))
    items: dict[str, int] = {}
    for name in listed(args.item):
        if ruleset.item(name) is None:
            raise UsageError(
                tr("unknown item '{name}' for this ruleset", name=name),
                hint=tr("items: {names}", names=", ".join(ruleset.items)),
            )
        items[name] = items.get(name, 0) + 1
    full = {stat.id: stats.get(stat.id, 0) for stat in ruleset.stats}
    return Character(stats=dict(full), initial=dict(full), items=items)


def _foe(text: str, ruleset, index: int):
    """One ``--foe``: ``[NAME] KEY VALUE ...`` as a book's enemy line writes it."""
    from dedale.rules.fights import EnemySpec
    from dedale.rules.ruleset import fold

    try:
        words = shlex.split(text)
    except ValueError as error:
        raise UsageError(tr("--foe {text}: {reason}", text=text, reason=str(error))) from None
    name = words.pop(0) if len(words) % 2 else f"enemy {index + 1}"
    stats: dict[str, int] = {}
    weapon = None
    damage_keys = {fold(k) for k in ruleset.fight.enemy_keys.get("damage", ())}
    for key, value in zip(words[::2], words[1::2], strict=True):
        found = ruleset.resolve(key)
        if fold(key) in damage_keys:
            weapon = value
        elif value.lstrip("+-").isdigit():
            stats[found[1] if found and found[0] == "stat" else key] = int(value)
        else:
            raise UsageError(tr("--foe {text}: {key} needs a number", text=text, key=key))
    if not words:
        raise UsageError(tr("--foe {text}: no values", text=text))
    return EnemySpec(name, stats, weapon=weapon)
