"""Creating the hero as book.yaml and the ruleset say (issue 12.2, 12.15): the default name,
stats typed in (``fixed_stats``), rerolls, and --hero values the ruleset can roll."""

from __future__ import annotations

from dataclasses import fields

import pytest
from dedale import events
from dedale.errors import GameError
from dedale.game import Game, InvalidAnswer
from dedale.game.random_player import RandomPlayer
from dedale.language import load_book
from dedale.language.metadata import CreationOptions
from dedale.rules import load_ruleset
from dedale.rules.character import creation_ranges

from .conftest import BOOKS, of

BUNDLED = BOOKS.parents[2] / "books"

BODY = "§ 1\nHello {name}, SKILL {SKILL}.\n> victory\n"


def book_with(tmp_path, creation: str = "", ruleset: str = "df-classic"):
    header = f"---\ntitle: t\nruleset: {ruleset}\nlanguage: en\n{creation}---\n"
    path = tmp_path / "book.dd"
    path.write_text(header + BODY, "utf-8")
    return load_book(path)


def first_prompt(game: Game) -> events.Prompt:
    while True:
        item = game.next()
        assert item is not None, "the game ended without a question"
        if isinstance(item, events.Prompt):
            return item


def finish(game: Game, answers: dict[type, object]) -> list:
    """Pull to the end, answering each prompt kind with ``answers`` (a list of items)."""
    seen = []
    for _ in range(200):
        item = game.next()
        if item is None:
            return seen
        seen.append(item)
        if isinstance(item, events.Prompt):
            game.answer(answers[type(item)])
    raise AssertionError("the game did not stop")


# ------------------------------------------------------------------ default_name


def test_the_bundled_first_steps_book_offers_its_default_name():
    book = load_book(BUNDLED / "first-steps")
    game = Game.new(book, 1, lang="en", hero=(10, 20, 9))
    prompt = first_prompt(game)
    assert prompt == events.NamePrompt(default="Ash")
    game.answer("   ")
    finish(game, {events.ChoosePrompt: 1})
    assert game.state.name == "Ash"


def test_without_default_name_the_interface_offers_its_own(tmp_path):
    book = book_with(tmp_path)
    prompt = first_prompt(Game.new(book, 1, lang="en", hero=(10, 20, 9)))
    assert prompt == events.NamePrompt(default="Hero")


# ------------------------------------------------------------------ fixed_stats

FIXED = "creation:\n  fixed_stats: true\n"


def test_fixed_stats_asks_the_stats_with_their_ranges(tmp_path):
    game = Game.new(book_with(tmp_path, FIXED), 1, lang="en", name="Ari")
    prompt = first_prompt(game)
    assert prompt == events.StatsPrompt(
        stats=(
            events.StatEntry(stat="SKILL", low=7, high=12),
            events.StatEntry(stat="STAMINA", low=14, high=24),
            events.StatEntry(stat="LUCK", low=7, high=12),
        )
    )
    seen = [prompt, *finish(game, {events.StatsPrompt: (11, 22, 8)})]
    assert game.state.hero.stats == {"SKILL": 11, "STAMINA": 22, "LUCK": 8}
    assert game.state.hero.initial == {"SKILL": 11, "STAMINA": 22, "LUCK": 8}
    assert not of(events.DiceRolled, seen)  # nothing thrown: the reader typed them
    assert events.TextShown(text="Hello Ari, SKILL 11.") in seen
    assert game.outcome == "victory"
    assert game.decisions == [[11, 22, 8]]


def test_fixed_stats_answered_none_rolls_the_dice(tmp_path):
    game = Game.new(book_with(tmp_path, FIXED), 1, lang="en", name="Ari")
    seen = finish(game, {events.StatsPrompt: None})
    rolled = of(events.DiceRolled, seen)
    assert [roll.purpose for roll in rolled] == ["SKILL", "STAMINA", "LUCK"]
    assert game.state.hero.stats == {roll.purpose: roll.total for roll in rolled}


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ((30, 20, 9), "SKILL 30 is out of range: from 7 to 12"),
        ((10, 13, 9), "STAMINA 13 is out of range: from 14 to 24"),
        ((10, 20), "2 values given for 3 stats (SKILL, STAMINA, LUCK)"),
        ((10, 20, 9, 1), "4 values given for 3 stats"),
        ((10, "20", 9), "STAMINA is answered with a whole number, not '20'"),
        ((True, 20, 9), "SKILL is answered with a whole number, not True"),
        ("10 20 9", "the stats are answered with numbers"),
        (12, "the stats are answered with numbers, not 12"),
    ],
)
def test_fixed_stats_refuses_bad_answers_and_changes_nothing(tmp_path, answer, says):
    game = Game.new(book_with(tmp_path, FIXED), 1, lang="en", name="Ari")
    prompt = first_prompt(game)
    with pytest.raises(InvalidAnswer) as caught:
        game.answer(answer)
    assert says in caught.value.message
    assert game.prompt is prompt and game.decisions == []
    game.answer([7, 14, 7])  # the question is still open
    finish(game, {})
    assert game.state.hero.stats == {"SKILL": 7, "STAMINA": 14, "LUCK": 7}


