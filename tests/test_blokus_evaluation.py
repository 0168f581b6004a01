"""The learned move evaluation of ``mcts``: the engine's move features against the cell-by-cell
reference (tests/evaluation_reference.py) on square and triangle boards, the search using them,
and the fitting of their weights."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from evaluation_reference import Board, move_features
from trigon_reference import trigon_board

from solver._ext import blokus as _ext
from solver.blokus import evaluation
from solver.blokus.game import Game
from solver.blokus.players import _tables, parse_strategy
from solver.blokus.variants import VARIANTS
from solver.errors import SolverError

SQUARE_NB = (lambda c: [(c[0] - 1, c[1]), (c[0] + 1, c[1]), (c[0], c[1] - 1), (c[0], c[1] + 1)],
             lambda c: [(c[0] + dx, c[1] + dy) for dx in (-1, 1) for dy in (-1, 1)])


def reference_board(game: Game) -> Board:
    v = game.variant
    occupied = {cell: m.colour for m in game.setup + game.moves for cell in m.cells}
    started = [any(m.colour == k for m in game.setup + game.moves) for k in range(v.n_colours)]
    first = [v.first_cells(k) for k in range(v.n_colours)]
    if v.geometry.piece_set == "trigon":
        tb = trigon_board(v.geometry.size)
        return Board(tb.on_board, tb.edge_neighbours, tb.corner_neighbours, occupied, started, first)
    return Board(lambda c: 0 <= c[0] < v.width and 0 <= c[1] < v.height, *SQUARE_NB, occupied, started, first)


def random_position(variant: str, seed: int) -> Game:
    game, rnd = Game(variant), random.Random(seed)
    for _ in range(rnd.randrange(0, 40)):
        if game.is_over:
            break
        game.play(rnd.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_move_features_match_the_reference(variant):
    checked = 0
    for seed in range(4):
        game = random_position(variant, seed)
        if game.is_over:
            continue
        k = game.to_play
        mask = evaluation.opponents_mask(game, k)
        moves = game.legal_moves()
        got = game.position.move_features(k, [m.code for m in moves], mask)
        ref = reference_board(game)
        opponents = [j for j in range(game.variant.n_colours) if mask >> j & 1]
        for m, row in zip(moves, got, strict=True):
            assert list(row) == move_features(ref, k, m.cells, opponents), (variant, seed, m)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("variant", ["classic-2", "duo"])
def test_partner_features_count_only_where_a_side_has_two_colours(variant):
    """classic-2's blue and red are partners: their moves touch and take each other's cells in
    some positions; Duo's two colours never are (the features stay 0)."""
    index = [evaluation.FEATURES.index("partner_touch"), evaluation.FEATURES.index("partner_attach")]
    totals = np.zeros(2, dtype=np.int64)
    for seed in range(6):
        game, rnd = Game(variant), random.Random(seed)
        while len(game.moves) < 12 * game.variant.n_colours and not game.is_over:   # late: colours meet
            game.play(rnd.choice(game.legal_moves()))
        if game.is_over:
            continue
        k = game.to_play
        codes = [m.code for m in game.legal_moves()]
        totals += game.position.move_features(k, codes, evaluation.opponents_mask(game, k))[:, index].sum(axis=0)
    assert (totals > 0).all() if variant == "classic-2" else (totals == 0).all()


def test_feature_names_are_the_engines_and_the_weights_name_only_them():
    assert evaluation.FEATURES == tuple(_ext.EVAL_FEATURES)
    data = json.loads(evaluation.WEIGHTS_FILE.read_text())
    assert set(data["weights"]) == {"duo", "classic", "trigon"}
    for weights in data["weights"].values():
        assert set(weights) <= set(evaluation.FEATURES)
    assert set(data.get("pieces", {})) <= set(data["weights"])
    for name, v in VARIANTS.items():
        pieces = evaluation.piece_names(v)
        assert pieces == tuple(p.name for p in Game(v).pieces.pieces)
        assert set(data.get("pieces", {}).get(evaluation.family(v), {})) <= set(pieces), name
        assert len(evaluation.weights_for(v)) == len(evaluation.FEATURES) + len(pieces), name


