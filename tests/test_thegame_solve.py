"""The perfect-information solver: against a brute-force solver on tiny decks, lines replayed by the
rules checkers, the bound experiment, and the CLI (solve, bound)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext import thegame as engine
from solver._ext import thegame_solve as csolve
from solver.thegame.bound import BoundExperiment
from solver.thegame.replay import check_lines
from solver.thegame.solve import actions_to_turns, solve
from solver.thegame.strategies import parse_strategy
from solver.thegame.variants import VARIANTS

try:  # pytest puts tests/ on sys.path (rootdir-relative imports also work)
    import thegame_reference as ref
    import thegame_solve_reference as brute
except ImportError:  # pragma: no cover
    from tests import thegame_reference as ref
    from tests import thegame_solve_reference as brute

#: tiny rule sets: (players, hand size, minimum with / without draw pile)
TINY_RULES = [(1, 2, 1, 1), (1, 3, 2, 1), (1, 4, 2, 1), (1, 4, 3, 1), (2, 2, 2, 1), (2, 3, 2, 1),
              (3, 2, 2, 1), (2, 3, 2, 2), (1, 3, 1, 1)]


def tiny_deal(rng: random.Random):
    n = rng.randint(8, 17)
    deck = list(range(2, 2 + n))
    rng.shuffle(deck)
    players, hand, mp, me = rng.choice(TINY_RULES)
    fire = frozenset(rng.sample(deck, 2)) if rng.random() < 0.25 else frozenset()
    jump = rng.choice((10, 10, 3, 4, 5, 7))   # the rules say 10; shorter jumps: more losses
    tops = None
    if rng.random() < 0.8:          # a position: the piles have moved, some cards are played
        mid = 2 + n // 2
        tops = (rng.randint(mid, n + 1), rng.randint(mid, n + 1),
                rng.randint(2, mid), rng.randint(2, mid))
        gone = set(tops) | set(rng.sample(deck, rng.randint(0, 3)))
        deck = [c for c in deck if c not in gone]
    return deck, players, hand, mp, me, fire, jump, tops


def check_tiny(deck, players, hand, mp, me, fire, jump=10, tops=None, accept_order=True):
    expected = brute.min_cards_left(deck, players, hand, mp, me, fire, jump, tops)
    res = csolve.solve_deal(deck, players, hand, mp, me, sorted(fire), tt_bits=10, jump=jump, tops=tops,
                            accept_order=accept_order)
    assert res["status"] == ("win" if expected == 0 else "proven")
    assert res["min_left"] == expected
    won, left = brute.replay_line(deck, players, hand, mp, me, actions_to_turns(res["line"]), fire, jump, tops)
    assert left == expected and won == (expected == 0)
    return expected


@pytest.mark.parametrize("chunk", range(4))
def test_solver_agrees_with_brute_force_on_tiny_decks(chunk):
    """2,000 random tiny deals (8-17 cards, 1-3 players, hands of 2-4, fire cards in a quarter,
    10-jumps or shorter ones): the same fewest cards left, and the line found reaches it legally."""
    rng = random.Random(1000 + chunk)
    results = [check_tiny(*tiny_deal(rng)) for _ in range(500)]
    assert results.count(0) > 50 and sum(r > 0 for r in results) > 50   # both outcomes exercised


def test_skipped_cards_ordering_agrees_with_brute_force():
    """The older move ordering (live cards skipped) is exact too: 300 tiny deals."""
    rng = random.Random(77)
    results = [check_tiny(*tiny_deal(rng), accept_order=False) for _ in range(300)]
    assert results.count(0) > 30 and sum(r > 0 for r in results) > 30


#: the planner's acceptance weights (docs/thegame.md), x10: a live card taken by 0..4 piles
ACCEPT_WEIGHT = (200, 20, 5, 1, 0)


def acceptance_score(tops, live, jump):
    """Sum over live cards of the weight of the number of piles taking it (from the rules)."""
    return sum(ACCEPT_WEIGHT[sum(brute.ok(k, tops[k], v, jump) for k in range(4))] for v in live)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_play_cost_is_the_change_of_the_acceptance_score(seed):
    """The move-ordering cost of a play (O(1) from pile-top segments and popcounts) equals the
    acceptance score after the play minus before it, counted card by card."""
    rng = random.Random(seed)
    jump = rng.choice((10, 10, 3, 5))
    tops = rng.sample(range(1, 101), 4)
    live = set(rng.sample([c for c in range(2, 100) if c not in tops], rng.randint(1, 70)))
    k = rng.randrange(4)
    playable = sorted(c for c in live if brute.ok(k, tops[k], c, jump))
    if not playable:
        return
    card = rng.choice(playable)
    after = list(tops)
    after[k] = card
    rest = live - {card}
    expected = acceptance_score(after, rest, jump) - acceptance_score(tops, rest, jump)
    assert csolve.play_cost(tops, sorted(live), k, card, jump) == expected


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_solver_agrees_with_brute_force_hypothesis(seed):
    check_tiny(*tiny_deal(random.Random(seed)))


def test_cards_2_to_21_small_hands():
    """The deck of the issue's example: cards 2..21, solo with 3 cards, two players with 2."""
    rng = random.Random(7)
    for players, hand in ((1, 3), (2, 2)):
        for _ in range(15):
            deck = list(range(2, 22))
            rng.shuffle(deck)
            check_tiny(deck, players, hand, 2, 1, frozenset())


