"""A fight in which the book acts, as one chance node of the solver (issue 17).

Rules under an enemy (``it deals 4``, ``it takes 1 (if not Iron Mace)``, ``against it:
attack +2 (if Silver Sword)``), events on an assault (``when it wins an assault: gain 1
bites``, ``on a double: its SKILL -2``, a shield's wound roll), and the fight's exits
(``end the fight when bites >= 2 -> 12``, ``when your STAMINA falls to 4 -> 80``, ``after 3
assaults won -> 50``, ``first assault won -> 11``, an assault limit) are taken from the
validator's plan of the fight (:func:`dedale.validator.fight_plan.plan_of`) and played by
the exact odds with exits (:mod:`dedale.rules.odds_exits`). The joint outcomes come from a
forward pass (:mod:`dedale.solve.acting_forward`) over the very states and transitions of
those odds: the way out (which rule ended the fight, hence its paragraph), the hero's
STAMINA and LUCK, and the counters and codewords the fight's events changed — or the loss.

Conditions are read from the solver's state at the fight: the items held, the codewords
held, the hero's stats; the counters and codewords the events change, and the hero's
STAMINA, are followed assault by assault. What the outcome could not carry, or a condition
the plan would read wrongly, is refused at the fight's line (never approximated): allies,
an assault table, statuses acting each assault, an item acting on a wound, enemies all at
once, an event that gives or takes an item or raises STAMINA, a condition
on LUCK (while Luck may be tested), on a count of items, on an initial value, on a
visited paragraph, a World, a class, a status or a flag, a counter with a maximum or of
the book's ``state:``.

With an escape, with the book's best Luck or under ``--exact``, a fight that names its
``win ->`` paragraph is played state by state in the graph instead
(:class:`dedale.solve.fight_exits.ExitsFight`): the reader's decisions inside it (flee,
Luck) are then the book's.
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.fights import FightResult, FightSpec
from dedale.solve.model import Chance, Leaf, SolveLimit

LOST = -1
"""The ``f`` token of a lost fight (as the other fights')."""


def acting_fight(oracle, runner, statement: ast.Fight, spec: FightSpec, ruleset, bonus: int,
                 armour: bool, luck_stat: str | None):  # fmt: skip
    """Play a fight in which the book acts from the oracle's token stream: a
    :class:`FightResult`, or ``(FightResult, paragraph)`` when a rule of the fight turned
    to a paragraph (see the module docstring)."""
    from dedale.solve.fights import Resolved
    from dedale.validator.fight_plan import Unsupported

    _refuse(runner, statement, spec, ruleset, oracle.luck_policy, luck_stat)
    hero = runner.state.hero
    params = ruleset.fight
    plan, names = _plan(runner, statement, spec, ruleset, bonus)
    graph = _in_graph(oracle, runner, statement, luck_stat)
    if graph:  # the reader's decisions inside it for the book (solve/fight_graph.py)
        from dedale.solve.fight_exits import ExitsFight

        fight_luck = not oracle.book_luck and statement.escape is None  # --luck fight, --exact
        raise Resolved(ExitsFight(
            oracle, runner, statement, ruleset, plan, names=names, armour=armour,
            rule_kinds=tuple(rule.kind for rule in statement.rules), luck_stat=luck_stat,
            fight_luck=fight_luck, dead_ends=death_ends(oracle, runner, statement)[0],
        ).start())  # fmt: skip
    luck = hero.stats.get(luck_stat) if luck_stat else None
    if statement.lose is not None and (
        plan.counters or (luck is not None and oracle.luck_policy == "best")
    ):
        from dedale.solve.fights import defeat_refusal  # (the forward pass: LOST only)

        raise defeat_refusal(statement)
    key = (
        "acting", id(statement), id(ruleset), repr(spec), tuple(sorted(hero.stats.items())),
        bonus, armour, hero.class_name, plan.counters, _static_truths(runner, statement),
        oracle.luck_policy, _fixed_truths(runner, statement, ruleset),
    )  # fmt: skip
    outcomes = oracle._memo.get(key)
    if outcomes is None:
        from dedale.solve.acting_forward import acting_outcomes

        oracle.fights += 1
        judge, dead_ends = _judge(oracle, runner, statement, spec, ruleset, bonus, plan)
        try:
            outcomes = oracle._memo[key] = acting_outcomes(
                ruleset, hero.stats[params.attack_stat], hero.stats[params.health], plan,
                luck=luck, luck_policy=oracle.luck_policy if luck is not None else "none",
                abilities=mods.hero_abilities(ruleset, hero), armour=armour,
                rule_kinds=tuple(rule.kind for rule in statement.rules), judge=judge,
                dead_ends=dead_ends,
            )  # fmt: skip
        except GameError as error:  # too many states, a loop, a Luck test that changes nothing
            raise SolveLimit(error.message, statement.span, hint=error.hint) from None
        except Unsupported as error:  # a condition reads what the plan does not follow
            raise _limit(statement, str(error)) from None
    stream = oracle.stream
    assert stream is not None
    if stream.at >= len(stream.tokens) and oracle.resolve is not None:
        tree = _resolved(oracle, runner, statement, outcomes, names, params.health, luck_stat)
        if tree is not None:
            raise Resolved(tree)
    index = stream.take("f", lambda: outcomes)
    if index == LOST:
        hero.set(params.health, 0)
        return FightResult("lost", 0)
    _apply(runner, index, names, params.health, luck_stat, oracle.luck_policy)
    outcome, target = _way(runner, statement, index[2], index[3])
    if target is None:
        return FightResult(outcome, 0)
    return FightResult(outcome, 0), target


def _apply(runner, index: tuple, names: tuple, health: str, luck_stat, policy: str) -> None:
    """Set the hero to an outcome: STAMINA, LUCK (when tested), the counters and codewords
    the fight followed."""
    hero = runner.state.hero
    stamina, luck, _way, _rule, values = index
    hero.stats[health] = stamina
    if luck_stat is not None and policy == "best":
        hero.stats[luck_stat] = luck
    for (name, written), value in zip(names, values, strict=True):
        if written is None:
            hero.counters[name] = value
        elif value:
            runner.state.codewords[_folded(written)] = written
        else:
            runner.state.codewords.pop(_folded(written), None)


def _way(runner, statement: ast.Fight, way: str, rule: int) -> tuple[str, int | None]:
    """The fight's outcome and the paragraph a rule of the fight turns to (None: the
    fight's own ``win ->`` or assault limit, which the interpreter follows)."""
    if way in ("won", "limit"):
        return way, None
    if way == "threshold":
        target = statement.threshold.target
    elif way == "assaults":
        target = statement.win_assaults.target
    elif way == "event":
        target = next(e.target for e in statement.rules[rule].effects if type(e) is ast.Goto)
    else:  # first, exit
        target = statement.rules[rule].target
    outcome = "won" if way in ("first", "assaults") else "limit"
    return outcome, runner.destination(target, required=True)


def _resolved(oracle, runner, statement, outcomes, names, health: str, luck_stat):
    """The fight's chance node at once, when every way out names its paragraph and nothing
    of the interpreter acts between the fight and that paragraph; else None (replayed)."""
    from dedale.solve.fights import _won_target

    if _won_target(runner, statement) is None:  # (also: no trigger, penalty, god mode)
        return None
    state = runner.state
    kept = (dict(state.hero.stats), dict(state.hero.counters), dict(state.codewords))
    branches = []
    for p, token in outcomes:
        index = token[1]
        if index == LOST:
            branches.append((p, token, Leaf(0.0)))
            continue
        _apply(runner, index, names, health, luck_stat, oracle.luck_policy)
        outcome, target = _way(runner, statement, index[2], index[3])
        if target is None:
            target = runner.destination(
                statement.win if outcome == "won" else statement.assault_limit.target,
                required=True,
            )
        branches.append((p, token, oracle.resolve(state, target)))
        for live, saved in zip((state.hero.stats, state.hero.counters, state.codewords), kept,
                               strict=True):  # fmt: skip
            live.clear()
            live.update(saved)
    return Chance(tuple(branches))


def _in_graph(oracle, runner, statement: ast.Fight, luck_stat) -> bool:
    """Whether the fight is played state by state in the graph (:class:`~dedale.solve.
    fight_exits.ExitsFight`): with an escape (whether to flee is the reader's), with the
    book's best Luck, under ``--exact`` (its transitions in fractions), and with a defeat
    exit (the loss goes on to its paragraph with the LUCK and the counters it leaves); it
    needs a ``win ->`` paragraph (else the forward pass, its Luck the fight's, or a
    refusal)."""
    from dedale.solve.exact_fights import float_only
    from dedale.solve.exactness import EXACT
    from dedale.solve.fights import _won_target

    escape = statement.escape is not None
    book_luck = oracle.book_luck and luck_stat is not None
    exact = EXACT.get()
    # a defeat exit: the loss goes on with the LUCK and counters it leaves (graph nodes)
    defeat = statement.lose is not None
    if not (escape or book_luck or exact or defeat):
        return False
    if oracle.explorer is not None and _won_target(runner, statement, defeat=True) is not None:
        return True  # (--luck fight under --exact: the fight's Luck, decided in fractions)
    if escape:
        raise SolveLimit(
            tr("the solver plays an escape only in a fight that turns to a paragraph"),
            statement.span,
        )
    if exact:
        raise float_only(
            statement,
            tr(
                "a fight in which the book acts and that names no "
                "paragraph to turn to is computed in floats"
            ),
        )
    return False  # the book's Luck: the forward pass keeps the fight's (said in the output)


def _judge(oracle, runner, statement: ast.Fight, spec: FightSpec, ruleset, bonus: int, plan):
    """What the fight's own Luck policy values its states by when a way out turns to a
    death ending (validator.death_ways): ``(the plan with those ways as deaths, the ways
    ((way, rule index)))``, else ``(None, frozenset())``. The outcomes keep each way to its
    paragraph; only the Luck decisions stop counting "leaving" to a death as leaving alive."""
    from dedale.validator.fight_plan import plan_of

    ends, is_deadly = death_ends(oracle, runner, statement)
    if not ends:
        return None, frozenset()
    from dedale.rules.odds_inputs import enemy_line_up

    carried, codewords = _static_truths(runner, statement)
    line_up = tuple(enemy_line_up(ruleset, spec.enemies, spec.mode))
    hero = dict(runner.state.hero.stats)
    judged = plan_of(statement, ruleset, line_up, hero, carried, codewords, deadly=is_deadly)
    judged = dataclasses.replace(judged, bonus=plan.bonus, counters=plan.counters, caps=())
    return judged, ends


def death_ends(oracle, runner, statement: ast.Fight) -> tuple[frozenset[tuple[str, int]], object]:
    """The fight's ways out ``(way, rule index)`` (as its outcomes label them) whose
    paragraph is a death ending, and the book's test of a destination (one per book)."""
    from dedale.validator.death_ways import deadly
    from dedale.validator.graph import build_graph

    shared = oracle.__dict__.setdefault("_death_ways", {})
    is_deadly = shared.get(id(runner.book))
    if is_deadly is None:
        is_deadly = shared[id(runner.book)] = deadly(build_graph(runner.book), runner.book)
    ends = set()
    for at, rule in enumerate(statement.rules):
        if rule.kind in ("first", "exit") and is_deadly(rule.target):
            ends.add((rule.kind, at))
        elif rule.kind == "event" and any(
            type(e) is ast.Goto and is_deadly(e.target) for e in rule.effects
        ):
            ends.add(("event", at))
    for way, found in (("limit", statement.assault_limit), ("threshold", statement.threshold),
                       ("assaults", statement.win_assaults)):  # fmt: skip
        if found is not None and is_deadly(found.target):
            ends.add((way, -1))
    return frozenset(ends), is_deadly


def _plan(runner, statement: ast.Fight, spec: FightSpec, ruleset, bonus: int):
    """The fight's :class:`~dedale.rules.odds_exits.ExitPlan`, its conditions read from the
    solver's state, and the names of the values it follows: ``(counter id, None)`` or
    ``(codeword key, codeword as written)``."""
    from dedale.rules.odds_inputs import enemy_line_up
    from dedale.solve.fight_fixed import fold_fixed
    from dedale.validator.fight_plan import Unsupported, plan_of

    hero = runner.state.hero
    carried, codewords = _static_truths(runner, statement)
    try:
        line_up = tuple(enemy_line_up(ruleset, spec.enemies, spec.mode))
        folded, _ = fold_fixed(statement, runner, ruleset)  # flags, visits... read now
        plan = plan_of(folded, ruleset, line_up, dict(hero.stats), carried, codewords)
    except (Unsupported, GameError) as error:
        raise _limit(statement, str(getattr(error, "message", error))) from None
    written = _codewords_written(statement)
    starts, names = [], []
    for name, _start in plan.counters:
        if name.startswith("codeword:"):
            word = written.get(name, name.removeprefix("codeword:"))
            starts.append((name, int(runner.state.has_codeword(word))))
            names.append((name, word))
        else:
            if getattr(_counter(ruleset, name), "maximum", None) is not None:
                raise _limit(statement, tr("a counter with a maximum changes in the fight"))
            starts.append((name, hero.counters.get(name, 0)))
            names.append((name, None))
    # no caps: a counter the fight raises is carried on to the rest of the book, which may
    # read it against other numbers than the fight does (past its budget: refused, as before)
    plan = dataclasses.replace(plan, bonus=bonus, counters=tuple(starts), caps=())
    return plan, tuple(names)


def _static_truths(runner, statement: ast.Fight) -> tuple[frozenset[str], frozenset[str]]:
    """The items and codewords the fight's conditions ask about that the hero holds now,
    names folded as :func:`plan_of` reads them."""
    items, words = set(), set()
    for condition in _conditions(statement):
        for atom in _atoms(condition):
            if type(atom) is ast.HasItem and runner.item_count(atom.item) >= 1:
                items.add(atom.item.casefold())
            elif type(atom) is ast.HasCodeword and runner.state.has_codeword(atom.codeword):
                words.add(atom.codeword.casefold())
    return frozenset(items), frozenset(words)


def _fixed_truths(runner, statement: ast.Fight, ruleset) -> tuple[bool, ...]:
    """The truth of the fight's fixed atoms now (:mod:`dedale.solve.fight_fixed`)."""
    from dedale.solve.fight_fixed import fold_fixed

    return fold_fixed(statement, runner, ruleset)[1]


def _refuse(runner, statement: ast.Fight, spec: FightSpec, ruleset, policy: str, luck_stat):
    """Raise a SolveLimit at the fight's line for what the outcomes cannot carry."""
    from dedale.game.triggers import holds_triggers

    reason = ""
    state = runner.state
    if spec.mode == "together" and len(spec.enemies) > 1:
        reason = tr("enemies fought together, with rules of the book inside the fight")
    elif statement.allies:
        reason = tr("allies fight beside the hero")
    elif statement.assault_table is not None:
        reason = tr("a table is rolled each assault")
    elif any(d.get("per") == "assault" for d in state.statuses.values()):
        reason = tr("a status acts each assault")
    elif runner.watch_triggers and holds_triggers(state.hero):
        reason = tr("an item acts when a stat falls during the fight")
    else:
        reason = _effects_reason(statement) or _conditions_reason(
            runner, statement, ruleset, luck_stat if policy == "best" else None
        )
    if reason:
        raise _limit(statement, reason)


def _effects_reason(statement: ast.Fight) -> str:
    for rule in statement.rules:
        effects = rule.effects
        for at, effect in enumerate(effects):
            kind = type(effect)
            if kind in (ast.GainItem, ast.LoseItem):
                return tr("an event of the fight gives or takes an item")
            if kind is ast.Ending and effect.kind == "victory":
                return tr("an event of the fight ends the book")
            if kind is ast.Goto and at != len(effects) - 1:
                return tr("an event of the fight acts after turning to a paragraph")
    return ""


def _conditions_reason(runner, statement: ast.Fight, ruleset, luck_stat: str | None) -> str:
    health = ruleset.fight.health
    declared = runner.book.meta.state
    for rule in statement.rules:
        for effect in rule.effects:
            if type(effect) is ast.ChangeValue:
                found = ruleset.resolve(effect.name)
                if found is not None and found[1] == health and effect.op == "add":
                    return tr("an event of the fight raises the hero's health")
                if declared and declared.counter(effect.name) is not None:
                    return tr("an event changes a counter of the book's state")
    from dedale.solve.fight_fixed import fixed_atom

    for condition in _conditions(statement):
        for atom in _atoms(condition):
            kind = type(atom)
            if fixed_atom(atom, runner, ruleset):
                continue  # read at the fight's start (dedale.solve.fight_fixed)
            if kind is ast.Compare:
                for ref in _refs((atom.left, atom.right)):
                    if type(ref) is not ast.ValueRef:
                        return tr("a condition in the fight reads what the fight's odds do not "
                                  "follow")  # fmt: skip
                    found = ruleset.resolve(ref.name)
                    if ref.initial or (declared and declared.counter(ref.name) is not None):
                        return tr("a condition in the fight reads what the fight's odds do "
                                  "not follow")  # fmt: skip
                    if found is not None and luck_stat is not None and found[1] == luck_stat:
                        return tr("a condition in the fight reads LUCK, which Luck tests "
                                  "change (--luck none)")  # fmt: skip
    return ""


def _conditions(statement: ast.Fight):
    for rule in statement.rules:
        if rule.condition is not None:
            yield rule.condition
    if statement.threshold is not None:
        yield ast.Compare(
            span=statement.threshold.span, op="<=",
            left=ast.ValueRef(span=statement.threshold.span, name=statement.threshold.stat),
            right=ast.Num(span=statement.threshold.span, value=statement.threshold.value),
        )  # fmt: skip


def _atoms(condition):
    yield condition
    for attribute in ("operand", "operands"):
        inner = getattr(condition, attribute, None)
        if inner is None:
            continue
        for part in inner if isinstance(inner, tuple) else (inner,):
            yield from _atoms(part)


def _refs(exprs):
    """The leaves of expressions other than numbers (value references, dice, paragraphs)."""
    for expr in exprs:
        if type(expr) is ast.Num:
            continue
        if type(expr) is ast.BinOp:
            yield from _refs((expr.left, expr.right))
        else:
            yield expr


def _codewords_written(statement: ast.Fight) -> dict[str, str]:
    found = {}
    for rule in statement.rules:
        for effect in rule.effects:
            if type(effect) in (ast.SetCodeword, ast.ClearCodeword):
                found.setdefault("codeword:" + effect.codeword.casefold(), effect.codeword)
    return found


def _counter(ruleset, ident: str):
    return next((c for c in ruleset.counters if c.id == ident), None)


def _folded(word: str) -> str:
    from dedale.game.cache import folded

    return folded(word)


def _limit(statement: ast.Fight, reason: str) -> SolveLimit:
    return SolveLimit(
        tr("the solver cannot play this fight exactly: {reason}", reason=reason),
        statement.span,
        hint=tr(
            "dedale solve plays the rules under an enemy and the fight's exits that its "
            "exact odds follow (see docs/solver.md)"
        ),  # fmt: skip
    )
