"""Fights as the printed book prints them: the enemy box ("HABILETÉ 7 ENDURANCE 8") and the
sentences of its exits and options ("Si vous êtes vainqueur, rendez-vous au 50")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale import ast
from dedale.export.document import Enemy, EnemyBox
from dedale.export.sentences_tests import table_clause
from dedale.i18n import french, ntr, tr

if TYPE_CHECKING:
    from dedale.export.sentences import Clauses


def enemy(writer: Clauses, foe: ast.Enemy) -> Enemy:
    """One line of an enemy box: the name (with its group number) and its stats."""
    name = foe.name
    if foe.group is not None and foe.member:  # "Premier RAT", "Second OWL"
        rank = french.ordinal(foe.member, writer.lang, foe.group.feminine)
        name = f"{french.capitalise(rank)} {foe.group.singular}"
    stats = tuple((writer.stat(key), str(value)) for key, value in foe.stats)
    return Enemy(name, stats)


def enemy_box(writer: Clauses, fight: ast.Fight) -> EnemyBox:
    """The boxed line-up, with how several enemies are fought."""
    note = ""
    if len(fight.enemies) > 1:
        if fight.mode == "together":
            note = writer.say(tr("Fight them all at the same time."))
        elif fight.mode == "as_one":
            note = writer.say(tr("Fight them as if they were a single opponent."))
        else:
            note = writer.say(tr("Fight them one at a time."))
    return EnemyBox(tuple(enemy(writer, foe) for foe in fight.enemies), note)


def fight_clause(writer: Clauses, fight: ast.Fight) -> str:
    """The sentences about a fight beside its box (options first, then the exits)."""
    return writer.join(fight_clauses(writer, fight))


def fight_clauses(writer: Clauses, fight: ast.Fight) -> list[str]:
    """Each option and exit of a fight as a clause, in the order a book prints them."""
    out: list[str] = []
    say = writer.say
    for ally in fight.allies:
        stats = " ".join(f"{writer.stat(key)} {value}" for key, value in ally.stats)
        out.append(say(tr("{ally} fights beside you ({stats})", ally=ally.name, stats=stats)))
    if fight.struck == "ally":
        out.append(say(tr("your enemies strike your ally")))
    elif fight.struck == "random":
        out.append(say(tr("at each assault, roll a die to see whom the enemies strike")))
    if fight.attack_stat:
        out.append(
            say(
                tr(
                    "in this fight, use your {stat} instead of your {usual}",
                    stat=writer.stat(fight.attack_stat),
                    usual=writer.stat(_usual_attack(writer)),
                )
            )
        )
    if fight.attack_bonus:
        out.append(_attack(writer, fight.attack_bonus, None))
    for mod in fight.modifiers:
        out.append(_attack(writer, mod.value, mod.condition))
    if fight.enemy_damage is not None:
        out.append(
            say(
                ntr(
                    "each wound your enemy inflicts costs you {count} {health} point",
                    "each wound your enemy inflicts costs you {count} {health} points",
                    fight.enemy_damage,
                    health=writer.stat(_health(writer)),
                    of_name=writer.of(writer.stat(_health(writer))),
                )
            )
        )
    for rule in fight.rules:
        out.append(enemy_rule(writer, fight, rule))
    if fight.assault_table is not None:
        out.append(
            say(tr("at each assault, {table}", table=table_clause(writer, fight.assault_table)))
        )
    if fight.escape is not None:
        where = writer.turn_to(fight.escape.target)
        if fight.escape.after:
            out.append(
                say(
                    ntr(
                        "you may escape after {count} assault: {turn_to}",
                        "you may escape after {count} assaults: {turn_to}",
                        fight.escape.after,
                        turn_to=where,
                    )
                )
            )
        else:
            out.append(say(tr("you may escape at any time: {turn_to}", turn_to=where)))
    if fight.threshold is not None:
        out.append(
            say(
                tr(
                    "if your {stat} falls to {value} or less during this fight, {turn_to}",
                    stat=writer.stat(fight.threshold.stat),
                    value=fight.threshold.value,
                    turn_to=writer.turn_to(fight.threshold.target),
                )
            )
        )
    if fight.assault_limit is not None:
        out.append(
            say(
                ntr(
                    "if you have not won after {count} assault, {turn_to}",
                    "if you have not won after {count} assaults, {turn_to}",
                    fight.assault_limit.assaults,
                    turn_to=writer.turn_to(fight.assault_limit.target),
                )
            )
        )
    if fight.win_assaults is not None:
        out.append(
            say(
                ntr(
                    "as soon as you have won {count} assault, {turn_to}",
                    "as soon as you have won {count} assaults, {turn_to}",
                    fight.win_assaults.count,
                    turn_to=writer.turn_to(fight.win_assaults.target),
                )
            )
        )
    if fight.win is not None:
        out.append(say(tr("if you win, {turn_to}", turn_to=writer.turn_to(fight.win))))
    if fight.lose is not None:
        out.append(say(tr("if you lose, {turn_to}", turn_to=writer.turn_to(fight.lose))))
    return out


def _attack(writer: Clauses, value: int, condition: ast.Condition | None) -> str:
    if value >= 0:
        text = writer.say(tr("add {count} to your Attack Strength in this fight", count=value))
    else:
        text = writer.say(tr("take {count} from your Attack Strength in this fight", count=-value))
    if condition is not None:
        text = writer.say(
            tr("{change} if {condition}", change=text, condition=writer.condition(condition))
        )
    return text


def _health(writer: Clauses) -> str:
    fight = getattr(writer.ruleset, "fight", None)
    return getattr(fight, "health", "STAMINA")


def _usual_attack(writer: Clauses) -> str:
    fight = getattr(writer.ruleset, "fight", None)
    return getattr(fight, "attack_stat", "SKILL")


def _target(writer: Clauses, fight: ast.Fight, rule: ast.EnemyRule) -> str:
    if rule.enemy is None or rule.enemy >= len(fight.enemies):
        return writer.say(tr("your enemy"))
    return named(fight.enemies[rule.enemy])


def named(foe: ast.Enemy) -> str:
    """An enemy with the article its author wrote ("the GHOUL", "la GOULE")."""
    return french.with_article(foe.article, foe.name)


def enemy_rule(writer: Clauses, fight: ast.Fight, rule: ast.EnemyRule) -> str:
    """A rule written under an enemy ("each wound it inflicts costs 3 STAMINA points")."""
    say = writer.say
    foe = _target(writer, fight, rule)
    health = writer.stat(_health(writer))
    if rule.kind == "deals":
        text = say(
            ntr(
                "each wound {enemy} inflicts costs you {count} {health} point",
                "each wound {enemy} inflicts costs you {count} {health} points",
                rule.value,
                enemy=foe,
                health=health,
                of_name=writer.of(health),
            )
        )
    elif rule.kind == "takes":
        if rule.share == "half":
            text = say(tr("each wound you inflict on {enemy} costs it half as much", enemy=foe))
        elif rule.share == "all":
            text = say(tr("a single wound kills {enemy}", enemy=foe))
        else:
            text = say(
                ntr(
                    "each wound you inflict on {enemy} costs it {count} {health} point",
                    "each wound you inflict on {enemy} costs it {count} {health} points",
                    rule.value,
                    enemy=foe,
                    health=health,
                    of_name=writer.of(health),
                )
            )
    elif rule.kind == "attack":
        text = say(
            tr("against {enemy}, {change}", enemy=foe, change=_attack(writer, rule.value, None))
        )
    elif rule.kind == "event":
        text = say(
            tr(
                "{when}, {then}",
                when=_event(writer, rule.on, foe),
                then=writer.clauses(rule.effects),
            )
        )
    elif rule.kind == "exit":
        cond = writer.condition(rule.condition) if rule.condition is not None else "?"
        turn = writer.turn_to(rule.target) if rule.target is not None else ""
        return say(
            tr("as soon as {condition}, stop the fight and {turn_to}", condition=cond, turn_to=turn)
        )
    else:  # first
        turn = writer.turn_to(rule.target) if rule.target is not None else ""
        return say(
            tr("as soon as you win an assault against {enemy}, {turn_to}", enemy=foe, turn_to=turn)
        )
    if rule.condition is not None:
        text = say(
            tr("{change} if {condition}", change=text, condition=writer.condition(rule.condition))
        )
    return text


def _event(writer: Clauses, on: str, foe: str) -> str:
    say = writer.say
    if on == "it_wins":
        return say(tr("each time {enemy} wins an assault", enemy=foe))
    if on == "you_win":
        return say(tr("each time you win an assault against {enemy}", enemy=foe))
    if on == "double":
        return say(tr("each time you roll a double against {enemy}", enemy=foe))
    return say(tr("each time {enemy} wounds you", enemy=foe))


def enemy_stat_clause(writer: Clauses, change: ast.EnemyStatChange) -> str:
    """``its SKILL -2`` in an event: the enemy's stat changes."""
    stat = writer.stat(change.stat)
    if change.amount < 0:
        return writer.say(tr("take {count} from its {stat}", count=-change.amount, stat=stat))
    return writer.say(tr("add {count} to its {stat}", count=change.amount, stat=stat))


def wound_clause(writer: Clauses, wound: ast.WoundRoll) -> str:
    """``wound 1`` / ``roll 1d6, 6: wound 1`` in ``when it wounds you``."""
    base = writer.say(
        ntr("the wound costs you {count} point", "the wound costs you {count} points", wound.value)
    )
    if wound.dice is None:
        return base
    if wound.low == wound.high:
        when = writer.say(tr("on a {low}", low=wound.low))
    else:
        when = writer.say(tr("from {low} to {high}", low=wound.low, high=wound.high))
    return writer.say(
        tr("roll {dice}: {when}, {then}", dice=writer.dice(wound.dice.text), when=when, then=base)
    )
