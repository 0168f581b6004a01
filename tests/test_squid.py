"""Squid Game engine: hand-built sub-game situations, reference differential tests, invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext import squid as eng
from solver.squid.params import engine_dict, load_params, with_value

try:  # tests/ may or may not be a package
    import squid_reference as ref
except ImportError:  # pragma: no cover
    from tests import squid_reference as ref

RANDOM, CAREFUL, BOLD, EQ = 0, 1, 2, 3
ENGINE = engine_dict(load_params())
TRACK = ENGINE["rl_len"]


def engine_with(**changes):
    out = dict(ENGINE)
    out.update(changes)
    return out


# ----------------------------------------------------------------------------- red light

def test_red_light_crossed_number_loses_front_token_and_others_move():
    pos, cnt, done = eng.t_red_light_round(ENGINE, [CAREFUL] * 3, [2, 2, 0], [3, 3, 3], [4, 2, 1], 1 << 4)
    assert cnt == [2, 3, 3] and pos == [2, 4, 1] and done == [0, 0, 0]


def test_red_light_crossing_the_finish_line_survives():
    pos, cnt, done = eng.t_red_light_round(ENGINE, [CAREFUL] * 3, [TRACK - 1, 0, 0], [4, 1, 1], [2, 1, 1], 0)
    assert done == [4, 0, 0] and cnt == [0, 1, 1]
    pos, cnt, done = eng.t_red_light_round(ENGINE, [CAREFUL] * 3, [TRACK - 1, 0, 0], [4, 1, 1], [1, 1, 1], 0)
    assert done == [0, 0, 0] and pos[0] == TRACK  # on the last field, not over the line


def test_red_light_zero_pushes_out_a_token_on_the_same_or_next_field():
    # seat 0 stays on field 3 with a 0; seat 1 moves onto field 4, seat 2 onto field 6
    pos, cnt, done = eng.t_red_light_round(ENGINE, [CAREFUL] * 3, [3, 2, 3], [2, 3, 4], [0, 2, 3], 0)
    assert cnt == [2, 2, 4]
    # a crossed-out 0 loses a token and pushes nobody
    pos, cnt, done = eng.t_red_light_round(ENGINE, [CAREFUL] * 3, [3, 3, 3], [2, 3, 4], [0, 1, 1], 1)
    assert cnt == [1, 3, 4]
    # behind the start line nobody pushes
    pos, cnt, done = eng.t_red_light_round(ENGINE, [CAREFUL] * 3, [0, 0, 0], [2, 3, 4], [0, 1, 0], 0)
    assert cnt == [2, 3, 4]


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, TRACK), min_size=n, max_size=n),
    st.lists(st.integers(0, 8), min_size=n, max_size=n),
    st.lists(st.integers(-1, 4), min_size=n, max_size=n),
    st.integers(0, 31))))
def test_red_light_round_matches_reference(case):
    pos, cnt, cards, mask = case
    n = len(pos)
    got = eng.t_red_light_round(ENGINE, [CAREFUL] * n, pos, cnt, cards, mask)
    allowed = ref.red_light_outcomes(TRACK, pos, cnt, cards, {v for v in range(5) if mask >> v & 1})
    assert tuple(map(tuple, got)) in allowed


def test_red_light_careful_counts_cards():
    # only the doll card crossing out 0 and 4 is left: 3 is safe and best
    deck = ENGINE["doll_masks"]
    rem = 1 << deck.index((1 << 0) | (1 << 4))
    assert eng.t_red_light_choice(ENGINE, CAREFUL, 0, rem) == 3
    assert eng.t_red_light_choice(ENGINE, CAREFUL, TRACK, rem) == 1  # one step finishes


# ----------------------------------------------------------------------------- dalgona

SECTIONS = ENGINE["dg_sections"]


def test_dalgona_crack_first_card_hits_an_opponent_later_cards_the_player():
    owners, shapes, secs = [0, 0, 1, 2], [0, 1, 1, 3], [0, 0, 1, 0]
    st_, _ = eng.t_dalgona_turn(ENGINE, [CAREFUL] * 3, 0, owners, shapes, secs, [4, 1, 1], 3)
    assert st_ == [1, 1, 0, 1]  # the most advanced opponent token; the turn ends
    st_, sec = eng.t_dalgona_turn(ENGINE, [CAREFUL] * 3, 0, owners, shapes, secs, [1, 4, 1], 3)
    assert st_[:2].count(0) == 1 and st_[2:] == [1, 1]


def test_dalgona_shape_card_moves_own_token_else_opponent_and_last_section_survives():
    owners, shapes, secs = [0, 1], [0, 2], [SECTIONS[0] - 1, 0]
    st_, sec = eng.t_dalgona_turn(ENGINE, [CAREFUL] * 3, 0, owners, shapes, secs, [0, 2], 2)
    assert st_ == [2, 1] and sec == [SECTIONS[0], 1]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.integers(0, 4), min_size=1, max_size=11),
    st.integers(1, 11), st.integers(0, 3), st.randoms())))
def test_dalgona_turn_matches_reference(case):
    owners, shapes, deck, flips, p, rnd = case
    secs = [rnd.randrange(SECTIONS[s]) for s in shapes]
    got = eng.t_dalgona_turn(ENGINE, [CAREFUL] * 4, p, owners, shapes, secs, deck, flips)
    assert tuple(map(tuple, got)) in ref.dalgona_outcomes(p, owners, shapes, secs, deck, flips, SECTIONS)


# ----------------------------------------------------------------------------- tug of war

def test_tug_outcome_rules():
    assert eng.t_tug_outcome(2, 2, 7, 3, 0, 0) == 1          # higher sum wins
    assert eng.t_tug_outcome(2, 2, 7, 3, 1, 0) == 2          # odd number of zeros: lower wins
    assert eng.t_tug_outcome(2, 2, 7, 3, 2, 0) == 1          # even number of zeros
    assert eng.t_tug_outcome(1, 0, 0, 0, 0, 0) == 3          # unopposed side survives
    assert eng.t_tug_outcome(1, 1, 2, 2, 0, 0) == 0          # tie: both eliminated (default)
    assert eng.t_tug_outcome(1, 1, 2, 2, 0, 1) == 3          # tie: both survive (parameter)


@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 30), st.integers(0, 30), st.integers(0, 10),
       st.booleans())
def test_tug_outcome_matches_reference(nl, nr, sl, sr, z, tie):
    assert eng.t_tug_outcome(nl, nr, sl, sr, z, int(tie)) == ref.tug_outcome(nl, nr, sl, sr, z, tie)


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 12), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n))), st.integers(1, 7), st.integers(0, 2**32))
def test_tug_layout_respects_balance_and_capacity(case, cap, seed):
    active, pols = case
    lay = eng.t_tug_layout(engine_with(tug_cap=cap), pols, active, seed)
    sides = [[sum(lay[b][s]) for s in range(2)] for b in range(3)]
    for b in range(3):
        assert abs(sides[b][0] - sides[b][1]) <= 1 and max(sides[b]) <= cap
    placed = [sum(lay[b][s][p] for b in range(3) for s in range(2)) for p in range(len(active))]
    assert all(x <= a for x, a in zip(placed, active, strict=True))
    if sum(placed) < sum(active):  # tokens are only left out when every side is full
        assert all(x == cap for side in sides for x in side)


def test_tug_no_room_eliminates_and_one_token_per_bridge_fight():
    e = engine_with(tug_cap=1)
    for seed in range(50):
        surv, _, _ = eng.play_subgame(e, [RANDOM] * 3, [4, 4, 0], 2, seed)
        # 6 places for 8 tokens; every bridge is 1 v 1, so at most one side of each survives
        assert sum(surv) <= 3


def test_tug_single_token_unopposed_survives():
    surv, _, _ = eng.play_subgame(ENGINE, [CAREFUL] * 3, [1, 1, 1], 2, 1)
    assert surv == [1, 1, 1]  # careful spreads to the emptiest bridge: three lone tokens


# ----------------------------------------------------------------------------- marbles

def test_marbles_odd_token_out_survives_and_own_pair_loses_one():
    assert eng.play_subgame(ENGINE, [CAREFUL] * 3, [1, 0, 0], 3, 1)[0] == [1, 0, 0]
    assert eng.play_subgame(ENGINE, [CAREFUL] * 3, [2, 0, 0], 3, 1)[0] == [1, 0, 0]
    assert eng.play_subgame(ENGINE, [CAREFUL] * 3, [3, 0, 0], 3, 1)[0] == [2, 0, 0]
    for seed in range(30):
        surv = eng.play_subgame(ENGINE, [CAREFUL, RANDOM, CAREFUL], [1, 1, 0], 3, seed)[0]
        assert sum(surv) == 1  # an odd/even duel: exactly one survives


def test_marbles_line_throw_follows_skill():
    e = engine_with(mb_skill=[4.0, 0.25, 1.0, 1.0, 1.0, 1.0], mb_off=0.0)
    wins = sum(eng.play_subgame(e, [BOLD, BOLD, BOLD], [1, 1, 0], 3, s)[0][0] for s in range(400))
    assert wins > 300


# ----------------------------------------------------------------------------- glass bridge

def test_bridge_part_with_a_crack_kills_a_blind_guess_half_the_time():
    """Part 1 has its left tile cracked: the first token on it guesses blind."""
    died = 0
    for seed in range(400):
        alive, _, states = eng.t_bridge_round(ENGINE, [CAREFUL] * 3, [0, 1, 0, 0], [0, 0, 0, 0], [0], [0],
                                              [1, -1, -1], seed)
        died += alive[0] == 0
        assert states[1] == 1                        # turned over either way
    assert 150 < died < 250


def test_bridge_turned_part_is_safe_for_its_owner_and_deadly_when_pushed():
    # the crack of part 2 is known: a careful seat steps on the intact tile
    for seed in range(50):
        alive, places, _ = eng.t_bridge_round(ENGINE, [CAREFUL] * 3, [0, 0, 2, 0], [0, 1, 1, 0], [0], [1],
                                              [1, -1, -1], seed)
        assert alive == [1] and places == [2]
    # a 0 pushes an opponent sharing part 1 onto the known crack of part 2: the pusher picks the tile
    alive, _, _ = eng.t_bridge_round(ENGINE, [CAREFUL] * 3, [0, 0, 2, 0], [0, 1, 1, 0], [0, 1], [1, 1],
                                     [0, -1, -1])
    assert alive == [1, 0]
    # the next part is known safe: a careful seat does not help the opponent on
    alive, places, _ = eng.t_bridge_round(ENGINE, [CAREFUL] * 3, [0, 0, 0, 0], [0, 1, 1, 0], [0, 1], [1, 1],
                                          [0, -1, -1])
    assert alive == [1, 1] and places == [1, 1]


def test_bridge_intact_part_and_crossing():
    alive, places, states = eng.t_bridge_round(ENGINE, [BOLD] * 3, [0, 0, 0, 1], [0, 0, 0, 0], [0, 1], [0, 1],
                                               [2, 3, -1])
    assert alive == [1, 2] and places[0] == 2 and states[2] == 1


def test_bridge_third_token_pushes_the_earliest_one_on():
    alive, places, _ = eng.t_bridge_round(ENGINE, [BOLD] * 3, [0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [1, 2, 0],
                                          [2, 2, 0], [2, -1, -1])
    assert alive == [1, 1, 1] and places == [3, 2, 2]


def test_bridge_queue_tokens_move_in_the_queue_and_onto_the_bridge():
    # the second and third in line (places -1, -2): a 1 keeps the third in the queue, a 2 brings the
    # second onto part 1
    alive, places, _ = eng.t_bridge_round(ENGINE, [CAREFUL] * 3, [0, 0, 0, 0], [0, 1, 1, 1], [0, 1], [-2, -1],
                                          [1, 2, -1])
    assert alive == [1, 1] and places == [-1, 1]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 2), min_size=n, max_size=n),
    st.lists(st.integers(0, 1), min_size=n, max_size=n),
    st.lists(st.tuples(st.integers(0, 3), st.integers(-4, n)), min_size=1, max_size=12),
    st.lists(st.integers(-1, 4), min_size=4, max_size=4),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
    st.integers(0, 2**32))))
def test_bridge_round_matches_reference(case):
    tiles, states, tokens, cards, pols, seed = case
    tiles, states = [0, *tiles], [0, *states]
    owners = [o for o, _ in tokens]
    places = [p for _, p in tokens]
    if not all(places.count(p) <= 2 for p in places if p >= 1):   # at most two tokens share a part
        return
    got = eng.t_bridge_round(ENGINE, [(RANDOM, CAREFUL, BOLD)[x] for x in pols], tiles, states, owners, places,
                             cards, seed)
    assert tuple(map(tuple, got)) in ref.bridge_outcomes(tiles, states, owners, places, cards)


# ----------------------------------------------------------------------------- squid

ZONES = ["safe", "square", "corridor", "circle", "triangle"]
SQ, CO, CI, TRI = 1, 2, 3, 4
D, S, PU, M = 0, 1, 2, 3


def sq(owners, zones, fields, cards, speed=0, pols=None):
    pols = pols or [CAREFUL] * len(cards)
    return eng.t_squid_round(ENGINE, pols, owners, zones, fields, cards, speed)


def test_squid_stab_defence_push_move():
    alive, *_ = sq([0, 1, 2], [SQ, SQ, SQ], [0, 0, 0], [S, M, D])
    assert alive == [1, 0, 1]                      # the mover is stabbed, the defender is safe
    alive, *_ = sq([0, 1], [SQ, SQ], [0, 0], [S, D, -1])
    assert alive == [0, 1]                         # a stab without a target costs the stabber
    alive, *_ = sq([0, 1], [SQ, SQ], [0, 0], [PU, D, -1])
    assert alive == [1, 0]                         # a push eliminates a defender
    alive, *_ = sq([0, 1], [SQ, SQ], [0, 0], [PU, M, -1])
    assert alive == [1, 1]                         # a push cannot hit a mover
    alive, *_ = sq([0, 1], [SQ, 0], [0, 0], [S, M, -1])
    assert alive == [0, 1]                         # the safe zone cannot be stabbed


def test_squid_stabs_before_pushes_and_speed_order():
    alive, *_ = sq([0, 1], [SQ, SQ], [0, 0], [S, PU, -1])
    assert alive == [1, 0]                         # the pusher is stabbed before it pushes
    # seats 0 and 1 both stab seat 2's single mover; the speed holder strikes first, the other
    # then has no target and loses a token
    alive, *_ = sq([0, 1, 2, 0, 1], [SQ, SQ, SQ, 0, 0], [0] * 5, [S, S, M], speed=1)
    assert alive == [1, 1, 0, 0, 1]
    alive, *_ = sq([0, 1, 2, 0, 1], [SQ, SQ, SQ, 0, 0], [0] * 5, [S, S, M], speed=0)
    assert alive == [1, 1, 0, 1, 0]


def test_squid_triangle_and_head():
    alive, zones, fields, winner, _ = sq([0, 1], [CI, TRI], [0, 3], [M, D, -1])
    assert zones == [TRI, TRI] and fields == [2, 4] and winner == -1
    _, _, fields, _, _ = sq([0, 1], [TRI, TRI], [8, 8], [D, D, -1])
    assert fields == [8, 8]                        # field 8 is the end of the triangle
    *_, winner, _ = sq([0, 1], [TRI, SQ], [8, 0], [M, S, -1], speed=1)
    assert winner == 0                             # the mover from field 8 enters the head


def test_squid_last_survivor_and_speed_passes():
    *_, winner, speed = sq([0, 1, 2], [SQ, SQ, CO], [0, 0, 0], [S, M, D], speed=0)
    assert winner == -1 and speed == 2            # seat 1 is out; the speed token skips it
    *_, winner, _ = sq([0, 1], [SQ, SQ], [0, 0], [S, M, -1])
    assert winner == 0
    *_, winner, _ = sq([0, 1], [SQ, CO], [0, 0], [S, S, -1], speed=0)
    assert winner == 1                             # both lose their last token: seat 1 went last


@settings(max_examples=400, deadline=None)
@given(st.integers(3, 6).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 4), st.integers(1, 8)), min_size=1, max_size=14),
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.integers(0, n - 1),
    st.lists(st.integers(1, 3), min_size=n, max_size=n))))
def test_squid_round_matches_reference(case):
    n, tokens, cards, speed, pols = case
    owners = [o for o, _, _ in tokens]
    zones = [z for _, z, _ in tokens]
    fields = [f if z == TRI else 0 for _, z, f in tokens]
    cards = [c if p in owners else -1 for p, c in enumerate(cards)]
    if speed not in owners:
        speed = owners[0]
    alive, zs, fs, winner, nxt = eng.t_squid_round(ENGINE, pols, owners, zones, fields, cards, speed)
    allowed = ref.squid_outcomes(n, owners, zones, fields, cards, speed, ENGINE["sq_adj"], ENGINE["sq_tri"],
                                 ENGINE["sq_fields"])
    assert (tuple(alive), tuple(zs), tuple(fs), winner, nxt) in allowed


# ----------------------------------------------------------------------------- whole games

def check_game(g, n):
    assert 0 <= g["winner"] < n and g["how"] in (0, 1, 2)
    for p in range(n):
        assert g["enter"][0][p] == 7
        for k in range(6):
            assert 0 <= g["surv"][k][p] <= g["enter"][k][p]          # token counts only fall
            if k:
                assert g["enter"][k][p] == g["surv"][k - 1][p] + 1   # one reserve token joins
        assert g["reserve"][p] + g["active"][p] + g["lost"][p] == 12
        assert g["reserve"][p] == 0 and g["active"][p] == g["surv"][5][p]
    if g["how"] == 0:
        assert g["surv"][5][g["winner"]] >= 1
    elif g["how"] == 1:
        others = [g["surv"][5][p] for p in range(n) if p != g["winner"]]
        assert sum(others) == 0


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_conformance_random_play(n):
    for seed in range(600):  # 600 seeds x 2 games per player count
        for g in eng.trace_games(ENGINE, [RANDOM] * n, 1000 * n + seed, 2):
            check_game(g, n)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 5), st.integers(3, 6).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 12), min_size=n, max_size=n),
                        st.lists(st.integers(0, 3), min_size=n, max_size=n))), st.integers(0, 2**32))
def test_every_sub_game_only_removes_tokens(which, case, seed):
    active, pols = case
    surv, rounds, winner = eng.play_subgame(ENGINE, pols, active, which, seed)
    assert all(0 <= s <= a for s, a in zip(surv, active, strict=True)) and rounds >= 0
    if which == 5 and sum(active):
        assert 0 <= winner < len(active)


def test_conformance_mixed_policies_and_parameters():
    rng = np.random.default_rng(5)
    params = with_value(load_params(), "glass_bridge.cracked", 6)
    params = with_value(params, "tug_of_war.side_capacity", 2)
    e = engine_dict(params)
    for i in range(40):
        n = int(rng.integers(3, 7))
        pols = [int(x) for x in rng.integers(0, 4, size=n)]
        for g in eng.trace_games(e, pols, i, 50):
            check_game(g, n)


def test_simulate_block_agrees_with_trace_and_is_reproducible():
    pols = [EQ, RANDOM, CAREFUL, BOLD]
    tally = eng.simulate_block(ENGINE, pols, 42, 300)
    games = eng.trace_games(ENGINE, pols, 42, 300)
    assert tally["wins"].tolist() == [sum(g["winner"] == p for g in games) for p in range(4)]
    assert tally["surv"].tolist() == [[sum(g["surv"][k][p] for g in games) for p in range(4)] for k in range(6)]
    assert tally["rounds"].tolist() == [sum(g["rounds"][k] for g in games) for k in range(6)]
    again = eng.simulate_block(ENGINE, pols, 42, 300)
    assert all(np.array_equal(tally[k], again[k]) for k in tally)


def test_first_sub_game_never_seen_more_than_seven():
    surv, rounds, _ = eng.play_subgame(ENGINE, [RANDOM] * 3, [7, 7, 7], 0, 3)
    assert all(0 <= s <= 7 for s in surv) and 1 <= rounds <= 7 * ENGINE["rl_timer"]


@pytest.mark.parametrize("which, key", [(0, "rl_timer"), (1, "dg_timer"), (4, "br_timer")])
def test_each_timed_sub_game_has_its_own_timer(which, key):
    """A timer of one step ends that sub-game sooner; the other sub-games keep theirs."""
    short = engine_dict(with_value(load_params(), {0: "red_light", 1: "dalgona", 4: "glass_bridge"}[which]
                                   + ".timer_steps", 1))
    assert short[key] == 1 and all(short[k] == ENGINE[k] for k in ("rl_timer", "dg_timer", "br_timer") if k != key)
    limit = {0: 7, 1: 1, 4: 5}[which]        # rounds per timer step: doll cards, turns, bridge cards
    for seed in range(20):
        _, rounds, _ = eng.play_subgame(short, [CAREFUL] * 4, [7, 7, 7, 7], which, seed)
        assert rounds <= limit


# ----------------------------------------------------------------------------- equilibrium tables

def test_equilibrium_tables_solve_the_small_games():
    from solver.squid.equilibrium import solve_zero_sum, squid_matrix, tug_marginal

    # one token against one: a lone 0 makes the lower sum win, so 0 beats every card
    assert tug_marginal(1, 1, False).round(6).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    # defence / stab / push are rock-paper-scissors; moving while contested is never played
    x, v = solve_zero_sum(squid_matrix(0.3))
    assert np.allclose(x, [1 / 3, 1 / 3, 1 / 3, 0]) and abs(v) < 1e-9
    # a random 3x3 zero-sum game: the solution guarantees its value against every column
    a = np.random.default_rng(1).normal(size=(3, 3))
    x, v = solve_zero_sum(a)
    assert (x @ a >= v - 1e-9).all() and abs(x.sum() - 1) < 1e-9


def test_equilibrium_red_light_uses_the_table():
    rem = 1 << ENGINE["doll_masks"].index((1 << 0) | (1 << 4))
    assert ENGINE["rl_best"][0, rem, 0, 7] == 3        # the only card left crosses out 0 and 4
    for pos, cnt, t in ((0, 7, 0), (5, 3, 1), (11, 1, 2)):
        assert eng.t_red_light_choice(ENGINE, EQ, pos, 127, cnt, t) == ENGINE["rl_best"][t, 127, pos, cnt]
    assert ENGINE["rl_best"][0, 127, 0, 1] > 0           # a lone token still has to move


def brute_red_light(masks, track, steps, t, rem, pos, cnt):
    """Plain recursion for the best expected number of crossing tokens (no pushes)."""
    if cnt == 0:
        return 0.0
    full = (1 << len(masks)) - 1
    best = 0.0
    for n in range(5):
        total = 0.0
        cards = [i for i in range(len(masks)) if rem >> i & 1]
        for i in cards:
            rest, t2 = rem & ~(1 << i), t
            if not rest:
                rest, t2 = full, t + 1
            if masks[i] >> n & 1:
                total += 0.0 if t2 == steps else brute_red_light(masks, track, steps, t2, rest, pos, cnt - 1)
            elif pos + n > track:
                total += cnt
            else:
                total += 0.0 if t2 == steps else brute_red_light(masks, track, steps, t2, rest, pos + n, cnt)
        best = max(best, total / len(cards))
    return best


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), max_size=3, unique=True), min_size=1, max_size=3),
       st.integers(1, 4), st.integers(1, 2))
def test_red_light_programme_matches_plain_recursion(cards, track, steps):
    from solver.squid.equilibrium import red_light_values

    masks = tuple(sum(1 << n for n in card) for card in cards)
    _, value = red_light_values(masks, track, steps, 0.0)
    full = (1 << len(masks)) - 1
    for pos in range(track + 1):
        for cnt in (1, 2):
            want = brute_red_light(masks, track, steps, 0, full, pos, cnt)
            assert value[0, full, pos, cnt] == pytest.approx(want)


def test_squid_zone_payoff_reproduces_the_two_player_matrix_and_n_player_search_converges():
    from solver.squid.equilibrium import squid_matrix, squid_symmetric, squid_zone_payoff

    mat = squid_matrix(0.3)
    for i in range(4):
        for j in range(4):
            avg = (squid_zone_payoff((i, j), 0, 0.3) + squid_zone_payoff((i, j), 1, 0.3)) / 2
            assert avg == pytest.approx(mat[i, j])
    for k in (2, 3):
        sigma, gap = squid_symmetric(k, 0.3, 10.0)
        assert sigma.sum() == pytest.approx(1.0) and gap < 0.01
    assert ENGINE["sq_eq"].shape == (4, 6, 4)


# ----------------------------------------------------------------------------- exact parts: best responses

def brute_best_responses(a: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """What the best pure row gains against y, and the best pure column against x, over x·A·y."""
    v = float(x @ a @ y)
    return float(max(a[i] @ y for i in range(a.shape[0]))) - v, v - float(min(x @ a[:, j] for j in range(a.shape[1])))


def assert_equilibrium(a: np.ndarray) -> None:
    """The LP's row and column strategies are best responses to each other (brute force)."""
    from solver.squid.equilibrium import solve_zero_sum

    x, _ = solve_zero_sum(a)
    y, _ = solve_zero_sum(-a.T)
    row_gain, col_gain = brute_best_responses(a, x, y)
    assert row_gain < 1e-7 and col_gain < 1e-7


