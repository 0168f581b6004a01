"""The ``local`` playout policy of ``mcts`` (answer the opponents' last placements): the engine's
local scores and opening piece filter against the cell-by-cell reference
(tests/evaluation_reference.py) on square and triangle boards, and the move it picks."""

from __future__ import annotations

import random

import pytest
from evaluation_reference import local_cells, local_score, opening_min_size
from test_blokus_evaluation import random_position, reference_board

from solver._ext import blokus as ext
from solver.blokus import evaluation
from solver.blokus.game import Game
from solver.blokus.players import _tables, choose_move, parse_strategy
from solver.blokus.variants import VARIANTS
from solver.errors import SolverError


def recent_placements(game: Game) -> list[tuple[int, tuple]]:
    """The last three placements of the record (setup pieces count), oldest first."""
    return [(m.colour, m.cells) for m in (game.setup + game.moves)[-3:]]


def local_view(game: Game) -> tuple[int, object, set]:
    """For the colour to play: the opponents' bit mask, the reference board and the local cells
    the reference computes from the last three placements."""
    mask = evaluation.opponents_mask(game, game.to_play)
    opponents = [j for j in range(game.variant.n_colours) if mask >> j & 1]
    ref = reference_board(game)
    return mask, ref, local_cells(ref, recent_placements(game), opponents)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_local_scores_match_the_reference(variant):
    checked = nonzero = 0
    for seed in range(6):
        game = random_position(variant, 100 + seed)
        if game.is_over:
            continue
        k = game.to_play
        mask, ref, local = local_view(game)
        moves = game.legal_moves()
        got = game.position.local_scores(k, [m.code for m in moves], mask)
        for m, score in zip(moves, got, strict=True):
            assert score == local_score(ref, k, m.cells, local), (variant, seed, m)
            checked += 1
            nonzero += score > 0
    assert checked > 100 and nonzero > 10


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_filtered_listing_is_the_legal_moves_filtered(variant):
    """The playouts list only some pieces' moves, or only the moves covering some cells (the
    opponents' local cells): the same as listing every legal move and keeping those."""
    rnd = random.Random(7)
    checked = 0
    for seed in range(8):
        game = random_position(variant, 300 + seed)
        if game.is_over:
            continue
        k, v = game.to_play, game.variant
        moves = game.legal_moves()
        index = {p.name: p.index for p in game.pieces.pieces}
        cells = [(x, y) for x in range(v.width) for y in range(v.height)]
        mask, _, local = local_view(game)
        for covering in (set(local), set(rnd.sample(cells, 12)), set(rnd.sample(cells, 60)), None):
            for pieces in (None, set(rnd.sample(range(len(index)), 7))):
                got = game.position.legal_codes(k, pieces=pieces, covering=covering)
                want = [m.code for m in moves
                        if (pieces is None or index[m.piece] in pieces)
                        and (covering is None or covering & set(m.cells))]
                assert sorted(got) == sorted(want), (variant, seed, covering, pieces)
                checked += len(want)
    assert checked > 200
    with pytest.raises(ValueError):
        Game(variant).position.legal_codes(0, covering=[(-1, 0)])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_listing_comes_out_in_ascending_code_order(variant):
    """A move code is (orientation, row, column) and orientations run piece by piece, so the
    listing's order -- by piece, orientation, then anchor (the order the playouts draw from,
    whatever the packing of rows into machine words) -- is ascending code order."""
    rnd = random.Random(11)
    listed = 0
    for seed in range(6):
        game = random_position(variant, 500 + seed)
        v = game.variant
        cells = [(x, y) for x in range(v.width) for y in range(v.height)]
        for k in range(v.n_colours):
            for covering in (None, set(rnd.sample(cells, 20))):
                codes = list(game.position.legal_codes(k, covering=covering))
                assert codes == sorted(set(codes)), (variant, seed, k, covering)
                listed += len(codes)
    assert listed > 100


def scored_duo_positions(first_seed: int, count: int):
    """Random Duo positions with at least 10 placements: (seed, game, opponents' mask, the
    reference's local score of every legal move by code)."""
    for seed in range(count):
        game = random_position("duo", first_seed + seed)
        if game.is_over or len(game.setup + game.moves) < 10:
            continue
        mask, ref, local = local_view(game)
        yield seed, game, mask, {m.code: local_score(ref, game.to_play, m.cells, local) for m in game.legal_moves()}


def draw_counts(game: Game, mask: int, best: list[int], draws: int, seed: int, cap: int = 0) -> dict[int, int]:
    """How often each of ``best`` comes up in ``draws`` local picks (base 2) for the colour to
    play; checks that each is as frequent as its weight 2 ** size says (within 5 sigma) and
    that nothing else comes up."""
    k = game.to_play
    weight = {c: 2 ** len(game.move_from_code(k, c).cells) for c in best}
    counts = {c: 0 for c in best}
    for s in range(draws):
        counts[game.position.local_pick(k, mask, 2, 10_000 * seed + s, cap=cap)] += 1
    for c in best:
        p = weight[c] / sum(weight.values())
        sigma = (draws * p * (1 - p)) ** 0.5
        assert abs(counts[c] - draws * p) < 5 * sigma + 1, (seed, c, counts, weight)
    return counts