def test_a_piece_weight_alone_orders_the_search_by_piece():
    """Feature weights 0 and one piece weighted: the root's first children are that piece's moves,
    and the engine refuses more weights than features and pieces."""
    game = Game("duo")
    v = game.variant
    weights = [0.0] * len(evaluation.FEATURES) + [0.0] * len(evaluation.piece_names(v))
    weights[len(evaluation.FEATURES) + evaluation.piece_names(v).index("X")] = 3.0
    strategy = parse_strategy("mcts:1:learned=1").engine_tuple(v)[:5] + (weights,)
    searcher = _ext.Searcher(game.position, *_tables(v), [strategy] * v.n_players, 0)
    children = searcher.search(game.position, 1, 1, 0.0)["children"]
    assert children and all(game.move_from_code(c, code).piece == "X" for c, code, *_ in children)
    too_many = parse_strategy("mcts:1:learned=1").engine_tuple(v)[:5] + (weights + [0.0] * 30,)
    with pytest.raises(ValueError, match="piece weights"):
        _ext.Searcher(game.position, *_tables(v), [too_many] * v.n_players, 0)


def test_illegal_codes_are_refused():
    game = Game("duo")
    with pytest.raises(ValueError):
        game.position.move_features(0, [0], 2)


def test_learned_search_with_the_simple_weights_plays_the_simple_search():
    """In Duo (one opponent colour, so "taken" means the same in both) weights that spell out the
    simple evaluation size + w_own x gained + w_taken x taken give the same search, move for move."""
    weights = [0.0] * len(evaluation.FEATURES)
    for size in range(1, 7):
        weights[evaluation.FEATURES.index(f"size{size}")] = size
    weights[evaluation.FEATURES.index("taken")] = 3
    weights[evaluation.FEATURES.index("new_attach")] = 0.5
    game = Game("duo")
    v = game.variant
    for ply in range(10):
        k = game.to_play
        simple = parse_strategy("mcts:200:learned=0:w_own=0.5:w_taken=3").engine_tuple(v)
        learned = parse_strategy("mcts:200:learned=1").engine_tuple(v)[:5] + (weights,)
        a = _ext.choose(game.position, k, *_tables(v), [simple] * 2, ply)
        b = _ext.choose(game.position, k, *_tables(v), [learned] * 2, ply)
        assert a == b, ply
        game.play(game.move_from_code(k, a))


def test_fit_recovers_the_weights_that_made_the_choices():
    """Choices drawn from softmax(features @ w) give back w (up to sampling noise)."""
    rng = np.random.default_rng(5)
    true = np.array([1.5, -1.0, 0.5])
    feats, rows, chosen = [], [0], []
    for _ in range(3000):
        n = int(rng.integers(2, 30))
        x = rng.integers(0, 5, size=(n, 3))
        p = np.exp(x @ true)
        p /= p.sum()
        feats.append(x)
        chosen.append(int(rng.choice(n, p=p)))
        rows.append(rows[-1] + n)
    corpus = evaluation.Corpus(np.concatenate(feats).astype(np.int16), np.array(rows), np.array(chosen))
    w = evaluation.fit(corpus, l2=0.0)
    assert np.allclose(w, true, atol=0.12), w
    assert evaluation.log_likelihood(corpus, w)[0] > evaluation.log_likelihood(corpus, true * 0.5)[0]


def test_fit_with_piece_columns_recovers_the_piece_preferences():
    """Choices drawn with a feature weight and a weight per piece: ``design`` adds one column per
    piece, and the fit gives back both (the piece weights up to a common shift: only differences
    between the moves of one decision are seen, so they are compared centred)."""
    rng = np.random.default_rng(6)
    true_w, true_p = 0.8, np.array([1.0, 0.0, -1.0, 0.5])
    feats, pieces, rows, chosen = [], [], [0], []
    for _ in range(3000):
        n = int(rng.integers(2, 20))
        x = rng.integers(0, 4, size=(n, 1))
        pc = rng.integers(0, 4, size=n)
        z = true_w * x[:, 0] + true_p[pc]
        p = np.exp(z - z.max())
        p /= p.sum()
        feats.append(x)
        pieces.append(pc)
        chosen.append(int(rng.choice(n, p=p)))
        rows.append(rows[-1] + n)
    base = evaluation.Corpus(np.concatenate(feats).astype(np.int16), np.array(rows), np.array(chosen))
    corpus = evaluation.design(base, np.concatenate(pieces), 4)
    assert corpus.features.shape == (rows[-1], 5) and (corpus.features[:, 1:].sum(axis=1) == 1).all()
    w = evaluation.fit(corpus, l2=0.0)
    assert abs(w[0] - true_w) < 0.12, w
    assert np.allclose(w[1:] - w[1:].mean(), true_p - true_p.mean(), atol=0.15), w


