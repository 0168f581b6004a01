"""The move-choice API, the mcts player, the GTP engine (transcripts) and the match runner."""

from __future__ import annotations

import csv
import io
import math
import random
import sys
import time

import numpy as np
import pytest
from blokus_reference import RefPosition

from solver._ext import blokus as ext
from solver.blokus import evaluation
from solver.blokus.game import Game, Move
from solver.blokus.gtp import GtpEngine, final_score_text
from solver.blokus.match import Match, MatchGame, summary
from solver.blokus.players import (
    SEARCH_LIMITS,
    SEARCH_PARAMS,
    STRATEGY_NAMES,
    MctsPlayer,
    TimeBank,
    _tables,
    choose_move,
    engine_players,
    parse_strategy,
    time_share,
)
from solver.blokus.selfplay import SelfPlay
from solver.blokus.variants import VARIANTS, variant_by_name
from solver.cli.main import main
from solver.errors import SolverError

SPECS = ["random", "greedy", "mc:3:2", "mcts:60"]


def run(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def random_position(variant: str, plies: int, seed: int) -> Game:
    g = Game(variant)
    for i in range(plies):
        if g.is_over:
            break
        g.play(choose_move(g, "random", seed=seed * 1000 + i))
    return g


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("spec", SPECS)
def test_every_strategy_plays_a_legal_move_in_every_variant(variant, spec):
    for seed, plies in ((1, 0), (2, 9), (3, 30)):
        g = random_position(variant, plies, seed)
        if g.is_over:
            continue
        m = choose_move(g, spec, seed=seed)
        assert m is not None and m.colour == g.to_play and g.is_legal(m)
        assert m == choose_move(g, spec, seed=seed), "same seed and budget, same move"


def test_choose_move_at_game_over_and_budgets():
    g = random_position("duo", 200, 5)
    assert g.is_over and choose_move(g, "mcts:10") is None
    g = Game("duo")
    assert choose_move(g, "mcts", seconds=0.02) is not None
    with pytest.raises(SolverError):
        choose_move(g, "greedy", seconds=1)
    with pytest.raises(SolverError):
        choose_move(g, "mcts:0")


def test_strategy_specs():
    assert STRATEGY_NAMES == ("random", "greedy", "mc", "mcts")
    s = parse_strategy("MCTS:500:explore=0.2:playout_k=2")
    assert (s.name, s.playouts, dict(s.params)) == ("mcts", 500, {"explore": 0.2, "playout_k": 2.0})
    assert s.label == "mcts:500:explore=0.2:playout_k=2"
    assert len(s.engine_tuple(VARIANTS["duo"])[4]) == len(SEARCH_PARAMS)
    assert set(SEARCH_LIMITS) == set(SEARCH_PARAMS)       # every engine parameter has its bounds
    for key, default in SEARCH_PARAMS.items():
        lo, hi = SEARCH_LIMITS[key]
        assert lo <= default <= hi
        assert parse_strategy(f"mcts:10:{key}={hi}").params == ((key, float(hi)),)
    for bad in ["mcts:x", "mcts:5:nope=1", "mcts:5:explore=-1", "mcts:5:explore=nan", "mcts:99999999999",
                "greedy:1", "mc:1", "bogus", "mcts:5:learned=0.5", "mcts:5:playout_k=2.5", "mcts:5:learned=2"]:
        with pytest.raises(SolverError):
            parse_strategy(bad)


def test_a_key_for_one_seat_applies_to_that_seat_only():
    """``key@SEAT=value`` overrides the variant's default and the spec's key for every seat, in
    that seat only; bad seats are one-line errors."""
    duo, classic = VARIANTS["duo"], VARIANTS["classic"]
    s = parse_strategy("mcts:50:explore=0.4:explore@1=0.9:time_power@0=1")
    assert s.label == "mcts:50:explore=0.4:explore@1=0.9:time_power@0=1"
    assert parse_strategy(s.label) == s
    assert [s.search_values(duo, seat)["explore"] for seat in (None, 0, 1)] == [0.4, 0.4, 0.9]
    assert [s.time_params(duo, seat)["time_power"] for seat in (None, 0, 1)] == [3.0, 1.0, 3.0]
    index = list(SEARCH_PARAMS).index("explore")
    assert [t[4][index] for t in engine_players(duo, [s, s])] == [0.4, 0.9]
    assert [t[4][index] for t in engine_players(classic, [parse_strategy("mcts:9:explore@3=2")] * 4)] == \
        [SEARCH_PARAMS["explore"]] * 3 + [2.0]
    for bad in ["mcts:5:explore@4=1", "mcts:5:explore@x=1", "mcts:5:explore@=1", "mcts:5:explore@1=-1",
                "mcts:5:nope@1=1", "mcts:5:learned@0=0.5"]:
        with pytest.raises(SolverError):
            parse_strategy(bad)
    with pytest.raises(SolverError, match="duo has seats 0 to 1"):
        parse_strategy("mcts:5:explore@2=1").engine_tuple(duo, 0)
    with pytest.raises(SolverError, match="duo has seats 0 to 1"):
        MctsPlayer(duo, "mcts:5:explore@3=1")


def test_each_seat_searches_with_its_own_keys():
    """A search for seat 1 with ``explore@1`` is the search with ``explore`` for every seat, and a
    search for seat 0 is the one without it -- through the move-choice API and the mcts player."""
    g, after = random_position("duo", 6, 5), random_position("duo", 7, 5)
    assert (g.player_of_colour(g.to_play), after.player_of_colour(after.to_play)) == (0, 1)

    def visits(game: Game, spec: str) -> list:
        _, cands, _ = MctsPlayer(game.variant, spec, seed=3, book=False).genmove(game)
        return [(c.move, c.visits) for c in cands]

    for game, seat in ((g, 0), (after, 1)):
        plain, changed = visits(game, "mcts:300"), visits(game, "mcts:300:explore=3")
        assert plain != changed                         # the key matters in this search
        for_seat = visits(game, "mcts:300:explore@1=3")
        assert for_seat == (changed if seat == 1 else plain)
        assert choose_move(game, "mcts:300:explore@1=3", seed=4) == \
            choose_move(game, "mcts:300:explore=3" if seat == 1 else "mcts:300", seed=4)


def test_selfplay_uses_the_same_decisions_as_the_api():
    """The first move of a self-play game is the API's choice with the block's random stream."""
    exp = SelfPlay("duo", strategies=("greedy", "greedy"))
    g = exp.record(11, 1)[0]
    first = Game("duo")
    assert g.moves[0].piece == choose_move(first, "greedy", seed=11).piece


def test_mcts_beats_greedy_and_random_in_selfplay():
    exp = SelfPlay("duo", strategies=("mcts:150", "greedy"))
    rows = exp.rows(exp.simulate(4, 12), 12)
    assert rows[0]["win_rate"] >= 0.75
    exp = SelfPlay("classic-3", strategies=("mcts:40", "random", "random"))
    rows = exp.rows(exp.simulate(5, 4), 4)
    assert rows[0]["win_rate"] >= 0.75


def best_by_evaluation(game: Game) -> Move:
    """The legal move of the colour to play with the highest learned evaluation (the order in
    which the search opens a node's children)."""
    moves = game.legal_moves()
    scores = evaluation.move_values(game, game.to_play, [m.code for m in moves])
    return moves[int(np.argmax(scores))]


def test_mcts_player_tree_reuse_and_threads():
    g = Game("duo")
    for i in range(4):
        g.play(choose_move(g, "greedy", seed=i))
    # two threads in one tree: the playout budget is theirs together
    p = MctsPlayer(g.variant, "mcts:3000", seed=1, threads=2, book=False)
    move, cands, stats = p.genmove(g)
    assert stats["playouts"] == 3000 and not stats["reused"] and g.is_legal(move)
    assert cands[0].move == move and cands[0].visits >= cands[-1].visits
    assert all(0.0 <= c.value <= 1.0 for c in cands)
    # every simulation went through one root child and no update was lost: the statistics are
    # added indivisibly, and what the other thread still adds to a block of children that
    # widening moved is carried over once its simulation has ended
    assert sum(c.visits for c in cands) == 3000
    assert p.tree_problems() == []
    # the shared tree goes on with the game (reused) and with one thread; the reply is the one
    # the learned evaluation ranks first, which every expansion of our move's node opens first
    # (greedy's reply, tried before, was now and then not among the children two threads opened)
    g.play(move)
    g.play(best_by_evaluation(g))
    move, _, stats = p.genmove(g)
    assert stats["reused"] and g.is_legal(move) and p.tree_problems() == []
    g = Game("duo")
    # tree reuse: after our move and a reply that the tree has seen, the subtree is kept
    one = MctsPlayer(g.variant, "mcts:300", seed=1, book=False)
    move, cands, _ = one.genmove(g)
    g.play(move)
    g.play(best_by_evaluation(g))   # the reply every expansion of our move's node opens first
    move2, _, stats2 = one.genmove(g)
    assert stats2["reused"] and g.is_legal(move2)
    g.undo()
    g.play(choose_move(g, "random", seed=5))   # a reply outside the tree: cleared, still legal
    move3, _, stats3 = one.genmove(g)
    assert g.is_legal(move3)


def test_a_shared_tree_loses_no_simulation():
    """Two threads in one tree, many short searches in several variants: the root's children
    count every simulation exactly once, whatever the interleaving, and the tree is sound (no
    node left locked, every block inside the pool).  Before the counters were updated
    indivisibly and a moved block's late updates carried over, about half such searches came
    out a few simulations short."""
    for variant, plies in (("duo", 4), ("duo", 10), ("classic-2", 8), ("classic", 8)):
        for seed in range(6):
            g = random_position(variant, plies, seed)
            p = MctsPlayer(g.variant, "mcts:1500", seed=seed, threads=2, book=False)
            move, cands, stats = p.genmove(g)
            assert stats["playouts"] == 1500 and g.is_legal(move)
            assert sum(c.visits for c in cands) == 1500, (variant, plies, seed)
            assert p.tree_problems() == []


def test_deeper_leaves_wait_for_more_visits_before_they_get_children():
    """``expand_inc``: a leaf at tree depth d is expanded only after ``expand_after`` +
    ``expand_inc`` x d visits (``Searcher.problems`` checks every node of the tree for it), so
    the same budget builds a smaller tree; 0, the default, expands every leaf alike."""
    used = {}
    for variant, inc in (("duo", 0.0), ("duo", 0.5), ("duo", 2.0), ("classic-2", 1.0)):
        g = random_position(variant, 6, 3)
        p = MctsPlayer(g.variant, f"mcts:1500:expand_inc={inc}", seed=1, book=False)
        move, cands, stats = p.genmove(g)
        assert g.is_legal(move) and stats["playouts"] == 1500 and cands
        assert p.tree_problems() == []
        used[variant, inc] = sum(tree.nodes_used for tree in p._trees.values())
        g.play(move)                     # the kept subtree still meets the rule from its new root
        g.play(choose_move(g, "greedy", seed=2))
        move, _, stats = p.genmove(g)
        assert g.is_legal(move) and p.tree_problems() == []
    assert used["duo", 0.0] > used["duo", 0.5] > used["duo", 2.0]
    with pytest.raises(SolverError, match="expand_inc"):
        MctsPlayer(Game("duo").variant, "mcts:100:expand_inc=-1")


def _settled_position(variant: str, seed: int, wanted: int) -> Game:
    """A position whose colour to play has exactly ``wanted`` legal moves (random play until
    one turns up)."""
    rnd = random.Random(seed)
    for _ in range(200):
        g = Game(variant)
        while not g.is_over:
            if len(g.legal_codes(g.to_play)) == wanted:
                return g
            g.play(rnd.choice(g.legal_moves()))
    raise AssertionError(f"no position with {wanted} legal moves")


def test_a_timed_search_stops_once_its_choice_cannot_change():
    """``stop_early``: with a time budget a search ends when the most visited root child leads
    every other by more than ``stop_early`` x the simulations the remaining time allows (with
    1, more simulations could not change the final choice; the default is 0.5), and at once
    where only one move is legal; a playout budget is always spent in full, so seeded searches
    stay as they were."""
    g = _settled_position("duo", 1, 1)
    for stop, settled in ((1.0, True), (0.0, False)):
        p = MctsPlayer(g.variant, f"mcts:stop_early={stop}", seed=1, book=False)
        tree = p._tree_for(g.player_of_colour(g.to_play), p.strategy)
        res = tree.search(g.position, 1, 0, 0.3 if not settled else 30.0)
        assert res["stopped_early"] is settled
        if settled:                      # stopped at its first look (every 32 simulations)
            assert res["playouts"] == 32
    g = random_position("duo", 8, 2)
    played = {}
    for stop in (0.0, 1.0):
        p = MctsPlayer(g.variant, f"mcts:800:stop_early={stop}", seed=3, book=False)
        move, cands, stats = p.genmove(g)
        assert stats["playouts"] == 800 and not stats["stopped_early"]
        played[stop] = (move, [(c.move, c.visits, c.value) for c in cands])
    assert played[0.0] == played[1.0]
    # a two-move position where the search soon rates one move far above the other (with
    # `puct` 0, Duo's default before session 58, which leaves the other move its few visits):
    # the search ends once the leader's lead is out of reach (about half-way)
    g = _settled_position("duo", 2, 2)
    p = MctsPlayer(g.variant, "mcts:stop_early=1:puct=0", seed=1, book=False)
    tree = p._tree_for(g.player_of_colour(g.to_play), p.strategy)
    res = tree.search(g.position, 1, 0, 0.4)
    assert res["stopped_early"]
    (_, _, lead, win, _, _), (_, _, other, loss, _, _) = sorted(res["children"], key=lambda c: -c[2])
    assert lead > other and win > 0.9 > loss
    with pytest.raises(SolverError, match="stop_early"):
        MctsPlayer(g.variant, "mcts:stop_early=2")


def _unsettled_by_the_rule(children: list, prior_n: float) -> bool:
    """The rule of ``extend``, from a search's reported root children (visits without the
    prior's virtual ones, mean values with them): some child with at least a tenth of the most
    visited child's visits has the higher mean value."""
    visits = [c[2] + prior_n for c in children]
    lead = visits.index(max(visits))
    return any(i != lead and v >= 0.1 * visits[lead] and c[3] > children[lead][3]
               for i, (v, c) in enumerate(zip(visits, children, strict=True)))


def test_an_unsettled_choice_is_the_one_the_rule_names():
    """``choice_unsettled`` (what makes ``extend`` search on past the time) agrees with the rule
    read off the root's children, after searches of several sizes in three positions (both
    answers turn up); fixed playout budgets never extend, and without ``extend`` a timed search
    does not either."""
    seen = set()
    for variant, seed in (("duo", 21), ("classic-2", 22), ("duo", 23)):
        g = random_position(variant, seed, 3)
        for playouts in (5, 40, 150, 600):
            p = MctsPlayer(g.variant, f"mcts:{playouts}:extend=1", seed=seed, book=False)
            tree = p._tree_for(g.player_of_colour(g.to_play), p.strategy)
            res = tree.search(g.position, seed, playouts, 0.0)
            want = _unsettled_by_the_rule(res["children"], SEARCH_PARAMS["prior_n"])
            assert tree.choice_unsettled() is want
            assert not res["extended"]
            seen.add(want)
    assert seen == {True, False}
    p = MctsPlayer(g.variant, "mcts", seed=1, book=False)
    tree = p._tree_for(g.player_of_colour(g.to_play), p.strategy)
    assert not tree.search(g.position, 1, 0, 0.02)["extended"]
    with pytest.raises(SolverError, match="extend"):
        MctsPlayer(g.variant, "mcts:extend=11")


def test_the_opening_searches_get_their_share_of_the_time_and_the_bank_the_rest(monkeypatch):
    """``open_moves``/``open_share``: with a mean time per move (the GTP engine's and the match
    runner's clock), a search while fewer than ``open_moves`` placements are on the board gets
    ``open_share`` of it; the time bank hands what those searches left to the later moves.
    classic-2 plays with 12 and 0.25 by default, Duo with neither."""
    for variant, spec, opening, share in (("classic-2", "mcts", 12, 0.25), ("duo", "mcts", 0, 1.0),
                                          ("duo", "mcts:open_moves=2:open_share=0.5", 2, 0.5)):
        g = Game(variant)
        p = MctsPlayer(g.variant, spec, seed=1, book=False, bank_time=True)
        got = []
        real = p._genmove

        def spy(game, k, s, real=real, p=p, got=got):
            bank = p._banks[game.player_of_colour(k)]
            share = time_share(p.strategy.time_params(game.variant),
                               len(game.position.pieces_left(k)) / len(game.pieces.pieces))
            got.append((len(game.moves), s.seconds, bank.budget(share)))
            return real(game, k, s)

        monkeypatch.setattr(p, "_genmove", spy)
        while len(g.moves) < opening + 4:
            move, _, _ = p.genmove(g, seconds=0.02)
            g.play(move)
        for placed, seconds, banked in got:
            if placed < opening:
                assert seconds == 0.02 * share
            else:
                assert seconds == banked
        if share < 1.0:   # the time the opening left over reaches the searches after it
            assert max(banked for placed, _, banked in got if placed >= opening) > 0.02


@pytest.mark.parametrize("power", [0.5, 1.0, 3.0, 5.0])
@pytest.mark.parametrize("end", [0.0, 0.3, 0.6])
def test_a_time_schedule_averages_the_mean_time_over_a_game(power, end):
    """``time_power``/``time_end``: the shares of the mean time per move fall with the pieces
    left as ``left ** time_power`` and average 1 over a game played until ``time_end`` of the
    pieces are left (midpoint rule over 20,000 steps, not the closed form)."""
    spread = {"time_power": power, "time_end": end}
    steps = 20_000
    lefts = [end + (1 - end) * (i + 0.5) / steps for i in range(steps)]
    shares = [time_share(spread, left) for left in lefts]
    assert sum(shares) / steps == pytest.approx(1.0, abs=1e-6)
    assert all(a < b for a, b in zip(shares, shares[1:], strict=False))
    assert time_share({"time_power": 0.0, "time_end": end}, 0.4) == 1.0


def test_the_time_bank_grants_each_move_its_share():
    """A move granted ``share`` x the mean time gets that much plus a quarter of what earlier
    moves left (or minus a quarter of what they overspent, down to a quarter of its grant)."""
    bank = TimeBank(0.01)
    assert bank.budget(2.0) == pytest.approx(0.02)
    bank.record(0.0, 2.0)                            # a book move saves its 0.02 s
    assert bank.budget(0.5) == pytest.approx(0.005 + 0.005)
    bank.record(0.06, 0.5)                           # 0.055 s overspent in all
    assert bank.budget(1.0) == pytest.approx(0.0025)  # the floor: a quarter of the grant
    assert bank.granted == pytest.approx(0.025) and bank.spent == pytest.approx(0.06)


def test_a_time_schedule_gives_the_early_searches_more_of_the_clock(monkeypatch):
    """With ``time_power`` each search's budget is the bank's for the share its colour's pieces
    left give it: more while most pieces are still to place, less near the end."""
    g = Game("duo")
    p = MctsPlayer(g.variant, "mcts:time_power=3", seed=1, book=False, bank_time=True)
    spread = p.strategy.time_params(g.variant)
    got = []
    real = p._genmove

    def spy(game, k, s):
        share = time_share(spread, len(game.position.pieces_left(k)) / len(game.pieces.pieces))
        got.append((share, s.seconds, p._banks[game.player_of_colour(k)].budget(share)))
        return real(game, k, s)

    monkeypatch.setattr(p, "_genmove", spy)
    while len(g.moves) < 8:
        move, _, _ = p.genmove(g, seconds=0.01)
        g.play(move)
    first_share, first_seconds, _ = got[0]
    assert first_share == pytest.approx(time_share(spread, 1.0)) and first_share > 2
    assert first_seconds == pytest.approx(0.01 * first_share)   # the bank is empty at the start
    for _, seconds, banked in got:
        assert seconds == banked
    shares = [share for share, _, _ in got]
    assert shares[0] == shares[1] > shares[2] == shares[3] > shares[4]   # two colours, one piece each
    bank = p._banks[0]
    assert bank.granted == pytest.approx(0.01 * sum(shares[0::2]))


def test_pondering_searches_on_while_the_opponent_thinks():
    g = Game("duo")
    p = MctsPlayer(g.variant, "mcts", seed=1, book=False)
    assert not p.ponder(g, 0)                       # nothing searched yet: nothing to ponder
    assert p.stop_pondering() is None
    move, _, _ = p.genmove(g, seconds=0.05)
    g.play(move)
    assert p.ponder(g, 0) and p.is_pondering        # the opponent to play, our tree searches on
    time.sleep(0.3)
    found = p.stop_pondering()                      # ends at once, its tree kept
    assert not p.is_pondering
    assert found["playouts"] > 0 and p.stop_pondering() is None
    reply_colour, reply_code, reply_visits = max(found["children"], key=lambda c: c[2])[:3]
    assert reply_colour == g.to_play and reply_visits > 0
    g.play(g.move_from_code(reply_colour, reply_code))
    move2, cands, stats = p.genmove(g, playouts=50)
    assert stats["reused"] and stats["playouts"] == 50 and g.is_legal(move2)
    # the subtree pondered below the reply is in the statistics: more than this search's 50
    assert sum(c.visits for c in cands) >= 50 + reply_visits - 2
    g.play(move2)
    assert p.ponder(g, 0)
    p.stop_pondering()


def test_pondering_and_two_threads_share_one_tree():
    g = Game("duo")
    p = MctsPlayer(g.variant, "mcts", seed=1, threads=2, book=False)
    for _ in range(3):
        move, _, stats = p.genmove(g, seconds=0.03)
        g.play(move)
        assert p.ponder(g, 0)
        time.sleep(0.05)
        found = p.stop_pondering()
        reply = max(found["children"], key=lambda c: c[2])
        g.play(g.move_from_code(reply[0], reply[1]))
        assert p.tree_problems() == []
    move, _, stats = p.genmove(g, seconds=0.03)   # two threads search on below the pondered reply
    assert stats["reused"] and g.is_legal(move) and p.tree_problems() == []


def test_pondering_needs_mcts_and_a_time_budget(capsys):
    with pytest.raises(SolverError, match="time budget"):
        GtpEngine("duo", "mcts:100", ponder=True)
    with pytest.raises(SolverError, match="for mcts"):
        GtpEngine("duo", "greedy", ponder=True)
    code, _, err = run(["blokus", "match", "--opponent", "x", "--ponder"], capsys)
    assert code == 2 and "time budget" in err and err.count("\n") == 1


def test_gtp_engine_ponders_between_commands():
    e = GtpEngine("duo", "mcts", seconds=0.02, ponder=True, book=False)
    first = e.handle("genmove b")
    assert first.startswith("= ") and e.player.is_pondering
    reply = e.handle("genmove w")                  # the next command ends the pondering first
    assert reply.startswith("= ")
    assert e.handle("undo") == "=\n\n" and not e.player.is_pondering
    assert e.handle("all_legal w").startswith("= ")
    e.handle("genmove w")
    e.run(iter(["final_score\n", ""]).__next__, lambda text: None)
    assert not e.player.is_pondering                # stopped at the end of input


# ---------------------------------------------------------------- GTP

TRANSCRIPT = [
    ("protocol_version", "= 2"),
    ("name", "= solver"),
    ("known_command genmove", "= true"),
    ("known_command boardsize", "= false"),
    ("set_game Blokus Duo", "="),
    ("play b e10,e9,f9", "="),
    ("play w j5", "="),
    ("3 play b e10", "?3 illegal move e10 for purple: cell e10 is occupied"),
    ("play b a1", "? illegal move a1 for purple: the piece does not touch purple at a corner"),
    ("play q e10", "? invalid color 'q' (this game: B, W)"),
    ("play b", "? usage: play COLOR MOVE"),
    ("play b z99", "? cell 'z99' is not on the 14x14 board"),
    ("final_score", "= B+2"),
    ("undo", "="),
    ("final_score", "= B+3"),
    ("bogus", "? unknown command"),
    ("set_game Blokus Hexagon", "? unsupported game 'Blokus Hexagon' (known: Blokus, Blokus Two-Player, "
                                "Blokus Three-Player, Blokus Duo, Blokus Trigon, Blokus Trigon Two-Player, "
                                "Blokus Trigon Three-Player)"),
    ("clear_board", "="),
    ("final_score", "= 0"),
    ("# a comment", ""),
    ("quit", "="),
]


def test_gtp_transcript():
    e = GtpEngine("duo", "greedy", seed=1)
    for command, expected in TRANSCRIPT:
        assert e.handle(command).rstrip("\n") == expected, command
    assert e.quit


def test_gtp_genmove_all_legal_and_classic_colours():
    e = GtpEngine("classic-2", "mcts:30", seed=1)
    legal = e.handle("all_legal 1")[2:].split()
    assert len(legal) == 58
    reply = e.handle("reg_genmove 1")
    assert reply.startswith("= ") and reply[2:].strip() in legal and len(e.game.moves) == 0
    reply = e.handle("genmove 1")
    assert len(e.game.moves) == 1 and e.game.moves[0].colour == 0
    assert e.handle("genmove 2").startswith("= ") and len(e.game.moves) == 2
    assert "points" in e.handle("showboard")


def test_gtp_loadsgf_savesgf(tmp_path):
    e = GtpEngine("duo", "greedy", seed=1)
    for _ in range(4):
        e.handle("g")
    path = tmp_path / "g.blksgf"
    assert e.handle(f"savesgf {path}").startswith("=")
    f = GtpEngine("classic", "random")
    assert f.handle(f"loadsgf {path}").startswith("=") and len(f.game.moves) == 4
    assert f.handle(f"loadsgf {path} 3").startswith("=") and len(f.game.moves) == 2
    assert f.handle(f"loadsgf {tmp_path / 'missing'}").startswith("? cannot read")
    assert f.handle("loadsgf a\x00b").startswith("? cannot read")   # not an exception out of handle
    assert final_score_text(f.game) == final_score_text(f.game)


def test_gtp_command_reads_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("name\nplay b e10\ngenmove w\nquit\n"))
    code, out, _ = run(["blokus", "gtp", "--variant", "duo", "--strategy", "greedy"], capsys)
    assert code == 0
    answers = out.split("\n\n")
    assert answers[0] == "= solver" and answers[1] == "=" and answers[2].startswith("= ")


