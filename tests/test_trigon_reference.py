"""Tests of the pure-Python Trigon reference itself: board geometry, piece enumeration, known
placement counts (Pentobi's), and the rules under random play.

The checks of the touching rules here use plane geometry with floating-point angles, not the
reference's sector numbering, so they are an independent reading of the rule text.
"""

import math
import random

import pytest
import trigon_reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from trigon_reference import (
    DIRECTIONS,
    PIECES,
    PIECES_BY_SIZE,
    RefTrigonPosition,
    TriangleBoard,
    piece_id,
    placements,
    trigon_board,
)

SQRT3 = math.sqrt(3)


def point(p):
    """A lattice vertex in the plane (triangle side 1)."""
    return (p[0] / 2, p[1] * SQRT3 / 2)


def centroid(board, cell):
    xs, ys = zip(*(point(p) for p in board.vertices(cell)), strict=True)
    return (sum(xs) / 3, sum(ys) / 3)


def random_game(size, n_colours, touch, seed, max_plies=None):
    """Yield the position after each move of a random game (a colour with no move passes for good)."""
    rnd = random.Random(seed)
    pos = RefTrigonPosition(size, n_colours, touch)
    out, plies = set(), 0
    while len(out) < n_colours and (max_plies is None or plies < max_plies):
        k = pos.to_play
        moves = pos.legal_moves(k) if k not in out else set()
        if not moves:
            out.add(k)
            pos.to_play = (k + 1) % n_colours
            continue
        pos.play(k, rnd.choice(sorted(moves, key=sorted)))
        plies += 1
        yield pos


def final_position(size, n_colours, touch, seed, max_plies=None):
    *_, pos = random_game(size, n_colours, touch, seed, max_plies)
    return pos


# --- the board ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size,n", [(9, 486), (8, 384), (2, 24)])
def test_cell_counts(size, n):
    b = TriangleBoard(size)
    assert len(b.cells) == len(set(b.cells)) == n == 6 * size * size
    assert {x for x, _ in b.cells} == set(range(4 * size - 1))
    assert {y for _, y in b.cells} == set(range(2 * size))


def test_size_two_picture():
    """The picture in the module docstring: A = up, V = down, rows listed from the top."""
    b = TriangleBoard(2)
    rows = ["".join(("A" if b.is_up((x, y)) else "V") if b.on_board((x, y)) else "."
                    for x in range(b.width)) for y in reversed(range(b.height))]
    assert rows == [".AVAVA.", "AVAVAVA", "VAVAVAV", ".VAVAV."]


@pytest.mark.parametrize("size", [9, 8])
def test_triangles_are_unit_equilateral_and_point_the_right_way(size):
    b = trigon_board(size)
    for c in b.cells:
        corners = [point(p) for p in b.vertices(c)]
        assert len(corners) == 3
        for i in range(3):
            assert math.dist(corners[i], corners[i - 1]) == pytest.approx(1.0)
        lone = [p for p in corners if sum(q[1] == p[1] for q in corners) == 1][0]
        centre_y = sum(p[1] for p in corners) / 3
        assert (lone[1] > centre_y) == b.is_up(c)
        assert ref.triangle_is_up(b.vertices(c)) == b.is_up(c)


@pytest.mark.parametrize("size", [9, 8])
def test_neighbours(size):
    b = trigon_board(size)
    for c in b.cells:
        for n in b.edge_neighbours(c):
            assert b.is_up(n) != b.is_up(c)
            assert c in b.edge_neighbours(n)
        for n in b.corner_neighbours(c):
            assert c in b.corner_neighbours(n)
        assert not set(b.edge_neighbours(c)) & set(b.corner_neighbours(c))
        x, y = c
        row = [n for n in ((x - 1, y), (x + 1, y)) if b.on_board(n)]
        assert set(row) <= set(b.edge_neighbours(c))


@pytest.mark.parametrize("size", [9, 8])
def test_interior_cells_have_3_edge_and_9_corner_neighbours(size):
    b = trigon_board(size)
    interior = [c for c in b.cells if all(len(b.around(p)) == 6 for p in b.vertices(c))]
    assert len(interior) > len(b.cells) // 2
    for c in interior:
        assert len(b.edge_neighbours(c)) == 3
        assert len(b.corner_neighbours(c)) == 9
    # every unit side of the hexagon's perimeter (6 * size of them) is a missing edge neighbour
    assert sum(3 - len(b.edge_neighbours(c)) for c in b.cells) == 6 * size


def test_lattice_rotation_and_mirror():
    for k in range(6):
        assert ref.rotate60(DIRECTIONS[k]) == DIRECTIONS[(k + 1) % 6]
        assert ref.mirror(ref.mirror(DIRECTIONS[k])) == DIRECTIONS[k]
    images = {tuple(f(p) for p in DIRECTIONS) for f in ref.symmetries()}
    assert len(images) == 12


