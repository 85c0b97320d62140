"""The decisions of RULES.md, "Decisions added after the first audit", one test per rule,
played from a book's text with scripted dice to what the player sees.

Each section below is one bullet of that RULES.md section; each test's comment quotes the
words of the line it covers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale import events
from dedale.errors import DedaleError
from dedale.game import Game
from dedale.language import load_book
from dedale.rules import (
    Character,
    EnemySpec,
    FightSpec,
    ScriptedDecider,
    ScriptedDice,
    collect,
    run_fight,
)


def _book(folder: Path, ruleset: str, body: str, rules: str = ""):
    text = f"---\ntitle: Decisions\nlanguage: en\nruleset: {ruleset}\nstart: 1\n{rules}---\n{body}"
    path = folder / "book.dd"
    path.write_text(text, encoding="utf-8")
    return load_book(path)


def _play(game: Game, answers, limit: int = 500) -> list:
    """Pull everything, answering prompts from ``answers`` in order; returns all items."""
    answers = list(answers)
    seen = []
    for _ in range(limit):
        item = game.next()
        if item is None:
            return seen
        seen.append(item)
        if isinstance(item, events.Prompt):
            if not answers:
                return seen
            game.answer(answers.pop(0))
    raise AssertionError("the game did not stop")


def _of(kind, items) -> list:
    return [item for item in items if isinstance(item, kind)]


def _reliques(folder: Path, test_line: str, rules: str = "", wound: int = 0) -> Game:
    """A reliques book whose paragraph 1 wounds the hero by ``wound`` (health 15, levels of
    3: 9 lost is seriously wounded, -2; the first answer declines Courage's offer to cancel
    it) then runs ``test_line``."""
    loss = f"> lose {wound} HEALTH\n" if wound else ""
    body = (
        f"§ 1\n{loss}> {test_line}\n> success -> 2\n> failure -> 3\n§ 2\n> victory\n§ 3\n> death\n"
    )
    book = _book(folder, "reliques", body, rules)
    stats = [stat.id for stat in book.ruleset.stats]
    hero = tuple(15 if s == "HEALTH" else 3 for s in stats)
    return Game.new(book, 1, name="A", hero=hero, free_stats=True)


# --- reliques, kinds of test -------------------------------------------------------------
# "each characteristic is physical or mental in the ruleset (the book may declare more).
#  A test is mental when all its characteristics are mental, physical otherwise"


def test_kinds_of_test_come_from_the_characteristics(tmp_path):
    ruleset = _book(tmp_path, "reliques", "§ 1\n> victory\n").ruleset
    assert ruleset.test_kind(("ESP", "CHA")) == "mental"
    assert ruleset.test_kind(("ESP",)) == "mental"
    assert ruleset.test_kind(("ESP", "FOR")) == "physical"
    assert ruleset.test_kind(("FOR", "AGL")) == "physical"


# "the book may declare more"
def test_a_book_declares_a_mental_characteristic(tmp_path):
    rules = "rules:\n  stats:\n    FOI: {names: {fr: FOI, en: FAITH}, roll: 1d6, kind: mental}\n"
    game = _reliques(tmp_path, "test FOI+ESP", rules, wound=9)
    game.rng.force((3, 3))  # 6 <= 3 + 3: success, no malus on a mental test
    items = _play(game, [False])
    assert _of(events.TestResolved, items)[0].target == 6
    assert game.outcome == "victory"


# "The health malus applies to physical tests only"
def test_the_health_malus_applies_to_physical_tests_only(tmp_path):
    game = _reliques(tmp_path, "test FOR+AGL", wound=9)
    game.rng.force((3, 3))  # 6 > 3 + 3 - 2: failure
    items = _play(game, [False, False, False])  # keep the wound; no Courage, no Chance reroll
    assert _of(events.TestResolved, items)[0].target == 4
    game = _reliques(tmp_path, "test ESP+CHA", wound=9)
    game.rng.force((3, 3))
    items = _play(game, [False])
    assert _of(events.TestResolved, items)[0].target == 6 and game.outcome == "victory"


# "Courage acts on physical tests, Volonté on mental ones"
def test_courage_rerolls_physical_tests_and_will_mental_ones(tmp_path):
    for line, counter in (("test FOR+AGL", "courage"), ("test ESP+CHA", "volonte")):
        game = _reliques(tmp_path, line)
        game.rng.force((6, 5, 1))  # 11 > 6: failure; reroll the 6: 5 + 1 = 6 succeeds
        items = _play(game, [True])
        prompt = _of(events.YesNoPrompt, items)[0]
        assert prompt.kind == "heroism" and dict(prompt.params)["counter"] == counter
        assert game.state.hero.counters[counter] == 0 and game.outcome == "victory"


# "unless the test line says `physical`/`physique` or `mental`"
def test_the_test_line_may_say_its_kind(tmp_path):
    game = _reliques(tmp_path, "test FOR+AGL (mental)", wound=9)
    game.rng.force((3, 3))  # no malus: 6 <= 6
    items = _play(game, [False])
    assert _of(events.TestResolved, items)[0].target == 6 and game.outcome == "victory"
    game = _reliques(tmp_path, "testez ESP+CHA +1 (physique)", wound=9)
    game.rng.force((4, 4, 4))  # 8 > 3 + 3 + 1 - 2 = 5: failure; Courage offered
    items = _play(game, [False, False, False])
    assert _of(events.TestResolved, items)[0].target == 5
    assert dict(_of(events.YesNoPrompt, items)[0].params)["counter"] == "courage"


# A characteristic's kind is data: a wrong one is a located ruleset error.
def test_a_wrong_characteristic_kind_is_a_located_error(tmp_path):
    rules = "rules:\n  stats:\n    FOI: {roll: 1d6, kind: spiritual}\n"
    with pytest.raises(DedaleError) as caught:
        _book(tmp_path, "reliques", "§ 1\n> victory\n", rules)
    error = caught.value
    shown = error.render()
    assert "kind cannot be 'spiritual'" in shown and "physical, mental" in shown
    assert error.span.line == 8 and error.span.column == 28  # the `FOI:` line


# "a Chance point rerolls one die of any test"
def test_a_chance_point_rerolls_one_die_of_any_test(tmp_path):
    for line, first in (("test FOR+AGL", "courage"), ("test ESP+CHA", "volonte")):
        game = _reliques(tmp_path, line)
        game.rng.force((6, 5, 1))  # 11 > 6: failure; the Chance reroll of the 6: 5 + 1 = 6
        items = _play(game, [False, True])  # not Courage/Volonté, then Chance
        prompts = [dict(p.params)["counter"] for p in _of(events.YesNoPrompt, items)]
        assert prompts == [first, "chance"]
        rerolled = [e for e in _of(events.DiceRolled, items) if e.purpose == "heroism"]
        assert [e.faces for e in rerolled] == [(5, 1)]
        hero = game.state.hero
        assert hero.counters["chance"] == 0 and hero.counters[first] == 1
        assert game.outcome == "victory"


# "a Chance point rerolls one die of any test": after a first reroll fails, Chance is
# still offered; a success asks nothing more.
def test_chance_is_offered_after_a_failed_courage_reroll(tmp_path):
    game = _reliques(tmp_path, "test FOR+AGL")
    game.rng.force((6, 5, 6, 1))  # 11; Courage rerolls the 6: 5 + 6; Chance: 5 + 1 = 6
    items = _play(game, [True, True])
    prompts = [dict(p.params)["counter"] for p in _of(events.YesNoPrompt, items)]
    assert prompts == ["courage", "chance"] and game.outcome == "victory"
    game = _reliques(tmp_path, "test FOR+AGL")
    game.rng.force((2, 3))  # success: no heroism offered
    items = _play(game, [])
    assert not _of(events.YesNoPrompt, items) and game.outcome == "victory"


# --- reliques, Courage cancels a loss -----------------------------------------------------
# "Courage may cancel a loss that leaves health at 0 or above (a loss to exactly 0
#  included), in a fight or out of one."


def _loss_book(folder: Path, loss: int, courage: int = 1) -> Game:
    body = f"§ 1\n> lose {loss} HEALTH\n> go to 2\n§ 2\n> victory\n"
    rules = f"rules:\n  counters:\n    courage: {{initial: {courage}}}\n"
    book = _book(folder, "reliques", body, rules)
    stats = [stat.id for stat in book.ruleset.stats]
    return Game.new(book, 1, name="A", hero=tuple(15 if s == "HEALTH" else 3 for s in stats),
                    free_stats=True)  # fmt: skip


def test_courage_cancels_a_loss_outside_a_fight(tmp_path):
    game = _loss_book(tmp_path, 4)
    items = _play(game, [True])
    prompt = _of(events.YesNoPrompt, items)[0]
    assert prompt.kind == "heroism" and dict(prompt.params) == {
        "use": "ignore_loss", "counter": "courage", "damage": 4,
    }  # fmt: skip
    hero = game.state.hero
    assert hero.stats["HEALTH"] == 15 and hero.counters["courage"] == 0
    assert not [e for e in _of(events.StatChanged, items) if e.name == "HEALTH" and e.new < e.old]
    game = _loss_book(tmp_path, 4)
    _play(game, [False])  # declined: the loss stands
    assert game.state.hero.stats["HEALTH"] == 11 and game.state.hero.counters["courage"] == 1


# "a loss to exactly 0 included" (and never a loss below 0)
def test_courage_cancels_a_loss_to_exactly_zero_but_not_below(tmp_path):
    game = _loss_book(tmp_path, 15)
    _play(game, [True])
    assert game.state.hero.stats["HEALTH"] == 15 and game.outcome == "victory"
    game = _loss_book(tmp_path, 16)
    items = _play(game, [])
    assert not _of(events.YesNoPrompt, items) and game.outcome == "death"
    game = _loss_book(tmp_path, 4, courage=0)  # no point left: nothing offered
    items = _play(game, [])
    assert not _of(events.YesNoPrompt, items) and game.state.hero.stats["HEALTH"] == 11


# "in a fight": a blow that leaves the hero at exactly 0 health may be cancelled.
def test_courage_cancels_a_blow_to_exactly_zero_in_a_fight(rulesets):
    stats = {"FOR": 4, "AGL": 3, "PER": 3, "CON": 4, "ESP": 3, "CHA": 3, "HEALTH": 4}
    hero = Character(stats=dict(stats), initial={**stats, "HEALTH": 20},
                     counters={"courage": 1, "volonte": 0, "chance": 0})  # fmt: skip
    enemy = EnemySpec("Squelette", {"FOR": 3, "AGL": 2, "PER": 2, "CON": 3, "arme": 2})
    # initiative 3+3 / 1+1 (the skeleton first); its attack 1+2 (margin 2); the hero
    # parries with 6+5 and fails: 2 + 2 = 4 damage, exactly the hero's 4 health;
    # then the hero's two attacks miss (11 > 7)
    dice = ScriptedDice([3, 3, 1, 1, 1, 2, 6, 5, 6, 5, 6, 5])
    decider = ScriptedDecider([False, True])  # parry, not dodge; spend Courage
    spec = FightSpec((enemy,), assault_limit=1)
    _result, seen = collect(run_fight(rulesets["reliques"], hero, dice, spec), decider)
    offers = [p for p in seen if isinstance(p, events.YesNoPrompt) and p.kind == "heroism"]
    assert [dict(p.params)["damage"] for p in offers] == [4]
    assert hero.stats["HEALTH"] == 4 and hero.counters["courage"] == 0


# --- escape wound --------------------------------------------------------------------------
# "Escape wound = the ruleset's ordinary wound to the hero (df-classic 2, df24 1, df48.5 2);
#  Luck applies to it like any wound (df24: lucky 0, unlucky 2)."


def _escape(folder: Path, ruleset: str, luck_faces=()) -> Game:
    body = "§ 1\n> fight\n> enemy ORC SKILL 8 STAMINA 10\n> escape -> 2\n§ 2\n> victory\n"
    book = _book(folder, ruleset, body)
    stats = [stat.id for stat in book.ruleset.stats]
    values = {"SKILL": 10, "STAMINA": 20, "LUCK": 9}
    klass = next(iter(book.ruleset.classes), None)  # df48.5 asks for a class
    game = Game.new(book, 1, name="A", hero=tuple(values.get(s, 7) for s in stats),
                    class_name=klass, free_stats=True)  # fmt: skip
    game.rng.force(tuple(luck_faces))
    return game


def _stamina_loss(items) -> list[int]:
    return [e.old - e.new for e in _of(events.StatChanged, items)
            if e.name == "STAMINA" and e.new < e.old]  # fmt: skip


def test_the_escape_wound_is_the_ordinary_wound(tmp_path):
    for ruleset, wound in (("df-classic", 2), ("df24", 1), ("df48.5", 2)):
        game = _escape(tmp_path, ruleset)
        items = _play(game, [True, False])  # escape; do not test Luck
        assert _stamina_loss(items) == [wound], ruleset
        assert game.outcome == "victory"


def test_luck_applies_to_the_escape_wound(tmp_path):
    # df24: lucky 0, unlucky 2 (LUCK 9: 4+4 lucky, 6+5 unlucky)
    for faces, loss in (((4, 4), []), ((6, 5), [2])):
        game = _escape(tmp_path, "df24", faces)
        items = _play(game, [True, True])  # escape; test Luck on the wound
        assert _of(events.YesNoPrompt, items)[1].kind == "use_luck"
        assert _stamina_loss(items) == loss and game.outcome == "victory"
    game = _escape(tmp_path, "df-classic", (4, 4))  # lucky: 1 instead of 2
    items = _play(game, [True, True])
    assert _stamina_loss(items) == [1]


# --- d20: trained checks and the automatic miss ---------------------------------------------
# "d20: a check line may say `trained` (`maîtrisé`) itself; a class's trained list applies
#  too. An automatic miss stays a miss on a natural 20."

_D20_CLASS = "rules:\n  classes:\n    Voleur: {trained: [athletics]}\n"


def _check(folder: Path, line: str, rules: str = "", klass: str | None = None, die: int = 13):
    body = f"§ 1\n> {line}\n> success -> 2\n> failure -> 3\n§ 2\n> victory\n§ 3\n> death\n"
    book = _book(folder, "d20", body, rules)
    stats = [stat.id for stat in book.ruleset.stats]
    values = {"ACTION": 2, "HP": 10}
    game = Game.new(book, 1, name="A", hero=tuple(values.get(s, 10) for s in stats),
                    class_name=klass, free_stats=True)  # fmt: skip
    game.rng.force((die,))
    items = _play(game, [])
    return game, _of(events.DiceRolled, items)[-1], _of(events.TestResolved, items)[0]


def test_a_check_line_may_say_trained(tmp_path):
    # trained: 1d20 + action bonus 2 + bonus(DEX 10) 0 = 13 + 2 = 15 >= 15
    for line in ("check DEX 15 (trained)", "action DEX 15 (maîtrisé)"):
        game, dice, test = _check(tmp_path, line)
        assert dice.expression == "1d20" and test.roll == 15 and game.outcome == "victory"
    game, dice, test = _check(tmp_path, "check DEX 15 (athletics)", die=9)
    assert dice.expression == "1d10" and test.roll == 9 and game.outcome == "death"


def test_a_class_trained_list_applies_too(tmp_path):
    game, dice, test = _check(tmp_path, "check DEX 15 (athletics)", _D20_CLASS, "Voleur")
    assert dice.expression == "1d20" and test.roll == 15 and game.outcome == "victory"
    game, dice, _test = _check(tmp_path, "check DEX 15 (swimming)", _D20_CLASS, "Voleur", 9)
    assert dice.expression == "1d10" and game.outcome == "death"


# "An automatic miss stays a miss on a natural 20."
def test_an_automatic_miss_stays_a_miss_on_a_natural_20(rulesets):
    stats = {"FOR": 10, "DEX": 10, "CON": 10, "INT": 10, "SAG": 10, "CHA": 10, "ACTION": 2}
    for ac, note in ((22, "miss"), (21, "hit")):
        # action bonus 2 against a defence bonus of AC - 10: 12 is a deficit of 10 (an
        # automatic miss although 20 + 2 >= 22); 11 is not, and the natural 20 hits
        hero = Character(stats={**stats, "HP": 10}, initial={**stats, "HP": 10})
        enemy = EnemySpec("Golem", {"AC": ac, "attack": 0, "damage": "1", "HP": 5})
        spec = FightSpec((enemy,), assault_limit=1)
        dice = ScriptedDice([20, 1, 1, 1])  # the hero's natural 20, then the Golem's 1s
        _result, seen = collect(run_fight(rulesets["d20"], hero, dice, spec), ScriptedDecider([]))
        first = next(e for e in seen if isinstance(e, events.AssaultResolved))
        assert first.hero_strength == 22 and first.note == note, ac


# --- df48.5 Mercenaire ---------------------------------------------------------------------
# "the +1 damage lands on the first successful assault of each fight only, whatever way the
#  fight is run (assault by assault with allies, statuses, STAMINA thresholds, per-assault
#  tables included)."


@pytest.mark.parametrize(
    "extra",
    ["", "> each assault roll 1d6\n> 6: gain 1 LUCK\n",
     "> when your STAMINA falls to 2 or less -> 2\n", "> after 9 assaults won -> 2\n",
     "> ally BRAN SKILL 1 STAMINA 5\n"],
    ids=["plain", "assault table", "threshold", "assaults won", "ally"],
)  # fmt: skip
def test_mercenaire_bonus_lands_on_the_first_hit_of_a_fight_only(tmp_path, extra):
    body = f"§ 1\n> fight\n> enemy ORC SKILL 1 STAMINA 7\n{extra}> win -> 2\n§ 2\n> victory\n"
    book = _book(tmp_path, "df48.5", body)
    stats = [stat.id for stat in book.ruleset.stats]
    values = {"SKILL": 10, "STAMINA": 20, "LUCK": 9}
    game = Game.new(book, 1, name="A", hero=tuple(values.get(s, 7) for s in stats),
                    class_name="Mercenaire", free_stats=True)  # fmt: skip
    # the hero wins three assaults (the table's die, the ally's dice: 1s)
    game.rng.force([1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1])
    items = _play(game, [False] * 10)  # never test Luck
    dealt = [a.enemy_damage_taken for a in _of(events.AssaultResolved, items)
             if a.winner == "hero" and a.note != "side_attack"]  # fmt: skip
    assert dealt[:3] == [3, 2, 2], dealt
    assert game.outcome == "victory"


# --- df48.5 armour wear ------------------------------------------------------------------
# "df48.5 armour wear is counted per armour item: a second armour found later starts fresh;
#  the sheet shows how many fights each armour has left."


def _armour_book(folder: Path, fights: int, second_after: int) -> Game:
    """df48.5: ``fights`` fights of one assault each, an armour at the start and a second
    one found after fight ``second_after``; each fight's first assault is lost by the hero."""
    lines = ["§ 1", "> take armour", "> go to 2"]
    for n in range(fights):
        lines += [f"§ {n + 2}"]
        if n == second_after:
            lines += ["> take armour"]
        lines += ["> fight", "> enemy OGRE SKILL 20 STAMINA 30",
                  f"> not won after 1 assaults -> {n + 3}"]  # fmt: skip
    lines += [f"§ {fights + 2}", "> victory", ""]
    book = _book(folder, "df48.5", "\n".join(lines))
    ruleset = book.ruleset
    klass = next(  # a class whose kit holds no armour
        name for name, c in ruleset.classes.items()
        if not any(getattr(ruleset.item(i), "kind", None) == "armour" for i in c.kit)
    )  # fmt: skip
    return Game.new(book, 1, class_name=klass, name="A", lang="en")


