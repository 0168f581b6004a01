"""`squid play` logs and the independent `squid replay` checker: engine games of every table size,
policy mix and several parameter sets replay cleanly; a logged game is one game of `simulate`;
every kind of tampering is caught on its line; the commands' outputs and exit codes."""

from __future__ import annotations

import json
import random

import pytest

from solver._ext import squid as engine
from solver.errors import SolverError
from solver.squid.experiment import POLICIES
from solver.squid.params import engine_dict, load_params, with_value
from solver.squid.play import play_game
from solver.squid.replay import check_lines

PARAMS = load_params()
#: parameter sets that reach rarer branches: no room on the tug bridges, tied sums surviving, a
#: bridge all cracked or all intact, one timer step, a long track, a tiny squid board
VARIANTS = {
    "default": PARAMS,
    "cramped": with_value(with_value(PARAMS, "tug_of_war.side_capacity", 1), "tug_of_war.tie", "both_survive"),
    "all-cracked": with_value(with_value(PARAMS, "glass_bridge.cracked", 8), "glass_bridge.timer_steps", 1),
    "no-cracks": with_value(with_value(PARAMS, "glass_bridge.cracked", 0), "red_light.track_length", 30),
    "short": with_value(with_value(PARAMS, "dalgona.timer_steps", 1), "red_light.timer_steps", 1),
    "small-board": with_value(with_value(PARAMS, "squid.triangle_fields", 2), "marbles.off_table", 0.5),
}


def _lineup(seed: int, players: int) -> tuple[str, ...]:
    rng = random.Random(seed)
    return tuple(rng.choice(POLICIES) for _ in range(players))


def _log(seed: int, players: int = 5, variant: str = "default", lineup: tuple[str, ...] | None = None):
    return play_game(players, lineup or _lineup(seed, players), seed, VARIANTS[variant])


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_engine_games_replay_cleanly(players: int, variant: str) -> None:
    for seed in range(8):
        log = _log(seed, players, variant)
        summary = check_lines(log.jsonl().splitlines())
        assert (summary.winner, summary.how) == (log.lines[-1]["winner"], log.lines[-1]["result"])
        assert summary.players == players and summary.lines == len(log.lines)


@pytest.mark.parametrize("policy", POLICIES)
def test_one_policy_tables_replay_cleanly(policy: str) -> None:
    for seed in range(10):
        log = _log(seed, 3 + seed % 4, lineup=(policy,) * (3 + seed % 4))
        check_lines(log.jsonl().splitlines())


def test_logged_game_is_the_first_game_of_simulate() -> None:
    """The log does not change the game: the same seed gives the same winner, the same survivors of
    every sub-game and the same rounds as the first game of the Monte Carlo loop."""
    eng = engine_dict(PARAMS)
    for seed in range(12):
        pols = [POLICIES.index(s) for s in _lineup(seed, 5)]
        traced = engine.play_traced(eng, pols, seed)
        game = engine.trace_games(eng, pols, seed, 1)[0]
        tally = engine.simulate_block(eng, pols, seed, 1)
        assert (traced["winner"], traced["how"], traced["rounds"]) == (game["winner"], game["how"], game["rounds"])
        assert list(tally["wins"]).index(1) == traced["winner"]
        log = play_game(5, _lineup(seed, 5), seed, PARAMS)
        survivors = [e["survivors"] for line in log.lines[1:-1] for e in line["events"] if "survivors" in e]
        assert survivors == game["surv"]


def test_logs_show_every_kind_of_event() -> None:
    """Over a few games the logs contain every event the format describes, so the checker sees them."""
    kinds: set[str] = set()
    results = set()
    for seed in range(40):
        variant = ("default", "cramped", "small-board", "all-cracked")[seed % 4]
        log = _log(seed, 3 + seed % 4, variant)
        results.add(log.lines[-1]["result"])
        for line in log.lines[1:-1]:
            kinds.update(next(iter(e)) for e in line["events"])
    assert kinds >= {"tokens", "start", "cards", "timer", "survivors", "doll", "crossed_out", "stack", "through",
                     "push", "timeout", "place", "turn", "flip", "advance", "out", "no_room", "card", "bridge",
                     "pair", "leftover", "odd", "own_pair", "duel", "odd_even", "throw", "part", "queue", "move",
                     "tile", "turned", "at", "chain", "speed", "stab", "miss", "head", "win"}
    assert results >= {"head", "last_survivor"}


