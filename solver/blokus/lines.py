"""Our score per opening line, read back from match records (``solver blokus match --sgf``).

A match's score hides where it is won and lost: in two-player Blokus a few opening lines carry
most games (an opponent with an opening book plays the same replies again and again), and one
poor book entry can cost a whole seat.  This module groups the recorded games by their first
``plies`` moves and by our seat, and gives our score on each line, so that the weak lines can be
put into an opening suite (``match --openings``) and a better entry chosen
(``python -m solver.blokus.book VARIANT --choose``).

Each record's root comment says our seat and the result, in the form written by
:func:`solver.blokus.match.record_comment`.

>>> from solver.blokus.game import Game
>>> g = Game("duo"); _ = g.play("e10,e9,f9"); _ = g.play("j5")
>>> rows = line_table([(g, 0, "win", 5), (g, 0, "loss", -3), (g, 1, "draw", 0)], plies=1)
>>> [(r.seat, r.moves, r.games, r.score) for r in rows]
[(0, ('e9,f9,e10',), 2, 0.5), (1, ('e9,f9,e10',), 1, 0.5)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.blokus.game import Game
from solver.blokus.match import parse_record_comment
from solver.blokus.sgf import read_file_games_and_roots
from solver.errors import SolverError
from solver.montecarlo.stats import wilson_interval

#: one recorded game: the game, our seat (0 moves first), our result and our margin
Record = tuple[Game, int, str, int]


@dataclass(frozen=True)
class LineStats:
    """Our results on one opening line (its first moves) with one seat."""

    seat: int
    moves: tuple[str, ...]
    wins: int
    draws: int
    losses: int
    margin_sum: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + 0.5 * self.draws) / self.games

    def row(self) -> dict:
        """The line as a CSV row (its moves joined by ``;``, as ``book --choose`` takes a line)."""
        lo, hi = wilson_interval(self.wins + 0.5 * self.draws, self.games)
        return {"seat": self.seat, "line": ";".join(self.moves), "plies": len(self.moves),
                "games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "score": self.score, "ci_low": lo, "ci_high": hi,
                "mean_margin": self.margin_sum / self.games}


def line_table(records: Iterable[Record], plies: int) -> list[LineStats]:
    """Group played games by (our seat, their first ``plies`` moves); games not played, and
    games with fewer moves, are left out.  Sorted by seat, then by number of games (most
    first), then by line."""
    counts: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for game, seat, result, margin in records:
        if result not in ("win", "draw", "loss") or len(game.moves) < plies:
            continue
        key = (seat, tuple(game.move_text(m) for m in game.moves[:plies]))
        c = counts.setdefault(key, [0, 0, 0, 0])
        c[("win", "draw", "loss").index(result)] += 1
        c[3] += margin
    rows = [LineStats(seat, moves, *c) for (seat, moves), c in counts.items()]
    rows.sort(key=lambda r: (r.seat, -r.games, r.moves))
    return rows


def read_records(paths: Sequence[str]) -> list[Record]:
    """The games of match record files, with our seat, result and margin from each root comment;
    SolverError naming the file and game for a record without one, or for files of different
    variants."""
    out: list[Record] = []
    variant = None
    for path in paths:
        for i, (game, root) in enumerate(read_file_games_and_roots(path), 1):
            found = parse_record_comment(root.get("GC", [""])[0])
            if found is None:
                raise SolverError(f"{path}, game {i}: not a match record (its GC comment does not "
                                  "give our seat and result, as solver blokus match --sgf writes)")
            if variant is not None and game.variant.name != variant:
                raise SolverError(f"{path}, game {i}: a {game.variant.name} game among {variant} games")
            variant = game.variant.name
            seat, result, ours, theirs = found
            out.append((game, seat, result, ours - theirs))
    return out


def suite_games(rows: Sequence[LineStats], variant: str) -> list[Game]:
    """Each distinct line of ``rows`` once, as a game of its moves only: an opening suite for
    ``solver blokus match --openings``."""
    seen: set[tuple[str, ...]] = set()
    games = []
    for r in rows:
        if r.moves in seen:
            continue
        seen.add(r.moves)
        g = Game(variant)
        for text in r.moves:
            g.play(text)
        games.append(g)
    return games
