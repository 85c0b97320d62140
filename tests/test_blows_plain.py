"""What the plain player says of a blow, played from small French books with scripted dice:
a d20 hit that the armour absorbs does not "wound" the hero ("Il vous touche sans vous
blesser"), a blow the ally takes is said once ("Il frappe ; votre allié encaisse le coup",
not "Il vous blesse" and then the ally note), and the fight's intro lists the allies."""

from __future__ import annotations

import io

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer


def play(tmp_path, text: str, dice, hero) -> tuple[int, list[str]]:
    path = tmp_path / "livre.dd"
    path.write_text(text, "utf-8")
    game = Game.new(load_book(path), 1, hero=hero, name="Ari", lang="fr", free_stats=True)
    game.rng.force(list(dice))
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO("n\n" * 40), out, echo=True).play()
    return code, out.getvalue().replace("\xa0", " ").replace("\u202f", " ").splitlines()


D20 = (
    "---\ntitle: t\nlanguage: fr\nruleset: d20\n---\n§ 1\n> prenez épée\n> prenez harnois\n"
    "> combat\n> ennemi RAT CA 8 attaque +12 dégâts 1d4 PV 3\n> victoire -> 2\n\n§ 2\n> victoire\n"
)


def test_a_d20_hit_the_armour_absorbs_does_not_wound(tmp_path):
    # the hero misses (a 2), the rat ripostes and strikes: 1d4 against the plate's RD 6
    hero = (12, 12, 10, 10, 10, 10, 2, 20)
    code, lines = play(tmp_path, D20, (2, 10, 3, 15, 4, 15, 4), hero)
    assert code == EXIT_VICTORY
    assert "Assaut 1 contre RAT : vous 13, lui 22. Il vous touche sans vous blesser. (riposte)" in (
        lines
    )
    assert not any("Il vous blesse" in line for line in lines)
    assert not any(line.startswith("POINTS DE VIE :") and "->" in line for line in lines[14:])


ALLY = (
    "---\ntitle: t\nlanguage: fr\n---\n§ 1\nUn ogre surgit.\n"
    "> combat OGRE HABILETÉ 9 ENDURANCE 2\n> allié BRAN HABILETÉ 8 ENDURANCE 10\n"
    "> l'ennemi frappe l'allié\n> victoire -> 2\n\n§ 2\n> victoire\n"
)


def test_the_ally_is_listed_and_takes_the_blow_said_once(tmp_path):
    # the ogre wins the first assault (12 + 9 against 2 + 10), the ally takes the blow, then
    # BRAN's exchange (2 + 8 against 12 + 9); the hero then wins (7 + 10 against 2 + 9)
    dice = (6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 3, 4)
    code, lines = play(tmp_path, ALLY, dice, (10, 20, 9))
    assert code == EXIT_VICTORY
    at = lines.index("Combat !")
    assert lines[at + 1 : at + 3] == [
        "  OGRE (HABILETÉ 9, ENDURANCE 2)",
        "  à vos côtés : BRAN (HABILETÉ 8, ENDURANCE 10)",
    ]
    assert "Assaut 1 contre OGRE : vous 12, lui 21. Il frappe ; votre allié encaisse le coup." in (
        lines
    )
    assert "BRAN, ENDURANCE : 10 -> 8" in lines
    assert not any("Il vous blesse" in line or "(votre allié" in line for line in lines)


def test_the_screen_reader_s_chance_counts_the_ally_and_leaves_rules_out(tmp_path):
    """The screen reader's "Vos chances de remporter ce combat" for a fight with an ally is
    the exact chance with the ally (rules.odds_allies), not the plain duel's; for a fight
    with rules under its enemy (which the plain odds would leave out) it says nothing."""
    from dedale.player.odds import percentage
    from dedale.rules.odds_allies import ally_odds

    path = tmp_path / "livre.dd"
    path.write_text(ALLY, "utf-8")
    book = load_book(path)

    def heard(text: str) -> list[str]:
        path.write_text(text, "utf-8")
        game = Game.new(load_book(path), 1, hero=(10, 20, 9), name="Ari", lang="fr",
                        free_stats=True)  # fmt: skip
        game.rng.force([6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 3, 4])
        out = io.StringIO()
        PlainPlayer(game, io.StringIO("n\n" * 40), out, echo=True, screen_reader=True).play()
        text = out.getvalue().replace("\xa0", " ").replace("\u202f", " ")
        return [line for line in text.splitlines() if line.startswith("Vos chances")]

    exact = ally_odds(book.ruleset, 10, 20, [(9, 2)], [(8, 10)], struck="ally", luck=9,
                      luck_policy="best", win_only=True).win_probability  # fmt: skip
    shown = percentage(exact, "fr").replace("\xa0", " ")
    assert heard(ALLY) == [f"Vos chances de remporter ce combat : {shown}."]
    ruled = ALLY.replace("> allié BRAN HABILETÉ 8 ENDURANCE 10\n> l'ennemi frappe l'allié\n",
                         "> il inflige 4\n")  # fmt: skip
    assert heard(ruled) == []
