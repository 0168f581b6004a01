"""Matches of one of our strategies against any GTP engine (Pentobi's, or our own).

Colours alternate: in even games our player is seat 0 (it moves first), in odd games seat 1 --
or, with ``seat``, it keeps one seat in every game: a change meant for one seat (a ``key@SEAT``
parameter) is then measured with every game, not every other one.  Both
sides must agree at every move: our move must be accepted by the opponent's ``play``, the
opponent's move must be legal for our engine, a ``pass`` must be forced, and at the end both must
compute the same ``final_score``.  A disagreement, a crashed or silent opponent, or a game over its
time limit is reported and the game counts as not played, never as a win.

With ``equal_time`` our time per move follows the opponent's: a fixed level of an engine such as
Pentobi's is a number of simulations, so its time per move depends on the machine and the day,
and a fixed ``--time`` of ours measures "at equal time" only where it happens to match.  After
each game the budget is set so that our expected time per move equals the opponent's mean so far
(``equal_time_budget``); the first game uses the given ``seconds``.

With ``openings`` (games read from an SGF collection) game ``i`` starts from the position after
opening ``(i // 2) % len(openings)``: each opening is played twice in a row, once with each
colour, so a line's value for either side is measured directly (as chess engine testers use
opening suites) and not only when the opponent happens to choose it.  With one ``seat``, game
``i`` starts from opening ``i % len(openings)``.
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from solver import __version__
from solver.blokus.game import Game
from solver.blokus.gtp import GtpClient, GtpEngine, GtpError, final_score_text
from solver.blokus.variants import Variant
from solver.errors import SolverError
from solver.montecarlo.stats import wilson_interval

RESULTS = ("win", "draw", "loss", "not played")


@dataclass
class MatchGame:
    """One game of a match, from our player's point of view."""

    index: int
    seat: int
    result: str = "not played"
    points: int = 0
    opponent_points: int = 0
    our_moves: int = 0
    our_seconds: float = 0.0
    opponent_moves: int = 0
    opponent_seconds: float = 0.0
    book_moves: int = 0          # our moves taken from the opening book
    budget: float | None = None  # our mcts time budget per move in this game (seconds)
    opening: int | None = None   # index of the opening the game started from (with openings)
    note: str = ""
    game: Game | None = field(default=None, repr=False)

    @property
    def margin(self) -> int:
        return self.points - self.opponent_points


def side_points(game: Game) -> list[int]:
    """Pentobi points of each side (sum over its counted colours)."""
    v = game.variant
    out = [0] * v.n_sides
    for k, pts in enumerate(game.pentobi_points()):
        p = v.player_of[k]
        if p >= 0 and v.counted[k]:
            out[v.sides[p]] += pts
    return out


#: the equal-time budget stays within this factor of the first game's (a guard against an
#: opponent whose first answers are out of the ordinary)
EQUAL_TIME_RANGE = 20.0


def equal_time_budget(games: list[MatchGame], first: float) -> float:
    """The time budget per move that makes our mean time per move equal the opponent's, from the
    games played so far: their mean time per move divided by how much of its budget our player
    has used per move (book moves, the opening share and the bank's hand-on included), within
    ``EQUAL_TIME_RANGE`` of ``first``; ``first`` itself before any game has both.

    >>> g = MatchGame(0, 0, "win", our_moves=10, our_seconds=0.18, opponent_moves=10,
    ...               opponent_seconds=0.25, budget=0.02)
    >>> round(equal_time_budget([g], 0.02), 6)   # we used 0.018 of 0.02: ask 0.025 / 0.9
    0.027778
    """
    played = [g for g in games if g.result != "not played" and g.budget and g.our_moves and g.opponent_moves]
    used = sum(g.our_seconds for g in played)
    granted = sum(g.budget * g.our_moves for g in played)
    their_moves = sum(g.opponent_moves for g in played)
    if not played or used <= 0 or their_moves == 0:
        return first
    theirs = sum(g.opponent_seconds for g in played) / their_moves
    budget = theirs / (used / granted)
    return min(max(budget, first / EQUAL_TIME_RANGE, 0.001), first * EQUAL_TIME_RANGE)


