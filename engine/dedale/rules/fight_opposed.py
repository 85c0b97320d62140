"""FF-family fights (procedure ``opposed``): attack strengths 2d6 + SKILL, wounds, Luck.

All numbers come from the ruleset's ``fight:`` section and the hero's class/item
abilities: damage each way, Luck tables (applied as differences from the base damage, so
an enemy with a paragraph's own damage keeps the same Luck effect), instant kill on a
double, armour on the first assault with wear, bonus damage on the first successful
assault, attack bonuses, unarmed penalty, escape, assault limit and the three
several-enemy modes. The fight's setup: :mod:`dedale.rules.fight_opposed_setup`; Luck in
the fight: :mod:`dedale.rules.fight_opposed_luck`.
"""

from __future__ import annotations

from dedale.events import (
    AssaultResolved,
    DiceRolled,
    EnemyDefeated,
    FightEnded,
    FightStarted,
    StatChanged,
    TargetPrompt,
    YesNoPrompt,
)
from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.decisions import RulesGen
from dedale.rules.fight_opposed_luck import (
    PROMPTS,
    ally_takes,
    before_luck,
    dies_anyway,
    kills_anyway,
    luck_prompt,
    luck_test,
    luck_wounded,
    offers_luck,
    shown_prompt,
    side_shown,
)
from dedale.rules.fight_opposed_setup import (
    ARMOUR_OFF,
    FightSetup,
    cached_setup,
    first_alive,
    wear_armour,
)
from dedale.rules.fight_state import FightHooks, FightState, winner_of
from dedale.rules.fights import (
    ESCAPED,
    LIMIT,
    LOST,
    MAX_ASSAULTS,
    WON,
    FightResult,
    FightSpec,
    endless_fight,
)
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import Ruleset

__all__ = ["ARMOUR_OFF", "FightSetup", "cached_setup", "opposed_fight", "wear_armour"]


