"""The ruleset YAML schema: turns a merged YNode tree into a validated :class:`Ruleset`.

Each section has a reader that checks key names (with "did you mean" hints), types and
cross-references (a test's stat must be a declared stat, a kit item...), raising
RulesetError at the exact position of the bad value.
"""

from __future__ import annotations

from dataclasses import replace

from dedale.i18n import tr
from dedale.limits import AMOUNT, COUNT, DICE_SIDES, MODIFIER, STAT
from dedale.rules.dice import parse_dice
from dedale.rules.ruleset import (
    Ability,
    ClassDef,
    CounterDef,
    D20Test,
    Difficulty,
    DuoTest,
    HealthLevel,
    ItemDef,
    MealRule,
    RollUnderTest,
    Ruleset,
    StatDef,
    fold,
)
from dedale.rules.schema_base import (
    as_bool,
    as_dice,
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
    read_pair,
    ref_check,
    roll_in,
)
from dedale.rules.schema_fight import read_fight
from dedale.rules.yamltree import YNode, did_you_mean

TOP_KEYS = (
    "name", "title", "stats", "counters", "meals", "tests", "duo_test",
    "d20_test", "fight", "classes", "items", "inventory_limit", "worlds", "health", "heroism",
    "tags", "inventory_exempt",
)  # fmt: skip

# A roll-under test only succeeds or fails (criticals belong to the duo and d20 tests).
OUTCOMES = ("success", "failure")

# Which effects each ability trigger accepts (and whether it needs a tag / a value).
ABILITY_EFFECTS: dict[str, dict[str, tuple[bool, bool]]] = {
    "modifier": {"ignore": (True, False), "halve": (True, False)},
    "fight": {"attack_bonus": (False, True), "damage_bonus": (False, True)},
    "unarmed": {"attack_penalty": (False, True)},
    "first_assault": {"no_wound": (False, False), "attack_bonus": (False, True)},
    "first_successful_assault": {"bonus_damage": (False, True)},
}
ITEM_KINDS = ("weapon", "armour", "shield", "other")


# --------------------------------------------------------------------------- sections


def read_stats(node: YNode) -> tuple[StatDef, ...]:
    stats = []
    for ident, child in as_map(node, "stats", "SKILL: {roll: 1d6+6}").items():
        what = tr("stat {name}", name=ident)
        entries = as_map(child, what, "{roll: 1d6+6}")
        check_keys(child, ("names", "aliases", "roll", "may_exceed_initial", "kind"), what)
        stats.append(
            StatDef(
                id=ident,
                names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
                aliases=opt(entries, "aliases", lambda n, w: as_list(n, w, as_str), ()),
                roll=opt(entries, "roll", roll_in(0, STAT.high), None),
                may_exceed_initial=opt(entries, "may_exceed_initial", as_bool, False),
                kind=opt(entries, "kind", as_test_kind, "physical"),
            )
        )
    return tuple(stats)


TEST_KINDS = ("physical", "mental")


def as_test_kind(node: YNode, what: str) -> str:
    """A characteristic's kind: ``physical`` or ``mental``."""
    value = as_str(node, what)
    if value not in TEST_KINDS:
        hint = did_you_mean(value, TEST_KINDS) or ", ".join(TEST_KINDS)
        raise fail(tr("{what} cannot be {value}", what=what, value=repr(value)), node, hint)
    return value


def read_counters(node: YNode) -> tuple[CounterDef, ...]:
    counters = []
    for ident, child in as_map(node, "counters", "gold: {initial: 0}").items():
        what = tr("counter {name}", name=ident)
        entries = as_map(child, what, "{initial: 0}")
        check_keys(child, ("names", "aliases", "initial", "max", "singular"), what)
        counters.append(
            CounterDef(
                id=ident,
                names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
                aliases=opt(entries, "aliases", lambda n, w: as_list(n, w, as_str), ()),
                initial=opt(entries, "initial", int_in(0, AMOUNT.high), 0),
                maximum=opt(entries, "max", int_in(0, AMOUNT.high), None),
                singular=opt(entries, "singular", as_names, {}),
            )
        )
    return tuple(counters)


def read_tests(node: YNode, stat_ids: list[str]) -> dict[str, RollUnderTest]:
    tests = {}
    for ident, child in as_map(node, "tests", "luck: {stat: LUCK, dice: 2d6}").items():
        what = tr("test {name}", name=ident)
        entries = as_map(child, what, "{stat: LUCK, dice: 2d6, cost: 1}")
        check_keys(child, ("names", "stat", "dice", "cost", "outcomes"), what)
        stat_node = need(child, entries, "stat", what, "LUCK")
        tests[ident] = RollUnderTest(
            id=ident,
            names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            stat=ref_check(stat_node, as_str(stat_node, "stat"), stat_ids, "stat"),
            dice=opt(entries, "dice", roll_in(1), parse_dice("2d6")),
            cost=opt(entries, "cost", int_in(0, STAT.high), 0),
            outcomes=opt(entries, "outcomes", read_outcome_names, {}),
        )
    return tests


