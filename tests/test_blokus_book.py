"""The opening book (solver.blokus.book): the shipped Duo book holds legal moves for the
positions it claims to cover, the player uses it (and searches without it), a build is
reproducible whatever the number of workers, and bad files are refused with one message."""

from __future__ import annotations

import json

import pytest

from solver.blokus.book import (
    OpeningBook,
    book_key,
    build,
    choose,
    main,
    map_cells,
    opening_positions,
    position_key,
    second_replies,
)
from solver.blokus.book import game_from_key as book_game_from_key
from solver.blokus.game import Game
from solver.blokus.players import MctsPlayer
from solver.cli.main import main as cli_main
from solver.errors import SolverError


def game_from_key(key: str) -> Game:
    return book_game_from_key("duo", key)


def test_the_shipped_duo_book_covers_its_opening_with_legal_moves():
    book = OpeningBook.for_variant("duo")
    assert book is not None and book.variant == "duo"
    start = Game("duo")
    assert book.lookup(start) is not None
    for key, text in book.entries.items():
        game = game_from_key(key)
        assert book_key(game)[0] == key
        move = game.move_from_cells(text, game.to_play)
        assert game.is_legal(move), (key, text)
    # every reply of a largest piece to any first move is covered, and the first colour's second
    # move after its book move and any such reply
    first = book.lookup(start)
    positions = opening_positions("duo", first)
    assert len(positions) > 500
    assert all(book_key(g)[0] in book.entries for g in positions)


def test_the_shipped_duo_book_covers_the_second_colours_second_move_on_its_lines():
    """After each first move it was built for and the book's reply to it, the book answers every
    second move of a largest piece by the first colour (or its mirror image), and it holds
    nothing else that deep but entries chosen from match results (``about.matched``).  A reply
    later replaced by a chosen one keeps the second moves of its line: a suite can still play it."""
    book = OpeningBook.for_variant("duo")
    deep = {k for k in book.entries if k.count("|") == 3}
    matched = set(book.about.get("matched", {}))
    candidates = set()
    for key in deep:
        placed = key.split("|")[1:]
        reply = next(p.split(":")[1] for p in placed if p.startswith("w:"))
        for p in placed:
            after = Game("duo")
            if p.startswith("b:") and after.is_legal(move := after.move_from_cells(p.split(":")[1], 0)):
                after.play(move)
                known = book.lookup(after)
                if book_key(after)[0] in matched:
                    candidates.add((p.split(":")[1], reply))
                elif known is not None and sorted(after.move_text(known).split(",")) == sorted(reply.split(",")):
                    candidates.add((p.split(":")[1], after.move_text(known)))
    covered = set()
    lines = set()                           # a line and its mirror image count once
    for first, reply in candidates:
        keys = {book_key(g)[0] for g in second_replies("duo", first, reply)}
        if keys <= deep:
            covered |= keys
            line = Game("duo")
            line.play(first)
            line.play(reply)
            lines.add(book_key(line)[0])
    # second_lines counts the first moves the build looked at; a mirror image adds no line
    # ... and the entries chosen from match results that deep, wherever they are
    assert 1 <= len(lines) <= book.about["second_lines"] and covered | (deep & matched) == deep


def test_the_key_ignores_the_order_of_placements():
    a, b = Game("duo"), Game("duo")
    m1 = a.legal_moves()[0]
    a.play(m1)
    m2 = a.legal_moves()[5]
    a.play(m2)
    b.add_setup(m2)
    b.add_setup(m1)
    b.set_to_play(0)
    assert position_key(a) == position_key(b)
    assert position_key(a) != position_key(Game("duo"))


def test_the_player_plays_book_moves_and_searches_without_the_book():
    game = Game("duo")
    book = OpeningBook.for_variant("duo")
    move, cands, stats = MctsPlayer(game.variant, "mcts:50", seed=1).genmove(game)
    assert stats.get("book") and move == book.lookup(game) and cands == []
    move, cands, stats = MctsPlayer(game.variant, "mcts:50", seed=1, book=False).genmove(game)
    assert not stats.get("book") and stats["playouts"] == 50 and cands
    # out of the book: a search
    game.play(game.legal_moves()[0])           # a monomino: no entry
    assert book.lookup(game) is None
    _, _, stats = MctsPlayer(game.variant, "mcts:50", seed=1).genmove(game)
    assert not stats.get("book")


def test_a_book_entry_that_is_not_legal_is_ignored(tmp_path):
    game = Game("duo")
    wrong = OpeningBook("duo", {position_key(game): "a1,a2,a3,a4,a5"})
    assert wrong.lookup(game) is None
    other = OpeningBook("classic", {position_key(game): "e10,e9,f9,d9,e8"})
    assert other.lookup(game) is None


