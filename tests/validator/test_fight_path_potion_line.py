"""The line under the path of fights names the potion counted and where: in the fights and
between them only when every fight of the path is followed exactly; a fight whose potion
use is not counted (`≈`: an event under its enemy, with a way out) leaves the potion counted
between the fights only, or in the other fights (validator/report/fight_path_report.py)."""

from __future__ import annotations

from dedale.validator import validate_path
from dedale.validator.report.fight_path_report import fight_path_text

HEAD = "---\ntitle: La route\nlanguage: fr\n---\n"
FIRST = (
    "§ 1\n> prenez 2 Élixirs de soin (quand ENDURANCE tombe à 4 : gagnez 6 ENDURANCE)\n"
    "> combat GARDIEN HABILETÉ 9 ENDURANCE 10\n"
    "> quand il gagne un assaut : perdez 1 ENDURANCE\n"
    "> fuite après 3 assauts -> 3\n> victoire -> 2\n\n"
    "§ 2\n> perdez 3 ENDURANCE\n-> 3 Continuer\n\n"
)
WARDEN = "§ 3\n> combat GEÔLIER HABILETÉ 10 ENDURANCE 12\n> victoire -> 4\n\n§ 4\n> victoire\n"
NO_WARDEN = "§ 3\n-> 4 Continuer\n\n§ 4\n> victoire\n"


def _line(tmp_path, text: str, lang: str) -> tuple[list[str], object]:
    path = tmp_path / "livre.dd"
    path.write_text(HEAD + text, "utf-8")
    found = validate_path(path, runs=0).fight_path
    shown = fight_path_text(found, lang).plain.replace("\xa0", " ")
    return [line.strip() for line in shown.splitlines() if "potion" in line], found


def test_a_fight_whose_potion_is_not_counted_is_named(tmp_path):
    lines, found = _line(tmp_path, FIRST + WARDEN, "fr")
    main = found.of("median")
    assert [(s.paragraph, s.exact) for s in main.fights] == [(1, False), (3, True)]
    assert any("son usage n'est pas compté" in why.translate("fr") for _, why in main.reasons)
    assert lines[0] == (
        "potion comptée entre les combats, et dans les combats sauf au § 1 : Élixirs de soin"
    )
    assert not any("dans les combats et entre eux" in line for line in lines)
    lines, _ = _line(tmp_path, FIRST + WARDEN, "en")
    assert lines[0] == (
        "potion counted between the fights, and in them except at § 1: Élixirs de soin"
    )


def test_no_fight_counting_it_says_between_the_fights_only(tmp_path):
    lines, found = _line(tmp_path, FIRST + NO_WARDEN, "fr")
    assert [s.exact for s in found.of("median").fights] == [False]
    assert lines[0] == "potion comptée entre les combats seulement : Élixirs de soin"
    lines, _ = _line(tmp_path, FIRST + NO_WARDEN, "en")
    assert lines[0] == "potion counted between the fights only: Élixirs de soin"


def test_every_fight_exact_says_in_the_fights_and_between_them(tmp_path):
    exact = FIRST.replace("> quand il gagne un assaut : perdez 1 ENDURANCE\n", "")
    lines, found = _line(tmp_path, exact + WARDEN, "fr")
    assert all(s.exact for s in found.of("median").fights)
    assert lines[0] == "potion comptée, dans les combats et entre eux : Élixirs de soin"