# ----------------------------------------------------------------------------- tampering

def _lines(log) -> list[dict]:
    return json.loads(json.dumps(log.lines))   # a deep copy


def _find(lines: list[dict], key: str, pred) -> tuple[int, dict] | None:
    for i, line in enumerate(lines):
        for e in line.get("events", []):
            if key in e and pred(e):
                return i, e
    return None


def _stack(e: dict) -> None:
    e["to"] += 1


def _doll(e: dict) -> None:
    e["doll"] = (e["doll"] + 1) % len(PARAMS["red_light"]["doll_cards"])


def _bridge_sum(e: dict) -> None:
    e["sums"][0] += 1


def _crack(e: dict) -> None:
    e["crack"] = "left" if e["crack"] != "left" else "right"


def _field(e: dict) -> None:
    e["field"] += 1


def _zone(e: dict) -> None:
    e["to"] = "triangle" if e["to"] != "triangle" else "safe"


def _bridge_card(e: dict) -> None:
    e["card"] = e["card"] % 4 + 1


def _swap_throws(lines: list[dict]) -> int | None:
    """A changed chance outcome: the two marbles of a line duel swap distances."""
    for i, line in enumerate(lines):
        throws = [e for e in line.get("events", []) if "throw" in e]
        if len(throws) == 2 and not any(e["off"] for e in throws) and throws[0]["distance"] != throws[1]["distance"]:
            throws[0]["distance"], throws[1]["distance"] = throws[1]["distance"], throws[0]["distance"]
            return i
    return None


def _any(e: dict) -> bool:
    return True


