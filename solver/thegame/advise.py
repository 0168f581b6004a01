"""The strategies at the table: what would ``planner`` (or another strategy) play in this situation?

The situation is what a player knows: his hand, the four pile tops, the cards already played
(every other card 2..99 is live: in the draw pile or a team mate's hand), the size of the draw
pile and the piles team mates asked to keep ("please don't play here").  The engine's own turn
function decides (``solver._ext.thegame.advise_turn``), so the advice is exactly what the
strategy plays in simulations.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import SolverError
from solver.thegame.strategies import StrategySpec
from solver.thegame.variants import Variant, hand_size


@dataclass
class Situation:
    """One decision at the table (validated by :func:`situation`)."""

    hand: list[int]
    piles: list[int]
    played: list[int]
    played_given: bool
    draw_left: int
    players: int
    keep: list[int]


@dataclass
class Advice:
    """The strategy's turn with its reasons."""

    plays: list[tuple[int, int]]
    required: int
    score_before: float | None
    score_after: float | None
    keeps: list[int]


def parse_cards(text: str, name: str) -> list[int]:
    """Comma-separated integers (SolverError naming the option otherwise).

    >>> parse_cards("7, 23,58", "--hand")
    [7, 23, 58]
    """
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise SolverError(f"{name} must be comma-separated numbers, got {text!r}") from None


def situation(hand: list[int], piles: list[int], played: list[int] | None, draw_left: int | None,
              players: int, keep: list[int]) -> Situation:
    """Check that the situation can occur; fill in the defaults (played = the pile tops, draw pile =
    every live card not held by the player or, with full hands, by his team mates)."""
    size = hand_size(players)
    if not 1 <= len(hand) <= size:
        raise SolverError(f"--hand must hold 1 to {size} cards with {players} player(s), got {len(hand)}")
    if len(set(hand)) != len(hand):
        raise SolverError("--hand lists a card twice")
    if any(not 2 <= c <= 99 for c in hand):
        raise SolverError("cards are 2..99")
    if len(piles) != 4:
        raise SolverError("--piles must give 4 tops: two ascending piles, then two descending piles")
    if any(not 1 <= t <= 99 for t in piles[:2]) or any(not 2 <= t <= 100 for t in piles[2:]):
        raise SolverError("impossible piles: ascending tops are 1 (untouched) or a card 2..99, "
                          "descending tops a card 2..99 or 100 (untouched)")
    tops = [t for t in piles if 2 <= t <= 99]
    if len(set(tops)) != len(tops):
        raise SolverError("impossible piles: the same card lies on two piles")
    if set(tops) & set(hand):
        raise SolverError("a card is both in the hand and on a pile")
    if any(k not in range(4) for k in keep):
        raise SolverError("--keep-signals lists piles 0..3")
    given = played is not None
    played = sorted(set(tops)) if played is None else played
    if len(set(played)) != len(played):
        raise SolverError("--played lists a card twice")
    if any(not 2 <= c <= 99 for c in played):
        raise SolverError("cards are 2..99")
    if set(played) & set(hand):
        raise SolverError("a card is both in the hand and among the played cards")
    if played and not tops:
        raise SolverError("impossible: cards were played but every pile is untouched")
    missing = sorted(set(tops) - set(played))
    if missing:
        raise SolverError(f"pile top {missing[0]} is missing from --played")
    unseen = 98 - len(played) - len(hand)
    if draw_left is None:
        draw_left = max(0, unseen - (players - 1) * size)
    elif not 0 <= draw_left <= unseen:
        raise SolverError(f"--draw-left must be between 0 and {unseen} (cards neither played nor in hand)")
    return Situation(sorted(hand), list(piles), sorted(played), given, draw_left, players, sorted(set(keep)))


def advise(s: Situation, variant: Variant, spec: StrategySpec) -> Advice:
    """The strategy's turn in situation ``s``.  In fire variants a fire card on top of a pile is
    taken to be the previous turn's (it must be covered now)."""
    from solver._ext import thegame as engine

    lo, hi = variant.fire_words
    fire_due = [int(t in variant.fire_cards) for t in s.piles]
    keep = [int(k in s.keep) for k in range(4)]
    plays, required, before, after = engine.advise_turn(
        s.players, variant.min_play, variant.min_play_empty, lo, hi, spec.kind, spec.vector(s.players),
        s.hand, s.piles, s.played, s.draw_left, keep, fire_due)
    kept = sorted(set(s.hand) - {c for c, _ in plays})
    return Advice(plays, required, before, after, kept)


def describe(s: Situation, advice: Advice, variant: Variant, spec: StrategySpec) -> list[str]:
    """The advice as lines of text: each play with the live cards it skips, scores, cards kept."""
    live = set(range(2, 100)) - set(s.played)
    source = ("the cards given by --played" if s.played_given else
              "only the pile tops (implied by the piles; give --played for the real set)")
    lines = [f"{spec.label} ({s.players} player{'s' if s.players > 1 else ''}, {variant.name}; "
             f"draw pile {s.draw_left} cards, at least {advice.required} play(s); played cards: {source})"]
    if not advice.plays:
        lines.append(f"no legal turn: {advice.required} card(s) cannot be played, the game is lost")
        return lines
    tops = list(s.piles)
    for card, pile in advice.plays:
        top = tops[pile]
        kind = "ascending" if pile < 2 else "descending"
        if (pile < 2 and card < top) or (pile >= 2 and card > top):
            why = "10-jump back"
        else:
            skipped = sum(1 for c in live if min(top, card) < c < max(top, card) and c not in s.hand)
            held = sum(1 for c in s.hand if min(top, card) < c < max(top, card))
            why = f"skips {skipped} unseen card(s)" + (f" and {held} of the hand" if held else "")
        lines.append(f"  play {card} on pile {pile} ({kind}, {top} -> {card}): {why}")
        tops[pile] = card
        live.discard(card)
    if advice.score_before is not None:
        lines.append(f"planner's score (cost, lower is better): {advice.score_before:.2f} before, "
                     f"{advice.score_after:.2f} after")
    lines.append("keeps: " + (", ".join(map(str, advice.keeps)) or "nothing"))
    return lines