def opposed_fight(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    spec: FightSpec,
    emit: bool,
    hooks: FightHooks | None = None,
) -> RulesGen[FightResult]:
    """The FF-family fight generator (see module docstring); ``hooks`` act between and
    inside assaults (:mod:`dedale.rules.fight_state`)."""
    setup = cached_setup(ruleset, character, spec)
    (
        hero_stat, attack_stat, dice, plain_2d6, instant_kill, to_enemy, first_hit_bonus,
        limit, escape_after, checks, together, enemy_damage, luck_stat, luck_when_wounding,
        luck_when_wounded, fixed_base, alive, current,
    ) = setup.constants  # fmt: skip
    params = setup.params
    armour = setup.armour or (character.items and wear_armour(ruleset, character))
    names, skills, immune = setup.names, setup.skills, setup.immune
    initial_health = setup.health
    health = initial_health[:]
    state = None
    if hooks is not None:  # the book acts in the fight: its own copy of the enemies' skills
        skills = skills[:]
        state = FightState(names, health, skills)
        fixed_base = False  # its rules may change the hero's attack stat between assaults
    if emit:
        yield FightStarted(
            enemies=tuple(
                (n, ((attack_stat, s), (hero_stat, h)))
                for n, s, h in zip(names, skills, health, strict=True)
            ),
            mode=spec.mode,
            allies=tuple(
                (a.name, tuple((k, a.stats[k]) for k in (attack_stat, hero_stat) if k in a.stats))
                for a in getattr(hooks, "allies", ())
            ),
        )
    if not alive:  # nobody left to fight (enemies given without STAMINA)
        if emit:
            yield FightEnded(outcome=WON, assaults=0)
        return _won(0)
    stats = character.stats
    # Package-internal fast path: a plain RandomSource with nothing forced draws the four
    # faces of an assault inline, two faces per uniform draw (same faces, same order, same
    # log as roll2 twice), read from precomputed tables.
    fast = plain_2d6 and type(rng) is RandomSource
    rand = rng._random
    forced = rng._forced
    log_extend = rng.log.extend
    four_faces, sums, doubles, pairs = _FOUR_FACES, _SUMS, _DOUBLES, _PAIRS
    attack_bonus = setup.attack_bonus
    if character.item_effects:  # items the book gave with a bonus to the attack stat
        extra = mods.item_modifiers(character, attack_stat)
        attack_bonus += mods.total(extra, mods.hero_abilities(ruleset, character))
    prompts = PROMPTS
    # The attack stat does not change during a fight unless a Luck test could spend it.
    hero_base = stats[attack_stat] + attack_bonus
    hero_initial = character.initial[hero_stat]
    hit_yet = False
    assault = 0
    enemy_skill = skills[current]
    if fast and fixed_base and not (emit or checks or together or instant_kill or armour or state):
        # The plain quiet fight (most fights of a simulation): the same rules as the loop
        # below without the features that cannot apply; tests check both agree exactly.
        lead = hero_base - enemy_skill
        enemy_hp = health[current]
        while True:
            assault += 1
            if assault > MAX_ASSAULTS:
                raise endless_fight(MAX_ASSAULTS)
            if forced:
                a, b = rng.roll2(6)
                c, d = rng.roll2(6)
                margin = lead + c + d - a - b
            else:
                x = int(rand() * 36)
                y = int(rand() * 36)
                log_extend(four_faces[x * 36 + y])
                margin = lead + sums[y] - sums[x]
            if margin > 0:
                damage = to_enemy
                if not hit_yet:
                    damage += first_hit_bonus
                    hit_yet = True
                if luck_when_wounding and not kills_anyway(setup, damage, enemy_hp):
                    luck = stats[luck_stat]
                    if luck > 0:
                        key = ("dealt", damage, stats[hero_stat], enemy_hp, luck, current, True)
                        if (yield prompts.get(key) or luck_prompt(key)):
                            damage = yield from luck_test(setup, character, rng, damage, True, 0)
                enemy_hp = enemy_hp - damage if damage < enemy_hp else 0
                health[current] = enemy_hp
            elif margin < 0:
                damage = enemy_damage
                if luck_when_wounded and not dies_anyway(setup, damage, stats[hero_stat], state):
                    luck = stats[luck_stat]
                    if luck > 0:
                        key = ("taken", damage, stats[hero_stat], enemy_hp, luck, current, hit_yet)
                        if (yield prompts.get(key) or luck_prompt(key)):
                            damage = yield from luck_test(setup, character, rng, damage, False, 0)
                if damage > 0:
                    old = stats[hero_stat]
                    stats[hero_stat] = old - damage if old > damage else 0
            if stats[hero_stat] <= 0:
                return _result(LOST, assault, names, health)
            if enemy_hp <= 0:
                alive -= 1
                if alive == 0:
                    return _won(assault)
                current = first_alive(health)
                enemy_hp = health[current]
                lead = hero_base - skills[current]
    while True:
        if state is not None and assault:
            state.assault = assault  # (state.current: the enemy of that assault)
            stop = yield from hooks.after_assault(state)
            alive = sum(1 for h in health if h > 0)
            if stop is None and not alive:
                stop = WON
            if stop is not None:
                quiet = not emit or state.quiet_end
                return (yield from _end(stop, assault, names, health, not quiet))
            if health[current] <= 0:
                current = first_alive(health)
            enemy_skill = skills[current]
        if checks:
            if limit is not None and assault >= limit:
                return (yield from _end(LIMIT, assault, names, health, emit))
            if escape_after is not None and assault >= escape_after:
                if (yield YesNoPrompt(kind="escape", params=(("assault", assault),))):
                    damage = params.escape_damage
                    if params.escape_luck:
                        damage = yield from luck_wounded(setup, character, rng, damage, emit)
                    yield from _wound_hero(character, hero_stat, damage, emit)
                    outcome = LOST if stats[hero_stat] <= 0 else ESCAPED
                    return (yield from _end(outcome, assault, names, health, emit))
        assault += 1
        if assault > MAX_ASSAULTS:
            raise endless_fight(MAX_ASSAULTS)
        if together and alive > 1:
            living = [i for i, h in enumerate(health) if h > 0]
            choice = yield TargetPrompt(enemies=tuple(names[i] for i in living))
            valid = isinstance(choice, int) and 0 <= choice < len(living)
            current = living[choice] if valid else living[0]
            enemy_skill = skills[current]
        # Enemy attack strength first, then the hero's (the order of the rules).
        if fast and not forced:  # as roll2: one uniform draw gives two faces
            x = int(rand() * 36)
            y = int(rand() * 36)
            log_extend(four_faces[x * 36 + y])
            enemy_as = enemy_skill + sums[x]
            hero_roll = sums[y]
            double = doubles[y]
            if emit:
                hero_faces = pairs[y]
                enemy_faces = pairs[x]
        elif plain_2d6:
            a, b = rng.roll2(6)
            c, d = rng.roll2(6)
            enemy_as = enemy_skill + a + b
            hero_roll = c + d
            double = c == d
            hero_faces = (c, d)
            enemy_faces = (a, b)
        else:
            roll, enemy_faces = dice.roll(rng)
            enemy_as = enemy_skill + roll
            hero_roll, hero_faces = dice.roll(rng)
            double = len(hero_faces) > 1 and len(set(hero_faces)) == 1
        hero_as = (hero_base if fixed_base else stats[attack_stat] + attack_bonus) + hero_roll
        if state is not None:
            state.current, state.double = current, double
            hero_before = stats[hero_stat]
            hero_as += hooks.attack_bonus(state)
            state.winner = winner_of(hero_as, enemy_as)
        if together:
            others = []
            for index, h in enumerate(health):
                if h > 0 and index != current:
                    if plain_2d6:
                        a, b = rng.roll2(6)
                        others.append((index, skills[index] + a + b))
                    else:
                        others.append((index, skills[index] + dice.roll(rng)[0]))
        if emit:  # the enemy's dice, shown as the hero's are (issue 16.8)
            yield DiceRolled(
                purpose=f"{names[current]}_attack", faces=tuple(enemy_faces),
                total=enemy_as - enemy_skill,
            )  # fmt: skip
            yield DiceRolled(purpose="hero_attack", faces=hero_faces, total=hero_roll)
        if instant_kill and double and not immune[current]:
            taken = health[current]
            health[current] = 0
            if emit:
                yield AssaultResolved(
                    number=assault, enemy=names[current], hero_strength=hero_as,
                    enemy_strength=enemy_as, winner="hero", enemy_damage_taken=taken,
                    note="instant_kill",
                )  # fmt: skip
        elif hero_as > enemy_as:
            damage = to_enemy
            if not hit_yet:
                damage += first_hit_bonus
                hit_yet = True
            left = health[current]
            told = False  # the assault's line said before the Luck question on its wound
            if luck_when_wounding and not kills_anyway(setup, damage, left, hooks, state):
                luck = stats[luck_stat]
                if luck > 0:
                    key = ("dealt", damage, stats[hero_stat], left, luck, current, True)
                    prompt = shown_prompt(prompts.get(key) or luck_prompt(key), hooks, state,
                                          damage)  # fmt: skip
                    if emit:  # the reader is told he hit before he is asked to test Luck
                        told = True
                        yield AssaultResolved(
                            number=assault, enemy=names[current], hero_strength=hero_as,
                            enemy_strength=enemy_as, winner="hero",
                            enemy_damage_taken=min(before_luck(prompt, damage), left),
                        )  # fmt: skip
                    if (yield prompt):
                        damage = yield from luck_test(setup, character, rng, damage, True, emit)
            if state is not None:
                damage = yield from hooks.enemy_wound(state, damage)
            taken = damage if damage < left else left
            health[current] = left - taken
            if emit:
                if not told:
                    yield AssaultResolved(
                        number=assault, enemy=names[current], hero_strength=hero_as,
                        enemy_strength=enemy_as, winner="hero", enemy_damage_taken=taken,
                    )  # fmt: skip
                yield StatChanged(
                    name=hero_stat, old=left, new=left - taken,
                    initial=initial_health[current], who=names[current],
                )  # fmt: skip
        elif enemy_as > hero_as:
            if armour and assault == 1:
                if emit:
                    yield AssaultResolved(
                        number=assault, enemy=names[current], hero_strength=hero_as,
                        enemy_strength=enemy_as, winner="enemy", note="armour",
                    )  # fmt: skip
            else:
                damage = enemy_damage
                # an ally may take the wound (the hook deals it): then no Luck of the hero's
                shield = state is not None and ally_takes(hooks, state)
                hero_hp = stats[hero_stat]
                told = False  # the assault's line said before the Luck question on its wound
                if (
                    luck_when_wounded
                    and not shield
                    and not dies_anyway(setup, damage, hero_hp, state)
                ):
                    luck = stats[luck_stat]
                    if luck > 0:
                        key = ("taken", damage, stats[hero_stat], health[current], luck, current,
                               hit_yet)  # fmt: skip
                        prompt = shown_prompt(prompts.get(key) or luck_prompt(key), hooks, state,
                                              damage)  # fmt: skip
                        if emit:  # the reader is told he is hit before he is asked to test Luck
                            told = True
                            yield AssaultResolved(
                                number=assault, enemy=names[current], hero_strength=hero_as,
                                enemy_strength=enemy_as, winner="enemy",
                                hero_damage_taken=before_luck(prompt, damage),
                            )  # fmt: skip
                        if (yield prompt):
                            damage = yield from luck_test(
                                setup, character, rng, damage, False, emit
                            )
                rescue = getattr(hooks, "rescue", None) if state is not None else None
                if rescue is not None:  # the rules now; an item's rescue after the assault
                    damage = yield from hooks.wound_rules(state, damage)
                elif state is not None:
                    damage = yield from hooks.hero_wound(state, damage)
                if emit and not told:
                    yield AssaultResolved(
                        number=assault, enemy=names[current], hero_strength=hero_as,
                        enemy_strength=enemy_as, winner="enemy", hero_damage_taken=damage,
                        note="ally" if shield else "",
                    )  # fmt: skip
                if rescue is not None:  # a potion is narrated after the wound that needs it
                    damage = yield from rescue(damage)
                if damage > 0:  # a wound: never below 0 (Character.change's rule, inlined)
                    old = stats[hero_stat]
                    stats[hero_stat] = new = old - damage if old > damage else 0
                    if emit:
                        yield StatChanged(name=hero_stat, old=old, new=new, initial=hero_initial)
        elif emit:
            yield AssaultResolved(
                number=assault, enemy=names[current], hero_strength=hero_as,
                enemy_strength=enemy_as, winner="tie",
            )  # fmt: skip
        if together:
            yield from _side_attacks(
                setup, character, rng, spec, emit, others, health, hero_as, assault,
                armour and assault == 1, hit_yet, hooks, state,
            )  # fmt: skip
        if state is not None:
            if instant_kill and double and not immune[current]:
                state.winner = "hero"
            state.hero_damage = max(0, hero_before - stats[hero_stat])
        if stats[hero_stat] <= 0:
            if emit:
                yield FightEnded(outcome=LOST, assaults=assault)
            return _result(LOST, assault, names, health)
        if health[current] <= 0:
            alive -= 1
            if emit:
                yield EnemyDefeated(name=names[current])
            if alive == 0:
                if emit:
                    yield FightEnded(outcome=WON, assaults=assault)
                return _won(assault)
            current = first_alive(health)
            enemy_skill = skills[current]