def read_outcome_names(node: YNode, what: str) -> dict[str, dict[str, str]]:
    """``outcomes: {success: {fr: Chanceux, en: Lucky}, failure: {...}}``."""
    entries = as_map(node, what, "{success: {fr: Chanceux, en: Lucky}}")
    check_keys(node, OUTCOMES, what)
    return {outcome: as_names(child, outcome) for outcome, child in entries.items()}


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
    faces = lambda n, w: as_list(n, w, int_in(1, DICE_SIDES.high))  # noqa: E731
    return DuoTest(
        dice=opt(entries, "dice", roll_in(1), parse_dice("2d6")),
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
        what = tr("difficulty {name}", name=ident)
        level = as_map(child, what, "{value: 10, names: {fr: facile}}")
        check_keys(child, ("value", "names"), what)
        levels.append(
            Difficulty(
                id=ident,
                value=opt(level, "value", int_in(0, 999, allow_none=True), None),
                names=opt(level, "names", as_names, {"fr": ident, "en": ident}),
            )
        )
    action_node = entries.get("action")
    action = "ACTION"
    if action_node is not None:
        action = ref_check(action_node, as_str(action_node, "action"), stat_ids, "stat")
    return D20Test(
        trained=opt(entries, "trained", roll_in(1), parse_dice("1d20")),
        untrained=opt(entries, "untrained", roll_in(1), parse_dice("1d10")),
        critical_margin=opt(entries, "critical_margin", int_in(0, 999), 5),
        action_stat=action,
        difficulties=tuple(levels),
    )


def read_ability(node: YNode, what: str) -> Ability:
    ability = tr("an ability")
    entries = as_map(node, ability, "{when: fight, effect: attack_bonus, value: 1}")
    check_keys(node, ("when", "tag", "effect", "value"), ability)
    when_node = need(node, entries, "when", ability, "fight")
    when = as_str(when_node, "when")
    if when not in ABILITY_EFFECTS:
        hint = did_you_mean(when, tuple(ABILITY_EFFECTS)) or ", ".join(ABILITY_EFFECTS)
        raise fail(tr("unknown ability trigger `{name}`", name=when), when_node, hint)
    effect_node = need(node, entries, "effect", ability, "attack_bonus")
    effect = as_str(effect_node, "effect")
    allowed = ABILITY_EFFECTS[when]
    if effect not in allowed:
        hint = did_you_mean(effect, tuple(allowed)) or tr(
            "`{when}` accepts: {names}", when=when, names=", ".join(allowed)
        )
        message = tr("unknown effect `{effect}` for trigger `{when}`", effect=effect, when=when)
        raise fail(message, effect_node, hint)
    needs_tag, needs_value = allowed[effect]
    tag = opt(entries, "tag", as_str, None)
    if needs_tag and tag is None:
        raise fail(
            tr("effect `{effect}` needs a `tag`", effect=effect),
            node,
            tr("for example: {example}", example="tag: piloting"),
        )
    value = opt(entries, "value", int_in(MODIFIER.low, MODIFIER.high), 0)
    if needs_value and "value" not in entries:
        raise fail(
            tr("effect `{effect}` needs a `value`", effect=effect),
            node,
            tr("for example: {example}", example="value: 1"),
        )
    return Ability(when=when, effect=effect, tag=tag, value=value)


def read_items(node: YNode | None) -> dict[str, ItemDef]:
    items = {}
    if node is None:
        return items
    keys = ("names", "aliases", "kind", "damage", "reduction", "action_malus", "protection",
            "wear", "abilities")  # fmt: skip
    for ident, child in as_map(node, "items", "sword: {kind: weapon}").items():
        what = tr("item {name}", name=ident)
        entries = as_map(child, what, "{kind: weapon}")
        check_keys(child, keys, what)
        kind = opt(entries, "kind", as_str, "other")
        if kind not in ITEM_KINDS:
            hint = did_you_mean(kind, ITEM_KINDS) or ", ".join(ITEM_KINDS)
            raise fail(tr("unknown item kind `{kind}`", kind=kind), entries["kind"], hint)
        items[ident] = ItemDef(
            id=ident,
            names=opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            aliases=opt(entries, "aliases", lambda n, w: as_list(n, w, as_str), ()),
            kind=kind,
            damage=opt(entries, "damage", roll_in(0), None),
            reduction=opt(entries, "reduction", int_in(0, 999), 0),
            action_malus=opt(entries, "action_malus", int_in(MODIFIER.low, MODIFIER.high), 0),
            protection=opt(entries, "protection", int_in(0, 999), 0),
            wear=opt(entries, "wear", int_in(1, COUNT.high, allow_none=True), None),
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
        what = tr("class {name}", name=ident)
        entries = as_map(child, what, "{stats: {SKILL: 1d6+7}}")
        check_keys(child, keys, what)
        stats = {}
        for stat, roll in opt(entries, "stats", as_map, {}, "{SKILL: 1d6+7}").items():
            ref_check(entries["stats"], stat, stat_ids, "stat")
            stats[stat] = as_dice(roll, f"{ident} {stat}", 0, STAT.high)
        counters = {}
        for counter, value in opt(entries, "counters", as_map, {}, "{meals: 10}").items():
            ref_check(entries["counters"], counter, counter_ids, "counter")
            counters[counter] = as_int(value, f"{ident} {counter}", 0, False, AMOUNT.high)
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
        raise fail(
            tr("`where` must be paragraph or anywhere, not {value}", value=repr(where)),
            entries["where"],
            tr("for example: {example}", example="where: anywhere"),
        )
    heal = opt(entries, "heal", int_in(0, STAT.high), 4)
    return MealRule(counter, stat, heal, where == "anywhere")


def read_health(node: YNode | None) -> tuple[HealthLevel, ...]:
    if node is None or node.value is None:
        return ()

    def level(child: YNode, what: str) -> HealthLevel:
        level_what = tr("a health level")
        entries = as_map(child, level_what, "{id: healthy, malus: 0}")
        check_keys(child, ("id", "names", "malus"), level_what)
        ident = as_str(need(child, entries, "id", level_what, "healthy"), "id")
        return HealthLevel(
            ident, opt(entries, "names", as_names, {"fr": ident, "en": ident}),
            opt(entries, "malus", int_in(MODIFIER.low, MODIFIER.high), 0),
        )  # fmt: skip

    entries = as_map(node, "health", "{levels: [...]}")
    check_keys(node, ("levels",), "health")
    return opt(entries, "levels", lambda n, w: as_list(n, w, level), ())


def read_tags(node: YNode | None) -> dict[str, tuple[str, ...]]:
    """``tags: {piloting: [pilotage, ...]}``: other spellings of each modifier tag."""
    if node is None or node.value is None:
        return {}
    entries = as_map(node, "tags", "{piloting: [pilotage]}")
    return {
        ident: as_list(child, tr("tag {name}", name=ident), as_str)
        for ident, child in entries.items()
    }


def with_spellings(
    abilities: tuple[Ability, ...], tags: dict[str, tuple[str, ...]]
) -> tuple[Ability, ...]:
    """The abilities, each knowing every spelling of its tag."""
    return tuple(
        replace(a, spellings=frozenset(fold(t) for t in (a.tag, *tags[a.tag])))
        if a.tag in tags
        else a
        for a in abilities
    )


def build_ruleset(tree: YNode) -> Ruleset:
    """Validate a merged ruleset tree (see docs/rulesets.md for the schema)."""
    ruleset = tr("a ruleset")
    root = as_map(tree, ruleset, "name: my-rules")
    check_keys(tree, TOP_KEYS, ruleset)
    name = as_str(need(tree, root, "name", ruleset, "my-rules"), "name")
    stats = read_stats(need(tree, root, "stats", ruleset, "{SKILL: {roll: 1d6+6}}"))
    if not stats:
        raise fail(
            tr("a ruleset needs at least one stat"),
            root["stats"],
            tr("for example: {example}", example="stats: {SKILL: {roll: 1d6+6}}"),
        )
    stat_ids = [s.id for s in stats]
    counters = opt(root, "counters", lambda n, w: read_counters(n), ())
    counter_ids = [c.id for c in counters]
    tests = opt(root, "tests", lambda n, w: read_tests(n, stat_ids), {})
    items = read_items(root.get("items"))
    fight = read_fight(
        need(tree, root, "fight", ruleset, "{procedure: opposed}"), stat_ids, list(tests)
    )
    heroism: dict[str, str] = {}
    heroism_node = root.get("heroism")
    if heroism_node is not None and heroism_node.value is not None:
        entries = as_map(heroism_node, "heroism", "{physical: courage, mental: volonte}")
        check_keys(heroism_node, ("physical", "mental", "any", "ignore_loss"), "heroism")
        for use, child in entries.items():
            heroism[use] = ref_check(child, as_str(child, use), counter_ids, "counter")
    tags = read_tags(root.get("tags"))
    classes = read_classes(root.get("classes"), stat_ids, counter_ids, list(items))
    if tags:
        classes = {
            ident: replace(klass, abilities=with_spellings(klass.abilities, tags))
            for ident, klass in classes.items()
        }
        items = {
            ident: replace(item, abilities=with_spellings(item.abilities, tags))
            for ident, item in items.items()
        }
    return Ruleset(
        name=name,
        title=opt(root, "title", as_names, {"fr": name, "en": name}),
        stats=stats,
        counters=counters,
        tests=tests,
        duo=read_duo(root.get("duo_test")),
        d20=read_d20(root.get("d20_test"), stat_ids),
        fight=fight,
        classes=classes,
        items=items,
        inventory_limit=opt(root, "inventory_limit", int_in(1, COUNT.high, True), None),
        inventory_exempt=opt(root, "inventory_exempt", _exempt, ()),
        meals=read_meals(root.get("meals"), stat_ids, counter_ids),
        worlds=opt(root, "worlds", as_bool, False),
        health_levels=read_health(root.get("health")),
        heroism=heroism,
        tags=tags,
        source=tree.plain(),
    )


def _exempt(node: YNode, what: str) -> tuple[str, ...]:
    """``inventory_exempt: [ring, key, Tooth-piece]``: item names or tags, folded."""
    return tuple(fold(name) for name in as_list(node, what, as_str))