def test_typed_stats_replay_exactly(tmp_path):
    book = book_with(tmp_path, FIXED)
    game = Game.new(book, 5, lang="en", name="Ari")
    finish(game, {events.StatsPrompt: (12, 24, 12)})
    again = game.fresh()
    again.replay(game.decisions)
    assert again.state.to_dict() == game.state.to_dict()


def test_fixed_stats_with_hero_given_asks_nothing(tmp_path):
    game = Game.new(book_with(tmp_path, FIXED), 1, lang="en", name="Ari", hero=(9, 18, 8))
    finish(game, {})
    assert game.state.hero.stats == {"SKILL": 9, "STAMINA": 18, "LUCK": 8}


def test_fixed_stats_ranges_follow_the_class():
    book = load_book(BOOKS / "mondes.dd")
    ruleset = book.ruleset
    for class_id, klass in ruleset.classes.items():
        ranges = creation_ranges(ruleset, class_id)
        for stat, roll in klass.stats.items():
            assert ranges[stat] == (roll.min(), roll.max())


def test_ranges_of_derived_and_fixed_rolls():
    d20 = creation_ranges(load_ruleset("d20"))
    assert d20["CON"] == (3, 18)
    assert d20["HP"] == (11, 26)  # 8+CON
    assert d20["ACTION"] == (2, 2)  # a fixed value: never asked
    reliques = creation_ranges(load_ruleset("reliques"))
    assert reliques["HEALTH"] == (5, 30)  # CON five times


def test_the_random_player_answers_typed_stats(tmp_path):
    book = book_with(tmp_path, FIXED)
    answers = set()
    for seed in range(12):
        game = Game.new(book, seed, lang="en", name="Ari", quiet=True)
        player = RandomPlayer(seed)
        run = player.play(game)
        assert run.error is None and run.outcome == "victory"
        answers.add(None if game.decisions[0] is None else "typed")
        for stat, (low, high) in creation_ranges(book.ruleset).items():
            assert low <= game.state.hero.stats[stat] <= high
    assert answers == {None, "typed"}  # both ways are tried


# ------------------------------------------------------------------ --hero values


def test_hero_values_outside_the_roll_are_refused(tmp_path):
    book = book_with(tmp_path)
    with pytest.raises(GameError) as caught:
        Game.new(book, 1, hero=(30, 20, 9), lang="en")
    assert caught.value.message == ("SKILL 30 is out of reach: creation gives SKILL from 7 to 12")
    assert "playtest" in caught.value.hint
    with pytest.raises(GameError, match="STAMINA 2 is out of reach"):
        Game.new(book, 1, hero=(10, 2), lang="en")


def test_hero_values_name_the_stat_in_the_games_language(tmp_path):
    book = book_with(tmp_path)
    with pytest.raises(GameError, match="HABILETÉ 13 is out of reach"):
        Game.new(book, 1, hero=(13, 20, 9), lang="fr")


def test_free_stats_accepts_any_hero(tmp_path):
    book = book_with(tmp_path)
    game = Game.new(book, 1, hero=(30, 2, 9), name="A", lang="en", free_stats=True)
    finish(game, {})
    assert game.state.hero.stats == {"SKILL": 30, "STAMINA": 2, "LUCK": 9}


def test_hero_values_are_checked_against_the_class():
    book = load_book(BOOKS / "mondes.dd")
    ruleset = book.ruleset
    high = {c: creation_ranges(ruleset, c)["SKILL"][1] for c in ruleset.classes}
    weaker = min(high, key=high.get)
    stronger = max(high, key=high.get)
    assert high[weaker] < high[stronger]
    top = high[stronger]
    Game.new(book, 1, hero=(top, 20, 9), class_name=stronger, name="A")
    Game.new(book, 1, hero=(top, 20, 9), name="A")  # the class is asked later: any class's
    with pytest.raises(GameError, match="out of reach"):
        Game.new(book, 1, hero=(top, 20, 9), class_name=weaker, name="A")


# ------------------------------------------------------------------ the audit (12.4)


