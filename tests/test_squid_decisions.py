"""The Squid Game decision API (solver.squid.decisions): games played one decision at a time on the
engine's own code, checked by the independent log checker (solver.squid.replay, written from the
rulebook) and by the rulebook's hands of cards."""

from __future__ import annotations

import random

import pytest

from solver.errors import SolverError
from solver.squid.decisions import DECISIONS, SquidGame, choose_move, play_seats
from solver.squid.experiment import POLICIES
from solver.squid.params import default_params
from solver.squid.play import play_game
from solver.squid.replay import check_lines

MIXES = (None, None, "random", "careful", "bold", "equilibrium")   # None: a uniformly random option


def _random_game(players: int, seed: int, seen: set[str] | None = None) -> SquidGame:
    """Each decision: a uniformly random option, or one policy's choice."""
    rng = random.Random(seed)
    game = SquidGame(players, seed=seed)
    for _ in range(5000):
        if game.is_over:
            break
        d = game.decision
        if seen is not None:
            seen.add(d.kind)
        assert len(d.options) >= 2 and len(set(d.options)) == len(d.options)
        how = rng.choice(MIXES)
        game.play(rng.choice(d.options) if how is None else choose_move(game, how, seed=rng.randrange(1000)))
    assert game.is_over
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_api_games_pass_the_independent_checker(players: int) -> None:
    seen: set[str] = set()
    for seed in range(1, 5):
        game = _random_game(players, 100 * players + seed, seen)
        summary = check_lines(game.log().jsonl().splitlines())
        assert (summary.winner, summary.how) == (game.winner, game.how)
        assert game.legal_moves() == [] and game.to_play is None and game.decision is None
    assert len(seen) >= 15


def test_every_kind_of_decision_is_reached() -> None:
    seen: set[str] = set()
    for seed in range(12):
        _random_game(3 + seed % 4, seed, seen)
    assert seen == set(DECISIONS)


def test_the_same_seed_and_decisions_give_the_same_game() -> None:
    game = _random_game(4, 7)
    again = SquidGame(4, seed=7)
    for a in game.history:
        again.play(a)
    assert again.log().jsonl() == game.log().jsonl() and again.is_over
    other = SquidGame(4, seed=8)       # another seed: other chance (the doll deck, ...)
    assert other.log().lines[1:] != SquidGame(4, seed=7).log().lines[1:] or other.decision != again.decision


def test_a_refused_action_leaves_the_game_as_it_was() -> None:
    game = SquidGame(3, seed=3)
    for _ in range(40):
        game.play(game.legal_moves()[-1])
    before = (game.history, game.decision, game.log().jsonl())
    for bad in (99, -5, 1000):
        with pytest.raises(SolverError, match="is not an option"):
            game.play(bad)
    assert (game.history, game.decision, game.log().jsonl()) == before
    copy = game.copy()
    copy.play(copy.legal_moves()[0])
    assert game.history == before[0] and copy.history == before[0] + (copy.history[-1],)
    done = _random_game(3, 4)
    with pytest.raises(SolverError, match="over"):
        done.play(0)
    assert all(choose_move(done, s) is None for s in POLICIES)


def test_choices_are_legal_and_reproducible_and_bad_names_refused() -> None:
    game = SquidGame(5, seed=11)
    rng = random.Random(2)
    while not game.is_over:
        for s in POLICIES:
            a = choose_move(game, s, seed=5)
            assert a in game.legal_moves() and choose_move(game, s, seed=5) == a
            game.label(a)
        game.play(rng.choice(game.legal_moves()))
    with pytest.raises(SolverError, match="unknown strategy"):
        choose_move(SquidGame(3), "greedy")
    for bad in (dict(players=2), dict(players=7), dict(players=3, seed=-1), dict(players=3, strategies=["x"] * 3)):
        with pytest.raises(SolverError):
            SquidGame(**bad)