#: name -> (event kind, which events of that kind, the change)
TAMPERS = {
    "red light: a stack moved one field too far": ("stack", _any, _stack),
    "red light: another doll card (a changed roll)": ("doll", _any, _doll),
    "tug of war: a wrong sum": ("bridge", lambda e: "sums" in e, _bridge_sum),
    "glass bridge: a part turned over shows another crack": ("turned", lambda e: e["crack"] is not None, _crack),
    "squid: a token advanced two fields": ("advance", lambda e: "field" in e and e["field"] < 7, _field),
    "squid: a token moved to a zone that is not adjacent (a wrong move)":
        ("move", lambda e: "to" in e and e["to"] != "square", _zone),
    "glass bridge: a token moved by a card not played": ("move", lambda e: "card" in e, _bridge_card),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_events_are_caught_on_their_line(name: str) -> None:
    key, which, change = TAMPERS[name]
    caught = 0
    for seed in range(40):
        lines = _lines(_log(seed, 3 + seed % 4))
        hit = _find(lines, key, which)
        if hit is None:
            continue
        i, e = hit
        change(e)
        with pytest.raises(SolverError, match=r"^line (\d+): ") as info:
            check_lines([json.dumps(x) for x in lines])
        assert str(info.value).startswith(f"line {i + 1}: "), (str(info.value), i + 1)
        assert "\n" not in str(info.value)
        caught += 1
    assert caught >= 20


def test_changed_marble_throws_are_caught() -> None:
    caught = 0
    for seed in range(60):
        lines = _lines(_log(seed, 6, "small-board"))
        i = _swap_throws(lines)
        if i is None:
            continue
        with pytest.raises(SolverError, match=f"^line {i + 1}: event .*out"):
            check_lines([json.dumps(x) for x in lines])
        caught += 1
    assert caught >= 10


def _broken(lines: list[dict], change) -> str:
    lines = json.loads(json.dumps(lines))
    change(lines)
    with pytest.raises(SolverError) as info:
        check_lines([json.dumps(x) for x in lines])
    assert "\n" not in str(info.value)
    return str(info.value)


def test_wrong_winner_truncation_header_and_malformed_lines() -> None:
    log = _log(3, 4)
    lines = log.lines
    n = len(lines)
    winner = lines[-1]["winner"]
    assert f"line {n}: player {winner} has won" in _broken(lines, lambda x: x[-1].update(winner=(winner + 1) % 4))
    assert f"line {n}: player {winner} has won" in _broken(lines, lambda x: x[-1].update(result="round_cap"))
    assert "the log ends without a result line" in _broken(lines, lambda x: x.pop())
    assert "the log ends early" in _broken(lines, lambda x: x.__delitem__(slice(n // 2, None)))
    assert "line 2: the rules give red_light round 0" in _broken(lines, lambda x: x.pop(1))
    assert f"line {n + 1}: lines follow the result line" in _broken(lines, lambda x: x.append(x[-1]))
    assert "line 1: log version 2 is not supported" in _broken(lines, lambda x: x[0].update(version=2))
    assert "line 1: not a Squid Game log" in _broken(lines, lambda x: x[0].update(game="clovece"))
    assert "line 1: players must be 3 to 6" in _broken(lines, lambda x: x[0].update(players=7))
    assert "line 1: strategies must name" in _broken(lines, lambda x: x[0].update(strategies=["genius"] * 4))
    assert "line 1: parameter glass_bridge.cracked" in _broken(
        lines, lambda x: x[0]["params"]["glass_bridge"].update(cracked=99))
    assert "line 1: params must be the complete" in _broken(lines, lambda x: x[0]["params"].pop("marbles"))
    assert "line 2: event 1: the rules give" in _broken(lines, lambda x: x[1]["events"][0]["tokens"].__setitem__(0, 8))
    assert "line 3: event 1: 'cards' must list" in _broken(lines, lambda x: x[2]["events"][0].update(cards=[1]))
    assert "card must be an integer 0..4" in _broken(lines, lambda x: x[2]["events"][0]["cards"].__setitem__(0, 7))
    assert "line 3: 'events' must be a list" in _broken(lines, lambda x: x[2].update(events="none"))
    text = log.jsonl().splitlines()
    with pytest.raises(SolverError, match=r"^line 5: not valid JSON"):
        check_lines(text[:4] + [text[4][:-3]] + text[5:])
    with pytest.raises(SolverError, match="the log is empty"):
        check_lines([])


def test_decisions_outside_the_rules_are_caught() -> None:
    """Decisions the rules forbid: a Dalgona turn that flips no card, a bridge card played twice
    before the hand is refilled."""
    for seed in range(30):
        lines = _lines(_log(seed, 5))
        # a Dalgona turn without any card flipped
        for i, line in enumerate(lines):
            if line.get("subgame") == "dalgona" and line["round"] > 0:
                ev = line["events"]
                j = next(k for k, e in enumerate(ev) if "turn" in e)
                end = next((k for k in range(j + 1, len(ev)) if "turn" in ev[k] or "timer" in ev[k]), len(ev))
                del ev[j + 1:end]
                with pytest.raises(SolverError, match=f"^line {i + 1}: event {j + 2}: player .* must flip"):
                    check_lines([json.dumps(x) for x in lines])
                break
        # the same bridge card twice before the hand is refilled
        lines = _lines(_log(seed, 5))
        rounds = [i for i, x in enumerate(lines) if x.get("subgame") == "glass_bridge" and x["round"] in (1, 2)]
        if len(rounds) == 2:
            first = lines[rounds[0]]["events"][0]["cards"]
            second = lines[rounds[1]]["events"][0]["cards"]
            p = next((q for q in range(5) if first[q] is not None and second[q] is not None), None)
            if p is not None:
                second[p] = first[p]
                with pytest.raises(SolverError, match=f"^line {rounds[1] + 1}: event 1: player {p} has already played"):
                    check_lines([json.dumps(x) for x in lines])


def test_a_squid_head_entry_from_the_wrong_field_is_caught() -> None:
    caught = 0
    for seed in range(80):
        lines = _lines(_log(seed, 3 + seed % 4))
        hit = _find(lines, "move", lambda e: "to" in e and e["to"] == "triangle")
        if hit is None:
            continue
        i, e = hit
        e.pop("to")
        e["head"] = e.pop("move")
        with pytest.raises(SolverError, match=f"^line {i + 1}: event .*(only a token on triangle field|"
                                              "follows the end|did not play)"):
            check_lines([json.dumps(x) for x in lines])
        caught += 1
    assert caught >= 20


# ----------------------------------------------------------------------------- the commands

def test_cli_play_and_replay(tmp_path, capsys, solver_main) -> None:
    log = tmp_path / "g.jsonl"
    assert solver_main(["squid", "play", "--players", "4", "--strategy", "careful,random,bold,equilibrium",
                  "--seed", "3", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Squid Game: 4 players: P0 careful, P1 random, P2 bold, P3 equilibrium; seed 3")
    for heading in ("== 1. red light", "== 2. dalgona", "== 3. tug of war", "== 4. marbles",
                    "== 5. glass bridge", "== 6. squid"):
        assert heading in out
    assert "  round 1: cards P0 " in out and " wins the game (" in out.splitlines()[-1]
    assert solver_main(["squid", "replay", str(log)]) == 0
    assert "valid (4 players" in capsys.readouterr().out
    assert solver_main(["squid", "play", "-p", "3", "--seed", "3", "--quiet"]) == 0
    quiet = capsys.readouterr().out
    assert quiet.count("\n") == 1 and quiet.startswith("player ")
    assert solver_main(["squid", "play", "-p", "4", "-s", "careful,random,bold,equilibrium", "--seed", "3",
                  "--log", "-"]) == 0
    assert capsys.readouterr().out == log.read_text(encoding="utf-8")
    lines = log.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[2])
    first["events"][0]["cards"][0] = 9
    lines[2] = json.dumps(first)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert solver_main(["squid", "replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solver: error: line 3: event 1:") and err.count("\n") == 1
    for args in (["--strategy", "genius"], ["--players", "7"], ["--players", "3", "--strategy", "bold,bold"],
                 ["--params", str(tmp_path / "missing.toml")], ["--log", str(tmp_path / "no" / "dir.jsonl")]):
        assert solver_main(["squid", "play", *args]) == 2, args
        assert capsys.readouterr().err.count("\n") == 1, args
    log.write_text('{"game": "squid", "version": 1}\n{not json\n', encoding="utf-8")
    for path in (tmp_path / "missing.jsonl", log):
        assert solver_main(["squid", "replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("solver: error: ") and err.count("\n") == 1


def test_play_uses_the_parameter_file(tmp_path, capsys, solver_main) -> None:
    params = tmp_path / "p.toml"
    params.write_text("[glass_bridge]\ncracked = 0\n", encoding="utf-8")
    log = tmp_path / "g.jsonl"
    assert solver_main(["squid", "play", "--params", str(params), "--seed", "5", "--log", str(log), "-q"]) == 0
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert head["params"]["glass_bridge"]["cracked"] == 0
    assert "cracked" not in capsys.readouterr().out
    assert solver_main(["squid", "replay", str(log)]) == 0


def test_the_checker_does_not_use_the_engine() -> None:
    """The replay is independent: checking a log imports neither the C engine nor the log builder."""
    import subprocess
    import sys

    log = _log(4, 4).jsonl()
    code = ("import sys, json; from solver.squid.replay import check_lines; "
            "check_lines(sys.stdin.read().splitlines()); "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('solver'))))")
    out = subprocess.run([sys.executable, "-c", code], input=log, capture_output=True, text=True, check=True)
    modules = json.loads(out.stdout)
    assert "solver.squid.replay" in modules
    assert not {"solver._ext.squid", "solver.squid.play", "solver.squid.equilibrium"} & set(modules)