def _side_attacks(setup, character, rng, spec, emit, others, health, hero_as, assault, first,
                  hit_yet, hooks=None, state=None):  # fmt: skip
    """The other enemies' attacks of a ``together`` assault (each may wound the hero)."""
    params = setup.params
    hero_stat = params.health
    stats = character.stats
    names = setup.names
    for index, strength in others:
        if stats[hero_stat] <= 0:
            break
        if strength > hero_as and not first:
            damage = params.together_damage if spec.enemy_damage is None else spec.enemy_damage
            told = False  # the blow said before the Luck question on its wound
            if state is None or not ally_takes(hooks, state):  # an ally's wound: no Luck
                if emit and offers_luck(setup, character):
                    told = True
                    yield AssaultResolved(
                        number=assault, enemy=names[index], hero_strength=hero_as,
                        enemy_strength=strength, winner="enemy",
                        hero_damage_taken=side_shown(hooks, state, index, damage),
                        note="side_attack",
                    )  # fmt: skip
                damage = yield from luck_wounded(
                    setup, character, rng, damage, emit, health[index], (index, hit_yet)
                )
            if state is not None:  # that enemy's own rules ("it deals 4")
                target, state.current = state.current, index
                damage = yield from hooks.hero_wound(state, damage)
                state.current = target
            if emit and not told:
                yield AssaultResolved(
                    number=assault, enemy=names[index], hero_strength=hero_as,
                    enemy_strength=strength, winner="enemy", hero_damage_taken=damage,
                    note="side_attack",
                )  # fmt: skip
            yield from _wound_hero(character, hero_stat, damage, emit)
        elif emit:
            note = "armour" if strength > hero_as else "dodged"
            yield AssaultResolved(
                number=assault, enemy=names[index], hero_strength=hero_as,
                enemy_strength=strength, winner="tie", note=note,
            )  # fmt: skip