@pytest.mark.parametrize("move, head", [(0.3, 10.0), (0.1, 3.0), (1.0, 50.0)])
def test_squid_tables_are_equilibria_of_their_games(move, head):
    """One rival: nobody / both / me / the rival can enter the head -- every table is a mutual
    best response (no pure card gains) of the matching matrix game."""
    from solver.squid.equilibrium import _squid_table, squid_head_matrix, squid_matrix

    table = _squid_table(move, head)
    for a, mine in ((squid_matrix(move), table[0, 1]), (squid_matrix(head), table[3, 1])):
        assert_equilibrium(a)
        assert max(a[i] @ mine for i in range(4)) - min(mine @ a[:, j] for j in range(4)) < 1e-7
    a = squid_head_matrix(move, head)
    assert_equilibrium(a)
    row, rival = table[1, 1], table[2, 1]                 # the head holder, its rival
    gain_row, gain_rival = brute_best_responses(a, row, rival)
    assert gain_row < 1e-7 and gain_rival < 1e-7
    assert rival[1] > 0.5                                  # the rival mostly stabs: only a stab stops it


def test_squid_head_matrix_is_not_symmetric_and_its_rival_differs_from_the_symmetric_game():
    from solver.squid.equilibrium import _squid_table, squid_head_matrix

    a = squid_head_matrix(0.3, 10.0)
    assert not np.allclose(a, -a.T)
    table = _squid_table(0.3, 10.0)
    assert not np.allclose(table[1, 1], table[3, 1]) and not np.allclose(table[2, 1], table[3, 1])