def test_a_build_is_the_same_whatever_the_workers(tmp_path):
    one = build("duo", 3, seed=5, workers=1, limit=12)
    two = build("duo", 3, seed=5, workers=2, limit=12)
    # one entry per position, mirror images sharing theirs
    assert one.entries == two.entries and len(one) == len({book_key(g)[0] for g in opening_positions("duo")[:12]}) < 12
    path = tmp_path / "book.json"
    one.save(path)
    assert OpeningBook.load(path).entries == one.entries


def test_extending_a_book_keeps_its_first_move_and_every_entry():
    """A base book whose first move is not the one the search now prefers (and with an entry
    outside the planned positions) is extended without changing or dropping anything: the
    positions after its own first move are the ones searched."""
    start = Game("duo")
    chosen = build("duo", 3, seed=5, limit=1).lookup(start)
    other = next(m for m in start.legal_moves() if len(m.cells) == 5 and m != chosen)
    odd = Game("duo")
    odd.play(start.legal_moves()[0])         # after a one-cell first move: no build plans it
    odd_key, odd_view = book_key(odd)
    base = OpeningBook("duo", {
        book_key(start)[0]: map_cells(start, start.move_text(other), book_key(start)[1]),
        odd_key: map_cells(odd, odd.move_text(odd.legal_moves()[0]), odd_view),
    }, {"playouts": 3, "seed": 5})
    grown = build("duo", 3, seed=5, base=base)
    assert grown.lookup(start) == other
    assert grown.entries[odd_key] == base.entries[odd_key]
    # the first colour's second move is planned after the base's first move, not the search's
    assert all(book_key(g)[0] in grown.entries for g in opening_positions("duo", other))


def test_a_deep_search_answers_the_positions_every_game_meets():
    """With ``deep`` the first move and the replies are what a build with the deep search's
    budget finds there (the same seeds), and the book says how it was made."""
    deep = build("duo", 3, seed=5, limit=12, deep="mcts:40")
    plain = build("duo", 40, seed=5, limit=12)
    assert deep.entries == plain.entries and deep.about["deep"] == "mcts:40"
    assert "deep" not in plain.about


def test_a_new_deep_search_drops_what_hung_off_the_old_lines():
    """Rebuilt over a base made without ``deep``, the first move and replies are searched
    anew and an entry no planned position meets is dropped; rebuilt with the same ``deep``
    again, every entry stays."""
    start = Game("duo")
    base = build("duo", 3, seed=5, limit=12)
    odd = Game("duo")
    odd.play(start.legal_moves()[0])
    odd_key, odd_view = book_key(odd)
    base.entries[odd_key] = map_cells(odd, odd.move_text(odd.legal_moves()[0]), odd_view)
    deep = build("duo", 3, seed=5, limit=12, base=base, deep="mcts:40")
    assert odd_key not in deep.entries
    assert deep.entries == build("duo", 3, seed=5, limit=12, deep="mcts:40").entries
    deep.entries[odd_key] = base.entries[odd_key]
    again = build("duo", 3, seed=5, limit=12, base=deep, deep="mcts:40")
    assert again.entries == deep.entries


def test_deep_plies_takes_in_the_first_colours_second_move():
    """With ``deep_plies=3`` the first colour's second move is searched deep too (and the book
    says so); rebuilt that way over a two-ply book, only those moves are searched anew."""
    limit = len(opening_positions("duo")) + 6     # the first move, the replies, 5 second moves
    two = build("duo", 3, seed=5, limit=limit, deep="mcts:60")
    three = build("duo", 3, seed=5, limit=limit, deep="mcts:60", deep_plies=3)
    plain = build("duo", 60, seed=5, limit=limit)

    def ply(book, n):
        return {k: v for k, v in book.entries.items() if k.count("|") == n}

    assert ply(three, 2) and ply(three, 2) == ply(plain, 2) != ply(two, 2)
    assert {k: v for k, v in three.entries.items() if k.count("|") < 2} == \
        {k: v for k, v in two.entries.items() if k.count("|") < 2}
    assert three.about["deep_plies"] == 3 and "deep_plies" not in two.about
    reply_key = next(iter(ply(two, 1)))
    reply = game_from_key(reply_key)
    other = next(reply.move_text(m) for m in reply.legal_moves() if reply.move_text(m) != two.entries[reply_key])
    marked = OpeningBook("duo", dict(two.entries), dict(two.about))
    marked.entries[reply_key] = other     # a move no search chose: taken over, not searched again
    grown = build("duo", 3, seed=5, limit=limit, base=marked, deep="mcts:60", deep_plies=3)
    assert grown.entries[reply_key] == other and ply(grown, 2) == ply(three, 2)


