"""Every construct, in both keyword languages: AST snapshots and FR == EN modulo spans."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import parse_text
from dedale.rules import load_ruleset

from .helpers import plain

CASES = Path(__file__).parent / "cases" / "valid"
VALID = sorted(CASES.glob("*.dd"))
PAIRS = sorted({p.name.split(".")[0] for p in VALID})


def _parse(path: Path):
    return parse_text(path.read_text("utf-8"), path.name)


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_valid_case_snapshot(path, snapshot):
    assert plain(_parse(path)) == snapshot


@pytest.fixture(scope="module")
def canonical():
    """Map a stat/counter name as written (HABILETÉ, or) to the ruleset's id."""
    ruleset = load_ruleset("df-classic")

    def rename(text: str) -> str:
        found = ruleset.resolve(text)
        return found[1] if found and found[0] in ("stat", "counter") else text

    return rename


@pytest.mark.parametrize("name", PAIRS)
def test_french_and_english_give_the_same_ast(name, canonical):
    english = _parse(CASES / f"{name}.en.dd")
    french = _parse(CASES / f"{name}.fr.dd")
    assert plain(french, spans=False, rename=canonical) == plain(
        english, spans=False, rename=canonical
    )


def test_every_pair_is_complete():
    for name in PAIRS:
        assert (CASES / f"{name}.en.dd").is_file() and (CASES / f"{name}.fr.dd").is_file()


def test_keywords_are_case_and_accent_insensitive():
    plain_fr = parse_text("§ 1\n> tentez votre habilete\n> reussite -> 2\n> echec -> 3\n", "a")
    shouty = parse_text("§ 1\n> TENTEZ VOTRE HABILETÉ\n> RÉUSSITE -> 2\n> ÉCHEC -> 3\n", "a")
    assert plain(plain_fr, spans=False) == plain(shouty, spans=False)


def test_extra_blank_lines_and_indentation_are_forgiven():
    tight = parse_text("§ 1\nText.\n> death\n", "a")
    loose = parse_text("\n\n§ 1\n\n\nText.\n\n\n   > death\n\n\n", "a")
    assert plain(tight, spans=False) == plain(loose, spans=False)


def test_names_keep_accents_and_case_as_written():
    result = parse_text("§ 1\n> prenez Épée Brisée\n> notez mot-code PANTHÈRE\n", "a")
    take, codeword = result.paragraphs[0].body
    assert take.item == "Épée Brisée"
    assert codeword.codeword == "PANTHÈRE"


def test_typographic_apostrophe_and_no_break_space():
    text = (
        "§ 1\n> combat l’un après l’autre\n> ennemi A HABILETÉ 1 ENDURANCE 1\n"
        "> si or\u00a0>= 2\u00a0: mort\n"
    )
    body = parse_text(text, "a").paragraphs[0].body
    assert body[0].mode == "sequence"
    assert body[1].then[0].kind == "death"
