"""The Textual fight hint does not call a way out to a death ending "leaving alive" (issue
14.2, session 7): ``> pas gagné après 5 assauts -> 40`` where 40 is ``> mort`` was shown as
the chance to leave alive with the limit counted as a way out; the hint now counts it as a
defeat, as the validator's fight table does. French book, French screen."""

from __future__ import annotations

from dedale.player.odds import percentage
from dedale.rules.odds_exits import ExitPlan, exit_odds

from tests.player.test_special_hint_pilot import EXITS, fight_screen_text, load_book_ruleset

DEATH = EXITS.replace("> pas gagné après 5 assauts -> 2", "> pas gagné après 5 assauts -> 40")
DEATH += "\n§ 40\nLe pont s'effondre sous vos pieds.\n> mort\n"


def test_the_hint_counts_a_way_out_to_a_death_ending_as_a_defeat(tmp_path):
    odds, _ = fight_screen_text(tmp_path, DEATH)
    ruleset = load_book_ruleset(tmp_path)
    alive = exit_odds(ruleset, 8, 8, ExitPlan(enemies=((9, 12, False),), limit=5),
                      luck=9, luck_policy="best")  # fmt: skip
    # the troll's 12 STAMINA felled within 5 assaults (tests/validator/test_death_ways.py
    # checks this figure against the real interpreter)
    won = exit_odds(ruleset, 8, 8, ExitPlan(enemies=((9, 12, False),), limit=5,
                                            doomed=frozenset({"limit"})),
                    luck=9, luck_policy="best")  # fmt: skip
    assert won < alive - 0.1  # the limit was most of the figure
    shown = percentage(won, "fr").replace("\xa0", " ")
    assert odds in (
        f"Chances de sortir vivant du combat : {shown}",
        f"Chances de sortir vivant du combat (à son début) : {shown}",
    ), odds
