"""State changes (issue 13 §7) in the interpreter: lowering an initial value, stat
triggers on items, penalties until an item is found, inventory limits with exemptions,
optional pick-ups and dropping, shops selling counters — one small book each."""

from __future__ import annotations

import json

import pytest
from dedale import events
from dedale.errors import DedaleError, SaveError
from dedale.game import Game, InvalidAnswer
from dedale.game.saving import load_game, replay_save, save_game, to_save
from dedale.language import load_book
from dedale.rules.character import Character
from dedale.validator import validate_path

from .conftest import play

HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"


def book_of(tmp_path, text: str, header: str = HEADER):
    path = tmp_path / "book.dd"
    path.write_text(header + text, "utf-8")
    return load_book(path)


def new_game(book, force=(), hero=(10, 20, 9)) -> Game:
    game = Game.new(book, 1, hero=hero, name="Ari", lang="en", free_stats=True)
    game.rng.force(list(force))
    return game


LOWER = """
§ 1
> lower initial SKILL by 2
> diminuez votre HABILETÉ initiale de 1
> reduce your LUCK initial by 20
> lower initial meals by 3
-> 2 On
§ 2
> victory
"""


def test_lower_initial_brings_the_current_value_down(tmp_path):
    game = new_game(book_of(tmp_path, LOWER))
    play(game, [1])
    hero = game.state.hero
    assert (hero.initial["SKILL"], hero.stats["SKILL"]) == (7, 7)
    assert (hero.initial["LUCK"], hero.stats["LUCK"]) == (0, 0)  # never below 0
    assert hero.counters["meals"] == 7  # a counter: its starting value less 3
    assert game.state.outcome == "victory"


def test_lower_initial_keeps_a_current_value_already_below():
    hero = Character(stats={"SKILL": 6}, initial={"SKILL": 10})
    assert hero.lower_initial("SKILL", 2) == (6, 6) and hero.initial["SKILL"] == 8


def test_lower_initial_leaves_an_uncapped_stat_above():
    hero = Character(stats={"SKILL": 12}, initial={"SKILL": 10}, uncapped=frozenset({"SKILL"}))
    assert hero.lower_initial("SKILL", 3) == (12, 12) and hero.initial["SKILL"] == 7


POTION = """
§ 1
> take Phoenix Draught (when STAMINA falls to 0: restore STAMINA)
> lose 25 STAMINA
-> 2 On
§ 2
> prenez Fiole (quand votre ENDURANCE tombe à 0 : gagnez 4 ENDURANCE)
> fight OGRE SKILL 30 STAMINA 2
> win -> 3
§ 3
> victory
"""


def test_a_potion_saves_the_hero_once_outside_a_fight(tmp_path):
    game = new_game(book_of(tmp_path, POTION))
    seen = play(game, [])
    fired = [e for e in seen if isinstance(e, events.MessageShown) and e.key == "trigger_fired"]
    assert fired[0].params == (("item", "Phoenix Draught"),)
    hero = game.state.hero
    assert hero.stats["STAMINA"] == 20 and not hero.has("Phoenix Draught")
    assert game.state.outcome is None  # not dead: the choice is offered


def test_a_potion_acts_in_a_fight_then_the_hero_dies(tmp_path):
    # the ogre wins every assault (SKILL 30): 10 wounds to 0, the flask gives 4, 2 more
    game = new_game(book_of(tmp_path, POTION), force=[1, 1] * 40)
    seen = play(game, [1] + [False] * 40)
    ended = [e for e in seen if isinstance(e, events.FightEnded)]
    assert [(e.outcome, e.assaults) for e in ended] == [("lost", 12)]
    fired = [
        e.params for e in seen if isinstance(e, events.MessageShown) and e.key == "trigger_fired"
    ]
    assert fired[-1] == (("item", "Fiole"),)
    assert game.state.outcome == "death"


def test_a_trigger_survives_a_save_and_replays(tmp_path):
    book = book_of(tmp_path, POTION.replace("> lose 25 STAMINA\n", ""))
    game = new_game(book)
    play(game, [])
    path = save_game(game, tmp_path / "a.dsave")
    loaded, report = load_game(book, path)
    assert report.divergence is None
    info = loaded.state.hero.item_effects["Phoenix Draught"]
    assert info.triggers == (("STAMINA", 0, "restore", "STAMINA", None),)
    assert loaded.snapshot() == game.snapshot()


def test_a_corrupted_saved_trigger_is_refused(tmp_path):
    book = book_of(tmp_path, POTION.replace("> lose 25 STAMINA\n", ""))
    game = new_game(book)
    play(game, [])
    path = save_game(game, tmp_path / "a.dsave")
    data = json.loads(path.read_text("utf-8"))
    data["state"]["hero"]["item_effects"]["Phoenix Draught"]["triggers"][0][2] = "explode"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(SaveError, match="triggers"):
        load_game(book, path)


