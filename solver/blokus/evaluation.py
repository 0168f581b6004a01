"""The learned move evaluation of ``mcts``: weights of the engine's move features, fitted to the
moves strong searches chose.

The engine counts, for every legal move, the features named in ``FEATURES`` (piece size, cells
covered in the opponents' corner zones, what the move's edge halo forbids, how open its new
corners are, ...; ``ext/blokus.pyx`` ``move_features`` defines them).  A move's evaluation is the
weighted sum of its counts plus a weight of its own for the piece it places (beyond its size:
which pieces a strong player spends early and which it keeps): a log-linear move model, as
Pentobi's prior knowledge is, but with our own features and weights fitted here, to games our own
search played with a large budget (distillation: the fast evaluation learns what the slow search
found).

The weights live in ``evaluation_weights.json`` beside this module, one set per board family
(``family``; feature weights under ``weights``, piece weights under ``pieces``); ``learn``
rebuilds them (``python -m solver.blokus.evaluation``, see ``main``).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver._ext import blokus as _ext
from solver.blokus.game import Game
from solver.blokus.pieces import PIECE_SETS
from solver.blokus.variants import ROTATING, Variant
from solver.errors import SolverError

#: the engine's move features, in its order (read from the engine itself)
FEATURES: tuple[str, ...] = tuple(_ext.EVAL_FEATURES)
WEIGHTS_FILE = Path(__file__).with_name("evaluation_weights.json")
#: games per corpus block (``learn``): each block has its own seed, so a corpus does not depend on
#: how many workers play it, and ``--holdout`` counts in blocks
CORPUS_BLOCK = 10


def family(variant: Variant) -> str:
    """The board family whose weights a variant uses: ``duo``, ``trigon`` or ``classic`` (every
    other square board: classic, classic-2, classic-3, teams, giant)."""
    if variant.geometry.piece_set == "trigon":
        return "trigon"
    if variant.name == "duo":
        return "duo"
    return "classic"


@functools.lru_cache(maxsize=4)
def _weights_data(path: Path) -> dict:
    """The weights file, read once."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def load_weights(path: Path = WEIGHTS_FILE) -> dict[str, dict[str, float]]:
    """Per family, feature name -> weight."""
    return {fam: dict(w) for fam, w in _weights_data(path)["weights"].items()}


def load_piece_weights(path: Path = WEIGHTS_FILE) -> dict[str, dict[str, float]]:
    """Per family, piece name -> weight (a family may have none)."""
    return {fam: dict(w) for fam, w in _weights_data(path).get("pieces", {}).items()}


def piece_names(variant: Variant) -> tuple[str, ...]:
    """The names of ``variant``'s pieces in the engine's order (the order of the piece weights)."""
    return tuple(p.name for p in PIECE_SETS[variant.geometry.piece_set].pieces)


def weights_for(variant: Variant) -> list[float]:
    """The weights of ``variant``'s family: ``FEATURES`` order, then one per piece in
    ``piece_names`` order (a missing feature or piece weighs 0)."""
    fam = family(variant)
    w = load_weights().get(fam, {})
    pw = load_piece_weights().get(fam, {})
    return [float(w.get(name, 0.0)) for name in FEATURES] + [float(pw.get(name, 0.0)) for name in piece_names(variant)]


def move_values(game: Game, colour: int, codes) -> np.ndarray:
    """The learned evaluation of ``colour``'s legal placements ``codes`` in ``game`` (the order
    in which the search opens a node's children): the ``FEATURES`` counts times their weights,
    plus each move's piece weight."""
    w = np.array(weights_for(game.variant))
    f = game.position.move_features(colour, codes, opponents_mask(game, colour))
    return f @ w[:len(FEATURES)] + w[len(FEATURES):][piece_indices(game, colour, codes)]


def piece_indices(game: Game, colour: int, codes) -> np.ndarray:
    """Each of ``colour``'s placements ``codes``: its piece's index in ``piece_names`` order."""
    index = {p.name: p.index for p in game.pieces.pieces}
    return np.array([index[game.move_from_code(colour, c).piece] for c in codes], dtype=np.int16)


