"""The fight chapter of the rules, from the ruleset's fight parameters (one writer per
fight mechanism of the rules core: opposed, d20, reliques)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale.i18n import ntr, tr
from dedale.rules.ruleset import D20Fight, OpposedFight, ReliquesFight

if TYPE_CHECKING:
    from dedale.export.rules_text import RulesWriter


def fight_rules(writer: RulesWriter) -> list[str]:
    """The sentences of the fight procedure, in order."""
    fight = writer.ruleset.fight
    if isinstance(fight, OpposedFight):
        return opposed(writer, fight)
    if isinstance(fight, D20Fight):
        return d20(writer, fight)
    return reliques(writer, fight)


def _points(writer: RulesWriter, count: int, stat: str) -> str:
    return writer.say(
        ntr(
            "{count} {stat} point",
            "{count} {stat} points",
            count,
            stat=stat,
            of_name=writer.of(stat),
        )
    )


def _bare(writer: RulesWriter, count: int) -> str:
    return writer.say(ntr("{count} point", "{count} points", count))


def opposed(writer: RulesWriter, fight: OpposedFight) -> list[str]:
    say, name = writer.say, writer.stat
    attack, health = name(fight.attack_stat), name(fight.health)
    dice = writer.dice(fight.dice.text) if fight.dice is not None else "2d6"
    out = [
        say(
            tr(
                "write the enemy's {attack} and {health} in a free Encounter Box of your "
                "Adventure Sheet",
                attack=attack,
                health=health,
            )
        ),
        say(
            tr(
                "roll {dice} for your enemy and add its {attack}: this is its Attack Strength",
                dice=dice,
                attack=attack,
            )
        ),
        say(
            tr(
                "roll {dice} for yourself and add your {attack}: this is your Attack Strength",
                dice=dice,
                attack=attack,
            )
        ),
        say(
            tr(
                "if your Attack Strength is higher, you have wounded your enemy: take {points} "
                "from its {health}",
                points=_bare(writer, fight.damage_to_enemy),
                health=health,
            )
        ),
        say(
            tr(
                "if your enemy's Attack Strength is higher, it has wounded you: take {points} "
                "from your {health}",
                points=_bare(writer, fight.damage_to_hero),
                health=health,
            )
        ),
        say(
            tr(
                "if both Attack Strengths are equal, you have parried each other's blows; start "
                "the next assault"
            )
        ),
        say(
            tr(
                "go on, assault after assault, until your {health} or your enemy's falls to 0: "
                "whoever reaches 0 is dead",
                health=health,
            )
        ),
    ]
    if fight.instant_kill_on_double:
        out.append(
            say(
                tr(
                    "if you roll a double for your own Attack Strength, your enemy is killed at "
                    "once (unless the book says it cannot be)"
                )
            )
        )
    if fight.unarmed_penalty:
        out.append(
            say(
                tr(
                    "fighting without a weapon, take {count} from your Attack Strength",
                    count=fight.unarmed_penalty,
                )
            )
        )
    test = writer.ruleset.tests.get(fight.luck_test or "")
    if test is not None and fight.luck_wounding is not None and fight.luck_wounded is not None:
        test_name = test.names.get(writer.lang) or test.id
        lucky = writer.ruleset.outcome_name(test.id, "success", writer.lang) or say(
            tr("successful")
        )
        unlucky = writer.ruleset.outcome_name(test.id, "failure", writer.lang) or say(
            tr("unsuccessful")
        )
        params = {"test": test_name, "lucky": lucky, "unlucky": unlucky}
        out.append(
            say(
                tr(
                    "when you have wounded your enemy, you may test your {test}: if you are "
                    "{lucky}, the wound costs it {good} instead; if you are {unlucky}, only {bad}",
                    good=_points(writer, fight.luck_wounding.lucky, health),
                    bad=_points(writer, fight.luck_wounding.unlucky, health),
                    **params,
                )
            )
        )
        out.append(
            say(
                tr(
                    "when your enemy has wounded you, you may test your {test}: if you are "
                    "{lucky}, the wound costs you {good} instead; if you are {unlucky}, {bad}",
                    good=_points(writer, fight.luck_wounded.lucky, health),
                    bad=_points(writer, fight.luck_wounded.unlucky, health),
                    **params,
                )
            )
        )
    out.append(
        say(
            tr(
                "against several enemies at once, choose the one you fight; each of the others "
                "whose Attack Strength beats yours wounds you for {points}",
                points=_points(writer, fight.together_damage, health),
            )
        )
    )
    escape = say(
        tr(
            "you may escape only when a paragraph offers it; escaping costs you {points}",
            points=_points(writer, fight.escape_damage, health),
        )
    )
    if fight.escape_luck and test is not None:
        escape = say(
            tr(
                "{rule} (you may test your {test} for it as for any wound)",
                rule=escape,
                test=test.names.get(writer.lang) or test.id,
            )
        )
    out.append(escape)
    return out


def d20(writer: RulesWriter, fight: D20Fight) -> list[str]:
    say, name = writer.say, writer.stat
    health = name(fight.health)
    dice = fight.dice.text if fight.dice is not None else "1d20"
    out = [
        say(
            tr(
                "to attack, roll {dice}, add your {action} and the bonus of your {attack}: you "
                "hit when the total reaches the enemy's armour class",
                dice=dice,
                action=name(fight.action_stat),
                attack=name(fight.attack_stat),
            )
        ),
        say(
            tr(
                "your own armour class is {base} plus the bonus of your {defence}",
                base=fight.base_ac,
                defence=name(fight.defence_stat),
            )
        ),
        say(
            tr(
                "a hit costs its target the weapon's damage, less the target's armour, in {health}",
                health=health,
            )
        ),
        say(
            tr(
                "a roll of {face} is a critical hit: its damage is multiplied by {times}",
                face=fight.critical_face,
                times=fight.critical_multiplier,
            )
        ),
    ]
    if fight.unarmed_damage is not None:
        out.append(
            say(tr("without a weapon, your blows do {damage}", damage=fight.unarmed_damage.text))
        )
    out.append(say(tr("whoever falls to 0 {health} is dead", health=health)))
    return out


def reliques(writer: RulesWriter, fight: ReliquesFight) -> list[str]:
    say, name = writer.say, writer.stat

    def pair(stats: tuple[str, str]) -> str:
        return writer.join([name(s) for s in stats])

    health = name(fight.health)
    out = [
        say(
            tr(
                "each round, the fighter with the better test on {stats} acts first",
                stats=pair(fight.initiative),
                of_name=writer.of(pair(fight.initiative)),
            )
        ),
        say(
            tr(
                "to strike, make an action test on {stats}; your enemy may dodge ({dodge}) or "
                "parry ({parry})",
                stats=pair(fight.attack),
                of_name=writer.of(pair(fight.attack)),
                dodge=pair(fight.dodge),
                parry=pair(fight.parry),
            )
        ),
        say(
            tr(
                "a blow that lands costs the weapon's damage, less the target's protection, in "
                "{health}",
                health=health,
            )
        ),
    ]
    for value, actions in fight.actions:
        out.append(
            say(
                ntr(
                    "with a {stat} of {value} or less, you have {count} action per round",
                    "with a {stat} of {value} or less, you have {count} actions per round",
                    actions,
                    stat=name(fight.actions_stat),
                    value=value,
                )
            )
        )
    out.append(
        say(
            tr(
                "without a weapon, your blows cost {count} {health}",
                count=fight.unarmed_damage,
                health=health,
            )
        )
    )
    for level in writer.ruleset.health_levels:
        level_name = level.names.get(writer.lang) or level.id
        if level.malus:
            out.append(
                say(
                    tr(
                        "{level}: {malus:+d} on every physical test",
                        level=level_name,
                        malus=level.malus,
                    )
                )
            )
    return out
