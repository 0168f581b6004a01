"""Blokus 3D engine against the plain-Python reference written from the rules (tests/blokus3d_reference.py)."""

from __future__ import annotations

import pickle
import random

import blokus3d_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.blokus3d.game import Game3D
from solver.blokus3d.pieces import PIECES
from solver.blokus3d.record import read_games, write_games
from solver.blokus3d.selfplay import SelfPlay3D, choose_move
from solver.blokus3d.templates import TEMPLATES
from solver.errors import SolverError


def ref_game(game: Game3D) -> ref.RefGame:
    """The reference game with the same moves played."""
    r = ref.RefGame(game.template.cells, game.height, game.players)
    for m in game.moves:
        assert r.to_play() == m.colour
        r.play(m.colour, m.cubes)
    return r


def engine_legal(game: Game3D, colour: int) -> set[frozenset]:
    return {frozenset(game.move_from_code(colour, c).cubes) for c in game.position.legal_codes(colour)}


def test_pieces_are_the_polycubes_of_two_to_four_cubes():
    engine = {frozenset(frozenset(o) for o in p.orientations) for p in PIECES}
    reference = {frozenset(cls) for cls in ref.PIECE_CLASSES}
    assert engine == reference and len(engine) == 11


@pytest.mark.slow
@pytest.mark.parametrize("template", sorted(TEMPLATES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_positions_match_the_reference(template, players):
    """Legal moves of the colour to play and of another colour, turn order, drop-outs and scores."""
    rng = random.Random(f"{template}-{players}")
    positions = 0
    for _ in range(5):
        game = Game3D(template, players)
        r = ref.RefGame(game.template.cells, game.height, players)
        while True:
            k = game.to_play
            assert k == r.to_play()
            assert [game.is_out(c) for c in range(players)] == r.out
            if k is None:
                break
            other = rng.randrange(players)
            for colour in {k, other}:
                assert engine_legal(game, colour) == r.legal(colour)
            positions += 1
            move = rng.choice(game.legal_moves())
            game.play(move)
            r.play(k, move.cubes)
        assert game.scores() == r.scores()
    assert positions >= 5 * 6


def test_thousands_of_positions():
    """Every legal move of the colour to play is legal for the reference and the counts agree, over
    a few thousand random positions on every template (cheap: the reference's own enumeration)."""
    rng = random.Random(7)
    positions = 0
    for template in sorted(TEMPLATES):
        for players in (2, 3, 4):
            for _ in range(10):
                game = Game3D(template, players)
                r = ref.RefGame(game.template.cells, game.height, players)
                while (k := game.to_play) is not None:
                    moves = engine_legal(game, k)
                    assert len(moves) == len(game.legal_codes())
                    assert moves == r.legal(k)
                    positions += 1
                    cubes = rng.choice(sorted(moves, key=sorted))
                    game.play(game.move_from_cubes(list(cubes), k))
                    r.turn = game.position.to_play
                    r.play(k, cubes)
                    r.turn = game.position.to_play
                    r.out = [game.position.is_out(c) for c in range(players)]
    assert positions > 2000


@pytest.mark.parametrize("template,players,depth", [("tower", 2, 2), ("corner", 2, 2), ("tower", 4, 2)])
def test_perft_matches_the_reference(template, players, depth):
    game = Game3D(template, players)
    expected = ref.perft(ref.RefGame(game.template.cells, game.height, players), depth)
    assert game.position.perft(depth) == expected


def test_illegal_moves_say_why():
    g = Game3D("pyramid", 2)
    g.play("a1:1,b1:1")
    cases = {
        "c1:2,d1:2": "empty space under it",
        "a1:1,a2:1": "occupied",
        "e5:1,e4:1": "does not touch a placed piece",
        "f1:1,f2:1": "outside the template",
        "a1:2,a1:3,a1:4,a1:5": "",
    }
    for text, reason in cases.items():
        if reason:
            with pytest.raises(SolverError, match=reason):
                g.play(text)
    g.play("c1:1,d1:1,e1:1")            # yellow touches blue
    with pytest.raises(SolverError, match="already placed piece D2"):
        g.play("a2:1,b2:1")
    with pytest.raises(SolverError, match="does not touch a piece of blue"):
        g.play("d3:1,e3:1,c3:1,c4:1")
    with pytest.raises(SolverError, match="above the height limit"):
        g.play("a1:2,a1:3,a1:4,a1:5")
    with pytest.raises(SolverError, match="form no Blokus 3D piece"):
        g.play("a2:1,c2:1")


def test_a_colour_that_cannot_move_is_out_for_good():
    """A colour out of moves stays out even when a placement for it appears later (others build the
    support it lacked); such positions do arise in random games and the reference agrees."""
    rng = random.Random(3)
    revived = 0
    for _ in range(300):
        g = Game3D(rng.choice(sorted(TEMPLATES)), rng.choice([2, 3, 4]))
        while (k := g.to_play) is not None:
            for c in range(g.players):
                if g.is_out(c) and len(g.position.legal_codes(c)):
                    revived += 1
                    assert c != k and not g.legal_moves(c)
                    r = ref_game(g)
                    assert r.legal(c) and r.out[c] and r.to_play() == k
            g.play(rng.choice(g.legal_moves()))
    assert revived > 0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(TEMPLATES)), st.sampled_from([2, 3, 4]),
       st.lists(st.integers(min_value=0, max_value=10**6), max_size=40))