@pytest.mark.parametrize("size", [9, 8, 2])
def test_hexagon_rotation_maps_board_and_start_cells_onto_themselves(size):
    b = TriangleBoard(size)
    turned = [b.rotate_cell(c) for c in b.cells]
    assert None not in turned and sorted(turned) == sorted(b.cells)
    assert sorted(b.rotate_cell(c) for c in b.start_cells) == sorted(b.start_cells)
    for c in b.cells[:20]:
        d = c
        for _ in range(6):
            d = b.rotate_cell(d)
        assert d == c
    mirrored = {(b.width - 1 - x, y) for x, y in b.cells}
    assert mirrored == set(b.cells)
    assert {(b.width - 1 - x, y) for x, y in b.start_cells} == set(b.start_cells)


@pytest.mark.parametrize("size", [9, 8])
def test_start_cells_are_on_the_board_and_apart(size):
    b = trigon_board(size)
    assert len(set(b.start_cells)) == 6
    assert all(b.on_board(c) for c in b.start_cells)
    for c in b.start_cells:
        assert not set(b.edge_neighbours(c) + b.corner_neighbours(c)) & set(b.start_cells)


def test_cell_names():
    name = TriangleBoard.cell_name
    assert name((0, 8)) == "a9"
    assert name((25, 0)) == "z1"
    assert name((26, 0)) == "aa1"
    assert name((27, 1)) == "ab2"
    assert name((52, 0)) == "ba1"
    names = [name(c) for c in trigon_board(9).cells]
    assert len(set(names)) == len(names)


# --- pieces and placements ---------------------------------------------------------------------

def test_piece_counts_per_size():
    assert [len(PIECES_BY_SIZE[n]) for n in range(1, 7)] == [1, 1, 1, 3, 4, 12]
    assert len(PIECES) == 22 and [p.id for p in PIECES] == list(range(22))
    assert PIECES[0].size == 1


def test_fixed_orientations():
    """Fixed polyiamonds of 1..6 triangles (OEIS A001420): 2, 3, 6, 14, 36, 94 = 155."""
    per_size = [sum(len(p.orientations) for p in PIECES_BY_SIZE[n]) for n in range(1, 7)]
    print("fixed orientations per size", per_size, "total", sum(per_size))
    assert per_size == [2, 3, 6, 14, 36, 94]
    for p in PIECES:
        for shape in p.orientations:
            assert len(shape) == p.size and ref.is_edge_connected(shape)
        # orbit-stabiliser: orientations x symmetries that fix the shape = 12
        fixing = sum(ref.transform(p.orientations[0], f) == p.orientations[0] for f in ref.symmetries())
        assert len(p.orientations) * fixing == 12
    every = [s for p in PIECES for s in p.orientations]
    assert len(set(every)) == len(every)


@pytest.mark.parametrize("size,n", [(9, 32131), (8, 24859)])
def test_placement_counts(size, n):
    b = trigon_board(size)
    cells = placements(b)
    assert len(cells) == len(set(cells)) == n
    for pid, c in ref.placements_with_ids(b):
        assert piece_id(b, c) == pid and len(c) == PIECES[pid].size


def test_piece_id_rejects_non_pieces():
    b = trigon_board(9)
    assert piece_id(b, [(17, 3), (17, 14)]) is None  # not connected
    assert piece_id(b, [(17, 3), (18, 4)]) is None  # corner contact only
    assert piece_id(b, [(0, 0)]) is None  # off the board
    assert piece_id(b, [(17, 3)]) == 0


def test_first_moves():
    """With nothing on the board, both rules allow the placements covering a start cell.  Far from
    the edge, the placements covering one cell number the triangles of that cell's up/down type
    over all fixed orientations."""
    for size in (9, 8):
        b = trigon_board(size)
        expected = sum(sum(ref.triangle_is_up(t) == b.is_up(c) for t in shape)
                       for c in b.start_cells for p in PIECES for shape in p.orientations)
        edges = RefTrigonPosition(size, 4, "edges").legal_moves(0)
        corners = RefTrigonPosition(size, 4, "corners-only").legal_moves(0)
        print(f"edge {size}: {len(edges)} legal first moves")
        assert edges == corners
        assert len(edges) == expected
        assert edges == RefTrigonPosition(size, 4).legal_moves_brute_force(0)


# --- rules under play --------------------------------------------------------------------------

def check_position(pos):
    """What must hold after any sequence of legal moves, checked with plane geometry."""
    b = pos.geometry
    for k in range(pos.n_colours):
        pieces = pos.pieces[k]
        assert pieces and any(c in b.start_cells for c in pieces[0])
        owner = {c: i for i, piece in enumerate(pieces) for c in piece}
        for c, i in owner.items():
            assert pos.board[c] == k
            for n in b.edge_neighbours(c):
                assert owner.get(n, i) == i, "two pieces of one colour share an edge"
        if pos.touch != "corners-only":
            continue
        at_vertex = {}
        for c, i in owner.items():
            for p in b.vertices(c):
                cx, cy = centroid(b, c)
                px, py = point(p)
                angle = round(math.degrees(math.atan2(cy - py, cx - px))) % 360
                at_vertex.setdefault(p, {}).setdefault(i, set()).add(angle)
        for p, by_piece in at_vertex.items():
            for angles in by_piece.values():
                straight = any({(a + 60) % 360, (a + 120) % 360} <= angles for a in angles)
                assert not (straight and len(by_piece) > 1), f"forbidden contact at vertex {p}"