def test_armour_wear_is_counted_per_armour_item(tmp_path):
    game = _armour_book(tmp_path, 12, second_after=10)
    game.rng.force([6, 6, 1, 1] * 12)  # the ogre wins every first assault
    items = _play(game, [False] * 40)  # never test Luck
    taken = [a.hero_damage_taken for a in _of(events.AssaultResolved, items)]
    # the first armour guards 10 fights, the second one (found fresh) the 11th and 12th
    assert taken == [0] * 12, taken
    hero = game.state.hero
    assert hero.armour_left(game.book.ruleset) == {"armour": (0, 8)}
    game = _armour_book(tmp_path, 12, second_after=99)  # no second armour: worn out
    game.rng.force([6, 6, 1, 1] * 12)
    items = _play(game, [False] * 40)
    taken = [a.hero_damage_taken for a in _of(events.AssaultResolved, items)]
    assert taken[:10] == [0] * 10 and taken[10] > 0 and taken[11] > 0
    assert game.state.hero.armour_left(game.book.ruleset) == {"armour": (0,)}


# The wear of each piece is kept by a save, and lost pieces take the most worn entry.
def test_armour_wear_survives_a_save_and_a_loss():
    from dedale.game.hero import hero_from_dict, hero_to_dict

    hero = Character(stats={"STAMINA": 20}, initial={"STAMINA": 20}, items={"armure": 2})
    hero.armour_wear["armure"] = [10, 3]
    again = hero_from_dict(hero_to_dict(hero))
    assert again.armour_wear == {"armure": [10, 3]}
    again.lose("armure")
    assert again.armour_wear == {"armure": [3]}
    old = hero_to_dict(hero)
    del old["armour_wear"]
    old["fights_with_armour"] = 4
    assert hero_from_dict(old).armour_wear == {"armure": [4, 0]}
