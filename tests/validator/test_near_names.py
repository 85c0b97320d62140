"""Names that nearly match (issue 12.8): one "did you mean" finding at the use, naming the
near match and where it is given, instead of two unrelated findings."""

from __future__ import annotations

from pathlib import Path

from dedale.validator import validate_path

NEAR = """§ 1
Une salle.
> prenez Clé de fer
> notez mot-code NOCTIS
-> 2 Avancer

§ 2
Une porte.
-> 3 (si Cle en fer) Ouvrir
-> 3 (si mot-code NOCTIX) Parler
-> 4 Reculer

§ 3
> victoire

§ 4
> mort
"""


def findings(tmp_path: Path, text: str, items: str = "") -> list[tuple[str, int, str]]:
    folder = tmp_path / "book"
    folder.mkdir()
    yaml = f"title: N\nlanguage: fr\nruleset: df-classic\nstart: 1\n{items}"
    (folder / "book.yaml").write_text(yaml, encoding="utf-8")
    (folder / "book.dd").write_text(text, encoding="utf-8")
    report = validate_path(folder, runs=50, seed=0)
    return [(f.code, f.span.line, str(f.message)) for f in report.findings]


def test_near_item_and_codeword_are_one_finding_each_at_the_use(tmp_path):
    assert findings(tmp_path, NEAR) == [
        (
            "E023",
            9,
            "item 'Cle en fer' is needed here but no paragraph gives it; did you mean "
            "'Clé de fer' (given in paragraph 1, book/book.dd:3)?".replace(
                "book/book.dd", str(tmp_path / "book" / "book.dd")
            ),
        ),
        (
            "E024",
            10,
            "codeword 'NOCTIX' is tested here but no paragraph sets it; did you mean "
            "'NOCTIS' (set in paragraph 1, book/book.dd:4)?".replace(
                "book/book.dd", str(tmp_path / "book" / "book.dd")
            ),
        ),
    ]


def test_a_near_starting_item_is_named_too(tmp_path):
    text = NEAR.replace("> prenez Clé de fer\n", "")
    found = findings(tmp_path, text, "objets: [Clé de fer]\n")
    assert found[0][:2] == ("E023", 8)
    assert "did you mean 'clé de fer' (given in the starting items)?" in found[0][2].lower()


def test_unrelated_names_stay_two_findings(tmp_path):
    text = NEAR.replace("Cle en fer", "Lanterne").replace("NOCTIX", "AURORE")
    assert [item[:2] for item in findings(tmp_path, text)] == [
        ("I025", 3),
        ("I026", 4),
        ("E023", 9),
        ("E024", 10),
    ]
