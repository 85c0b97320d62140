"""Hidden numbers in the validator (issue 13): each prompt's answers checked on their own
(W090 an answer not marked hidden, W091 an answer an ordinary way also leads to, W092 a
hidden paragraph no prompt lists), the roots of reachability, and the clues (W017).

A hidden paragraph is reachable only from a prompt that is reachable and lists it (the
graph's ``hidden`` edges), or, when the book has destinations the validator cannot
evaluate, from those (then every declared hidden paragraph counts as a root).

A clue to a number is the number written in another paragraph's text; a computed
destination that resolves to it (``-> [number of Key + 20]``); arithmetic in the text
("add 12 to the number on the key", "48 + 12", "the sum of the two numbers") over the
numbers the book gives (written in such a text, or noted on items: ``(number 48)``); or a
letter code ("A=1, B=2", "letters as numbers") and a word the text stresses (in capitals,
or alone in quotes) whose letters add up to it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from dedale import ast
from dedale.i18n import tr
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, header_span, walk

_NUMBER_WORDS = {
    word: value
    for words in (
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty",
        "un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze "
        "seize dix-sept dix-huit dix-neuf vingt",
    )
    for value, word in enumerate(words.split(), start=1)
}


@functools.cache
def _clue_patterns() -> tuple[re.Pattern[str], ...]:
    """The patterns of the clue search (:func:`clued`), compiled on its first use: only
    books with hidden paragraphs need them (~2 ms of every start, issue 14.11). In order:
    a number written in figures, arithmetic words, a letter code, a stressed word, a
    number spelled out."""
    return (
        re.compile(r"(?<![\w-])(\d{1,4})(?![\w])"),
        re.compile(
            r"\d\s*[-+×x*]\s*\d"
            r"|\b(?:add|added|adding|plus|sum|total|subtract|take away|minus|multiply|multiplied"
            r"|double|triple|difference"
            r"|ajoutez|ajouter|additionnez|additionner|somme|soustrayez|retranchez|retirez"
            r"|multipliez|multiplier|doublez|triplez|diff[ée]rence)\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"\bA\s*=\s*1\b|\bZ\s*=\s*26\b"
            r"|\b(?:letters?|lettres?)\b[^.]{0,60}\b(?:numbers?|nombres?|chiffres?|alphabet)\b",
            re.IGNORECASE,
        ),
        re.compile(r"(?<![\w])[A-Z]{2,}(?![\w])|[\"«“]\s*([A-Za-z]{2,})\s*[\"»”]"),
        re.compile(
            r"(?<![\w-])(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")(?![\w-])",
            re.I,
        ),
    )


POOL_LIMIT = 200
"""At most this many numbers of each kind enter the arithmetic clue search."""


def prompts(graph: Graph) -> Iterator[tuple[int, ast.HiddenNumber]]:
    """Every hidden-number prompt: (its paragraph, the prompt)."""
    for number in sorted(graph.nodes):
        for statement in walk(graph.nodes[number].paragraph.body):
            if isinstance(statement, ast.HiddenNumber):
                yield number, statement


def own_answers(graph: Graph) -> set[int]:
    """The paragraphs prompts list as their own answers (``-> ? (40, 56)``)."""
    found: set[int] = set()
    for number, prompt in prompts(graph):
        refs = {id(ref) for ref in prompt.answers or ()}
        for edge in graph.nodes[number].edges:
            if id(edge.ref) in refs and edge.target is not None:
                found.add(edge.target)
    return found


def listed(graph: Graph) -> set[int]:
    """Paragraphs some prompt lists or some computed destination resolves to."""
    found: set[int] = set()
    for node in graph.nodes.values():
        for edge in node.edges:
            if edge.target is not None and (
                edge.kind == "hidden" or isinstance(edge.ref, ast.ComputedRef)
            ):
                found.add(edge.target)
    return found


def reachable_paragraphs(graph: Graph, declared: Iterable[int]) -> set[int]:
    """What the reader can reach: from the start; from the declared hidden paragraphs too
    when a reachable destination cannot be evaluated (it may lead to any of them)."""
    assert graph.start is not None
    reachable = graph.reachable_from([graph.start])
    if any(graph.nodes[number].computed for number in reachable):
        reachable = graph.reachable_from([graph.start, *declared])
    return reachable


def answer_findings(graph: Graph, hidden: Iterable[int]) -> Iterator[Finding]:
    """W090, W091 for each prompt's own answers; W092 for the hidden paragraphs no prompt
    (and no computed destination) lists."""
    hidden = set(hidden)
    ordinary: dict[int, int] = {}
    for node in graph.nodes.values():
        for edge in node.edges:
            if edge.kind != "hidden" and edge.target is not None and edge.source != edge.target:
                if not isinstance(edge.ref, ast.ComputedRef):
                    ordinary.setdefault(edge.target, edge.source)
    for number, prompt in prompts(graph):
        for ref in prompt.answers or ():
            target = next(
                (
                    e.target
                    for e in graph.nodes[number].edges
                    if e.ref is ref and e.kind == "hidden"
                ),
                None,
            )
            if target is None or target not in graph.nodes:
                continue  # E010 reports it
            if target not in hidden:
                yield finding(
                    "W090",
                    tr(
                        "answer {answer} of this hidden-number prompt is not marked "
                        "`> hidden paragraph`",
                        answer=target,
                    ),
                    ref.span,
                    paragraph=number,
                    hint=tr("write `> hidden paragraph` in paragraph {answer}", answer=target),
                )
            elif target in ordinary:
                yield finding(
                    "W091",
                    tr(
                        "answer {answer} of this hidden-number prompt is also an ordinary "
                        "destination (from paragraph {source}): no need to work it out",
                        answer=target,
                        source=ordinary[target],
                    ),
                    ref.span,
                    paragraph=number,
                    hint=tr("make it reachable only by its number, or drop it from the answers"),
                )
    if any(node.computed for node in graph.nodes.values()):
        return  # a destination the validator cannot evaluate may list any of them
    reached = listed(graph)
    for number in sorted(hidden):
        if number in graph.nodes and number not in reached:
            yield finding(
                "W092",
                tr("paragraph {number} is marked hidden but no prompt lists it", number=number),
                header_span(graph.nodes[number].paragraph),
                paragraph=number,
                hint=tr(
                    "add it to the answers of its prompt: `-> ? ({number}) ...`", number=number
                ),
            )


# ----------------------------------------------------------------------------- clues


def clued(graph: Graph, book: object) -> set[int]:
    """Every number some clue of the book leads to (see the module's docstring)."""
    texts = {
        number: [s.text for s in walk(node.paragraph.body) if isinstance(s, ast.Prose)]
        for number, node in graph.nodes.items()
    }
    word_number, arithmetic, letter_code, code_word, spelled_number = _clue_patterns()
    found: set[int] = set()
    given: list[int] = []  # every number the book's text gives, and those noted on items
    operands: list[int] = []  # the numbers of a text that does arithmetic
    coded = bare = False
    for number, prose in texts.items():
        for text in prose:
            values = [int(match) for match in word_number.findall(text)]
            found.update(value for value in values if value != number)
            spelled = [_NUMBER_WORDS[word.lower()] for word in spelled_number.findall(text)]
            given += values + [value for value in spelled if value > 1]
            if arithmetic.search(text):
                operands += values + spelled
                bare = bare or not (values or spelled)  # "add up the numbers you found"
                if len(values) > 2:
                    found.add(sum(values))  # "the sum of the three numbers"
            coded = coded or bool(letter_code.search(text))
    given += item_numbers(graph)
    if bare:
        operands += given
    found |= _combinations(sorted(set(operands))[:POOL_LIMIT], sorted(set(given))[:POOL_LIMIT])
    for node in graph.nodes.values():
        for edge in node.edges:
            if isinstance(edge.ref, ast.ComputedRef) and edge.target is not None:
                found.add(edge.target)
    if coded:  # the words the puzzle stresses: in capitals, or alone in quotes
        for prose in texts.values():
            for text in prose:
                for match in code_word.finditer(text):
                    found.add(_letters(match.group(1) or match.group(0)))
    return found


def item_numbers(graph: Graph) -> list[int]:
    """The numbers noted on items (``take Key (number 48)``)."""
    return [
        effect.number
        for node in graph.nodes.values()
        for statement in walk(node.paragraph.body)
        if isinstance(statement, ast.GainItem)
        for effect in statement.effects
        if effect.number is not None
    ]


def _combinations(operands: list[int], given: list[int]) -> set[int]:
    """What an arithmetic text may make of its numbers and those the book gives."""
    found: set[int] = set()
    for a in operands:
        for b in (*operands, *given):
            found.update((a + b, abs(a - b), a * b))
    return found


def _letters(word: str) -> int:
    """A word's letters read as numbers (A=1 ... Z=26) and added up."""
    return sum(ord(letter) - 64 for letter in word.upper())


def without_clue(graph: Graph, book: object, numbers: Iterable[int]) -> Iterator[Finding]:
    """W017: a hidden paragraph (or prompt answer) no clue of the book leads to."""
    numbers = [number for number in numbers if number in graph.nodes]
    if not numbers or any(node.computed for node in graph.nodes.values()):
        return
    known = clued(graph, book)
    for number in numbers:
        if number not in known:
            yield finding(
                "W017",
                tr("paragraph {number} is declared hidden but no clue leads to it", number=number),
                header_span(graph.nodes[number].paragraph),
                paragraph=number,
                hint=tr(
                    "write its number, a sum that gives it, or a letter code in the text "
                    "that gives the clue, or stop declaring it hidden (its `> hidden paragraph` "
                    "line, or its entry under `validator: hidden:` in book.yaml)"
                ),
            )
