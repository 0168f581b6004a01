"""The playouts' last good replies (LGRF-2), checked simulation by simulation against the rule
written out here from its description (Baier and Drake, *The Power of Forgetting*, 2010):

* after a simulation, every placement made by a side that won (a draw counts as a win) is
  stored as that colour's reply to the placement before it, and to the two placements before it;
  a losing side's placement is removed where it is the reply stored for those;
* in a playout, a colour plays its stored reply to the last two placements if that is legal,
  else its reply to the last placement if that is legal, else what the playout policy picks.

The engine's record of its simulations (``Searcher.traced_search``) is replayed on the reference
position of ``blokus_reference``; legality and scores come from there, not from the engine.
"""

from __future__ import annotations

import random

import pytest
from blokus_reference import RefPosition, score

from solver._ext import blokus as ext
from solver.blokus.game import Game
from solver.blokus.players import _tables, parse_strategy


class RefReplies:
    """The last good replies, as dictionaries keyed by (colour, last[, second last]) moves."""

    def __init__(self) -> None:
        self.one: dict = {}
        self.two: dict = {}
        self.touched_one: set = set()   # every key stored or looked at for forgetting
        self.touched_two: set = set()
        self.forgotten = 0

    def reply(self, pos: RefPosition, colour: int, seq: list) -> tuple | None:
        """The stored reply the playout must play for ``colour`` after ``seq``, if any is legal."""
        candidates = []
        if len(seq) >= 2:
            candidates.append(self.two.get((colour, seq[-1], seq[-2])))
        if seq:
            candidates.append(self.one.get((colour, seq[-1])))
        for move in candidates:
            if move is not None and move[0] not in pos.placed[colour] and pos.is_legal(colour, move[1]):
                return move
        return None

    def learn(self, colours: list[int], seq: list, winners: set[int]) -> None:
        for i in range(1, len(seq)):
            k, move = colours[i], seq[i]
            keys = [(self.one, self.touched_one, (k, seq[i - 1]))]
            if i >= 2:
                keys.append((self.two, self.touched_two, (k, seq[i - 1], seq[i - 2])))
            for table, touched, key in keys:
                touched.add(key)
                if k in winners:
                    table[key] = move
                elif table.get(key) == move:
                    del table[key]
                    self.forgotten += 1


def reference_position(game: Game) -> RefPosition:
    v = game.variant
    ref = RefPosition(v.width, v.height, v.n_colours, [v.first_cells(k) for k in range(v.n_colours)])
    for m in game.moves:
        ref.play(m.colour, m.piece, m.cells)
    return ref


def test_playouts_play_the_last_good_replies():
    played = forgotten = checked = 0
    for seed in range(1, 11):
        result = check_replies(seed)
        if result is not None:
            checked += 1
            played += result[0]
            forgotten += result[1]
    assert checked >= 6, "most searches' pairs fit the hash table without a collision"
    assert played > 0, "some playout moves were stored replies"
    assert forgotten > 0, "some replies were forgotten (and the engine forgot them too)"


def check_replies(seed: int) -> tuple[int, int] | None:
    """Replay a 25-simulation search from a random Duo position with the reference; returns
    how many playout moves were stored replies and how many replies were forgotten, or None if
    two of the search's pairs share a slot of the engine's hash table (the table is lossy there:
    it keeps one reply per slot, so the reference's dictionary would not describe it: with a
    few hundred pairs in 65,536 slots such a birthday collision hits about one search in ten)."""
    game, rnd = Game("duo"), random.Random(seed)
    for _ in range(9 + seed):
        game.play(rnd.choice(game.legal_moves()))
    k = game.to_play
    strategy = parse_strategy("mcts:1:lgr=1").engine_tuple(game.variant)
    searcher = ext.Searcher(game.position, *_tables(game.variant), [strategy] * 2, game.player_of_colour(k))
    _, sims = searcher.traced_search(game.position, seed, 25)
    assert len(sims) == 25
    pairs = {(c2, p1, p0) for _, placements in sims for (_, p0), (_, p1), (c2, _) in
             zip(placements, placements[1:], placements[2:], strict=False)}
    if len({searcher.reply_slot(*pair) for pair in pairs}) < len(pairs):
        return None
    replies, start, played, code_of = RefReplies(), reference_position(game), 0, {}
    for tree_n, placements in sims:
        pos, seq, colours = start.copy(), [], []
        for i, (colour, code) in enumerate(placements):
            m = game.move_from_code(colour, code)
            move = (m.piece, frozenset(m.cells))
            code_of[move] = code
            if i >= tree_n:   # the playout: a legal stored reply must be what it plays
                expected = replies.reply(pos, colour, seq)
                if expected is not None:
                    assert move == expected, f"simulation {len(colours)}: not the last good reply"
                    played += 1
            pos.play(colour, m.piece, m.cells)
            seq.append(move)
            colours.append(colour)
        assert not pos.any_move(), "a simulation ends when no colour can move"
        scores = [score(pos, c) for c in range(2)]
        replies.learn(colours, seq, {c for c in range(2) if scores[c] == max(scores)})
    # after the last simulation the engine's tables hold what the reference's hold, forgotten
    # replies included
    assert replies.one and replies.two
    for (colour, last) in replies.touched_one:
        move = replies.one.get((colour, last))
        assert searcher.last_good_reply(colour, code_of[last]) == (code_of[move] if move else -1)
    for (colour, last, second) in replies.touched_two:
        move = replies.two.get((colour, last, second))
        assert searcher.last_good_reply(colour, code_of[last], code_of[second]) == (code_of[move] if move else -1)
    return played, replies.forgotten


def test_without_lgr_no_reply_is_stored():
    game = Game("duo")
    for _ in range(8):
        game.play(random.Random(len(game.moves)).choice(game.legal_moves()))
    strategy = parse_strategy("mcts:1:lgr=0").engine_tuple(game.variant)
    searcher = ext.Searcher(game.position, *_tables(game.variant), [strategy] * 2, game.player_of_colour(game.to_play))
    _, sims = searcher.traced_search(game.position, 3, 30)
    for _, placements in sims:
        for (_, second), (_, last), (colour, _) in zip(placements, placements[1:], placements[2:], strict=False):
            assert searcher.last_good_reply(colour, last) == -1
            assert searcher.last_good_reply(colour, last, second) == -1
    with pytest.raises(ValueError):
        searcher.last_good_reply(0, -5)
    with pytest.raises(ValueError):
        searcher.traced_search(game.position, 1, 0)
