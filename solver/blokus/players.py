"""Blokus players: strategy specs and the move-choice API ("which move does this player make here?").

Every strategy is decided by one C function (``choose_index`` in ext/blokus.pyx) that both the
self-play runner and this module call, so a strategy plays the same here, in ``selfplay``, in the
GTP engine and in the match runner.

Strategy specs (one per seat in ``--strategy``):

* ``random`` -- uniform over the legal moves;
* ``greedy`` -- largest piece, then most new own corners, then most opponents' corners taken;
* ``mc`` / ``mc:C:P`` -- flat Monte Carlo: C greedy-best candidates, P playouts each;
* ``mcts`` / ``mcts:PLAYOUTS`` / ``mcts:PLAYOUTS:key=value:...`` -- Monte Carlo tree search with
  priors and progressive widening ordered by the learned move evaluation
  (``solver.blokus.evaluation``), RAVE, and playouts that answer the opponents' last moves
  (see ``SEARCH_PARAMS`` for the keys, and ``TIME_PARAMS`` for how a time budget is spread);
  ``mcts:0`` with a time budget (``seconds``) searches for that long instead; ``key@SEAT=value``
  sets a key for one seat only (0 moves first), e.g. ``mcts:rave_dist@1=1`` for the second player.

>>> parse_strategy("mcts:500:explore=0.2").label
'mcts:500:explore=0.2'
>>> s = parse_strategy("mcts:rave_dist@1=1")
>>> [s.search_values(Game("duo").variant, seat)["rave_dist"] for seat in (0, 1)]
[0.0, 1.0]
>>> g = Game("duo")
>>> m = choose_move(g, "greedy", seed=1)
>>> m.piece in {"I5", "L5", "N", "P", "T5", "U", "V5", "W", "X", "Y", "Z5", "F"}
True
>>> choose_move(g, "mcts:200", seed=3) == choose_move(g, "mcts:200", seed=3)
True
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

from solver._ext import blokus as _ext
from solver.blokus.book import OpeningBook
from solver.blokus.evaluation import weights_for
from solver.blokus.game import Game, Move, start_position
from solver.blokus.variants import VARIANTS, Variant
from solver.errors import SolverError
from solver.montecarlo.seeding import decision_seed

STRATEGY_NAMES: tuple[str, ...] = tuple(_ext.STRATEGY_NAMES)
#: mcts parameter names and defaults, in the engine's order (read from the engine itself)
SEARCH_PARAMS: dict[str, float] = dict(_ext.SEARCH_PARAMS)
SEARCH_LIMITS: dict[str, tuple[float, float]] = {
    "explore": (0.0, 10.0), "prior_n": (0.0, 1000.0), "prior_lo": (0.0, 1.0), "prior_hi": (0.0, 1.0),
    "rave_k": (1.0, 1e9), "score_weight": (0.0, 1.0), "score_scale": (0.1, 1000.0),
    "widen_base": (1.0, 1000.0), "widen": (0.0, 1000.0), "playout_k": (1, 64), "expand_after": (0, 1000),
    "w_own": (0.0, 100.0), "w_taken": (0.0, 100.0), "learned": (0, 1),
    "local": (0, 10), "centre_moves": (0, 100), "centre_radius": (0.0, 100.0),
    "centre_slack": (0.0, 100.0), "connect_moves": (0, 100), "lgr": (0, 1),
    "big_rounds": (0, 50), "big1_rounds": (0, 50), "big2_rounds": (0, 50),
    "cramped": (0, 2), "expand_inc": (0.0, 100.0), "stop_early": (0.0, 1.0),
    "endgame": (0.0, 1.0), "endgame_moves": (0, 100000), "prior_rel": (0.0, 10.0),
    "quality": (0, 1), "length_weight": (0.0, 1.0), "local_cap": (0, 20),
    "komi": (0.0, 50.0), "komi_max": (0.0, 200.0), "komi_lo": (0.0, 1.0), "komi_min": (-200.0, 0.0),
    "puct": (0.0, 100.0), "rave_dist": (0.0, 1.0), "rave_parent_max": (0.0, 1e9), "rave_child_max": (0.0, 1e9),
    "extend": (0.0, 10.0),
}
#: how a time budget is spread over a game -- the player's, not the engine's (``TimeBank``):
#: while fewer than ``open_moves`` placements are on the board a search gets ``open_share`` of
#: the mean time per move, and the bank hands what it leaves to the later moves; with
#: ``time_power`` each move is granted a share of it that falls with its colour's pieces left
#: (``time_share``), much as a fixed number of simulations (Pentobi's levels) spends its time
TIME_PARAMS: dict[str, float] = {"open_moves": 0.0, "open_share": 1.0, "time_power": 0.0, "time_end": 0.3}
TIME_LIMITS: dict[str, tuple[float, float]] = {"open_moves": (0, 100), "open_share": (0.01, 1.0),
                                               "time_power": (0.0, 8.0), "time_end": (0.0, 0.95)}
#: mcts defaults that differ by variant (measured there; every other variant uses SEARCH_PARAMS
#: and TIME_PARAMS)
VARIANT_DEFAULTS: dict[str, dict[str, float]] = {
    "duo": {"time_power": 3.0, "puct": 0.1},
    "classic-2": {"centre_moves": 12.0, "connect_moves": 14.0,
                  "big_rounds": 3.0, "big1_rounds": 5.0, "big2_rounds": 7.0,
                  "open_moves": 12.0, "open_share": 0.25, "score_weight": 0.9,
                  "score_scale": 20.0},
}
MC_DEFAULT = (8, 16)
MCTS_DEFAULT_PLAYOUTS = 1000
MAX_PLAYOUTS = 10_000_000
#: seats a ``key@SEAT`` parameter may name (the most players of any variant)
MAX_SEATS: int = max(v.n_players for v in VARIANTS.values())
#: most threads searching one tree (the engine's limit)
MAX_THREADS: int = _ext.MAX_THREADS
#: the longest a ``ponder`` search runs if nothing stops it
PONDER_SECONDS = 600.0


@dataclass(frozen=True)
class Strategy:
    """A parsed strategy spec: engine kind and its parameters."""

    name: str
    candidates: int = 0
    playouts: int = 0
    seconds: float = 0.0
    params: tuple[tuple[str, float], ...] = ()

    @property
    def kind(self) -> int:
        return STRATEGY_NAMES.index(self.name)

    @property
    def label(self) -> str:
        """The spec as written back (``mcts:500:explore=0.2``)."""
        if self.name == "mc":
            return f"mc:{self.candidates}:{self.playouts}" if (self.candidates, self.playouts) != MC_DEFAULT else "mc"
        if self.name == "mcts":
            extra = "".join(f":{k}={_num(v)}" for k, v in self.params)
            if self.playouts == MCTS_DEFAULT_PLAYOUTS and not extra:
                return "mcts"
            return f"mcts:{self.playouts}{extra}"
        return self.name

    def engine_tuple(self, variant: Variant, seat: int | None = None) -> tuple:
        """(kind, candidates, playouts, seconds, search parameter values, evaluation weights, centre
        distances) for the engine, playing ``seat``: the parameters are ``SEARCH_PARAMS``, then
        ``variant``'s own defaults (``VARIANT_DEFAULTS``), then the spec's (``search_values``); the
        weights are ``variant``'s learned ones (``solver.blokus.evaluation``), the distances its
        board's (``Geometry.centre_distances``)."""
        return (self.kind, self.candidates, self.playouts, self.seconds,
                list(self.search_values(variant, seat).values()), weights_for(variant),
                variant.geometry.centre_distances)

    def time_params(self, variant: Variant, seat: int | None = None) -> dict[str, float]:
        """``TIME_PARAMS``, then ``variant``'s own defaults, then the spec's (for ``seat``)."""
        values = self._values(variant, seat)
        return {k: values[k] for k in TIME_PARAMS}

    def search_values(self, variant: Variant, seat: int | None = None) -> dict[str, float]:
        """Every engine key (``SEARCH_PARAMS``) as this spec plays it in ``variant`` from ``seat``."""
        values = self._values(variant, seat)
        return {k: values[k] for k in SEARCH_PARAMS}

    def _values(self, variant: Variant, seat: int | None = None) -> dict[str, float]:
        """Every mcts key (engine and time): the tables, then ``variant``'s defaults, then the spec's
        keys for every seat, then its keys for ``seat`` (``key@SEAT``; none if ``seat`` is None).
        A key for a seat ``variant`` does not have is an error."""
        values = {**SEARCH_PARAMS, **TIME_PARAMS, **VARIANT_DEFAULTS.get(variant.name, {})}
        for_seat = {}
        for key, value in self.params:
            name, _, at = key.partition("@")
            if not at:
                values[name] = value
                continue
            if int(at) >= variant.n_players:
                raise SolverError(f"mcts parameter {key}: {variant.name} has seats 0 to {variant.n_players - 1}")
            if seat is not None and int(at) == seat:
                for_seat[name] = value
        return {**values, **for_seat}

    def with_budget(self, playouts: int | None = None, seconds: float | None = None) -> Strategy:
        """This strategy with another search budget (playouts for mc/mcts, seconds for mcts)."""
        out = self
        if playouts is not None:
            if not 0 <= playouts <= MAX_PLAYOUTS:
                raise SolverError(f"playouts must be from 0 to {MAX_PLAYOUTS}")
            out = replace(out, playouts=playouts)
        if seconds is not None:
            if not 0 <= seconds <= 3600:
                raise SolverError("seconds per move must be from 0 to 3600")
            if self.name != "mcts" and seconds:
                raise SolverError(f"strategy {self.name} has no time budget (use mcts)")
            out = replace(out, seconds=seconds, playouts=0 if playouts is None else out.playouts)
        return out


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def parse_strategy(text: str) -> Strategy:
    """A strategy spec -> :class:`Strategy`; SolverError naming what is wrong.

    >>> parse_strategy("mc:4:32")
    Strategy(name='mc', candidates=4, playouts=32, seconds=0.0, params=())
    >>> parse_strategy("mcts").playouts
    1000
    """
    parts = [p.strip() for p in text.strip().lower().split(":")]
    name = parts[0]
    if name not in STRATEGY_NAMES:
        raise SolverError(f"unknown strategy {text!r} (known: random, greedy, mc, mc:CANDIDATES:PLAYOUTS, "
                          "mcts, mcts:PLAYOUTS[:key=value...])")
    if name in ("random", "greedy"):
        if len(parts) > 1:
            raise SolverError(f"strategy {name} takes no parameters: {text!r}")
        return Strategy(name)
    if name == "mc":
        if len(parts) == 1:
            return Strategy("mc", *MC_DEFAULT)
        try:
            if len(parts) != 3:
                raise ValueError
            cand, sims = int(parts[1]), int(parts[2])
            if not (1 <= cand <= 1000 and 1 <= sims <= 100000):
                raise ValueError
        except ValueError:
            raise SolverError(f"bad mc strategy {text!r}: use mc:CANDIDATES:PLAYOUTS with CANDIDATES "
                              "1..1000 and PLAYOUTS 1..100000") from None
        return Strategy("mc", cand, sims)
    playouts = MCTS_DEFAULT_PLAYOUTS
    params: dict[str, float] = {}
    for i, part in enumerate(parts[1:]):
        if "=" not in part:
            if i != 0 or not part.isdigit() or len(part) > 9 or not 0 <= int(part) <= MAX_PLAYOUTS:
                raise SolverError(f"bad mcts strategy {text!r}: use mcts:PLAYOUTS (0..{MAX_PLAYOUTS}) "
                                  "then key=value parameters")
            playouts = int(part)
            continue
        key, _, value = part.partition("=")
        name, at, seat = key.partition("@")
        if name not in SEARCH_PARAMS and name not in TIME_PARAMS:
            raise SolverError(f"unknown mcts parameter {name!r} "
                              f"(known: {', '.join([*SEARCH_PARAMS, *TIME_PARAMS])})")
        if at:
            if not (seat.isdigit() and len(seat) < 3 and int(seat) < MAX_SEATS):
                raise SolverError(f"bad mcts parameter {key}: a seat is a number from 0 to {MAX_SEATS - 1}")
            key = f"{name}@{int(seat)}"
        lo, hi = SEARCH_LIMITS[name] if name in SEARCH_LIMITS else TIME_LIMITS[name]
        try:
            v = float(value)
        except ValueError:
            v = float("nan")
        if not lo <= v <= hi:
            raise SolverError(f"mcts parameter {name} must be a number from {_num(lo)} to {_num(hi)}: {value!r}")
        if isinstance(lo, int) and not v.is_integer():   # integer bounds: a whole number (a count, a switch)
            raise SolverError(f"mcts parameter {name} must be a whole number from {lo} to {hi}: {value!r}")
        params[key] = v
    return Strategy("mcts", 0, playouts, 0.0, tuple(params.items()))