def test_a_trigger_on_an_unknown_stat_is_located(tmp_path):
    with pytest.raises(DedaleError) as raised:
        book_of(tmp_path, "§ 1\n> take Vial (when MANA falls to 0: lose 1 SKILL)\n> victory\n")
    error = raised.value.errors[0]
    assert "MANA" in error.message and (error.span.line, error.span.column) == (7, 14)


PENALTY = """
§ 1
> lose 2 SKILL until you find a weapon
> perdez 1 HABILETÉ jusqu'à trouver Bouclier
-> 2 On
§ 2
> take Sword (weapon)
> take Bouclier
> victory
"""


def test_a_penalty_is_given_back_when_the_item_is_found(tmp_path):
    game = new_game(book_of(tmp_path, PENALTY))
    play(game, [])
    assert game.state.hero.stats["SKILL"] == 7
    assert [p["amount"] for p in game.state.penalties.values()] == [2, 1]
    seen = play(game, [1])
    lifted = [e.params for e in seen if isinstance(e, events.MessageShown)]
    assert [dict(p)["until"] for p in lifted] == ["a weapon", "Bouclier"]
    assert game.state.hero.stats["SKILL"] == 10 and not game.state.penalties


def test_no_penalty_when_the_item_is_already_held(tmp_path):
    book = book_of(tmp_path, "§ 1\n> take Dagger (weapon)\n" + PENALTY.split("§ 1\n")[1])
    game = new_game(book)
    play(game, [])
    assert game.state.hero.stats["SKILL"] == 9  # only the shield's penalty


def test_a_penalty_is_saved_shown_and_checked(tmp_path):
    book = book_of(tmp_path, PENALTY)
    game = new_game(book)
    play(game, [])
    path = save_game(game, tmp_path / "a.dsave")
    loaded, report = load_game(book, path)
    assert report.divergence is None and loaded.state.penalties == game.state.penalties
    data = json.loads(path.read_text("utf-8"))
    next(iter(data["state"]["penalties"].values()))["amount"] = "lots"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(SaveError, match="penalties"):
        load_game(book, path)


def test_a_penalty_with_dice_is_a_located_error(tmp_path):
    with pytest.raises(DedaleError) as raised:
        book_of(tmp_path, "§ 1\n> lose 1d6 LUCK until Sword\n> victory\n")
    error = raised.value.errors[0]
    assert "not dice" in error.message and error.span.line == 7


def test_a_penalty_nothing_lifts_is_w063(tmp_path):
    text = (
        "§ 1\n> lose 2 SKILL until you find Silver Sword\n> lose 1 LUCK until you find a weapon\n"
    )
    book_of(tmp_path, text + "> victory\n")
    found = validate_path(tmp_path / "book.dd", runs=0, seed=0).findings
    w063 = [(f.span.line, f.message) for f in found if f.code == "W063"]
    assert w063 == [
        (7, "this penalty lasts until the hero has Silver Sword, which nothing gives"),
        (8, "this penalty lasts until the hero has a weapon, which nothing gives"),
    ]
    book_of(tmp_path, text + "> take Silver Sword (weapon)\n> victory\n")
    found = validate_path(tmp_path / "book.dd", runs=0, seed=0).findings
    assert not [f for f in found if f.code in ("W063", "I025")]


LIMIT = """---
title: t
ruleset: df-classic
language: en
rules:
  inventory_limit: 2
  inventory_exempt: [ring, Iron Key, armour]
---
"""


def test_exempt_items_do_not_count_toward_the_limit(tmp_path):
    text = (
        "§ 1\n> take Rope\n> take Gold Ring (ring)\n> take Iron Key\n> take Lamp\n"
        "> take Bread\n> victory\n"
    )
    game = new_game(book_of(tmp_path, text, LIMIT))
    seen = play(game, ["Lamp"])
    prompt = next(e for e in seen if isinstance(e, events.DropItemPrompt))
    assert prompt.items == ("Rope", "Lamp", "Bread") and prompt.limit == 2
    assert set(game.state.hero.items) == {"Rope", "Gold Ring", "Iron Key", "Bread"}


def test_a_tag_survives_a_save(tmp_path):
    book = book_of(tmp_path, "§ 1\n> take Gold Ring (ring)\n-> 2 On\n§ 2\n> victory\n", LIMIT)
    game = new_game(book)
    play(game, [])
    loaded, _ = load_game(book, save_game(game, tmp_path / "a.dsave"))
    assert loaded.state.hero.item_effects["Gold Ring"].tags == ("ring",)
    assert not loaded.state.hero.counts_toward_limit("Gold Ring", book.ruleset)


