"""The path of fights of a d20 book (issue 14.4; validator/fight_path_d20.py): the hero's
HP carried from fight to fight exactly. Checked against an independent chain (the d20 DP
called per fight from every HP, convolved by hand, the +2 HP of the spring capped at the
initial HP) and against the real interpreter (game/, seeded dice, the path's choices),
within 3 standard errors. A path not computed says why."""

from __future__ import annotations

import copy
import io
import json
import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds_d20 import d20_odds
from dedale.validator import validate_path
from dedale.validator.fights import hero_profiles, start_kit
from dedale.validator.graph import build_graph, walk
from dedale.validator.simulate import FightSimulator

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOKS / "d20-path-of-fights.dd"
RELIQUES = BOOKS / "W030-reliques-deadly-fight.dd"


def _heroes(book):
    graph = build_graph(book)
    simulator = FightSimulator(book, hero_profiles(book.ruleset), 0, kit=start_kit(graph))
    return simulator, {hero.level: character for hero, character in simulator.heroes}


def _hand_chain(book, level: str) -> list[float]:
    """The cumulative chance after each fight: ``d20_odds`` from every HP the hero may
    have, its end states (the HP after a win) convolved by hand."""
    simulator, characters = _heroes(book)
    character = characters[level]
    health = book.ruleset.fight.health
    top = character.stats[health]
    fights = [s for n in sorted(book.paragraphs) for s in walk(book.paragraphs[n].body)]
    fights = [s for s in fights if type(s).__name__ == "Fight"]
    assert len(fights) == 3
    dist = {top: 1.0}
    cumulative = []
    for index, fight in enumerate(fights):
        spec = simulator.rehearsal.spec(fight)
        new: dict[int, float] = {}
        for hp, p in dist.items():
            hero = copy.deepcopy(character)
            hero.stats[health] = hp
            odds = d20_odds(book.ruleset, hero, spec, target="best")
            for end, q in odds.end_states.items():
                new[end] = new.get(end, 0.0) + p * odds.win_probability * q
        dist = new
        if index == 1:  # the spring of § 4: +2 HP, never above the initial HP
            healed: dict[int, float] = {}
            for hp, p in dist.items():
                healed[min(top, hp + 2)] = healed.get(min(top, hp + 2), 0.0) + p
            dist = healed
        cumulative.append(sum(dist.values()))
    return cumulative


@pytest.fixture(scope="module")
def path():
    return validate_path(BOOK, runs=0).fight_path


@pytest.mark.parametrize("level", ["weakest", "median", "strongest"])
def test_the_d20_path_is_the_dp_chained_by_hand(path, level):
    book = load_book(BOOK)
    expected = _hand_chain(book, level)
    hero = path.of(level)
    assert hero is not None and hero.exact, hero
    assert hero.paragraphs == (1, 2, 3, 4, 5, 6)
    assert [step.cumulative for step in hero.fights] == pytest.approx(expected, rel=1e-9)
    assert hero.win == pytest.approx(expected[-1], rel=1e-9)


def test_the_wounds_are_carried_not_the_fights_multiplied(path):
    """The chained figure is below the product of the fight table's chances (each from
    full HP): the hero meets the guardian wounded."""
    report = validate_path(BOOK, runs=0)
    product = 1.0
    for fight in report.fights:
        product *= fight.win("median", "none", None)
    assert path.of("median").win < product - 0.05