def engine_players(variant: Variant, strategies: list[Strategy] | tuple[Strategy, ...]) -> list[tuple]:
    """One engine tuple per player (see ``Strategy.engine_tuple``)."""
    if len(strategies) != variant.n_players:
        raise SolverError(f"{len(strategies)} strategies for {variant.n_players} players")
    return [s.engine_tuple(variant, seat) for seat, s in enumerate(strategies)]


def _tables(variant: Variant) -> tuple[list, list, list]:
    return list(variant.player_of), list(variant.counted), list(variant.sides)


def choose_move(game: Game, strategy: str | Strategy, seed: int = 0, playouts: int | None = None,
                seconds: float | None = None) -> Move | None:
    """The move ``strategy`` plays for the colour to play in ``game`` (None if the game is over).

    Same seed and playout budget give the same move; a time budget (mcts) depends on the machine.
    """
    k = game.to_play
    if k is None:
        return None
    s = parse_strategy(strategy) if isinstance(strategy, str) else strategy
    s = s.with_budget(playouts, seconds)
    if s.name == "mcts" and s.playouts == 0 and s.seconds == 0:
        raise SolverError("mcts needs a budget: playouts or seconds")
    v = game.variant
    p = game.player_of_colour(k)
    players = [s.engine_tuple(v, p) if i == p else Strategy("random").engine_tuple(v) for i in range(v.n_players)]
    code = _ext.choose(game.position, k, *_tables(v), players, seed & 0xFFFFFFFFFFFFFFFF)
    return game.move_from_code(k, code) if code >= 0 else None


