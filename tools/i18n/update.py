"""Keep the gettext catalogue in step with the code: extract, merge, compile.

    python tools/i18n/update.py           # extract tr/ntr msgids, merge into the .po, compile .mo
    python tools/i18n/update.py --check   # exit 1 when a .po or .mo is stale or French is missing

Every ``tr("…")`` / ``ntr("…", "…", n)`` msgid of ``engine/`` is extracted with Babel's
Python extractor (keywords ``tr`` and ``ntr:1,2``, and ``Check:4``: the titles of the
validator's checks, which SARIF shows) and merged into
``engine/dedale/i18n/locale/fr/LC_MESSAGES/dedale.po`` (a new msgid gets an empty French
msgstr: translate it, then run this again). English needs no entry for a sentence (its
msgid is its English text). Keyed messages (a msgctxt and a dotted key, see
``dedale.i18n.catalogue``) are kept as they are in both ``.po`` files; a msgid that left the
code is kept as obsolete (``#~``) for a later reuse. Then each ``.po`` is compiled to the
``.mo`` that the runtime reads with the standard library.

Babel is a development dependency (the ``test`` extra), never a runtime one.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
LOCALE = ENGINE / "dedale" / "i18n" / "locale"
LANGUAGES = ("en", "fr")
KEYWORDS = {"tr": None, "ntr": (1, 2), "Check": (4,)}  # Check: the validator's titles
CONTEXTS = ("interface", "player")  # msgctxt of keyed messages (dedale.i18n.catalogue)
PROJECT = "dedale"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "dedale.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "dedale.mo"


def extract(engine: Path = ENGINE) -> Catalog:
    """Every tr/ntr msgid of the code, with the files it appears in (no line numbers)."""
    template = Catalog(project=PROJECT, fuzzy=False)
    found = extract_from_dir(
        engine,
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, lineno, msgid, comments, context in sorted(found, key=lambda f: (f[0], f[1])):
        if not all(msgid if isinstance(msgid, tuple) else (msgid,)):
            continue  # tr(variable): nothing to extract
        path = (engine / filename).relative_to(engine.parent).as_posix()
        template.add(msgid, locations=[(path, lineno)], auto_comments=comments, context=context)
    return template


def read(lang: str) -> Catalog:
    """The .po of ``lang`` (an empty catalogue with its header when it does not exist yet)."""
    path = po_path(lang)
    if not path.exists():
        return new_catalogue(lang)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain="dedale")


# The classic gettext rules (CLDR gives French a third form, for millions, that no
# message here needs).
PLURAL_FORMS = {"en": (2, "(n != 1)"), "fr": (2, "(n > 1)")}


def new_catalogue(lang: str) -> Catalog:
    catalogue = Catalog(
        locale=lang,
        domain="dedale",
        project=PROJECT,
        version="1",
        header_comment=f"# Dédale's messages ({lang}). Edit msgstr; run tools/i18n/update.py.",
        fuzzy=False,
    )
    catalogue._num_plurals, catalogue._plural_expr = PLURAL_FORMS[lang]
    return catalogue


def is_keyed(message: Message) -> bool:
    return message.context in CONTEXTS


def merge(current: Catalog, template: Catalog, lang: str) -> Catalog:
    """``current`` with the msgids of ``template``: keyed messages first, then sentences."""
    merged = new_catalogue(lang)
    merged.mime_headers = current.mime_headers
    merged.header_comment = current.header_comment
    merged.fuzzy = False
    keyed = sorted(
        (m for m in current if m.id and is_keyed(m)), key=lambda m: (m.context, _key(m.id))
    )
    for message in keyed:
        merged[message.id] = message
    if lang != "en":
        for wanted in template:
            if not wanted.id:
                continue
            old = current.get(wanted.id, wanted.context) or current.obsolete.get(
                _obsolete_key(wanted)
            )
            string = old.string if old is not None and _same_shape(old, wanted) else None
            flags = set(old.flags) if old is not None and string else set()
            merged[wanted.id] = Message(
                wanted.id,
                string or (("",) * 2 if isinstance(wanted.id, tuple) else ""),
                locations=[(path, None) for path, _ in wanted.locations],
                flags=flags - {"python-format", "python-brace-format"},
                auto_comments=wanted.auto_comments,
                user_comments=old.user_comments if old is not None else (),
                context=wanted.context,
            )
        kept = [*current, *current.obsolete.values()]
        for message in kept:
            if message.id and not is_keyed(message) and message.id not in merged:
                if _translated(message):
                    merged.obsolete[_obsolete_key(message)] = message
    return merged


def _key(msgid: str | tuple[str, ...]) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


def _obsolete_key(message: Message) -> str | tuple[str, str]:
    return _key(message.id) if message.context is None else (_key(message.id), message.context)


def _same_shape(old: Message, new: Message) -> bool:
    return isinstance(old.id, tuple) == isinstance(new.id, tuple)


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(strings) and all(strings) and not message.fuzzy


def po_bytes(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, include_lineno=False, ignore_obsolete=False)
    return out.getvalue()


def mo_bytes(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def untranslated(catalogue: Catalog, template: Catalog | None = None) -> list[str]:
    """The msgids (of ``template``, else of the catalogue) with no usable translation."""
    wanted: Iterable[Message] = template if template is not None else catalogue
    missing = []
    for message in wanted:
        if not message.id:
            continue
        found = catalogue.get(message.id, message.context)
        if found is None or not _translated(found):
            missing.append(_key(message.id))
    return missing


def planned(template: Catalog | None = None) -> dict[Path, bytes]:
    """The bytes every .po and .mo file should hold."""
    template = template if template is not None else extract()
    files: dict[Path, bytes] = {}
    for lang in LANGUAGES:
        merged = merge(read(lang), template, lang)
        files[po_path(lang)] = po_bytes(merged)
        files[mo_path(lang)] = mo_bytes(read_po(io.BytesIO(files[po_path(lang)]), locale=lang))
    return files


def stale(files: dict[Path, bytes]) -> list[Path]:
    """The files whose committed bytes differ from ``files``."""
    return [path for path, data in files.items() if not path.exists() or path.read_bytes() != data]


def write(files: dict[Path, bytes]) -> None:
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def missing_french(template: Catalog | None = None) -> list[str]:
    """Sentences of the code and keyed messages with no French translation."""
    template = template if template is not None else extract()
    french, english = read("fr"), read("en")
    keyed = [m for m in english if m.id and is_keyed(m)]
    return untranslated(french, template) + untranslated(french, keyed)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    template = extract()
    files = planned(template)
    if args.check:
        out_of_date = stale(files)
        for path in out_of_date:
            print(f"stale: {path.relative_to(ROOT)}", file=sys.stderr)
    else:
        write(files)
        out_of_date = []
    missing = missing_french(template)
    for msgid in missing:
        print(f"no French translation: {msgid!r}", file=sys.stderr)
    print(f"{len(template)} msgids in the code, {len(missing)} without French", file=sys.stderr)
    return int(bool(out_of_date or missing)) if args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
