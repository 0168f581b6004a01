"""The Game: engine vs the pure-Python reference, replay checker, experiment rows and CLI."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver._ext import thegame as engine
from solver.errors import SolverError
from solver.montecarlo.runner import run_experiments
from solver.thegame.experiment import TheGameExperiment
from solver.thegame.play import play_deck, play_seed
from solver.thegame.replay import check_lines
from solver.thegame.strategies import STRATEGIES, parse_strategies, parse_strategy
from solver.thegame.variants import VARIANTS

try:  # pytest puts tests/ on sys.path (rootdir-relative imports also work)
    import thegame_reference as ref
except ImportError:  # pragma: no cover
    from tests import thegame_reference as ref

VARIANT_NAMES = list(VARIANTS)


def engine_game(players: int, variant: str, spec: str, deck: list[int]):
    log = play_deck(players, VARIANTS[variant], parse_strategy(spec), deck)
    return [(p, list(plays)) for p, plays in log.turns], log.win, log.cards_left


def ref_strategy(spec: str, players: int):
    parsed = parse_strategy(spec)
    params = parsed.values(players)
    return lambda s, p: ref.heuristic_turn(s, p, parsed.name, params)


def deck_for(seed: int) -> list[int]:
    deck = list(range(2, 100))
    random.Random(seed).shuffle(deck)
    return deck


# --------------------------------------------------------------------------- legal moves


def test_legal_play_matches_reference_exhaustively():
    for pile in range(4):
        for top in range(1, 101):
            for card in range(2, 100):
                assert engine.legal_play(pile, top, card) == ref.ok(pile, top, card), (pile, top, card)


@settings(max_examples=400, deadline=None)
@given(
    piles=st.tuples(st.integers(1, 99), st.integers(1, 99), st.integers(2, 100), st.integers(2, 100)),
    hand=st.lists(st.integers(2, 99), min_size=0, max_size=8, unique=True),
    need=st.integers(1, 4),
)
def test_can_play_matches_reference(piles, hand, need):
    hand = sorted(hand)
    assert engine.can_play(list(piles), hand, need) == ref.possible(list(piles), hand, need)


@settings(max_examples=200, deadline=None)
@given(top=st.integers(12, 99), pile=st.integers(0, 3))
def test_ten_jumps(top, pile):
    """Exactly 10 backwards is legal on every pile; 9 or 11 backwards is not."""
    back = top - 10 if pile < 2 else top + 10
    if 2 <= back <= 99:
        assert engine.legal_play(pile, top, back)
    for wrong in (back - 1, back + 1) if pile < 2 else (back - 1, back + 1):
        if 2 <= wrong <= 99 and (wrong < top if pile < 2 else wrong > top):
            assert not engine.legal_play(pile, top, wrong)


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("spec", ["greedy", "reach", "reach:reach=3,endgame=9", "signal",
                                  "signal:sig=4,pen=9,reach=2"])
def test_whole_games_match_reference(variant, spec):
    """Same deck + same strategy -> the same turns, result and cards left (5 x 40 seeds)."""
    for players in range(1, 6):
        rules = ref.make_rules(players, variant)
        for seed in range(40):
            deck = deck_for(seed * 7 + players)
            got = engine_game(players, variant, spec, deck)
            want = ref.play(rules, deck, ref_strategy(spec, players))
            assert got == want, (players, seed)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_planner_games_obey_the_rules(variant):
    """Every planner game replays cleanly in the reference and its result is the reference's."""
    for players in range(1, 6):
        rules = ref.make_rules(players, variant)
        for seed in range(60):
            deck = deck_for(1000 + seed * 5 + players)
            turns, win, left = engine_game(players, variant, "planner", deck)
            assert ref.replay(rules, deck, turns) == (win, left)