def test_a_chosen_entry_is_played_in_every_view_and_survives_a_rebuild():
    """An entry set from match results (choose) is what the book plays in the position and in
    its mirror image, is listed under ``matched``, and a rebuild -- over the book, or given the
    entries alone -- keeps it where the search would choose another move."""
    base = build("duo", 3, seed=5, limit=12)
    reply_key = next(k for k in base.entries if k.count("|") == 1)
    reply = game_from_key(reply_key)
    line = [reply.move_text(m) for m in reply.setup]
    other = next(reply.move_text(m) for m in reply.legal_moves()
                 if map_cells(reply, reply.move_text(m), book_key(reply)[1]) != base.entries[reply_key])
    chosen = choose(base, line, other)
    assert set(chosen.about["matched"]) == {reply_key} and chosen.about["playouts"] == 3
    for view in Game("duo").variant.symmetries:      # the line as played and mirrored
        game = Game("duo")
        for text in line:
            game.play(",".join(game.cell_name(view[game.variant.geometry.parse_cell(c)]) for c in text.split(",")))
        expected = ",".join(sorted(game.cell_name(view[game.variant.geometry.parse_cell(c)]) for c in other.split(",")))
        assert ",".join(sorted(game.move_text(chosen.lookup(game)).split(","))) == expected
    rebuilt = build("duo", 3, seed=5, limit=12, base=chosen)
    assert rebuilt.entries == chosen.entries and rebuilt.about["matched"] == chosen.about["matched"]
    given = build("duo", 3, seed=5, limit=12, matched=chosen.about["matched"])
    assert given.entries == chosen.entries
    assert "matched" not in base.about and build("duo", 3, seed=5, limit=12).entries == base.entries


@pytest.mark.parametrize("line, move, message", [
    (["e10,e9,f8,f9,g9"], "a1", "the chosen move a1"),
    (["e10,e9,f8,f9,g9"], "e10", "the chosen move e10"),
    (["a1"], "j5", "move 1 of the line (a1)"),
])
def test_choose_refuses_an_illegal_line_or_move(line, move, message):
    with pytest.raises(SolverError, match=message.replace("(", r"\(").replace(")", r"\)")):
        choose(OpeningBook("duo", {}), line, move)


def test_the_choose_command_changes_the_shipped_book(tmp_path, monkeypatch, capsys):
    import solver.blokus.book as book_module

    (tmp_path / "book_duo.json").write_text(book_module.book_path("duo").read_text())
    monkeypatch.setattr(book_module, "BOOK_DIR", tmp_path)
    book_module._shipped.cache_clear()
    try:
        shipped = OpeningBook.load(tmp_path / "book_duo.json")
        assert main(["duo", "--choose", "e10,e9,f8,f9,g9; i6,j5,j6,j7,k6", "g5,h5,i5,g6,g7"]) == 0
        book = OpeningBook.load(tmp_path / "book_duo.json")
        game = Game("duo")
        game.play("e10,e9,f8,f9,g9")
        game.play("i6,j5,j6,j7,k6")
        assert sorted(game.move_text(book.lookup(game)).split(",")) == ["g5", "g6", "g7", "h5", "i5"]
        matched = book.about["matched"]
        assert len(matched) == len(shipped.about.get("matched", {})) + 1 and book.about["deep"]
        assert {k: v for k, v in book.entries.items() if k not in matched} == \
            {k: v for k, v in shipped.entries.items() if k not in matched}
        before = (tmp_path / "book_duo.json").read_text()
        for argv in (["duo", "--choose", "e10,e9,f8,f9,g9", "a1"], ["duo", "--choose", "x"],
                     ["classic", "--choose", "", "a1"], ["duo", "5", "--choose", "", "e10"]):
            capsys.readouterr()
            assert main(argv) == 2
            err = capsys.readouterr().err.strip()
            assert err and "\n" not in err and "Traceback" not in err
        assert (tmp_path / "book_duo.json").read_text() == before
    finally:
        book_module._shipped.cache_clear()


@pytest.mark.parametrize("content", ["", "{", "[]", json.dumps({"variant": "duo"})])
def test_a_bad_book_file_is_refused_with_one_message(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SolverError, match="cannot read opening book"):
        OpeningBook.load(path)


def test_play_says_when_the_move_comes_from_the_book(tmp_path, capsys):
    record = tmp_path / "empty.blksgf"
    record.write_text("(;GM[Blokus Duo]FF[4]CA[UTF-8])")

    def run(*extra):
        with pytest.raises(SystemExit) as info:
            cli_main(["blokus", "play", str(record), "--strategy", "mcts:30", "-v", *extra])
        return info.value.code, capsys.readouterr().out

    code, out = run()
    assert code == 0 and "opening book" in out
    code, out = run("--no-book")
    assert code == 0 and "opening book" not in out and "30 playouts" in out


@pytest.mark.parametrize("argv", [[], ["classic", "100"], ["duo", "x"], ["duo", "0"], ["nosuch", "10"],
                                  ["duo", "10", "--deep"], ["duo", "10", "--deep", "greedy"],
                                  ["duo", "10", "--deep", "mcts:0"], ["duo", "10", "--deep-plies", "3"],
                                  ["duo", "10", "--deep", "mcts:40", "--deep-plies", "0"],
                                  ["duo", "10", "--deep", "mcts:40", "--deep-plies", "x"],
                                  ["duo", "10", "--deep", "mcts:40", "--deep-plies"]])
def test_the_build_command_refuses_bad_arguments_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err
