"""Move the keyed messages of the old YAML catalogues into the gettext ``.po`` files.

    python tools/i18n/yaml_to_po.py            # add the keys the .po files lack, compile
    python tools/i18n/yaml_to_po.py --remove   # ... then delete the YAML files
    python tools/i18n/yaml_to_po.py --since REF  # report only values changed since commit REF

Reads ``engine/dedale/i18n/{en,fr}.yaml`` (msgctxt ``interface``, for ``dedale.i18n.message``)
and ``engine/dedale/player/i18n/{en,fr}.yaml`` (msgctxt ``player``, for
``dedale.player.texts.Texts``) when they exist. A key becomes a msgid under its context,
translated in en.po and fr.po (French typography applied, see ``typography.py``); a value
written ``{one: …, other: …}`` is a plural entry (chosen by ``count=``). A key the ``.po``
already has is kept as the ``.po`` says (the ``.po`` is the source of truth once migrated);
a differing YAML value is printed so that it can be reviewed; with ``--since REF`` (the
commit the YAML files were migrated from), a value changed in the YAML since REF replaces
the ``.po``'s. Safe to re-run: after merging a branch that added or changed keys in a YAML
file (keep that branch's YAML in the merge), run it again with ``--since REF --remove``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Message
from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent))

import update  # noqa: E402
from typography import french_typography  # noqa: E402
from update import ENGINE, LANGUAGES  # noqa: E402

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


def load_at(commit: str | None, folder: Path, lang: str) -> dict[str, Value]:
    """The YAML catalogue as it was at ``commit`` (empty when unknown)."""
    if commit is None:
        return {}
    path = (folder / f"{lang}.yaml").relative_to(ENGINE.parent).as_posix()
    shown = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ENGINE.parent, capture_output=True, text=True
    )
    return flatten(YAML(typ="safe").load(shown.stdout)) if shown.returncode == 0 else {}


def _shown(value: Value, lang: str) -> Value:
    if lang != "fr":
        return value
    if isinstance(value, tuple):
        return (french_typography(value[0]), french_typography(value[1]))
    return french_typography(value)


def migrate(remove: bool = False, since: str | None = None) -> int:
    catalogues = {lang: update.read(lang) for lang in LANGUAGES}
    added = 0
    for context, folder in SOURCES.items():
        for lang in LANGUAGES:
            values = load(folder, lang)
            if values is None:
                continue
            catalogue = catalogues[lang]
            before = load_at(since, folder, lang)
            for key, value in values.items():
                changed = key not in before or before[key] != value
                value = _shown(value, lang)
                current = catalogue.get(key, context)
                if current is not None and current.string != value and changed and since:
                    print(f"{lang} {context} {key!r} changed since {since}: now {value!r}")
                    catalogue.delete(current.id, context)
                elif current is not None:
                    if current.string != value and changed:
                        print(f"kept the .po's {lang} {context} {key!r} (YAML: {value!r})")
                    continue
                msgid = (key, key) if isinstance(value, tuple) else key
                catalogue[msgid] = Message(msgid, value, context=context)
                added += 1
    for lang, catalogue in catalogues.items():
        path = update.po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(update.po_bytes(catalogue))
    update.write(update.planned(update.extract()))
    print(f"{added} keyed messages added", file=sys.stderr)
    if remove:
        for folder in SOURCES.values():
            for lang in LANGUAGES:
                (folder / f"{lang}.yaml").unlink(missing_ok=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remove", action="store_true", help="delete the YAML files after")
    parser.add_argument(
        "--since", metavar="REF", help="report only the YAML values changed since commit REF"
    )
    args = parser.parse_args(argv)
    return migrate(args.remove, args.since)


if __name__ == "__main__":
    raise SystemExit(main())