def test_the_local_pick_draws_every_best_move_by_its_weight():
    """Among the best-scoring moves the pick is a draw with weight base ** size: every one of
    them comes up, each about as often as its weight says."""
    tested = 0
    for seed, game, mask, scores in scored_duo_positions(500, 40):
        best = [c for c, sc in scores.items() if sc == max(scores.values())]
        if not 2 <= len(best) <= 6:
            continue
        draw_counts(game, mask, best, 1200, seed)
        tested += 1
    assert tested >= 3


def test_a_capped_local_score_lets_the_piece_size_decide_above_the_cap():
    """With ``cap`` (the mcts parameter ``local_cap``) every move scoring at least ``cap`` is a
    candidate, drawn by base ** size; below the cap the best score still decides."""
    tested = 0
    for seed, game, mask, scores in scored_duo_positions(900, 60):
        top = max(scores.values())
        cap = max(1, top - 1)
        best = [c for c, sc in scores.items() if min(sc, cap) == min(top, cap)]
        if not 2 <= len(best) <= 40 or top <= cap:
            continue
        draws = 1500
        counts = draw_counts(game, mask, best, draws, 1000 + seed, cap)
        weight = {c: 2 ** len(game.move_from_code(game.to_play, c).cells) for c in best}
        below = [c for c in best if scores[c] < top]   # the ones only the cap lets in
        p = sum(weight[c] for c in below) / sum(weight.values())
        if draws * p >= 30:
            assert abs(sum(counts[c] for c in below) - draws * p) < 5 * (draws * p * (1 - p)) ** 0.5
            tested += 1
    assert tested >= 3
    with pytest.raises(ValueError):
        Game("duo").position.local_pick(0, 2, 3, 1, cap=21)


@pytest.mark.parametrize(("variant", "rounds"), [
    ("duo", (2, 3, 5)), ("classic", (2, 3, 5)), ("classic-3", (2, 3, 5)), ("trigon-2", (2, 3, 5)),
    ("duo", (3, 5, 7)), ("classic-2", (3, 5, 7)), ("classic-2", (5, 1, 6)), ("duo", (50, 50, 50))])
def test_the_local_pick_is_a_best_scoring_move_of_an_allowed_size(variant, rounds):
    pieces_seen = set()
    for seed in range(12):
        game = Game(variant)
        rnd = random.Random(seed)
        for _ in range(rnd.randrange(0, 25)):
            if game.is_over:
                break
            game.play(rnd.choice(game.legal_moves()))
        if game.is_over:
            continue
        k, v = game.to_play, game.variant
        moves = game.legal_moves()
        if not moves:
            continue
        mask, ref, local = local_view(game)
        placements = len(game.setup) + len(game.moves)
        largest = max(p.size for p in game.pieces.pieces)
        min_size = opening_min_size(placements, v.n_colours, largest, (len(m.cells) for m in moves),
                                    rounds)
        assert game.position.opening_min_size(k, rounds) == min_size
        allowed = [m for m in moves if len(m.cells) >= min_size]
        best = max(local_score(ref, k, m.cells, local) for m in allowed)
        for pick_seed in range(5):
            code = game.position.local_pick(k, mask, 3, pick_seed, rounds)
            move = game.move_from_code(k, code)
            assert len(move.cells) >= min_size
            assert local_score(ref, k, move.cells, local) == best
            pieces_seen.add(move.piece)
    assert len(pieces_seen) > 3          # a draw among equals, not one fixed move


def test_the_local_pick_prefers_big_pieces_among_equals():
    # the first move of Duo: no local cells, every legal move scores 0; pentominoes only
    game = Game("duo")
    sizes = [len(game.move_from_code(0, game.position.local_pick(0, 2, 10, s)).cells) for s in range(50)]
    assert game.position.opening_min_size(0) == 5 and set(sizes) == {5}
    # later, with base 10, a 5-cell piece is ten times as likely as a 4-cell one of equal score
    rnd = random.Random(3)
    for _ in range(14):
        game.play(rnd.choice(game.legal_moves()))
    assert game.position.opening_min_size(game.to_play) == 1
    k = game.to_play
    picks = [game.move_from_code(k, game.position.local_pick(k, evaluation.opponents_mask(game, k), 10, s))
             for s in range(300)]
    assert sum(len(m.cells) == 5 for m in picks) > 200


def test_the_local_policy_is_an_mcts_parameter():
    game = Game("duo")
    assert parse_strategy("mcts:50:local=3").label == "mcts:50:local=3"
    a = choose_move(game, "mcts:300:local=3", seed=5)
    assert a == choose_move(game, "mcts:300:local=3", seed=5)
    with pytest.raises(SolverError):
        parse_strategy("mcts:50:local=2.5")
    with pytest.raises(SolverError):
        parse_strategy("mcts:50:local=11")
    with pytest.raises(ValueError):
        game.position.local_pick(0, 2, 0, 1)
    for bad in ((2, 3), (2, 3, 2.5), (-1, 3, 5)):
        with pytest.raises(ValueError):
            game.position.local_pick(0, 2, 3, 1, bad)
    with pytest.raises(SolverError):
        parse_strategy("mcts:50:big2_rounds=51")


