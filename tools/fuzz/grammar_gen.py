"""Grammar-based books: paragraphs built from the shapes of grammar/book.lark.

Every piece is drawn from a ``random.Random`` (Hypothesis passes one it controls): headers,
choices with options and conditions, directives of every family with random names, numbers
and dice, prose with placeholders, and the hostile extremes (huge numbers, deep nesting,
long conditions, random bytes, odd Unicode, YAML aliases). Sizes stay small unless
``scale`` grows them (the campaign uses a larger scale than the suite).
"""

from __future__ import annotations

import random

from tools.fuzz.inputs import SINGLE_FILE, FuzzInput

RULESETS = ("df-classic", "df24", "df48.5", "reliques", "d20", "unknown-rules")
STATS = (
    "SKILL", "STAMINA", "LUCK", "HABILETÉ", "ENDURANCE", "CHANCE", "gold", "or", "meals",
    "repas", "HP", "AC", "FOR", "AGL", "PER", "CON", "SANTÉ", "MAGIC", "x",
)  # fmt: skip
ITEMS = ("Rope", "Short Sword", "Clé de fer", "Épée", "Lantern", "BFG 9000", "Map", "Œuf", "a")
WORDS = ("EMBERLIGHT", "OWL", "FAILLE", "NOCTIS", "Korr", "Givre", "cave", "cellar", "x")
ENEMIES = ("GOBLIN", "Cave Troll", "IRON WARDEN", "Rat gris", "1st GARGOYLE", "ORC SKILL", "É")
TEXTS = ("Go on", "Open the door", "Entrer", "Continuer", "", "(", "->", "{name}", "§ 3")
UNICODE = "§#>-()[]{},:;/\\\t \u00a0\u202f’'\"0123456789dD+-=<!éÉàœ\u0301\u200b\u2028\ufeff𝔄²"
COMPARISONS = (">=", "<=", "=", "==", "!=", "<", ">")
TITLES = ("Fuzz", "Le Puits", '"quoted"', "[a, b]", "{x: 1}", "")
JUNK_BYTES = (b"\x00", b"\xff", b"\xc3", b"\xe2\x80", b"\r", b"\r\n", b"\x1b[2J", b"\xef\xbb\xbf")


TAME_STATS = ("SKILL", "STAMINA", "LUCK", "HABILETÉ", "ENDURANCE", "CHANCE", "gold", "or")
TAME_ITEMS = ("Rope", "Short Sword", "Clé de fer", "Épée", "Lantern", "Map")
TAME_ENEMIES = ("GOBLIN", "Cave Troll", "Rat gris", "ORC", "Garde")
TAME_TEXTS = ("Go on", "Open the door", "Entrer", "Continuer", "")
TAME_PROSE = ("You walk on.", "Vous avancez, {name}.", "You have {STAMINA} STAMINA.", "Hm.")


