"""Enemy stats written as dice (issue 11.15): ``> enemy OGRE SKILL 2d6 STAMINA 1d6`` is
rolled when the fight starts, shown as dice, replayed exactly; the odds side gets every
possible enemy with its probability (rules.fights.enemy_outcomes / fight_outcomes)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dedale import ast, events
from dedale.game import Game
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import AlwaysNo, RandomSource, parse_dice
from dedale.rules.fights import (
    EnemySpec,
    FightSpec,
    enemy_outcomes,
    enemy_stat_values,
    fight_outcomes,
    roll_enemies,
)

from .conftest import of


def book_of(tmp_path, text: str, ruleset: str = "df-classic"):
    path = tmp_path / "book.dd"
    path.write_text(f"---\ntitle: t\nruleset: {ruleset}\nlanguage: en\n---\n{text}", "utf-8")
    return load_book(path)


OGRE = """§ 1
An ogre.
> fight
> enemy OGRE SKILL 2d6 STAMINA 1d6
> win -> 2

§ 2
> victory
"""


def run(game: Game) -> list:
    seen = []
    for _ in range(500):
        item = game.next()
        if item is None:
            return seen
        seen.append(item)
        if isinstance(item, events.Prompt):
            game.answer(False)  # no Luck
    raise AssertionError("the game did not stop")


def test_dice_stats_are_rolled_when_the_fight_starts(tmp_path):
    game = Game.new(book_of(tmp_path, OGRE), 1, hero=(12, 24, 9), name="A", lang="en")
    while not isinstance(game.next(), events.ParagraphEntered):
        pass
    game.rng.force([3, 4, 2])  # SKILL 3 + 4, STAMINA 2
    seen = run(game)
    rolled = of(events.DiceRolled, seen)[:2]
    assert rolled == [
        events.DiceRolled(purpose="SKILL", faces=(3, 4), total=7, expression="2d6", who="OGRE"),
        events.DiceRolled(purpose="STAMINA", faces=(2,), total=2, expression="1d6", who="OGRE"),
    ]
    started = of(events.FightStarted, seen)[0]
    assert started.enemies == (("OGRE", (("SKILL", 7), ("STAMINA", 2))),)
    assert seen.index(rolled[1]) < seen.index(started)  # the dice, then the fight
    ended = of(events.FightEnded, seen)[0]
    assert ended.assaults >= 1  # never "won in 0 assaults"
    assert game.outcome == "victory"


def test_the_rolls_replay_exactly_and_quietly(tmp_path):
    book = book_of(tmp_path, OGRE)
    for seed in range(6):
        loud = Game.new(book, seed, hero=(7, 14, 7), name="A", lang="en")
        seen = run(loud)
        again = loud.fresh()
        again.replay(loud.decisions)
        assert again.state.to_dict() == loud.state.to_dict()
        assert again.rng.log == loud.rng.log
        quiet = Game.new(book, seed, hero=(7, 14, 7), name="A", lang="en", quiet=True)
        run(quiet)
        assert quiet.state.to_dict() == loud.state.to_dict()
        (started,) = of(events.FightStarted, seen)
        stats = dict(started.enemies[0][1])
        assert 2 <= stats["SKILL"] <= 12 and 1 <= stats["STAMINA"] <= 6


def test_each_fight_rolls_again(tmp_path):
    text = OGRE.replace("> win -> 2", "> win -> 3") + "\n§ 3\n-> 1 Again\n-> 2 Leave\n"
    book = book_of(tmp_path, text)
    game = Game.new(book, 2, hero=(12, 24, 12), name="A", lang="en", quiet=False)
    seen = []
    answers = iter([1, 1, 1, 2])
    for _ in range(2000):
        item = game.next()
        if item is None:
            break
        seen.append(item)
        if isinstance(item, events.ChoosePrompt):
            game.answer(next(answers))
        elif isinstance(item, events.Prompt):
            game.answer(False)
    fights = [dict(f.enemies[0][1]) for f in of(events.FightStarted, seen)]
    assert len(fights) == 4
    assert len({tuple(f.items()) for f in fights}) > 1  # not rolled once for the book


def test_d20_dice_health_is_rolled_and_damage_stays_the_weapon(tmp_path):
    text = """§ 1
> fight
> enemy RAT AC 5 attack +0 damage 1d4 HP 1d4
> win -> 2

