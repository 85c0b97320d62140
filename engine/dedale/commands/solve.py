"""``dedale solve BOOK``: the best-play chance to win a whole book (see docs/solver.md).

    dedale solve books/first-steps
    dedale solve mybook --hero 10 20 9 --walkthrough
    dedale solve mybook --class Mercenaire --luck none --json --budget 30

Without ``--hero``: the weakest, median and strongest hero creation can roll (per class),
and the average over the creation dice. Exit codes: 0 solved, 1 a book error or a book
the solver cannot model, 2 usage error, 3 the budget ran out (the part solved is shown).
"""

from __future__ import annotations

import argparse
import json
import sys

from dedale.errors import BookError, GameError, UsageError
from dedale.i18n import message, number, tr, translate
from dedale.solve import clock
from dedale.solve.graph import DEFAULT_STATES

EXIT_PARTIAL = 3
"""The budget or the state cap stopped a solve."""

POLICY_NAMES = {"best": "book-optimal", "fight": "fight-optimal", "none": "none"}
"""The Luck policy as the output names it: ``best`` tests Luck in a plain fight when that
raises the chance to win the book (dedale.solve.duel); ``fight`` is the exact DP's policy
that maximises the chance to win each fight."""
FIGHT_LUCK_KEPT = ["acting_without_win"]
"""With --luck best, the fights whose Luck keeps the fight's own policy (docs/solver.md)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("book", help="the book folder (or its book.yaml)")
    parser.add_argument(
        "--hero", nargs="+", type=int, metavar="VALUE",
        help="the hero's stats in the ruleset's order (SKILL STAMINA LUCK)",
    )  # fmt: skip
    parser.add_argument("--class", dest="class_name", help="the hero's class")
    parser.add_argument(
        "--luck", choices=("best", "fight", "none"), default="best",
        help="Luck in fights: tested when it raises the chance to win the book, or the fight, "
        "or never",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--exact", action="store_true",
        help="the answer as a fraction too (dice, tests and plain fights carried in fractions)",
    )  # fmt: skip
    parser.add_argument(
        "--walkthrough", action="store_true",
        help="the best decisions on the most likely winning line",
    )  # fmt: skip
    parser.add_argument(
        "--plan", metavar="FILE",
        help="write the best walkthrough (given or median hero) as a test plan to FILE",
    )  # fmt: skip
    parser.add_argument(
        "--budget", type=float, default=60.0, metavar="SECONDS",
        help="CPU seconds for the whole solve (default 60); past them the part solved is reported",
    )  # fmt: skip
    parser.add_argument(
        "--max-states", type=int, default=DEFAULT_STATES, metavar="N",
        help=f"states at most per hero (default {DEFAULT_STATES:,})",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Solve and print; see the module docstring for the exit codes."""
    from dedale.language import load_book
    from dedale.solve.heroes import Hero
    from dedale.solve.report import average, creation_heroes, solve_heroes

    if args.budget <= 0:
        raise UsageError(tr("--budget must be more than 0 seconds"))
    if args.max_states < 1:
        raise UsageError(tr("--max-states must be 1 or more"))
    book = load_book(args.book)
    lang = _lang(book)
    ruleset = book.ruleset
    started = clock.now()
    if args.class_name is not None and args.class_name not in ruleset.classes:
        raise UsageError(
            tr("unknown class {name}", name=args.class_name),
            hint=tr("classes: {names}", names=", ".join(ruleset.classes) or "-"),
        )
    try:
        if args.hero is not None:
            if len(args.hero) != len(ruleset.stats):
                raise UsageError(
                    tr(
                        "--hero gives {count} values; this ruleset has: {stats}",
                        count=len(args.hero),
                        stats=", ".join(stat.id for stat in ruleset.stats),
                    )
                )
            if ruleset.classes and args.class_name is None:
                raise UsageError(
                    tr("this ruleset has classes: give --class with --hero"),
                    hint=tr("classes: {names}", names=", ".join(ruleset.classes)),
                )
            heroes = [Hero("given", tuple(args.hero), args.class_name)]
            distributions = []
        else:
            classes = [args.class_name] if args.class_name else list(ruleset.classes) or [None]
            heroes, distributions = [], []
            for class_name in classes:
                found, distribution = creation_heroes(book, class_name)
                heroes += found
                distributions.append((class_name, distribution))
        answers = solve_heroes(
            book, heroes, luck_policy=args.luck, budget=args.budget,
            max_states=args.max_states, steps=args.walkthrough or bool(args.plan),
            exact=args.exact,
        )  # fmt: skip
        deadline = started + args.budget
        averages = [
            average(
                book,
                distribution,
                class_name,
                luck_policy=args.luck,
                deadline=deadline,
                max_states=args.max_states,
            )  # fmt: skip
            for class_name, distribution in distributions
        ]
    except (BookError, UsageError):
        raise
    except GameError as error:
        error.lang = lang
        raise
    partial = any(not a.result.complete for a in answers) or any(not a.complete for a in averages)
    if args.plan:
        from dedale.solve.plan_file import write_plan_file

        until = clock.now() + args.budget
        note = write_plan_file(book, answers, args.plan, lang, deadline=until)
        if not args.walkthrough:
            for answer in answers:
                answer.steps = []
    if args.json:
        print(json.dumps(_json(book, args, answers, averages), ensure_ascii=False))
    else:
        for line in _text(book, args, answers, averages):
            print(translate(line, lang))
    if args.plan:
        print(translate(note, lang), file=sys.stderr if args.json else sys.stdout)
    return EXIT_PARTIAL if partial else 0