class Shapes:
    """Draws book pieces from ``rnd``; ``numbers`` are the paragraphs that exist.

    ``wildness`` is the chance that a draw goes outside what a careful author writes for
    the df-classic rules (unknown names, missing targets, extremes): 1.0 gives books that
    are mostly refused at load, a small value books that load and play."""

    def __init__(
        self, rnd: random.Random, numbers: list[int], scale: int = 1, wildness: float = 1.0
    ) -> None:
        self.rnd = rnd
        self.numbers = numbers
        self.scale = scale
        self.wildness = wildness
        self.labels = ["cave", "cellar", "start", "tour"]

    def wild(self) -> bool:
        return self.rnd.random() < self.wildness

    # ------------------------------------------------------------------ atoms
    def pick(self, seq):  # noqa: ANN001, ANN201 - any sequence
        return seq[self.rnd.randrange(len(seq))]

    def number(self) -> str:
        """Mostly small numbers, sometimes the extremes (issue 11: 4,300-digit limit)."""
        if not self.wild():
            return str(self.rnd.randint(1, 6))
        r = self.rnd.random()
        if r < 0.85:
            return str(self.rnd.randint(0, 20))
        if r < 0.95:
            return str(self.rnd.choice((0, 1, 99, 255, 256, 1000, 65536, 2**31, 2**63)))
        if r < 0.99:
            return str(10 ** self.rnd.choice((8, 12, 19, 30, 100)) + self.rnd.randint(0, 9))
        digits = self.rnd.choice((400, 4300, 4301, 5000 * self.scale))
        return "9" * digits

    def signed(self) -> str:
        return self.pick("+-") + self.number()

    def dice(self) -> str:
        if not self.wild():
            return self.pick(("1d6", "2d6", "1d6+1", "d6"))
        r = self.rnd.random()
        if r < 0.8:
            text = f"{self.pick(('', '1', '2', '3'))}d{self.pick(('6', '6', '4', '10', '20'))}"
        else:
            text = f"{self.number()}d{self.number()}"
        if self.rnd.random() < 0.3:
            text += self.signed()
        return text

    def amount(self) -> str:
        return self.dice() if self.rnd.random() < 0.2 else self.number()

    def target(self) -> str:
        r = self.rnd.random()
        if (r < 0.8 or not self.wild()) and self.numbers:
            return str(self.pick(self.numbers))
        if r < 0.9:
            return self.pick(self.labels)
        return self.number()

    def dest(self) -> str:
        return f"[{self.expr()}]" if self.rnd.random() < 0.05 else self.target()

    def stat(self) -> str:
        return self.pick(STATS if self.wild() else TAME_STATS)

    def item(self) -> str:
        return self.pick(ITEMS if self.wild() else TAME_ITEMS)

    def word(self) -> str:
        return self.pick(WORDS)

    def text(self) -> str:
        if not self.wild():
            return self.pick(TAME_TEXTS)
        if self.rnd.random() < 0.8:
            return self.pick(TEXTS)
        return "".join(self.pick(UNICODE) for _ in range(self.rnd.randint(1, 12)))

    # ------------------------------------------------------------------ expressions
    def expr(self, depth: int = 0) -> str:
        r = self.rnd.random()
        if not self.wild():
            return self.pick(("paragraph + 1", "previous", str(self.target()), "SKILL + 1"))
        if depth > 3 or r < 0.5:
            return self.pick(
                (self.number(), self.dice(), self.stat(), "paragraph", "previous",
                 f"noted {self.word()}", f"number of {self.item()}", f"initial {self.stat()}")
            )  # fmt: skip
        op = self.pick(("+", "-", "*", "×"))
        return f"{self.expr(depth + 1)} {op} {self.expr(depth + 1)}"

    def cond(self, depth: int = 0) -> str:
        r = self.rnd.random()
        if r < 0.02 and depth == 0 and self.wild():
            return self.deep_cond()
        if depth < 2 and not self.wild():
            return self.pick(
                (self.item(), f"codeword {self.word()}", f"visited {self.target()}",
                 f"SKILL >= {self.number()}", f"not {self.item()}",
                 f"{self.item()} and not codeword {self.word()}", f"gold >= {self.number()}")
            )  # fmt: skip
        if depth > 3 or r < 0.55:
            return self.pick(
                (self.item(), f"item {self.item()}", f"codeword {self.word()}",
                 f"visited {self.target()}", f"world {self.word()} visited",
                 f"class {self.word()}", f"status {self.word()}",
                 f"{self.expr()} {self.pick(COMPARISONS)} {self.expr()}",
                 f"mot-code {self.word()}", f"objet {self.item()}")
            )  # fmt: skip
        if r < 0.7:
            return f"not {self.cond(depth + 1)}"
        if r < 0.8:
            return f"({self.cond(depth + 1)})"
        joiner = self.pick((" and ", " or ", " et ", " ou "))
        return joiner.join(self.cond(depth + 1) for _ in range(self.rnd.randint(2, 3)))

    def deep_cond(self) -> str:
        """The hostile extremes of conditions: deep parentheses, long chains."""
        size = self.rnd.choice((50, 500, 3000)) * self.scale
        if self.rnd.random() < 0.5:
            return "(" * size + "Rope" + ")" * size
        return " and ".join(["Rope"] * size)

    # ------------------------------------------------------------------ lines
    def header(self, number: int) -> str:
        mark = self.pick(("§ ", "§", "# ", "#"))
        label = f" {self.pick(self.labels)}" if self.rnd.random() < 0.3 and self.wild() else ""
        return f"{mark}{number}{label}"

    def choice(self) -> str:
        arrow = self.pick(("->", "->", "→"))
        dest = f"[{self.expr()}]" if self.rnd.random() < 0.1 else self.target()
        options = []
        for _ in range(self.rnd.choice((0, 0, 1, 2))):
            options.append(
                self.pick(
                    (
                        f"if {self.cond()}",
                        "disabled",
                        "hidden",
                        f"pay {self.number()} gold",
                        f"give {self.item()}",
                        "revisit",
                        f"si {self.cond()}",
                        "grisé",
                        f"payez {self.number()} or",
                    )
                )  # fmt: skip
            )
        group = f" ({', '.join(options)})" if options else ""
        return f"{arrow} {dest}{group} {self.text()}".rstrip()

    def simple(self) -> str:
        return self.pick(
            (f"go to {self.dest()}", f"lose {self.amount()} {self.stat()}",
             f"gain {self.amount()} {self.stat()}", f"take {self.item()}", f"drop {self.item()}",
             f"set codeword {self.word()}", "death", "victory", "go back",
             f"perdez {self.amount()} {self.stat()}", "mort", "victoire",
             f"note paragraph {self.word()}", f"cure {self.word()}")
        )  # fmt: skip

    def body(self) -> str:
        return f"-> {self.dest()}" if self.rnd.random() < 0.6 else f": {self.simple()}"

    def directive(self) -> list[str]:
        """One directive, or a small group (a test and its branches, a fight...)."""
        family = self.rnd.randrange(12)
        s = self
        if family == 10 and not self.wild():
            family = 9
        if family == 0:
            return [f"> {s.simple()}"]
        if family == 1:
            return [
                s.pick(
                    (
                        f"> gain {s.amount()} {s.stat()}",
                        f"> set {s.stat()} to {s.amount()}",
                        f"> restore {s.stat()}",
                        f"> raise initial {s.stat()} by {s.amount()}",
                        f"> lower initial {s.stat()} by {s.amount()}",
                        f"> diminuez {s.stat()} initiale de {s.amount()}",
                        f"> lose {s.number()} {s.stat()} until you find {s.item()}",
                        f"> perdez {s.number()} {s.stat()} jusqu'à trouver une arme",
                        f"> gagnez {s.amount()} {s.stat()} (exceptionnel)",
                        f"> fixez votre {s.stat()} à {s.amount()}",
                    )
                )  # fmt: skip
            ]
        if family == 2:
            effects = s.pick(
                ("", " (weapon)", f" (weapon, {s.stat()} {s.signed()})",
                 f" (number {s.number()})", f" ({s.stat()} {s.signed()}, cursed)",
                 f" (when {s.stat()} falls to {s.number()}: restore {s.stat()})")
            )  # fmt: skip
            count = f"{s.number()} " if s.rnd.random() < 0.2 else ""
            verb = s.pick(("take", "prenez", "you may take", "vous pouvez prendre"))
            return [f"> {verb} {count}{s.item()}{effects}"]
        if family == 3:
            return [
                s.pick(
                    (
                        f"> set codeword {s.word()}",
                        f"> clear codeword {s.word()}",
                        f"> notez mot-code {s.word()}",
                        f"> world {s.word()}",
                        "> allow revisit",
                        "> meals allowed",
                        "> repas interdit",
                        "> hidden paragraph",
                        f"> hidden number otherwise -> {s.dest()}",
                        f"> status {s.word()}: lose {s.amount()} {s.stat()} each paragraph",
                        "> eat a meal or lose 3 STAMINA",
                        f"> buy {s.item()} for {s.number()} gold",
                        f"> sell {s.item()} for {s.number()} gold",
                        f"> wager up to {s.number()} gold, "
                        f"win on {s.dice()} {s.number()}-{s.number()}",
                    )
                )  # fmt: skip
            ]
        if family == 4:
            return [f"> if {s.cond()} {s.body()}"] + (
                [f"> otherwise {s.body()}"] if s.rnd.random() < 0.5 else []
            )
        if family == 5 and not s.wild():
            head = s.pick(("> test your luck", "> test your skill", "> tentez votre chance"))
            branches = (("lucky", "unlucky"), ("success", "failure"), ("chanceux", "échec"))
            lines = [head]
            for outcome in s.pick(branches):
                lines.append(f"> {outcome} {s.body()}")
            return lines
        if family == 5:
            head = s.pick(
                ("> test your luck", "> test your skill", "> tentez votre chance",
                 f"> tentez votre habileté {s.signed()} (risque)", f"> test {s.stat()}+{s.stat()}",
                 f"> check {s.stat()} {s.pick(('hard', 'easy', s.number()))} (advantage)",
                 f"> roll {s.dice()} against {s.stat()} {s.signed()}")
            )  # fmt: skip
            outcomes = ("lucky", "unlucky", "success", "failure", "réussite", "échec",
                        "critical success", "échec critique")  # fmt: skip
            lines = [head]
            for _ in range(s.rnd.randint(0, 3)):
                margin = f" margin >= {s.number()}" if s.rnd.random() < 0.1 else ""
                lines.append(f"> {s.pick(outcomes)}{margin} {s.body()}")
            return lines
        if family == 6:
            lines = [f"> roll {s.dice()}"]
            for _ in range(s.rnd.randint(0, 4)):
                low = s.number()
                span = f"{low}-{s.number()}" if s.rnd.random() < 0.7 else low
                lines.append(f"> {span} {s.body()}")
            if s.rnd.random() < 0.2:
                lines = [f"> roll {s.dice()}: 1-2 -> {s.dest()}, {s.number()}-6 -> {s.dest()}"]
            return lines
        if family in (7, 8):
            return self.fight()
        if family == 9:
            return [f"> go to {s.dest()}"]
        if family == 10:
            return [f"> {s.text()}", f"> {s.pick(('win', 'lose', 'fight'))} -> {s.dest()}"]
        return [f"> {s.pick(('victory', 'death', 'victoire', 'mort'))}"]

    def enemy_body(self) -> str:
        if not self.wild():
            skill, stamina = self.pick((("SKILL", "STAMINA"), ("HABILETÉ", "ENDURANCE")))
            name = self.pick(TAME_ENEMIES)
            return f"{name} {skill} {self.rnd.randint(1, 12)} {stamina} {self.rnd.randint(1, 12)}"
        pairs = " ".join(
            f"{self.stat()} {self.amount() if self.rnd.random() < 0.9 else self.signed()}"
            for _ in range(self.rnd.randint(1, 3))
        )
        immune = " (immune)" if self.rnd.random() < 0.1 else ""
        return f"{self.pick(ENEMIES)} {pairs}{immune}"

    def fight(self) -> list[str]:
        s = self
        lines = []
        if s.rnd.random() < 0.5:
            lines.append(f"> fight {s.enemy_body()}")
        else:
            mode = s.pick(("", " one after another", " all at once", " ensemble", " as one"))
            lines.append(f"> {s.pick(('fight', 'combat'))}{mode}")
            for _ in range(s.rnd.randint(0, 3)):
                lines.append(f"> {s.pick(('enemy', 'ennemi', 'ally'))} {s.enemy_body()}")
        extras = (
            f"> attack {s.signed()}", f"> attack with {s.stat()}", f"> enemy damage {s.number()}",
            f"> escape after {s.number()} assaults -> {s.dest()}", "> the enemy strikes at random",
            f"> not won after {s.number()} assaults -> {s.dest()}",
            f"> when your STAMINA falls to {s.number()} or less -> {s.dest()}",
            f"> after {s.number()} assaults won -> {s.dest()}", f"> each assault roll {s.dice()}",
            f"> 1-2: lose {s.amount()} {s.stat()}",
        )  # fmt: skip
        tame = (extras[0], extras[3], extras[5], extras[6])
        for _ in range(s.rnd.randint(0, 2)):
            lines.append(s.pick(extras if s.wild() else tame))
        if s.rnd.random() < 0.8:
            lines.append(f"> {s.pick(('win', 'victoire'))} -> {s.dest()}")
        if s.rnd.random() < 0.3:
            lines.append(f"> {s.pick(('lose', 'défaite'))} -> {s.dest()}")
        return lines

    def prose(self) -> str:
        if not self.wild():
            return self.pick(TAME_PROSE)
        r = self.rnd.random()
        if r < 0.7:
            return self.pick(
                ("You walk on.", "Vous avancez, {name}.", "You have {STAMINA} STAMINA.",
                 "Rendez-vous au 9.", "{", "}", "{unknown}", "{{name}}", "// a comment",
                 "tentez votre habileté", "- > 3", "§ not a header", "#hashtag")
            )  # fmt: skip
        if r < 0.9:
            return "".join(self.pick(UNICODE) for _ in range(self.rnd.randint(1, 40)))
        return "x" * self.rnd.choice((200, 5000, 100_000 * self.scale))

    def paragraph(self, number: int) -> list[str]:
        lines = [self.header(number)]
        for _ in range(self.rnd.randint(0, 2)):
            lines.append(self.prose())
        for _ in range(self.rnd.randint(0, 4)):
            lines.extend(self.directive())
        for _ in range(self.rnd.randint(0, 3)):
            lines.append(self.choice())
        if self.rnd.random() < 0.2:
            lines.append(self.pick(("> victory", "> death", "> victoire", "> mort")))
        return lines


