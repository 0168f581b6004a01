"""Mixed strategies for the simultaneous secret choices, solved at start-up for the C engine.

Every table comes from a small two-player zero-sum matrix game solved exactly by linear
programming (OR-Tools GLOP).  The n-player situations are reduced to "me against one
representative opponent" (or one side against the other) with a simplified payoff; the
weights are in the ``[equilibrium]`` section of the parameter file.  See docs/squid.md.

* red light: players interact only through pushes, so the game "my tokens minus yours" is
  separable and its equilibrium is pure: the card maximising the stack's expected surviving
  tokens (an exact dynamic programme over timer, doll cards left, field and stack size) plus
  ``red_light_zero_value`` tokens for an unpunished 0 on the track (it pushes an opponent out but
  leaves the stack where rivals' 0s can push it).
* glass bridge: for each hand (cards not yet used), a game in which the token that goes
  further steps on fresh parts first (risk ``cracked / tiles / 2`` per new part: a part with a
  crack has one cracked tile of two, and the first token on it guesses blind).
* tug of war: for each pair of side sizes (a, b), a team game in which each side chooses a
  multiset of cards; the row side's table gives the marginal chance of each card value.
* squid: a 4x4 game of defence / stab / push / move between two tokens in the same zone; a move
  is worth ``squid_move_value`` tokens, or ``squid_head_value`` when it enters the head -- which
  only a token on the last triangle field can: when one side has such a token and the other not,
  the game is not symmetric (:func:`squid_head_matrix`), and the rival's table is the column
  player's solution of that game.
* marbles odd/even is matching pennies: hide and guess 50/50 (hard-coded in the engine).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache
from typing import Any

import numpy as np


def solve_zero_sum(a: np.ndarray) -> tuple[np.ndarray, float]:
    """Optimal mixed strategy of the row player (maximiser) and the value of the game.

    >>> x, v = solve_zero_sum(np.array([[1.0, -1.0], [-1.0, 1.0]]))   # matching pennies
    >>> [round(float(p), 6) for p in x], round(v, 6)
    ([0.5, 0.5], 0.0)
    >>> x, v = solve_zero_sum(np.array([[3.0, 1.0], [2.0, 0.0]]))     # row 0 dominates
    >>> [round(float(p), 6) for p in x], round(v, 6)
    ([1.0, 0.0], 1.0)
    """
    from ortools.linear_solver import pywraplp

    a = np.asarray(a, dtype=float)
    m, n = a.shape
    solver = pywraplp.Solver.CreateSolver("GLOP")
    x = [solver.NumVar(0.0, 1.0, f"x{i}") for i in range(m)]
    v = solver.NumVar(-solver.infinity(), solver.infinity(), "v")
    solver.Add(sum(x) == 1.0)
    for j in range(n):
        solver.Add(sum(float(a[i, j]) * x[i] for i in range(m) if a[i, j] != 0.0) >= v)
    solver.Maximize(v)
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:  # pragma: no cover - a finite matrix game always has one
        raise RuntimeError("matrix game LP not solved")
    probs = np.clip(np.array([xi.solution_value() for xi in x]), 0.0, None)
    return probs / probs.sum(), float(v.solution_value())


def bridge_matrix(hand: int, field_value: float, crack_rate: float, push_chance: float) -> np.ndarray:
    """Cards in ``hand`` (bitmask) against the same hand; see the module docstring."""

    def gain(i: int, j: int) -> float:
        if i == 0:
            return push_chance * crack_rate if j > 0 else 0.0
        risk = 1.0 if i > j else (0.5 if i == j else 0.25)
        return field_value * i - crack_rate * risk

    cards = [v for v in range(5) if hand >> v & 1]
    return np.array([[gain(i, j) - gain(j, i) for j in cards] for i in cards])


def tug_outcome(suml: int, sumr: int, zeros: int, tie_survive: bool) -> int:
    """Row side's payoff on one contested bridge: +1 win, -1 loss, 0 tie (both share the fate).

    >>> tug_outcome(5, 3, 0, False), tug_outcome(5, 3, 1, False), tug_outcome(4, 4, 2, True)
    (1, -1, 0)
    """
    if suml == sumr:
        return 0
    return 1 if (suml > sumr) == (zeros % 2 == 0) else -1


def tug_matrix(a: int, b: int, tie_survive: bool) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The team game of a side of a tokens against b tokens: every multiset of cards of each side
    (rows: the a side), payoff :func:`tug_outcome`."""
    left = list(itertools.combinations_with_replacement(range(5), a))
    right = list(itertools.combinations_with_replacement(range(5), b))
    mat = np.array([[tug_outcome(sum(x), sum(y), x.count(0) + y.count(0), tie_survive) for y in right]
                    for x in left], dtype=float)
    return left, mat


