"""Slow, obvious pure-Python reference of The Game, written independently of ext/thegame.pyx.

Everything is plain lists.  It plays whole games for the simple strategies (greedy, reach,
signal) with the same documented tie-breaking as the engine, plays random legal games, and
replays any turn log checking every rule.  Tests compare the Cython engine with it.

Rules recap: piles 0 and 1 go up from 1, piles 2 and 3 go down from 100; a card may also go
exactly 10 "backwards".  At least ``min_play`` cards per turn while the draw pile has cards,
``min_play_empty`` after; refill from the front of the deck; players without cards are skipped;
a fire card left on top must be covered by the end of the next turn (the win, all 98 cards
played, takes precedence).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

UP = (True, True, False, False)   # pile directions: ascending?


@dataclass
class Rules:
    players: int
    min_play: int = 2
    min_play_empty: int = 1
    fire: frozenset = frozenset()

    @property
    def hand_size(self) -> int:
        if self.players == 1:
            return 8
        if self.players == 2:
            return 7
        return 6


RULES = {
    "standard": dict(min_play=2, min_play_empty=1),
    "hard": dict(min_play=3, min_play_empty=1),
    "on-fire": dict(min_play=2, min_play_empty=1, fire=frozenset([22, 33, 44, 55, 66, 77])),
}


def make_rules(players: int, variant: str) -> Rules:
    return Rules(players, **RULES[variant])


def ok(pile: int, top: int, card: int) -> bool:
    """Legal play?"""
    if UP[pile]:
        return card > top or top - card == 10
    return card < top or card - top == 10


def gap(pile: int, top: int, card: int):
    """Numeric gap of a legal play, -10 for a backward jump, None if illegal."""
    if not ok(pile, top, card):
        return None
    if UP[pile]:
        return -10 if card == top - 10 else card - top
    return -10 if card == top + 10 else top - card


def possible(piles: list[int], hand: list[int], need: int) -> bool:
    """Can `need` cards be played one after another?"""
    return first_sequence(piles, hand, need) is not None


def first_sequence(piles: list[int], hand: list[int], need: int):
    """First sequence of `need` plays in order (hand position ascending, pile 0..3), or None."""
    if need == 0:
        return []
    for i in range(len(hand)):
        if hand[i] is None:
            continue
        for k in range(4):
            if ok(k, piles[k], hand[i]):
                card = hand[i]
                p2 = piles[:]
                p2[k] = card
                h2 = hand[:]
                h2[i] = None
                rest = first_sequence(p2, h2, need - 1)
                if rest is not None:
                    return [(card, k)] + rest
    return None


@dataclass
class State:
    rules: Rules
    deck: list[int]
    piles: list[int] = field(default_factory=lambda: [1, 1, 100, 100])
    hands: list[list[int]] = field(default_factory=list)
    draw: list[int] = field(default_factory=list)
    fire_turn: list = field(default_factory=lambda: [None] * 4)
    turn: int = 0
    played: int = 0

    @classmethod
    def deal(cls, rules: Rules, deck: list[int]) -> State:
        s = cls(rules, list(deck))
        h = rules.hand_size
        s.hands = [sorted(deck[p * h:(p + 1) * h]) for p in range(rules.players)]
        s.draw = list(deck[rules.players * h:])
        return s

    def required(self, p: int) -> int:
        need = self.rules.min_play if self.draw else self.rules.min_play_empty
        return min(need, len(self.hands[p]))

    def next_player(self, p: int) -> int:
        for _ in range(self.rules.players):
            if self.hands[p]:
                return p
            p = (p + 1) % self.rules.players
        return p

    def apply(self, p: int, plays: list[tuple[int, int]]) -> None:
        """Play the cards (asserting every rule), refill."""
        assert len(plays) >= self.required(p), f"turn {self.turn}: too few cards"
        for card, k in plays:
            assert card in self.hands[p], f"turn {self.turn}: player {p} lacks {card}"
            assert 0 <= k < 4 and ok(k, self.piles[k], card), f"turn {self.turn}: {card} illegal on {k}"
            self.hands[p].remove(card)
            self.piles[k] = card
            self.fire_turn[k] = self.turn if card in self.rules.fire else None
            self.played += 1
        while len(self.hands[p]) < self.rules.hand_size and self.draw:
            self.hands[p].append(self.draw.pop(0))
        self.hands[p].sort()

    def fire_lost(self) -> bool:
        return self.played < 98 and any(t is not None and t < self.turn for t in self.fire_turn)

    def cards_left(self) -> int:
        return len(self.draw) + sum(len(h) for h in self.hands)


# --------------------------------------------------------------------------- strategies


def signalled(s: State, p: int, sig: float) -> list[bool]:
    """Piles a team mate asks to keep: he holds its 10-jump or a card within `sig` of the top."""
    marks = [False] * 4
    for q in range(s.rules.players):
        if q == p:
            continue
        for card in s.hands[q]:
            for k in range(4):
                g = gap(k, s.piles[k], card)
                if g is not None and (g == -10 or g <= sig):
                    marks[k] = True
    return marks


def heuristic_turn(s: State, p: int, name: str, params: dict) -> list[tuple[int, int]]:
    """greedy / reach / signal with the engine's documented tie-breaking (card ascending, pile 0..3)."""
    hand = list(s.hands[p])
    piles = list(s.piles)
    need = s.required(p)
    pen = [0, 0, 0, 0]
    if name == "signal":
        marks = signalled(s, p, params["sig"])
        pen = [int(params["pen"]) if m else 0 for m in marks]
    if name == "greedy":
        limit = float("-inf")
    else:
        limit = params["reach"] if s.draw else params["endgame"]
    plays: list[tuple[int, int]] = []
    left = list(hand)
    while left:
        best = None
        for card in left:
            for k in range(4):
                g = gap(k, piles[k], card)
                if g is None:
                    continue
                if g > 0:
                    g += pen[k]
                if best is None or g < best[0]:
                    best = (g, card, k)
        if best is None:
            break
        if len(plays) >= need and best[0] > limit:
            break
        _, card, k = best
        left.remove(card)
        piles[k] = card
        plays.append((card, k))
    if len(plays) >= need and s.rules.fire:
        for k in range(4):
            t = s.fire_turn[k]
            if t is not None and t < s.turn and piles[k] == s.piles[k]:
                best = None
                for card in left:
                    g = gap(k, piles[k], card)
                    if g is not None and (best is None or g < best[0]):
                        best = (g, card)
                if best is not None:
                    left.remove(best[1])
                    piles[k] = best[1]
                    plays.append((best[1], k))
    if len(plays) < need:
        seq = first_sequence(list(s.piles), list(s.hands[p]), need)
        return seq or []
    return plays