def test_simulate_block_agrees_with_play_deck():
    """A one-game block plays the deck ``shuffled_deck`` gives and reports the same result."""
    for seed in range(30):
        for spec in ("greedy", "planner"):
            s = parse_strategy(spec)
            wins, hist, _ = engine.simulate_block(2, 2, 1, 0, 0, s.kind, s.vector(2), seed, 1)
            log = play_seed(2, VARIANTS["standard"], s, seed)
            assert wins == int(log.win)
            assert hist[log.cards_left] == 1 and hist.sum() == 1


def test_greedy_plays_exactly_the_minimum():
    for seed in range(20):
        turns, _, _ = engine_game(1, "hard", "greedy", deck_for(seed))
        for _, plays in turns[:5]:
            assert len(plays) == 3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.permutations(list(range(2, 100))), players=st.integers(1, 5),
       variant=st.sampled_from(VARIANT_NAMES), spec=st.sampled_from(list(STRATEGIES)))
def test_any_deck_engine_log_is_legal(deck, players, variant, spec):
    """Random deck orders (incl. empty draw pile, players out of cards, fire cards)."""
    rules = ref.make_rules(players, variant)
    turns, win, left = engine_game(players, variant, spec, list(deck))
    assert ref.replay(rules, list(deck), turns) == (win, left)
    if spec != "planner":
        assert (turns, win, left) == ref.play(rules, list(deck), ref_strategy(spec, players))


# --------------------------------------------------------------------------- replay checker


def reference_log(players: int, variant: str, seed: int) -> list[str]:
    """A random-play game made by the reference, as JSON lines."""
    rules = ref.make_rules(players, variant)
    deck = deck_for(seed)
    rng = random.Random(seed)
    turns, win, left = ref.play(rules, deck, lambda s, p: ref.random_turn(s, p, rng))
    lines = [{"players": players, "hand_size": rules.hand_size, "variant": variant, "strategy": "random",
              "seed": seed, "deck": deck}]
    lines += [{"player": p, "plays": [{"card": c, "pile": k} for c, k in plays]} for p, plays in turns]
    lines.append({"result": "win" if win else "loss", "cards_left": left})
    return [json.dumps(x) for x in lines]


@settings(max_examples=150, deadline=None)
@given(players=st.integers(1, 5), variant=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 10**6))
def test_replay_checker_accepts_reference_games(players, variant, seed):
    lines = reference_log(players, variant, seed)
    summary = check_lines(lines)
    result = json.loads(lines[-1])
    assert summary.win == (result["result"] == "win")
    assert summary.cards_left == result["cards_left"]


def test_fire_loss_detected_on_a_constructed_log():
    """A fire card left on top through the next turn loses; the checker rejects a log going on."""
    deck = [22, 30, 40, 50, 60, 70, 80] + [c for c in range(2, 100) if c not in (22, 30, 40, 50, 60, 70, 80)]
    head = {"players": 2, "hand_size": 7, "variant": "on-fire", "strategy": "x", "seed": 0, "deck": deck}
    hands = [sorted(deck[:7]), sorted(deck[7:14])]
    p1 = hands[1]
    t0 = {"player": 0, "plays": [{"card": 30, "pile": 1}, {"card": 22, "pile": 0}]}
    t1 = {"player": 1, "plays": [{"card": p1[-1], "pile": 2}, {"card": p1[-2], "pile": 2}]}
    lines = [json.dumps(x) for x in (head, t0, t1, {"result": "loss", "cards_left": 94})]
    assert check_lines(lines).win is False
    t2 = {"player": 0, "plays": [{"card": 40, "pile": 1}, {"card": 50, "pile": 1}]}
    bad = [json.dumps(x) for x in (head, t0, t1, t2, {"result": "loss", "cards_left": 92})]
    with pytest.raises(SolverError, match="line 4: .*fire"):
        check_lines(bad)


def engine_log_lines(players=2, variant="standard", spec="reach", seed=5) -> list[dict]:
    log = play_seed(players, VARIANTS[variant], parse_strategy(spec), seed)
    return log.lines()