def test_node_limit_is_reproducible_and_reported():
    deck = engine.shuffled_deck(11)
    a = csolve.solve_deal(deck, 1, 8, 2, 1, node_limit=2000)
    b = csolve.solve_deal(deck, 1, 8, 2, 1, node_limit=2000)
    assert a["status"] == b["status"] == "limit" and a["nodes"] == b["nodes"] and a["line"] is None
    assert a["min_left"] == b["min_left"]


def test_block_decks_are_the_simulation_deals():
    decks = csolve.block_decks(99, 3)
    assert decks[0] == engine.shuffled_deck(99)
    spec = parse_strategy("planner")
    wins = sum(engine.play_deck(2, 2, 1, 0, 0, spec.kind, spec.vector(2), d)[1] for d in decks)
    assert wins == engine.simulate_block(2, 2, 1, 0, 0, spec.kind, spec.vector(2), 99, 3)[0]


@pytest.mark.parametrize("players,variant,seed", [(1, "standard", 7), (3, "standard", 7), (2, "hard", 4),
                                                  (1, "on-fire", 2), (4, "on-fire", 5), (5, "standard", 1)])
def test_full_deck_lines_replay(players, variant, seed):
    """Whatever the solver returns (win, proven or the planner's line at the limit) is a legal,
    complete game for both checkers, at least as good as the planner's."""
    var = VARIANTS[variant]
    sol = solve(engine.shuffled_deck(seed), players, var, node_limit=300_000, seed=seed)
    summary = check_lines(sol.log.jsonl().splitlines())
    assert summary.cards_left == sol.best_left <= sol.planner_left
    assert sol.min_left <= sol.best_left
    won, left = ref.replay(ref.make_rules(players, variant), sol.log.deck, sol.log.turns)
    assert left == sol.best_left and won == (left == 0)
    if sol.status == "win":
        assert won and sol.winnable is True


def test_bound_experiment_is_picklable():
    import pickle

    exp = BoundExperiment(3, "hard", node_limit=1000, time_limit=0)
    assert pickle.loads(pickle.dumps(exp)) == exp


def test_bound_experiment_rows():
    exp = BoundExperiment(2, "standard", node_limit=20_000, time_limit=0)
    tally = exp.simulate(5, 4)
    assert tally == exp.simulate(5, 4)
    (row,) = exp.rows(tally, 4)
    assert row["wins"] + row["unwinnable"] + row["unknown"] == 4
    assert row["planner_wins"] <= row["wins"]        # a planner win is the search's first line
    assert row["strategy"] == "solver:nodes=20000,time=0"
    spec = parse_strategy("planner")
    assert row["planner_wins"] == engine.simulate_block(2, 2, 1, 0, 0, spec.kind, spec.vector(2), 5, 4)[0]


# --------------------------------------------------------------------------- CLI


def cli(args):
    from solver.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    return exc.value.code


def test_cli_solve_writes_a_replayable_log(tmp_path, capsys):
    log = tmp_path / "s.jsonl"
    assert cli(["thegame", "solve", "--players", "3", "--seed", "7", "--node-limit", "100000",
                "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(("winnable", "not winnable", "unknown")) and "turn  1" in out
    assert cli(["thegame", "replay", str(log)]) == 0
    head = json.loads(log.read_text().splitlines()[0])
    assert head["seed"] == 7 and head["deck"] == engine.shuffled_deck(7)
    # the same deal from the log and from the card list
    capsys.readouterr()
    assert cli(["thegame", "solve", "--players", "3", "--from-log", str(log), "--node-limit", "100000"]) == 0
    again = capsys.readouterr().out
    deck = ",".join(map(str, head["deck"]))
    assert cli(["thegame", "solve", "--players", "3", "--deck", deck, "--node-limit", "100000"]) == 0
    assert capsys.readouterr().out.replace(", seed 7", "").split("(")[0] == again.split("(")[0]


def test_cli_bound_table(tmp_path):
    out = tmp_path / "b.csv"
    assert cli(["thegame", "bound", "--players", "1,2", "--games", "4", "--node-limit", "5000",
                "--time-limit", "0", "-j", "1", "-q", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("game,variant,players,seat,strategy,games,wins,win_rate,ci_low,ci_high,")
    assert lines[0].endswith("complete,seed,solver_version")
    assert "unknown_rate" in lines[0] and "planner_win_rate" in lines[0]


@pytest.mark.parametrize("args", [
    ["thegame", "solve", "--seed", "1", "--deck", "2,3"],
    ["thegame", "solve"],
    ["thegame", "solve", "--deck", "2,3,4"],
    ["thegame", "solve", "--deck", "a,b"],
    ["thegame", "solve", "--seed", "1", "--players", "6"],
    ["thegame", "solve", "--seed", "1", "--variant", "easy"],
    ["thegame", "solve", "--from-log", "/nonexistent.jsonl"],
    ["thegame", "bound", "--players", "0-2", "--games", "2", "-q"],
])
def test_cli_solve_bad_input_exit_2(args, capsys):
    assert cli(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("solver: error:") and err.count("\n") == 1