def random_turn(s: State, p: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random legal turn (at least the minimum when possible, random extra cards)."""
    need = s.required(p)
    seq = first_sequence(list(s.piles), list(s.hands[p]), need)
    if seq is None:
        return []
    # random walk: try random plays; fall back to the first legal sequence
    for _ in range(5):
        piles = list(s.piles)
        left = list(s.hands[p])
        plays = []
        target = rng.randint(need, len(left))
        while len(plays) < target:
            moves = [(c, k) for c in left for k in range(4) if ok(k, piles[k], c)]
            if not moves:
                break
            c, k = rng.choice(moves)
            left.remove(c)
            piles[k] = c
            plays.append((c, k))
        if len(plays) >= need:
            return plays
    return seq


# --------------------------------------------------------------------------- whole games


def play(rules: Rules, deck: list[int], choose) -> tuple[list, bool, int]:
    """Play a game where `choose(state, player)` gives each turn's plays; returns (turns, win, left)."""
    s = State.deal(rules, deck)
    turns = []
    p = 0
    while s.played < 98:
        p = s.next_player(p)
        plays = choose(s, p)
        if len(plays) < s.required(p):
            assert not possible(s.piles, s.hands[p], s.required(p))
            break
        s.apply(p, plays)
        turns.append((p, plays))
        lost = s.fire_lost()
        s.turn += 1
        if lost:
            break
        p = (p + 1) % rules.players
    return turns, s.played == 98, 98 - s.played


def replay(rules: Rules, deck: list[int], turns: list) -> tuple[bool, int]:
    """Check a turn log against the rules (AssertionError if broken); return (win, cards_left)."""
    s = State.deal(rules, deck)
    p = 0
    for i, (who, plays) in enumerate(turns):
        assert s.played < 98, "turn after the win"
        p = s.next_player(p)
        assert who == p, f"turn {i}: expected player {p}, got {who}"
        s.apply(p, list(plays))
        lost = s.fire_lost()
        s.turn += 1
        if lost:
            assert i == len(turns) - 1, "turns after a fire loss"
            return False, 98 - s.played
        p = (p + 1) % rules.players
    if s.played < 98:
        p = s.next_player(p)
        assert not possible(s.piles, s.hands[p], s.required(p)), "log stops although a turn was possible"
    return s.played == 98, 98 - s.played