PICKUP = """
§ 1
> you may take Rope
> vous pouvez prendre 2 Torches
-> 2 On
§ 2
> victory
"""


def test_an_optional_pick_up_asks_the_reader(tmp_path):
    game = new_game(book_of(tmp_path, PICKUP))
    seen = play(game, [True, False])
    asked = [e.params for e in seen if isinstance(e, events.YesNoPrompt)]
    assert asked == [(("item", "Rope"),), (("item", "2 Torches"),)]
    assert game.state.hero.items == {"Rope": 1}


def test_dropping_at_will_is_a_decision_and_replays(tmp_path):
    book = book_of(tmp_path, PICKUP)
    game = new_game(book)
    play(game, [True, True])
    assert game.droppable() == ("Rope", "Torches")
    with pytest.raises(InvalidAnswer):
        game.drop("Lamp")
    lost = game.drop("torches")
    assert [type(e) for e in lost] == [events.ItemLost]
    assert game.decisions[-1] == {"action": "drop", "item": "Torches"}
    assert game.state.hero.items == {"Rope": 1, "Torches": 1}
    result = replay_save(book, to_save(game))
    assert result.difference is None


def test_nothing_is_dropped_outside_a_choice(tmp_path):
    game = new_game(book_of(tmp_path, PICKUP))
    play(game, [])  # at the yes/no question
    assert game.droppable() == ()
    with pytest.raises(InvalidAnswer):
        game.drop("Rope")


SHOP = """---
title: t
ruleset: df-classic
language: en
rules:
  counters:
    meals: {max: 12}
---
§ 1
> gain 5 gold
> buy 2 Provisions for 3 gold
> achetez 1 repas pour 1 or
> sell 1 Provisions for 1 gold
-> 2 On
§ 2
> victory
"""


def test_a_shop_sells_and_buys_counters(tmp_path):
    book = book_of(tmp_path, "", SHOP)
    game = new_game(book)
    seen = play(game, [1, 2, 3, 4])
    first = next(e for e in seen if isinstance(e, events.ChoosePrompt))
    assert [o.text for o in first.options][:2] == [
        "Buy 2 Provisions (3 Gold pieces)",
        "Buy Provisions (1 Gold piece)",
    ]
    capped = [e for e in seen if isinstance(e, events.MessageShown) and e.key == "counter_max"]
    assert len(capped) == 1  # 10 + 2 = 12, then + 1 is cut back to 12
    hero = game.state.hero
    assert (hero.counters["meals"], hero.counters["gold"], hero.items) == (11, 2, {})


def test_a_shop_of_counters_loads_and_validates_clean(tmp_path):
    book_of(tmp_path, "", SHOP)
    found = validate_path(tmp_path / "book.dd", runs=20, seed=0).findings
    assert [f.code for f in found if f.code != "W012"] == []


WATCHED = """
§ 1
> gain 6 gold
> bet up to 5 gold on GARTH SKILL 9 STAMINA 4 against BRUTE SKILL 7 STAMINA 4
-> 2 On
§ 2
> victory
"""


@pytest.mark.parametrize(("pick", "gold"), [(1, 9), (2, 3)])
def test_a_wager_on_a_watched_fight(tmp_path, pick, gold):
    # GARTH 9+6+6 against BRUTE 7+1+1 (faces as the quiet rules core draws them), twice:
    # GARTH wins at the second assault
    game = new_game(book_of(tmp_path, WATCHED), force=[1, 1, 6, 6] * 2)
    seen = play(game, [pick, 3])
    watched = next(
        e for e in seen if isinstance(e, events.MessageShown) and e.key == "watched_fight"
    )
    assert dict(watched.params) == {"winner": "GARTH", "loser": "BRUTE", "assaults": 2}
    assert game.state.hero.counters["gold"] == gold
    assert game.state.hero.stats["STAMINA"] == 20  # the hero only watched
    assert not [e for e in seen if isinstance(e, events.FightStarted)]


def test_the_watched_fight_is_the_rules_core_fight(tmp_path):
    from dedale.rules import RandomSource, run_fight
    from dedale.rules.fights import EnemySpec, FightSpec, watched_fight

    book = book_of(tmp_path, WATCHED)
    garth = EnemySpec("GARTH", {"SKILL": 9, "STAMINA": 4})
    brute = EnemySpec("BRUTE", {"SKILL": 7, "STAMINA": 4})
    for seed in range(20):
        hero = Character(
            stats={"SKILL": 9, "STAMINA": 4, "LUCK": 0},
            initial={"SKILL": 9, "STAMINA": 4, "LUCK": 0},
        )
        hero.gain("GARTH")
        direct = _drain(
            run_fight(book.ruleset, hero, RandomSource(seed), FightSpec((brute,)), emit=False)
        )
        watched = _drain(watched_fight(book.ruleset, garth, brute, RandomSource(seed)))
        assert (watched.outcome, watched.assaults) == (direct.outcome, direct.assaults)


