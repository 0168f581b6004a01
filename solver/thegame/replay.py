"""Check a JSON Lines game log (see :mod:`solver.thegame.play`) against every rule.

The checker replays the log with plain Python lists: dealing and refilling from the front of the
deck, the player order (players without cards are skipped), the minimum cards per turn (variant,
empty draw pile), each card's legality (direction or exact 10-jump), fire cards that must be
covered by the end of the next turn, and the result line (a loss must be real: the player to move
cannot play the required number of cards, or a fire card stayed uncovered).  The first broken rule
is reported as ``line N: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.gamelog import line_error, parse_lines, read_lines
from solver.thegame.variants import VARIANTS, hand_size


def legal(pile: int, top: int, card: int) -> bool:
    """Can ``card`` go on pile ``pile`` (0, 1 ascending; 2, 3 descending) whose top is ``top``?

    >>> legal(0, 76, 66), legal(2, 51, 61), legal(0, 76, 60), legal(3, 51, 50)
    (True, True, False, True)
    """
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


def can_play(piles: list[int], hand: list[int], need: int) -> bool:
    """Whether ``need`` cards of ``hand`` can be played one after another (exhaustive search).

    >>> can_play([1, 1, 100, 100], [50, 60], 2)
    True
    >>> can_play([98, 98, 3, 3], [50, 60], 1)
    False
    """
    if need <= 0:
        return True
    for i, card in enumerate(hand):
        for k in range(4):
            if legal(k, piles[k], card):
                rest = hand[:i] + hand[i + 1:]
                new = list(piles)
                new[k] = card
                if can_play(new, rest, need - 1):
                    return True
    return False


@dataclass
class ReplaySummary:
    """What a valid log contains."""

    players: int
    variant: str
    turns: int
    win: bool
    cards_left: int


_fail = line_error


def _int(obj: dict[str, Any], key: str, line: int) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(line, f"{key!r} must be an integer")
    return value


def check_lines(lines: list[str]) -> ReplaySummary:
    """Replay the log lines; raise SolverError naming the first line that breaks a rule."""
    objs = parse_lines(lines)
    no, head = objs[0]
    players = _int(head, "players", no)
    if not 1 <= players <= 5:
        raise _fail(no, f"players must be between 1 and 5, got {players}")
    size = _int(head, "hand_size", no)
    if size != hand_size(players):
        raise _fail(no, f"hand_size must be {hand_size(players)} for {players} players, got {size}")
    name = head.get("variant")
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise _fail(no, f"unknown variant {head.get('variant')!r}")
    deck = head.get("deck")
    if not isinstance(deck, list) or sorted(x for x in deck if isinstance(x, int)) != list(range(2, 100)) \
            or len(deck) != 98:
        raise _fail(no, "deck must list the 98 cards 2..99 once each")
    hands = [sorted(deck[p * size:(p + 1) * size]) for p in range(players)]
    pos = players * size
    piles = [1, 1, 100, 100]
    fire_turn = [-1] * 4
    played = 0
    player = 0
    turn = 0
    lost_by_fire = False
    for no, obj in objs[1:]:
        if "result" in obj:
            return _check_result(no, obj, objs[-1][0], played, hands, piles, player, variant, deck, pos,
                                 lost_by_fire, players, turn)
        if lost_by_fire:
            raise _fail(no, "the game was already lost (a fire card stayed uncovered) but a turn follows")
        if played == 98:
            raise _fail(no, "all cards are played (the game is won) but a turn follows")
        for _ in range(players):
            if hands[player]:
                break
            player = (player + 1) % players
        who = _int(obj, "player", no)
        if who != player:
            raise _fail(no, f"turn {turn + 1}: player {player} is to move, the log says {who}")
        plays = obj.get("plays")
        if not isinstance(plays, list):
            raise _fail(no, "'plays' must be a list")
        hand = hands[player]
        need = variant.required(98 - pos, len(hand))
        if len(plays) < need:
            raise _fail(no, f"turn {turn + 1}: player {player} plays {len(plays)} card(s), must play "
                            f"at least {need}")
        for play in plays:
            if not isinstance(play, dict):
                raise _fail(no, "each play must be an object with 'card' and 'pile'")
            card, pile = _int(play, "card", no), _int(play, "pile", no)
            if card not in hand:
                raise _fail(no, f"turn {turn + 1}: player {player} does not hold card {card}")
            if not 0 <= pile <= 3:
                raise _fail(no, f"turn {turn + 1}: pile must be 0..3, got {pile}")
            if not legal(pile, piles[pile], card):
                kind = "ascending" if pile < 2 else "descending"
                raise _fail(no, f"turn {turn + 1}: card {card} cannot go on {kind} pile {pile} "
                                f"(top {piles[pile]})")
            hand.remove(card)
            piles[pile] = card
            fire_turn[pile] = turn if card in variant.fire_cards else -1
            played += 1
        while len(hand) < size and pos < 98:
            hand.append(deck[pos])
            pos += 1
        hand.sort()
        if played < 98 and any(0 <= f < turn for f in fire_turn):
            lost_by_fire = True
        turn += 1
        player = (player + 1) % players
    raise SolverError(f"line {objs[-1][0]}: the log ends without a result line")


def _check_result(no, obj, last_no, played, hands, piles, player, variant, deck, pos, lost_by_fire,
                  players, turns) -> ReplaySummary:
    if no != last_no:
        raise _fail(last_no, "lines follow the result line")
    result = obj.get("result")
    if result not in ("win", "loss"):
        raise _fail(no, "result must be 'win' or 'loss'")
    left = _int(obj, "cards_left", no)
    if left != 98 - played:
        raise _fail(no, f"cards_left is {left}, but {98 - played} cards are not on the piles")
    if played == 98:
        if result != "win":
            raise _fail(no, "all 98 cards are played: the result must be a win")
    elif result == "win":
        raise _fail(no, f"result says win but {98 - played} cards are left")
    elif not lost_by_fire:
        for _ in range(players):
            if hands[player]:
                break
            player = (player + 1) % players
        need = variant.required(98 - pos, len(hands[player]))
        if can_play(piles, hands[player], need):
            raise _fail(no, f"result says loss but player {player} can still play {need} card(s)")
    return ReplaySummary(players, variant.name, turns, played == 98, 98 - played)


def check_file(path: str | Path) -> ReplaySummary:
    """Read and check a log file (unreadable file or broken rule -> SolverError)."""
    return check_lines(read_lines(path))
