"""E020 for a name that is no stat or counter: a "did you mean" only for a close name (a
stat or counter of the ruleset, or one book.yaml declares), else the hint to declare it as
a counter — `bites` once got `did you mean HABILETÉ?` (difflib's ratio 0.62 passed 0.6)."""

from __future__ import annotations

import difflib

import pytest
from dedale.cli import main
from dedale.language.checks import NEAR

ENGLISH = (
    "---\ntitle: The road\nlanguage: en\n---\n"
    "§ 1\n> fight VIPER SKILL 5 STAMINA 4\n> when it wins an assault: add 1 to bites\n"
    "> end the fight when {name} >= 3 -> 3\n> win -> 2\n\n§ 2\n> victory\n\n§ 3\n> death\n"
)
FRENCH = (
    "---\ntitle: La route\nlanguage: fr\n---\n"
    "§ 1\n> combat VIPÈRE HABILETÉ 5 ENDURANCE 4\n"
    "> quand il gagne un assaut : ajoutez 1 à morsures\n"
    "> fin du combat quand {name} >= 3 -> 3\n> victoire -> 2\n\n§ 2\n> victoire\n\n§ 3\n> mort\n"
)


def _e020(tmp_path, capsys, text: str, lang: str) -> list[str]:
    path = tmp_path / "livre.dd"
    path.write_text(text, "utf-8")
    main(["validate", "--runs", "0", "--lang", lang, str(path)])
    lines = capsys.readouterr().out.replace("\xa0", " ").replace("\u202f", " ").splitlines()
    at = next(i for i, line in enumerate(lines) if " E020 " in line)
    return [line.strip() for line in lines[at : at + 4]]


@pytest.mark.parametrize(
    ("text", "name", "lang", "message", "hint"),
    [
        (ENGLISH, "bites", "en", "error E020 unknown stat or counter `bites`",
         "hint: declare it in book.yaml: `state:` then `  counters: [bites]`"),
        (FRENCH, "morsures", "fr", "erreur E020 caractéristique ou compteur inconnu `morsures`",
         "conseil : déclarez-le dans book.yaml, dans la liste `compteurs` de la section `état:`"),
    ],
)  # fmt: skip
def test_a_far_name_gets_the_declare_hint(tmp_path, capsys, text, name, lang, message, hint):
    # the old suggestion was this far from the name: under the cutoff now
    assert difflib.SequenceMatcher(None, name, "habilete").ratio() < NEAR
    shown = _e020(tmp_path, capsys, text.format(name=name), lang)
    assert shown[0].endswith(message), shown
    assert shown[3] == hint, shown
    assert not any("HABILETÉ" in line or "did you mean" in line for line in shown)


@pytest.mark.parametrize(
    ("text", "name", "lang", "hint"),
    [
        (ENGLISH, "STAMNA", "en", "hint: did you mean `STAMINA`?"),
        (FRENCH, "ENDURNACE", "fr", "conseil : vouliez-vous dire `ENDURANCE` ?"),
    ],
)
def test_a_close_name_is_still_suggested(tmp_path, capsys, text, name, lang, hint):
    shown = _e020(tmp_path, capsys, text.format(name=name), lang)
    assert shown[3] == hint, shown


def test_a_counter_book_yaml_declares_is_a_candidate(tmp_path, capsys):
    text = FRENCH.replace("language: fr\n", "language: fr\nstate:\n  counters: [morsures]\n")
    shown = _e020(tmp_path, capsys, text.format(name="morsure"), "fr")
    assert shown[3] == "conseil : vouliez-vous dire `morsures` ?", shown