@settings(max_examples=10, deadline=None)
@given(size=st.sampled_from([8, 9]), n_colours=st.integers(2, 4),
       touch=st.sampled_from(ref.TOUCH_RULES), seed=st.integers(0, 10 ** 6), plies=st.integers(4, 40))
def test_random_play_keeps_the_rules(size, n_colours, touch, seed, plies):
    for pos in random_game(size, n_colours, touch, seed, plies):
        if all(pos.pieces):
            check_position(pos)


def test_check_position_catches_forbidden_contact():
    """The checker above does see a straight-angle contact (so the property test can fail)."""
    pos = RefTrigonPosition(9, 1, "edges")
    found = None
    for move in sorted(pos.legal_moves(0), key=sorted):
        trial = pos.copy()
        trial.play(0, move)
        for second in sorted(trial.legal_moves(0), key=sorted):
            if not trial.copy("corners-only").is_legal(0, second):
                found = (move, second)
                break
        if found:
            break
    assert found
    pos.play(0, found[0])
    pos.play(0, found[1])
    pos.touch = "corners-only"
    with pytest.raises(AssertionError, match="forbidden contact"):
        check_position(pos)


def test_corners_only_is_strictly_more_restrictive_and_forbids_the_opposite_triangle():
    """Along a corners-only game, each colour's corners-only moves are a subset of its moves under
    the edge rule; somewhere strictly; every extra move under the edge rule touches a vertex
    where one piece covers three consecutive triangles and the other the one opposite the middle."""
    strict = 0
    for pos in random_game(9, 4, "corners-only", seed=11, max_plies=16):
        edges = pos.copy("edges")
        b = pos.geometry
        for k in range(4):
            narrow, wide = pos.legal_moves(k), edges.legal_moves(k)
            assert narrow <= wide
            strict += narrow != wide
            own = pos.own_cells(k)
            for move in wide - narrow:
                explained = False
                for p in {p for c in move for p in b.vertices(c)}:
                    around = b.around(p)
                    mine = {s for s, c in around.items() if c in move}
                    theirs = {s for s, c in around.items() if c in own}
                    for s in range(6):
                        run = {s, (s + 1) % 6, (s + 2) % 6}
                        opposite = (s + 4) % 6
                        if (run <= mine and opposite in theirs) or (run <= theirs and opposite in mine):
                            explained = True
                assert explained, sorted(move)
    assert strict > 0


@pytest.mark.parametrize("size,n_colours,touch,seed,plies", [
    (9, 4, "edges", 1, 12), (9, 4, "corners-only", 2, 20), (8, 3, "edges", 3, 30),
    (8, 3, "corners-only", 4, 16), (9, 2, "corners-only", 5, 40),
])
def test_legal_moves_agree_with_brute_force(size, n_colours, touch, seed, plies):
    pos = final_position(size, n_colours, touch, seed, plies)
    for k in range(n_colours):
        assert pos.legal_moves(k) == pos.legal_moves_brute_force(k)


def test_is_legal_rejects():
    pos = RefTrigonPosition(9, 2)
    b = pos.geometry
    start = b.start_cells[0]
    assert not pos.is_legal(0, [(17, 8)])  # a first piece off the start cells
    assert not pos.is_legal(0, [])
    pos.play(0, [start])
    assert not pos.is_legal(0, [start])  # occupied
    assert not pos.is_legal(0, [b.corner_neighbours(start)[0]])  # the single triangle again
    assert not pos.is_legal(1, [b.start_cells[1], b.edge_neighbours(b.start_cells[1])[0], (0, 0)])
    two = next(m for m in pos.legal_moves(0) if len(m) == 2)
    assert not any(n in two for c in two for n in b.edge_neighbours(start))
    with pytest.raises(ValueError):
        RefTrigonPosition(9, 2, "sides")


def test_scores():
    total = sum(p.size for p in PIECES)
    assert total == 1 + 2 + 3 + 3 * 4 + 4 * 5 + 12 * 6
    pos = RefTrigonPosition(8, 3)
    assert pos.scores() == [-total] * 3
    pos = final_position(8, 3, "edges", seed=6)
    for k in range(3):
        placed = sum(len(c) for c in pos.pieces[k])
        assert pos.score(k) == placed - total
    pos.placed[0] = {p.id for p in PIECES}
    pos.last[0] = 0
    assert pos.score(0) == 20
    pos.last[0] = 5
    assert pos.score(0) == 15


def test_perft_counts_passes_and_ends():
    """A colour without a move passes (one sequence) while others can move; at the end, nothing."""
    stuck = None
    for pos in random_game(8, 3, "corners-only", seed=8):
        if stuck is None and not pos.legal_moves(pos.to_play):
            stuck = pos.copy()
    assert pos.perft(2) == [0, 0]
    assert stuck is not None and stuck.perft(1) == [1]
    nxt = (stuck.to_play + 1) % 3
    after_pass = stuck.copy()
    after_pass.to_play = nxt
    assert stuck.perft(2) == [1, len(after_pass.legal_moves(nxt)) or 1]
