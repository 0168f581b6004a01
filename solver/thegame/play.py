"""One logged game: the JSON Lines log that ``thegame play`` writes and ``thegame replay`` checks.

Log format (one JSON object per line):

1. ``{"players": P, "hand_size": H, "variant": V, "strategy": S, "seed": N, "deck": [98 cards]}``
   -- hands are dealt from the front of the deck (player 0 the first H cards, ...), refills draw
   from the front of what remains;
2. one line per turn ``{"player": i, "plays": [{"card": c, "pile": k}, ...]}`` (piles 0 and 1
   ascend, 2 and 3 descend);
3. ``{"result": "win" | "loss", "cards_left": n}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver.thegame.strategies import StrategySpec
from solver.thegame.variants import Variant, hand_size


@dataclass
class GameLog:
    """A finished game: header fields, turns and result."""

    players: int
    variant: str
    strategy: str
    seed: int | None
    deck: list[int]
    turns: list[tuple[int, list[tuple[int, int]]]]
    win: bool
    cards_left: int

    def lines(self) -> list[dict[str, Any]]:
        head = {"players": self.players, "hand_size": hand_size(self.players), "variant": self.variant,
                "strategy": self.strategy, "seed": self.seed, "deck": list(self.deck)}
        body = [{"player": p, "plays": [{"card": c, "pile": k} for c, k in plays]} for p, plays in self.turns]
        tail = {"result": "win" if self.win else "loss", "cards_left": self.cards_left}
        return [head, *body, tail]

    def jsonl(self) -> str:
        return "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in self.lines())


def play_deck(players: int, variant: Variant, spec: StrategySpec, deck: list[int],
              seed: int | None = None) -> GameLog:
    """Let the engine play one game from ``deck`` with every player using ``spec``."""
    from solver._ext import thegame as engine

    lo, hi = variant.fire_words
    turns, win, left = engine.play_deck(players, variant.min_play, variant.min_play_empty, lo, hi,
                                        spec.kind, spec.vector(players), list(deck))
    return GameLog(players, variant.name, spec.label, seed, list(deck), turns, win, left)


def play_seed(players: int, variant: Variant, spec: StrategySpec, seed: int) -> GameLog:
    """One game whose deck is shuffled by the engine's generator seeded with ``seed``."""
    from solver._ext import thegame as engine

    return play_deck(players, variant, spec, engine.shuffled_deck(seed), seed)