def tug_marginal(a: int, b: int, tie_survive: bool) -> np.ndarray:
    """Chance of each card value 0-4 for one token on a side of a tokens facing b tokens."""
    left, mat = tug_matrix(a, b, tie_survive)
    probs, _ = solve_zero_sum(mat)
    marg = np.zeros(5)
    for p, x in zip(probs, left, strict=True):
        for v in x:
            marg[v] += p / a
    return marg


SQUID_CARDS = ("defence", "stab", "push", "move")


def squid_matrix(move_value: float) -> np.ndarray:
    """Two tokens in one zone: defence, stab, push, move (row payoff, tokens won minus lost)."""
    m = move_value
    return np.array([
        [0.0, 1.0, -1.0, -m],   # defence: a stab misses (stabber pays), a push kills
        [-1.0, 0.0, 1.0, 1.0],  # stab: no target against defence / stab, kills push and move
        [1.0, -1.0, 0.0, -m],   # push: kills defence, is stabbed before pushing
        [m, -1.0, m, 0.0],      # move: progress unless stabbed
    ])


def squid_head_matrix(move_value: float, head_value: float) -> np.ndarray:
    """Row's token stands on the last triangle field (its move enters the head and wins the game),
    the column's does not (its move is progress only).  Rows/columns: defence, stab, push, move.

    >>> squid_head_matrix(0.3, 10.0)[3].tolist()   # only a stab stops the row's move
    [10.0, -1.0, 10.0, 10.0]
    """
    m, h = move_value, head_value
    return np.array([
        [0.0, 1.0, -1.0, -m],   # defence: the column's move only progresses
        [-1.0, 0.0, 1.0, 1.0],  # stab: kills a push or a move
        [1.0, -1.0, 0.0, -m],
        [h, -1.0, h, h],        # move into the head: wins unless stabbed first (stabs come first)
    ])


def squid_zone_payoff(cards: tuple[int, ...], speed: int, move_value: float) -> float:
    """Seat 0's payoff when k+1 single tokens share one zone (seats clockwise 0..k, card ids 0
    defence, 1 stab, 2 push, 3 move; ``speed`` starts each step).  Tokens lost by the opponents
    (on average) minus seat 0's loss, plus ``move_value`` for moving minus the opponents' average.
    With ``move_value`` = None the move enters the head: the first mover wins (worth 1 game = the
    caller's head value) and the round ends.

    >>> squid_zone_payoff((0, 1), 0, 0.3), squid_zone_payoff((3, 3), 1, 0.3)   # defence v stab; both move
    (1.0, 0.0)
    """
    n = len(cards)
    alive = [True] * n
    loss = [0.0] * n
    moved = [0.0] * n
    order = [(speed + i) % n for i in range(n)]
    for kind in (1, 2, 3):
        for i in order:
            if cards[i] != kind or not alive[i]:
                continue
            if kind == 3:
                moved[i] = 1.0
                if move_value is None:
                    break
                continue
            victims = [(i + d) % n for d in range(1, n) if alive[(i + d) % n]
                       and (cards[(i + d) % n] in (2, 3) if kind == 1 else cards[(i + d) % n] == 0)]
            if victims:
                alive[victims[0]] = False
                loss[victims[0]] = 1.0
            elif kind == 1:
                alive[i] = False
                loss[i] = 1.0
        else:
            continue
        break
    k = n - 1
    opp_loss = sum(loss[1:]) / k
    opp_moved = sum(moved[1:]) / k
    return -loss[0] + opp_loss + (1.0 if move_value is None else move_value) * (moved[0] - opp_moved)


