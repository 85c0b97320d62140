"""The items book.yaml gives at the start (``objets: [Épée]``) count in the fight odds of
every ruleset, as the same item taken in the first paragraph does: a d20 or reliques hero
fought unarmed in the validator while the game and the solver gave him his sword."""

from __future__ import annotations

import pytest
from dedale.validator import validate_path

BOOKS = {
    "d20": "> ennemi Brigand CA 12 attaque +2 dégâts 1d6 PV 8",
    "reliques": "> ennemi Spectre FOR 3 AGL 3 PER 2 CON 2 arme 2 protection 1",
}


def _median(tmp_path, ruleset: str, given: str, taken: str, name: str) -> float:
    text = (
        f"---\ntitre: t\nlangue: fr\njeu-de-règles: {ruleset}\n{given}---\n"
        f"§ 1\nUn ennemi.\n{taken}{BOOKS[ruleset]}\n-> 2 Suite\n§ 2\nFin.\n> victoire\n"
    )
    path = tmp_path / f"{name}.dd"
    path.write_text(text, encoding="utf-8")
    report = validate_path(path, runs=0)
    (fight,) = report.fights
    (median,) = [o for o in fight.odds if o.hero.level == "median" and o.luck == "none"]
    return median.win


@pytest.mark.parametrize("ruleset", sorted(BOOKS))
def test_a_sword_given_by_the_book_counts_like_one_taken_at_the_start(tmp_path, ruleset):
    given = _median(tmp_path, ruleset, "objets: [Épée]\n", "", "given")
    taken = _median(tmp_path, ruleset, "", "> prenez Épée\n", "taken")
    bare = _median(tmp_path, ruleset, "", "", "bare")
    assert given == pytest.approx(taken, abs=1e-12)
    assert given > bare + 0.1  # the sword matters: 1d8 / 3 against 1d3 / 1 unarmed
