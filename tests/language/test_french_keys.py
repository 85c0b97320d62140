"""Every book.yaml key has a French name, and a value of the wrong type points at the key
the author probably meant (issue 12.9)."""

from __future__ import annotations

import pytest
from dedale.game import Game
from dedale.validator.settings import read_settings

from .play_helpers import load_errors, load_text

BODY = "---\n§ 1\n> victoire\n"


def test_a_book_yaml_written_all_in_french_is_read_and_used(tmp_path):
    book = load_text(
        tmp_path,
        "---\ntitre: La Tour\nauteur: Jeanne\nlangue: français\njeu de règles: df-classic\n"
        "règles:\n  counters:\n    meals: {initial: 2}\ndépart: 1\nobjets: [Corde]\n"
        "création:\n  caractéristiques-fixes: oui\n  relance: une fois\n  nom-par-défaut: Ash\n"
        "validateur:\n  ignorer: [W013]\n  parties: 10\n" + BODY,
    )
    meta = book.meta
    assert (meta.title, meta.author, meta.language, meta.ruleset) == (
        "La Tour", "Jeanne", "fr", "df-classic",
    )  # fmt: skip
    assert meta.creation.fixed_stats and meta.creation.reroll == "once"
    assert meta.creation.default_name == "Ash"
    settings = read_settings(book)
    assert settings.ignored_codes == {"W013"} and settings.runs == 10
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="fr")
    while game.next() is not None:
        pass
    assert game.state.hero.counters["meals"] == 2 and game.state.hero.items == {"Corde": 1}


@pytest.mark.parametrize(
    ("front", "message", "hint"),
    [
        (
            "titre: t\nrègles: df-classic\n",
            "`règles` must be a mapping of ruleset values to override",
            "`règles` overrides ruleset values; to choose the ruleset, write "
            "`jeu-de-règles: df-classic`",
        ),
        (
            "title: t\nlanguage: en\nrules: df-classic\n",
            "`rules` must be a mapping of ruleset values to override",
            "`rules` overrides ruleset values; to choose the ruleset, write `ruleset: df-classic`",
        ),
        (
            "titre: t\njeu-de-règles: {counters: {}}\n",
            "`jeu-de-règles` must name a ruleset",
            "`jeu-de-règles` names the ruleset (`jeu-de-règles: df-classic`); to override its "
            "values, put them under `règles:`",
        ),
        (
            "titre: t\nobjets: Lanterne\n",
            "`objets` must be a list of item names",
            "write a list: `objets: [Lanterne]`",
        ),
        ("tite: t\n", "unknown key `tite`", "did you mean `titre`?"),
        ("title: t\nlanguage: en\nauthr: x\n", "unknown key `authr`", "did you mean `author`?"),
        (
            "titre: t\ncréation:\n  nom-defaut: x\n",
            "unknown creation option `nom-defaut`",
            "did you mean `nom-par-défaut`?",
        ),
    ],
)
def test_a_wrong_value_points_at_the_key_meant(tmp_path, front, message, hint):
    (error,) = load_errors(tmp_path, "---\n" + front + BODY)
    assert (error.message, error.hint) == (message, hint)
    assert error.span.line == front.count("\n") + 1  # the last line of the front matter


def test_the_french_book_yaml_of_the_reference_reads_clean():
    import re
    from pathlib import Path

    from dedale.language.metadata import parse_meta

    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text("utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", doc, re.S)
    french = next(b for b in blocks if b.startswith("titre:"))
    errors: list = []
    meta = parse_meta(french, "book.yaml", errors)
    assert errors == []
    assert meta.ruleset == "df-classic" and meta.creation.reroll == "once"
    assert [i.item for i in meta.items] == ["Lanterne", "Épée"]
    assert dict(meta.validator) == {"ignore": ["W013"]}
