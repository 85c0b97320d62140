"""Luck in an FF-family fight (procedure ``opposed``, :mod:`dedale.rules.fight_opposed`): the
``use_luck`` prompts, when Luck is not offered (a wound that kills or is killed whatever Luck
gives, an ally's wound), and the Luck test that shifts a wound by the ruleset's table."""

from __future__ import annotations

from dedale.events import DiceRolled, StatChanged, TestResolved, YesNoPrompt

PROMPTS: dict[tuple, YesNoPrompt] = {}


def luck_prompt(key: tuple) -> YesNoPrompt:
    """The ``use_luck`` prompt for a state key (wound, damage, hero, enemy, luck,
    enemy_index, hit); prompts are immutable, so equal ones are shared (simulations ask
    millions of them)."""
    prompt = PROMPTS.get(key)
    if prompt is None:
        if len(PROMPTS) > 20_000:
            PROMPTS.clear()
        names = ("wound", "damage", "hero", "enemy", "luck", "enemy_index", "hit")
        prompt = PROMPTS[key] = YesNoPrompt(
            kind="use_luck", params=tuple(zip(names, key, strict=True))
        )
    return prompt


def shown_prompt(prompt: YesNoPrompt, hooks, state, damage: int) -> YesNoPrompt:
    """The Luck prompt with the damage the wound will really do when the book's rules under
    the enemy change it (``it deals 3``): ``shown`` for the players; ``damage`` keeps the
    fight's own value, which the best-Luck policy (rules/odds.py) reads."""
    shown_damage = getattr(hooks, "shown_damage", None) if state is not None else None
    if shown_damage is None:
        return prompt
    shown = shown_damage(state, dict(prompt.params)["wound"], damage)
    if shown == damage:
        return prompt
    return YesNoPrompt(kind=prompt.kind, params=(*prompt.params, ("shown", shown)))


def kills_anyway(setup, damage: int, left: int, hooks=None, state=None) -> bool:
    """Whether the hero's wound kills the enemy whatever Luck gives (issue 16.8): then Luck,
    which could only cost a point, is not offered. With the book's wound rules ("it takes
    1") the wound they would let through is checked too; a rule that acts (yields) leaves
    the offer as it is."""
    table, base = setup.wounding, setup.params.damage_to_enemy
    worst = max(0, damage + min(table.lucky, table.unlucky) - base)
    if worst < left:
        return False
    if state is None:
        return True
    wound = hooks.enemy_wound(state, worst)
    try:
        next(wound)
    except StopIteration as done:
        return isinstance(done.value, int) and done.value >= left
    wound.close()
    return False


def ally_takes(hooks, state) -> bool:
    """Whether the enemy's wound of this assault goes to an ally (the book's hooks say so:
    ``the enemy strikes the ally``): the hook deals it, the hero takes none and tests no
    Luck on it."""
    takes = getattr(hooks, "ally_takes", None)
    return takes is not None and takes(state)


def dies_anyway(setup, damage: int, hero_hp: int, state=None) -> bool:
    """Whether the enemy's wound kills the hero whatever Luck gives (issue 16.8), so that
    Luck is not offered; never while the book acts in the fight (an item or a rule may
    still save him)."""
    if state is not None:
        return False
    table, base = setup.wounded, setup.params.damage_to_hero
    least = max(0, damage + min(table.lucky, table.unlucky) - base)
    return least >= hero_hp


def before_luck(prompt: YesNoPrompt, damage: int) -> int:
    """The wound a Luck question is about, as the assault's line says it before the question
    (the damage the enemy's own rule makes it, ``it deals 3``; the test, then the book's wound
    rolls, then the stat's change say what it finally does)."""
    for name, value in prompt.params:
        if name == "shown":
            return int(value)
    return damage


def offers_luck(setup, character) -> bool:
    """Whether :func:`luck_wounded` asks the Luck question on a wound."""
    luck_stat = setup.luck_stat
    return luck_stat is not None and setup.wounded is not None and character.stats[luck_stat] > 0


def side_shown(hooks, state, index: int, damage: int) -> int:
    """A side attack's wound before Luck, after that enemy's own ``it deals`` rule."""
    shown_damage = getattr(hooks, "shown_damage", None) if state is not None else None
    if shown_damage is None:
        return damage
    target, state.current = state.current, index
    try:
        return shown_damage(state, "taken", damage)
    finally:
        state.current = target


def luck_wounded(setup, character, rng, damage, emit, enemy=0, where=(0, True)):
    """Offer Luck on a wound the hero takes; returns the damage to apply."""
    if not offers_luck(setup, character):
        return damage
    stats = character.stats
    key = ("taken", damage, stats[setup.params.health], enemy, stats[setup.luck_stat], *where)
    if (yield luck_prompt(key)):
        damage = yield from luck_test(setup, character, rng, damage, False, emit)
    return damage


def luck_test(setup, character, rng, damage, dealt: bool, emit: bool):
    """Test Luck in a fight: the table's lucky/unlucky values, as a shift of the damage."""
    stat = setup.luck_stat
    params = setup.params
    luck = character.stats[stat]
    if setup.luck_dice.text == "2d6":
        faces = rng.roll2(6)
        roll = faces[0] + faces[1]
    else:
        roll, faces = setup.luck_dice.roll(rng)
    lucky = roll <= luck
    character.set(stat, luck - setup.luck_cost)
    if dealt:
        table, base = setup.wounding, params.damage_to_enemy
    else:
        table, base = setup.wounded, params.damage_to_hero
    shifted = damage + (table.lucky if lucky else table.unlucky) - base
    if emit:
        outcome = "success" if lucky else "failure"
        yield DiceRolled(purpose="luck", faces=tuple(faces), total=roll)
        yield TestResolved(name="luck", roll=roll, target=luck, outcome=outcome)
        new = character.stats[stat]
        yield StatChanged(name=stat, old=luck, new=new, initial=character.initial[stat])
    return max(0, shifted)
