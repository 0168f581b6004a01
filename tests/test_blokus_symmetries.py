"""Board symmetries (``Geometry.board_symmetries``, ``Variant.symmetries``): each is a
one-to-one map of the board's cells that keeps every edge and corner contact, there are as many
as the board's shape has (a square 8, a rectangle 4, a hexagon 12), the rules do not tell a
position from its image, and the opening book answers a mirrored position with the mirrored
move."""

from __future__ import annotations

import random

import pytest

from solver.blokus.book import OpeningBook, game_from_key, position_key
from solver.blokus.game import Game
from solver.blokus.geometry import SquareGeometry, TrigonGeometry


def mirrored(game: Game, view: dict) -> Game:
    """The position of ``game`` with every placement's cells mapped by ``view`` (as setup)."""
    out = Game(game.variant)
    for m in game.setup + game.moves:
        out.add_setup(out.move_from_cells(",".join(game.cell_name(view[c]) for c in m.cells), m.colour))
    out.set_to_play(game.to_play)
    return out


@pytest.mark.parametrize("geometry, count", [(SquareGeometry(14, 14), 8), (SquareGeometry(20, 20), 8),
                                             (SquareGeometry(6, 4), 4), (TrigonGeometry(9), 12),
                                             (TrigonGeometry(8), 12)])
def test_every_symmetry_keeps_the_contacts_of_every_cell(geometry, count):
    syms = geometry.board_symmetries
    assert len(syms) == count
    assert all(s[c] == c for s in syms[:1] for c in geometry.cells)    # the identity first
    for s in syms:
        assert sorted(s) == sorted(geometry.cells) and sorted(s.values()) == sorted(geometry.cells)
        for c in geometry.cells:
            assert sorted(s[n] for n in geometry.edge_neighbours(c)) == sorted(geometry.edge_neighbours(s[c]))
            assert sorted(s[n] for n in geometry.corner_neighbours(c)) == sorted(geometry.corner_neighbours(s[c]))
        # a turn by 60 degrees makes upward triangles point down: all of them, or none
        assert len({geometry.kind(s[c]) == geometry.kind(c) for c in geometry.cells}) == 1


@pytest.mark.parametrize("variant", ["duo", "classic-2", "trigon-2"])
def test_the_rules_do_not_tell_a_position_from_its_image(variant):
    """Under every symmetry of the variant (those keeping the first-move cells), the legal moves
    of the image are the images of the legal moves, and the scores are the same."""
    rnd = random.Random(7)
    game = Game(variant)
    syms = game.variant.symmetries
    assert len(syms) == {"duo": 2, "classic-2": 1, "trigon-2": 12}[variant]
    for _ in range(12):
        if game.is_over:
            break
        for view in syms:
            image = mirrored(game, view)
            k = game.to_play
            mapped = {tuple(sorted(view[c] for c in m.cells)) for m in game.legal_moves(k)}
            assert mapped == {tuple(sorted(m.cells)) for m in image.legal_moves(k)}
            assert image.scores == game.scores
        game.play(rnd.choice(game.legal_moves()))


def test_the_book_answers_a_mirrored_position_with_the_mirrored_move():
    book = OpeningBook.for_variant("duo")
    view = Game("duo").variant.symmetries[1]          # the mirror in the diagonal of the starts
    checked = 0
    for key in list(book.entries)[::37]:
        game = game_from_key("duo", key)
        move, image = book.lookup(game), mirrored(game, view)
        assert move is not None and game.is_legal(move)
        if position_key(image) == position_key(game):  # its own mirror image (the empty board)
            continue
        assert sorted(image.cell_name(c) for c in book.lookup(image).cells) == \
            sorted(game.cell_name(view[c]) for c in move.cells)
        checked += 1
    assert checked > 40
