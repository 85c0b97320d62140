"""Group parsed lines into paragraphs: prose blocks, tests with their branches, fights
with their enemies and options, ``if`` with its ``otherwise``.

Input is the list of line items in file order (from dedale.language.transform) and the
prose lines; output is the ``ast.ParagraphFile`` and the errors found on the way.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr
from dedale.language import roll_refs
from dedale.language.blocks import OpenBlock
from dedale.language.endings import check_endings
from dedale.language.hidden_lines import WrongNumberPart, attach_wrong
from dedale.language.roll_refs import check_roll_refs
from dedale.language.test_outcomes import check_test_outcomes
from dedale.language.transform_parts import ElsePart, FightPart, Header
from dedale.span import Span

_TESTS = (ast.Test, ast.DuoTest, ast.D20Test)
_FIGHT_WORDS = {
    "enemy": "`enemy`/`ennemi`",
    "win": "`win ->`/`victoire ->`",
    "lose": "`lose ->`/`défaite ->`",
    "escape": "`escape ->`/`fuite ->`",
    "assault_limit": "`not won after`/`pas gagné après`",
    "attack": "`attack`/`attaque`",
    "enemy_damage": "`enemy damage`/`dégâts ennemis`",
    "attack_stat": "`attack with`/`attaque avec`",
    "threshold": "`when STAMINA falls to`/`quand ENDURANCE tombe à`",
    "ally": "`ally`/`allié`",
    "struck": "`the enemy strikes`/`l'ennemi frappe`",
    "assault_table": "`each assault roll`/`à chaque assaut lancez`",
    "win_assaults": "`after N assaults won`/`gagnez N assauts`",
    "rule": "`it deals`/`il inflige`, `it takes`/`il subit`…",
}
_FIGHT_FIELDS = {
    "win": "win",
    "lose": "lose",
    "escape": "escape",
    "assault_limit": "assault_limit",
    "enemy_damage": "enemy_damage",
    "attack_stat": "attack_stat",
    "threshold": "threshold",
    "struck": "struck",
    "assault_table": "assault_table",
    "win_assaults": "win_assaults",
}


class _Builder:
    def __init__(self, file: str, errors: list[DedaleError], indents: dict[int, int]):
        self.file = file
        self.errors = errors
        self.indents = indents
        self.paragraphs: list[ast.Paragraph] = []
        self.header: Header | None = None
        self.body: list[ast.Statement] = []
        self.prose: list[tuple[int, str]] = []
        self.last_test: int | None = None
        self.last_fight: int | None = None
        self.last_roll: int | None = None
        self.last_if: int | None = None
        self.fight_lines: dict[tuple[int, str], Span] = {}
        self.enemy_started: set[int] = set()  # fights started by an enemy line of their own
        self.block: OpenBlock | None = None  # an `if …:` whose effects follow, indented

    # ------------------------------------------------------------------ prose
    def add_prose(self, line: int, text: str) -> None:
        if self.header is None:
            if text.strip():
                self.errors.append(
                    BookStructureError(
                        tr("this text belongs to no paragraph"),
                        Span(self.file, line, 1 + len(text) - len(text.lstrip())),
                        hint=tr("start a paragraph with a header line such as `§ 1`"),
                    )
                )
            return
        self.prose.append((line, text))

    def flush_prose(self) -> None:
        lines = self.prose
        self.prose = []
        while lines and not lines[0][1].strip():
            lines.pop(0)
        while lines and not lines[-1][1].strip():
            lines.pop()
        if not lines:
            return
        text = "\n".join(t.rstrip() for _, t in lines)
        if text[:1] in (" ", "\t") or "\n " in text or "\n\t" in text:
            text = textwrap.dedent(text)
        first, last = lines[0][0], lines[-1][0]
        span = Span(self.file, first, 1, last, len(lines[-1][1]) + 1)
        self.body.append(ast.Prose(span=span, text=text))

    # ------------------------------------------------------------------ paragraphs
    def close(self, next_line: int | None = None) -> None:
        """End the paragraph being read (``next_line``: where the next one starts)."""
        self.flush_prose()
        self._close_block()
        if self.header is not None:
            body = [self._finish_fight(s) if isinstance(s, ast.Fight) else s for s in self.body]
            self._check_enemies(body, next_line)
            check_endings(body, self.errors)
            if roll_refs.PARSED[0]:  # else no ROLL was parsed: none to check
                check_roll_refs(body, self.errors)
            check_test_outcomes(body, self.errors)
            self.paragraphs.append(
                ast.Paragraph(
                    span=self.header.span,
                    number=self.header.number,
                    label=self.header.label,
                    body=tuple(body),
                )
            )
        self.body = []
        self.fight_lines = {}
        self.enemy_started = set()
        self.last_test = self.last_fight = self.last_roll = self.last_if = None

    def _check_enemies(self, body: list[ast.Statement], next_line: int | None) -> None:
        """A fight line with no enemy after it is an error at its line (the game would stop
        there); after enemy lines that started a fight themselves, the hint says so. Not
        when a line after it already has an error (an enemy line that did not parse)."""
        failed = {e.span.line for e in self.errors if e.span is not None}
        for index, statement in enumerate(body):
            if not isinstance(statement, ast.Fight) or statement.enemies:
                continue
            later = [s.span.line for s in body[index + 1 :] if s.span is not None]
            end = min(later, default=next_line if next_line is not None else 1 << 60)
            if any(statement.span.line < line < end for line in failed):
                continue
            if index - 1 in self.enemy_started:
                hint = tr(
                    "the enemy lines above already start a fight: remove this line, or put it "
                    "before them (`> fight` / `> combat` first, then its enemies)"
                )
            else:
                hint = tr(
                    "write its enemies on the lines after it, e.g. `> enemy GOBLIN SKILL 7 "
                    "STAMINA 6` / `> ennemi GOBELIN HABILETÉ 7 ENDURANCE 6`"
                )
            self.errors.append(
                BookStructureError(tr("this fight has no enemy"), statement.span, hint=hint)
            )

    @staticmethod
    def _finish_fight(fight: ast.Fight) -> ast.Fight:
        if len(fight.enemies) > 1 and fight.mode == "single":
            return replace(fight, mode="sequence")
        return fight

    def add(self, item: object) -> None:
        if isinstance(item, Header):
            self.close(item.span.line)
            self.header = item
            return
        span: Span = item.span  # type: ignore[attr-defined]
        if self.header is None:
            self.errors.append(
                BookStructureError(
                    tr("this line belongs to no paragraph"),
                    span,
                    hint=tr("start a paragraph with a header line such as `§ 1`"),
                )
            )
            return
        self.flush_prose()
        if self.block is not None:
            if self.block.takes(item, self.indents):
                self.block.add(item, self.errors)
                return
            self._close_block()
        if isinstance(item, ast.Branch):
            self._attach_branch(item)
            if not item.body and self.last_test is not None:
                self.block = OpenBlock(item.span, self._into_branch(self.last_test, item))
        elif isinstance(item, ast.RangeBranch):
            self._attach_row(item)
            if not item.body and self.last_roll is not None:
                self.block = OpenBlock(item.span, self._into_row(self.last_roll))
        elif isinstance(item, FightPart):
            self._attach_fight(item)
        elif isinstance(item, ElsePart):
            self._attach_else(item)
        elif isinstance(item, WrongNumberPart):
            attach_wrong(self.body, item, self.errors)
        elif isinstance(item, ast.ShopOffer):  # consecutive offers make one shop
            last = self.body[-1] if self.body else None
            if isinstance(last, ast.Shop):
                self.body[-1] = replace(last, offers=last.offers + (item,))
            else:
                self.body.append(ast.Shop(span=item.span, offers=(item,)))
        else:
            index = len(self.body)
            self.body.append(item)  # type: ignore[arg-type]
            if isinstance(item, _TESTS):
                self.last_test = index
            elif isinstance(item, ast.Fight):
                self.last_fight = index
            elif isinstance(item, ast.RandomRoll):
                self.last_roll = index
            elif isinstance(item, ast.If):
                self.last_if = index
                if not item.then:
                    self.block = OpenBlock(item.span, self._into_if(index, "then"))
            elif isinstance(item, ast.Choice):  # effects may follow, indented
                self.block = OpenBlock(item.span, self._into_if(index, "effects"), choice=True)

    def _missing(self, span: Span, message: str, hint: str) -> None:
        self.errors.append(BookStructureError(message, span, self._rule_in_prose() or hint))

    def _rule_in_prose(self) -> str | None:
        """A hint naming the last text line of this paragraph that reads like a rule line
        whose `>` was forgotten (``tentez votre habileté``), if there is one."""
        from dedale.language.suspicious import rule_in_prose  # lazy: it uses the parser

        for statement in reversed(self.body):
            if isinstance(statement, ast.Prose):
                found = rule_in_prose(statement)
                if found is not None:
                    span, line = found
                    return tr(
                        "line {line} `{text}` is text: is its `>` missing? write `> {text}`",
                        line=span.line,
                        text=line,
                    )
        return None

    def _attach_branch(self, branch: ast.Branch) -> None:
        if self.last_test is None:
            self._missing(
                branch.span, tr("a test outcome without a test before it"),
                tr("put a test line first, e.g. `> test your luck` / `> tentez votre chance`"),
            )  # fmt: skip
            return
        test = self.body[self.last_test]
        branches = list(test.branches)  # type: ignore[union-attr]
        for i, existing in enumerate(branches):
            if existing.outcome == branch.outcome and existing.margin == branch.margin:
                branches[i] = replace(existing, body=existing.body + branch.body)
                break
        else:
            branches.append(branch)
        self.body[self.last_test] = replace(test, branches=tuple(branches))  # type: ignore[type-var]

    def _attach_row(self, row: ast.RangeBranch) -> None:
        if self.last_roll is None:
            self._missing(
                row.span,
                tr("a dice row without a roll before it"),
                tr("put `> roll 1d6` / `> lancez 1d6` first"),
            )
            return
        roll = self.body[self.last_roll]
        if isinstance(roll, ast.Fight) and roll.assault_table is not None:  # each assault
            table = roll.assault_table
            table = replace(table, branches=table.branches + (row,))
            self.body[self.last_roll] = replace(roll, assault_table=table)
            return
        assert isinstance(roll, ast.RandomRoll)
        self.body[self.last_roll] = replace(roll, branches=roll.branches + (row,))

    def _attach_else(self, part: ElsePart) -> None:
        if self.last_if is None:
            self._missing(
                part.span,
                tr("`otherwise` without an `if` line before it"),
                tr("write `> if ...` first"),
            )
            return
        cond = self.body[self.last_if]
        assert isinstance(cond, ast.If)
        self.body[self.last_if] = replace(cond, otherwise=cond.otherwise + part.body)
        if not part.body:
            self.block = OpenBlock(part.span, self._into_if(self.last_if, "otherwise"))
        self.last_if = None

    # ------------------------------------------------------------------ indented blocks
    def _close_block(self) -> None:
        if self.block is not None:
            self.block.close(self.errors)
            self.block = None

    def _into_if(self, index: int, field: str):
        def put(statement: ast.Statement) -> None:
            cond = self.body[index]
            self.body[index] = replace(cond, **{field: getattr(cond, field) + (statement,)})

        return put

    def _into_branch(self, index: int, branch: ast.Branch):
        def put(statement: ast.Statement) -> None:
            test = self.body[index]
            branches = tuple(
                replace(b, body=b.body + (statement,))
                if (b.outcome, b.margin) == (branch.outcome, branch.margin)
                else b
                for b in test.branches  # type: ignore[union-attr]
            )
            self.body[index] = replace(test, branches=branches)  # type: ignore[type-var]

        return put

    def _into_row(self, index: int):
        def put(statement: ast.Statement) -> None:
            roll = self.body[index]
            table = roll.assault_table if isinstance(roll, ast.Fight) else roll
            rows = table.branches  # type: ignore[union-attr]
            rows = rows[:-1] + (replace(rows[-1], body=rows[-1].body + (statement,)),)
            table = replace(table, branches=rows)  # type: ignore[type-var]
            if isinstance(roll, ast.Fight):
                table = replace(roll, assault_table=table)
            self.body[index] = table  # type: ignore[assignment]

        return put

    def _attach_fight(self, part: FightPart) -> None:
        if self.last_fight is None:
            if part.kind == "enemy":
                # "> enemy ..." without "> fight": the enemy line starts the fight itself.
                self.last_fight = len(self.body)
                self.enemy_started.add(self.last_fight)
                self.body.append(ast.Fight(span=part.span, enemies=_enemies(part.value)))
                return
            hint = tr("put `> fight` / `> combat` and its enemies first")
            if part.kind == "win":
                hint = tr(
                    "put `> fight` / `> combat` and its enemies first; or, to end the book on a "
                    "victory, write `> victory` / `> victoire` alone (with `->` it is where a "
                    "won fight goes)"
                )
            self._missing(
                part.span,
                tr("{line} without a fight before it", line=_FIGHT_WORDS[part.kind]),
                hint,
            )
            return
        fight = self.body[self.last_fight]
        assert isinstance(fight, ast.Fight)
        if part.kind == "enemy":
            fight = replace(fight, enemies=fight.enemies + _enemies(part.value))
        elif part.kind == "ally":
            fight = replace(fight, allies=fight.allies + (part.value,))
        elif part.kind == "rule":  # under the enemy line above it (exits: the whole fight)
            rule = part.value
            rules: tuple = (rule,)
            if rule.kind not in ("exit", "first"):
                rules = tuple(replace(rule, enemy=i) for i in _last_line(fight.enemies))
            fight = replace(fight, rules=fight.rules + rules)
        elif part.kind == "attack":
            bonus, modifiers = part.value
            fight = replace(
                fight, attack_bonus=fight.attack_bonus + bonus,
                modifiers=fight.modifiers + modifiers,
            )  # fmt: skip
        else:
            key = (self.last_fight, part.kind)
            if key in self.fight_lines:
                first = self.fight_lines[key]
                self.errors.append(
                    BookStructureError(
                        tr("this fight already has a {line} line", line=_FIGHT_WORDS[part.kind]),
                        part.span,
                        hint=tr("the first one is at {place}", place=str(first)),
                    )
                )
                return
            self.fight_lines[key] = part.span
            fight = replace(fight, **{_FIGHT_FIELDS[part.kind]: part.value})
            if part.kind == "assault_table":  # its dice rows follow
                self.last_roll = self.last_fight
        self.body[self.last_fight] = fight


def assemble(
    file: str,
    items: list[tuple[int, object]],
    prose: list[tuple[int, str]],
    errors: list[DedaleError],
    indents: dict[int, int] | None = None,
) -> ast.ParagraphFile:
    """Merge line items and prose lines (both sorted by line) into a ParagraphFile;
    ``indents`` gives each rule line's leading whitespace (for indented blocks)."""
    builder = _Builder(file, errors, indents or {})
    i = j = 0
    while i < len(items) or j < len(prose):
        if j >= len(prose) or (i < len(items) and items[i][0] < prose[j][0]):
            builder.add(items[i][1])
            i += 1
        else:
            builder.add_prose(*prose[j])
            j += 1
    builder.close()
    return ast.ParagraphFile(span=Span(file, 1, 1), paragraphs=tuple(builder.paragraphs))


def _enemies(value: ast.Enemy | tuple[ast.Enemy, ...]) -> tuple[ast.Enemy, ...]:
    """The enemies of an enemy line (a group line gives several: dedale.language.groups)."""
    return value if isinstance(value, tuple) else (value,)


def _last_line(enemies: tuple[ast.Enemy, ...]) -> range:
    """The indexes of the enemies of the last enemy line (all of a group's), for the rules
    under it."""
    last = len(enemies) - 1
    if last < 0:
        return range(0, 1)
    group = enemies[last].group
    first = last
    while group is not None and first > 0 and enemies[first - 1].group is group:
        first -= 1
    return range(first, last + 1)
