"""An event under an enemy whose wound fells the hero ends the fight lost, even when the
same event turns to a paragraph (``when it wins an assault: lose 4 STAMINA, -> 40``): the
hero at 0 STAMINA is dead, or beaten with a defeat exit (``lose -> 3``: set to 1 STAMINA,
sent to 3). The interpreter used to end such a fight with the outcome ``limit`` (no "you
lose the fight", the defeat exit ignored: the hero died); the exact odds and the solver's
joint outcomes counted the death first all along. Checked here: the real interpreter,
seeded dice, against the exact odds and the joint outcomes, within 3 standard errors."""

from __future__ import annotations

import math

from dedale import events
from dedale.game import Game
from dedale.language import load_book
from dedale.rules.odds_exits import exit_odds
from dedale.solve.acting_forward import acting_outcomes
from dedale.validator.fight_plan import plan_of

BOOK = """---
title: The viper's pit
language: en
ruleset: df-classic
---
§ 1
> fight VIPER SKILL 8 STAMINA 8
> on a double: lose 3 STAMINA
> when it wins an assault: lose 4 STAMINA, -> 40
> win -> 2
> lose -> 3

§ 2
> victory

§ 3
You wake up in the pit, bitten.
> victory

§ 40
You climb out of the pit.
> victory
"""

HERO = (10, 8, 9)  # SKILL, STAMINA, LUCK: the first lost assault kills after one double


def _play(book, seed: int, lang: str = "en") -> tuple[list[int], list[events.Event]]:
    """The paragraphs a seeded game enters and its events (Luck never tested)."""
    game = Game.new(book, seed, hero=HERO, name="Ari", lang=lang, free_stats=True)
    entered, seen = [], []
    for _ in range(5000):
        item = game.next()
        if item is None:
            break
        if isinstance(item, events.YesNoPrompt):
            game.answer(False)
        elif isinstance(item, events.Prompt):
            raise AssertionError(item)
        else:
            seen.append(item)
            if isinstance(item, events.ParagraphEntered):
                entered.append(item.number)
    return entered, seen


def _book(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(BOOK, "utf-8")
    return load_book(path)


def test_a_wound_that_fells_the_hero_before_the_turn_is_a_lost_fight(tmp_path):
    book = _book(tmp_path)
    for seed in range(200):  # a game where the event's wound (not the assault's) fells him
        entered, seen = _play(book, seed)
        hero = [e for e in seen if isinstance(e, events.StatChanged) and e.who == "hero"]
        fatal = next((i for i, e in enumerate(seen) if e in hero and e.new == 0), None)
        if entered[-1] == 3 and fatal and seen[fatal - 1] in hero and seen[fatal - 1].new > 0:
            break  # the assault's wound left him standing, the event's felled him
    else:
        raise AssertionError("no seed lost the fight to the event")
    ended = [e for e in seen if isinstance(e, events.FightEnded)]
    assert [e.outcome for e in ended] == ["lost"]
    assert any(isinstance(e, events.MessageShown) and e.key == "beaten_alive" for e in seen)
    assert not any(isinstance(e, events.Death) for e in seen)
    assert 40 not in entered  # the turn after the fatal wound is not taken


def test_without_a_defeat_exit_the_fatal_event_is_death(tmp_path):
    book = _book(tmp_path)
    text = BOOK.replace("> lose -> 3\n", "")
    (tmp_path / "book.dd").write_text(text, "utf-8")
    book = load_book(tmp_path / "book.dd")
    deaths = 0
    for seed in range(60):
        entered, seen = _play(book, seed)
        if any(isinstance(e, events.Death) for e in seen):
            deaths += 1
            assert [e.outcome for e in seen if isinstance(e, events.FightEnded)] == ["lost"]
            assert entered[-1] == 1
    assert deaths > 0


def test_the_interpreter_matches_the_exact_odds_and_the_joint_outcomes(tmp_path):
    book = _book(tmp_path)
    fight = book.paragraphs[1].body[0]
    skill, stamina, _luck = HERO
    plan = plan_of(fight, book.ruleset, ((8, 8, False),), {"SKILL": skill, "STAMINA": stamina})
    alive = exit_odds(book.ruleset, skill, stamina, plan)
    kinds = tuple(rule.kind for rule in fight.rules)
    shares = {"won": 0.0, "event": 0.0, "lost": 0.0}
    for p, (_, index) in acting_outcomes(book.ruleset, skill, stamina, plan, rule_kinds=kinds):
        shares["lost" if index == -1 else index[2]] += p
    assert abs(shares["won"] + shares["event"] - alive) < 1e-9  # two DPs agree
    assert min(shares.values()) > 0.1  # each way is common: the test tells them apart
    runs = 3000
    counts = {"won": 0, "event": 0, "lost": 0}
    where = {2: "won", 40: "event", 3: "lost"}
    for seed in range(runs):
        entered, _seen = _play(book, seed)
        counts[where[entered[-1]]] += 1
    for way, p in shares.items():
        se = math.sqrt(p * (1 - p) / runs)
        assert abs(counts[way] / runs - p) <= 3 * se, (way, counts, shares)