@dataclass(frozen=True)
class Candidate:
    """One root move of a search: the move, real visits, value (0..1 for the mover's side)."""

    move: Move
    visits: float
    value: float
    rave_visits: float
    rave_value: float


def time_share(spread: dict[str, float], left: float) -> float:
    """The share of the mean time per move granted to a move whose colour still has ``left`` of
    its pieces to place: c x left ** ``time_power``, c such that the shares average 1 over a game
    whose colours place pieces until ``time_end`` of them are left (1 with ``time_power`` 0).

    >>> round(time_share({"time_power": 2.0, "time_end": 0.0}, 1.0), 3)
    3.0
    """
    k, end = spread["time_power"], spread["time_end"]
    if k == 0:
        return 1.0
    mean = (1 - end ** (k + 1)) / ((k + 1) * (1 - end))
    return left ** k / mean


@dataclass
class TimeBank:
    """A mean time per move over one game, like a clock: every move is granted ``seconds`` (or
    its ``share`` of them, ``time_share``), and a quarter of what earlier moves left unused (book
    moves, forced moves) is added to the next search, so the time the opening book saves goes to
    the moves after it; time overspent (the work around a search) is taken back the same way,
    down to a quarter of the grant.

    >>> bank = TimeBank(0.01)
    >>> bank.budget()
    0.01
    >>> bank.record(0.0)                 # a book move: its 0.01 s go to later moves
    >>> round(bank.budget(), 4)
    0.0125
    """

    seconds: float
    granted: float = 0.0
    spent: float = 0.0

    def budget(self, share: float = 1.0) -> float:
        """Seconds for the next search, whose grant is ``share`` x the mean time per move."""
        grant = self.seconds * share
        return max(grant / 4, grant + (self.granted - self.spent) / 4)

    def record(self, used: float, share: float = 1.0) -> None:
        """One move, granted ``share`` x the mean time per move, was made in ``used`` seconds."""
        self.granted += self.seconds * share
        self.spent += used