def _simplex_grid(steps: int, centre: np.ndarray | None = None, radius: float = 1.0) -> np.ndarray:
    """Points of the 4-card simplex on a grid of 1/steps (optionally only near ``centre``)."""
    lo = np.zeros(4) if centre is None else np.maximum(centre - radius, 0.0)
    hi = np.ones(4) if centre is None else np.minimum(centre + radius, 1.0)
    axes = [np.arange(np.ceil(lo[i] * steps), np.floor(hi[i] * steps) + 1) / steps for i in range(3)]
    a, b, c = np.meshgrid(*axes, indexing="ij")
    pts = np.stack([a.ravel(), b.ravel(), c.ravel()], axis=1)
    last = 1.0 - pts.sum(axis=1)
    keep = (last >= -1e-12) & (last >= lo[3] - 1e-12) & (last <= hi[3] + 1e-12)
    return np.column_stack([pts[keep], np.clip(last[keep], 0.0, 1.0)])


def squid_symmetric(k: int, move_value: float | None, head_value: float) -> tuple[np.ndarray, float]:
    """Symmetric mixed strategy for k opponents sharing a zone (all playing it too).

    The payoff of each card is :func:`squid_zone_payoff` averaged over seat arrangements and the
    speed token; a symmetric equilibrium exists (Nash), and we find an approximate one by
    minimising the exploitability (what the best single card gains over the strategy) on a grid
    of the simplex (step 1/50), refined around the best point (step 1/500).  Returns
    (strategy, exploitability).
    """
    multisets = list(itertools.combinations_with_replacement(range(4), k))
    table = np.zeros((4, len(multisets)))
    for j, ms in enumerate(multisets):
        perms = set(itertools.permutations(ms))
        for c in range(4):
            total = 0.0
            for perm in perms:
                for speed in range(k + 1):
                    if move_value is None:
                        total += head_value * squid_zone_payoff((c, *perm), speed, None)
                    else:
                        total += squid_zone_payoff((c, *perm), speed, move_value)
            table[c, j] = total / (len(perms) * (k + 1))
    counts = np.array([[ms.count(c) for c in range(4)] for ms in multisets])
    coef = np.array([math.factorial(k) / np.prod([math.factorial(x) for x in row]) for row in counts])

    def exploitability(sigmas: np.ndarray) -> np.ndarray:
        probs = coef[None, :] * np.prod(sigmas[:, None, :] ** counts[None, :, :], axis=2)
        pay = probs @ table.T                                  # points x cards
        return pay.max(axis=1) - (pay * sigmas).sum(axis=1)

    best = None
    for steps, radius in ((50, 1.0), (500, 0.03)):
        pts = _simplex_grid(steps, best, radius) if best is not None else _simplex_grid(steps)
        gaps = exploitability(pts)
        best = pts[int(np.argmin(gaps))]
    return best, float(exploitability(best[None, :])[0])


@lru_cache(maxsize=16)
def _squid_table(move_value: float, head_value: float) -> np.ndarray:
    """[who can enter the head: 0 nobody, 1 me, 2 a rival in my zone, 3 both][opponents sharing a
    zone, 1-5][card].  Nobody / both (symmetric): exact LP for one opponent, the symmetric-equilibrium
    search of :func:`squid_symmetric` for more.  Me / a rival (asymmetric): the row / column
    solution of :func:`squid_head_matrix` by LP -- exact for one opponent, used as the
    representative-opponent approximation for more."""
    sq = np.full((4, 6, 4), 0.25)
    for head in (0, 3):
        value = head_value if head else move_value
        sq[head, 1], _ = solve_zero_sum(squid_matrix(value))
        for k in range(2, 6):
            sq[head, k], _ = squid_symmetric(k, None if head else move_value, head_value)
    mat = squid_head_matrix(move_value, head_value)
    mine, _ = solve_zero_sum(mat)
    rival, _ = solve_zero_sum(-mat.T)
    sq[1, 1:] = mine
    sq[2, 1:] = rival
    sq.flags.writeable = False
    return sq


RL_MAX_STACK = 12