def _lang(book) -> str:
    language = getattr(book.meta, "language", None)
    return language if language in ("fr", "en") else "en"


def _hero_json(ruleset, answer) -> dict:
    result = answer.result
    data = {
        "hero": dict(zip((s.id for s in ruleset.stats), answer.hero.values, strict=True)),
        "class": answer.hero.class_name,
        "label": answer.hero.label,
        "win_probability": result.win_probability,
        "luck_policy": None,  # set by _json
        "states": result.states,
        "seconds": round(result.seconds, 3),
        "complete": result.complete,
    }
    if not result.complete:
        data["limit"] = result.limit
        data["expanded"] = result.expanded
        # the states not explored counted as lost / as won (dedale.solve.graph.upper_bound)
        data["lower_bound"] = result.win_probability
        data["upper_bound"] = result.upper_bound
    if result.loops:
        data["loops"] = result.loops
        data["tolerance"] = 1e-12
    if answer.exact is not None:  # --exact
        data["win_probability_exact"] = _fraction(answer.exact)
    elif answer.exact_note:
        data["exact_note"] = answer.exact_note
    data["walkthrough"] = [step.to_json() for step in answer.steps]
    return data


def _json(book, args, answers, averages) -> dict:
    policy = POLICY_NAMES[args.luck]
    heroes = []
    for answer in answers:
        data = _hero_json(book.ruleset, answer)
        data["luck_policy"] = policy
        if args.luck == "best":
            data["luck_fight_policy_in"] = FIGHT_LUCK_KEPT
        heroes.append(data)
    if args.hero is not None:
        return heroes[0]
    return {
        "book": book.meta.title,
        "luck_policy": policy,
        **({"luck_fight_policy_in": FIGHT_LUCK_KEPT} if args.luck == "best" else {}),
        "heroes": heroes,
        "averages": [
            {
                "class": a.class_name,
                "win_probability": a.win_probability,
                "heroes": a.heroes,
                "solved": a.solved,
                "covered": a.covered,
                "complete": a.complete,
                # the rest of the creation counted as lost / as won: the average's bounds
                "lower_bound": a.win_probability,
                "upper_bound": min(1.0, a.win_probability + (1.0 - a.covered)),
                "solved_mean": a.win_probability / a.covered if a.covered > 0 else None,
            }
            for a in averages
        ],
    }


def _percent(value: float):
    return number(value, ".4%")