def _drain(gen):
    try:
        while True:
            item = next(gen)
            raise AssertionError(f"a watched fight asked {item}")
    except StopIteration as stop:
        return stop.value


def test_no_bet_and_nothing_to_bet(tmp_path):
    game = new_game(book_of(tmp_path, WATCHED))
    play(game, [3])
    assert game.state.hero.counters["gold"] == 6
    game = new_game(book_of(tmp_path, WATCHED.replace("> gain 6 gold\n", "")))
    seen = play(game, [])
    assert not [e for e in seen if isinstance(e, events.MessageShown)]


def test_a_watched_wager_without_its_second_fighter_is_located(tmp_path):
    with pytest.raises(DedaleError) as raised:
        book_of(tmp_path, "§ 1\n> bet up to 5 gold on GARTH SKILL 9 STAMINA 4\n> victory\n")
    assert raised.value.errors[0].span.line == 7


def test_an_optional_item_needed_later_is_info_not_an_error(tmp_path):
    text = (
        "§ 1\n> you may take Iron Key\n-> 2 On\n§ 2\n-> 3 (if Iron Key) Open the gate\n"
        "-> 4 Climb\n§ 3\n> victory\n§ 4\n> victory\n"
    )
    book_of(tmp_path, text)
    found = validate_path(tmp_path / "book.dd", runs=50, seed=0).findings
    assert [(f.code, f.span.line) for f in found] == [("I064", 10)]
    book_of(tmp_path, text.replace("> victory\n§ 4", "> take Iron Key\n> victory\n§ 4"))
    found = validate_path(tmp_path / "book.dd", runs=50, seed=0).findings
    assert [f.code for f in found] == []


def test_the_help_screen_names_the_exemptions():
    from pathlib import Path

    from dedale.player.rules_summary import summarise
    from dedale.player.texts import Texts

    book = load_book(Path(__file__).resolve().parents[1] / "books_extra" / "changes")
    assert "Not counted in that limit: ring and key." in summarise(book.ruleset, Texts("en"))
    assert "Ne comptent pas dans cette limite\u00a0: ring et key." in summarise(
        book.ruleset, Texts("fr")
    )


def test_a_game_resumed_from_a_snapshot_still_watches_its_triggers(tmp_path):
    text = (
        "§ 1\n> take Vial (when STAMINA falls to 0: gain 5 STAMINA)\n-> 2 On\n"
        "§ 2\n> lose 30 STAMINA\n-> 3 On\n§ 3\n> victory\n"
    )
    book = book_of(tmp_path, text)
    game = new_game(book)
    play(game, [])
    resumed = Game(book, 1, dict(game.creation), origin={"state": game.state.to_dict()})
    play(resumed, [1])
    assert resumed.state.hero.stats["STAMINA"] == 5 and resumed.state.outcome is None


def test_a_rule_needing_more_items_than_fit_is_w065(tmp_path):
    text = (
        "§ 1\n> take Rope\n> take Lamp\n> take Gold Ring (ring)\n> take Map\n"
        "-> 2 (if Rope and Lamp and Gold Ring and Iron Key) Open the vault\n-> 2 Leave\n"
        "§ 2\n> take Iron Key\n> victory\n"
    )
    book_of(tmp_path, text, LIMIT)  # limit 2; rings and the Iron Key exempt
    found = validate_path(tmp_path / "book.dd", runs=0, seed=0).findings
    assert [f.code for f in found if f.code == "W065"] == []  # Rope and Lamp: 2 fit
    book_of(tmp_path, text.replace("Gold Ring and", "Map and"), LIMIT)
    found = validate_path(tmp_path / "book.dd", runs=0, seed=0).findings
    w065 = [(f.span.line, f.message) for f in found if f.code == "W065"]
    assert w065 == [(14, "this needs 3 items at once, but the hero may carry only 2")]


def test_drop_answers_the_inventory_limit_question_in_the_plain_player(tmp_path):
    import io

    from dedale.plain.player import PlainPlayer

    book = book_of(tmp_path, "§ 1\n> take Rope\n> take Lamp\n> take Map\n> victory\n", LIMIT)
    game = new_game(book)
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("drop lamp\n"), out, echo=True).play()
    assert game.state.outcome == "victory" and set(game.state.hero.items) == {"Rope", "Map"}