# ---------------------------------------------------------------- fitting


@dataclass
class Corpus:
    """Decisions to learn from: per decision the features of every legal move and which one the
    teacher chose.  ``rows[i]:rows[i + 1]`` are decision i's moves in ``features``."""

    features: np.ndarray   # (moves, columns) int16: the FEATURES counts (``design`` adds the pieces)
    rows: np.ndarray       # (decisions + 1,) int64 offsets
    chosen: np.ndarray     # (decisions,) int64: index of the chosen move within its decision

    def __len__(self) -> int:
        return len(self.chosen)


def design(corpus: Corpus, pieces: np.ndarray, n_pieces: int) -> Corpus:
    """The same decisions with one more column per piece (1 where the move places it; ``pieces``
    holds each move's piece index), so that ``fit`` gives the feature weights, then the piece
    weights."""
    onehot = np.zeros((len(pieces), n_pieces), dtype=np.int16)
    onehot[np.arange(len(pieces)), pieces] = 1
    return Corpus(np.concatenate([corpus.features, onehot], axis=1), corpus.rows, corpus.chosen)


def log_likelihood(corpus: Corpus, w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Mean log-probability of the chosen moves under softmax(features @ w), its gradient and
    Hessian (per decision: chosen features minus the expected features, and their covariance)."""
    x = corpus.features.astype(np.float64)
    z = x @ w
    n = len(corpus)
    seg = np.repeat(np.arange(n), np.diff(corpus.rows))
    zmax = np.maximum.reduceat(z, corpus.rows[:-1])
    e = np.exp(z - zmax[seg])
    tot = np.add.reduceat(e, corpus.rows[:-1])
    p = e / tot[seg]
    pick = corpus.rows[:-1] + corpus.chosen
    ll = float(np.sum(z[pick] - zmax - np.log(tot))) / n
    mean = np.add.reduceat(p[:, None] * x, corpus.rows[:-1])          # expected features
    grad = (x[pick] - mean).sum(0) / n
    second = (p[:, None] * x).T @ x
    hess = -(second - mean.T @ mean) / n
    return ll, grad, hess


def fit(corpus: Corpus, l2: float = 1e-3, iterations: int = 50) -> np.ndarray:
    """Weights maximising the mean log-likelihood of the chosen moves minus ``l2`` × |w|² (Newton's
    method with step halving; the problem is concave, so it converges to the one optimum)."""
    m = corpus.features.shape[1]
    w = np.zeros(m)

    def objective(v: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        ll, g, h = log_likelihood(corpus, v)
        return ll - l2 * v @ v, g - 2 * l2 * v, h - 2 * l2 * np.eye(m)

    f, g, h = objective(w)
    for _ in range(iterations):
        step = np.linalg.solve(h, -g)
        t = 1.0
        while t > 1e-6:
            f2, g2, h2 = objective(w + t * step)
            if f2 >= f - 1e-12:
                break
            t /= 2
        w = w + t * step
        done = abs(f2 - f) < 1e-10
        f, g, h = f2, g2, h2
        if done:
            break
    return w


def top1(corpus: Corpus, w: np.ndarray) -> float:
    """Share of decisions where the chosen move has the highest evaluation (ties count as misses
    unless the chosen move is the first of them)."""
    z = corpus.features.astype(np.float64) @ w
    hits = 0
    for i in range(len(corpus)):
        a, b = corpus.rows[i], corpus.rows[i + 1]
        hits += int(np.argmax(z[a:b]) == corpus.chosen[i])
    return hits / max(1, len(corpus))


def opponents_mask(game: Game, colour: int) -> int:
    """Bit j set: colour j is an opponent of the player moving ``colour`` now (not on its side;
    a shared colour such as classic-3's green always is), as the engine's search counts them."""
    v = game.variant
    me = v.sides[game.player_of_colour(colour)]
    mask = 0
    for j, q in enumerate(v.player_of):
        if j != colour and (q == ROTATING or v.sides[q] != me):
            mask |= 1 << j
    return mask


class _CorpusBuilder:
    """Collects decisions one at a time: the features of every legal move of the colour to play
    and the move chosen (decisions with a single legal move teach nothing and are skipped)."""

    def __init__(self) -> None:
        self.feats: list[np.ndarray] = []
        self.pieces: list[np.ndarray] = []
        self.chosen: list[int] = []
        self.rows = [0]

    def add(self, game: Game, colour: int, code: int) -> None:
        """Record ``colour``'s choice of move ``code`` (legal) in ``game``'s current position."""
        codes = game.legal_codes(colour)
        if len(codes) > 1:
            f = game.position.move_features(colour, codes, opponents_mask(game, colour))
            self.feats.append(f.astype(np.int16))
            self.pieces.append(piece_indices(game, colour, codes))
            self.chosen.append(int(np.flatnonzero(codes == code)[0]))
            self.rows.append(self.rows[-1] + len(codes))

    def build(self) -> tuple[Corpus, np.ndarray]:
        """The corpus and each move's piece index (for ``design``)."""
        if not self.chosen:
            return (Corpus(np.zeros((0, len(FEATURES)), dtype=np.int16), np.zeros(1, dtype=np.int64),
                           np.zeros(0, dtype=np.int64)), np.zeros(0, dtype=np.int16))
        corpus = Corpus(np.concatenate(self.feats), np.array(self.rows, dtype=np.int64),
                        np.array(self.chosen, dtype=np.int64))
        return corpus, np.concatenate(self.pieces)


def make_corpus(variant: Variant, games: int, strategy: str, seed: int) -> tuple[Corpus, np.ndarray]:
    """Self-play ``games`` games with ``strategy`` (an mcts spec, every player alike, no opening
    book: the search is the teacher) and keep every decision with more than one legal move: all
    moves' features and the move chosen; also each move's piece index (for ``design``).
    Decisions the teacher's opening rules make (``centre_moves``, ``connect_moves``: the search
    looks only at some of the legal moves there) are left out: the choice among all legal moves
    is not the teacher's there, and keeping it would teach the rules' preference as a weight."""
    from solver.blokus.players import MctsPlayer, parse_strategy

    values = parse_strategy(strategy).search_values(variant)
    ruled = int(max(values["centre_moves"], values["connect_moves"]))
    out = _CorpusBuilder()
    for g_i in range(games):
        game = Game(variant)
        player = MctsPlayer(variant, strategy, seed=seed * 100_003 + g_i, book=False)
        while not game.is_over:
            k = game.to_play
            move, _, _ = player.genmove(game)
            if len(game.setup) + len(game.moves) >= ruled:
                out.add(game, k, move.code)
            game.play(move)
    return out.build()


def records_corpus(variant: Variant, records: list[Game]) -> tuple[Corpus, np.ndarray]:
    """Every decision of recorded games (``records``, each of ``variant`` from its empty board):
    another program's games teach its choices -- Pentobi's own self-play at a high level, say, a
    teacher stronger than any search of ours we could afford to run for a corpus.  Every move of
    a record counts, whoever made it."""
    out = _CorpusBuilder()
    for i, record in enumerate(records):
        if record.variant.name != variant.name or record.setup:
            raise SolverError(f"record {i + 1} is not a {variant.name} game from the empty board")
        game = Game(variant)
        for move in record.moves:
            out.add(game, move.colour, move.code)
            game.play(move)
    return out.build()


def merge(corpora: list[Corpus]) -> Corpus:
    """One corpus of several."""
    rows = [np.array([0], dtype=np.int64)]
    base = 0
    for c in corpora:
        rows.append(c.rows[1:] + base)
        base += c.rows[-1]
    return Corpus(np.concatenate([c.features for c in corpora]), np.concatenate(rows),
                  np.concatenate([c.chosen for c in corpora]))


def _corpus_block(args: tuple[str, int, str, int]) -> tuple[Corpus, np.ndarray]:
    variant, games, teacher, seed = args
    from solver.blokus.variants import variant_by_name

    return make_corpus(variant_by_name(variant), games, teacher, seed)


def learn(variant: str, games: int, teacher: str, seed: int, workers: int = 1,
          block: int = CORPUS_BLOCK, l2: float = 1e-3, holdout: int = 0) -> tuple[np.ndarray, dict[str, float]]:
    """Play ``games`` teacher games (blocks of ``block`` games, block i seeded ``seed`` + i, so
    the corpus does not depend on ``workers``), fit the weights; (the ``FEATURES`` weights, then
    the ``piece_names`` weights; fit statistics).  With ``holdout`` > 0 the last ``holdout``
    blocks are left out of the fit, and the statistics add how well the fit and the shipped
    weights (``weights_for``) predict the teacher's choices there: whether a refit, or more
    games, would tell the teacher's moves apart better than what ships."""
    from multiprocessing import get_context

    from solver.blokus.variants import variant_by_name

    jobs = [(variant, min(block, games - b), teacher, seed + i) for i, b in enumerate(range(0, games, block))]
    if not 0 <= holdout < len(jobs):
        raise ValueError(f"holdout must leave at least one of the {len(jobs)} blocks to fit")
    if workers > 1:
        with get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_corpus_block, jobs)
    else:
        parts = [_corpus_block(j) for j in jobs]
    return fit_blocks(variant_by_name(variant), parts, l2, holdout)


def learn_records(variant: Variant, records: list[Game], block: int = CORPUS_BLOCK, l2: float = 1e-3,
                  holdout: int = 0) -> tuple[np.ndarray, dict[str, float]]:
    """``learn`` from recorded games instead of a teacher's self-play (``records_corpus``): blocks
    of ``block`` games in the records' order, the last ``holdout`` of them held out."""
    parts = [records_corpus(variant, records[b:b + block]) for b in range(0, len(records), block)]
    return fit_blocks(variant, parts, l2, holdout)


def fit_blocks(variant: Variant, parts: list[tuple[Corpus, np.ndarray]], l2: float = 1e-3,
               holdout: int = 0) -> tuple[np.ndarray, dict[str, float]]:
    """Fit the weights to the corpus blocks ``parts`` but the last ``holdout`` (``learn``)."""
    if not 0 <= holdout < len(parts):
        raise ValueError(f"holdout must leave at least one of the {len(parts)} blocks to fit")
    n_pieces = len(piece_names(variant))

    def joined(blocks: list[tuple[Corpus, np.ndarray]]) -> Corpus:
        return design(merge([c for c, _ in blocks]), np.concatenate([p for _, p in blocks]), n_pieces)

    corpus = joined(parts[:len(parts) - holdout])
    w = fit(corpus, l2=l2)
    n = np.diff(corpus.rows)
    stats = {"decisions": len(corpus), "mean_moves": float(n.mean()),
             "log_likelihood": log_likelihood(corpus, w)[0], "uniform_log_likelihood": float(-np.log(n).mean()),
             "top1": top1(corpus, w)}
    if holdout:
        test = joined(parts[len(parts) - holdout:])
        shipped = np.array(weights_for(variant))
        stats.update({"holdout_decisions": len(test),
                      "holdout_log_likelihood": log_likelihood(test, w)[0], "holdout_top1": top1(test, w),
                      "shipped_holdout_log_likelihood": log_likelihood(test, shipped)[0],
                      "shipped_holdout_top1": top1(test, shipped)})
    return w, stats


def save_weights(fam: str, w: np.ndarray, pieces: tuple[str, ...], about: str, path: Path = WEIGHTS_FILE) -> None:
    """Replace one family's weights in the weights file (written atomically): ``w`` holds the
    ``FEATURES`` weights, then one per name in ``pieces``."""
    from solver.montecarlo.output import write_text_atomic

    data = json.loads(path.read_text(encoding="utf-8"))
    data["weights"][fam] = {name: round(float(x), 4) for name, x in zip(FEATURES, w[:len(FEATURES)], strict=True)}
    data.setdefault("pieces", {})[fam] = {name: round(float(x), 4)
                                          for name, x in zip(pieces, w[len(FEATURES):], strict=True)}
    data.setdefault("about", {})[fam] = about
    write_text_atomic(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
    _weights_data.cache_clear()


def main(argv: list[str] | None = None) -> int:
    """``python -m solver.blokus.evaluation VARIANT GAMES TEACHER SEED [--workers N] [--dry-run]
    [--holdout N]``: fit the weights of VARIANT's family to GAMES self-play games of TEACHER (an
    mcts spec) and save them (``--dry-run``: print only; ``--holdout``: fit without the last N
    blocks of 10 games, report how the fit and the shipped weights predict those, save nothing).
    ``python -m solver.blokus.evaluation VARIANT --records FILE [--records FILE ...]`` fits to
    the moves of recorded games instead (SGF collections of VARIANT games from the empty board,
    such as another program's self-play), with the same options.
    Bad arguments give one line and exit status 2."""
    import argparse
    import sys

    from solver.blokus.players import parse_strategy
    from solver.blokus.sgf import read_file_games
    from solver.blokus.variants import VARIANTS, variant_by_name

    ap = argparse.ArgumentParser(prog="python -m solver.blokus.evaluation", description=main.__doc__)
    ap.add_argument("variant", choices=sorted(VARIANTS))
    ap.add_argument("games", type=int, nargs="?")
    ap.add_argument("teacher", nargs="?")
    ap.add_argument("seed", type=int, nargs="?")
    ap.add_argument("--records", action="append", default=[], metavar="FILE",
                    help="fit to the moves of the games in this SGF collection (repeatable) instead of "
                         "playing a teacher")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--holdout", type=int, default=0,
                    help="leave the last N blocks of 10 games out of the fit and report how the fit and "
                         "the shipped weights predict them (saves nothing)")
    args = ap.parse_args(argv)
    v = variant_by_name(args.variant)
    records: list[Game] = []
    try:
        if args.records:
            if args.games is not None:
                raise SolverError("give either GAMES TEACHER SEED or --records, not both")
            for path in args.records:
                records += read_file_games(path)
            n_games = len(records)
            if not n_games:
                raise SolverError(f"no games in {', '.join(args.records)}")
        else:
            if args.seed is None:
                raise SolverError("give GAMES TEACHER SEED, or --records FILE")
            if not 1 <= args.games <= 100_000 or not 1 <= args.workers <= 64 or args.seed < 0:
                raise SolverError("games must be 1..100000, workers 1..64, seed >= 0")
            if parse_strategy(args.teacher).name != "mcts":
                raise SolverError(f"the teacher must be an mcts spec, not {args.teacher!r}")
            n_games = args.games
        blocks = -(-n_games // CORPUS_BLOCK)
        if not 0 <= args.holdout < blocks:
            raise SolverError(f"--holdout must leave at least one of the {blocks} blocks of "
                              f"{CORPUS_BLOCK} games to fit")
        if records:
            w, stats = learn_records(v, records, holdout=args.holdout)
            about = (f"fitted to the {n_games} {args.variant} games of {', '.join(args.records)}: "
                     f"{stats['decisions']} decisions, top-1 {stats['top1']:.3f}")
        else:
            w, stats = learn(args.variant, args.games, args.teacher, args.seed, args.workers,
                             holdout=args.holdout)
            about = (f"fitted to {args.games} {args.variant} self-play games of {args.teacher}, "
                     f"seed {args.seed}: {stats['decisions']} decisions, top-1 {stats['top1']:.3f}")
    except SolverError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    names = FEATURES + tuple(f"piece {p}" for p in piece_names(v))
    for name, x in zip(names, w, strict=True):
        print(f"{name:18s} {x:+.3f}")
    print(json.dumps(stats))
    if not args.dry_run and not args.holdout:
        save_weights(family(v), w, piece_names(v), about)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
