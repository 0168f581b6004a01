"""Rule variants of The Game as small parameter records (the engine's C ``Variant`` struct).

A variant is fully described by the minimum number of cards per turn while the draw pile lasts,
the minimum once it is empty, and the set of fire cards (each must be covered by the end of the
next turn).  New variants are new entries here, not new engine code.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import SolverError


@dataclass(frozen=True)
class Variant:
    """Rule parameters of one variant."""

    name: str
    min_play: int
    min_play_empty: int
    fire_cards: frozenset[int] = frozenset()

    @property
    def fire_words(self) -> tuple[int, int]:
        """Fire cards as two 64-bit masks (cards 0..63 and 64..127) for the engine.

        >>> VARIANTS["on-fire"].fire_words[0] >> 22 & 1
        1
        """
        lo = sum(1 << c for c in self.fire_cards if c < 64)
        hi = sum(1 << (c - 64) for c in self.fire_cards if c >= 64)
        return lo, hi

    def required(self, draw_pile: int, hand: int) -> int:
        """Cards the player to move must play.

        >>> VARIANTS["hard"].required(10, 6), VARIANTS["hard"].required(0, 6)
        (3, 1)
        """
        return min(self.min_play if draw_pile > 0 else self.min_play_empty, hand)


VARIANTS: dict[str, Variant] = {
    "standard": Variant("standard", 2, 1),
    "hard": Variant("hard", 3, 1),
    "on-fire": Variant("on-fire", 2, 1, frozenset({22, 33, 44, 55, 66, 77})),
}


def hand_size(players: int) -> int:
    """Cards per hand: 8 solo, 7 for two players, 6 for three to five.

    >>> [hand_size(p) for p in range(1, 6)]
    [8, 7, 6, 6, 6]
    """
    if not 1 <= players <= 5:
        raise SolverError(f"players must be between 1 and 5, got {players}")
    return {1: 8, 2: 7}.get(players, 6)


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (SolverError if unknown)."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise SolverError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None