§ 2
> victory
"""
    book = book_of(tmp_path, text, ruleset="d20")
    statement = next(s for s in book.paragraphs[1].body if type(s) is ast.Fight)
    spec = FightRehearsal(book).spec(statement)
    (rat,) = spec.enemies
    assert rat.weapon == "1d4"
    assert [stat for stat, _ in rat.dice_stats] == ["HP"]
    hero = (14, 14, 14, 10, 10, 10, 2, 20)
    game = Game.new(book, 3, hero=hero, name="A", lang="en")
    seen = run(game)
    (health,) = [d for d in of(events.DiceRolled, seen) if d.who == "RAT"]
    assert health.purpose == "HP" and 1 <= health.total <= 4
    started = of(events.FightStarted, seen)[0]
    assert ("HP", health.total) in started.enemies[0][1]


def test_an_ally_with_dice_stats_is_rolled_too(tmp_path):
    text = """§ 1
> fight
> enemy WOLF SKILL 6 STAMINA 4
> ally BRAN SKILL 1d6+6 STAMINA 2d6
> win -> 2

§ 2
> victory
"""
    game = Game.new(book_of(tmp_path, text), 4, hero=(12, 24, 9), name="A", lang="en")
    seen = run(game)
    bran = [d for d in of(events.DiceRolled, seen) if d.who == "BRAN"]
    assert [d.purpose for d in bran] == ["SKILL", "STAMINA"]
    assert 7 <= bran[0].total <= 12


def test_the_rehearsal_rolls_the_stats(tmp_path):
    book = book_of(tmp_path, OGRE)
    statement = next(s for s in book.paragraphs[1].body if type(s) is ast.Fight)
    rehearsal = FightRehearsal(book)
    spec = rehearsal.spec(statement)
    assert spec.enemies[0].stats == {}
    hero = Game.new(book, 1, hero=(12, 24, 9), name="A")
    run(hero)
    result = rehearsal.play(statement, spec, hero.state.hero.copy(), RandomSource(5), AlwaysNo())
    assert result.outcome == "won" and result.assaults >= 1


# ------------------------------------------------------------------ the pure side


def ogre(skill: str = "2d6", stamina: str = "1d6") -> EnemySpec:
    return EnemySpec(
        "OGRE", {}, dice_stats=(("SKILL", parse_dice(skill)), ("STAMINA", parse_dice(stamina)))
    )


def test_enemy_outcomes_give_every_enemy_with_its_probability():
    outcomes = enemy_outcomes(ogre())
    assert len(outcomes) == 11 * 6
    assert sum(p for _, p in outcomes) == 1
    chances = {(e.stats["SKILL"], e.stats["STAMINA"]): p for e, p in outcomes}
    assert chances[(7, 3)] == Fraction(6, 36) * Fraction(1, 6)
    assert chances[(2, 1)] == Fraction(1, 36 * 6)
    assert all(not enemy.dice_stats for enemy, _ in outcomes)


def test_values_below_zero_count_as_zero():
    law = enemy_stat_values(ogre(stamina="1d6-3"))["STAMINA"]
    assert law == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}


def test_an_enemy_without_dice_is_itself_for_sure():
    plain = EnemySpec("ORC", {"SKILL": 8, "STAMINA": 10})
    assert enemy_outcomes(plain) == ((plain, Fraction(1)),)
    spec = FightSpec((plain,))
    assert fight_outcomes(spec) == ((spec, Fraction(1)),)
    assert roll_enemies(spec, RandomSource(1)) == (spec, ())


def test_fight_outcomes_mix_the_enemies_and_stay_bounded():
    spec = FightSpec((ogre(), ogre(skill="1d6")), mode="sequence")
    outcomes = fight_outcomes(spec)
    assert outcomes is not None and len(outcomes) == 66 * 36
    assert sum(p for _, p in outcomes) == 1
    assert fight_outcomes(FightSpec((ogre("10d6", "10d6"),) * 3)) is None  # too many


def test_rolling_matches_the_outcomes():
    spec = FightSpec((ogre(),))
    possible = {tuple(sorted(e.enemies[0].stats.items())) for e, _ in fight_outcomes(spec)}
    for seed in range(30):
        rolled, rolls = roll_enemies(spec, RandomSource(seed))
        assert len(rolls) == 2
        assert tuple(sorted(rolled.enemies[0].stats.items())) in possible


@pytest.mark.parametrize("quiet", [False, True])
def test_random_games_fight_dice_enemies(tmp_path, quiet):
    from dedale.game.random_player import play_random

    book = book_of(tmp_path, OGRE)
    for seed in range(10):
        _game, result = play_random(book, seed, quiet=quiet)
        assert result.error is None and result.outcome in ("victory", "death")