def test_play_and_undo(template, players, picks):
    g = Game3D(template, players)
    r = ref.RefGame(g.template.cells, g.height, players)
    snapshots = []
    for pick in picks:
        moves = g.legal_moves()
        if not moves:
            break
        snapshots.append((g.position.to_bytes(), sorted(g.legal_codes())))
        move = moves[pick % len(moves)]
        assert r.is_legal(move.colour, move.cubes)
        g.play(move)
        r.play(move.colour, move.cubes)
    restored = pickle.loads(pickle.dumps(g.position))
    assert restored.to_bytes() == g.position.to_bytes()
    while snapshots:
        data, codes = snapshots.pop()
        g.undo()
        assert sorted(g.legal_codes()) == codes
        assert g.position.to_bytes()[:200] == data[:200]
    assert not g.moves


def _greedy_value(r: ref.RefGame, colour: int, cubes) -> tuple[int, int]:
    """The greedy rule, computed independently: own top squares gained plus other colours' top
    squares covered (own covered count against), then the piece size."""
    tops: dict[tuple[int, int], tuple[int, int]] = {}
    for (x, y, z), k in r.cubes.items():
        if (x, y) not in tops or tops[(x, y)][0] < z:
            tops[(x, y)] = (z, k)
    columns = {(x, y) for x, y, _ in cubes}
    value = 0
    for sq in columns:
        before = tops.get(sq, (0, None))[1]
        value += 0 if before == colour else 1 + (before is not None)
    return value, len(cubes)


def test_greedy_plays_a_best_move_and_mc_a_legal_one():
    rng = random.Random(11)
    for template in ("pyramid", "corner"):
        for _ in range(4):
            g = Game3D(template, 4)
            r = ref.RefGame(g.template.cells, g.height, 4)
            while g.to_play is not None:
                k = g.to_play
                chosen = choose_move(g, "greedy", seed=rng.randrange(2**32))
                values = {m: _greedy_value(r, k, m) for m in r.legal(k)}
                assert values[frozenset(chosen.cubes)] == max(values.values())
                if len(g.moves) % 9 == 4:
                    mc = choose_move(g, "mc:3:4", seed=5)
                    assert mc == choose_move(g, "mc:3:4", seed=5)
                    assert frozenset(mc.cubes) in values
                    assert choose_move(g, "mc", seed=5, budget=2) in g.legal_moves()
                r.play(k, g.play(rng.choice(g.legal_moves())).cubes)
            assert choose_move(g, "random") is None


def test_self_play_records_replay_to_the_same_scores():
    exp = SelfPlay3D("steps", 3, ("greedy", "random", "mc:2:2"))
    block = exp.play_block(99, 6, n_record=6)
    games = exp.record(99, 6)
    for i, g in enumerate(games):
        assert g.is_over
        assert g.scores() == list(block["scores"][i])
        assert len(g.moves) == block["length"][i]
        assert ref_game(g).scores() == g.scores()
        again = read_games(write_games([(g, "x")]), "t")[0]
        assert [m.cubes for m in again.moves] == [m.cubes for m in g.moves]
        assert again.scores() == g.scores()
    tally = exp.simulate(99, 6)
    assert tally["wins"].sum() == pytest.approx(6)


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_random_playouts_play_the_listed_random_games(template):
    """The benchmark's playouts draw from the move masks without listing the moves; they must play
    exactly the games of uniform choice from the full list (random self-play, same seed), whose
    legal move counts the reference confirms ply by ply."""
    from solver._ext import blokus3d as ext

    exp = SelfPlay3D(template, 4, ("random",) * 4)
    block = exp.play_block(2024, 30, n_record=30)
    assert ext.random_playouts(exp.new_game().position, 2024, 30) == (
        30, int(block["length"].sum()), int(block["listed"].sum()))
    listed = 0
    for g in exp.record(2024, 3):
        r = ref.RefGame(g.template.cells, g.height, g.players)
        for m in g.moves:
            assert r.to_play() == m.colour
            listed += len(r.legal(m.colour))
            r.play(m.colour, m.cubes)
        assert r.to_play() is None
    assert listed == int(block["listed"][:3].sum())