class _BestTarget:
    """The target the d20 DP chooses (``D20Engine.choice``) for the fight all at once,
    from the hero's and the rats' HP as the real fight leaves them."""

    def __init__(self, book, character, simulator) -> None:
        from dedale.rules.fight_d20 import fighters
        from dedale.rules.odds_d20_engine import D20Engine

        fight = next(s for s in walk(book.paragraphs[3].body) if type(s).__name__ == "Fight")
        spec = simulator.rehearsal.spec(fight)
        hero, self.enemies = fighters(book.ruleset, character, spec)
        self.engine = D20Engine(book.ruleset.fight, hero, self.enemies, spec, target="best")
        self.names = [enemy.name for enemy in self.enemies]
        self.hp: dict[str, int] = {}

    def start(self, hero_hp: int) -> None:
        self.hp = {enemy.name: enemy.health for enemy in self.enemies}
        self.engine.start = (0, hero_hp, *self.hp.values())
        self.engine.solve()  # the choices from this start (values shared by the starts)

    def answer(self, hero_hp: int, living: tuple[str, ...]) -> int:
        group = (0, hero_hp, *(self.hp[name] for name in self.names))
        chosen = self.names[self.engine.choice[group]]
        return living.index(chosen)


def _play(book, character, simulator, runs: int) -> float:
    """Whole games of the real interpreter along the path (its only choices; the target
    the DP chooses), seeded."""
    from dedale import events
    from dedale.game import Game

    values = tuple(character.stats[stat.id] for stat in book.ruleset.stats)
    health = book.ruleset.fight.health
    best = _BestTarget(book, character, simulator)
    won = 0
    for seed in range(runs):
        game = Game.new(book, seed, hero=values, name="Ari", lang="fr", free_stats=True)
        checked = False
        for _ in range(400):
            item = game.next()
            if item is None:
                break
            hero = game.state.hero
            if not checked and hero is not None and game.state.paragraph == 2:
                assert hero.stats == character.stats  # the validator's hero, his sword
                assert set(hero.items) == set(character.items)
                checked = True
            if game.state.paragraph == 3 and not best.hp:
                best.start(hero.stats[health])
            if isinstance(item, events.StatChanged) and item.who in best.hp:
                best.hp[item.who] = item.new
            elif isinstance(item, events.TargetPrompt):
                game.answer(best.answer(hero.stats[health], item.enemies))
            elif isinstance(item, events.ChoosePrompt):
                game.answer(next(o.index for o in item.options if o.enabled))
            elif isinstance(item, events.YesNoPrompt):
                game.answer(False)
            elif isinstance(item, events.Prompt):
                raise AssertionError(item)
        assert checked
        best.hp = {}
        won += game.state.outcome == "victory"
    return won / runs


def test_the_d20_path_agrees_with_the_real_interpreter_within_3_se(path):
    book = load_book(BOOK)
    simulator, characters = _heroes(book)
    exact = path.of("median").win
    assert 0.1 < exact < 0.9
    runs = 2000
    played = _play(book, characters["median"], simulator, runs)
    se = math.sqrt(exact * (1 - exact) / runs)
    assert abs(played - exact) <= 3 * se, (played, exact)


def test_a_reliques_book_has_a_path_and_a_book_without_one_says_why():
    """Reliques books have their path (validator/fight_path_reliques.py); a path that could
    not be computed says why in the text and the JSON."""
    import dataclasses

    from dedale.i18n import tr
    from dedale.validator.fight_path import FightPath
    from dedale.validator.report import json as json_report
    from dedale.validator.report import text as text_report

    report = validate_path(RELIQUES, runs=0)
    assert report.fights and report.fight_path is not None
    median = report.fight_path.of("median")
    assert median is not None and median.exact and median.paragraphs == (1, 2, 3, 4)
    stream = io.StringIO()
    text_report.render([report], stream)
    assert "Path of fights to § 4: weak" in stream.getvalue()
    missing = tr("not computed: {reason}", reason="no hero")
    report = dataclasses.replace(report, fight_path=FightPath((), missing=missing))
    stream = io.StringIO()
    text_report.render([report], stream)
    assert "Path of fights: not computed: no hero" in stream.getvalue()
    stream = io.StringIO()
    json_report.render([report], stream)
    found = json.loads(stream.getvalue())["books"][0]["fight_path"]
    assert found["heroes"] == [] and "no hero" in found["reason"]