def red_light_values(masks: tuple[int, ...], track: int, timer_steps: int,
                     zero_value: float) -> tuple[np.ndarray, np.ndarray]:
    """Dynamic programme for one red-light stack against the doll deck (card counting, timer).

    State: timer step t, doll cards still in this pass (bitmask), field pos (0..track), stack
    size c (0..12).  Value: expected tokens of the stack that cross the finish line.  Returns
    (best card [t, mask, pos, c] as int8, value [t, mask, pos, c]).  The best card maximises the
    value plus ``zero_value`` tokens for an unpunished 0 on the track (the push).  In the
    two-player relative game "my tokens minus yours" these payoffs are separable, so this pure
    best card is also its equilibrium.

    >>> best, value = red_light_values((1 << 4,), 1, 1, 0.0)   # one card crossing out 4, 1 field
    >>> int(best[0, 1, 0, 2]), float(value[0, 1, 0, 2])        # 2 (or 3) crosses safely
    (2, 2.0)
    """
    n_cards = len(masks)
    full = (1 << n_cards) - 1
    fields = track + 1
    cnt = np.arange(RL_MAX_STACK + 1, dtype=float)
    pos = np.arange(fields)
    value = np.zeros((timer_steps, 1 << n_cards, fields, RL_MAX_STACK + 1))
    best = np.zeros(value.shape, dtype=np.int8)
    by_size = sorted(range(1, full + 1), key=lambda m: bin(m).count("1"))
    for t in range(timer_steps - 1, -1, -1):
        for mask in by_size:
            cards = [i for i in range(n_cards) if mask >> i & 1]
            q = np.zeros((5, fields, RL_MAX_STACK + 1))
            for i in cards:
                rest = mask & ~(1 << i)
                if rest:
                    nxt = value[t, rest]
                elif t + 1 < timer_steps:
                    nxt = value[t + 1, full]
                else:
                    nxt = np.zeros((fields, RL_MAX_STACK + 1))  # the timer hits zero
                for n in range(5):
                    if masks[i] >> n & 1:      # crossed out: the stack loses one token
                        q[n, :, 1:] += nxt[:, :-1]
                    else:
                        dest = pos + n
                        over = dest > track
                        q[n] += np.where(over[:, None], cnt[None, :], nxt[np.minimum(dest, track)])
            q /= len(cards)
            score = q.copy()
            safe0 = sum(1 for i in cards if not masks[i] & 1) / len(cards)
            score[0, 1:, 1:] += zero_value * safe0
            best[t, mask] = np.argmax(score, axis=0)
            value[t, mask] = q.max(axis=0)
    best[..., 0] = 0
    return best, value


@lru_cache(maxsize=16)
def _red_light_table(masks: tuple[int, ...], track: int, timer_steps: int, zero_value: float) -> np.ndarray:
    best, _ = red_light_values(masks, track, timer_steps, zero_value)
    best.flags.writeable = False
    return best


@lru_cache(maxsize=16)
def _other_tables(key: tuple) -> dict[str, Any]:
    (br_fv, br_q, crack_rate, cap, tie_survive) = key
    br = np.full((32, 5), 0.2)
    for hand in range(1, 32):
        probs, _ = solve_zero_sum(bridge_matrix(hand, br_fv, crack_rate, br_q))
        br[hand] = 0.0
        for p, v in zip(probs, [v for v in range(5) if hand >> v & 1], strict=True):
            br[hand, v] = p
    tug = np.full((8, 8, 5), 0.2)
    for a in range(1, cap + 1):
        for b in range(max(1, a - 1), min(cap, a + 1) + 1):
            tug[a, b] = tug_marginal(a, b, tie_survive)
    for table in (br, tug):
        table.flags.writeable = False  # cached and shared: read-only
    return {"br_eq": br, "tug_eq": tug}


def tables(p: dict[str, Any]) -> dict[str, Any]:
    """All equilibrium tables for a validated parameter set (cached per distinct input)."""
    eq = p["equilibrium"]
    br = p["glass_bridge"]
    key = (
        float(eq["bridge_field_value"]), float(eq["bridge_push_chance"]),
        br["cracked"] / br["tiles"] / 2,
        p["tug_of_war"]["side_capacity"], p["tug_of_war"]["tie"] == "both_survive",
    )
    out = dict(_other_tables(key))
    out["sq_eq"] = _squid_table(float(eq["squid_move_value"]), float(eq["squid_head_value"]))
    out["rl_best"] = _red_light_table(tuple(sum(1 << n for n in card) for card in p["red_light"]["doll_cards"]),
                                      p["red_light"]["track_length"], p["red_light"]["timer_steps"],
                                      float(eq["red_light_zero_value"]))
    return out