# ---------------------------------------------------------------- match runner

OWN_ENGINE = f"{sys.executable} -m solver blokus gtp --variant duo --strategy greedy"


def test_match_against_our_own_engine(tmp_path, capsys):
    out, summ, sgf = tmp_path / "m.csv", tmp_path / "s.csv", tmp_path / "m.blksgf"
    code, _, err = run(["blokus", "match", "--strategy", "mcts:60", "--opponent", OWN_ENGINE, "--games", "2",
                        "-o", str(out), "--summary", str(summ), "--sgf", str(sgf)], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(out.open()))
    assert [r["seat"] for r in rows] == ["0", "1"]
    assert all(r["result"] in ("win", "draw", "loss") and r["note"] == "" for r in rows)
    s = next(csv.DictReader(summ.open()))
    assert s["played"] == "2" and s["not_played"] == "0"
    from solver.blokus.sgf import read_games

    games = read_games(sgf.read_text())
    assert len(games) == 2 and all(g.is_over for g in games)
    for g, r in zip(games, rows, strict=True):
        pts = g.pentobi_points()
        me = int(r["seat"])
        assert int(r["margin"]) == pts[me] - pts[1 - me]


def test_match_at_equal_time_follows_the_opponents_time_per_move(tmp_path, capsys):
    """--equal-time: the first game at --time, each later one at the opponent's mean time per move
    so far divided by the share of its budget our player used per move."""
    m = Match(variant_by_name("duo"), "mcts", OWN_ENGINE, seconds=0.02, equal_time=True)
    games = m.play(3)
    assert [g.result != "not played" for g in games] == [True] * 3
    assert games[0].budget == 0.02
    for k in (1, 2):
        done = games[:k]
        theirs = sum(g.opponent_seconds for g in done) / sum(g.opponent_moves for g in done)
        used_share = sum(g.our_seconds for g in done) / sum(g.budget * g.our_moves for g in done)
        expected = min(max(theirs / used_share, 0.001, 0.02 / 20), 0.02 * 20)
        assert games[k].budget == pytest.approx(expected, rel=1e-9)
    # greedy answers in about a millisecond, far below 0.02 s: the budget has come down
    assert games[2].budget < 0.01
    out = tmp_path / "m.csv"
    code, _, err = run(["blokus", "match", "--strategy", "mcts", "--time", "0.005", "--equal-time",
                        "--opponent", OWN_ENGINE, "--games", "2", "-o", str(out)], capsys)
    assert code == 0, err
    assert [float(r["budget_seconds"]) < 0.006 for r in csv.DictReader(out.open())] == [True, True]
    code, _, err = run(["blokus", "match", "--opponent", OWN_ENGINE, "--equal-time"], capsys)
    assert code == 2 and "--equal-time needs --time" in err and err.count("\n") == 1


