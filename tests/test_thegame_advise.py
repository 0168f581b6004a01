"""`thegame advise`: the advice is the strategy's own turn (checked against whole engine games),
the defaults are stated, and impossible situations are one-line errors."""

from __future__ import annotations

import pytest

from solver._ext import thegame as engine
from solver.errors import SolverError
from solver.thegame.advise import advise, situation
from solver.thegame.strategies import parse_strategy
from solver.thegame.variants import VARIANTS


@pytest.mark.parametrize("spec", ["planner", "greedy", "reach:reach=1,endgame=7"])
@pytest.mark.parametrize("variant", ["standard", "hard"])
def test_advice_is_the_engines_turn_in_solo_games(spec, variant):
    """Walk solo games turn by turn: the advice for each situation is the turn the engine played."""
    strategy = parse_strategy(spec)
    var = VARIANTS[variant]
    checked = 0
    for seed in range(12):
        deck = engine.shuffled_deck(seed)
        turns, _, _ = engine.play_deck(1, var.min_play, var.min_play_empty, 0, 0, strategy.kind,
                                       strategy.vector(1), deck)
        hand, pos, piles, played = list(deck[:8]), 8, [1, 1, 100, 100], []
        for _, plays in turns:
            s = situation(hand, piles, played, 98 - pos, 1, [])
            assert advise(s, var, strategy).plays == plays
            checked += 1
            for card, pile in plays:
                hand.remove(card)
                piles[pile] = card
                played.append(card)
            while len(hand) < 8 and pos < 98:
                hand.append(deck[pos])
                pos += 1
    assert checked > 150


def test_defaults_and_signals():
    s = situation([7, 23, 58, 61, 88, 90], [12, 30, 95, 71], None, None, 3, [])
    assert s.played == [12, 30, 71, 95] and not s.played_given
    assert s.draw_left == 98 - 4 - 6 - 2 * 6
    planner = parse_strategy("planner")
    free = advise(s, VARIANTS["standard"], planner)
    assert len(free.plays) >= 2 and free.score_before is not None and free.score_after is not None
    assert sorted(free.keeps + [c for c, _ in free.plays]) == s.hand
    # asking to keep every pile the planner used changes (or at least does not break) the advice
    used = sorted({k for _, k in free.plays})
    asked = advise(situation(s.hand, s.piles, None, None, 3, used), VARIANTS["standard"], planner)
    assert len(asked.plays) >= 2


@pytest.mark.parametrize("hand,piles,played,draw", [
    ([7, 7], [1, 1, 100, 100], None, None),          # a card twice
    ([12, 13], [12, 1, 100, 100], None, None),       # in hand and on a pile
    ([5], [100, 1, 100, 100], None, None),           # ascending pile cannot show 100
    ([5], [1, 1, 1, 100], None, None),               # descending pile cannot show 1
    ([5], [40, 40, 100, 100], None, None),           # one card on two piles
    ([5, 6], [30, 1, 100, 100], [5, 30], None),      # in hand and played
    ([5, 6], [30, 1, 100, 100], [31], None),         # a pile top not among the played cards
    ([5, 6], [1, 1, 100, 100], [7], None),           # played cards but untouched piles
    ([5, 6], [30, 1, 100, 100], None, 97),           # larger draw pile than unseen cards
    ([], [1, 1, 100, 100], None, None),              # empty hand
])
def test_impossible_situations(hand, piles, played, draw):
    with pytest.raises(SolverError):
        situation(hand, piles, played, draw, 1, [])


def cli(args):
    from solver.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    return exc.value.code


def test_cli_advise(capsys):
    assert cli(["thegame", "advise", "--hand", "7,23,58,61,88,90", "--piles", "12,30,95,71",
                "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "implied by the piles" in out and out.count("  play ") >= 2 and "keeps:" in out
    assert cli(["thegame", "advise", "--hand", "7,23", "--piles", "12,30,95,71", "--played", "12,30,95,71,2",
                "--draw-left", "0", "--keep-signals", "0,2", "--strategy", "greedy"]) == 0
    assert "given by --played" in capsys.readouterr().out


@pytest.mark.parametrize("args", [
    ["--hand", "7,7", "--piles", "1,1,100,100"],
    ["--hand", "7,x", "--piles", "1,1,100,100"],
    ["--hand", "7", "--piles", "1,1,100"],
    ["--hand", "7", "--piles", "1,1,100,100", "--keep-signals", "4"],
    ["--hand", "7", "--piles", "1,1,100,100", "--strategy", "bogus"],
    ["--hand", "7", "--piles", "1,1,100,100", "--players", "6"],
])
def test_cli_advise_bad_input_exit_2(args, capsys):
    assert cli(["thegame", "advise", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solver: error:") and err.count("\n") == 1