@pytest.mark.parametrize("mutate,pattern", [
    (lambda L: L[1]["plays"].__setitem__(0, {"card": 1, "pile": 0}), "does not hold"),
    (lambda L: L[1].__setitem__("player", 1), "player 0 is to move"),
    (lambda L: L[1].__setitem__("plays", L[1]["plays"][:1]), "must play at least 2"),
    (lambda L: L[-1].__setitem__("cards_left", L[-1]["cards_left"] + 1), "cards_left"),
    (lambda L: L[0].__setitem__("hand_size", 5), "hand_size"),
    (lambda L: L[0]["deck"].__setitem__(0, L[0]["deck"][1]), "deck"),
    (lambda L: L.pop(), "without a result"),
    (lambda L: L.pop(3), "is to move|does not hold"),
])
def test_replay_rejects_broken_logs(mutate, pattern):
    lines = engine_log_lines()
    check_lines([json.dumps(x) for x in lines])
    mutate(lines)
    with pytest.raises(SolverError, match=pattern):
        check_lines([json.dumps(x) for x in lines])


def test_replay_rejects_illegal_pile_and_false_loss():
    head = engine_log_lines(1, "standard", "greedy", 2)[0]
    hand = sorted(head["deck"][:8])
    assert hand[-1] - hand[0] != 10
    turn = {"player": 0, "plays": [{"card": hand[-1], "pile": 0}, {"card": hand[0], "pile": 0}]}
    with pytest.raises(SolverError, match=f"line 2: turn 1: card {hand[0]} cannot go on ascending pile 0"):
        check_lines([json.dumps(head), json.dumps(turn)])
    # a loss claimed right at the start is false: the first player can always play
    with pytest.raises(SolverError, match="can still play"):
        check_lines([json.dumps(head), json.dumps({"result": "loss", "cards_left": 98})])


def test_hard_variant_needs_three_cards():
    lines = engine_log_lines(3, "hard", "greedy", 9)
    assert all(len(t["plays"]) >= 3 for t in lines[1:6])
    lines[1]["plays"] = lines[1]["plays"][:2]
    with pytest.raises(SolverError, match="at least 3"):
        check_lines([json.dumps(x) for x in lines])


# --------------------------------------------------------------------------- specs, experiment


def test_strategy_specs():
    specs = parse_strategies("greedy,reach:reach=1,endgame=7,planner:w1=2.5")
    assert [s.label for s in specs] == ["greedy", "reach:reach=1,endgame=7", "planner:w1=2.5"]
    assert specs[1].values(3) == {"reach": 1.0, "endgame": 7.0}
    for bad in ("nope", "reach:x=1", "greedy:reach=1", "reach:reach=abc", "reach=1", "reach,,greedy"):
        with pytest.raises(SolverError):
            parse_strategies(bad)


@pytest.mark.parametrize("spec, name, lo, hi", [
    ("signal:pen=2200000000", "pen", "0", "1000"), ("signal:pen=-1", "pen", "0", "1000"),
    ("planner:margin=-5", "margin", "0", "98"), ("planner:w1=inf", "w1", "0", "1000"),
    ("reach:reach=-11", "reach", "-10", "98"), ("planner:extra=nan", "extra", "-100", "100"),
])
def test_strategy_parameters_out_of_range_name_the_range(spec, name, lo, hi):
    with pytest.raises(SolverError, match=rf"parameter {name} of strategy \w+ must be between {lo} and {hi}"):
        parse_strategies(spec)


def test_every_default_is_inside_its_range():
    from solver.thegame.strategies import STRATEGIES

    for stype in STRATEGIES.values():
        assert set(stype.ranges) == set(stype.params)
        for values in (stype.defaults, *stype.by_players.values()):
            for key, value in values.items():
                lo, hi = stype.ranges[key]
                assert lo <= value <= hi, (stype.name, key)