def _text(book, args, answers, averages):
    ruleset = book.ruleset
    lang = _lang(book)
    yield tr("{title}: best-play chance to win", title=book.meta.title)
    if not getattr(ruleset.fight, "luck_test", None):
        pass  # no Luck in this ruleset's fights (d20, reliques): no policy to state
    elif args.luck == "best":
        yield tr(
            "Luck in fights: tested after a wound when it raises the chance to win the book "
            "(in fights in which the book acts that name no paragraph to turn to when won: "
            "the chance to win or leave that fight alive)"
        )
    elif args.luck == "fight":
        yield tr(
            "Luck in fights: tested when it raises the chance to win that fight "
            "(the exact fight odds' policy, not one chosen for the whole book)"
        )
    else:
        yield tr("Luck in fights: never tested")
    for answer in answers:
        result = answer.result
        stats = " ".join(
            f"{ruleset.display_name(stat.id, lang)} {value}"
            for stat, value in zip(ruleset.stats, answer.hero.values, strict=True)
        )
        if answer.hero.class_name:
            stats = f"{answer.hero.class_name} {stats}"
        label = {
            "weakest": tr("weakest"), "median": tr("median"), "strongest": tr("strongest"),
            "given": tr("hero"),
        }[answer.hero.label]  # fmt: skip
        if result.complete:
            yield tr(
                "  {label} ({stats}): {percent}  [{states} states, {seconds} s]",
                label=label, stats=stats, percent=_percent(result.win_probability),
                states=number(result.states, ","), seconds=number(result.seconds, ".2f"),
            )  # fmt: skip
        else:
            yield tr(
                "  {label} ({stats}): not solved: the {limit} budget ran out after "
                "{expanded} of {states} states known (at least {percent})",
                label=label, stats=stats,
                limit=tr("time") if result.limit == "time" else tr("state"),
                expanded=number(result.expanded, ","), states=number(result.states, ","),
                percent=_percent(result.win_probability),
            )  # fmt: skip
            yield tr(
                "    at most {percent} (the states not explored counted as won)",
                percent=_percent(result.upper_bound),
            )  # fmt: skip
        if result.loops:
            yield tr(
                "    {count} loops solved by value iteration to {tolerance}",
                count=result.loops, tolerance="1e-12",
            )  # fmt: skip
        if answer.exact is not None:  # --exact
            yield tr("    exactly: {fraction}", fraction=_fraction(answer.exact))
        elif answer.exact_note:
            yield tr("    no exact fraction: {reason}", reason=answer.exact_note)
        if answer.steps:
            yield from _steps(answer.steps, _names(ruleset, lang), _test_words(ruleset, lang))
    for a in averages:
        name = f" ({a.class_name})" if a.class_name else ""
        if not a.heroes:
            yield tr("  average over the creation dice{name}: too many heroes", name=name)
        elif a.complete:
            yield tr(
                "  average over the creation dice{name}: {percent} ({count} heroes)",
                name=name, percent=_percent(a.win_probability), count=a.heroes,
            )  # fmt: skip
        else:
            yield tr(
                "  average over the creation dice{name}: not finished: {solved} of {count} "
                "heroes solved, {covered} of the creation (at least {percent})",
                name=name, solved=a.solved, count=a.heroes,
                covered=number(a.covered, ".1%"), percent=_percent(a.win_probability),
            )  # fmt: skip
            if a.covered > 0:
                yield tr(
                    "    {mean} over the heroes solved; the whole average is between {low} "
                    "and {high}",
                    mean=_percent(a.win_probability / a.covered),
                    low=_percent(a.win_probability),
                    high=_percent(min(1.0, a.win_probability + (1.0 - a.covered))),
                )  # fmt: skip


def _names(ruleset, lang: str) -> tuple[str, str]:
    """The names of the health and Luck stats in the book's language."""
    fight = ruleset.fight
    health = getattr(fight, "health", "STAMINA")
    test = ruleset.tests.get(getattr(fight, "luck_test", None) or "")
    luck = test.stat if test else "LUCK"
    return ruleset.display_name(health, lang), ruleset.display_name(luck, lang)


def _test_words(ruleset, lang: str) -> dict[str, tuple[str, str, str]]:
    """For each test of the ruleset that names its outcomes (Luck: lucky, unlucky), how the
    walkthrough tells it: ``("Test your Luck", "lucky", "unlucky")`` in ``lang``; a test
    without its own words keeps "test passed" / "test failed"."""
    words = {}
    for ident in ruleset.tests:
        passed = ruleset.outcome_name(ident, "success", lang)
        failed = ruleset.outcome_name(ident, "failure", lang)
        if passed and failed:
            phrase = message(lang, "flow.test", test=ruleset.display_name(ident, lang))
            words[ident] = (phrase, passed.lower(), failed.lower())
    return words