def test_corpus_from_self_play_and_merge():
    c, pieces = evaluation.make_corpus(VARIANTS["duo"], 1, "mcts:30", seed=2)
    assert len(c) > 20 and c.features.shape == (c.rows[-1], len(evaluation.FEATURES))
    assert all(0 <= c.chosen[i] < c.rows[i + 1] - c.rows[i] for i in range(len(c)))
    # the piece index of each move: its size agrees with the one-hot size feature
    sizes = np.array([p.size for p in Game("duo").pieces.pieces])
    assert pieces.shape == (c.rows[-1],)
    assert (c.features[np.arange(len(pieces)), sizes[pieces] - 1] == 1).all()
    both = evaluation.merge([c, c])
    assert len(both) == 2 * len(c) and both.rows[-1] == 2 * c.rows[-1]


def test_corpus_leaves_out_the_decisions_the_opening_rules_make():
    """classic-2's teacher looks only at central, then partner-touching moves for the first 14
    placements: those decisions are not in the corpus (without the rules, the first one is)."""
    first = len(Game("classic-2").legal_codes(0))
    free, _ = evaluation.make_corpus(VARIANTS["classic-2"], 1, "mcts:20:centre_moves=0:connect_moves=0", seed=2)
    ruled, _ = evaluation.make_corpus(VARIANTS["classic-2"], 1, "mcts:20", seed=2)
    assert free.rows[1] == first
    assert ruled.rows[1] != first and len(ruled) <= 4 * 21 - 14


def test_corpus_from_records_holds_every_recorded_choice(tmp_path):
    """A record's every move among several legal ones is a decision: all the mover's legal moves
    (the reference's features, in any order), the recorded move the chosen one; single-move
    turns teach nothing and are left out."""
    from solver.blokus.sgf import read_file_games, write_games

    rnd, game = random.Random(11), Game("duo")
    while not game.is_over:
        game.play(rnd.choice(game.legal_moves()))
    path = tmp_path / "records.blksgf"
    path.write_text(write_games([(game, "one", ""), (game, "two", "")]))
    corpus, pieces = evaluation.records_corpus(VARIANTS["duo"], read_file_games(str(path)))
    replay, i = Game("duo"), 0
    for move in game.moves:
        legal = replay.legal_moves(move.colour)
        if len(legal) > 1:
            a, b = corpus.rows[i], corpus.rows[i + 1]
            ref = reference_board(replay)
            mask = evaluation.opponents_mask(replay, move.colour)
            opponents = [j for j in range(2) if mask >> j & 1]
            want = sorted(tuple(move_features(ref, move.colour, m.cells, opponents)) for m in legal)
            assert sorted(map(tuple, corpus.features[a:b].tolist())) == want
            assert list(corpus.features[a + corpus.chosen[i]]) == list(
                move_features(ref, move.colour, move.cells, opponents))
            i += 1
        replay.play(move)
    assert 0 < i < len(game.moves) + 1 and len(corpus) == 2 * i and len(pieces) == corpus.rows[-1]
    with pytest.raises(SolverError, match="not a classic-2 game"):
        evaluation.records_corpus(VARIANTS["classic-2"], [game])


def test_learning_from_records_command(tmp_path, capsys):
    """``--records`` fits to recorded games (here 20 random ones, two blocks, one held out) and
    refuses a mix with a teacher, a missing file and a file without games in one line each."""
    from solver.blokus.sgf import write_games

    rnd, games = random.Random(12), []
    for _ in range(20):
        game = Game("duo")
        while not game.is_over and len(game.moves) < 12:
            game.play(rnd.choice(game.legal_moves()))
        games.append((game, "", ""))
    path = tmp_path / "records.blksgf"
    path.write_text(write_games(games))
    before = evaluation.WEIGHTS_FILE.read_text()
    assert evaluation.main(["duo", "--records", str(path), "--holdout", "1"]) == 0
    stats = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert stats["decisions"] + stats["holdout_decisions"] == sum(len(g.moves) for g, _, _ in games)
    assert evaluation.WEIGHTS_FILE.read_text() == before
    (tmp_path / "empty.blksgf").write_text("")
    for argv in (["duo", "3", "--records", str(path)], ["duo"], ["duo", "--records", str(tmp_path / "nope")],
                 ["duo", "--records", str(tmp_path / "empty.blksgf")]):
        assert evaluation.main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, err


def reference_values(game: Game) -> dict[tuple, float]:
    """The learned evaluation of every legal move of the colour to play (by its cells): the
    family's weights times the features the reference computes, plus the piece's weight."""
    k, v = game.to_play, game.variant
    weights = np.array(evaluation.weights_for(v))
    n_features = len(evaluation.FEATURES)
    piece_weight = dict(zip(evaluation.piece_names(v), weights[n_features:], strict=True))
    ref = reference_board(game)
    mask = evaluation.opponents_mask(game, k)
    opponents = [j for j in range(v.n_colours) if mask >> j & 1]
    return {m.cells: float(weights[:n_features] @ np.array(move_features(ref, k, m.cells, opponents))
                           + piece_weight[m.piece]) for m in game.legal_moves()}