@pytest.mark.parametrize("policy", ["careful", "bold", "equilibrium"])
def test_a_policy_decides_as_in_the_monte_carlo_loop(policy: str) -> None:
    """Up to its first random draw a policy game is the same through the API and in the engine's own
    loop (the first game of ``simulate``): the red-light cards of careful, bold and equilibrium seats
    are worked out, not drawn, and the chance before them is the same."""
    for seed in range(1, 6):
        batch = play_game(4, (policy,) * 4, seed, default_params()).lines
        api = play_seats(SquidGame(4, seed, strategies=(policy,) * 4))
        first = [e for e in batch[2]["events"] if "cards" in e]
        assert first and first == [e for e in api.log().lines[2]["events"] if "cards" in e]


def _hand_cards(game: SquidGame, player: int) -> set[int]:
    """The rulebook's hand at a card decision, from the log: glass bridge -- the five cards, each played
    once until all five are ("Zahrané karty se do ruky nevrací"); tug of war -- each card once per tug."""
    lines = game.log().lines
    sub = game.decision.subgame
    rounds = [ln for ln in lines[1:] if ln.get("subgame") == sub and ln["round"] > 0]
    if sub == "tug_of_war":
        laid = [e["value"] for ln in rounds for e in ln["events"] if "value" in e and e["card"] == player]
        return set(range(5)) - set(laid)
    played = [next(e["cards"][player] for e in ln["events"] if "cards" in e) for ln in rounds]
    return set(range(5)) - set(played[len(played) - len(played) % 5:])


def test_card_options_follow_the_rulebook() -> None:
    checked = set()
    for seed in range(8):
        rng = random.Random(seed)
        game = SquidGame(3 + seed % 4, seed=seed)
        while not game.is_over:
            d = game.decision
            opts = set(d.options)
            if d.kind in ("glass_bridge.card", "tug_of_war.card"):
                assert opts == _hand_cards(game, d.player), d
            elif d.kind == "red_light.card":
                assert opts == set(range(5))
            elif d.kind in ("squid.card", "dalgona.shape"):
                assert opts == set(range(4))
            elif d.kind in ("dalgona.flip", "marbles.mode", "marbles.guess", "glass_bridge.tile"):
                assert opts == {0, 1}
            elif d.kind == "marbles.hide":
                assert opts == {1, 2}
            elif d.kind in ("glass_bridge.push", "squid.move"):
                assert -1 in opts                       # pushing and moving are not compulsory
            checked.add(d.kind)
            game.play(rng.choice(d.options))
    assert {"glass_bridge.card", "tug_of_war.card", "red_light.card", "squid.card"} <= checked


def test_a_players_view_hides_the_cracks_and_the_others_secret_cards() -> None:
    game = SquidGame(4, seed=5)
    rng = random.Random(5)
    secret_seen = bridge_seen = False
    while not game.is_over:
        d = game.decision
        if d.kind == "red_light.card" and d.player > 0 and not secret_seen:
            full, mine = game.view().splitlines()[-1], game.view(d.player).splitlines()[-1]
            assert "cards P0" in full and "cards P0" not in mine
            secret_seen = True
        if d.subgame == "glass_bridge" and not bridge_seen:
            setup = next(ln for ln in game.view(d.player).splitlines() if "part 1" in ln)
            assert "face down" in setup and "cracked" not in setup and "intact" not in setup
            assert "face down" not in game.view()
            bridge_seen = True
        game.play(rng.choice(d.options))
    assert secret_seen and bridge_seen


def test_play_seats_needs_someone_for_a_human_seat() -> None:
    with pytest.raises(SolverError, match="human"):
        play_seats(SquidGame(3, seed=1, strategies=("human", "careful", "random")))


