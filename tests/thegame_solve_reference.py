"""Brute-force perfect-information solver for *tiny* decks of The Game, written from the rulebook.

Independent of the C solver (``ext/thegame_solve.pyx``): it enumerates every legal whole turn
(every sequence of at least the minimum number of plays, any pile, any order), refills, applies the
fire rule, passes to the next player who still holds cards, and memoises the fewest cards left on
the whole position.  No pruning, no ordering, no bounds: usable for decks of about 10-20 cards.

Rules restated (the Czech rulebook, /work/shared/rules/the-game.cs.txt): two piles ascend from
``lo - 1``, two descend from ``hi + 1``; a card goes on an ascending pile when higher than the top
or exactly 10 lower, on a descending pile when lower or exactly 10 higher (``jump``: other distances only to make tiny decks harder).  A turn plays at least
``min_play`` cards (``min_play_empty`` once the draw pile is empty, never more than the hand),
then refills the hand from the front of the deck.  A player who cannot play the minimum loses the
game for everybody; the cards not on the piles are the score.  Fire variant: a fire card on top
at the end of the turn after the one in which it was played loses the game (unless all cards are
played).  ``tops`` / ``start`` let a deal begin with other pile tops (values that are not cards
of the deck), which makes tiny decks losable.
"""

from __future__ import annotations

from functools import cache


def ok(pile: int, top: int, card: int, jump: int = 10) -> bool:
    if pile < 2:
        return card > top or card == top - jump
    return card < top or card == top + jump


def turn_outcomes(tops: tuple, hand: tuple, need: int, jump: int = 10):
    """Every distinct (tops, cards kept, piles played on) after a legal turn of >= need plays."""
    out = set()

    def rec(tops, hand, n, touched):
        if n >= need:
            out.add((tops, hand, touched))
        for i, card in enumerate(hand):
            for k in range(4):
                if ok(k, tops[k], card, jump):
                    t = list(tops)
                    t[k] = card
                    rec(tuple(t), hand[:i] + hand[i + 1:], n + 1, touched | (1 << k))

    rec(tops, hand, 0, 0)
    return out


def min_cards_left(deck: list[int], players: int, hand_size: int, min_play: int, min_play_empty: int,
                   fire: frozenset = frozenset(), jump: int = 10, tops: tuple | None = None) -> int:
    """Fewest cards that can be left at the end of the game with every card known."""
    n = len(deck)
    lo, hi = min(deck), max(deck)
    hands0 = []
    pos = 0
    for _ in range(players):
        hands0.append(tuple(sorted(deck[pos:pos + hand_size])))
        pos += hand_size
    pos = min(pos, n)

    @cache
    def best(tops: tuple, hands: tuple, pos: int, player: int, fire_due: int) -> int:
        played = pos - sum(len(h) for h in hands)
        if played == n:
            return 0
        for _ in range(players):
            if hands[player]:
                break
            player = (player + 1) % players
        hand = hands[player]
        need = min(min_play if pos < n else min_play_empty, len(hand))
        result = n - played          # if no legal turn exists, the game is lost now
        for new_tops, kept, touched in turn_outcomes(tops, hand, need, jump):
            left = n - played - (len(hand) - len(kept))
            if left == 0:
                return 0
            if fire_due & ~touched:
                result = min(result, left)        # a fire card stayed uncovered: lost after this turn
                continue
            due = sum(1 << k for k in range(4) if touched >> k & 1 and new_tops[k] in fire)
            refill = max(0, min(hand_size - len(kept), n - pos))
            new_hand = tuple(sorted(kept + tuple(deck[pos:pos + refill])))
            new_hands = hands[:player] + (new_hand,) + hands[player + 1:]
            result = min(result, best(new_tops, new_hands, pos + refill, (player + 1) % players, due))
            if result == 0:
                return 0
        return result

    return best(tuple(tops or (lo - 1, lo - 1, hi + 1, hi + 1)), tuple(hands0), pos, 0, 0)


def replay_line(deck: list[int], players: int, hand_size: int, min_play: int, min_play_empty: int,
                turns: list[tuple[int, list[tuple[int, int]]]], fire: frozenset = frozenset(),
                jump: int = 10, start: tuple | None = None) -> tuple[bool, int]:
    """Check a line turn by turn against the rules; return (won, cards left).  AssertionError if
    a rule is broken, or if the line stops while the next player could still play (a false loss)."""
    n = len(deck)
    lo, hi = min(deck), max(deck)
    hands = [sorted(deck[p * hand_size:(p + 1) * hand_size]) for p in range(players)]
    pos = min(players * hand_size, n)
    tops = list(start or (lo - 1, lo - 1, hi + 1, hi + 1))
    played = 0
    player = 0
    due = 0
    for who, plays in turns:
        assert played < n, "a turn after the game was won"
        assert due >= 0, "a turn after a fire loss"
        for _ in range(players):
            if hands[player]:
                break
            player = (player + 1) % players
        assert who == player, f"player {player} is to move, not {who}"
        hand = hands[player]
        need = min(min_play if pos < n else min_play_empty, len(hand))
        assert len(plays) >= need, f"{len(plays)} plays, at least {need} required"
        touched = 0
        for card, pile in plays:
            assert card in hand, f"card {card} not in hand"
            assert ok(pile, tops[pile], card, jump), f"card {card} illegal on pile {pile} (top {tops[pile]})"
            hand.remove(card)
            tops[pile] = card
            touched |= 1 << pile
            played += 1
        while len(hand) < hand_size and pos < n:
            hand.append(deck[pos])
            pos += 1
        hand.sort()
        if played < n and due & ~touched:
            due = -1
            continue
        due = sum(1 << k for k in range(4) if touched >> k & 1 and tops[k] in fire)
        player = (player + 1) % players
    if played < n and due >= 0:
        for _ in range(players):
            if hands[player]:
                break
            player = (player + 1) % players
        need = min(min_play if pos < n else min_play_empty, len(hands[player]))
        assert not any(len(hands[player]) - len(kept) >= need
                       for _, kept, _ in turn_outcomes(tuple(tops), tuple(hands[player]), need, jump)), \
            "the line stops although the next player can still play"
    return played == n, n - played
