"""The ``fight:`` section of a ruleset: one reader per procedure (opposed, d20, reliques)."""

from __future__ import annotations

from dedale import limits
from dedale.errors import RulesetError
from dedale.i18n import tr
from dedale.limits import COUNT, DICE_SIDES, MODIFIER, STAT
from dedale.rules.dice import parse_dice
from dedale.rules.ruleset import D20Fight, FightParams, LuckTable, OpposedFight, ReliquesFight
from dedale.rules.schema_base import (
    as_bool,
    as_int,
    as_list,
    as_map,
    as_names,
    as_str,
    check_keys,
    fail,
    int_in,
    need,
    opt,
    ref_check,
    roll_in,
)
from dedale.rules.yamltree import YNode, did_you_mean

PROCEDURES = ("opposed", "d20", "reliques")


def read_luck_table(node: YNode, what: str) -> LuckTable:
    entries = as_map(node, what, "{lucky: 4, unlucky: 1}")
    check_keys(node, ("lucky", "unlucky"), what)
    lucky = need(node, entries, "lucky", what, "4")
    unlucky = need(node, entries, "unlucky", what, "1")
    return LuckTable(
        as_int(lucky, "lucky", 0, False, STAT.high), as_int(unlucky, "unlucky", 0, False, STAT.high)
    )


def read_fight(node: YNode, stat_ids: list[str], test_ids: list[str]) -> FightParams:
    entries = as_map(node, "fight", "{procedure: opposed}")
    proc_node = need(node, entries, "procedure", "fight", "opposed")
    procedure = as_str(proc_node, "procedure")
    if procedure not in PROCEDURES:
        hint = did_you_mean(procedure, PROCEDURES) or ", ".join(PROCEDURES)
        raise fail(tr("unknown fight procedure `{name}`", name=procedure), proc_node, hint)

    def stat(key: str, default: str) -> str:
        child = entries.get(key)
        if child is None:
            if default not in stat_ids:
                hint = tr(
                    "add `{key}:` naming one of the stats: {names}",
                    key=key, names=", ".join(stat_ids),
                )  # fmt: skip
                message = tr("fight needs `{key}` (there is no stat {name})", key=key, name=default)
                raise fail(message, node, hint)
            return default
        return ref_check(child, as_str(child, key), stat_ids, "stat")

    if procedure == "opposed":
        keys = ("procedure", "health", "attack_stat", "dice", "damage", "luck",
                "instant_kill_on_double", "unarmed_penalty", "together", "escape")  # fmt: skip
        check_keys(node, keys, "fight")
        damage = opt(entries, "damage", as_map, {}, "{to_enemy: 2, to_hero: 2}")
        if "damage" in entries:
            check_keys(entries["damage"], ("to_enemy", "to_hero"), tr("fight damage"))
        luck = opt(entries, "luck", as_map, {}, "{test: luck}")
        luck_test = None
        if luck:
            check_keys(entries["luck"], ("test", "wounding", "wounded"), tr("fight luck"))
            test_node = need(entries["luck"], luck, "test", tr("fight luck"), "luck")
            luck_test = ref_check(test_node, as_str(test_node, "test"), test_ids, "test")
        together = opt(entries, "together", as_map, {}, "{damage: 2}")
        if "together" in entries:
            check_keys(entries["together"], ("damage",), tr("fight together"))
        escape = opt(entries, "escape", as_map, {}, "{damage: 2, luck: true}")
        if "escape" in entries:
            check_keys(entries["escape"], ("damage", "luck"), tr("fight escape"))
        wound = int_in(0, STAT.high)
        to_hero = opt(damage, "to_hero", wound, 2)
        return OpposedFight(
            health=stat("health", "STAMINA"),
            attack_stat=stat("attack_stat", "SKILL"),
            dice=opt(entries, "dice", roll_in(1), parse_dice("2d6")),
            damage_to_enemy=opt(damage, "to_enemy", wound, 2),
            damage_to_hero=to_hero,
            luck_test=luck_test,
            luck_wounding=opt(luck, "wounding", read_luck_table, None),
            luck_wounded=opt(luck, "wounded", read_luck_table, None),
            instant_kill_on_double=opt(entries, "instant_kill_on_double", as_bool, False),
            unarmed_penalty=opt(entries, "unarmed_penalty", int_in(MODIFIER.low, MODIFIER.high), 0),
            together_damage=opt(together, "damage", wound, to_hero),
            escape_damage=opt(escape, "damage", wound, to_hero),
            escape_luck=opt(escape, "luck", as_bool, True),
        )
    if procedure == "d20":
        keys = ("procedure", "health", "attack_stat", "defence_stat", "action_stat", "dice",
                "base_ac", "automatic_lead", "critical_face", "critical_multiplier",
                "unarmed_damage", "enemy_keys")  # fmt: skip
        check_keys(node, keys, "fight")
        return D20Fight(
            enemy_keys=read_enemy_keys(entries.get("enemy_keys"), D20_ENEMY_KEYS),
            enemy_key_names=read_enemy_key_names(entries.get("enemy_keys")),
            health=stat("health", "HP"),
            attack_stat=stat("attack_stat", "FOR"),
            defence_stat=stat("defence_stat", "DEX"),
            action_stat=stat("action_stat", "ACTION"),
            dice=opt(entries, "dice", roll_in(1), parse_dice("1d20")),
            base_ac=opt(entries, "base_ac", int_in(0, 999), 10),
            automatic_lead=opt(entries, "automatic_lead", int_in(1, 999), 10),
            critical_face=opt(entries, "critical_face", int_in(1, DICE_SIDES.high), 20),
            critical_multiplier=opt(entries, "critical_multiplier", int_in(1, 100), 2),
            unarmed_damage=opt(entries, "unarmed_damage", roll_in(0), parse_dice("1d3")),
        )
    keys = ("procedure", "health", "initiative", "attack", "dodge", "parry", "actions_stat",
            "actions", "unarmed_damage", "enemy_keys")  # fmt: skip
    check_keys(node, keys, "fight")

    def duo(key: str, default: tuple[str, str]) -> tuple[str, str]:
        child = entries.get(key)
        if child is None:
            if not set(default) <= set(stat_ids):
                hint = tr(
                    "add `{key}: [A, B]` naming two of the stats: {names}",
                    key=key, names=", ".join(stat_ids),
                )  # fmt: skip
                raise fail(tr("fight needs `{key}`", key=key), node, hint)
            return default
        pair = as_list(child, key, as_str)
        if len(pair) != 2:
            raise fail(
                tr("`{key}` must name two characteristics", key=key),
                child,
                tr("for example: {example}", example="[FOR, AGL]"),
            )
        for name in pair:
            ref_check(child, name, stat_ids, "stat")
        return pair[0], pair[1]

    actions = []
    for up_to, count in opt(entries, "actions", as_map, {}, "{2: 1, 4: 2, 6: 3}").items():
        if not (up_to.isascii() and up_to.isdigit()):
            raise fail(
                tr("`actions` keys are the highest stat value of a band"),
                entries["actions"],
                tr("for example: {example}", example="actions: {2: 1, 4: 2, 6: 3}"),
            )
        where = entries["actions"].key_spans.get(up_to, entries["actions"].span)
        band = limits.number(up_to, limits.STAT, where, RulesetError)
        actions.append((band, as_int(count, "actions", 0, False, COUNT.high)))
    return ReliquesFight(
        enemy_keys=read_enemy_keys(entries.get("enemy_keys"), RELIQUES_ENEMY_KEYS),
        enemy_key_names=read_enemy_key_names(entries.get("enemy_keys")),
        health=stat("health", "HEALTH"),
        initiative=duo("initiative", ("AGL", "PER")),
        attack=duo("attack", ("FOR", "AGL")),
        dodge=duo("dodge", ("AGL", "PER")),
        parry=duo("parry", ("FOR", "AGL")),
        actions_stat=stat("actions_stat", "AGL"),
        actions=tuple(sorted(actions)) or ((2, 1), (4, 2), (6, 3)),
        unarmed_damage=opt(entries, "unarmed_damage", int_in(0, STAT.high), 1),
    )