def test_cli_human_seat(tmp_path, capsys, solver_main, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    log = tmp_path / "game.jsonl"
    assert solver_main(["squid", "play", "-p", "3", "-s", "human,careful,random", "--seed", "2",
                        "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "P0, red light: card?" in out and "1) card 0" in out and "wins the game" in out
    assert solver_main(["squid", "replay", str(log)]) == 0
    assert "valid (3 players" in capsys.readouterr().out
    assert solver_main(["squid", "simulate", "-p", "3", "-s", "human", "--games", "10"]) == 2
    assert "unknown strategy 'human'" in capsys.readouterr().err
    assert solver_main(["squid", "play", "-p", "3", "-s", "human", "--log", "-"]) == 2
    assert "human seat" in capsys.readouterr().err


def _expected_state(game: SquidGame) -> dict:
    """What the log says of the running sub-game, worked out from its events alone (a tally independent
    of the engine's state): who stands where, what is out, through, turned, played."""
    lines = [ln for ln in game.log().lines[1:] if "events" in ln]
    sub = lines[-1]["subgame"]
    events = [e for ln in lines if ln["subgame"] == sub for e in ln["events"]]
    n = game.players
    if sub == "red_light":
        field, through = [0] * n, [0] * n
        for e in events:
            if "stack" in e:
                field[e["stack"]] = e["to"]
            elif "through" in e:
                through[e["through"]] += e["tokens"]
        return {"field": field, "through": through}
    if sub == "marbles":
        pairs: dict[int, list] = {}
        for e in events:
            if "pair" in e:
                pairs.setdefault(e["pair"], []).append(e["token"])
            elif "leftover" in e:             # an open pair's token joins another open pair
                pairs[e["joins"]].append(pairs[e["leftover"]][0])
        return {"pairs": [pairs[k] + [None] * (2 - len(pairs[k])) for k in sorted(pairs)]}
    if sub == "tug_of_war":
        sides = [{"left": [0] * n, "right": [0] * n} for _ in range(3)]
        for e in events:
            if "place" in e and "bridge" in e:
                sides[e["bridge"]][e["side"]][e["place"]] += 1
        return {"bridges": sides}
    status: dict[tuple, str] = {}
    for e in events:
        key = next(iter(e))
        if key in ("place", "queue") and isinstance(e[key], list):
            status[tuple(e[key])] = "on shape" if key == "place" else "in play"
        elif key in ("through",) and isinstance(e[key], list):
            status[tuple(e[key])] = "through"
        elif key in ("out", "timeout") and isinstance(e[key], list):
            status[tuple(e[key])] = "out"
        elif key in ("stab", "push", "miss") and sub == "squid":     # a bridge push only moves a token on
            status[tuple(e[key])] = "out"
    out: dict = {"status": status}
    if sub == "glass_bridge":
        out["turned"] = {e["turned"] for e in events if "turned" in e}
    return out


def test_the_state_agrees_with_the_log() -> None:
    checked = set()
    for seed in range(6):
        rng = random.Random(seed)
        game = SquidGame(3 + seed % 4, seed=seed)
        while not game.is_over:
            d = game.decision
            st = game.state(d.player)
            assert st["subgame"] == d.subgame and st["round"] >= 0 and st["timer"] >= 0
            want = _expected_state(game)
            if d.subgame == "red_light":
                assert all(p["field"] == f for p, f in zip(st["players"], want["field"], strict=True) if p["on_track"])
                assert [p["through"] for p in st["players"]] == want["through"]
            elif d.subgame == "marbles":
                assert [p["players"] for p in st["pairs"]] == want["pairs"]
            elif d.subgame == "tug_of_war":
                assert st["bridges"] == want["bridges"]
            elif d.subgame in ("dalgona", "glass_bridge"):
                assert {tuple(t["token"]): t["status"] for t in st["tokens"]} == want["status"]
                if d.subgame == "glass_bridge":
                    assert {p["part"] for p in st["parts"] if p["turned"]} == want["turned"]
                    assert all(p["crack"] == "hidden" for p in st["parts"] if not p["turned"])
                    assert set(st["hands"][d.player]) == _hand_cards(game, d.player) or d.kind != "glass_bridge.card"
            else:
                dead = {t for t, s in want["status"].items() if s == "out"}
                assert {tuple(t["token"]) for t in st["tokens"] if not t["alive"]} == dead
            checked.add(d.subgame)
            game.play(rng.choice(d.options))
        assert game.state() is None
    assert len(checked) == 6