def check_openings(variant: Variant, openings: list[Game]) -> list[Game]:
    """The openings of a match, checked: of ``variant``, without setup pieces (a GTP engine learns
    a position only through ``play``), with the usual colour to play and not over.

    >>> from solver.blokus.sgf import read_games
    >>> from solver.blokus.variants import variant_by_name
    >>> [g] = check_openings(variant_by_name("duo"), read_games("(;GM[Blokus Duo];B[e10,e9,f9];W[j5])"))
    >>> [g.move_text(m) for m in g.moves], g.colour_name(g.to_play)
    (['e9,f9,e10', 'j5'], 'purple')
    >>> check_openings(variant_by_name("classic-2"), read_games("(;GM[Blokus Duo];B[e10])"))
    Traceback (most recent call last):
    solver.errors.SolverError: opening 1 is a duo game, not classic-2
    """
    if not openings:
        raise SolverError("the openings file holds no game")
    for i, g in enumerate(openings, 1):
        if g.variant.name != variant.name:
            raise SolverError(f"opening {i} is a {g.variant.name} game, not {variant.name}")
        if g.setup:
            raise SolverError(f"opening {i} has setup pieces (AB/AW/A1-A4); an opening must be moves only")
        replay = Game(variant)
        for move in g.moves:
            replay.play(move)
        if replay.to_play != g.to_play:
            raise SolverError(f"opening {i} sets the colour to play (PL); an opening must be moves only")
        if g.to_play is None:
            raise SolverError(f"opening {i} is a finished game")
    return openings