def test_match_from_openings_plays_each_opening_with_both_colours(tmp_path, capsys):
    """--openings: games 2i and 2i+1 start from opening i (cycled), our player taking the first
    colour in the even game and the second in the odd one; the opponent is told the opening's
    moves (its play accepts them) and the records begin with them."""
    openings = tmp_path / "open.blksgf"
    openings.write_text("(;GM[Blokus Duo];B[e10,e9,f9];W[j5,j6])\n(;GM[Blokus Duo];B[e10,f10];W[j5])\n")
    out, sgf = tmp_path / "m.csv", tmp_path / "m.blksgf"
    code, _, err = run(["blokus", "match", "--strategy", "greedy", "--opponent", OWN_ENGINE, "--games", "6",
                        "--openings", str(openings), "-o", str(out), "--sgf", str(sgf)], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(out.open()))
    assert [(r["opening"], r["seat"]) for r in rows] == [("1", "0"), ("1", "1"), ("2", "0"), ("2", "1"),
                                                       ("1", "0"), ("1", "1")]
    assert all(r["result"] in ("win", "draw", "loss") and r["note"] == "" for r in rows)
    from solver.blokus.sgf import read_games

    starts = [["e9,f9,e10", "j5,j6"], ["e10,f10", "j5"]]
    for i, g in enumerate(read_games(sgf.read_text())):
        assert g.is_over
        assert [g.move_text(m) for m in g.moves[:2]] == starts[(i // 2) % 2]
        # after the opening both sides made the moves of their own colour: the record's colours
        # alternate as the rules say, so it replays (read_games checked it)
        r = rows[i]
        pts = g.pentobi_points()
        assert int(r["margin"]) == pts[int(r["seat"])] - pts[1 - int(r["seat"])]
    assert int(next(iter(rows))["moves"]) == len(read_games(sgf.read_text())[0].moves)


def test_match_with_one_seat_plays_it_in_every_game(tmp_path, capsys):
    """--seat second: our player moves second in every game, and with --openings game i starts
    from opening i (cycled); the record's root comment and the summary agree."""
    openings = tmp_path / "open.blksgf"
    openings.write_text("(;GM[Blokus Duo];B[e10,e9,f9])\n(;GM[Blokus Duo];B[e10,f10])\n")
    out, summ, sgf = tmp_path / "m.csv", tmp_path / "s.csv", tmp_path / "m.blksgf"
    code, _, err = run(["blokus", "match", "--strategy", "greedy", "--opponent", OWN_ENGINE, "--games", "3",
                        "--seat", "second", "--openings", str(openings), "-o", str(out), "--summary", str(summ),
                        "--sgf", str(sgf)], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(out.open()))
    assert [(r["opening"], r["seat"]) for r in rows] == [("1", "1"), ("2", "1"), ("1", "1")]
    from solver.blokus.match import parse_record_comment
    from solver.blokus.sgf import read_file_games_and_roots

    records = read_file_games_and_roots(str(sgf))
    assert [parse_record_comment(root["GC"][0])[0] for _, root in records] == [1, 1, 1]
    s = next(csv.DictReader(summ.open()))
    assert s["score_first"] in ("", "nan") and float(s["score_second"]) == float(s["score"])
    code, _, err = run(["blokus", "match", "--strategy", "greedy", "--opponent", OWN_ENGINE, "--games", "2",
                        "--seat", "first", "-o", str(out)], capsys)
    assert code == 0, err
    assert [r["seat"] for r in csv.DictReader(out.open())] == ["0", "0"]
    code, _, err = run(["blokus", "match", "--opponent", OWN_ENGINE, "--seat", "third"], capsys)
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize("text, message", [
    ("(;GM[Blokus];1[a20])", "opening 1 is a classic game, not duo"),
    ("(;GM[Blokus Duo]AB[e10])", "opening 1 has setup pieces"),
    ("(;GM[Blokus Duo]PL[W])", "opening 1 sets the colour to play"),
    ("(;GM[Blokus Duo];B[e10];W[zz])", "game 1: move 2"),
    ("", "malformed SGF"),
])
def test_match_refuses_bad_openings(tmp_path, capsys, text, message):
    path = tmp_path / "bad.blksgf"
    path.write_text(text)
    code, _, err = run(["blokus", "match", "--opponent", OWN_ENGINE, "--openings", str(path)], capsys)
    assert code == 2 and message in err and err.count("\n") == 1, err
    code, _, err = run(["blokus", "match", "--opponent", OWN_ENGINE, "--openings", str(tmp_path / "none")], capsys)
    assert code == 2 and "no such file" in err


def test_an_opening_the_opponent_rejects_is_reported_and_not_played(tmp_path):
    # an "engine" that refuses every play command
    fake = tmp_path / "fake.py"
    fake.write_text("import sys\nfor line in sys.stdin:\n"
                    "    print('? illegal move' if line.startswith('play') else '=')\n    print(flush=True)\n")
    opening = Game("duo")
    opening.play("e10,e9,f9")
    m = Match(variant_by_name("duo"), "greedy", f"{sys.executable} {fake}", timeout=20, openings=[opening])
    games = m.play(1)
    assert games[0].result == "not played" and games[0].opening == 0
    assert "the opponent rejected opening 1's move B " in games[0].note and "(move 1)" in games[0].note


def test_match_refuses_a_finished_opening():
    game = random_position("duo", 400, 5)
    assert game.is_over
    with pytest.raises(SolverError, match="opening 1 is a finished game"):
        Match(variant_by_name("duo"), "greedy", OWN_ENGINE, openings=[game])


def test_match_reports_a_broken_opponent_as_not_played(tmp_path):
    # an "engine" that answers every command with an illegal move
    fake = tmp_path / "fake.py"
    fake.write_text("import sys\nfor line in sys.stdin:\n"
                    "    print('= a1,b1' if line.startswith('genmove') else '=')\n    print(flush=True)\n")
    m = Match(variant_by_name("duo"), "greedy", f"{sys.executable} {fake}", timeout=20)
    games = m.play(2)
    assert [g.result for g in games] == ["not played", "not played"]
    assert "is illegal here" in games[0].note and "rejected" not in games[0].note
    assert summary(m, games)["played"] == 0


def test_match_bad_input(capsys):
    code, _, err = run(["blokus", "match", "--opponent", "/nonexistent/engine", "--games", "1"], capsys)
    assert code == 2 and err.startswith("solver: error: cannot start the opponent")
    code, _, err = run(["blokus", "match", "--opponent", "x", "--strategy", "bogus"], capsys)
    assert code == 2 and "unknown strategy" in err
    code, _, err = run(["blokus", "match", "--opponent", "x", "--variant", "classic"], capsys)
    assert code == 2 and err.count("\n") == 1


def test_play_command(tmp_path, capsys):
    path = tmp_path / "g.blksgf"
    path.write_text("(;FF[4]GM[Blokus Duo];B[e10,e9,f9])\n")
    code, out, _ = run(["blokus", "play", str(path), "--strategy", "mcts:100", "--verbose"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("orange ") and lines[2] == "move,piece,visits,value,rave_visits,rave_value"
    g = Game("duo")
    g.play("e10,e9,f9")
    assert g.is_legal(g.move_from_cells(lines[0].split()[1]))
    code, out2, _ = run(["blokus", "play", str(path), "--strategy", "mcts:100"], capsys)
    assert out2.splitlines()[0] == lines[0]
    code, _, err = run(["blokus", "play", str(path), "--strategy", "greedy", "--time", "1"], capsys)
    assert code == 2 and "--time is for mcts" in err
    final = tmp_path / "f.blksgf"
    from solver.blokus.sgf import write_game

    final.write_text(write_game(random_position("duo", 200, 3)))
    code, out, _ = run(["blokus", "play", str(final)], capsys)
    assert code == 0 and out.strip() == "game over: no colour can move"


def test_match_rows_are_csv(tmp_path):
    m = Match(variant_by_name("duo"), "greedy", OWN_ENGINE)
    games = m.play(1)
    from solver.blokus.match import game_rows
    from solver.montecarlo.output import render

    text = render(game_rows(m, games, True))
    assert list(csv.DictReader(io.StringIO(text)))[0]["result"] in ("win", "draw", "loss")


def duo_position_and_hand_set_evaluation(seed: int, plies: int):
    """A Duo position after ``plies`` random moves and the search's hand-set move evaluation
    (``learned=0``: size + w_own x own corners gained + w_taken x the opponent's corners
    covered, docs/blokus.md) for the colour to play, computed from the rules with the reference."""
    game, rnd = Game("duo"), random.Random(seed)
    for _ in range(plies):
        game.play(rnd.choice(game.legal_moves()))
    v = game.variant
    ref = RefPosition(v.width, v.height, v.n_colours, [v.first_cells(k) for k in range(v.n_colours)])
    for m in game.moves:
        ref.play(m.colour, m.piece, m.cells)
    k, w_own, w_taken = game.to_play, SEARCH_PARAMS["w_own"], SEARCH_PARAMS["w_taken"]
    before, opponent = ref.corner_cells(k), ref.corner_cells(1 - k)

    def value(move) -> float:
        after = ref.copy()
        after.play(k, move.piece, move.cells)
        return (len(move.cells) + w_own * len(after.corner_cells(k) - before)
                + w_taken * len(opponent & set(move.cells)))

    return game, value


def root_children(game: Game, spec: str) -> list:
    """The root's children after a one-simulation search with strategy ``spec`` on both sides."""
    strategy = parse_strategy(spec).engine_tuple(game.variant)
    searcher = ext.Searcher(game.position, *_tables(game.variant), [strategy] * 2,
                            game.player_of_colour(game.to_play))
    return searcher.search(game.position, 1, 1, 0.0)["children"]


@pytest.mark.parametrize("seed", [3, 8])
def test_search_orders_moves_by_the_documented_evaluation(seed):
    """The root's children come in the order of the hand-set evaluation."""
    game, value = duo_position_and_hand_set_evaluation(seed, 4 + seed)
    best = max(value(m) for m in game.legal_moves())
    values = [value(game.move_from_code(colour, code)) for colour, code, *_ in
              root_children(game, "mcts:1:learned=0")]
    assert len(values) >= 3
    assert values[0] == pytest.approx(best)
    assert values == sorted(values, reverse=True)


def test_the_tree_grows_its_pool_when_a_later_search_has_a_larger_budget():
    """The node pool is sized for the first search's budget; a time bank (classic-2 gives its
    opening moves a quarter of the time) or a longer search later needs more room, and a search
    in a full pool can no longer expand its nodes.  ``_tree_for`` grows the pool before each
    search, keeping the tree (``Searcher.reserve``)."""
    g = random_position("classic-2", 8, 5)
    p = MctsPlayer(g.variant, "mcts", seed=1, book=False)
    p.genmove(g, playouts=40)
    first = sum(tree.capacity for tree in p._trees.values())
    g.play(choose_move(g, "greedy", seed=1))
    g.play(choose_move(g, "greedy", seed=2))
    move, _, stats = p.genmove(g, playouts=2500)
    assert g.is_legal(move) and stats["playouts"] == 2500
    assert sum(tree.nodes_used for tree in p._trees.values()) > first
    assert p.tree_problems() == []


def test_growing_the_pool_keeps_the_tree_and_changes_no_search():
    """``Searcher.reserve`` moves the pool, not the nodes' indices: a tree grown between two
    searches searches on exactly as one that had the room from the start."""
    g = random_position("duo", 6, 4)
    results = []
    for grow in (False, True):
        players = [parse_strategy("mcts:400").engine_tuple(g.variant)] * 2
        tree = ext.Searcher(g.position, *_tables(g.variant), players, 0, 60_000 if not grow else 2_000)
        first = tree.search(g.position, 7, 60, 0.0)
        if grow:
            tree.reserve(2_100)           # grows at least twofold
            assert tree.capacity == 4_000
            tree.reserve(60_000)
            assert tree.capacity == 60_000
        results.append(repr((first, tree.search(g.position, 8, 400, 0.0), tree.nodes_used)))   # nan-safe
        tree.reserve(10)                  # never shrinks
        assert tree.capacity == 60_000
    assert results[0] == results[1]


@pytest.mark.parametrize("rel", [0.5, 5.0])
def test_prior_rel_scales_the_side_value_by_the_evaluation_gap(rel):
    """With ``prior_rel`` a new child's prior value is the mover's mean simulation value in this
    search (a tie, 0.5, before any simulation) times exp(prior_rel x (its evaluation - the best
    child's)), with the hand-set evaluation computed from the rules."""
    game, value = duo_position_and_hand_set_evaluation(5, 7)
    best = max(value(m) for m in game.legal_moves())
    unvisited = [(value(game.move_from_code(colour, code)), prior)
                 for colour, code, visits, prior, *_ in root_children(game, f"mcts:1:learned=0:prior_rel={rel}")
                 if visits == 0]
    assert len(unvisited) >= 3 and min(e for e, _ in unvisited) < best
    for evaluation_value, prior in unvisited:
        # the engine keeps the evaluation in whole 1/256 steps and the value as a float
        gap = (int(256 * evaluation_value) - int(256 * best)) / 256
        assert prior == pytest.approx(0.5 * np.exp(rel * gap), rel=1e-5)
    # off, the priors run linearly from prior_hi (the best) to prior_lo (the worst)
    priors = [prior for _, _, visits, prior, *_ in root_children(game, "mcts:1:learned=0:prior_rel=0")
              if visits == 0]
    assert max(priors) <= SEARCH_PARAMS["prior_hi"] + 1e-6 and min(priors) >= SEARCH_PARAMS["prior_lo"] - 1e-6


def test_match_summary_scores_each_seat():
    # results written out by hand: as first player a win, a draw and a loss (1.5 of 3), as
    # second a win and two losses (1 of 3); a game not played counts in neither
    m = Match(variant_by_name("duo"), "greedy", "unused-engine")
    games = [MatchGame(0, 0, "win", 80, 70), MatchGame(1, 1, "loss", 60, 70), MatchGame(2, 0, "draw", 70, 70),
             MatchGame(3, 1, "win", 75, 70), MatchGame(4, 0, "loss", 50, 70), MatchGame(5, 1, "loss", 65, 70),
             MatchGame(6, 0, "not played"), MatchGame(7, 1, "not played")]
    s = summary(m, games)
    assert (s["played"], s["wins"], s["draws"], s["losses"]) == (6, 2, 1, 3)
    assert s["score_first"] == pytest.approx(1.5 / 3) and s["score_second"] == pytest.approx(1 / 3)
    assert s["score"] == pytest.approx(2.5 / 6)
    assert math.isnan(summary(m, games[6:])["score_first"])
