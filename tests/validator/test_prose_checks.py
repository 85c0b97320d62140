"""Prose that reads like a forgotten rule (issue 12.7): W061, and W062 folded into E014."""

from __future__ import annotations

from pathlib import Path

from dedale.validator import validate_path

BOOK = """---
titre: Essai
langue: fr
---
§ 1
Vous arrivez devant un gouffre.
-> 2 Sauter
-> 4 Attendre

§ 2
Vous sautez. Rendez-vous au 3.

§ 3
> victoire

§ 4
Vous attendez.
prenez Corde
-> 3 Partir
"""


def findings(tmp_path: Path, text: str) -> list[tuple[str, int, str, str]]:
    path = tmp_path / "livre.dd"
    path.write_text(text, encoding="utf-8")
    report = validate_path(path, runs=0, seed=0)
    return [(f.code, f.span.line, str(f.message), str(f.hint)) for f in report.findings]


def test_a_rule_line_without_its_arrow_is_w061_at_its_line(tmp_path):
    found = findings(tmp_path, BOOK)
    assert [item[:2] for item in found] == [("E014", 10), ("W061", 18)]
    assert "`> prenez Corde`" in found[1][3]


def test_a_destination_in_the_text_of_a_dead_end_is_the_dead_end_hint(tmp_path):
    dead_end = findings(tmp_path, BOOK)[0]
    assert dead_end[0] == "E014"
    assert dead_end[3].startswith("line 11: the text sends the reader to 3")


def test_a_destination_in_the_text_of_a_paragraph_that_goes_on_is_nothing(tmp_path):
    text = BOOK.replace(
        "Vous sautez. Rendez-vous au 3.\n", "Vous sautez. Rendez-vous au 3.\n-> 3\n"
    )
    text = text.replace("prenez Corde\n", "")
    assert findings(tmp_path, text) == []


OPTIONS_LAST = """---
titre: Essai
langue: fr
---
§ 1
Une porte d'os.
> notez mot-code OSSEMENTS
-> 2 Ouvrir la porte (si mot-code OSSEMENTS)
-> 2 Payer le passeur (payez 3 or)
-> 2 Traverser (le pont est étroit)
-> 2 (si mot-code OSSEMENTS) Entrer en maître

§ 2
> victoire
"""


def test_options_written_after_a_choices_text_are_w064_with_the_line_rewritten(tmp_path):
    found = [item for item in findings(tmp_path, OPTIONS_LAST) if item[0] == "W064"]
    assert [item[1] for item in found] == [8, 9]  # not the plain aside, not the right order
    _code, _line, message, hint = found[0]
    assert "`(si mot-code OSSEMENTS)`" in message and "shown as text" in message
    assert hint.endswith("`-> 2 (si mot-code OSSEMENTS) Ouvrir la porte`")
    assert found[1][3].endswith("`-> 2 (payez 3 or) Payer le passeur`")


def test_w064_in_french(tmp_path, capsys):
    from dedale.cli import main

    path = tmp_path / "livre.dd"
    path.write_text(OPTIONS_LAST, encoding="utf-8")
    main(["validate", str(path), "--runs", "0"])
    out = capsys.readouterr().out.replace("\u00a0", " ")
    assert "livre.dd:8:1: alerte W064 le texte du choix se termine par `(si mot-code" in out
    assert "conseil : les options se placent entre le paragraphe et le texte" in out