D20_ENEMY_KEYS = ("armour_class", "attack", "damage", "reduction", "health")
RELIQUES_ENEMY_KEYS = ("weapon", "protection", "health")


def read_enemy_keys(node: YNode | None, allowed: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """``enemy_keys: {attack: [attack, attaque]}``: how books name enemy values.

    A key may also be ``{names: {fr: PV, en: HP}, aliases: [...]}``: its names per language
    come first (messages show the book's), then its aliases. Every spelling is one word,
    since an enemy line is read as ``NAME VALUE`` pairs."""
    keys = {key: (key,) for key in allowed}
    if node is None or node.value is None:
        return keys
    entries = as_map(node, "enemy_keys", "{attack: [attack, attaque]}")
    check_keys(node, allowed, "enemy_keys")
    for key, child in entries.items():
        if child.is_map:
            check_keys(child, ("names", "aliases"), "enemy key")
            names = opt(as_map(child, key, "{names: {fr: PV, en: HP}}"), "names", as_names, {})
            aliases = as_list(child.get("aliases") or YNode(None, child.span), key, as_str)
            spellings = tuple(dict.fromkeys((*names.values(), *aliases)))
        else:
            spellings = as_list(child, key, as_str)
        for spelling in spellings:
            if len(spelling.split()) > 1:
                raise fail(
                    tr(
                        "`{name}` cannot be written on an enemy line: a value's name is one word",
                        name=spelling,
                    ),
                    child,
                    tr("drop it, or write it without spaces"),
                )
        keys[key] = spellings or (key,)
    return keys


def read_enemy_key_names(node: YNode | None) -> dict[str, dict[str, str]]:
    """The names per language of the enemy keys written ``{names: {fr: PV, en: HP}}``."""
    if node is None or not node.is_map:
        return {}
    found: dict[str, dict[str, str]] = {}
    for key, child in node.value.items():
        names = child.get("names") if child.is_map else None
        if names is not None:
            found[key] = as_names(names, key)
    return found
