"""tools/i18n/yaml_to_po.py: keys added to a YAML catalogue (by a branch merged after the
migration) reach the .po and .mo files, with French typography; the .po wins otherwise."""

from __future__ import annotations

import gettext
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "i18n"))

import update  # noqa: E402
import yaml_to_po  # noqa: E402


def test_new_yaml_keys_reach_the_compiled_catalogue(tmp_path, monkeypatch, capsys):
    locale = tmp_path / "locale"
    shutil.copytree(update.LOCALE, locale)
    monkeypatch.setattr(update, "LOCALE", locale)
    interface = tmp_path / "interface"
    interface.mkdir()
    (interface / "en.yaml").write_text(
        'zz_test:\n  turn_to: "Turn to {number}"\nprompt:\n  choose: "Pick!"\n'
        'event:\n  torches:\n    one: "{count} torch"\n    other: "{count} torches"\n',
        encoding="utf-8",
    )
    (interface / "fr.yaml").write_text(
        'zz_test:\n  turn_to: "Rendez-vous au {number} !"\n'
        'event:\n  torches:\n    one: "{count} torche"\n    other: "{count} torches"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(yaml_to_po, "SOURCES", {"interface": interface})

    assert yaml_to_po.main(["--remove"]) == 0

    assert not (interface / "fr.yaml").exists() and not (interface / "en.yaml").exists()
    assert "kept the .po's en interface 'prompt.choose'" in capsys.readouterr().out
    with (locale / "fr" / "LC_MESSAGES" / "dedale.mo").open("rb") as handle:
        french = gettext.GNUTranslations(handle)
    assert french.pgettext("interface", "zz_test.turn_to") == "Rendez-vous au {number}\u202f!"
    assert french.npgettext("interface", "event.torches", "event.torches", 2) == "{count} torches"
    with (locale / "en" / "LC_MESSAGES" / "dedale.mo").open("rb") as handle:
        english = gettext.GNUTranslations(handle)
    assert english.pgettext("interface", "prompt.choose") == "Your choice?"  # the .po wins
    assert english.npgettext("interface", "event.torches", "event.torches", 1) == "{count} torch"