class Match:
    """Plays games of ``strategy`` against the engine started by ``opponent`` (a command line)."""

    def __init__(self, variant: Variant, strategy: str, opponent: str, seed: int = 0,
                 seconds: float | None = None, timeout: float = 600.0, threads: int = 1,
                 book: bool = True, ponder: bool = False, equal_time: bool = False,
                 openings: list[Game] | None = None, seat: int | None = None) -> None:
        if variant.n_players != 2:
            raise SolverError(f"matches are for two-player variants (duo, classic-2, trigon-2), not {variant.name}")
        self.variant = variant
        self.strategy = strategy
        self.command = shlex.split(opponent)
        if not self.command:
            raise SolverError("--opponent is empty")
        self.opponent_text = opponent
        self.seed = seed
        self.seconds = seconds
        self.timeout = timeout
        self.threads = threads
        self.book = book
        self.ponder = ponder
        if equal_time and not seconds:
            raise SolverError("--equal-time needs --time (the first game's time per move)")
        self.equal_time = equal_time
        if seat not in (None, 0, 1):
            raise SolverError(f"our seat must be 0 or 1 (or alternate), not {seat}")
        #: our seat in every game (0 moves first), or None: seats alternate
        self.seat = seat
        self.openings = check_openings(variant, openings) if openings is not None else None
        self.finished: list[MatchGame] = []   # the games played so far (equal_time's record)
        self.client: GtpClient | None = None
        # checks the spec before any game starts
        GtpEngine(variant, strategy, seed=seed, seconds=seconds, threads=threads, book=book, ponder=ponder)

    def start(self) -> None:
        """Start the opponent now (SolverError if it cannot be started)."""
        self._client()

    def _client(self) -> GtpClient:
        if self.client is None or self.client.proc.poll() is not None:
            self.client = GtpClient(self.command, timeout=self.timeout)
        return self.client

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def seat_of(self, index: int) -> int:
        """Our seat in game ``index``: ``seat``, or index % 2 if the seats alternate."""
        return index % 2 if self.seat is None else self.seat

    def play_game(self, index: int) -> MatchGame:
        """Game ``index`` (our seat: ``seat_of``); never raises for the opponent's faults."""
        v = self.variant
        budget = equal_time_budget(self.finished, self.seconds) if self.equal_time else self.seconds
        result = MatchGame(index, self.seat_of(index), budget=budget)
        ours = GtpEngine(v, self.strategy, seed=(self.seed * 7_919 + index) & 0xFFFFFFFF,
                         seconds=budget, threads=self.threads, book=self.book, ponder=self.ponder)
        game = ours.game
        result.game = game
        deadline = time.monotonic() + self.timeout
        try:
            client = self._client()
            client.send(f"set_game {v.sgf_game}", timeout=30)
            client.send("clear_board", timeout=30)
            if self.openings:
                result.opening = (index // 2 if self.seat is None else index) % len(self.openings)
                for move in self.openings[result.opening].moves:
                    colour = v.sgf_colour_props[move.colour]
                    text = game.move_text(move)
                    game.play(move)
                    try:
                        client.send(f"play {colour} {text}", timeout=30)
                    except GtpError as exc:
                        raise GtpError(f"the opponent rejected opening {result.opening + 1}'s move "
                                       f"{colour} {text} (move {len(game.moves)}): {exc}") from None
            while True:
                k = game.to_play
                if k is None:
                    break
                if time.monotonic() > deadline:
                    raise GtpError("the game went over its time limit")
                colour = v.sgf_colour_props[k]
                if game.player_of_colour(k) == result.seat:
                    t0 = time.perf_counter()
                    move = ours.choose(game)
                    text = game.move_text(move)
                    game.play(move)
                    ours.start_pondering(game, k)   # with ponder: think while the opponent does
                    result.our_seconds += time.perf_counter() - t0   # starting it is on our clock too
                    result.our_moves += 1
                    result.book_moves += ours.last_from_book
                    try:
                        client.send(f"play {colour} {text}", timeout=max(1.0, deadline - time.monotonic()))
                    except GtpError as exc:
                        raise GtpError(f"the opponent rejected our move {colour} {text} "
                                       f"(move {len(game.moves)}): {exc}") from None
                else:
                    t0 = time.perf_counter()
                    answer = client.send(f"genmove {colour}", timeout=max(1.0, deadline - time.monotonic()))
                    result.opponent_seconds += time.perf_counter() - t0
                    result.opponent_moves += 1
                    word = answer.strip().lower()
                    if word == "resign":
                        result.note = "opponent resigned"
                        break
                    if word == "pass":
                        raise GtpError(f"the opponent passed with {colour} although it has legal moves "
                                       f"(move {len(game.moves) + 1})")
                    try:
                        game.play(answer.strip(), k)
                    except SolverError as exc:
                        raise GtpError(f"the opponent's move {colour} {answer.strip()} "
                                       f"(move {len(game.moves) + 1}) is illegal here: {exc}") from None
            if result.note != "opponent resigned":
                theirs = client.send("final_score", timeout=30).strip()
                mine = final_score_text(game)
                if theirs != mine:
                    raise GtpError(f"final scores disagree: ours {mine}, the opponent's {theirs}")
        except GtpError as exc:
            ours.stop_pondering()
            result.note = f"{exc} ({len(game.moves)} moves played)"
            if self.client is not None and self.client.proc.poll() is None and "time limit" in str(exc):
                self.client.proc.kill()
            return result
        ours.stop_pondering()
        pts = side_points(game)
        me = v.sides[result.seat]
        result.points, result.opponent_points = pts[me], pts[1 - me]
        if result.note == "opponent resigned":
            result.result = "win"
        else:
            result.result = "win" if result.margin > 0 else ("draw" if result.margin == 0 else "loss")
        return result

    def play(self, games: int, on_game: Callable[[MatchGame], None] | None = None) -> list[MatchGame]:
        """Play ``games`` games in order; Ctrl-C stops after the games finished so far (they are
        returned through ``on_game`` as they end)."""
        out = []
        try:
            for i in range(games):
                g = self.play_game(i)
                out.append(g)
                self.finished.append(g)
                if on_game:
                    on_game(g)
        finally:
            self.close()
        return out


def game_rows(match: Match, games: list[MatchGame], complete: bool) -> list[dict]:
    """One CSV row per game."""
    rows = []
    for g in games:
        rows.append({
            "game": "blokus", "variant": match.variant.name, "match_game": g.index, "seat": g.seat,
            "strategy": match.strategy, "opponent": match.opponent_text, "result": g.result,
            "points": g.points, "opponent_points": g.opponent_points, "margin": g.margin,
            "moves": len(g.game.moves) if g.game else 0,
            "seconds_per_move": g.our_seconds / g.our_moves if g.our_moves else float("nan"),
            "opponent_seconds_per_move": g.opponent_seconds / g.opponent_moves if g.opponent_moves else float("nan"),
            "budget_seconds": g.budget if g.budget is not None else float("nan"),
            "book": match.book and g.book_moves > 0, "book_moves": g.book_moves,
            "opening": g.opening + 1 if g.opening is not None else "", "note": g.note,
            "complete": complete, "seed": match.seed, "solver_version": __version__,
        })
    return rows


#: a record's root comment: ``STRATEGY (seat N) vs OPPONENT: RESULT OURS-THEIRS[; NOTE]``
_RECORD_COMMENT = re.compile(r"(?s).*?\(seat (\d+)\) vs .*?: (win|draw|loss|not played) (\d+)-(\d+)(?:; .*)?")


def record_comment(strategy: str, opponent: str, g: MatchGame) -> str:
    """The root comment of a game's SGF record: who played, our seat, the result and points
    (read back by :func:`parse_record_comment`, e.g. for scores per opening line).

    >>> text = record_comment("mcts", "pentobi-gtp --level 6", MatchGame(3, 1, "loss", 60, 66))
    >>> text
    'mcts (seat 1) vs pentobi-gtp --level 6: loss 60-66'
    >>> parse_record_comment(text)
    (1, 'loss', 60, 66)
    """
    return (f"{strategy} (seat {g.seat}) vs {opponent}: {g.result} {g.points}-{g.opponent_points}"
            + (f"; {g.note}" if g.note else ""))


def parse_record_comment(text: str) -> tuple[int, str, int, int] | None:
    """(our seat, result, our points, the opponent's points) from a :func:`record_comment`;
    None for any other text."""
    m = _RECORD_COMMENT.fullmatch(text)
    if m is None:
        return None
    return int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))