class MctsPlayer:
    """An mcts player for one game that keeps its tree between moves (tree reuse) and can search
    it with several threads at once (tree parallelism: one shared tree, virtual losses).

    ``genmove(game)`` returns the chosen move and the candidates, best first.  The player follows
    the game by its move list: moves played since its last search are looked up in its tree.
    ``ponder(game, player)`` searches on in the background while the opponents think (one
    thread), until the next ``genmove`` or ``stop_pondering``: what it found below the reply
    actually played is kept by the tree reuse, and the next ``genmove`` searches on in the same
    tree with all its threads.
    With ``book`` it plays the variant's opening book move where there is one (no search, no
    candidates, ``stats["book"]``); with ``bank_time`` a time budget is a mean per move over
    the game (``TimeBank``).  With one thread and a playout budget the moves are reproducible;
    with several they depend on how the threads interleave.
    """

    def __init__(self, variant: Variant, strategy: str | Strategy = "mcts", seed: int = 0,
                 threads: int = 1, reuse: bool = True, book: bool = True, bank_time: bool = False) -> None:
        s = parse_strategy(strategy) if isinstance(strategy, str) else strategy
        if s.name != "mcts":
            raise SolverError(f"MctsPlayer needs an mcts strategy, not {s.name}")
        s.search_values(variant)   # a key for a seat the variant lacks is an error now, not at a move
        if not 1 <= threads <= MAX_THREADS:
            raise SolverError(f"threads must be from 1 to {MAX_THREADS}")
        self.variant = variant
        self.strategy = s
        self.seed = seed
        self.threads = threads
        self.reuse = reuse
        self._trees: dict[int, _ext.Searcher] = {}   # per player
        self._seen: dict[int, list[Move]] = {}   # per player: the game's moves at its last search
        self._calls = 0
        #: the variant's opening book (solver.blokus.book), if it has one and ``book`` is set
        self.book = OpeningBook.for_variant(variant.name) if book else None
        #: with ``bank_time``, a time budget is a mean per move over the game (``TimeBank``)
        self.bank_time = bank_time
        self._banks: dict[int, TimeBank] = {}
        self._pondering: tuple | None = None   # (tree, its thread, its result once done)
        self._room = 0   # the most nodes a search of this player has asked for (``_tree_for``)

    def _tree_for(self, player: int, s: Strategy) -> _ext.Searcher:
        """``player``'s tree, with room for a search with ``s``'s budget besides the nodes it
        keeps: the budget of a time bank grows and shrinks from move to move, and a search in a
        full pool can no longer expand its nodes."""
        players = [s.engine_tuple(self.variant, player)] * self.variant.n_players
        room = _ext.tree_nodes_for(players, self.threads)
        tree = self._trees.get(player)
        if tree is None:
            tree = self._trees[player] = _ext.Searcher(start_position(self.variant), *_tables(self.variant),
                                                       players, player, room)
        else:
            tree.reserve(tree.nodes_used + room)
        self._room = max(self._room, room)
        return tree

    def tree_problems(self) -> list[str]:
        """What is wrong with the structure of the player's trees (``Searcher.problems``; empty
        if nothing): for the tests of the threaded search."""
        return [f"player {p}: {text}" for p, tree in self._trees.items() for text in tree.problems()]

    def _follow(self, moves: list[Move], player: int, tree: _ext.Searcher) -> bool:
        """Bring ``player``'s tree to the position after ``moves`` (the game's setup and moves):
        descend along the moves played since its last search (tree reuse; True if the subtree
        was kept) or clear it."""
        seen = self._seen.get(player)
        reused = False
        if self.reuse and seen is not None and moves[:len(seen)] == seen:
            reused = tree.advance([(m.colour, m.code) for m in moves[len(seen):]])
        if not reused:
            tree.clear()
        self._seen[player] = list(moves)
        return reused

    def ponder(self, game: Game, player: int, seconds: float = PONDER_SECONDS) -> bool:
        """Think on the opponents' time: search ``game`` (another player to move) in the
        background in ``player``'s tree, one thread, until ``genmove`` or ``stop_pondering`` (at
        most ``seconds``).  False if there is nothing to ponder: the game is over, ``player`` has
        not searched yet in this game, or the player keeps no tree (``reuse`` off).  Pondering
        makes a search's result depend on the opponent's thinking time, so it is for time
        budgets only."""
        self.stop_pondering()
        tree = self._trees.get(player)
        if game.to_play is None or not self.reuse or tree is None or player not in self._seen:
            return False
        moves = game.setup + game.moves
        position = game.position.copy()
        tree.reserve(tree.nodes_used + self._room)   # about as long as one of our searches
        self._calls += 1
        seed = decision_seed(self.seed, self._calls)
        found: dict = {}

        def work() -> None:   # on the opponents' time: descend along the moves since, then search
            self._follow(moves, player, tree)
            found.update(tree.search(position, seed, 0, seconds))

        tree.halt(False)
        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        self._pondering = (tree, worker, found)
        return True

    @property
    def is_pondering(self) -> bool:
        """True while a ``ponder`` search runs (or has ended unasked, at its time limit)."""
        return self._pondering is not None

    def stop_pondering(self) -> dict | None:
        """End a ``ponder`` search; its tree keeps what it found.  Returns the search's result
        (``Searcher.search``: playouts, the root's children), None if no ponder search ran."""
        if self._pondering is None:
            return None
        tree, worker, found = self._pondering
        tree.halt(True)
        worker.join()
        tree.halt(False)
        self._pondering = None
        return found

    def genmove(self, game: Game, playouts: int | None = None,
                seconds: float | None = None) -> tuple[Move | None, list[Candidate], dict]:
        """Search the position of ``game`` for its colour to play; (move, candidates, stats)."""
        self.stop_pondering()
        k = game.to_play
        if k is None:
            return None, [], {"playouts": 0}
        s = self.strategy.with_budget(playouts, seconds)
        if s.playouts == 0 and s.seconds == 0:
            raise SolverError("mcts needs a budget: playouts or seconds")
        if not (self.bank_time and s.playouts == 0):
            return self._genmove(game, k, s)
        p = game.player_of_colour(k)
        bank = self._banks.get(p)
        if bank is None or bank.seconds != s.seconds:
            bank = self._banks[p] = TimeBank(s.seconds)
        spread = s.time_params(self.variant, p)
        share = time_share(spread, len(game.position.pieces_left(k)) / len(game.pieces.pieces))
        budget = bank.budget(share)
        if len(game.setup) + len(game.moves) < spread["open_moves"]:
            budget = s.seconds * spread["open_share"]   # the bank keeps the rest for later moves
        started = time.perf_counter()
        try:
            return self._genmove(game, k, replace(s, seconds=budget))
        finally:
            bank.record(time.perf_counter() - started, share)

    def _genmove(self, game: Game, k: int, s: Strategy) -> tuple[Move | None, list[Candidate], dict]:
        codes = game.legal_codes(k)
        if len(codes) == 1:   # a forced move needs no search
            return game.move_from_code(k, int(codes[0])), [], {"playouts": 0, "listed": 1, "reused": False}
        known = self.book.lookup(game) if self.book is not None else None
        if known is not None:
            return known, [], {"playouts": 0, "listed": 0, "reused": False, "book": True}
        p = game.player_of_colour(k)
        tree = self._tree_for(p, s)
        reused = self._follow(game.setup + game.moves, p, tree)
        self._calls += 1
        base = decision_seed(self.seed, self._calls)
        res = tree.search(game.position, base, s.playouts, s.seconds, self.threads)
        if "solved" in res:   # the exact endgame search proved a win or a draw
            colour, code, won, nodes = res["solved"]
            move = game.move_from_code(colour, code)
            return move, [Candidate(move, 0.0, 1.0 if won else 0.5, 0.0, float("nan"))], \
                {"playouts": 0, "listed": 0, "reused": reused, "stopped_early": False, "extended": False,
                 "solved": "win" if won else "draw", "solved_nodes": nodes}
        cands = [Candidate(game.move_from_code(colour, code), visits, value, rn, rv)
                 for colour, code, visits, value, rn, rv in res["children"]]
        cands.sort(key=lambda c: (-c.visits, -c.value))
        stats = {"playouts": res["playouts"], "listed": res["listed"], "reused": reused,
                 "stopped_early": res["stopped_early"], "extended": res["extended"]}
        if res["komi"]:
            stats["komi"] = res["komi"]
        if not cands:   # the search could not expand (no memory): fall back on greedy
            return choose_move(game, "greedy", seed=base), [], stats
        return cands[0].move, cands, stats