@pytest.mark.parametrize("variant,seed", [("duo", 3), ("classic-2", 4), ("trigon-2", 5)])
def test_learned_search_orders_children_by_the_weighted_reference_features(variant, seed):
    """With ``learned`` the root's children come best first by the family's weights times the
    features the reference computes (keys are kept to 1/256, so near-ties may swap)."""
    game = random_position(variant, seed)
    k, v = game.to_play, game.variant
    by_cells = reference_values(game)
    best = max(by_cells.values())
    strategy = parse_strategy("mcts:1:learned=1").engine_tuple(v)
    searcher = _ext.Searcher(game.position, *_tables(v), [strategy] * v.n_players, game.player_of_colour(k))
    children = searcher.search(game.position, 1, 1, 0.0)["children"]
    values = [by_cells[game.move_from_code(colour, code).cells] for colour, code, *_ in children]
    assert len(values) >= 3
    assert values[0] == pytest.approx(best, abs=1 / 128)
    assert all(a >= b - 1 / 128 for a, b in zip(values, values[1:], strict=False))


def test_learning_command_dry_run_and_bad_arguments(capsys):
    before = evaluation.WEIGHTS_FILE.read_text()
    assert evaluation.main(["duo", "1", "mcts:20", "3", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in evaluation.FEATURES) and '"decisions"' in out
    assert evaluation.WEIGHTS_FILE.read_text() == before
    assert evaluation.main(["duo", "0", "mcts", "1"]) == 2
    assert evaluation.main(["duo", "1", "greedy", "1"]) == 2
    assert evaluation.main(["duo", "1", "mcts:5:zz=1", "1"]) == 2
    assert "unknown mcts parameter" in capsys.readouterr().err
    assert evaluation.main(["duo", "20", "mcts:5", "1", "--holdout", "2"]) == 2
    assert "--holdout must leave" in capsys.readouterr().err


def test_holdout_splits_the_same_corpus_and_saves_nothing(capsys):
    """With ``--holdout`` the fit and the held-out games partition the corpus the plain fit uses,
    the shipped weights are scored on the held-out games, and the weights file stays as it is."""
    before = evaluation.WEIGHTS_FILE.read_text()
    _, whole = evaluation.learn("duo", 20, "mcts:10", 5)
    _, split = evaluation.learn("duo", 20, "mcts:10", 5, holdout=1)
    assert split["decisions"] + split["holdout_decisions"] == whole["decisions"]
    assert 0 < split["holdout_decisions"] < whole["decisions"]
    for key in ("holdout_log_likelihood", "shipped_holdout_log_likelihood"):
        assert split[key] < 0
    assert 0 <= split["holdout_top1"] <= 1 and 0 <= split["shipped_holdout_top1"] <= 1
    assert evaluation.main(["duo", "20", "mcts:10", "5", "--holdout", "1"]) == 0
    assert '"shipped_holdout_log_likelihood"' in capsys.readouterr().out
    assert evaluation.WEIGHTS_FILE.read_text() == before


@pytest.mark.parametrize("variant,seed", [("duo", 3), ("classic-2", 4), ("trigon-2", 5)])
def test_puct_priors_are_the_softmax_of_the_reference_evaluation(variant, seed):
    """With ``puct`` each root child carries P = exp(e) / sum of exp(e') over every legal move,
    e the family's weights times the reference's features (the fitted model's own probability
    of the move; keys are kept to 1/256, hence the tolerance)."""
    game = random_position(variant, seed)
    k, v = game.to_play, game.variant
    values = reference_values(game)
    top = max(values.values())
    total = sum(math.exp(e - top) for e in values.values())
    strategy = parse_strategy("mcts:1:puct=0.5").engine_tuple(v)
    searcher = _ext.Searcher(game.position, *_tables(v), [strategy] * v.n_players, game.player_of_colour(k))
    res = searcher.search(game.position, 1, 300, 0.0)
    assert len(res["children"]) >= 3
    for (colour, code, *_), prior in zip(res["children"], res["priors"], strict=True):
        expected = math.exp(values[game.move_from_code(colour, code).cells] - top) / total
        assert prior == pytest.approx(expected, rel=0.02, abs=1e-7)
    off = _ext.Searcher(game.position, *_tables(v), [parse_strategy("mcts:1:puct=0").engine_tuple(v)] * v.n_players,
                        game.player_of_colour(k))
    assert set(off.search(game.position, 1, 300, 0.0)["priors"]) == {0.0}   # not computed unless asked
