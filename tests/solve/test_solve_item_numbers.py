"""An item taken again at each visit of a paragraph the reader comes back to, and read only
through the number noted on it, is kept as held once by the solver: a seven-paragraph book
that reached 366,080 states unsolved now takes a handful (docs/solver.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dedale.language import load_book
from dedale.solve import solve_book
from dedale.solve.liveness import Liveness

BOOK = """---
titre: Le clocher
langue: fr
---
§ 1
> prenez Clé de fer (numéro 20)
-> 2 Entrer
-> 3 Le cimetière
§ 2
-> [numéro de Clé de fer + 5] Essayer la clé
-> 1 Ressortir
§ 3
-> 1 Revenir
§ 25
> tentez votre chance
> chanceux -> 26
> malchanceux -> 27
§ 26
> victoire
§ 27
> mort
"""


def _book(tmp_path, text: str = BOOK):
    path = tmp_path / "clocher.dd"
    path.write_text(text, encoding="utf-8")
    return load_book(path)


def _lucky(luck: int) -> Fraction:
    """2d6 at most ``luck``, counted by hand."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= luck), 36)


@pytest.mark.parametrize("luck", [7, 9, 12])
def test_the_key_taken_at_each_visit_is_held_once(tmp_path, luck):
    book = _book(tmp_path)
    assert Liveness(book).clamped(1, "Clé de fer")
    result = solve_book(book, (9, 19, luck))
    assert result.complete and result.states < 50
    assert result.win_probability == pytest.approx(float(_lucky(luck)), abs=1e-12)


def test_a_key_with_a_bonus_keeps_its_count(tmp_path):
    book = _book(tmp_path, BOOK.replace("(numéro 20)", "(numéro 20, HABILETÉ +1)"))
    assert not Liveness(book).clamped(1, "Clé de fer")