def _plays_default_name(tmp_path) -> None:
    book = book_with(tmp_path, "creation:\n  default_name: Ysolde\n")
    game = Game.new(book, 1, lang="en", hero=(10, 20, 9))
    seen = finish(game, {events.NamePrompt: ""})
    assert events.NamePrompt(default="Ysolde") in seen
    assert events.TextShown(text="Hello Ysolde, SKILL 10.") in seen


def _plays_fixed_stats(tmp_path) -> None:
    book = book_with(tmp_path, FIXED)
    game = Game.new(book, 1, lang="en", name="Ari")
    seen = finish(game, {events.StatsPrompt: (8, 15, 7)})
    assert events.TextShown(text="Hello Ari, SKILL 8.") in seen


def _plays_reroll(tmp_path) -> None:
    for policy, offers in (("never", 0), ("once", 1), ("unlimited", 5)):
        book = book_with(tmp_path, f"creation:\n  reroll: {policy}\n")
        game = Game.new(book, 1, lang="en", name="Ari")
        asked = 0
        for _ in range(100):
            item = game.next()
            if item is None:
                break
            if isinstance(item, events.YesNoPrompt):
                asked += 1
                game.answer(asked < 5)  # "roll again" four times, then keep
        assert asked == offers, policy
        assert game.outcome == "victory"


def _plays_gender(tmp_path) -> None:
    # the hero's gender is grammar: the French sentences about the hero agree with it
    import io

    from dedale.plain.player import PlainPlayer

    for written, shown in (("f", "Vous êtes morte."), ("m", "Vous êtes mort.")):
        path = tmp_path / f"{written}.dd"
        path.write_text(
            f"---\ntitle: t\nlanguage: fr\ncreation:\n  gender: {written}\n---\n"
            "§ 1\nUn piège.\n> mort\n",
            "utf-8",
        )
        game = Game.new(load_book(path), 1, lang="fr", name="Ari", hero=(10, 20, 9))
        out = io.StringIO()
        PlainPlayer(game, io.StringIO(""), out).play()
        assert shown in out.getvalue()


CREATION_EFFECTS = {
    "default_name": _plays_default_name,
    "gender": _plays_gender,
    "fixed_stats": _plays_fixed_stats,
    "reroll": _plays_reroll,
}


def test_every_creation_option_has_an_effect_in_play():
    """A documented creation option that no test plays is a defect (issue 12.4)."""
    assert {field.name for field in fields(CreationOptions)} == set(CREATION_EFFECTS)


@pytest.mark.parametrize("option", sorted(CREATION_EFFECTS))
def test_creation_option_plays(tmp_path, option):
    CREATION_EFFECTS[option](tmp_path)


def test_huge_numbers_are_refused_without_being_written_out(tmp_path):
    game = Game.new(book_with(tmp_path, FIXED), 1, lang="en", name="Ari")
    first_prompt(game)
    with pytest.raises(InvalidAnswer, match="SKILL a number too large is out of range"):
        game.answer([10**5000, 20, 9])
    with pytest.raises(GameError, match="SKILL a number too large is out of reach"):
        Game.new(book_with(tmp_path), 1, hero=(10**5000, 20, 9), lang="en")
    choosing = Game.new(book_of_choices(tmp_path), 1, hero=(10, 20, 9), name="A", lang="en")
    first_prompt(choosing)
    with pytest.raises(InvalidAnswer, match="a number too large is not a number this game"):
        choosing.answer(10**5000)


def book_of_choices(tmp_path):
    path = tmp_path / "choices.dd"
    path.write_text(
        "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n§ 1\n-> 2 On\n\n§ 2\n> victory\n",
        "utf-8",
    )
    return load_book(path)


def test_typed_stats_come_after_the_class_with_its_ranges(tmp_path):
    book = book_with(tmp_path, FIXED, ruleset="df48.5")
    ruleset = book.ruleset
    for class_id in ruleset.classes:
        game = Game.new(book, 1, lang="en", name="Ari")
        assert isinstance(first_prompt(game), events.ClassPrompt)
        game.answer(class_id)
        prompt = first_prompt(game)
        ranges = creation_ranges(ruleset, class_id)
        assert prompt == events.StatsPrompt(
            stats=tuple(
                events.StatEntry(stat=stat, low=low, high=high)
                for stat, (low, high) in ranges.items()
                if low < high
            )
        )
        highest = [entry.high for entry in prompt.stats]
        game.answer(highest)
        finish(game, {events.YesNoPrompt: False})
        assert [game.state.hero.stats[e.stat] for e in prompt.stats] == highest