ESCAPE_BOOK = """---
title: La fuite interdite
language: fr
ruleset: d20
---
§ 1
> prenez épée
-> 2 Descendre

§ 2
> combat
> ennemi Squelette CA 12 attaque +2 dégâts 1d6 PV 9
> victoire -> 3

§ 3
> combat
> ennemi Chevalier CA 14 attaque +4 dégâts 1d8 RD 3 PV 12
> fuite -> 4 après 2
> victoire -> 5

§ 4
Vous fuyez dans un puits sans fond.
> mort

§ 5
> victoire
"""


def test_an_escape_off_the_path_is_never_taken_and_the_figure_is_exact(tmp_path):
    """The escape leads to a death: on the path to § 5 the hero never escapes (the DP
    without the escape, called from every HP the skeleton leaves, by hand)."""
    import dataclasses

    path = tmp_path / "fuite.dd"
    path.write_text(ESCAPE_BOOK, encoding="utf-8")
    book = load_book(path)
    median = validate_path(path, runs=0).fight_path.of("median")
    assert median.exact and median.paragraphs == (1, 2, 3, 5), median
    simulator, characters = _heroes(book)
    character = characters["median"]
    health = book.ruleset.fight.health
    fights = [s for n in (2, 3) for s in walk(book.paragraphs[n].body)]
    fights = [s for s in fights if type(s).__name__ == "Fight"]
    dist = {character.stats[health]: 1.0}
    for fight in fights:
        spec = dataclasses.replace(simulator.rehearsal.spec(fight), escape_after=None)
        new: dict[int, float] = {}
        for hp, p in dist.items():
            hero = copy.deepcopy(character)
            hero.stats[health] = hp
            odds = d20_odds(book.ruleset, hero, spec, target="best")
            for end, q in odds.end_states.items():
                new[end] = new.get(end, 0.0) + p * odds.win_probability * q
        dist = new
    assert median.win == pytest.approx(sum(dist.values()), rel=1e-9)
    table = validate_path(path, runs=0).fights[1].win("median", "none", None)
    assert median.fights[1].chance < table  # the table's hero may escape; the path's not


DICE_BOOK = """---
title: Les dés des ennemis
language: fr
ruleset: d20
---
§ 1
> prenez épée
-> 2 Descendre

§ 2
> combat ensemble
> ennemi Squelette CA 12 attaque +2 dégâts 1d6 PV 9
> ennemi Rat CA 10 attaque +0 dégâts 1d3 PV 1d4
> victoire -> 3

§ 3
> combat
> ennemi Roi squelette CA 13 attaque +3 dégâts 1d8 PV 2d6
> victoire -> 4

§ 4
> victoire
"""


def test_enemies_hp_rolled_with_dice_are_chained_exactly(tmp_path):
    """Enemy HP written as dice (mixed by the d20 DP with their exact chances), at once and
    alone: the path is exact and is the DP chained by hand."""
    path = tmp_path / "des.dd"
    path.write_text(DICE_BOOK, encoding="utf-8")
    book = load_book(path)
    median = validate_path(path, runs=0).fight_path.of("median")
    assert median.exact and median.paragraphs == (1, 2, 3, 4), median
    simulator, characters = _heroes(book)
    character = characters["median"]
    health = book.ruleset.fight.health
    fights = [s for n in (2, 3) for s in walk(book.paragraphs[n].body)]
    dist = {character.stats[health]: 1.0}
    for fight in (s for s in fights if type(s).__name__ == "Fight"):
        spec = simulator.rehearsal.spec(fight)
        new: dict[int, float] = {}
        for hp, p in dist.items():
            hero = copy.deepcopy(character)
            hero.stats[health] = hp
            odds = d20_odds(book.ruleset, hero, spec, target="best")
            for end, q in odds.end_states.items():
                new[end] = new.get(end, 0.0) + p * odds.win_probability * q
        dist = new
    assert median.win == pytest.approx(sum(dist.values()), rel=1e-9)
