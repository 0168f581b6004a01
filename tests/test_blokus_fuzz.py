"""Fuzz suite for Blokus inputs: SGF records (mutated from records of every variant family, both
touching rules, setup and passes) and option values, through the CLI in-process.

Every input ends in exit status 0, or 2 with exactly one line ``solver: error: …`` — never a
traceback (the contract of tests/fuzzing.py, shared with the other formats' fuzz suite).
``SOLVER_FUZZ_LONG=1 pytest -m slow tests/test_blokus_fuzz.py`` runs ten times as many inputs.
"""

from __future__ import annotations

import os
import random

import pytest
from fuzzing import mutants, run_checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.blokus.game import Game
from solver.blokus.sgf import write_game

SEED_RECORDS = [
    "(;FF[4]GM[Blokus Duo]AB[e8,e9,f9,d10,e10]AW[i4,h5,i5,j5,i6]PL[W];W[k11])",
    "(;FF[4]GM[Blokus];1[a20,b20,b19];2[t20];3[t1,s1](;4[a1])(;4[a1,a2]))",
]


def _records() -> list[str]:
    out = list(SEED_RECORDS)
    for i, (variant, touch) in enumerate([("classic", "standard"), ("duo", "standard"), ("classic-3", "standard"),
                                          ("trigon", "standard"), ("trigon-3", "corners-only"),
                                          ("trigon-2", "standard")]):
        rnd = random.Random(i)
        game = Game(variant, touch=touch)
        for _ in range(rnd.randrange(4, 30)):
            if game.is_over:
                break
            game.play(rnd.choice(game.legal_moves()))
        out.append(write_game(game, comment="fuzz", name=variant))
    return out


def _check_records(tmp_path, count: int, seed: int) -> None:
    path = tmp_path / "m.blksgf"
    for i, data in enumerate(mutants(_records(), count, seed)):
        path.write_bytes(data)
        command = ("moves", "show", "moves")[i % 3]
        argv = ["blokus", command, str(path)] + (["--count"] if i % 3 == 2 else [])
        run_checked(argv, label=f"mutant {i}")


def test_mutated_records(tmp_path):
    _check_records(tmp_path, 600, seed=1)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("SOLVER_FUZZ_LONG"), reason="set SOLVER_FUZZ_LONG=1 for the long run")
def test_mutated_records_long(tmp_path):
    _check_records(tmp_path, 6000, seed=2)


NASTY = ["0", "-1", "1e999", "nan", "inf", "9" * 5000, "", "x", "a\nb", "\u2028", "3:4:5", "1.5"]
strategy_text = st.one_of(
    st.sampled_from(["random", "greedy", "mc:2:2", "mcts:5"]),
    st.builds(lambda k, v: f"mcts:5:{k}={v}", st.sampled_from(["explore", "prior_n", "widen", "playout_k", "x"]),
              st.sampled_from(NASTY)),
    st.builds(lambda a, b: f"{a}:{b}", st.sampled_from(["mc", "mcts", "greedy", "random"]), st.sampled_from(NASTY)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(["duo", "trigon-3", "classic-3", "hexagon", ""]),
       touch=st.sampled_from(["standard", "corners-only", "edges"]),
       first=st.sampled_from(["start-cell", "any-corner", "middle"]),
       depth=st.sampled_from(["1", "0", "13", "-2", "x", "9" * 5000]),
       strategy=strategy_text)
def test_option_values(variant, touch, first, depth, strategy):
    run_checked(["blokus", "perft", "--variant", variant, "--touch", touch, "--first-move", first,
                 "--depth", depth])
    run_checked(["blokus", "selfplay", "--variant", variant, "--touch", touch, "--first-move", first,
                 "--strategy", strategy, "--games", "1", "-q", "-j", "1", "-o", os.devnull])


GTP_WORDS = ["play", "genmove", "reg_genmove", "undo", "clear_board", "set_game", "Blokus", "Trigon", "Two-Player",
             "Three-Player", "Duo", "b", "w", "1", "2", "3", "4", "pass", "e10", "r4,s4,r5", "a1,b1", "all_legal",
             "final_score", "showboard", "loadsgf", "/nonexistent", "known_command", "list_commands", "name",
             "version", "9" * 400, "\x00", "é", "-1", "\u2028"]


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(["duo", "trigon", "classic-2", "trigon-3"]),
       lines=st.lists(st.lists(st.sampled_from(GTP_WORDS), min_size=1, max_size=4), min_size=1, max_size=12))
def test_gtp_command_lines(variant, lines):
    """Our GTP engine answers every command line with a GTP success or failure, never an exception
    (this found ``loadsgf`` with a NUL byte in the name raising ValueError)."""
    from solver.blokus.gtp import GtpEngine

    engine = GtpEngine(variant, "greedy", seed=1)
    for words in lines:
        line = " ".join(words)
        answer = engine.handle(line)
        blank = not line.strip()          # an empty line gets no answer (GTP)
        assert answer.startswith(("=", "?")) if not blank else answer == "", (line, answer)
