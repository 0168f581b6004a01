"""Blokus puzzles: spec checks, exact cover vs a brute-force reference, CP-SAT, verifier, CLI."""

from __future__ import annotations

import json
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.blokus.pieces import PIECES
from solver.cli.main import main
from solver.errors import SolverError
from solver.puzzles.geometry import placements
from solver.puzzles.result import IMPOSSIBLE, SOLVED
from solver.puzzles.solve import enumerate_solutions, solve
from solver.puzzles.spec import load_puzzle, parse_puzzle, shipped_names
from solver.puzzles.tiling import build_coloured
from solver.puzzles.verify import verify

FAST = ["tetromino-8x10", "tetromino-8x10-no-edge", "pentomino-15x16", "pentomino-6x10", "one-colour-9x10",
        "all-84", "all-84-descending"]


def tiny(**kw):
    data = {"width": 4, "height": 3, "colors": ["red"], "pieces": ["L4", "V3", "O", "1"], "full": False}
    data.update(kw)
    return parse_puzzle(data, "tiny")


# ---- reference: a plain recursive tiler counting every solution (no symmetry reduction) -----------

def reference_count(p) -> int:
    """Count coloured solutions by brute force: fill the first empty cell with every piece that fits."""
    counts = dict(p.piece_counts())
    shapes = {q.name: q for _, q in p.pieces}
    opts = {name: placements(shapes[name], p.width, p.height, p.blocked) for name in shapes}
    free = p.free_cells
    owner: dict = {}

    def ok_edges(colour, cells):
        if not p.no_same_colour_edge:
            return True
        cs = set(cells)
        return not any(owner.get(n) == colour for x, y in cells
                       for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n not in cs)

    def rec() -> int:
        empty = next((c for c in free if c not in owner), None)
        if empty is None:
            return 1
        total = 0
        for (colour, name), k in list(counts.items()):
            if k == 0:
                continue
            for cells in opts[name]:
                if empty in cells and all(c not in owner for c in cells) and ok_edges(colour, cells):
                    counts[(colour, name)] -= 1
                    for c in cells:
                        owner[c] = colour
                    total += rec()
                    for c in cells:
                        del owner[c]
                    counts[(colour, name)] += 1
        return total

    return rec()