def _steps(steps, names: tuple[str, str], tests: dict[str, tuple[str, str, str]]):
    yield tr("    walkthrough:")
    for step in steps:
        decision = step.decision
        if decision is None:
            what = tr("(nothing to decide)")
        elif decision["kind"] == "choice" and decision.get("target") is None:
            what = tr("take the hidden-number option: {text}", text=decision["text"])
        elif decision["kind"] == "choice":
            what = tr("turn to {target}: {text}", target=decision["target"], text=decision["text"])
        elif decision["kind"] == "meal":
            what = tr("eat a meal")
        elif decision["kind"] == "luck":
            what = tr("test your Luck") if decision["answer"] else tr("do not test your Luck")
        elif decision["kind"] == "answer":
            what = tr("answer {value}", value=decision["value"])
        elif decision["kind"] == "drop":
            what = tr("drop {item}", item=decision["item"])
        elif decision["kind"] == "escape":
            what = tr("flee to {target}", target=decision["target"])
        elif decision["kind"] == "fight_on":
            what = tr("fight on")
        elif decision["kind"] == "target":
            what = tr("attack {enemy}", enemy=decision["enemy"])
        else:
            what = tr("answer yes") if decision["answer"] else tr("answer no")
        yield tr(
            "      §{paragraph}  {what}  ({percent})",
            paragraph=step.paragraph, what=what, percent=_percent(step.win_probability),
        )  # fmt: skip
        for rolled in step.rolled:
            if rolled["kind"] == "fight" and "way" in rolled:  # ended by a rule of the fight
                yield tr(
                    "          fight ended: {way} (then {health} {stamina}, {luck_name} {luck})",
                    way=_way_name(rolled["way"]), health=names[0], stamina=rolled["stamina"],
                    luck_name=names[1], luck=rolled["luck"],
                )  # fmt: skip
            elif rolled["kind"] == "fight" and rolled["won"] and rolled.get("luck") is None:
                yield tr(
                    "          fight won (then {health} {stamina})",
                    health=names[0],
                    stamina=rolled["stamina"],
                )  # fmt: skip  (d20: no Luck in fights)
            elif rolled["kind"] == "fight" and rolled["won"]:
                yield tr(
                    "          fight won (then {health} {stamina}, {luck_name} {luck})",
                    health=names[0], stamina=rolled["stamina"], luck_name=names[1],
                    luck=rolled["luck"],
                )  # fmt: skip
            elif rolled["kind"] == "fight" and rolled.get("limit"):
                yield tr(
                    "          assault limit reached (then {health} {stamina}, {luck_name} {luck})",
                    health=names[0], stamina=rolled["stamina"], luck_name=names[1],
                    luck=rolled["luck"],
                )  # fmt: skip
            elif rolled["kind"] == "fight" and not rolled["won"]:
                yield tr("          fight lost")  # the book's `lose ->` paragraph follows
            elif rolled["kind"] == "assault":
                yield tr("          assault: {result}", result={
                    "kill": tr("the enemy is killed at once"), "hit": tr("you wound the enemy"),
                    "hurt": tr("the enemy wounds you"), "tie": tr("nobody is wounded"),
                    "blows": tr("you wound an enemy and are wounded"),
                }[rolled["result"]])  # fmt: skip
            elif rolled["kind"] == "test" and rolled.get("test") in tests:
                phrase, passed, failed = tests[rolled["test"]]  # Luck: "Test your Luck: lucky"
                outcome = passed if rolled["success"] else failed
                yield tr("          {test}: {outcome}", test=phrase, outcome=outcome)
            elif rolled["kind"] == "test":
                yield (
                    tr("          test passed")
                    if rolled["success"]
                    else tr("          test failed")
                )
            elif rolled["kind"] == "luck_test":
                yield tr("          lucky") if rolled["lucky"] else tr("          unlucky")
            elif rolled["kind"] == "dice":
                yield tr("          dice: {faces}", faces=" ".join(map(str, rolled["faces"])))
        for option in step.fatal:
            if option.get("kind") == "choice":
                yield tr("          fatal: turn to {target}", target=option["target"])
            elif option.get("kind") == "escape":  # fleeing a fight loses for sure
                yield tr("          fatal: flee to {target}", target=option["target"])
            else:
                yield tr("          fatal: {option}", option=json.dumps(option))


def _way_name(way: str) -> str:
    """How a fight in which the book acts ended (``solve.walkthrough._acting``)."""
    return {
        "first": tr("first assault won"), "assaults": tr("the assaults won"),
        "threshold": tr("the threshold reached"), "exit": tr("its end condition"),
        "event": tr("an event of the fight"),
    }.get(way, way)  # fmt: skip


def _fraction(value) -> str:
    """A Fraction as ``p/q`` (``1`` and ``0`` as they are)."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )
