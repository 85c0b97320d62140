"""The interpreter on the amateur constructs (issue 8): hidden numbers, computed, noted and
previous destinations, free-form dice tests, statuses, forced meals — one small book each."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.errors import GameError
from dedale.game import Game
from dedale.game.state import GameState
from dedale.language import load_book

from .conftest import of, play

HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"


def book_of(tmp_path, text: str):
    path = tmp_path / "book.dd"
    path.write_text(HEADER + text, "utf-8")
    return load_book(path)


def new_game(book, force=(), hero=(10, 20, 9)) -> Game:
    game = Game.new(book, 1, hero=hero, name="Ari", lang="en", free_stats=True)
    game.rng.force(list(force))
    return game


def visited(game: Game) -> list[int]:
    return [entry.paragraph for entry in game.state.history]


HIDDEN = """
§ 1
> hidden number otherwise -> 2
§ 2
Nothing happens.
> death
§ 30
> hidden paragraph
> victory
§ 40
Not hidden: typing 40 must not lead here.
> victory
"""


@pytest.mark.parametrize(("typed", "outcome", "path"), [
    (30, "victory", [1, 30]),
    (40, "death", [1, 2]),  # a real paragraph, but not one reached by a hidden number
    (0, "death", [1, 2]),  # "I don't know"
    (-7, "death", [1, 2]),
    (99999, "death", [1, 2]),
])  # fmt: skip
def test_hidden_number(tmp_path, typed, outcome, path):
    game = new_game(book_of(tmp_path, HIDDEN))
    items = play(game, [typed])
    prompt = of(events.NumberPrompt, items)[0]
    assert prompt.kind == "hidden_number"
    assert game.outcome == outcome
    assert visited(game) == path


COMPUTED = """
§ 1
> set gold to 10
-> [gold + 50] Pay in
-> [paragraph × 3] Triple
§ 3
> go to [paragraph * 2 - 2]
§ 4
> victory
§ 60
> victory
"""


def test_computed_destinations(tmp_path):
    book = book_of(tmp_path, COMPUTED)
    game = new_game(book)
    items = play(game, [1])
    options = of(events.ChoosePrompt, items)[0].options
    assert [o.target for o in options] == [60, 3]
    assert visited(game) == [1, 60]
    game = new_game(book)
    play(game, [2])
    assert visited(game) == [1, 3, 4] and game.outcome == "victory"


def test_a_computed_destination_to_no_paragraph_is_a_located_error(tmp_path):
    game = new_game(book_of(tmp_path, "§ 1\n> go to [gold + 500]\n"))
    with pytest.raises(GameError) as caught:
        play(game, [])
    assert "paragraph 500" in caught.value.message
    assert caught.value.span.line == 7


NOTE_AND_RETURN = """
§ 1
> note paragraph camp
-> 2 Walk
-> 5 (if visited 2) Leave
§ 2
-> 3 On
§ 3
-> [previous] Back where you came from
-> 4 Further
§ 4
> notez paragraphe grotte
> go to [noted camp]
§ 5
-> [noted grotte] To the cave
§ 6
> victory
"""


def test_note_and_return(tmp_path):
    game = new_game(book_of(tmp_path, NOTE_AND_RETURN))
    play(game, [1, 1, 1, 1, 2, 2, 1])
    # 1 -> 2 -> 3 -(previous)-> 2 -> 3 -> 4 -(noted camp)-> 1 -> 5 -(noted grotte)-> 4 ...
    assert visited(game)[:9] == [1, 2, 3, 2, 3, 4, 1, 5, 4]
    assert game.state.marks == {"camp": 1, "grotte": 4}


def test_go_back_without_a_previous_paragraph_is_an_error(tmp_path):
    game = new_game(book_of(tmp_path, "§ 1\n> go back\n"))
    with pytest.raises(GameError, match="no paragraph to go back to"):
        play(game, [])


DICE_TEST = """
§ 1
> roll 3d6 against SKILL +2
> success -> 2
> failure -> 3
§ 2
> victory
§ 3
> death
"""


@pytest.mark.parametrize(("dice", "outcome"), [([2, 3, 3], "victory"), ([2, 3, 4], "death")])
def test_free_form_dice_test_with_a_roll_modifier(tmp_path, dice, outcome):
    game = new_game(book_of(tmp_path, DICE_TEST), dice)
    items = play(game, [])
    resolved = of(events.TestResolved, items)[0]
    assert (resolved.name, resolved.roll, resolved.target) == ("SKILL", sum(dice) + 2, 10)
    assert game.outcome == outcome


def test_outcome_table_with_a_modified_roll(tmp_path):
    text = "§ 1\n> roll 1d6+2\n> 3-4 -> 2\n> 5-8 -> 3\n§ 2\n> death\n§ 3\n> victory\n"
    game = new_game(book_of(tmp_path, text), [4])
    play(game, [])
    assert visited(game) == [1, 3]


STATUS = """
§ 1
> status Poisoned: lose 2 STAMINA each paragraph
-> 2 (if status Poisoned) On
§ 2
-> 3 On
§ 3
> cure Poisoned
-> 4 (if not status Poisoned) On
§ 4
> victory
"""


def test_a_status_acts_on_every_paragraph_until_removed(tmp_path):
    game = new_game(book_of(tmp_path, STATUS))
    items = play(game, [1, 1, 1])
    losses = [(e.old, e.new) for e in of(events.StatChanged, items) if e.name == "STAMINA"]
    assert losses[-2:] == [(20, 18), (18, 16)]  # entering 2 and 3, not 4
    assert game.outcome == "victory"
    assert game.state.statuses == {}


def test_a_status_survives_a_save(tmp_path):
    game = new_game(book_of(tmp_path, STATUS))
    play(game, [1])
    data = game.snapshot()
    assert data["statuses"]["poisoned"]["amount"] == 2
    again = GameState.from_dict(data)
    assert again.statuses == game.state.statuses
    assert again.came_from == 1


def test_a_status_can_kill(tmp_path):
    game = new_game(book_of(tmp_path, STATUS), hero=(10, 2, 9))
    play(game, [1])
    assert game.outcome == "death" and game.state.death_reason == "health"


FORCED_MEAL = """
§ 1
> eat a meal or lose 3 STAMINA
> mangez un repas ou perdez 3 ENDURANCE
-> 2 On
§ 2
> victory
"""


def test_forced_meal_uses_a_meal_then_costs_stamina(tmp_path):
    book = book_of(tmp_path, FORCED_MEAL)
    game = new_game(book)
    items = play(game, [])
    hero = game.state.hero
    assert hero.counters["meals"] == 8 and hero.stats["STAMINA"] == 20
    assert [e.key for e in of(events.MessageShown, items)] == ["forced_meal_eaten"] * 2
    game = new_game(book)
    game.next()
    game.state.hero.counters["meals"] = 1
    items = play(game, [])
    assert game.state.hero.counters["meals"] == 0
    assert game.state.hero.stats["STAMINA"] == 17
    assert [e.key for e in of(events.MessageShown, items)] == [
        "forced_meal_eaten",
        "forced_meal_none",
    ]


ATTACK_WITH = """
§ 1
> fight DEMON MAGIC 5 STAMINA 2
> attack with MAGIC
> win -> 2
§ 2
> victory
"""


def test_a_book_stat_replaces_skill_in_a_fight(tmp_path):
    path = tmp_path / "book.dd"
    rules = "rules:\n  stats:\n    MAGIC: {names: {fr: MAGIE, en: MAGIC}, roll: 1d6+6}\n"
    path.write_text(HEADER.replace("language: en\n", "language: en\n" + rules) + ATTACK_WITH)
    book = load_book(path)
    game = Game.new(book, 1, hero=(1, 20, 9, 12), name="Ari", lang="en", free_stats=True)
    game.rng.force([1, 1, 3, 3])  # the demon 5 + 2 = 7, the hero 12 + 6 = 18
    items = play(game, [False])
    assault = of(events.AssaultResolved, items)[0]
    assert (assault.hero_strength, assault.enemy_strength) == (18, 7)
    assert game.outcome == "victory"
    assert book.ruleset.fight.attack_stat == "SKILL"  # the book's ruleset is untouched


SHOP = """
§ 1
> gain 10 gold
> buy Sword for 7 gold (weapon, SKILL +1)
> buy 2 Torches for 1 gold
> sell Sword for 5 gold
-> 2 On
§ 2
> wager up to 5 gold, win on 1d6 4-6
> wager up to 5 gold, win on 1d6 4-6
-> 3 On
§ 3
> victory
"""


def test_a_shop_trades_until_the_reader_leaves(tmp_path):
    game = new_game(book_of(tmp_path, SHOP), [6, 1])
    items = play(game, [1, 3, 2, 4, 1, 99, 3, 1])
    shop = of(events.ChoosePrompt, items)
    first, second = shop[0].options, shop[1].options
    assert [o.text for o in first] == [
        "Buy Sword (7 Gold pieces)", "Buy 2 Torches (1 Gold piece)",
        "Sell Sword (5 Gold pieces)", "Leave the shop",
    ]  # fmt: skip
    assert [o.enabled for o in first] == [True, True, False, True]
    assert [o.enabled for o in second] == [False, True, True, True]  # 3 gold left
    hero = game.state.hero
    # 10 - 7 (sword) + 5 (sold) - 1 (torches) = 7; bet 99 -> 5, won: 12; bet 3, lost: 9
    assert (hero.counters["gold"], dict(hero.items)) == (9, {"Torches": 2})
    assert [e.key for e in of(events.MessageShown, items)] == [
        "wager_offer", "wager_won", "wager_offer", "wager_lost",
    ]  # fmt: skip
    assert game.outcome == "victory"


def test_a_meal_may_be_eaten_in_a_shop(tmp_path):
    text = "§ 1\n> meal allowed\n> buy Rope for 1 gold\n-> 2 On\n§ 2\n> victory\n"
    game = new_game(book_of(tmp_path, text))
    play(game, ["eat", 2, 1])
    assert game.state.hero.counters["meals"] == 9
    assert game.outcome == "victory"


def test_no_wager_without_money(tmp_path):
    text = "§ 1\n> wager up to 5 gold, win on 1d6 4-6\n> victory\n"
    game = new_game(book_of(tmp_path, text))
    items = play(game, [])
    assert not of(events.NumberPrompt, items) and game.outcome == "victory"


FIGHT_EXTRAS = """
§ 1
> status Bleeding: lose 1 STAMINA each assault
> fight OGRE SKILL 8 STAMINA 10
> when your STAMINA falls to 15 or less -> 80
> after 3 assaults won -> 50
> win -> 50
§ 50
> victory
§ 80
> death
"""


def test_win_n_assaults_with_a_status_each_assault(tmp_path):
    game = new_game(book_of(tmp_path, FIGHT_EXTRAS), [1, 1, 6, 6] * 3)
    items = play(game, [False] * 3)
    assaults = of(events.AssaultResolved, items)
    assert [a.number for a in assaults] == [1, 2, 3]  # numbered across the whole fight
    assert len(of(events.FightStarted, items)) == 1
    assert [e.outcome for e in of(events.FightEnded, items)] == ["won"]
    assert game.state.hero.stats["STAMINA"] == 17  # bleeding: 1 after each assault
    assert visited(game) == [1, 50]


def test_the_fight_stops_when_stamina_falls_to_the_threshold(tmp_path):
    # the ogre wins three assaults (2 + 1 bleeding each): 20 -> 17 -> 14 <= 15
    game = new_game(book_of(tmp_path, FIGHT_EXTRAS), [6, 6, 1, 1] * 2)
    items = play(game, [False] * 2)
    assert [e.outcome for e in of(events.FightEnded, items)] == ["limit"]
    assert game.state.hero.stats["STAMINA"] == 14
    assert visited(game) == [1, 80]


@pytest.mark.parametrize("seed", range(20))
def test_fights_by_assault_play_the_same_quiet_or_not(tmp_path, seed):
    book = book_of(tmp_path, FIGHT_EXTRAS.replace("-> 80", "-> 50"))
    loud = Game.new(book, seed, hero=(9, 20, 9), name="Ari")
    quiet = Game.new(book, seed, hero=(9, 20, 9), name="Ari", quiet=True)
    for game in (loud, quiet):
        play(game, [True, False] * 20)
    assert loud.state.to_dict() == quiet.state.to_dict()


def test_a_carried_provisions_limit(tmp_path):
    path = tmp_path / "book.dd"
    rules = "rules:\n  counters:\n    meals: {initial: 2, max: 4}\n"
    text = "§ 1\n> gain 5 meals\n> set meals to 9\n> lose 1 meals\n> victory\n"
    path.write_text(HEADER.replace("language: en\n", "language: en\n" + rules) + text)
    game = new_game(load_book(path))
    items = play(game, [])
    changes = [(e.old, e.new) for e in of(events.StatChanged, items) if e.name == "meals"]
    assert changes[-2:] == [(2, 4), (4, 3)]  # "set meals to 9" stays at 4: no change
    capped = [e for e in of(events.MessageShown, items) if e.key == "counter_max"]
    assert [dict(e.params)["limit"] for e in capped] == [4, 4]


def test_the_random_player_works_out_hidden_numbers(tmp_path):
    from dedale.game.random_player import play_random

    book = book_of(tmp_path, HIDDEN)
    outcomes = {play_random(book, seed)[1].outcome for seed in range(30)}
    assert outcomes == {"victory", "death"}  # 30 reached by typing its number, 2 by 0


def test_a_status_condition_gives_its_reason(tmp_path):
    text = "§ 1\n-> 2 (if status Blessed, disabled) Pray\n-> 2 Walk\n§ 2\n> victory\n"
    game = new_game(book_of(tmp_path, text))
    options = of(events.ChoosePrompt, play(game, []))[0].options
    assert (options[0].enabled, options[0].reason) == (False, "only while Blessed")


ALLY = """
§ 1
> fight OGRE SKILL 8 STAMINA 4
> ally BRAN SKILL 9 STAMINA 6
> allié MÉRIK HABILETÉ 7 ENDURANCE 2
STRUCK
> win -> 2
§ 2
> victory
"""

# each assault: the ogre 8+1+1 = 10 against the hero 8+1+1 = 10 (a tie: no wound), then
# BRAN 9+1+1 = 11 against the ogre 8+6+6 = 20, then MÉRIK 7+1+1 against 8+6+6
TIE_THEN_LOSSES = [1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 6, 6]


@pytest.mark.parametrize(
    ("struck", "bran", "merik"),
    [("", 6, 2), ("> the enemy strikes the ally", 4, 0), ("> l'ennemi frappe l'allié", 4, 0)],
)
def test_allies_and_whom_the_enemy_strikes(tmp_path, struck, bran, merik):
    game = new_game(book_of(tmp_path, ALLY.replace("STRUCK", struck)), TIE_THEN_LOSSES)
    items = play(game, [False] * 3)
    health = {e.who: e.new for e in of(events.StatChanged, items) if e.who != "hero"}
    assert health.get("BRAN", 6) == bran and health.get("MÉRIK", 2) == merik
    keys = [e.key for e in of(events.MessageShown, items)]
    assert keys.count("ally_lost") == 2
    assert ("ally_falls" in keys) == (merik == 0)


def test_an_ally_can_win_the_fight(tmp_path):
    # the hero ties; BRAN 9+6+6 beats the ogre 8+1+1 twice: 4 -> 2 -> 0
    dice = [1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 6, 6] + [1, 1, 1, 1, 6, 6, 1, 1]
    game = new_game(book_of(tmp_path, ALLY.replace("STRUCK", "")), dice)
    items = play(game, [False] * 3)
    assert [e.outcome for e in of(events.FightEnded, items)] == ["won"]
    assert of(events.EnemyDefeated, items)[0].name == "OGRE"
    assert game.outcome == "victory" and game.state.hero.stats["STAMINA"] == 20


def test_the_blow_meant_for_the_ally(tmp_path):
    # the ogre 8+6+6 beats the hero 8+1+1: the wound goes to BRAN, who then loses too
    text = ALLY.replace("STRUCK", "> the enemy strikes the ally")
    game = new_game(book_of(tmp_path, text), [6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 6, 6])
    items = play(game, [False] * 3)
    assert game.state.hero.stats["STAMINA"] == 20
    bran = [(e.old, e.new) for e in of(events.StatChanged, items) if e.who == "BRAN"]
    assert bran[:2] == [(6, 4), (4, 2)]


ASSAULT_TABLE = """
§ 1
> fight OGRE SKILL 8 STAMINA 10
> each assault roll 1d6
> 1-2: lose 1 STAMINA
> 6 -> 40
> win -> 2
§ 2
> victory
§ 40
> victory
"""


def test_a_dice_table_rolled_each_assault(tmp_path):
    # assault 1: the hero (10 + 2) wounds the ogre (8 + 2), the table's 1: lose 1;
    # assault 2: the same, then the table's 6: turn to 40, the fight left behind
    game = new_game(book_of(tmp_path, ASSAULT_TABLE), [1] * 9 + [6])
    items = play(game, [False] * 3)
    assert [d.purpose for d in of(events.DiceRolled, items)].count("table") == 2
    assert game.state.hero.stats["STAMINA"] == 19
    assert [e.outcome for e in of(events.FightEnded, items)] == ["limit"]
    assert visited(game) == [1, 40]


def test_an_assault_table_may_kill(tmp_path):
    text = ASSAULT_TABLE.replace("> 1-2: lose 1 STAMINA", "> 1-2: lose 30 STAMINA")
    game = new_game(book_of(tmp_path, text), [1, 1, 1, 1, 1])  # a wound, the table's 1
    items = play(game, [False])
    assert game.outcome == "death" and len(of(events.Death, items)) == 1


def test_first_assault_armour_guards_only_the_first_assault(tmp_path):
    path = tmp_path / "book.dd"
    text = (
        "---\ntitle: t\nruleset: df48.5\nlanguage: en\n---\n§ 1\n> take armour\n"
        "> fight OGRE SKILL 20 STAMINA 30\n> after 5 assaults won -> 2\n> lose -> 2\n"
        "§ 2\n> victory\n"
    )
    path.write_text(text)
    book = load_book(path)
    game = Game.new(book, 1, class_name=next(iter(book.ruleset.classes)), name="Ari", lang="en")
    game.rng.force([6, 6, 1, 1] * 3)  # the ogre wins three assaults
    items = play(game, [False] * 10)
    taken = [a.hero_damage_taken for a in of(events.AssaultResolved, items)][:3]
    assert taken[0] == 0 and all(damage > 0 for damage in taken[1:])
    assert game.state.hero.fights_with_armour == 1  # one fight: one use of its wear


def test_paragraphs_listed_in_book_yaml_take_hidden_numbers(tmp_path):
    path = tmp_path / "book.dd"
    listed = "validator:\n  hidden: [40]\n"
    path.write_text(HEADER.replace("language: en\n", "language: en\n" + listed) + HIDDEN)
    game = new_game(load_book(path))
    play(game, [40])
    assert visited(game) == [1, 40] and game.outcome == "victory"


ITEM_NUMBERS = """
§ 1
> take Brass Key (number 50)
> prenez Carte (numéro 12)
-> [number of Brass Key + numéro de Carte] Add the numbers
-> 2 Drop the map
§ 2
> drop Carte
> go to [number of Brass Key + number of Carte]
§ 50
> victory
§ 62
> victory
"""


def test_numbers_noted_on_items(tmp_path):
    book = book_of(tmp_path, ITEM_NUMBERS)
    game = new_game(book)
    play(game, [1])
    assert visited(game) == [1, 62]
    assert game.snapshot()["item_numbers"] == {"brass key": 50, "carte": 12}
    game = new_game(book)
    play(game, [2])
    assert visited(game) == [1, 2, 50]  # a map no longer carried counts 0
