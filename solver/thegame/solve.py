"""Perfect-information solving of one deal: can the team win when every card's position is known?

The search itself is the C engine ``solver._ext.thegame_solve`` (see its docstring and
docs/thegame.md).  This module prepares a deal (from a seed, a log or a card list), lets the
``planner`` play it first -- its game is the search's first line (move ordering) and the fallback
answer when a limit stops the search -- and turns the search's action list into the turns of a
:class:`~solver.thegame.play.GameLog`, which ``thegame replay`` checks like any played game.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import SolverError
from solver.inputs import parse_json, read_text, split_lines
from solver.thegame.play import GameLog
from solver.thegame.play import play_deck as planner_game
from solver.thegame.strategies import parse_strategy
from solver.thegame.variants import Variant, hand_size

Turns = list[tuple[int, list[tuple[int, int]]]]

#: transposition-table size (2**bits entries; an entry is 2 words per hand + 2)
TT_BITS = 21


@dataclass
class Solution:
    """Result of solving one deal.

    ``status`` is ``win`` (a winning line is in ``log``), ``proven`` (not winnable; ``min_left`` is
    the proven fewest cards left and ``log`` reaches it) or ``limit`` (the node or time limit
    stopped the search: at least ``min_left`` and at most ``best_left`` cards are left -- ``log``
    is the best line known, the planner's game).
    """

    status: str
    min_left: int
    best_left: int
    nodes: int
    seconds: float
    log: GameLog
    #: cards the planner leaves on this deal (its game is the search's first line)
    planner_left: int

    @property
    def winnable(self) -> bool | None:
        """True / False when decided, None when the limit stopped the search at target 0."""
        if self.status == "win":
            return True
        if self.status == "proven" or self.min_left > 0:
            return False
        return None


def actions_to_turns(line: list[tuple[int, int, int]]) -> Turns:
    """The engine's actions (player, card, pile; card -1 = end of turn) as turns.

    >>> actions_to_turns([(0, 5, 0), (0, 9, 2), (0, -1, -1), (0, 6, 0)])
    [(0, [(5, 0), (9, 2)]), (0, [(6, 0)])]
    """
    turns: Turns = []
    plays: list[tuple[int, int]] = []
    for player, card, pile in line:
        if card < 0:
            turns.append((player, plays))
            plays = []
        else:
            plays.append((card, pile))
            who = player
    if plays:
        turns.append((who, plays))
    return turns


def turns_to_actions(turns: Turns) -> list[tuple[int, int]]:
    """Turns as the engine's hint actions: (card, pile) plays, (-1, -1) after each turn."""
    out: list[tuple[int, int]] = []
    for _, plays in turns:
        out.extend(plays)
        out.append((-1, -1))
    return out


def solve(deck: list[int], players: int, variant: Variant, *, node_limit: int = 0, time_limit: float = 0.0,
          seed: int | None = None, tt_bits: int = TT_BITS) -> Solution:
    """Solve the deal ``deck`` (98 cards, dealt and drawn from the front) for ``players`` players."""
    from solver._ext import thegame_solve as engine

    check_deck(deck)
    planner = planner_game(players, variant, parse_strategy("planner"), deck, seed)
    res = engine.solve_deal(list(deck), players, hand_size(players), variant.min_play, variant.min_play_empty,
                            sorted(variant.fire_cards), turns_to_actions(planner.turns), node_limit,
                            time_limit, tt_bits)
    status = res["status"]
    if res["line"] is not None:
        turns = actions_to_turns(res["line"])
        left = 98 - sum(len(p) for _, p in turns)
        log = GameLog(players, variant.name, "solver", seed, list(deck), turns, left == 0, left)
    else:
        log = planner
    return Solution(status, res["min_left"], log.cards_left, res["nodes"], res["seconds"], log,
                    planner.cards_left)


def check_deck(deck: list[int]) -> None:
    """SolverError unless ``deck`` lists the cards 2..99 once each."""
    if len(deck) != 98 or sorted(deck) != list(range(2, 100)):
        raise SolverError("the deck must list the 98 cards 2..99 once each")


def parse_deck(text: str) -> list[int]:
    """A deck given as comma-separated cards.

    >>> parse_deck(",".join(map(str, range(99, 1, -1))))[:3]
    [99, 98, 97]
    """
    try:
        deck = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise SolverError("--deck must be comma-separated card numbers") from None
    check_deck(deck)
    return deck


def deck_from_log(path: str) -> tuple[list[int], int | None]:
    """The deck (and seed) in the header line of a ``thegame play`` log."""
    lines = split_lines(read_text(path, "log"))
    head = parse_json(lines[0] if lines else "", f"{path}: line 1")
    deck = head.get("deck") if isinstance(head, dict) else None
    if not isinstance(deck, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in deck):
        raise SolverError(f"{path}: line 1: no deck (a list of cards) in the header")
    check_deck(deck)
    seed = head.get("seed")
    return deck, seed if isinstance(seed, int) and not isinstance(seed, bool) else None
