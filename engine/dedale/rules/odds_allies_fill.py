"""The value table of the exact odds with allies filled with numpy, one vector over LUCK per
position (hero STAMINA, enemies' STAMINA left, allies, first hit), for the best Luck policy
(:mod:`dedale.rules.odds_allies`; its scalar loop fills the no-Luck tables and is the
reference: the tests check both agree).

A move either keeps LUCK (no test) or lowers it by the test's cost: the positions are
filled in lexicographic order, each as a whole vector read from the vectors of the positions
before it. The one exception — a Luck test whose lucky outcome costs no STAMINA and whose
assault changes nothing else (df24's lucky wound, allies all failing) reads the same
position at a lower LUCK — is filled LUCK by LUCK with the scalar moves.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from dedale.rules.odds import LUCK_TIE

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is a core dependency
    np = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from dedale.rules.odds_allies import AllyTable

PLAIN, LUCKY, UNLUCKY = 0, 1, 2


def fill_by_luck(table: AllyTable, seconds: float, too_slow) -> bool:
    """Fill ``table.values`` (False: no numpy, the caller's scalar loop fills it)."""
    if np is None:
        return False
    base, fight = table.base, table.fight
    lucks, sl, sh = table.lucks, table.stride_luck, table.stride_hero
    values = np.zeros(table.cells)
    grid = values.reshape(lucks, sl)
    table.values = values  # the scalar fallback reads and writes the same cells
    levels = np.arange(lucks)
    low = np.maximum(0, levels - base.luck_cost)
    low_rows = low[:, None]  # the LUCK each level falls to after a test, as rows
    q = np.array([base.p_lucky(int(level)) if level > 0 else 0.0 for level in levels])
    tested = levels > 0
    weights = {PLAIN: None, LUCKY: q, UNLUCKY: 1.0 - q}
    afters: dict[tuple, list] = {}

    def after(t2: int, code: int, given: int, modes) -> list:
        key = (t2, code, given, modes)
        found = afters.get(key)
        if found is None:
            found = [
                (won, np.array([o for _, o in offs], dtype=np.int64),
                 np.array([p for p, _ in offs]))
                for won, offs in table._after(t2, code, given, modes)
            ]  # fmt: skip
            afters[key] = found
        return found

    def value(choice, code: int, own: int, modes):
        """(vector over LUCK of one choice, whether it reads its own position lower)."""
        total = np.zeros(lucks)
        for p, kind, h2, t2, u2, g in choice:
            if h2 <= 0:
                continue
            w = p if kind == PLAIN else p * weights[kind]
            if t2 <= 0:
                total += w
                continue
            for won, offs, chances in after(t2, code, g, modes):
                cols = h2 * sh + u2 + offs
                if kind == PLAIN:
                    cells = grid[:, cols]
                elif (cols == own).any():
                    return None
                else:
                    cells = grid[low_rows, cols]
                total += w * (won + cells @ chances)
        return total

    start = time.process_time()
    count = 0
    luck_hit, luck_hurt = fight.luck_wounding, fight.luck_wounded
    for h in range(1, table.h0 + 1):
        for t in range(1, table.total + 1):
            i, e = table.index[t], table.current[t]
            chances = base.params[i]
            for code in range(table.ally_cells):
                for unhit in range(table.hits):
                    own_off = (t * table.ally_cells + code) * table.hits
                    own = h * sh + own_off + unhit
                    shields = table._shields(code)
                    groups = _groups(table, chances, h, t, e, unhit, luck_hit, luck_hurt, shields)
                    total = np.zeros(lucks)
                    stay = 0.0
                    scalar = False
                    for modes, choices in groups:
                        best = value(choices[0], code, own, modes)
                        for other in choices[1:]:
                            found = value(other, code, own, modes)
                            if found is None:
                                scalar = True
                                break
                            better = tested & (found > best + LUCK_TIE * np.abs(best))  # luck_gains
                            best = np.where(better, found, best)
                        if scalar:
                            break
                        total += best
                        if len(choices) == 1:  # ties all round: this very state again
                            for p, kind, h2, t2, u2, g in choices[0]:
                                if (kind, h2, t2, u2, g) == (PLAIN, h, t, unhit, 0):
                                    for _w, offs, chances_ in after(t, code, 0, modes):
                                        stay += p * float(chances_[offs == own_off].sum())
                    if scalar:  # LUCK by LUCK, each reading the lower ones just filled
                        for li in range(lucks):
                            value_, stay_, _, _ = table._moves(li, h, t, code, unhit, False)
                            values[li * sl + own] = value_ / (1.0 - stay_) if stay_ < 1 else 0.0
                        continue
                    grid[:, own] = total / (1.0 - stay) if stay < 1.0 else 0.0
        count += table.total * table.ally_cells * table.hits * lucks
        if time.process_time() - start > seconds:
            table.values = None
            raise too_slow(seconds, count)
    table.values = values.tolist()  # the forward passes read single cells
    return True


def _groups(table, chances, h, t, e, unhit, luck_hit, luck_hurt, shields) -> list:
    """The hero's part of an assault at one position, as :meth:`AllyTable._moves` builds it,
    LUCK left symbolic: per outcome (the whom-they-strike modes that follow it, None: the
    fight's; its choices, each [(chance, PLAIN/LUCKY/UNLUCKY, STAMINA, enemies' STAMINA,
    first hit to come, the wound an ally took)]) (a Luck choice acts where LUCK > 0)."""
    base, fight = table.base, table.fight
    groups: list[tuple] = []
    if chances.p_kill:
        groups.append((None, [[(chances.p_kill, PLAIN, h, t - e, unhit, 0)]]))
    if chances.p_hero:
        d = base.to_enemy + (base.first_hit_bonus if unhit else 0)
        p = chances.p_hero
        choices = [[(p, PLAIN, h, t - min(d, e), 0, 0)]]
        if base.use_luck and luck_hit is not None:
            dealt = fight.damage_to_enemy
            lucky = max(0, d + luck_hit.lucky - dealt)
            unlucky = max(0, d + luck_hit.unlucky - dealt)
            if min(lucky, unlucky) < e:  # offered unless the wound kills whatever Luck
                choices.append([(p, LUCKY, h, t - min(lucky, e), 0, 0),
                                (p, UNLUCKY, h, t - min(unlucky, e), 0, 0)])  # fmt: skip
        groups.append((None, choices))
    if chances.p_enemy:
        p = chances.p_enemy
        d = base.to_hero
        if d <= 0:
            groups.append((None, [[(p, PLAIN, h, t, unhit, 0)]]))
        else:
            for share, mode in table.modes:  # whom the enemies strike: known at the wound
                modes = ((share, mode),)
                if mode == "ally" and shields:  # the first ally standing takes it, no Luck
                    groups.append((modes, [[(p, PLAIN, h, t, unhit, d)]]))
                    continue
                choices = [[(p, PLAIN, h - d, t, unhit, 0)]]
                if base.use_luck and luck_hurt is not None:
                    taken = fight.damage_to_hero
                    lucky = max(0, d + luck_hurt.lucky - taken)
                    unlucky = max(0, d + luck_hurt.unlucky - taken)
                    choices.append([(p, LUCKY, h - lucky, t, unhit, 0),
                                    (p, UNLUCKY, h - unlucky, t, unhit, 0)])  # fmt: skip
                groups.append((modes, choices))
    if chances.p_tie:
        groups.append((None, [[(chances.p_tie, PLAIN, h, t, unhit, 0)]]))
    return groups
