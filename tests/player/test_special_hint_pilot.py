"""The Textual fight screen's hint for fights the plain hint leaves out (was "indisponible"):
a fight with exits gives the exact chance to leave it alive (the validator's exit odds), a
fight with an ally the exact chance to win (rules.odds_allies), each computed when the fight
starts; the ally stands beside the hero on the screen. French books, French screen."""

from __future__ import annotations

import asyncio

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.odds import percentage
from dedale.player.screens.fight import FightScreen
from dedale.rules.odds_allies import ally_odds
from dedale.rules.odds_exits import ExitPlan, exit_odds
from textual.widgets import Static

HEAD = "---\ntitle: t\nlanguage: fr\n---\n"
HERO = (8, 8, 9)
EXITS = (
    "§ 1\nLe pont.\n> combat TROLL HABILETÉ 9 ENDURANCE 12\n"
    "> pas gagné après 5 assauts -> 2\n> victoire -> 2\n\n§ 2\n> victoire\n"
)
ALLY = (
    "§ 1\nL'ogre.\n> combat OGRE HABILETÉ 9 ENDURANCE 8\n> allié BRAN HABILETÉ 8 ENDURANCE 10\n"
    "> l'ennemi frappe l'allié\n> victoire -> 2\n\n§ 2\n> victoire\n"
)


def fight_screen_text(tmp_path, text: str) -> tuple[str, str]:
    path = tmp_path / "livre.dd"
    path.write_text(HEAD + text, "utf-8")
    book = load_book(path)

    def new_game(book):
        game = Game.new(book, 1, hero=HERO, name="Ari", lang="fr", free_stats=True)
        game.rng.force([1, 1, 6, 6] * 10)  # the hero wins every assault
        return game

    app = DedaleApp(book, new_game, lang="fr")
    seen: list[tuple[str, str]] = []

    async def scenario() -> None:
        async with app.run_test(size=(110, 36)) as pilot:
            for key in ("1", "1"):  # new game, start: the fight's paragraph
                await pilot.press(key)
                await pilot.pause()
            for _ in range(5):
                fight = next((s for s in app.screen_stack if isinstance(s, FightScreen)), None)
                if fight is not None:
                    await app.workers.wait_for_complete()  # the hint's thread worker
                    await pilot.pause()
                    odds = str(fight.query_one("#odds", Static).render())
                    side = str(fight.query_one("#hero-side", Static).render())
                    seen.append((odds, side))
                    break
                await pilot.press("1")
                await pilot.pause()

    asyncio.run(scenario())
    (found,) = seen
    return found[0].replace("\xa0", " "), found[1]


def test_a_fight_with_an_assault_limit_gives_the_chance_to_leave_it_alive(tmp_path):
    odds, _ = fight_screen_text(tmp_path, EXITS)
    plan = ExitPlan(enemies=((9, 12, False),), limit=5)
    exact = exit_odds(load_book_ruleset(tmp_path), 8, 8, plan, luck=9, luck_policy="best")
    shown = percentage(exact, "fr").replace("\xa0", " ")
    assert 0.5 < exact < 1.0
    assert odds in (
        f"Chances de sortir vivant du combat : {shown}",
        f"Chances de sortir vivant du combat (à son début) : {shown}",
    )


def test_a_fight_with_an_ally_gives_the_chance_to_win_and_shows_the_ally(tmp_path):
    odds, side = fight_screen_text(tmp_path, ALLY)
    exact = ally_odds(
        load_book_ruleset(tmp_path), 8, 8, [(9, 8)], [(8, 10)], struck="ally", luck=9,
        luck_policy="best", win_only=True,
    ).win_probability  # fmt: skip
    shown = percentage(exact, "fr").replace("\xa0", " ")
    assert odds in (
        f"Chances de victoire : {shown}",
        f"Chances de victoire (au début du combat) : {shown}",
    )
    assert "BRAN" in side and "indisponible" not in odds


def load_book_ruleset(tmp_path):
    return load_book(tmp_path / "livre.dd").ruleset


def test_a_fight_with_exits_and_a_defeat_exit_gives_the_chance_not_to_lose_it(tmp_path):
    """With `> défaite -> 2` the hero always leaves alive: the hint is the chance to leave
    otherwise than by the defeat (the exit odds' chance that his STAMINA never falls to 0)."""
    beaten = EXITS.replace("> victoire -> 2\n", "> victoire -> 2\n> défaite -> 2\n")
    odds, _ = fight_screen_text(tmp_path, beaten)
    plan = ExitPlan(enemies=((9, 12, False),), limit=5)
    exact = exit_odds(load_book_ruleset(tmp_path), 8, 8, plan, luck=9, luck_policy="best")
    shown = percentage(exact, "fr").replace("\xa0", " ")
    assert odds in (
        f"Chances de ne pas perdre le combat : {shown}",
        f"Chances de ne pas perdre le combat (à son début) : {shown}",
    )


def test_the_hero_side_shows_what_a_weapon_held_adds(tmp_path):
    sword = (
        "§ 1\nUne épée au mur.\n> prenez Épée courte (arme, HABILETÉ +1)\n-> 2 Entrer\n\n"
        "§ 2\nLe garde.\n> combat GARDE HABILETÉ 6 ENDURANCE 6\n> victoire -> 3\n\n"
        "§ 3\n> victoire\n"
    )
    _, side = fight_screen_text(tmp_path, sword)
    assert "8/8 (+1 = 9)" in side  # SKILL 8, the sword's +1: the fight counts 9
    assert side.count("(+1") == 1  # STAMINA and LUCK have no bonus
