"""Classic engine vs the pure-Python reference: whole games replayed, random positions compared."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext import clovece as engine
from solver.clovece.strategies import SEATS, STRATEGIES

try:
    from tests.clovece_reference import ClassicReference, replay
except ImportError:  # plain `pytest` puts tests/ itself on sys.path
    from clovece_reference import ClassicReference, replay

MIXES = [
    ("random", "random", "random", "random"),
    ("runner", "hunter", "cautious", "random"),
    ("hunter", "runner", "shortcut", "cautious"),
    ("best", "random", "runner", "hunter"),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mix", MIXES)
def test_engine_games_replay_in_reference(players: int, mix: tuple[str, ...]) -> None:
    seats = list(SEATS[players])
    names = list(mix[:players])
    ids = [STRATEGIES.index(n) for n in names]
    for seed in range(25):
        winner, events = engine.classic_trace(players, seats, ids, seed)
        ref_winner, _ = replay(players, seats, names, events)
        assert winner == ref_winner
        assert winner is not None and winner >= 0


@pytest.mark.parametrize("players", [2, 4])
def test_house_rule_and_random_first_player_replay(players: int) -> None:
    """Three tries again after a 6 that leaves nothing to move, and a random first player."""
    seats = list(SEATS[players])
    names = ["runner", "random", "hunter", "cautious"][:players]
    ids = [STRATEGIES.index(n) for n in names]
    firsts = set()
    for seed in range(40):
        winner, events = engine.classic_trace(players, seats, ids, seed, three_after_six=True,
                                              first_random=True)
        firsts.add(events[0][0])
        assert replay(players, seats, names, events, three_after_six=True, first=events[0][0])[0] == winner
    assert firsts == set(range(players))


def test_three_tries_after_six_differs_from_one_roll() -> None:
    """The house rule is used in real games: some trace breaks the one-roll rule."""
    seats, names = [0, 2], ["runner", "runner"]
    broken = 0
    for seed in range(60):
        _, events = engine.classic_trace(2, seats, [1, 1], seed, three_after_six=True)
        try:
            replay(2, seats, names, events)
        except AssertionError:
            broken += 1
    assert broken > 0


def test_seed_reproducible_and_wins_add_up() -> None:
    a = engine.classic_simulate(4, [0, 1, 2, 3], [0] * 4, 123, 500)
    b = engine.classic_simulate(4, [0, 1, 2, 3], [0] * 4, 123, 500)
    assert (a["wins"] == b["wins"]).all() and a["rolls"] == b["rolls"]
    assert a["wins"].sum() + a["abandoned"] == 500 and a["abandoned"] == 0
    assert a["captures"] == a["captures_made"].sum() == a["pawns_lost"].sum()
    assert list(a["starts"]) == [500, 0, 0, 0] and a["start_wins"][0] == a["wins"][0]
    c = engine.classic_simulate(4, [0, 1, 2, 3], [0] * 4, 123, 2000, first_random=True)
    assert c["starts"].sum() == 2000 and min(c["starts"]) > 400


@st.composite
def positions(draw):
    """A random legal classic position for 2..4 players (no two pawns on a field)."""
    players = draw(st.sampled_from([2, 3, 4]))
    seats = list(SEATS[players])
    used: set[int] = set()
    codes = []
    for p in range(players):
        row = []
        home_used: set[int] = set()
        for _ in range(4):
            c = draw(st.integers(-1, 43))
            if 0 <= c < 40:
                f = (10 * seats[p] + c) % 40
                if f in used:
                    c = -1
                else:
                    used.add(f)
            elif c >= 40:
                if c in home_used:
                    c = -1
                else:
                    home_used.add(c)
            row.append(c)
        codes.append(row)
    player = draw(st.integers(0, players - 1))
    die = draw(st.integers(1, 6))
    strat = draw(st.sampled_from(["runner", "hunter", "cautious", "shortcut"]))
    return players, seats, codes, player, die, strat


@settings(max_examples=400, deadline=None)
@given(positions())
def test_legal_moves_and_choices_match_reference(case) -> None:
    players, seats, codes, player, die, strat = case
    ids = [STRATEGIES.index(strat)] * players
    dests, choice, stuck = engine.classic_position(players, seats, ids, codes, player, die)
    ref = ClassicReference.from_codes(seats, codes)
    legal = ref.legal(player, die)
    assert {k: t for k, t in enumerate(dests) if t != -2} == legal
    assert choice == ref.choose(strat, player, die)
    assert stuck == ref.nothing_can_move(player)


def test_hand_built_rules() -> None:
    # seat 0 pawn 2 fields before its home (steps 38): 6 overshoots, 2 -> home field 0, 5 -> home field 3
    codes = [[38, -1, -1, -1], [-1, -1, -1, -1]]
    dests, _, _ = engine.classic_position(2, [0, 2], [1, 1], codes, 0, 6)
    assert dests[0] == -2 and dests[1] == 0          # waiting pawns may enter on a 6
    dests, _, _ = engine.classic_position(2, [0, 2], [1, 1], codes, 0, 5)
    assert dests == [43, -2, -2, -2]
    # no jumping in the home: a pawn on home field 1 blocks 38 + 4
    codes = [[38, 41, -1, -1], [-1, -1, -1, -1]]
    dests, _, _ = engine.classic_position(2, [0, 2], [1, 1], codes, 0, 4)
    assert dests[0] == -2 and dests[1] == 43 - 0 - 0 - 0 or dests[1] == -2
    # own start field occupied: cannot enter
    codes = [[0, -1, -1, -1], [-1, -1, -1, -1]]
    dests, _, _ = engine.classic_position(2, [0, 2], [1, 1], codes, 0, 6)
    assert dests == [6, -2, -2, -2]
    # hunter captures: opponent (seat 2, steps 0 = field 20) 3 ahead of our pawn at 17
    codes = [[17, 5, -1, -1], [0, -1, -1, -1]]
    _, choice, _ = engine.classic_position(2, [0, 2], [2, 2], codes, 0, 3)
    assert choice == 0