small_pieces = st.lists(st.sampled_from([q.name for q in PIECES if q.size <= 4]), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(h=st.sampled_from([3, 2, 4]), a=small_pieces, b=small_pieces, no_edge=st.booleans(), two=st.booleans())
def test_exact_cover_counts_match_brute_force(h, a, b, no_edge, two):
    colours = ["blue", "red"] if two else ["blue"]
    pieces = {"blue": a, "red": b} if two else {"blue": a}
    area = sum(next(q.size for q in PIECES if q.name == n) for c in colours for n in pieces[c])
    h = next((k for k in (h, 2, 3, 4, 1) if area % k == 0 and area // k <= 8), None)
    if h is None:
        return
    try:
        p = parse_puzzle({"width": area // h, "height": h, "colors": colours, "pieces": pieces, "full": True,
                          "constraints": ["no-same-colour-edge"] if no_edge else []})
    except SolverError as exc:  # a piece that fits nowhere: rejected as bad input, fine
        assert "fits nowhere" in str(exc)
        return
    ec, _ = build_coloured(p)
    assert ec.search(max_solutions=0)["count"] == reference_count(p)
    r = solve(p, time_limit=20)
    assert r.status == (SOLVED if reference_count(p) else IMPOSSIBLE)


@settings(max_examples=15, deadline=None)
@given(w=st.integers(2, 4), h=st.integers(2, 4), a=st.lists(st.sampled_from([q.name for q in PIECES if q.size <= 4]),
                                                          min_size=1, max_size=3), no_edge=st.booleans())
def test_cpsat_agrees_with_exact_cover(w, h, a, no_edge):
    from solver.puzzles.cpsat import solve_cpsat

    area = sum(next(q.size for q in PIECES if q.name == n) for n in a)
    if area > w * h:
        return
    data = {"width": w, "height": h, "colors": ["blue", "red"], "pieces": {"blue": a, "red": a[:1]},
            "constraints": ["no-same-colour-edge"] if no_edge else []}
    try:
        p = parse_puzzle(data)
    except SolverError:  # board too small for both colours
        return
    r = solve_cpsat(p, time_limit=20, workers=1)
    ref = any_placement_exists(p)
    assert r.status == (SOLVED if ref else IMPOSSIBLE)
    if r.solved:
        assert verify(p, r.placements) == []


def any_placement_exists(p) -> bool:
    """Reference for non-full boards: backtracking over the pieces in order, each in every position
    that overlaps nothing placed (tiny puzzles only); a complete set is checked by the verifier."""
    shapes = [(c, q) for c, q in p.pieces]
    opts = [placements(q, p.width, p.height, p.blocked) for _, q in shapes]
    chosen: list = []
    used: set = set()

    def rec(i: int) -> bool:
        if i == len(shapes):
            return verify(p, [(c, q.name, cells) for (c, q), cells in zip(shapes, chosen, strict=True)]) == []
        for cells in opts[i]:
            if used.isdisjoint(cells):
                chosen.append(cells)
                used.update(cells)
                found = rec(i + 1)
                chosen.pop()
                used.difference_update(cells)
                if found:
                    return True
        return False

    return rec(0)


# ---- shipped puzzles -----------------------------------------------------------------------------

def test_shipped_list():
    assert {"all-84", "all-84-descending", "tetromino-8x10", "tetromino-8x10-no-edge", "pentomino-15x16",
            "pentomino-15x16-no-edge"} <= set(shipped_names())
    for name in shipped_names():
        load_puzzle(name)


@pytest.mark.parametrize("name", FAST)
def test_fast_puzzles_solve_and_verify(name):
    p = load_puzzle(name)
    r = solve(p, time_limit=30, seed=1)
    assert r.solved, r
    assert verify(p, r.placements) == []
    assert sum(len(c) for _, _, c in r.placements) == p.area


@pytest.mark.slow
def test_pentomino_15x16_no_edge_solves():
    p = load_puzzle("pentomino-15x16-no-edge")
    r = solve(p, time_limit=120, seed=0)
    assert r.solved and verify(p, r.placements) == []


def test_6x10_has_2339_solutions():
    r = enumerate_solutions(load_puzzle("pentomino-6x10"))
    assert r.complete and r.count == 2339


def test_enumeration_limit():
    r = enumerate_solutions(load_puzzle("pentomino-6x10"), limit=3)
    assert r.count == 3 and not r.complete


# ---- game rules ------------------------------------------------------------------------------------

GAME = {"width": 6, "height": 6, "colors": ["blue", "red"], "pieces": [3, 2, 1],
        "constraints": ["game-rules", "descending-order"]}


@pytest.fixture(scope="module")
def game_solution():
    p = parse_puzzle(GAME, "small-game")
    r = solve(p, time_limit=30, workers=1)
    assert r.solved
    return p, r.placements


def test_game_rules_solution_is_a_legal_sequence(game_solution):
    p, sol = game_solution
    assert verify(p, sol) == []
    assert [len(c) for _, _, c in sol] == sorted((len(c) for _, _, c in sol), reverse=True)


def test_verifier_rejects_overlap(game_solution):
    p, sol = game_solution
    broken = list(sol)
    c, n, cells = broken[-1]            # the monomino onto a covered cell
    broken[-1] = (c, n, [sol[0][2][0]])
    assert any("overlaps" in e for e in verify(p, broken))


def test_verifier_rejects_missing_piece(game_solution):
    p, sol = game_solution
    assert any(e.startswith("missing piece") for e in verify(p, sol[:-1]))


def test_verifier_rejects_wrong_order(game_solution):
    p, sol = game_solution
    assert any("descending order" in e for e in verify(p, sol[-1:] + sol[:-1]))


def test_verifier_rejects_broken_corner_chain():
    p = parse_puzzle({"width": 5, "height": 5, "colors": ["blue"], "pieces": ["1", "2"],
                      "constraints": ["game-rules"]})
    ok = [("blue", "2", [(0, 0), (1, 0)]), ("blue", "1", [(2, 1)])]
    assert verify(p, ok) == []
    far = [("blue", "2", [(0, 0), (1, 0)]), ("blue", "1", [(3, 3)])]
    assert any("touches no earlier blue piece at a corner" in e for e in verify(p, far))
    nocorner = [("blue", "2", [(1, 1), (2, 1)]), ("blue", "1", [(3, 2)])]
    assert any("covers no corner" in e for e in verify(p, nocorner))


def test_verifier_rejects_edge_contact():
    p = load_puzzle("tetromino-8x10-no-edge")
    r = solve(p, seed=2)
    sol = r.placements
    # recolour: give two edge-touching pieces the same colour by swapping colours of two pieces
    by_cells = {tuple(x): i for i, (_, _, cells) in enumerate(sol) for x in cells}
    for i, (c, n, cells) in enumerate(sol):
        for x, y in cells:
            j = by_cells.get((x + 1, y))
            if j is not None and j != i and sol[j][1] != n:
                # find the piece with sol[j]'s shape and colour c, swap colours with j
                k = next(k for k, q in enumerate(sol) if q[1] == sol[j][1] and q[0] == c)
                broken = list(sol)
                broken[j] = (c, sol[j][1], sol[j][2])
                broken[k] = (sol[j][0], sol[k][1], sol[k][2])
                assert any("along an edge" in e for e in verify(p, broken))
                return
    pytest.fail("no neighbouring pieces found")


def test_verifier_rejects_wrong_shape_and_off_board():
    p = tiny()
    assert any("do not form" in e for e in verify(p, [("red", "O", [(0, 0), (2, 2)])]))
    assert any("off the" in e for e in verify(p, [("red", "1", [(4, 0)])]))


def test_impossible_puzzles_are_proven():
    # the five tetrominoes cannot tile 4x5 (the T breaks the chessboard balance)
    p = parse_puzzle({"width": 5, "height": 4, "pieces": [4], "full": True})
    assert solve(p, time_limit=10).status == IMPOSSIBLE
    g = parse_puzzle({"width": 3, "height": 3, "pieces": ["I3", "2"], "constraints": ["game-rules"]})
    assert solve(g, time_limit=20, workers=1).status == IMPOSSIBLE


# ---- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, words", [
    ({"width": 3, "height": 3, "pieces": ["Q7"]}, "unknown piece"),
    ({"width": 2, "height": 2, "pieces": ["I5"]}, "board too small"),
    ({"width": 5, "height": 5, "pieces": ["I5"], "constraints": ["descending-order"]}, "needs game-rules"),
    ({"width": 5, "height": 5, "pieces": ["I5"], "full": True}, "full = true"),
    ({"width": 5, "height": 5, "pieces": ["I5"], "constraints": ["gravity"]}, "unknown constraint"),
    ({"width": 5, "height": 5, "pieces": [7]}, "size 7"),
    ({"width": 5, "height": 5, "pieces": ["I5"], "colour": "x"}, "unknown key"),
    ({"width": 0, "height": 5, "pieces": ["I5"]}, "width"),
])
def test_bad_puzzles(data, words):
    with pytest.raises(SolverError, match=words):
        parse_puzzle(data)


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_cli_solve_verify_and_exit_codes(tmp_path, capsys):
    sol, svg = tmp_path / "s.json", tmp_path / "s.svg"
    code, out, _ = run(["puzzle", "solve", "tetromino-8x10-no-edge", "-o", str(sol), "--svg", str(svg)], capsys)
    assert code == 0 and "solved" in out
    data = json.loads(sol.read_text())
    assert data["puzzle"] == "tetromino-8x10-no-edge" and len(data["placements"]) == 20
    assert "<svg" in svg.read_text() and "tetromino-8x10-no-edge" in svg.read_text()
    code, out, _ = run(["puzzle", "verify", str(sol)], capsys)
    assert code == 0 and "correct" in out
    data["placements"][0]["cells"] = data["placements"][1]["cells"]
    sol.write_text(json.dumps(data))
    code, out, _ = run(["puzzle", "verify", str(sol)], capsys)
    assert code == 1 and "overlaps" in out
    code, _, err = run(["puzzle", "solve", "no-such-puzzle"], capsys)
    assert code == 2 and err.count("\n") == 1 and "unknown puzzle" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("width = 3\nheight = [\n")
    code, _, err = run(["puzzle", "solve", str(bad)], capsys)
    assert code == 2 and "not valid TOML" in err
    bad.write_text('width = 3\nheight = 3\npieces = ["I5"]\n')
    code, _, err = run(["puzzle", "solve", str(bad)], capsys)
    assert code == 2 and "board too small" in err
    imp = tmp_path / "imp.toml"
    imp.write_text('width = 5\nheight = 4\nfull = true\npieces = [4]\n')
    code, out, _ = run(["puzzle", "solve", str(imp)], capsys)
    assert code == 1 and "proven impossible" in out
    code, _, err = run(["puzzle", "solve", "pentomino-6x10", "--limit", "3"], capsys)
    assert code == 2 and "--all" in err
    code, out, _ = run(["puzzle", "solve", "pentomino-6x10", "--all", "--limit", "2"], capsys)
    assert code == 0 and "2 distinct" in out
    code, out, _ = run(["puzzle", "list"], capsys)
    assert code == 0 and "all-84-descending" in out


@settings(max_examples=25, deadline=None)
@given(w=st.integers(4, 7), h=st.integers(4, 7), two=st.booleans(),
       names=st.lists(st.sampled_from([q.name for q in PIECES if q.size <= 4]), min_size=1, max_size=5,
                      unique=True))
def test_rule_packer_moves_are_legal(w, h, two, names):
    """Whatever the heuristic packer returns must pass the independent verifier (descending order)."""
    from solver.puzzles.game import pack

    data = {"width": w, "height": h, "colors": ["blue", "red"] if two else ["blue"], "pieces": names,
            "constraints": ["game-rules", "descending-order"]}
    try:
        p = parse_puzzle(data)
    except SolverError:
        return
    r = pack(p, time_limit=2.0)
    if r.solved:
        assert verify(p, r.placements) == []


@settings(max_examples=20, deadline=None)
@given(n=st.integers(5, 10), names=st.lists(st.sampled_from([q.name for q in PIECES]), min_size=1, max_size=6,
                                           unique=True))
def test_symmetric_packer_solutions_verify(n, names):
    """The 4-fold symmetric packer's solutions are genuine (verified move by move)."""
    from solver.puzzles.game import pack

    data = {"width": n, "height": n, "colors": ["blue", "yellow", "red", "green"], "pieces": names,
            "constraints": ["game-rules", "descending-order"]}
    try:
        p = parse_puzzle(data)
    except SolverError:
        return
    r = pack(p, time_limit=2.0, symmetric=True)
    if r.solved:
        assert verify(p, r.placements) == []


def game_reference(p) -> bool:
    """Reference for tiny game-rules puzzles: every combination of non-overlapping placements, then
    the verifier on a greedy legal order."""
    from solver.puzzles.verify import legal_order

    shapes = [(c, q) for c, q in p.pieces]
    opts = [placements(q, p.width, p.height, p.blocked) for _, q in shapes]
    chosen: list = []
    used: set = set()

    def rec(i: int) -> bool:
        if i == len(shapes):
            sol = [(c, q.name, cells) for (c, q), cells in zip(shapes, chosen, strict=True)]
            return verify(p, legal_order(p, sol)) == []
        for cells in opts[i]:
            if used.isdisjoint(cells):
                chosen.append(cells)
                used.update(cells)
                found = rec(i + 1)
                chosen.pop()
                used.difference_update(cells)
                if found:
                    return True
        return False

    return rec(0)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(3, 4), two=st.booleans(), desc=st.booleans(),
       names=st.lists(st.sampled_from(["1", "2", "I3", "V3", "L4", "T4", "O"]), min_size=1, max_size=3,
                      unique=True))
