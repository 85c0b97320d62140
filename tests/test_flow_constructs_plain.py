"""The flow test book (issue 13.3 and 13.5) played end to end by the plain player: choices
that carry effects (a bowl of stew, a bird to take, a drink that may kill), `if` with
several effects (one line, or an indented block), and choices standing before a fight and
before a Luck test, offered there with a "go on" option. Transcripts are snapshotted;
saves and replays taken at a mid-paragraph prompt, and the random player, are checked."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.game.saving import load_game, replay_save, save_game, to_save
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

FLOW = Path(__file__).resolve().parent / "books_extra" / "flow"
HERO = (10, 16, 9)  # SKILL, STAMINA, LUCK
# the troll rolls first each assault: 1+1 against the hero's 6+6, twice; then Luck: 1+1
VICTORY_DICE = [1, 1, 6, 6, 1, 1, 6, 6, 1, 1]


@pytest.fixture(scope="module")
def book():
    return load_book(FLOW)


def new_game(book, lang: str = "en", hero=HERO) -> Game:
    return Game.new(book, 1, hero=hero, name="Ari", lang=lang, free_stats=True)


def play(book, lines: str, force=(), lang: str = "en", hero=HERO) -> tuple[int, str, Game]:
    game = new_game(book, lang, hero)
    game.rng.force(force)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


def _path(game: Game) -> list[int]:
    return [entry.paragraph for entry in game.state.history]


def test_stew_then_the_troll_then_the_luck_test(book, snapshot):
    # stew, fight the troll (no Luck on the two wounds dealt), test your Luck: lucky
    code, text, game = play(book, "1\n2\nn\nn\n2\n", VICTORY_DICE)
    assert code == EXIT_VICTORY
    assert _path(game) == [1, 2, 3, 5]
    # the stew: 2 gold paid, 4 STAMINA back (14 -> 16); no bird: 3 STAMINA and 1 LUCK lost
    assert "Gold pieces: 5 -> 3\nSTAMINA: 14 -> 16" in text
    assert "STAMINA: 16 -> 13" in text and "LUCK: 9 -> 8" in text
    # the choice before the fight is offered with the fight, before any die is rolled
    assert "  1. Wade across the ford\n  2. Fight TROLL\nYour choice?" in text
    assert text.index("2. Fight TROLL") < text.index("Fight!")
    assert "  1. Go down to the ford\n  2. Test your Luck\nYour choice?" in text
    assert game.state.hero.counters["gold"] == 3
    assert text == snapshot


def test_the_bird_and_the_ford_in_french(book, snapshot):
    # the roast bird (taken by a choice, eaten by the indented `if` block), then the ford
    code, text, game = play(book, "2\n1\n1\n", (), lang="fr")
    assert code == EXIT_VICTORY
    assert _path(game) == [1, 2, 4, 5]
    assert "Vous prenez\u00a0: Roast Bird" in text
    assert "ENDURANCE\u00a0: 14 -> 16" in text and "Vous perdez\u00a0: Roast Bird" in text
    assert "CHANCE\u00a0: 9 -> 8" not in text  # the `otherwise` did not run
    assert "  1. Wade across the ford\n  2. Combattre TROLL\n" in text
    assert game.rng.log == []  # no die rolled: no fight when wading
    assert text == snapshot


def test_a_choice_with_effects_may_kill(book):
    # STAMINA 4: the chill takes 2, the fire-water 3 more: the hero dies at the inn
    code, text, game = play(book, "3\n", (), hero=(10, 4, 9))
    assert code == EXIT_DEATH
    assert game.state.death_reason == "health"
    assert _path(game) == [1]
    assert "STAMINA: 2 -> 0" in text


def test_the_choice_before_the_test_skips_it(book):
    # the ford instead of the Luck test: no die is rolled at the cliff
    code, _, game = play(book, "1\n2\nn\nn\n1\n1\n", VICTORY_DICE[:8])
    assert code == EXIT_VICTORY
    assert _path(game) == [1, 2, 3, 4, 5]
    assert game.state.hero.stats["LUCK"] == 8  # no Luck spent at the cliff


def test_unlucky_reads_on_to_the_last_choice_only(book):
    # unlucky at the cliff (6+6): 2 STAMINA lost, then only the choice written after the
    # test is offered (the ford, offered before the test, is not offered again)
    code, text, game = play(book, "1\n2\nn\nn\n2\n1\n", [*VICTORY_DICE[:8], 6, 6])
    assert code == EXIT_VICTORY
    assert _path(game) == [1, 2, 3, 5]
    tail = text[text.index("unlucky") :]
    assert "  1. Haul yourself over the top\nYour choice?" in tail
    assert "ford" not in tail


def _at_the_bridge(book) -> Game:
    game = new_game(book)
    game.rng.force(VICTORY_DICE)
    game.replay([1])  # the stew: now at the bridge's prompt (fight or ford)
    return game


def test_a_save_at_a_mid_paragraph_prompt_replays_exactly(book, tmp_path):
    game = _at_the_bridge(book)
    assert [o.text for o in game.prompt.options] == ["Wade across the ford", "Fight TROLL"]
    assert game.snapshot()["stop"] == 1
    result = replay_save(book, to_save(game))
    assert result.difference is None and result.paragraph == 2
    path = save_game(game, tmp_path / "bridge.json")
    loaded, report = load_game(book, path)
    assert report.divergence is None and not report.fallback
    assert [o.text for o in loaded.prompt.options] == ["Wade across the ford", "Fight TROLL"]


def test_a_snapshot_taken_at_a_mid_paragraph_prompt_resumes_there(book):
    state = _at_the_bridge(book).snapshot()
    resumed = Game(book, 7, origin={"state": state, "seed": 7})
    resumed.replay([])
    assert resumed.state.paragraph == 2
    assert [o.text for o in resumed.prompt.options] == ["Wade across the ford", "Fight TROLL"]
    assert resumed.state.hero.stats["STAMINA"] == 13  # the paragraph's losses not run again
    resumed.answer(1)  # the ford
    resumed.replay([])
    assert resumed.state.paragraph == 4


def test_a_snapshot_at_the_last_choices_does_not_stop_before_the_rules(book):
    game = new_game(book)
    game.rng.force([*VICTORY_DICE[:8], 6, 6])
    game.replay([1, 2, False, False, 2])  # unlucky at the cliff: its last choice
    state = game.snapshot()
    assert "stop" not in state
    resumed = Game(book, 7, origin={"state": state, "seed": 7})
    resumed.replay([])
    assert [o.text for o in resumed.prompt.options] == ["Haul yourself over the top"]


def test_random_games_take_both_ways(book):
    ends: dict[str, int] = {}
    fought = waded = 0
    for seed in range(60):
        game = Game.new(book, seed, name="Ari", lang="en")
        run = RandomPlayer(seed).play(game)
        assert run.error is None and not run.stopped
        ends[game.outcome] = ends.get(game.outcome, 0) + 1
        path = _path(game)
        fought += 3 in path
        waded += 4 in path
    assert set(ends) <= {"victory", "death"} and sum(ends.values()) == 60
    assert fought and waded