def front_matter(rnd: random.Random, shapes: Shapes, start: int) -> list[str]:
    """book.yaml's keys, valid or not, with the YAML extremes now and then."""
    if not shapes.wild():
        return [
            "title: Fuzz",
            f"language: {shapes.pick(('en', 'fr'))}",
            "ruleset: df-classic",
            f"start: {start}",
        ]
    lines = [
        f"title: {shapes.pick(TITLES)}",
        f"language: {shapes.pick(('en', 'fr', 'de', '1', '[]'))}",
        f"ruleset: {shapes.pick(RULESETS)}",
        f"start: {start if rnd.random() < 0.9 else shapes.number()}",
    ]
    rnd.shuffle(lines)
    extra = rnd.random()
    if extra < 0.1:
        lines.append(f"creation: {{reroll: once, default_name: {shapes.text() or 'Ash'}}}")
    elif extra < 0.2:
        lines += ["rules:", f"  stats: {{SKILL: {{roll: {shapes.dice()}}}}}"]
    elif extra < 0.25:
        lines.append(f"items: [{shapes.item()}, {shapes.item()} (weapon, SKILL +1)]")
    elif extra < 0.28:
        depth = rnd.choice((10, 200, 2000))
        lines.append("rules: " + "[" * depth + "]" * depth)
    elif extra < 0.31:
        # an alias bomb (issue 11.3), small enough to finish once aliases are bounded
        width = rnd.choice((3, 6, 9))
        lines.append("a0: &a0 [x, x, x]")
        for level in range(1, width):
            refs = ", ".join([f"*a{level - 1}"] * width)
            lines.append(f"a{level}: &a{level} [{refs}]")
        lines.append(f"rules: {{stats: *a{width - 1}}}")
    elif extra < 0.33:
        lines.append("rules: &s {stats: *s}")
    elif extra < 0.36:
        lines.append(f"validate: {{runs: {shapes.number()}, max_steps: {shapes.number()}}}")
    elif extra < 0.38:
        lines.append("ruleset: !!python/object/apply:os.system ['true']")
    return lines


