"""Game records of Blokus 3D: one JSON document per game (or a list of them in one file).

::

    {
      "format": "blokus3d-record",
      "version": 1,
      "template": {"name": "pyramid", "footprint": ["#####", ...], "heights": {"2": 3, "3": 4, "4": 5}},
      "players": 4,
      "colours_each": 1,
      "moves": [
        {"colour": "blue", "piece": "L4", "cubes": ["a1:1", "b1:1", "c1:1", "a2:1"]},
        ...
      ],
      "comment": "optional free text"
    }

The template is stored whole, so a record made on a user's own template reads back without the
file.  ``colours_each`` (default 1) is 2 for the two-player game with two colours each (blue and
red for the first player, yellow and green for the second).  Each move names its colour and its cubes (``c2:1``: column c, row 2, level 1 = ground);
``piece`` is optional on reading and checked when present.  Colours move in turn order; a colour
skipped in the record is one that could not place and is out (the reader checks this, as it
checks every rule, by replaying the moves).

>>> g = Game3D("tower", 2)
>>> _ = g.play("a1:1,b1:1")
>>> h = read_games(write_games([(g, "")]), "x")[0]
>>> [m.cubes for m in h.moves] == [m.cubes for m in g.moves], h.template.name
(True, 'tower')
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.blokus3d.game import Game3D
from solver.blokus3d.pieces import piece_by_name
from solver.blokus3d.templates import template_from_data
from solver.errors import SolverError
from solver.inputs import parse_json, read_text

FORMAT = "blokus3d-record"
VERSION = 1


def game_to_data(game: Game3D, comment: str = "") -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "template": game.template.to_dict(),
        "players": game.players,
        **({"colours_each": 2} if game.colours_each == 2 else {}),
        "moves": [{"colour": game.colour_name(m.colour), "piece": m.piece,
                   "cubes": game.move_text(m).split(",")} for m in game.moves],
    }
    if comment:
        data["comment"] = comment
    return data


def write_games(entries: list[tuple[Game3D, str]]) -> str:
    """One record (a single game) or a JSON list of records, as text ending in a newline."""
    docs = [game_to_data(g, c) for g, c in entries]
    body = docs[0] if len(docs) == 1 else docs
    return json.dumps(body, indent=1, ensure_ascii=False) + "\n"


def game_from_data(data: Any, where: str) -> Game3D:
    """Replay a record, checking every rule; SolverError naming ``where`` and the move if it fails."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SolverError(f"{where}: not a Blokus 3D record (missing \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise SolverError(f"{where}: record version {data.get('version')!r} (this program reads {VERSION})")
    template = template_from_data(data.get("template"), f"{where}: template")
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise SolverError(f"{where}: players must be 2, 3 or 4")
    each = data.get("colours_each", 1)
    if each not in (1, 2) or isinstance(each, bool):
        raise SolverError(f"{where}: colours_each must be 1 or 2")
    game = Game3D(template, players, each)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise SolverError(f"{where}: moves must be a list")
    for i, entry in enumerate(moves, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("cubes"), list) \
                or not all(isinstance(c, str) for c in entry["cubes"]) or "colour" not in entry:
            raise SolverError(f"{where}: move {i} needs a colour and a list of cubes like \"a1:1\"")
        try:
            colour = game.colour_index(entry["colour"])
            move = game.move_from_cubes(",".join(entry["cubes"]), colour)
            if "piece" in entry and piece_by_name(str(entry["piece"])).name != move.piece:
                raise SolverError(f"the cubes form piece {move.piece}, not {entry['piece']}")
            game.play(move)
        except SolverError as exc:
            raise SolverError(f"{where}: move {i}: {exc}") from None
    return game


def read_games(text: str, where: str) -> list[Game3D]:
    """Every game in a record text (one document or a list)."""
    data = parse_json(text, where)
    docs = data if isinstance(data, list) else [data]
    if not docs:
        raise SolverError(f"{where}: no game in the file")
    return [game_from_data(d, where if len(docs) == 1 else f"{where} game {i}") for i, d in enumerate(docs, 1)]


def read_file(path: str | Path) -> Game3D:
    """The (first) game of a record file."""
    text = read_text(path, "game record")
    return read_games(text, str(path))[0]