def seat_score(games: list[MatchGame], seat: int) -> float:
    """Our score (draw = half) over the played ``games`` in which we had ``seat`` (0 moves
    first); NaN if there is none.

    >>> seat_score([MatchGame(0, 0, "win"), MatchGame(1, 1, "draw"), MatchGame(2, 0, "loss")], 0)
    0.5
    >>> seat_score([MatchGame(0, 0, "win"), MatchGame(1, 1, "not played")], 1)
    nan
    """
    mine = [g for g in games if g.seat == seat and g.result != "not played"]
    if not mine:
        return float("nan")
    return sum({"win": 1.0, "draw": 0.5}.get(g.result, 0.0) for g in mine) / len(mine)


def summary(match: Match, games: list[MatchGame]) -> dict:
    """Wins, draws, losses, score (draw = half) with its 95 % Wilson interval, the score as the
    first and as the second player (in two-player Blokus the seats differ much: a player's
    strength shows in both), mean margin and mean time per move of each side, over the games
    played."""
    played = [g for g in games if g.result != "not played"]
    n = len(played)
    wins = sum(g.result == "win" for g in played)
    draws = sum(g.result == "draw" for g in played)
    score = wins + 0.5 * draws
    lo, hi = wilson_interval(score, n)
    our_moves = sum(g.our_moves for g in played)
    their_moves = sum(g.opponent_moves for g in played)
    return {
        "variant": match.variant.name, "strategy": match.strategy, "opponent": match.opponent_text,
        "games": len(games), "played": n, "not_played": len(games) - n, "wins": wins, "draws": draws,
        "losses": n - wins - draws, "score": score / n if n else float("nan"), "ci_low": lo, "ci_high": hi,
        "score_first": seat_score(played, 0), "score_second": seat_score(played, 1),
        "mean_margin": sum(g.margin for g in played) / n if n else float("nan"),
        "seconds_per_move": sum(g.our_seconds for g in played) / our_moves if our_moves else float("nan"),
        "opponent_seconds_per_move": (sum(g.opponent_seconds for g in played) / their_moves
                                      if their_moves else float("nan")),
        "book": match.book,
        "book_moves_per_game": sum(g.book_moves for g in played) / n if n else float("nan"),
        "threads": match.threads,
        "ponder": match.ponder,
        "equal_time": match.equal_time,
        "openings": len(match.openings) if match.openings else 0,
    }