@pytest.mark.parametrize("rounds", [(2, 3, 5), (3, 5, 7)])
def test_the_search_playouts_keep_to_the_rounds_the_strategy_names(rounds):
    """Every playout ply of a classic-2 search from the start plays a piece as big as the
    strategy's ``big_rounds``/``big1_rounds``/``big2_rounds`` ask (replayed on the game, the
    reference rule deciding), with the replies off so that only the policy moves."""
    game = Game("classic-2")
    spec = "mcts:1:lgr=0:big_rounds={}:big1_rounds={}:big2_rounds={}".format(*rounds)
    strategy = parse_strategy(spec).engine_tuple(game.variant)
    searcher = ext.Searcher(game.position, *_tables(game.variant), [strategy] * 2, 0)
    _, sims = searcher.traced_search(game.position, 11, 20)
    largest = max(p.size for p in game.pieces.pieces)
    checked = smaller = 0
    for tree_n, placements in sims:
        replay = Game("classic-2")
        for i, (colour, code) in enumerate(placements[:32]):
            assert replay.to_play == colour, "a playout skipped a colour that has a legal move"
            move = replay.move_from_code(colour, code)
            if i >= tree_n:
                sizes = [len(m.cells) for m in replay.legal_moves()]
                want = opening_min_size(i, 4, largest, sizes, rounds)
                assert len(move.cells) >= want, (rounds, i, move)
                checked += 1
                smaller += 8 <= i < 12 and len(move.cells) < largest
            replay.play(move)
    assert checked > 300
    assert (smaller > 0) == (rounds == (2, 3, 5))   # the third round tells the schedules apart


def test_a_colour_whose_big_pieces_no_longer_fit_still_moves():
    """With the opening's size rule still in force (here for the whole game) but no piece of
    that size fitting, the pick falls back on any piece: a colour with a legal move always
    gets one, local or not."""
    found = 0
    for seed in range(30):
        game, rnd = Game("duo"), random.Random(900 + seed)
        while not game.is_over:
            moves = game.legal_moves()
            if moves and max(len(m.cells) for m in moves) < 5:
                k = game.to_play
                mask = evaluation.opponents_mask(game, k)
                assert game.position.opening_min_size(k, (50, 50, 50)) == 1
                codes = {m.code for m in moves}
                for pick_seed in range(3):
                    assert game.position.local_pick(k, mask, 3, pick_seed, (50, 50, 50)) in codes
                found += 1
            game.play(rnd.choice(moves))
    assert found >= 20


@pytest.mark.parametrize("cramped", [0, 1, 2])
def test_a_cramped_colour_moves_or_leaves_the_playout_as_the_parameter_says(cramped):
    """``cramped`` decides what a colour does in the playouts' opening when none of the
    opening's big pieces fits (here the size rule holds for the whole game): 0, any piece as
    usual; 1, a best local reply with any piece, and if no piece covers a local cell the colour
    has no move (it leaves the playout); 2, no move at once.  Where a big piece fits, the
    parameter changes nothing."""
    rounds = (50, 50, 50)
    cramped_seen = out_seen = fitting_seen = replies_seen = 0
    for seed in range(30):
        game, rnd = Game("duo"), random.Random(900 + seed)
        while not game.is_over:
            moves = game.legal_moves()
            k = game.to_play
            mask, ref, local = local_view(game)
            picks = [game.position.local_pick(k, mask, 3, s, rounds, cramped) for s in range(3)]
            if max(len(m.cells) for m in moves) == 5:      # a big piece fits: as with cramped 0
                assert picks == [game.position.local_pick(k, mask, 3, s, rounds) for s in range(3)]
                fitting_seen += 1
            else:
                cramped_seen += 1
                best = max(local_score(ref, k, m.cells, local) for m in moves)
                if cramped == 0:
                    assert all(code in {m.code for m in moves} for code in picks)
                elif cramped == 1 and best > 0:
                    for code in picks:
                        move = game.move_from_code(k, code)
                        assert local_score(ref, k, move.cells, local) == best
                    replies_seen += 1
                else:
                    assert picks == [-1, -1, -1]
                    out_seen += 1
            game.play(rnd.choice(moves))
    assert cramped_seen >= 20 and fitting_seen >= 100
    assert (out_seen > 0) == (cramped > 0)
    assert (replies_seen > 0) == (cramped == 1)    # rule 1 met both ways: a local reply, or out
    with pytest.raises(ValueError):
        Game("duo").position.local_pick(0, 2, 3, 1, rounds, 3)
    for bad in ("cramped=3", "cramped=0.5", "cramped=-1"):
        with pytest.raises(SolverError):
            parse_strategy(f"mcts:50:{bad}")