def test_record_round_trip_on_a_user_template(tmp_path):
    from solver.blokus3d.templates import load_template

    path = tmp_path / "ring.toml"
    path.write_text('name = "ring"\nfootprint = """\n###\n#.#\n###\n"""\nheights = { 2 = 2 }\n')
    t = load_template(path)
    g = Game3D(t, 2)
    rng = random.Random(1)
    while g.to_play is not None:
        g.play(rng.choice(g.legal_moves()))
    text = write_games([(g, "ring game"), (Game3D("tower", 4), "")])
    first, second = read_games(text, "mem")
    assert first.template.cells == t.cells and (1, 1) not in first.template.cells
    assert [m.code for m in first.moves] == [m.code for m in g.moves] and not second.moves
    with pytest.raises(SolverError, match="no height for 3 players"):
        Game3D(t, 3)


@pytest.mark.parametrize("text,message", [
    ('{"format": "blokus3d-record", "version": 1, "players": 2, "moves": [], '
     '"template": {"name": "x", "footprint": ["#########"], "heights": {"2": 3}}}', "outside the 8x8 board"),
    ('{"format": "blokus3d-record", "version": 1, "players": 2, "moves": [], '
     '"template": {"name": "x", "footprint": ["##"], "heights": {"2": 0}}}', "must be 1..8"),
    ('{"format": "blokus3d-record", "version": 1, "players": 2, '
     '"template": {"name": "x", "footprint": ["##"], "heights": {"2": 2}}, '
     '"moves": [{"colour": "blue", "piece": "I3", "cubes": ["a1:1", "b1:1"]}]}', "form piece D2, not I3"),
    ('{"format": "blokus3d-record", "version": 1, "players": 2, '
     '"template": {"name": "x", "footprint": ["##"], "heights": {"2": 2}}, '
     '"moves": [{"colour": "yellow", "cubes": ["a1:1", "b1:1"]}]}', "move 1: .*blue's turn"),
    ('{"format": "blokus3d-record", "version": 1, "players": 2, '
     '"template": {"name": "x", "footprint": ["##"], "heights": {"2": 2}}, '
     '"moves": [{"colour": "blue", "cubes": ["a1:1", "b1;1"]}]}', "bad cube"),
    ('{"format": "other"}', "not a Blokus 3D record"),
    ("[", "not valid JSON"),
])
def test_malformed_records(text, message):
    with pytest.raises(SolverError, match=message):
        read_games(text, "bad.json")


def test_two_players_with_two_colours_each():
    """Rumis 2x2: the rules per colour are the four-colour game's; a player scores its better colour."""
    rng = random.Random(5)
    for template in ("pyramid", "steps"):
        g = Game3D(template, 2, colours_each=2)
        r = ref.RefGame(g.template.cells, g.template.height(4), 4)
        while (k := g.to_play) is not None:
            assert k == r.to_play() and g.player_of(k) == k % 2
            assert engine_legal(g, k) == r.legal(k)
            if len(g.moves) % 7 == 3:
                assert choose_move(g, "mc:2:2", seed=1) in g.legal_moves()
                assert choose_move(g, "greedy", seed=1) in g.legal_moves()
            r.play(k, g.play(rng.choice(g.legal_moves())).cubes)
        s = r.scores()
        assert g.scores() == s and g.player_scores() == [max(s[0], s[2]), max(s[1], s[3])]
        again = read_games(write_games([(g, "")]), "t")[0]
        assert again.colours_each == 2 and again.player_scores() == g.player_scores()
    exp = SelfPlay3D("corner", 2, ("greedy", "random"), colours_each=2)
    block = exp.play_block(3, 5, n_record=5)
    for i, g in enumerate(exp.record(3, 5)):
        assert g.scores() == list(block["scores"][i])
    rows = exp.rows(exp.simulate(3, 5), 5)
    assert [r["colours"] for r in rows] == ["blue+red", "yellow+green"]
    assert sum(r["wins"] for r in rows) == pytest.approx(5)
    with pytest.raises(SolverError, match="two-player game only"):
        Game3D("pyramid", 3, colours_each=2)