@pytest.mark.parametrize("hand", range(1, 32))
def test_bridge_card_tables_are_equilibria(hand):
    from solver.squid.equilibrium import bridge_matrix

    assert_equilibrium(bridge_matrix(hand, 0.1, 3 / 8, 0.3))


@pytest.mark.parametrize("a, b", [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3)])
def test_tug_team_tables_are_equilibria(a, b):
    from solver.squid.equilibrium import tug_matrix

    assert_equilibrium(tug_matrix(a, b, False)[1])


def test_squid_card_policies_know_who_can_enter_the_head():
    """Equilibrium seats draw from the table of the situation (me / a rival on the last field),
    careful seats move into the head or stab a rival about to enter it."""
    table = ENGINE["sq_eq"]
    owners, zones = [0, 1], [TRI, TRI]
    for fields, row in (([3, 8], 2), ([8, 3], 1), ([3, 4], 0)):
        counts = np.zeros(4)
        for seed in range(2000):
            counts[eng.t_squid_card(ENGINE, [EQ, EQ], owners, zones, fields, 0, seed)] += 1
        assert np.allclose(counts / 2000, table[row, 1], atol=0.04), (fields, counts)
    assert eng.t_squid_card(ENGINE, [CAREFUL, CAREFUL], owners, zones, [3, 8], 0) == S
    assert eng.t_squid_card(ENGINE, [CAREFUL, CAREFUL], owners, zones, [8, 3], 0) == M
