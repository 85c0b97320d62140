"""Exact odds of d20 fights the book acts in (rules/odds_d20_acting, validator/fight_plan_d20):
each kind within 3 SE of a seeded simulation of the real fight code (the interpreter's hooks
run by FightRehearsal.play), and equal to a brute force of the real fight code over every
sequence of dice faces on tiny fights (a book whose fight rolls 1d2)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale import ast
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import Character, RandomSource
from dedale.rules.odds_d20_acting import d20_acting_odds
from dedale.rules.odds_d20_attack import D20OddsTooLarge, every_roll
from dedale.validator.fight_plan import Unsupported
from dedale.validator.fight_plan_d20 import d20_plan_of

SAMPLES = 3000
HEAD = "---\ntitle: T\nlanguage: en\nruleset: d20\n---\n§ 1\n> take sword\n> fight{mode}\n"
TAIL = "> win -> 2\n\n§ 2\n> victory\n\n§ 3\n> victory\n\n§ 4\n> victory\n"
COUNTERS = (
    "rules:\n  counters:\n"
    "    bites: {names: {fr: Morsures, en: Bites}, aliases: [bites], initial: 0}\n"
)


def hero(hp: int = 14, shield: bool = False) -> Character:
    values = {"FOR": 14, "DEX": 12, "CON": 10, "INT": 10, "SAG": 10, "CHA": 10, "ACTION": 3,
              "HP": hp}  # fmt: skip
    items = {"sword": 1, **({"shield": 1} if shield else {})}  # as "> take sword" gives it
    return Character(stats=dict(values), initial=dict(values), items=items)


def book_of(tmp_path: Path, lines: str, mode: str = "", rules: str = COUNTERS):
    folder = tmp_path / "book"
    folder.mkdir(exist_ok=True)
    (folder / "book.yaml").write_text(
        f"title: T\nlanguage: en\nruleset: d20\n{rules}", encoding="utf-8"
    )
    text = HEAD.format(mode=mode).split("---\n", 2)[2] + lines + TAIL
    (folder / "main.dd").write_text(text, encoding="utf-8")
    book = load_book(folder)
    fight = next(
        s for s in book.paragraphs[1].body if isinstance(s, ast.Fight)
    )  # fmt: skip
    return book, fight


class Order:
    """The fight's prompts answered as the engine's ``order`` policy: the first enemy standing,
    never escape."""

    def answer(self, prompt):
        return 0 if hasattr(prompt, "enemies") else False


def alive_in_play(book, fight, character: Character, rng, rehearsal=None) -> bool:
    """One quiet play of the real fight (the interpreter's hooks); alive at its end."""
    rehearsal = rehearsal or FightRehearsal(book)
    fighter = character.copy()
    result = rehearsal.play(fight, rehearsal.spec(fight), fighter, rng, Order())
    return result.outcome != "lost" and fighter.stats["HP"] > 0


def exact(book, fight, character: Character, carried=None, target="order") -> float:
    rehearsal = FightRehearsal(book)
    carried = tuple(character.items) if carried is None else carried  # what the hero holds
    plan = d20_plan_of(fight, book.ruleset, dict(character.stats), frozenset(carried))
    spec = rehearsal.spec(fight)
    return d20_acting_odds(book.ruleset, character, spec, plan, target=target).alive_probability


# Each kind of the book acting inside a d20 fight (issue 14.1, items 1 to 4).
CASES = {
    "bites-then-exit": (
        "> enemy VIPER AC 12 attack +4 damage 1d6 HP 16\n"
        "> when it wins an assault: gain 1 bites\n"
        "> end the fight when bites >= 2 -> 3\n",
        "",
        hero(),
    ),
    "assaults-won": (
        "> enemy KNIGHT AC 15 attack +5 damage 1d8 RD 1 HP 30\n> after 2 assaults won -> 3\n",
        "",
        hero(),
    ),
    "first-assault-won": (
        "> enemy DUELLIST AC 13 attack +6 damage 1d8 HP 18\n> first assault won -> 3\n",
        "",
        hero(10),
    ),
    "damage-rules": (
        "> enemy TROLL AC 12 attack +4 damage 1d8 HP 14\n> it takes half\n"
        "> against it: attack +3 (if sword)\n> it deals 3\n",
        "",
        hero(),
    ),
    "rules-on-a-counter": (
        "> enemy OOZE AC 11 attack +3 damage 1d6 HP 12\n"
        "> when you win an assault: gain 1 bites\n"
        "> it takes 1 (if bites >= 2)\n> it deals 5 (if bites = 1)\n",
        "",
        hero(),
    ),
    "hurt-events": (
        "> enemy SPIDER AC 12 attack +3 damage 1d4 HP 12\n"
        "> when it wins an assault: lose 1 HP\n"
        "> when you win an assault: gain 1 HP\n"
        "> when it wounds you (if shield): roll 1d6, 5-6: wound 1\n",
        "",
        hero(16, shield=True),
    ),
    "codeword-once": (
        "> enemy GUARD AC 13 attack +3 damage 1d6 HP 14\n"
        "> when it wins an assault (if not codeword HURT): set codeword HURT, lose 2 HP\n"
        "> it deals 1 (if codeword HURT)\n",
        "",
        hero(),
    ),
    "assault-table": (
        "> enemy OGRE AC 12 attack +3 damage 1d8 HP 16\n> each assault roll 1d6\n"
        "> 1: lose 2 HP\n> 2: gain 1 bites\n> 6 -> 4\n"
        "> end the fight when bites >= 2 -> 3\n",
        "",
        hero(),
    ),
    "two-at-once": (
        "> enemy A AC 12 attack +2 damage 1d6 HP 6\n> it deals 4\n"
        "> enemy B AC 11 attack +1 damage 1d4 HP 5\n> it takes 1\n"
        "> when it wins an assault: gain 1 bites\n> end the fight when bites >= 3 -> 3\n",
        " all at once",
        hero(16),
    ),
    "rules-on-the-hero-hp": (
        "> enemy BOAR AC 12 attack +4 damage 1d6 HP 14\n> it takes 1 (if HP <= 6)\n"
        "> against it: attack +3 (if HP >= 10)\n> it deals 2 (if HP <= 8)\n",
        "",
        hero(),
    ),
    "hp-threshold-with-rules": (
        "> enemy BEAR AC 12 attack +5 damage 1d8 HP 20\n> it takes half\n"
        "> when your HP falls to 6 or less -> 3\n> after 3 assaults won -> 3\n",
        "",
        hero(),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_odds_match_a_seeded_simulation_of_the_real_fight(tmp_path, name):
    lines, mode, character = CASES[name]
    book, fight = book_of(tmp_path, lines, mode)
    rehearsal = FightRehearsal(book)
    assert rehearsal.by_assault(fight)  # the interpreter runs it with its hooks
    found = exact(book, fight, character)
    rng = RandomSource(11)
    seen = 0
    for _ in range(SAMPLES):
        seen += alive_in_play(book, fight, character, rng, rehearsal)
        rng.log.clear()
    se = math.sqrt(max(found * (1 - found), 1e-12) / SAMPLES)
    assert abs(found - seen / SAMPLES) <= 3 * se + 1e-9, (found, seen / SAMPLES)
    assert 0.02 < found < 0.999  # a case that says something


# 1d2 attacks: a face of 1 misses, a 2 hits as a natural "20" (damage doubled); the hero is
# unarmed (1d2), the enemies deal 1: a few thousand sequences of faces per fight.
TINY_RULES = COUNTERS + "  fight:\n    dice: 1d2\n    critical_face: 2\n    unarmed_damage: 1d2\n"
TINY = {
    "bites-exit": (
        "> enemy RAT AC 7 attack +12 damage 1 HP 4\n> when it wins an assault: gain 1 bites\n"
        "> end the fight when bites >= 2 -> 3\n> not won after 3 assaults -> 3\n",
        "",
    ),
    "won-and-damage": (
        "> enemy RAT AC 7 attack +12 damage 1 HP 5\n> it takes 1 (if bites >= 1)\n"
        "> it deals 3 (if bites >= 1)\n> when you win an assault: gain 1 bites\n"
        "> after 2 assaults won -> 3\n> not won after 3 assaults -> 3\n",
        "",
    ),
    "table-and-events": (
        "> enemy RAT AC 7 attack +12 damage 1 HP 4\n> each assault roll 1d3\n> 1: lose 1 HP\n"
        "> 3 -> 4\n> when it wounds you: roll 1d2, 2: wound 0\n> it takes half\n"
        "> first assault won -> 3\n> not won after 3 assaults -> 3\n",
        "",
    ),
    "hp-conditions": (
        "> enemy RAT AC 7 attack +12 damage 1 HP 4\n> it takes 1 (if HP <= 2)\n"
        "> it deals 3 (if HP >= 4)\n> not won after 3 assaults -> 3\n",
        "",
    ),
    "two-at-once": (
        # the hero strikes A; B's own blows cost 4 (its rule, not its target's)
        "> enemy A AC 8 attack +12 damage 1 HP 2\n> against it: attack +1\n"
        "> enemy B AC 7 attack +12 damage 1 HP 2\n> it deals 4\n"
        "> not won after 2 assaults -> 3\n",
        " all at once",
    ),
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_exact_odds_equal_a_brute_force_of_the_real_fight_code(tmp_path, name):
    """Every sequence of dice faces the real fight (1d4 attacks, its hooks) can roll, each
    with its exact chance (odds_d20_attack.every_roll): the alive total equals the DP's."""
    lines, mode = TINY[name]
    book, fight = book_of(tmp_path, lines, mode, rules=TINY_RULES)
    assert book.ruleset.fight.dice.text == "1d2"
    character = hero(4)
    character.items = {}  # unarmed: 1d2
    rehearsal = FightRehearsal(book)
    brute = sum(
        float(p) for p, alive in every_roll(
            lambda rng: alive_in_play(book, fight, character, rng, rehearsal), budget=100_000
        ) if alive
    )  # fmt: skip
    assert 0.01 < brute < 0.99
    assert exact(book, fight, character, carried=()) == pytest.approx(brute, abs=1e-9)


def test_the_best_target_is_at_least_the_first_one(tmp_path):
    lines, mode, character = CASES["two-at-once"]
    book, fight = book_of(tmp_path, lines, mode)
    best = exact(book, fight, character, target="best")
    assert best >= exact(book, fight, character) - 1e-12


def test_a_condition_on_an_item_follows_the_loadout(tmp_path):
    """``against it: attack +3 (if sword)``: with the sword in the loadout the odds rise."""
    lines, mode, character = CASES["damage-rules"]
    book, fight = book_of(tmp_path, lines, mode)
    assert exact(book, fight, character) > exact(book, fight, character, carried=()) + 0.01


def test_what_the_exact_odds_do_not_follow_says_so(tmp_path):
    book, fight = book_of(
        tmp_path, "> enemy A AC 12 attack +1 damage 1d6 HP 9\n> ally BRAN AC 12 attack +1 HP 8\n"
    )
    with pytest.raises(Unsupported):
        d20_plan_of(fight, book.ruleset, dict(hero().stats))


def test_an_event_that_undoes_another_is_refused_not_looped(tmp_path):
    """The hero heals 2 each assault the enemy wins: 14 HP, a wound of 3 (13), a wound of 1
    (14 again) — states that cycle; D20OddsTooLarge, bounded, never a hang."""
    book, fight = book_of(
        tmp_path,
        "> enemy IMP AC 12 attack +1 damage 1d4 HP 20\n> when it wins an assault: gain 2 HP\n",
    )
    with pytest.raises(D20OddsTooLarge, match="loop"):
        exact(book, fight, hero())


@pytest.mark.parametrize("name", ["bites-then-exit", "damage-rules", "two-at-once"])
def test_the_exchanges_deltas_equal_the_blow_by_blow_fight(tmp_path, name):
    """Without a rule on the hero's HP the engine reads each exchange once as deltas; blow by
    blow (as when a rule reads the HP) gives the same odds."""
    import dataclasses

    lines, mode, character = CASES[name]
    book, fight = book_of(tmp_path, lines, mode)
    plan = d20_plan_of(fight, book.ruleset, dict(character.stats), frozenset(character.items))
    assert not plan.reads_health
    spec = FightRehearsal(book).spec(fight)
    fast = d20_acting_odds(book.ruleset, character, spec, plan, target="best")
    slow = d20_acting_odds(
        book.ruleset, character, spec, dataclasses.replace(plan, reads_health=True), target="best"
    )
    assert fast.alive_probability == pytest.approx(slow.alive_probability, abs=1e-12)


class Flee:
    """Escape as soon as the fight offers it."""

    def answer(self, prompt):
        return 0 if hasattr(prompt, "enemies") else True


def test_the_escape_takes_the_blow_with_the_enemys_rules(tmp_path):
    """An enemy no hero beats, ``it deals 1`` and escape after one assault: at most two
    wounds of 1 in the assault and one as the hero flees, so he always leaves alive (1.0
    exactly); the real fight fleeing at once agrees, and without the rule the odds fall."""
    lines = "> enemy GIANT AC 25 attack +12 damage 3d8 HP 500\n> escape -> 3 after 1\n"
    book, fight = book_of(tmp_path, lines + "> it deals 1\n")
    character = hero(4)
    assert exact(book, fight, character) == pytest.approx(1.0, abs=1e-12)
    rehearsal, rng = FightRehearsal(book), RandomSource(3)
    for _ in range(200):
        fighter = character.copy()
        result = rehearsal.play(fight, rehearsal.spec(fight), fighter, rng, Flee())
        assert result.outcome == "escaped" and fighter.stats["HP"] >= 1
    (tmp_path / "plain").mkdir()
    plain, fight = book_of(tmp_path / "plain", lines + "> it takes half\n")
    assert exact(plain, fight, character) < 0.9
