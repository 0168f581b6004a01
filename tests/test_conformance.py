"""One conformance test for every game (as OpenSpiel does): random play through the real command line.

For each Monte Carlo command and a spread of configurations it checks what must hold for any
correct engine: every requested game is played, win counts are within bounds, the intervals
bracket the rates, a competitive game has exactly one winner per game (shared wins counted as
fractions), and the numbers are identical for 1 and 2 workers and differ for another seed.
"""

import csv
import io
from collections import defaultdict

import pytest
from click.testing import CliRunner

from solver.cli.main import app

COMMANDS = {
    "thegame": (["thegame", "simulate", "--players", "1-5", "--strategy", "greedy,reach,signal,planner",
                 "--variant", "{v}"], ["standard", "hard", "on-fire"], False),
    "blokus": (["blokus", "selfplay", "--variant", "{v}", "--strategy", "random"],
               ["classic", "classic-2", "classic-3", "teams", "duo"], True),
    "blokus3d": (["blokus3d", "selfplay", "--template", "{v}", "--strategy", "random"],
                 ["pyramid", "tower", "corner", "steps"], True),
    "clovece": (["clovece", "simulate", "--variant", "{v}", "--players", "4", "--strategy", "random"],
                ["classic", "napij-se"], True),
    "squid": (["squid", "simulate", "--players", "{v}", "--strategy", "random"], ["3", "4", "5", "6"], True),
}
CASES = [(game, v) for game, (_, variants, _) in COMMANDS.items() for v in variants]
GAMES = {"thegame": 400, "blokus": 12, "blokus3d": 200, "clovece": 200, "squid": 200}


def _run(game, variant, seed, workers):
    template, _, _ = COMMANDS[game]
    args = [a.format(v=variant) for a in template]
    args += ["--games", str(GAMES[game]), "--seed", str(seed), "-j", str(workers), "--block-size", "50", "-q"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("game,variant", CASES)
def test_random_play_conformance(game, variant):
    text = _run(game, variant, seed=7, workers=1)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows, "no result rows"
    n = GAMES[game]
    wins_per_config = defaultdict(float)
    for row in rows:
        assert row["game"] == game
        assert int(row["games"]) == n and row["complete"] == "true" and row["seed"] == "7"
        wins, rate = float(row["wins"]), float(row["win_rate"])
        assert 0 <= wins <= n
        assert float(row["ci_low"]) <= rate <= float(row["ci_high"])
        assert rate == pytest.approx(wins / n)
        wins_per_config[(row["variant"], row["players"], row.get("strategy") if game == "thegame" else "")] += wins
    if COMMANDS[game][2]:  # competitive: exactly one winner (or a shared win) per finished game
        winners = 2 if variant == "teams" else 1  # both partners of the winning team win
        for total in wins_per_config.values():
            assert total == pytest.approx(winners * n, abs=1e-6)


@pytest.mark.parametrize("game,variant", [(g, vs[0]) for g, (_, vs, _) in COMMANDS.items()])
def test_same_seed_same_numbers_for_any_worker_count(game, variant):
    one = _run(game, variant, seed=3, workers=1)
    two = _run(game, variant, seed=3, workers=2)
    assert one == two
    assert _run(game, variant, seed=4, workers=1) != one
