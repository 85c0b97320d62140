"""Move the keyed messages of the old YAML catalogues into the gettext ``.po`` files.

    python tools/i18n/yaml_to_po.py            # add the keys the .po files lack, compile
    python tools/i18n/yaml_to_po.py --remove   # ... then delete the YAML files

Reads ``engine/dedale/i18n/{en,fr}.yaml`` (msgctxt ``interface``, for ``dedale.i18n.message``)
and ``engine/dedale/player/i18n/{en,fr}.yaml`` (msgctxt ``player``, for
``dedale.player.texts.Texts``) when they exist. A key becomes a msgid under its context,
translated in en.po and fr.po (French typography applied, see ``typography.py``); a value
written ``{one: …, other: …}`` is a plural entry (chosen by ``count=``). A key the ``.po``
already has is kept as the ``.po`` says (the ``.po`` is the source of truth once migrated);
a differing YAML value is printed so that it can be reviewed. Safe to re-run: after merging
a branch that added keys to a YAML file, run it again (with ``--remove``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Message
from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent))

from typography import french_typography  # noqa: E402
from update import ENGINE, LANGUAGES, extract, planned, read, write  # noqa: E402

SOURCES = {
    "interface": ENGINE / "dedale" / "i18n",
    "player": ENGINE / "dedale" / "player" / "i18n",
}
PLURAL_KEYS = {"one", "other"}

Value = str | tuple[str, str]


def flatten(data: Any, prefix: str = "") -> dict[str, Value]:
    """Dotted keys of a YAML tree; ``{one, other}`` mappings are plural values."""
    flat: dict[str, Value] = {}
    for key, value in (data or {}).items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and set(value) == PLURAL_KEYS:
            flat[name] = (str(value["one"]), str(value["other"]))
        elif isinstance(value, dict):
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = str(value)
    return flat


def load(folder: Path, lang: str) -> dict[str, Value] | None:
    path = folder / f"{lang}.yaml"
    if not path.exists():
        return None
    return flatten(YAML(typ="safe").load(path.read_text(encoding="utf-8")))


def _shown(value: Value, lang: str) -> Value:
    if lang != "fr":
        return value
    if isinstance(value, tuple):
        return (french_typography(value[0]), french_typography(value[1]))
    return french_typography(value)


def migrate(remove: bool = False) -> int:
    catalogues = {lang: read(lang) for lang in LANGUAGES}
    added = 0
    for context, folder in SOURCES.items():
        for lang in LANGUAGES:
            values = load(folder, lang)
            if values is None:
                continue
            catalogue = catalogues[lang]
            for key, value in values.items():
                value = _shown(value, lang)
                current = catalogue.get(key, context) or catalogue.get((key, key), context)
                if current is not None:
                    if current.string != value:
                        print(f"kept the .po's {lang} {context} {key!r} (YAML: {value!r})")
                    continue
                msgid = (key, key) if isinstance(value, tuple) else key
                catalogue[msgid] = Message(msgid, value, context=context)
                added += 1
    for lang, catalogue in catalogues.items():
        path = ENGINE / "dedale" / "i18n" / "locale" / lang / "LC_MESSAGES" / "dedale.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        from update import po_bytes

        path.write_bytes(po_bytes(catalogue))
    write(planned(extract()))
    print(f"{added} keyed messages added", file=sys.stderr)
    if remove:
        for folder in SOURCES.values():
            for lang in LANGUAGES:
                (folder / f"{lang}.yaml").unlink(missing_ok=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remove", action="store_true", help="delete the YAML files after")
    return migrate(parser.parse_args(argv).remove)


if __name__ == "__main__":
    raise SystemExit(main())
