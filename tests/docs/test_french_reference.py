"""docs/fr/language.md stays in step with docs/language.md, the author's reference.

What must match, section by section (a section is a numbered heading `## N. …`, plus the
text before the first one):

- the same numbered sections, in the same order, and in each the same number of `###`
  sub-headings;
- the same examples: every code block of an English section (fenced, or indented by four
  spaces) appears in the French section of the same number, in the same order. The French
  text may add blocks of its own between them.

Code blocks are compared after normalisation. What may differ, because it is commentary
for the reader and not part of the example:

- comments: `//` to the end of a line in book text and in `jsonc`; `#` to the end of a
  line (at its start or after a space) in `yaml`, `python` and shell blocks;
- margin notes of an indented block: text after a gap of three or more spaces that does not
  start a second column of rules (`>`, `->`, `§`), such as `(a label instead of a number)`
  or the descriptions of a file tree;
- trailing spaces, and the lines left empty once their comment is removed.

Everything else (the rules, the prose of the sample books, the error output) is identical.
Besides the examples, every rule a table of an English section quotes (`> …`, `-> …`) is
quoted in the French section of the same number.
When the English reference changes, the failure names the section that drifted and shows
the English block that has no French counterpart.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from dedale.language.parser import parse_collecting

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = ROOT / "docs" / "language.md"
FRENCH = ROOT / "docs" / "fr" / "language.md"

_NUMBERED = re.compile(r"^## (\d+)\. (.+)$")
_FENCE = re.compile(r"^```(\S*)\s*$")
_HASH_COMMENT = re.compile(r"(^|\s)#.*$")
_SLASH_COMMENT = re.compile(r"(^|\s)//.*$")
_MARGIN_NOTE = re.compile(r"(?<=\S)\s{3,}(?!->|>|§)\S.*$")
_HASH_LANGUAGES = {"yaml", "yml", "python", "py", "sh", "bash", "console", "toml"}


@dataclass
class Block:
    """One code block: its language (`indented` for an indented block) and text."""

    language: str
    text: str
    line: int

    def normalised(self) -> str:
        kept: list[str] = []
        for raw in self.text.splitlines():
            line = raw.rstrip()
            if self.language in _HASH_LANGUAGES:
                line = _HASH_COMMENT.sub("", line)
            else:
                line = _SLASH_COMMENT.sub("", line)
            if self.language == "indented":
                line = _MARGIN_NOTE.sub("", line)
            line = line.rstrip()
            if line or not raw.strip():
                kept.append(line)
        while kept and not kept[-1]:
            kept.pop()
        while kept and not kept[0]:
            kept.pop(0)
        return "\n".join(kept)


@dataclass
class Section:
    """A numbered section (0 for the text before the first one)."""

    number: int
    title: str
    line: int
    subheadings: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def name(self) -> str:
        return f"§ {self.number} ({self.title})" if self.number else "the introduction"


def read_sections(path: Path) -> list[Section]:
    """The sections of a reference, with their sub-headings and code blocks."""
    lines = path.read_text("utf-8").splitlines()
    sections = [Section(0, "introduction", 1)]
    fence: tuple[str, int, list[str]] | None = None
    indented: list[str] = []
    indented_start = 0
    previous_blank = True

    def close_indented() -> None:
        nonlocal indented
        if indented:
            text = "\n".join(line[4:] for line in indented)
            sections[-1].blocks.append(Block("indented", text, indented_start))
            indented = []

    for number, line in enumerate(lines, 1):
        if fence is not None:
            if line.strip() == "```":
                language, start, body = fence
                sections[-1].blocks.append(Block(language, "\n".join(body), start))
                fence = None
            else:
                fence[2].append(line)
            continue
        if indented and (line.startswith("    ") or not line.strip()):
            indented.append(line)
            continue
        close_indented()
        if line.startswith("    ") and previous_blank and line.strip():
            indented, indented_start = [line], number
            continue
        previous_blank = not line.strip()
        if match := _FENCE.match(line):
            fence = (match[1] or "text", number + 1, [])
        elif match := _NUMBERED.match(line):
            sections.append(Section(int(match[1]), match[2].strip(), number))
        elif line.startswith("### "):
            sections[-1].subheadings.append(line[4:].strip())
    close_indented()
    return sections


def _by_number(path: Path) -> dict[int, Section]:
    return {section.number: section for section in read_sections(path)}


def test_same_numbered_sections() -> None:
    english, french = read_sections(ENGLISH), read_sections(FRENCH)
    english_numbers = [section.number for section in english]
    french_numbers = [section.number for section in french]
    missing = [s.name() for s in english if s.number not in french_numbers]
    extra = [s.name() for s in french if s.number not in english_numbers]
    assert not missing, f"docs/fr/language.md lacks the sections {missing} of docs/language.md"
    assert not extra, f"docs/fr/language.md has sections docs/language.md has not: {extra}"
    assert french_numbers == english_numbers, (
        f"sections in another order: English {english_numbers}, French {french_numbers}"
    )
    assert english_numbers == list(range(len(english_numbers))), "numbering has a gap"


def test_same_subheadings_per_section() -> None:
    french = _by_number(FRENCH)
    drifted = []
    for section in read_sections(ENGLISH):
        other = french.get(section.number)
        if other is not None and len(other.subheadings) != len(section.subheadings):
            drifted.append(
                f"{section.name()}: {len(section.subheadings)} sub-headings in English "
                f"{section.subheadings}, {len(other.subheadings)} in French {other.subheadings}"
            )
    assert not drifted, "sub-headings drifted:\n" + "\n".join(drifted)


def _missing_example(english: Section, french: Section) -> str | None:
    """Why the English examples are not a subsequence of the French ones, or None."""
    candidates = [block.normalised() for block in french.blocks]
    position = 0
    for index, block in enumerate(english.blocks, 1):
        wanted = block.normalised()
        try:
            position = candidates.index(wanted, position) + 1
        except ValueError:
            closest = difflib.get_close_matches(wanted, candidates, n=1, cutoff=0.3)
            diff = ""
            if closest:
                lines = difflib.unified_diff(
                    wanted.splitlines(), closest[0].splitlines(), "English", "French", lineterm=""
                )
                diff = "\nclosest French block, as a diff:\n" + "\n".join(lines)
            return (
                f"{english.name()}: English example {index} of {len(english.blocks)} "
                f"(docs/language.md line {block.line}) is missing from docs/fr/language.md "
                f"{french.name()} (line {french.line}), or out of order:\n{wanted}{diff}"
            )
    return None


def test_same_examples_per_section() -> None:
    french = _by_number(FRENCH)
    problems = []
    for section in read_sections(ENGLISH):
        other = french.get(section.number)
        if other is None:
            continue
        problem = _missing_example(section, other)
        if problem:
            problems.append(problem)
    assert not problems, "\n\n".join(problems)


def test_the_reference_has_examples() -> None:
    """The parser of this test sees the examples (a guard against a test that checks nothing)."""
    blocks = sum(len(section.blocks) for section in read_sections(ENGLISH))
    assert blocks >= 30
    assert len(read_sections(ENGLISH)) >= 27


# The quoted rule lines of the French text parse, as tests/language/test_docs_examples.py
# checks for the English one.
CONTEXT = (
    "§ 1\n> fight X SKILL 1 STAMINA 1\n> test your luck\n> roll 1d6\n> if Key: death\n"
    "> hidden number (1)\n"
)
# outcome lines of an optional test or of a comparison of two rolls (§ 30) follow one
OTHER_CONTEXT = CONTEXT.replace("> test your luck", "> roll 2d6 against 2d6 (optional)")
PLACEHOLDERS = ("…", "COND", "STATEMENT", "INSTRUCTION", "[", "NAME", "NOM", "...")


def test_every_quoted_french_rule_line_parses() -> None:
    quoted = re.findall(r"`((?:>|->) [^`]+)`", FRENCH.read_text("utf-8"))
    checked = 0
    for line in quoted:
        if any(mark in line for mark in PLACEHOLDERS):
            continue
        _result, errors = parse_collecting(CONTEXT + line + "\n", "doc.dd")
        if errors:
            _result, errors = parse_collecting(OTHER_CONTEXT + line + "\n", "doc.dd")
        if errors:  # a fight line quoted alone: its enemies follow it in a book
            text = CONTEXT + line + "\n> ennemi Y HABILETÉ 1 ENDURANCE 1\n"
            _result, errors = parse_collecting(text, "doc.dd")
        assert not errors, f"docs/fr/language.md quotes {line!r}: {errors[0]}"
        checked += 1
    assert checked > 100


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def test_french_links_inside_the_page_resolve() -> None:
    text = FRENCH.read_text("utf-8")
    anchors = {_slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    anchors |= set(re.findall(r'<a id="([^"]+)"', text))
    broken = [link for link in re.findall(r"\]\(#([^)]+)\)", text) if link not in anchors]
    assert not broken, f"links to no heading in docs/fr/language.md: {broken}"


def test_french_links_to_files_resolve() -> None:
    for page in sorted(FRENCH.parent.glob("*.md")):
        targets = re.findall(r"\]\((?!#|https?:)([^)#]+)", page.read_text("utf-8"))
        broken = [t for t in targets if not (page.parent / t).exists()]
        assert not broken, f"links to no file in docs/fr/{page.name}: {broken}"


def _french_blocks() -> list[Block]:
    return [block for section in read_sections(FRENCH) for block in section.blocks]


def test_french_book_examples_validate(tmp_path: Path) -> None:
    """The whole books the French text shows (a front matter and paragraphs) validate with
    no error."""
    from dedale.validator import validate_path

    books = [b for b in _french_blocks() if b.text.startswith("---\n") and "\n§ " in b.text]
    assert len(books) >= 2
    for index, block in enumerate(books):
        path = tmp_path / f"example-{index}.dd"
        path.write_text(block.text + "\n", "utf-8")
        report = validate_path(path, runs=0)
        errors = [f.message for f in report.findings if f.severity == "error"]
        assert not errors, f"docs/fr/language.md line {block.line}: {errors}"


def test_french_book_yaml_loads(tmp_path: Path) -> None:
    """The book.yaml written with the French key names, as the French text shows it, loads
    and means what its English twin means."""
    from dedale.language import load_book

    french_keys = [b for b in _french_blocks() if b.language == "yaml" and "titre:" in b.text]
    assert len(french_keys) == 1
    folder = tmp_path / "livre"
    folder.mkdir()
    (folder / "book.yaml").write_text(french_keys[0].text + "\n", "utf-8")
    (folder / "01-village.dd").write_text("§ 1\n-> 2 (si Lanterne) Entrer\n", "utf-8")
    (folder / "02-forest.dd").write_text("§ 2\n> victoire\n", "utf-8")
    meta = load_book(folder).meta
    assert (meta.title, meta.language, meta.ruleset, meta.start) == (
        "Le Gardien de la lanterne",
        "fr",
        "df-classic",
        1,
    )
    assert meta.rules is not None and "counters" in meta.rules
    assert meta.validator.get("ignore") == ["W013"]
    assert meta.creation.default_name == "Ash"
    assert len(meta.items) == 2


def _quoted_by_section(path: Path, tables_only: bool) -> dict[int, list[str]]:
    """The code spans of each section (of its table rows only, if asked), fences skipped."""
    quoted: dict[int, list[str]] = {0: []}
    section, fence = 0, False
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        if match := _NUMBERED.match(line):
            section = int(match[1])
            quoted[section] = []
        elif line.startswith("|") or not tables_only:
            quoted[section] += re.findall(r"`([^`]+)`", line)
    return quoted


_TABLE_PLACEHOLDERS = ("…", "COND", "STATEMENT", "Text", "label", "NAME")


def test_same_keywords_in_the_tables() -> None:
    """Every rule quoted in a table of an English section (`> …`, `-> …`, with no
    placeholder) is quoted in the French section too: a keyword added to the English
    reference is flagged until the French one has it."""
    english = _quoted_by_section(ENGLISH, tables_only=True)
    french = _quoted_by_section(FRENCH, tables_only=False)
    names = {s.number: s.name() for s in read_sections(ENGLISH)}
    missing = []
    checked = 0
    for number, spans in english.items():
        theirs = french.get(number, [])
        for span in dict.fromkeys(spans):
            if not span.startswith((">", "->")) or any(m in span for m in _TABLE_PLACEHOLDERS):
                continue
            checked += 1
            if not any(span in other for other in theirs):
                missing.append(f"{names[number]}: `{span}`")
    assert checked > 150
    assert not missing, "rules of docs/language.md tables not in docs/fr/language.md:\n" + (
        "\n".join(missing)
    )
