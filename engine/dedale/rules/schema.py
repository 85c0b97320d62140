"""The ruleset YAML schema: turns a merged YNode tree into a validated :class:`Ruleset`.

Each section has a reader that checks key names (with "did you mean" hints), types and
cross-references (a test's stat must be a declared stat, a kit item...), raising
RulesetError at the exact position of the bad value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from dedale.errors import DiceExpressionError, RulesetError
from dedale.rules.dice import DiceExpr, parse_dice
from dedale.rules.ruleset import (
    Ability,
    ClassDef,
    CounterDef,
    D20Fight,
    D20Test,
    Difficulty,
    DuoTest,
    FightParams,
    HealthLevel,
    ItemDef,
    LuckTable,
    MealRule,
    OpposedFight,
    ReliquesFight,
    RollUnderTest,
    Ruleset,
    StatDef,
)
from dedale.rules.yamltree import YNode, did_you_mean

T = TypeVar("T")

TOP_KEYS = (
    "name", "title", "description", "stats", "counters", "meals", "tests", "duo_test",
    "d20_test", "fight", "classes", "items", "inventory_limit", "worlds", "health", "heroism",
)  # fmt: skip

# Which effects each ability trigger accepts (and whether it needs a tag / a value).
ABILITY_EFFECTS: dict[str, dict[str, tuple[bool, bool]]] = {
    "modifier": {"ignore": (True, False), "halve": (True, False)},
    "fight": {"attack_bonus": (False, True), "damage_bonus": (False, True)},
    "unarmed": {"attack_penalty": (False, True)},
    "first_assault": {"no_wound": (False, False), "attack_bonus": (False, True)},
    "first_successful_assault": {"bonus_damage": (False, True)},
}
ITEM_KINDS = ("weapon", "armour", "shield", "other")
PROCEDURES = ("opposed", "d20", "reliques")


def fail(message: str, node: YNode, hint: str | None = None) -> RulesetError:
    return RulesetError(message, node.span, hint)


def check_keys(node: YNode, allowed: tuple[str, ...], what: str) -> None:
    for key in node.value:
        if key not in allowed:
            span = node.key_spans.get(key, node.span)
            hint = did_you_mean(key, allowed) or f"{what} accepts: {', '.join(allowed)}"
            raise RulesetError(f"unknown key `{key}` in {what}", span, hint)


def as_map(node: YNode, what: str, example: str) -> dict[str, YNode]:
    if node.value is None:
        return {}
    if not node.is_map:
        raise fail(f"{what} must be a mapping", node, f"for example: {example}")
    return node.value


def as_int(node: YNode, what: str, minimum: int | None = None, allow_none: bool = False):
    if node.value is None and allow_none:
        return None
    if isinstance(node.value, bool) or not isinstance(node.value, int):
        raise fail(f"{what} must be a whole number, not {node.value!r}", node, "for example: 2")
    if minimum is not None and node.value < minimum:
        raise fail(f"{what} must be at least {minimum}", node)
    return node.value


def as_bool(node: YNode, what: str) -> bool:
    if not isinstance(node.value, bool):
        raise fail(f"{what} must be true or false, not {node.value!r}", node, "write true or false")
    return node.value


def as_str(node: YNode, what: str) -> str:
    if not isinstance(node.value, str | int) or isinstance(node.value, bool) or node.value == "":
        raise fail(f"{what} must be a name, not {node.value!r}", node)
    return str(node.value)


def as_dice(node: YNode, what: str) -> DiceExpr:
    if isinstance(node.value, int) and not isinstance(node.value, bool):
        return parse_dice(str(node.value))
    if not isinstance(node.value, str):
        raise fail(
            f"{what} must be a dice expression", node, "expected a dice expression like 2d6+12"
        )
    try:
        return parse_dice(node.value)
    except DiceExpressionError as error:
        column = error.span.column if error.span else 1
        span = node.span
        from dedale.span import Span

        raise RulesetError(
            error.message,
            Span(span.file, span.line, span.column + column - 1),
            "expected a dice expression like 2d6+12",
        ) from None


def as_names(node: YNode, what: str) -> dict[str, str]:
    if isinstance(node.value, str):
        return {"fr": node.value, "en": node.value}
    entries = as_map(node, what, "{fr: HABILETÉ, en: SKILL}")
    return {lang: as_str(value, f"{what} ({lang})") for lang, value in entries.items()}


def as_list(node: YNode, what: str, item: Callable[[YNode, str], T]) -> tuple[T, ...]:
    if node.value is None:
        return ()
    if not isinstance(node.value, list):
        raise fail(f"{what} must be a list", node, "for example: [a, b]")
    return tuple(item(child, what) for child in node.value)


def opt(entries: dict[str, YNode], key: str, read: Callable[..., T], default: T, *args) -> T:
    node = entries.get(key)
    if node is None:
        return default
    return read(node, key, *args)


def need(parent: YNode, entries: dict[str, YNode], key: str, what: str, example: str) -> YNode:
    node = entries.get(key)
    if node is None:
        raise fail(f"{what} needs `{key}`", parent, f"add `{key}: {example}`")
    return node


# --------------------------------------------------------------------------- sections


def read_stats(node: YNode) -> tuple[StatDef, ...]:
    stats = []
    for ident, child in as_map(node, "stats", "SKILL: {roll: 1d6+6}").items():
        entries = as_map(child, f"stat {ident}", "{roll: 1d6+6}")
        check_keys(child, ("names", "aliases", "roll", "may_exceed_initial"), f"stat {ident}")
        stats.append(
            StatDef(
                id=ident,
                names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
                aliases=opt(entries, "aliases", lambda n, w: as_list(n, w, as_str), ()),
                roll=opt(entries, "roll", as_dice, None),
                may_exceed_initial=opt(entries, "may_exceed_initial", as_bool, False),
            )
        )
    return tuple(stats)


def read_counters(node: YNode) -> tuple[CounterDef, ...]:
    counters = []
    for ident, child in as_map(node, "counters", "gold: {initial: 0}").items():
        entries = as_map(child, f"counter {ident}", "{initial: 0}")
        check_keys(child, ("names", "aliases", "initial"), f"counter {ident}")
        counters.append(
            CounterDef(
                id=ident,
                names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
                aliases=opt(entries, "aliases", lambda n, w: as_list(n, w, as_str), ()),
                initial=opt(entries, "initial", as_int, 0),
            )
        )
    return tuple(counters)


def ref_check(node: YNode, value: str, known: list[str], what: str) -> str:
    if value not in known:
        hint = did_you_mean(value, known) or f"known {what}s: {', '.join(known) or 'none'}"
        raise fail(f"unknown {what} `{value}`", node, hint)
    return value


def read_tests(node: YNode, stat_ids: list[str]) -> dict[str, RollUnderTest]:
    tests = {}
    for ident, child in as_map(node, "tests", "luck: {stat: LUCK, dice: 2d6}").items():
        entries = as_map(child, f"test {ident}", "{stat: LUCK, dice: 2d6, cost: 1}")
        check_keys(child, ("names", "stat", "dice", "cost"), f"test {ident}")
        stat_node = need(child, entries, "stat", f"test {ident}", "LUCK")
        tests[ident] = RollUnderTest(
            id=ident,
            names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            stat=ref_check(stat_node, as_str(stat_node, "stat"), stat_ids, "stat"),
            dice=opt(entries, "dice", as_dice, parse_dice("2d6")),
            cost=opt(entries, "cost", as_int, 0),
        )
    return tests


def read_pair(node: YNode, what: str) -> tuple[int, int]:
    pair = as_list(node, what, as_int)
    if len(pair) != 2 or pair[0] > pair[1]:
        raise fail(f"{what} must be [low, high]", node, "for example: [2, 12]")
    return pair[0], pair[1]


def read_duo(node: YNode | None) -> DuoTest | None:
    if node is None or node.value is None:
        return None
    entries = as_map(node, "duo_test", "{dice: 2d6}")
    check_keys(
        node,
        ("dice", "target", "difficulty", "critical_success", "critical_failure", "stat_range"),
        "duo_test",
    )
    target = opt(entries, "target", read_pair, (2, 12))
    difficulty = opt(entries, "difficulty", read_pair, (-4, 4))
    stat_range = opt(entries, "stat_range", read_pair, (1, 6))
    faces = lambda n, w: as_list(n, w, as_int)  # noqa: E731
    return DuoTest(
        dice=opt(entries, "dice", as_dice, parse_dice("2d6")),
        target_min=target[0],
        target_max=target[1],
        difficulty_min=difficulty[0],
        difficulty_max=difficulty[1],
        critical_success=opt(entries, "critical_success", faces, (1, 1)),
        critical_failure=opt(entries, "critical_failure", faces, (6, 6)),
        stat_min=stat_range[0],
        stat_max=stat_range[1],
    )


def read_d20(node: YNode | None, stat_ids: list[str]) -> D20Test | None:
    if node is None or node.value is None:
        return None
    entries = as_map(node, "d20_test", "{trained: 1d20, untrained: 1d10}")
    check_keys(
        node, ("trained", "untrained", "critical_margin", "action", "difficulties"), "d20_test"
    )
    levels = []
    for ident, child in opt(entries, "difficulties", as_map, {}, "{easy: {value: 10}}").items():
        level = as_map(child, f"difficulty {ident}", "{value: 10, names: {fr: facile}}")
        check_keys(child, ("value", "names"), f"difficulty {ident}")
        levels.append(
            Difficulty(
                id=ident,
                value=opt(level, "value", as_int, None, None, True),
                names=opt(level, "names", as_names, {"fr": ident, "en": ident}),
            )
        )
    action_node = entries.get("action")
    action = "ACTION"
    if action_node is not None:
        action = ref_check(action_node, as_str(action_node, "action"), stat_ids, "stat")
    return D20Test(
        trained=opt(entries, "trained", as_dice, parse_dice("1d20")),
        untrained=opt(entries, "untrained", as_dice, parse_dice("1d10")),
        critical_margin=opt(entries, "critical_margin", as_int, 5),
        action_stat=action,
        difficulties=tuple(levels),
    )


def read_ability(node: YNode, what: str) -> Ability:
    entries = as_map(node, "an ability", "{when: fight, effect: attack_bonus, value: 1}")
    check_keys(node, ("when", "tag", "effect", "value"), "an ability")
    when_node = need(node, entries, "when", "an ability", "fight")
    when = as_str(when_node, "when")
    if when not in ABILITY_EFFECTS:
        hint = did_you_mean(when, tuple(ABILITY_EFFECTS)) or ", ".join(ABILITY_EFFECTS)
        raise fail(f"unknown ability trigger `{when}`", when_node, hint)
    effect_node = need(node, entries, "effect", "an ability", "attack_bonus")
    effect = as_str(effect_node, "effect")
    allowed = ABILITY_EFFECTS[when]
    if effect not in allowed:
        hint = did_you_mean(effect, tuple(allowed)) or f"`{when}` accepts: {', '.join(allowed)}"
        raise fail(f"unknown effect `{effect}` for trigger `{when}`", effect_node, hint)
    needs_tag, needs_value = allowed[effect]
    tag = opt(entries, "tag", as_str, None)
    if needs_tag and tag is None:
        raise fail(f"effect `{effect}` needs a `tag`", node, "for example: tag: piloting")
    value = opt(entries, "value", as_int, 0)
    if needs_value and "value" not in entries:
        raise fail(f"effect `{effect}` needs a `value`", node, "for example: value: 1")
    return Ability(when=when, effect=effect, tag=tag, value=value)


def read_items(node: YNode | None) -> dict[str, ItemDef]:
    items = {}
    if node is None:
        return items
    keys = ("names", "aliases", "kind", "damage", "reduction", "action_malus", "protection",
            "wear", "abilities")  # fmt: skip
    for ident, child in as_map(node, "items", "sword: {kind: weapon}").items():
        entries = as_map(child, f"item {ident}", "{kind: weapon}")
        check_keys(child, keys, f"item {ident}")
        kind = opt(entries, "kind", as_str, "other")
        if kind not in ITEM_KINDS:
            hint = did_you_mean(kind, ITEM_KINDS) or ", ".join(ITEM_KINDS)
            raise fail(f"unknown item kind `{kind}`", entries["kind"], hint)
        items[ident] = ItemDef(
            id=ident,
            names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            aliases=opt(entries, "aliases", lambda n, w: as_list(n, w, as_str), ()),
            kind=kind,
            damage=opt(entries, "damage", as_dice, None),
            reduction=opt(entries, "reduction", as_int, 0),
            action_malus=opt(entries, "action_malus", as_int, 0),
            protection=opt(entries, "protection", as_int, 0),
            wear=opt(entries, "wear", as_int, None, 1, True),
            abilities=opt(entries, "abilities", lambda n, w: as_list(n, w, read_ability), ()),
        )
    return items


def read_classes(
    node: YNode | None, stat_ids: list[str], counter_ids: list[str], item_ids: list[str]
) -> dict[str, ClassDef]:
    classes = {}
    if node is None:
        return classes
    keys = ("names", "description", "stats", "counters", "kit", "abilities", "trained")
    for ident, child in as_map(node, "classes", "Mercenaire: {stats: ...}").items():
        entries = as_map(child, f"class {ident}", "{stats: {SKILL: 1d6+7}}")
        check_keys(child, keys, f"class {ident}")
        stats = {}
        for stat, roll in opt(entries, "stats", as_map, {}, "{SKILL: 1d6+7}").items():
            ref_check(entries["stats"], stat, stat_ids, "stat")
            stats[stat] = as_dice(roll, f"{ident} {stat}")
        counters = {}
        for counter, value in opt(entries, "counters", as_map, {}, "{meals: 10}").items():
            ref_check(entries["counters"], counter, counter_ids, "counter")
            counters[counter] = as_int(value, f"{ident} {counter}", minimum=0)
        classes[ident] = ClassDef(
            id=ident,
            names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            description=opt(entries, "description", as_names, {}),
            stats=stats,
            counters=counters,
            kit=opt(entries, "kit", lambda n, w: as_list(n, w, as_str), ()),
            abilities=opt(entries, "abilities", lambda n, w: as_list(n, w, read_ability), ()),
            trained=opt(entries, "trained", lambda n, w: as_list(n, w, as_str), ()),
        )
    return classes


def read_luck_table(node: YNode, what: str) -> LuckTable:
    entries = as_map(node, what, "{lucky: 4, unlucky: 1}")
    check_keys(node, ("lucky", "unlucky"), what)
    lucky = need(node, entries, "lucky", what, "4")
    unlucky = need(node, entries, "unlucky", what, "1")
    return LuckTable(as_int(lucky, "lucky", minimum=0), as_int(unlucky, "unlucky", minimum=0))


def read_fight(node: YNode, stat_ids: list[str], test_ids: list[str]) -> FightParams:
    entries = as_map(node, "fight", "{procedure: opposed}")
    proc_node = need(node, entries, "procedure", "fight", "opposed")
    procedure = as_str(proc_node, "procedure")
    if procedure not in PROCEDURES:
        hint = did_you_mean(procedure, PROCEDURES) or ", ".join(PROCEDURES)
        raise fail(f"unknown fight procedure `{procedure}`", proc_node, hint)

    def stat(key: str, default: str) -> str:
        child = entries.get(key)
        if child is None:
            return default
        return ref_check(child, as_str(child, key), stat_ids, "stat")

    if procedure == "opposed":
        keys = ("procedure", "health", "attack_stat", "dice", "damage", "luck",
                "instant_kill_on_double", "unarmed_penalty", "together", "escape")  # fmt: skip
        check_keys(node, keys, "fight")
        damage = opt(entries, "damage", as_map, {}, "{to_enemy: 2, to_hero: 2}")
        if "damage" in entries:
            check_keys(entries["damage"], ("to_enemy", "to_hero"), "fight damage")
        luck = opt(entries, "luck", as_map, {}, "{test: luck}")
        luck_test = None
        if luck:
            check_keys(entries["luck"], ("test", "wounding", "wounded"), "fight luck")
            test_node = need(entries["luck"], luck, "test", "fight luck", "luck")
            luck_test = ref_check(test_node, as_str(test_node, "test"), test_ids, "test")
        together = opt(entries, "together", as_map, {}, "{damage: 2}")
        if "together" in entries:
            check_keys(entries["together"], ("damage",), "fight together")
        escape = opt(entries, "escape", as_map, {}, "{damage: 2, luck: true}")
        if "escape" in entries:
            check_keys(entries["escape"], ("damage", "luck"), "fight escape")
        to_hero = opt(damage, "to_hero", as_int, 2, 0)
        return OpposedFight(
            health=stat("health", "STAMINA"),
            attack_stat=stat("attack_stat", "SKILL"),
            dice=opt(entries, "dice", as_dice, parse_dice("2d6")),
            damage_to_enemy=opt(damage, "to_enemy", as_int, 2, 0),
            damage_to_hero=to_hero,
            luck_test=luck_test,
            luck_wounding=opt(luck, "wounding", read_luck_table, None),
            luck_wounded=opt(luck, "wounded", read_luck_table, None),
            instant_kill_on_double=opt(entries, "instant_kill_on_double", as_bool, False),
            unarmed_penalty=opt(entries, "unarmed_penalty", as_int, 0),
            together_damage=opt(together, "damage", as_int, to_hero, 0),
            escape_damage=opt(escape, "damage", as_int, to_hero, 0),
            escape_luck=opt(escape, "luck", as_bool, True),
        )
    if procedure == "d20":
        keys = ("procedure", "health", "attack_stat", "defence_stat", "action_stat", "dice",
                "base_ac", "automatic_lead", "critical_face", "critical_multiplier",
                "unarmed_damage", "enemy_keys")  # fmt: skip
        check_keys(node, keys, "fight")
        return D20Fight(
            enemy_keys=read_enemy_keys(entries.get("enemy_keys"), D20_ENEMY_KEYS),
            health=stat("health", "HP"),
            attack_stat=stat("attack_stat", "FOR"),
            defence_stat=stat("defence_stat", "DEX"),
            action_stat=stat("action_stat", "ACTION"),
            dice=opt(entries, "dice", as_dice, parse_dice("1d20")),
            base_ac=opt(entries, "base_ac", as_int, 10),
            automatic_lead=opt(entries, "automatic_lead", as_int, 10, 1),
            critical_face=opt(entries, "critical_face", as_int, 20, 1),
            critical_multiplier=opt(entries, "critical_multiplier", as_int, 2, 1),
            unarmed_damage=opt(entries, "unarmed_damage", as_dice, parse_dice("1d3")),
        )
    keys = ("procedure", "health", "initiative", "attack", "dodge", "parry", "actions_stat",
            "actions", "unarmed_damage", "enemy_keys")  # fmt: skip
    check_keys(node, keys, "fight")

    def duo(key: str, default: tuple[str, str]) -> tuple[str, str]:
        child = entries.get(key)
        if child is None:
            return default
        pair = as_list(child, key, as_str)
        if len(pair) != 2:
            raise fail(f"`{key}` must name two characteristics", child, "for example: [FOR, AGL]")
        for name in pair:
            ref_check(child, name, stat_ids, "stat")
        return pair[0], pair[1]

    actions = []
    for up_to, count in opt(entries, "actions", as_map, {}, "{2: 1, 4: 2, 6: 3}").items():
        if not up_to.isdigit():
            raise fail("`actions` keys are the highest stat value of a band", entries["actions"])
        actions.append((int(up_to), as_int(count, "actions", minimum=0)))
    return ReliquesFight(
        enemy_keys=read_enemy_keys(entries.get("enemy_keys"), RELIQUES_ENEMY_KEYS),
        health=stat("health", "HEALTH"),
        initiative=duo("initiative", ("AGL", "PER")),
        attack=duo("attack", ("FOR", "AGL")),
        dodge=duo("dodge", ("AGL", "PER")),
        parry=duo("parry", ("FOR", "AGL")),
        actions_stat=stat("actions_stat", "AGL"),
        actions=tuple(sorted(actions)) or ((2, 1), (4, 2), (6, 3)),
        unarmed_damage=opt(entries, "unarmed_damage", as_int, 1, 0),
    )


D20_ENEMY_KEYS = ("armour_class", "attack", "damage", "reduction", "health")
RELIQUES_ENEMY_KEYS = ("weapon", "protection", "health")


def read_enemy_keys(node: YNode | None, allowed: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """``enemy_keys: {attack: [attack, attaque]}``: how books name enemy values."""
    keys = {key: (key,) for key in allowed}
    if node is None or node.value is None:
        return keys
    entries = as_map(node, "enemy_keys", "{attack: [attack, attaque]}")
    check_keys(node, allowed, "enemy_keys")
    for key, child in entries.items():
        keys[key] = as_list(child, key, as_str) or (key,)
    return keys


def read_meals(node: YNode | None, stat_ids: list[str], counter_ids: list[str]):
    if node is None or node.value is None:
        return None
    entries = as_map(node, "meals", "{counter: meals, heal: 4}")
    check_keys(node, ("counter", "stat", "heal", "where"), "meals")
    counter = opt(entries, "counter", as_str, "meals")
    ref_check(entries.get("counter", node), counter, counter_ids, "counter")
    stat = opt(entries, "stat", as_str, "STAMINA")
    ref_check(entries.get("stat", node), stat, stat_ids, "stat")
    where = opt(entries, "where", as_str, "paragraph")
    if where not in ("paragraph", "anywhere"):
        raise fail(f"`where` must be paragraph or anywhere, not {where!r}", entries["where"])
    return MealRule(counter, stat, opt(entries, "heal", as_int, 4, 0), where == "anywhere")


def read_health(node: YNode | None) -> tuple[HealthLevel, ...]:
    if node is None or node.value is None:
        return ()

    def level(child: YNode, what: str) -> HealthLevel:
        entries = as_map(child, "a health level", "{id: healthy, malus: 0}")
        check_keys(child, ("id", "names", "malus"), "a health level")
        ident = as_str(need(child, entries, "id", "a health level", "healthy"), "id")
        return HealthLevel(
            ident, opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            opt(entries, "malus", as_int, 0),
        )  # fmt: skip

    entries = as_map(node, "health", "{levels: [...]}")
    check_keys(node, ("levels",), "health")
    return opt(entries, "levels", lambda n, w: as_list(n, w, level), ())


def build_ruleset(tree: YNode) -> Ruleset:
    """Validate a merged ruleset tree (see docs/rulesets.md for the schema)."""
    root = as_map(tree, "a ruleset", "name: my-rules")
    check_keys(tree, TOP_KEYS, "a ruleset")
    name = as_str(need(tree, root, "name", "a ruleset", "my-rules"), "name")
    stats = read_stats(need(tree, root, "stats", "a ruleset", "{SKILL: {roll: 1d6+6}}"))
    if not stats:
        raise fail("a ruleset needs at least one stat", root["stats"])
    stat_ids = [s.id for s in stats]
    counters = opt(root, "counters", lambda n, w: read_counters(n), ())
    counter_ids = [c.id for c in counters]
    tests = opt(root, "tests", lambda n, w: read_tests(n, stat_ids), {})
    items = read_items(root.get("items"))
    fight = read_fight(
        need(tree, root, "fight", "a ruleset", "{procedure: opposed}"), stat_ids, list(tests)
    )
    heroism: dict[str, str] = {}
    heroism_node = root.get("heroism")
    if heroism_node is not None and heroism_node.value is not None:
        entries = as_map(heroism_node, "heroism", "{physical: courage, mental: volonte}")
        check_keys(heroism_node, ("physical", "mental", "ignore_loss"), "heroism")
        for use, child in entries.items():
            heroism[use] = ref_check(child, as_str(child, use), counter_ids, "counter")
    return Ruleset(
        name=name,
        title=opt(root, "title", as_names, {"fr": name, "en": name}),
        stats=stats,
        counters=counters,
        tests=tests,
        duo=read_duo(root.get("duo_test")),
        d20=read_d20(root.get("d20_test"), stat_ids),
        fight=fight,
        classes=read_classes(root.get("classes"), stat_ids, counter_ids, list(items)),
        items=items,
        inventory_limit=opt(root, "inventory_limit", as_int, None, 1, True),
        meals=read_meals(root.get("meals"), stat_ids, counter_ids),
        worlds=opt(root, "worlds", as_bool, False),
        health_levels=read_health(root.get("health")),
        heroism=heroism,
        source=tree.plain(),
    )
