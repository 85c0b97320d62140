"""The path of fights (issue 14.4): the chance of surviving every fight on the main path
to victory, the wounds of each fight carried to the next.

For each hero profile (weakest, median, strongest; each class) a best-first search over
the paragraph graph looks for the path from the start to a ``> victory`` that keeps the
most chance alive (:mod:`dedale.validator.fight_path_chain`: exact chained fights, changes
of STAMINA and LUCK, meals; :mod:`dedale.validator.fight_path_steps`: what each move
does). The chance alive never grows along a path, so the first victory taken off the heap
is the best one the search kept. The search is bounded: a label is a paragraph, the items
held and the distribution of (STAMINA, LUCK, meals); at most ``PER_PARAGRAPH`` labels are
expanded per paragraph (fewer when an expanded label surely beats the others: see
:func:`dominates`), ``MAX_LABELS`` (plus 4 a paragraph) in all, paths of at most
``MAX_LENGTH`` moves (plus 2 a paragraph), and ``PATH_SECONDS``. The path found is then
computed exactly with the best meal policy (backward induction). W120 when the median
hero's cumulative chance falls below the fight threshold of book.yaml, at the fight where
it does.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

from dedale import ast
from dedale.i18n import Message, tr
from dedale.i18n import number as localised
from dedale.rules.ruleset import fold
from dedale.validator.budget import CpuDeadline, budget_finding
from dedale.validator.class_reach import ClassReach
from dedale.validator.death_ways import deadly
from dedale.validator.fight_path_chain import FightStep, HeroChain
from dedale.validator.fight_path_counters import LocalCounters
from dedale.validator.fight_path_later import LATER, Later, Unsound
from dedale.validator.fight_path_reasons import first_reasons
from dedale.validator.fight_path_steps import Dose, Segments, trigger_reason
from dedale.validator.fights import LEVELS, FightReport
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph

PATH_SECONDS = 10.0  # the search's time budget when book.yaml sets none
PER_PARAGRAPH = 4
MAX_LABELS = 4000  # plus PER_PARAGRAPH a paragraph
MAX_LENGTH = 400  # plus 2 a paragraph
GOAL = -1


@dataclass(frozen=True, slots=True)
class HeroPath:
    """The main path to victory of one hero profile, and its chained chance."""

    level: str
    class_name: str | None
    win: float
    target: int
    paragraphs: tuple[int, ...]
    fights: tuple[FightStep, ...]
    reasons: tuple[tuple[int, Message], ...] = ()  # why the figure is ``≈``

    @property
    def exact(self) -> bool:
        return not self.reasons

    def lowest(self) -> FightStep | None:
        """The fight the hero is least likely to win (given he gets there)."""
        return min(self.fights, key=lambda step: step.chance, default=None)


@dataclass(frozen=True, slots=True)
class FightPath:
    """The path of fights of a book: one HeroPath per level (weakest, median, strongest;
    with classes, the class whose path is worst, median or best)."""

    heroes: tuple[HeroPath, ...]
    bounded: bool = False  # a bound of the search cut some paths: the best path found
    cut: bool = False  # the time budget ran out
    labels: int = 0
    potion: str = ""  # the potion counted on a reported path (its items), if any
    missing: Message | None = None  # no heroes: why the ruleset has no path (fight_path_d20)

    def of(self, level: str) -> HeroPath | None:
        return next((hero for hero in self.heroes if hero.level == level), None)


def fight_path(
    graph: Graph,
    book: object,
    reports: list[FightReport],
    seconds: float | None = None,
    reach: ClassReach | None = None,
) -> FightPath | None:
    """The path of fights (None: no fight or no path; d20 and reliques books, and the
    rulesets with no path (a FightPath without heroes saying why):
    :mod:`dedale.validator.fight_path_d20`, :mod:`dedale.validator.fight_path_reliques`).
    ``reach``: where each class can go (validator.class_reach): a class's hero takes only
    the moves its states can make (the item conditions its kit meets)."""
    if not reports or graph.start not in graph.nodes:
        return None
    ruleset = getattr(book, "ruleset", None)
    try:
        from dedale.validator.fights import OddsCalculator, Unsupported

        calculator = OddsCalculator(ruleset)
    except (ImportError, Unsupported):  # d20 (else why not): dedale.validator.fight_path_d20
        from dedale.validator.fight_path_d20 import other_path

        return other_path(graph, book, reports, seconds, reach)
    shifts, start_items = _items(graph, book, ruleset)
    policy = "best" if "best" in calculator.policies else "none"
    by_span = {report.fight.span: report for report in reports}
    segments = Segments(ruleset, book)
    potion = segments.potions.potion
    doses = segments.potions.start_doses(book)
    deadline = CpuDeadline(seconds)  # CPU time: the load cuts nothing
    ranked: list[tuple[float, object, list]] = []
    bounded = cut = False
    labels = 0
    is_deadly = deadly(graph, book)  # a way out to a death ending: a defeat in the fights
    for hero in calculator.heroes:
        ranking = HeroChain(ruleset, hero, "none", by_span, shifts, start_items, potion, doses,
                            deadly=is_deadly)  # fmt: skip
        search = _Search(graph, ranking, segments, deadline)
        search.names = reach.of(hero.class_name) if reach is not None else None
        search.reach = reach
        path = search.run()
        labels += search.labels
        bounded = bounded or search.bounded
        cut = cut or search.cut
        if path is not None:
            ranked.append((search.found, hero, path))
    found = []
    dosed = bool(doses)
    local = LocalCounters(book)
    for _, hero, path in _per_level(ranked):  # the exact figure of each level's path
        steps = tuple(s for number, edge in path for s in segments.of(graph.nodes[number], edge))
        kinds, start, why = segments.potions.for_path(book, steps)  # the potions' order
        chain = HeroChain(ruleset, hero, policy, by_span, shifts, start_items, kinds, start,
                          local, is_deadly)  # fmt: skip
        result = chain.best(steps)
        dosed = dosed or any(isinstance(step, Dose) and step.count > 0 for step in steps)
        result.reasons[:0] = _start_reasons(graph, book, segments)
        if why is not None:
            result.reasons.insert(0, (graph.start, why))
        found.append(
            HeroPath(
                hero.level,
                hero.class_name,
                result.win,
                path[-1][0],
                tuple(number for number, _ in path),
                tuple(result.fights),
                first_reasons(result.reasons),  # one a paragraph: the first
            )  # fmt: skip
        )
    if not found:
        return None
    shown = segments.potions.shown() if potion is not None and dosed else ""
    return FightPath(tuple(found), bounded, cut, labels, shown)


def _per_level(ranked: list[tuple[float, object, list]]) -> list[tuple[float, object, list]]:
    """One hero per level: with classes, the class whose path the search ranks worst
    (weakest), median (median) or best (strongest), as the fight table's overall rows."""
    rows = []
    for level in LEVELS:
        same = sorted((row for row in ranked if row[1].level == level), key=lambda row: row[0])
        if not same:
            continue
        middle = same[(len(same) - 1) // 2]
        rows.append({"weakest": same[0], "strongest": same[-1]}.get(level, middle))
    return rows


def _start_reasons(graph: Graph, book: object, segments: Segments) -> list:
    """Why the figure is ``≈`` from the start: a starting item of book.yaml that acts
    when the health or Luck falls and is not the potion the chain follows, or more doses
    of it than the chain follows."""
    from dedale.validator.fight_path_potion import MAX_DOSES

    meta = getattr(book, "meta", None)
    items = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
    reasons = []
    potions = segments.potions
    for item in items or ():
        if isinstance(item, ast.GainItem):
            name = fold(item.item)
            if name in potions.items:
                continue
            why = potions.reasons.get(name) or trigger_reason(item, segments.tracked)
            if why is not None:
                reasons.append((graph.start, why))
    if potions.start_over(book, MAX_DOSES):
        why = tr("more than {most} doses of {item}: counted as {most}",
                 most=MAX_DOSES, item=", ".join(sorted(potions.items)))  # fmt: skip
        reasons.append((graph.start, why))
    return reasons


def _items(graph: Graph, book: object, ruleset: object):
    """What the items do to the attack (None: nothing), and the items held at the start."""
    from dedale.validator.carried import AttackShifts, ItemBook
    from dedale.validator.loadout import _sure_start

    shifts = AttackShifts(ruleset, ItemBook(graph, book))
    return shifts, frozenset(_sure_start(book))


class _Search:
    """Best-first search of the main path to victory for one hero (see the module)."""

    def __init__(self, graph: Graph, chain: HeroChain, segments: Segments, deadline) -> None:
        self.graph, self.chain, self.segments, self.deadline = graph, chain, segments, deadline
        self.labels = 0
        self.most_labels = MAX_LABELS + PER_PARAGRAPH * len(graph.nodes)
        self.most_moves = MAX_LENGTH + 2 * len(graph.nodes)
        self.found = 0.0  # the chance alive at the victory, as the search ranks it
        self.bounded = self.cut = False
        self.reach: ClassReach | None = None  # with ``names``: only the class's moves
        self.names: frozenset[str] | None = None

    def run(self) -> list[tuple[int, object]] | None:
        later = Later(self.chain)  # moves whose costly fights wait (fight_path_later)
        try:
            return self._run(later)
        except Unsound:  # a bound below a move's chance: again, every move computed at once
            self.labels, self.bounded, self.cut = 0, False, False
            return self._run(Later(None))

    def _run(self, later: Later) -> list[tuple[int, object]] | None:
        graph, chain = self.graph, self.chain
        order = itertools.count()
        start = graph.start
        heap = [(-1.0, 0, next(order), start, chain.start(), chain.start_items, None, 0)]
        expanded: dict[int, list] = {}
        reach, names = self.reach, self.names
        if reach is not None and names is not None and start not in reach.reached[names]:
            return None
        while heap:
            mass, _, counter, number, dist, held, trail, length = heapq.heappop(heap)
            if number == LATER:  # its fights now: pushed as it would have been at once
                (number, edge, trail), steps = trail
                after, kept, _ = chain.forward(dist, held, steps)
                left = later.computed(after, -mass)
                if left > 0 and later.claim((edge.target, kept, frozenset(after.items())),
                                            counter):  # fmt: skip
                    heapq.heappush(heap, (-left, 0, counter, edge.target, after, kept,
                                          ((number, edge), trail), length))  # fmt: skip
                continue
            if counter in later.dropped:
                continue  # a move to the same label pushed before it was computed later
            if number == GOAL:
                self.found = -mass
                return _unwind(trail)
            if self.deadline.passed():
                self.cut = True
                return None
            if self.labels >= self.most_labels:
                self.bounded = True
                return None
            kept = expanded.setdefault(number, [])
            if any(h == held and dominates(d, dist) for d, h in kept):
                continue  # an expanded label is surely at least as good (a loop that wounds)
            if len(kept) >= PER_PARAGRAPH:
                self.bounded = True  # a label no expanded one is sure to beat
                continue
            kept.append((dist, held))
            self.labels += 1
            here = frozen = None  # the mass and key of ``dist``, for moves that keep it
            node = graph.nodes[number]
            if "victory" in node.endings and _victory_at_top(node.paragraph.body):
                steps = self.segments.of(node, None)
                final, _, _ = chain.forward(dist, held, steps)
                left = sum(final.values())
                if left > 0:
                    heapq.heappush(heap, (-left, 0, next(order), GOAL, {}, held,
                                          ((number, None), trail), length))  # fmt: skip
            if length >= self.most_moves:
                self.bounded = True
                continue
            for edge in node.edges:
                if edge.kind == "fight-lose" or edge.target not in graph.nodes:
                    continue
                if names is not None and not reach.allows(names, number, edge.target):
                    continue  # a way this hero's class cannot take (validator.class_reach)
                steps = self.segments.of(node, edge)
                bound = later.wait(dist, held, steps) if steps else None
                if bound is not None:  # a costly fight that surely takes some chance: later
                    heapq.heappush(heap, (-bound, 1, next(order), LATER, dist, held,
                                          ((number, edge, trail), steps), length + 1))  # fmt: skip
                    continue
                if steps:
                    after, kept, _ = chain.forward(dist, held, steps)
                else:  # no step on the way (most moves): what chain.forward would return
                    after, kept = dist, held
                if after is dist:  # nothing on the way changed it (most moves)
                    if here is None:
                        here, frozen = sum(dist.values()), chain.frozen(dist)
                    left, items = here, frozen
                else:
                    left, items = sum(after.values()), None
                if left <= 0:
                    continue
                key = (edge.target, kept, items or frozenset(after.items()))
                counter = next(order)
                if not later.claim(key, counter):
                    continue
                heapq.heappush(heap, (-left, 0, counter, edge.target, after, kept,
                                      ((number, edge), trail), length + 1))  # fmt: skip
        return None


def dominates(better: dict, worse: dict) -> bool:
    """Whether every path on from ``worse`` is surely no better than from ``better``: in
    each slice of equal LUCK, meals and doses, ``better`` has at least the mass of ``worse`` at
    every STAMINA or above (the chance to survive never falls as STAMINA, LUCK or meals
    rise, so this is enough)."""
    slices: dict[tuple[int, int, int], list[tuple[int, float]]] = {}
    for (stamina, *rest), p in worse.items():
        slices.setdefault(tuple(rest), []).append((stamina, -p))
    for (stamina, *rest), p in better.items():
        if tuple(rest) in slices:
            slices[tuple(rest)].append((stamina, p))
    slack = 1e-12 * sum(worse.values())  # rounding of the sums, relative to the mass
    for points in slices.values():
        total = 0.0
        for _, p in sorted(points, key=lambda point: (-point[0], -point[1])):
            total += p
            if total < -slack:
                return False
    return True


def _unwind(trail) -> list[tuple[int, object]]:
    moves = []
    while trail is not None:
        move, trail = trail
        moves.append(move)
    return moves[::-1]


def _victory_at_top(body) -> bool:
    """Whether the paragraph's own lines (not a branch) end the book in victory."""
    for statement in body:
        if isinstance(statement, ast.Goto):
            return False
        if isinstance(statement, ast.Ending):
            return statement.kind == "victory"
    return False


def fight_path_findings(
    path: FightPath | None, threshold: float, seconds: float | None = None
) -> list[Finding]:
    """W120 at the fight where the median hero's cumulative chance on the main path to
    victory falls below ``threshold`` (not when that fight alone is: W030); I051 when the
    search ran out of time."""
    found: list[Finding] = []
    if path is not None and path.cut:
        found.append(budget_finding(tr("the path of fights"), path.labels, None, seconds,
                                    unit=tr("labels")))  # fmt: skip
    median = path.of("median") if path is not None else None
    if median is None:
        return found
    for step in median.fights:
        if step.cumulative < threshold:
            if step.chance < threshold:
                break  # that fight alone is below the threshold: W030 says so
            found.append(
                finding(
                    "W120",
                    tr(
                        "the median hero survives the fights on the main path to § {target} "
                        "only {approx}{chance} of the time: below {threshold} from the fight "
                        "against {enemies} on (path: {path})",
                        target=median.target,
                        approx="" if median.exact else "≈ ",
                        chance=localised(median.win, ".1%"),
                        threshold=localised(threshold, ".0%"),
                        enemies=step.enemies,
                        path=shown_path(median),
                    ),
                    step.span,
                    paragraph=step.paragraph,
                    hint=tr(
                        "make a fight on this path easier, or let the hero eat or heal "
                        "between the fights"
                    ),
                    cumulative=round(step.cumulative, 6),
                    win=round(median.win, 6),
                )
            )
            break
    return found


def shown_path(hero: HeroPath, most: int = 12) -> str:
    """``§ 1 → § 4 → § 9`` (long paths shortened in the middle)."""
    numbers = [f"§ {number}" for number in hero.paragraphs]
    if len(numbers) > most:
        numbers = [*numbers[: most // 2], "…", *numbers[-most // 2 :]]
    return " → ".join(numbers)
