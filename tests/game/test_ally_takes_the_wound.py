"""``the enemy strikes the ally`` in the real fight (language § 25): the wound meant for the
ally goes to the first ally standing where the wound is taken, so a blow that would kill a
hero at 2 STAMINA does not touch him and he is not offered Luck on it; the hero takes the
wounds again once no ally stands; an ally that falls taking the wound does not strike, the
other allies standing do (played through the interpreter, seed by seed)."""

from __future__ import annotations

from dedale import events
from dedale.game import Game
from dedale.language import load_book

BOOK = """---
title: t
ruleset: df-classic
language: fr
---
§ 1
> fixez ENDURANCE à 2
> combat OGRE HABILETÉ 10 ENDURANCE 12
{allies}
> l'ennemi frappe l'allié
> victoire -> 2
§ 2
> victoire
"""
SEEDS = range(60)


def _play(path, seed: int, luck: bool = False) -> tuple[list, list]:
    """(events, Luck questions) of one game, the Luck questions answered ``luck``."""
    game = Game.new(load_book(path), seed=seed, hero=(7, 16, 9), name="Ali", lang="fr")
    seen, asked = [], []
    for _ in range(5000):
        item = game.next()
        if item is None:
            return seen, asked
        if type(item).__name__.endswith("Prompt"):
            if getattr(item, "kind", None) == "use_luck":
                asked.append((len(seen), dict(item.params)["wound"]))
                game.answer(luck)
            else:
                game.answer(0 if type(item).__name__ == "ChoosePrompt" else "m")
        else:
            seen.append(item)
    raise AssertionError("the game did not end in 5000 steps")


def _book(tmp_path, allies: str):
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(allies=allies), "utf-8")
    return path


def _falls(seen: list) -> int:
    """The index of the event where the last ally falls (len(seen): never)."""
    return next((i for i, e in enumerate(seen) if getattr(e, "key", "") == "ally_falls"), len(seen))


def test_a_hero_at_2_stamina_never_takes_the_allys_wound(tmp_path):
    path = _book(tmp_path, "> allié BRAN HABILETÉ 8 ENDURANCE 10")
    taken = hero_died = 0
    for seed in SEEDS:
        for luck in (False, True):
            seen, asked = _play(path, seed, luck)
            fell = _falls(seen)
            fight = [e for e in seen[:fell] if isinstance(e, events.AssaultResolved)]
            for event in fight:
                if event.winner == "enemy":  # every wound before Bran falls is his
                    assert event.note == "ally" and event.hero_damage_taken == 0
                    taken += 1
            stamina = [
                e for e in seen[:fell]
                if isinstance(e, events.StatChanged) and (e.who, e.name) == ("hero", "STAMINA")
            ]  # fmt: skip
            # created, set to 2, then untouched until Bran falls
            assert [e.new for e in stamina[1:]] == [2], (seed, stamina)
            # Luck is offered on the wounds the hero deals, never on Bran's wounds
            assert all(wound == "dealt" for at, wound in asked if at < fell)
            ended = next(e for e in seen if isinstance(e, events.FightEnded))
            if ended.outcome == "lost":
                hero_died += 1
                assert fell < len(seen)  # the hero dies only once Bran has fallen
    assert taken > 100 and hero_died > 0  # the seeds do exercise both


def test_every_ally_standing_strikes_when_one_falls_taking_the_wound(tmp_path):
    path = _book(
        tmp_path, "> allié BRAN HABILETÉ 8 ENDURANCE 2\n> allié DARA HABILETÉ 7 ENDURANCE 10"
    )
    checked = 0
    for seed in SEEDS:
        seen, _ = _play(path, seed)
        for i, event in enumerate(seen):
            if not (isinstance(event, events.AssaultResolved) and event.note == "ally"):
                continue
            wound = seen[i + 1]  # the wound, dealt to the first ally standing
            assert isinstance(wound, events.StatChanged) and wound.who in ("BRAN", "DARA")
            if wound.who != "BRAN" or wound.new > 0:
                continue
            # BRAN fell taking the hero's wound: DARA exchanges blows in that very assault
            after = []
            for later in seen[i + 2 :]:
                if isinstance(later, events.AssaultResolved | events.FightEnded):
                    break
                after.append(later)
            strikes = [
                dict(e.params)["ally"]
                for e in after
                if isinstance(e, events.MessageShown) and e.key in EXCHANGES
            ]
            assert strikes == ["DARA"], (seed, i)
            checked += 1
    assert checked > 10


EXCHANGES = ("ally_won", "ally_lost", "ally_tie")