def test_cpsat_game_rules_agree_with_reference(n, two, desc, names):
    from solver.puzzles.cpsat import solve_cpsat

    data = {"width": n, "height": n, "colors": ["blue", "red"] if two else ["blue"],
            "pieces": names[:2] if two else names,  # keep the brute-force reference small
            "constraints": ["game-rules"] + (["descending-order"] if desc else [])}
    try:
        p = parse_puzzle(data)
    except SolverError:
        return
    r = solve_cpsat(p, time_limit=20, workers=1)
    assert r.status == (SOLVED if game_reference(p) else IMPOSSIBLE)


def test_cpsat_enumeration_matches_brute_force():
    """A tiny game-rules puzzle: CP-SAT enumeration vs every placement combination, up to symmetry."""
    from solver.puzzles.geometry import board_symmetries, canonical
    from solver.puzzles.verify import legal_order

    p = parse_puzzle({"width": 3, "height": 3, "colors": ["blue", "red"], "pieces": ["2", "1"],
                      "constraints": ["game-rules"]})
    shapes = [(c, q) for c, q in p.pieces]
    opts = [placements(q, 3, 3, frozenset()) for _, q in shapes]
    syms = board_symmetries(3, 3, ())
    keys = set()
    for combo in product(*opts):
        sol = [(c, q.name, cells) for (c, q), cells in zip(shapes, combo, strict=True)]
        if verify(p, legal_order(p, sol)) == []:
            keys.add(canonical(sol, syms))
    r = enumerate_solutions(p)
    assert r.complete and r.count == len(keys) > 0