def test_experiment_rows_and_seed_independence():
    exp = TheGameExperiment(2, "reach", "standard")
    one = run_experiments([exp], 600, 7, workers=1, block_size=100)
    again = run_experiments([exp], 600, 7, workers=1, block_size=300)
    row = one.rows()[0]
    assert row["games"] == 600 and row["seat"] == "team" and row["players"] == 2
    assert 0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1
    assert row["share_excellent"] >= row["win_rate"]
    hist = exp.histograms(one.tallies[0])["cards_left"]
    assert hist.sum() == 600 and hist[0] == row["wins"]
    assert np.isclose((hist * np.arange(99)).sum() / 600, row["mean_cards_left"])
    # a different block size changes the seeds of blocks, not the validity; same blocks -> same rows
    same = run_experiments([exp], 600, 7, workers=1, block_size=100)
    assert same.rows()[0]["wins"] == row["wins"]
    assert again.rows()[0]["games"] == 600


def test_experiment_is_picklable():
    import pickle

    exp = TheGameExperiment(3, "signal:pen=4", "on-fire")
    assert pickle.loads(pickle.dumps(exp)) == exp


# --------------------------------------------------------------------------- CLI


def cli(args):
    """Run the real entry point (exit codes as the user sees them)."""
    from solver.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    return exc.value.code


@pytest.mark.parametrize("args", [
    ["thegame", "simulate", "--players", "6", "--games", "10", "-q"],
    ["thegame", "simulate", "--players", "0-2", "--games", "10", "-q"],
    ["thegame", "simulate", "--strategy", "bogus", "--games", "10", "-q"],
    ["thegame", "simulate", "--strategy", "reach:speed=3", "--games", "10", "-q"],
    ["thegame", "simulate", "--variant", "easy", "--games", "10", "-q"],
    ["thegame", "play", "--players", "7"],
    ["thegame", "play", "--strategy", "greedy,reach"],
    ["thegame", "replay", "/nonexistent/file.jsonl"],
])
def test_cli_bad_input_exit_2(args, capsys):
    assert cli(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("solver: error:") and err.count("\n") == 1


def test_cli_simulate_play_replay(tmp_path, capsys):
    out = tmp_path / "t.csv"
    hist = tmp_path / "h.csv"
    assert cli(["thegame", "simulate", "--players", "1,3", "--strategy", "greedy,reach:reach=1,endgame=7",
                "--games", "300", "-j", "1", "-q", "-o", str(out), "--histogram", str(hist)]) == 0
    rows = out.read_text().splitlines()
    assert len(rows) == 5
    assert "mean_cards_left" in rows[0] and "share_excellent" in rows[0]
    assert '"reach:reach=1,endgame=7"' in rows[3]
    assert hist.read_text().startswith("game,variant,players,strategy,histogram,value,count")
    log = tmp_path / "g.jsonl"
    assert cli(["thegame", "play", "--players", "2", "--strategy", "planner", "--seed", "3",
                "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["players"] == 2 and head["hand_size"] == 7 and len(head["deck"]) == 98
    assert json.loads(lines[-1])["result"] in ("win", "loss")
    capsys.readouterr()
    assert cli(["thegame", "replay", str(log)]) == 0
    assert "valid" in capsys.readouterr().out
    broken = tmp_path / "b.jsonl"
    broken.write_text("\n".join(lines[:2]) + "\n{not json\n")
    assert cli(["thegame", "replay", str(broken)]) == 2
    assert "line 3" in capsys.readouterr().err


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_empty_draw_pile_and_players_out_of_cards(seed, players):
    """Once the draw pile is empty one card per turn suffices and players without cards are skipped."""
    deck = deck_for(seed)
    rules = ref.make_rules(players, "standard")
    turns, win, _ = engine_game(players, "standard", "planner", deck)
    s = ref.State.deal(rules, deck)
    p = 0
    for who, plays in turns:
        expected = s.next_player(p)
        assert who == expected and s.hands[who], "a player without cards moved"
        if not s.draw:
            assert len(plays) >= 1
        else:
            assert len(plays) >= 2
        s.apply(who, plays)
        s.turn += 1
        p = (who + 1) % players
    if win:
        assert not s.draw and all(not h for h in s.hands)