def grammar_book(rnd: random.Random, scale: int = 1) -> FuzzInput:
    """A random book made of the grammar's shapes: single-file (front matter) or a folder.

    One book in three is wild (every draw may go hostile: mostly refused at load, which is
    what the loader's error paths need); the others are careful with a few wild draws, so
    that they load and the validator and the player run."""
    wildness = 1.0 if rnd.random() < 1 / 3 else rnd.choice((0.0, 0.01, 0.03, 0.1))
    count = rnd.randint(1, 12 * scale)
    numbers = sorted(rnd.sample(range(1, 40 * scale), count))
    if rnd.random() < 0.1 * wildness:
        numbers.append(numbers[0])  # a duplicate paragraph
    shapes = Shapes(rnd, numbers, scale, wildness)
    body: list[str] = []
    for number in numbers:
        body += shapes.paragraph(number)
        if rnd.random() < 0.5:
            body.append("")
    # the hostile extremes of the text itself
    for _ in range(rnd.choice((0, 0, 0, 1, 2)) if shapes.wild() else 0):
        at = rnd.randrange(len(body) + 1)
        body.insert(at, _junk_line(rnd, shapes))
    meta = front_matter(rnd, shapes, numbers[0])
    newline = "\r\n" if rnd.random() < 0.1 * wildness else "\n"
    text_body = newline.join(body) + (newline if rnd.random() < 0.8 else "")
    if rnd.random() < 0.6:
        data = ("---\n" + "\n".join(meta) + "\n---\n" + text_body).encode("utf-8", "replace")
        files = {SINGLE_FILE: _with_junk_bytes(rnd, data) if shapes.wild() else data}
        origin = f"grammar:single:wild={wildness:g}"
    else:
        files = {"book.yaml": ("\n".join(meta) + "\n").encode("utf-8", "replace")}
        half = len(body) // 2
        parts = [body[:half], body[half:]] if rnd.random() < 0.5 else [body]
        names = []
        for index, part in enumerate(parts):
            name = f"{index + 1:02d}-part.dd"
            names.append(name)
            data = newline.join(part).encode("utf-8", "replace")
            files[name] = _with_junk_bytes(rnd, data) if shapes.wild() else data
        if rnd.random() < 0.2 and shapes.wild():
            listed = names + [shapes.pick(("../outside.dd", "/etc/passwd", "missing.dd", "."))]
            files["book.yaml"] += ("files: [" + ", ".join(listed) + "]\n").encode()
        origin = f"grammar:folder:wild={wildness:g}"
    return FuzzInput(files, origin, seed=rnd.randrange(1000))


def _junk_line(rnd: random.Random, shapes: Shapes) -> str:
    kind = rnd.randrange(4)
    if kind == 0:
        return "> " + shapes.deep_cond()
    if kind == 1:
        return f"> go to {shapes.number()}"
    if kind == 2:
        return "§ " + shapes.number()
    return "".join(chr(rnd.randrange(1, 0x3000)) for _ in range(rnd.randint(1, 30)))


def _with_junk_bytes(rnd: random.Random, data: bytes) -> bytes:
    """Now and then a few raw bytes (invalid UTF-8, NUL, BOM, CR) somewhere in the file."""
    if rnd.random() >= 0.1 or not data:
        return data
    at = rnd.randrange(len(data) + 1)
    return data[:at] + rnd.choice(JUNK_BYTES) + data[at:]
