"""Pentobi compatibility: our SGF records, drawn by Pentobi's own thumbnailer, show our positions.

`pentobi-thumbnailer` (Debian package `pentobi`) parses a record with Pentobi's SGF reader and
draws the final position. We decode its PNG (tiny pure-Python decoder below), sample every cell
and require a one-to-one match between our colours (and empty cells) and the pixel colours. The
test is skipped where Pentobi is not installed (.ci/run installs it).
"""

import os
import shutil
import struct
import subprocess
import zlib

import pytest

from solver.blokus.selfplay import SelfPlay
from solver.blokus.sgf import read_game, write_game

THUMBNAILER = shutil.which("pentobi-thumbnailer") or (
    "/usr/games/pentobi-thumbnailer" if os.path.exists("/usr/games/pentobi-thumbnailer") else None)
pytestmark = pytest.mark.skipif(THUMBNAILER is None, reason="Pentobi is not installed")


def read_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour_type in (2, 6) and interlace == 0
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        filt, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if filt == 1:
                line[i] = (line[i] + a) & 255
            elif filt == 2:
                line[i] = (line[i] + b) & 255
            elif filt == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def board_box(rows) -> tuple[int, int, int, int]:
    """Pixel bounding box (left, top, right, bottom) of everything not in the corner's colour."""
    background = rows[0][0]
    ys = [y for y, row in enumerate(rows) if any(p != background for p in row)]
    xs = [x for x in range(len(rows[0])) if any(rows[y][x] != background for y in ys)]
    return xs[0], ys[0], xs[-1] + 1, ys[-1] + 1


@pytest.mark.parametrize("variant,strategies", [("classic", ("greedy", "random", "random", "random")),
                                                ("duo", ("random", "greedy")),
                                                ("trigon", ("greedy", "random", "random", "random")),
                                                ("trigon-3", ("random", "greedy", "random"))])
def test_pentobi_draws_our_records(tmp_path, variant, strategies):
    game = SelfPlay(variant, strategies=strategies).record(2024, 1)[0]
    text = write_game(game)
    assert write_game(read_game(text)) == text
    sgf, png = tmp_path / "g.blksgf", tmp_path / "g.png"
    sgf.write_text(text)
    geometry = game.variant.geometry
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([THUMBNAILER, "-s", str(geometry.width * 20), str(sgf), str(png)], check=True, env=env,
                   timeout=60, capture_output=True)
    width, height, rows = read_png(png)
    # our drawing coordinates of each cell's centre, mapped linearly onto the board's pixels
    centres = {c: tuple(sum(p[i] for p in geometry.polygon(c)) / len(geometry.polygon(c)) for i in (0, 1))
               for c in geometry.cells}
    corners = [p for c in geometry.cells for p in geometry.polygon(c)]
    x0, x1 = min(p[0] for p in corners), max(p[0] for p in corners)
    y0, y1 = min(p[1] for p in corners), max(p[1] for p in corners)
    left, top, right, bottom = board_box(rows)
    owner = {}
    for move in game.moves:
        for cell in move.cells:
            owner[cell] = move.colour
    seen: dict = {}
    for cell, (cx, cy) in centres.items():
        px = left + (cx - x0) / (x1 - x0) * (right - left)
        py = top + (y1 - cy) / (y1 - y0) * (bottom - top)
        seen.setdefault(owner.get(cell, -1), set()).add(rows[int(py)][int(px)])
    # every colour (and 'empty') is drawn in one pixel colour, and different ones differently
    assert all(len(p) == 1 for p in seen.values()), seen
    assert len({next(iter(p)) for p in seen.values()}) == len(seen)
    assert len(seen) == game.variant.n_colours + 1