# Two 2d6 faces from one uniform draw x in 0..35 (as RandomSource.roll2): the pair, its
# sum, whether it is a double, and the four faces of an assault (enemy x, hero y) as logged.
_PAIRS = tuple((x // 6 + 1, x % 6 + 1) for x in range(36))
_SUMS = tuple(a + b for a, b in _PAIRS)
_DOUBLES = tuple(a == b for a, b in _PAIRS)
_FOUR_FACES = tuple(p + q for p in _PAIRS for q in _PAIRS)


def _wound_hero(character: Character, stat: str, damage: int, emit: bool):
    if damage <= 0:
        return
    old, new = character.change(stat, -damage)
    if emit:
        yield StatChanged(name=stat, old=old, new=new, initial=character.initial[stat])


def _end(outcome: str, assaults: int, names, health, emit: bool):
    if emit:
        yield FightEnded(outcome=outcome, assaults=assaults)
    return _result(outcome, assaults, names, health)


_WON_RESULTS: dict[int, FightResult] = {}


def _won(assaults: int) -> FightResult:
    """A won fight's result (immutable, so one per assault count is shared)."""
    result = _WON_RESULTS.get(assaults)
    if result is None:
        result = _WON_RESULTS[assaults] = FightResult(WON, assaults, ())
    return result


def _result(outcome: str, assaults: int, names, health) -> FightResult:
    if outcome == WON:
        return _won(assaults)
    left = tuple((n, h) for n, h in zip(names, health, strict=True) if h > 0)
    return FightResult(outcome, assaults, left)
