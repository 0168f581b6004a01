"""Napij-se rules on hand-built positions: every special field kind, every card, every Bottle rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver._ext.clovece import CompiledBoard, NapijTable
from solver.clovece.board import load_board
from solver.clovece.deck import CARD_KINDS, compile_deck, load_deck
from solver.clovece.strategies import SEATS, strategy_ids

try:
    from tests.clovece_reference import NapijMoves, NapijPawn
except ImportError:  # plain `pytest` puts tests/ itself on sys.path
    from clovece_reference import NapijMoves, NapijPawn

BOARD = load_board()
DECK = load_deck()
CB = CompiledBoard(BOARD.arrays, DECK.arrays())
F = BOARD.index
PUB = -1
CAUSE = {"captured": 0, "bottle": 1, "pub": 2, "card": 3, "home": 4, "start": 5, "toast": 6}


def table(strategies=("runner", "runner"), seed=1, board=CB, drink_once=False) -> NapijTable:
    """Two players: player 0 on seat 0 (start L0, home via L39/R0), player 1 on seat 2 (start L20)."""
    n = len(strategies)
    return NapijTable(board, n, list(SEATS[n]), strategy_ids(tuple(strategies)), seed, drink_once=drink_once)


def pos(t: NapijTable, p: int, k: int) -> int:
    return t.state()["pawns"][p][k]["pos"]


def cause(t: NapijTable, p: int, name: str) -> int:
    return t.state()["causes"][p][CAUSE[name]]


def card_on_top(t: NapijTable, card: str, n: int = 0, then: str | None = None, deck=DECK) -> None:
    first = deck.index_of(card, n)
    order = [first]
    if then is not None:
        order.append(next(i for i in range(len(deck.kind)) if deck.kind[i] == CARD_KINDS.index(then)
                          and i != first))
    order += [i for i in range(len(deck.kind)) if i not in order]
    t.set_deck(order)


# ---- entering, sums, captures -------------------------------------------------------------------

def test_entering_needs_a_six_and_captures_on_the_start_field() -> None:
    t = table()
    t.place(1, 0, F("L0"))
    assert t.legal(0, 5) == []
    assert sorted(m[0] for m in t.legal(0, 6)) == [0, 1, 2, 3]
    assert t.move(0, 0, 0, pre6=True) == F("L0")
    s = t.state()
    assert pos(t, 1, 0) == PUB and s["captures"] == 1 and cause(t, 1, "captured") == 1
    assert cause(t, 1, "pub") == 1 and s["drinks"][1] == 2     # captured + back in the pub: 2 drinks
    assert s["bottle"] == F("L39")           # the Bottle: one field behind the first pawn in play


def test_one_drink_per_event_house_rule() -> None:
    t = table(drink_once=True)
    t.place(1, 0, F("L0"))
    t.move(0, 0, 0, pre6=True)
    s = t.state()
    assert cause(t, 1, "captured") == 1 and cause(t, 1, "pub") == 0 and s["drinks"][1] == 1


def test_sum_move_passes_start_and_intermediate_fields_without_capturing() -> None:
    t = table()
    t.place(1, 0, F("L0"))
    t.place(1, 1, F("L4"))
    assert t.move(0, 0, 2, pre6=True) == F("L2")      # 6 + 2 as one sum: passes L0
    assert pos(t, 1, 0) == F("L0")
    assert t.state()["bottle"] == F("L39")           # one field behind the start field it entered on
    t.move(0, 0, 5)                                    # passes the pawn on L4
    assert pos(t, 1, 1) == F("L4") and t.state()["captures"] == 0
    t2 = table()
    t2.place(0, 0, F("L10"))
    t2.place(1, 0, F("L13"))
    t2.move(0, 0, 3)                                   # stopping on it captures
    assert pos(t2, 1, 0) == PUB


def test_cannot_land_on_own_pawn() -> None:
    t = table()
    t.place(0, 0, F("L10"))
    t.place(0, 1, F("L13"))
    assert all(m[0] != 0 for m in t.legal(0, 3))


def test_six_then_four_cannot_bring_in_a_pawn_missing_four() -> None:
    t = table()
    for k, h in ((1, "H0.2"), (2, "H0.3"), (3, "H0.4")):
        t.place(0, k, F(h))
    t.place(0, 0, F("L37"))          # L38, L39, R0, H0.1: four fields missing
    t.play_dice(0, [6, 4])           # the 6 cannot be used, so the 4 is lost too
    assert pos(t, 0, 0) == F("L37") and t.state()["winner"] == -1
    t.play_dice(0, [4])
    assert pos(t, 0, 0) == F("H0.1") and t.state()["winner"] == 0
    assert cause(t, 1, "home") == 1 and cause(t, 1, "toast") == 1 and cause(t, 0, "toast") == 0


def test_split_or_sum_only() -> None:
    """After 6 and 3 the pawns end where a 6 and a 3 or one 9 put them, never 5 + 4."""
    for strat in ("random", "runner", "hunter", "cautious", "shortcut", "best"):
        for seed in range(30):
            t = table((strat, "random"), seed=seed)
            t.place(0, 0, F("L10"))
            t.place(0, 1, F("L30"))
            t.play_dice(0, [6, 3])
            a, b = pos(t, 0, 0), pos(t, 0, 1)
            allowed = {
                (F("L19"), F("L30")), (F("L10"), F("L39")),          # one pawn by the sum
                (F("L16"), F("L33")), (F("L13"), F("L36")),          # split 6 / 3
                (F("L10"), F("L30")),                                # (a 6 entering, then the 3)
            }
            entered = any(pos(t, 0, k) == F("L0") or pos(t, 0, k) == F("L3") for k in (2, 3))
            assert (a, b) in allowed or entered, (strat, seed, a, b)


# ---- shortcuts, crossroads, Black path, detours, holding fields ----------------------------------

def test_crossroads_turn_only_from_a_stop_on_an_earlier_turn() -> None:
    t = table()
    t.place(0, 0, F("L1"))
    t.move(0, 0, 1)                                  # stops on the crossroads L2 now
    assert [m[3] for m in t.legal(0, 1) if m[0] == 0] == [F("L3")]
    t.next_turn()
    assert sorted(m[3] for m in t.legal(0, 1) if m[0] == 0) == sorted([F("L3"), F("S0.1")])
    assert t.move(0, 0, 3, choice=1) == F("L8")     # S0.1, S0.2, back on the loop clockwise
    t.place(0, 1, F("L1"))
    assert t.move(0, 1, 2) == F("L3")               # passing a crossroads: straight on


def test_black_path_is_two_way_with_head_on_captures() -> None:
    t = table()
    t.place(0, 0, F("L5"))
    t.place(1, 0, F("L25"))
    assert t.move(0, 0, 2, choice=1) == F("B2")
    assert t.state()["pawns"][0][0]["bdir"] == 1 and t.state()["black"]
    assert t.move(1, 0, 8, choice=1) == F("B2")     # the other way: B9, B8, ... B2
    assert t.state()["pawns"][1][0]["bdir"] == -1
    assert pos(t, 0, 0) == PUB and cause(t, 0, "captured") == 1
    t.place(1, 0, F("B1"), bdir=-1)
    assert t.move(1, 0, 1) == F("L5")               # leaves the Black path, then clockwise
    assert t.move(1, 0, 1) == F("L6")


def test_detour_forces_the_branch_and_holding_needs_an_exact_count() -> None:
    t = table()
    t.place(0, 0, F("B2"), bdir=1)
    assert t.move(0, 0, 1) == F("B3")               # stops on the detour
    assert [m[3] for m in t.legal(0, 2) if m[0] == 0] == [F("K2")]
    assert [m for m in t.legal(0, 5) if m[0] == 0] == []     # would overshoot the police cell
    assert t.move(0, 0, 4) == F("POLICE")
    st = t.state()["pawns"][0][0]
    assert st["held"]
    assert [m for m in t.legal(0, 3) if m[0] == 0] == []     # blocked until a 6
    assert (0, 0, 1, F("POLICE")) in t.legal(0, 6)
    t.move(0, 0, 0, pre6=True)                       # the 6 frees it; it moves with the next roll
    assert not t.state()["pawns"][0][0]["held"]
    assert t.move(0, 0, 2) == F("K2")
    assert t.move(0, 0, 2) == F("B3")               # stops on the detour on the way back ...
    assert [m[3] for m in t.legal(0, 1) if m[0] == 0] == [F("K1")]   # ... and must go back in


def test_after_a_holding_field_the_pawn_keeps_its_black_path_direction() -> None:
    for bdir, dest in ((1, "B4"), (-1, "B2")):
        t = table()
        t.place(0, 0, F("K1"), bdir=bdir, inward=False)
        assert t.move(0, 0, 2) == F(dest)           # passes the detour B3


def test_swamp_forest_crossroads_sends_back_in_when_stopped_on() -> None:
    t = table()
    t.place(0, 0, F("SWAMP"))                        # already freed by a 6
    assert t.move(0, 0, 2) == F("X")                # M2, X: stops on the crossroads
    assert sorted(m[3] for m in t.legal(0, 1) if m[0] == 0) == sorted([F("M2"), F("M3")])
    assert t.move(0, 0, 2, choice=1) == F("FOREST")
    assert t.state()["pawns"][0][0]["held"]
    t.place(0, 1, F("SWAMP"))
    assert t.move(0, 1, 3) == F("M1")               # passing the crossroads on the way out is fine
    t = table()
    t.place(0, 2, F("M1"), inward=True)
    assert t.move(0, 2, 3) == F("SWAMP")            # on the way in it passes X toward the swamp


def test_holding_field_not_in_play_means_three_tries_and_no_bottle() -> None:
    t = table(("hunter", "random"))
    t.place(0, 0, F("POLICE"), held=True)
    t.place(1, 0, F("L12"))
    t.set_bottle(F("L10"))
    for _ in range(20):
        t.turn(0)
        if not t.state()["pawns"][0][0]["held"] or pos(t, 0, 1) != PUB:
            break
        assert t.state()["bottle"] == F("L10")    # a hunter with nothing in play may not use it


# ---- card field, rolling pin, arrow and home ----------------------------------------------------

def test_card_field_draws_the_top_card_and_puts_it_under() -> None:
    t = table()
    card_on_top(t, "drink")
    t.place(0, 0, F("L1"))
    t.move(0, 0, 3)                                  # L4 is a card field
    assert cause(t, 0, "card") == 1 and t.state()["top"] == 1


def test_rolling_pin_sends_the_pawn_back_to_its_pub() -> None:
    t = table()
    t.place(0, 0, F("L37"))
    t.move(0, 0, 3)                                  # L38, L39, R0
    assert pos(t, 0, 0) == PUB and cause(t, 0, "pub") == 1


def test_home_through_own_arrow_exact_count_no_jumping_others_drink() -> None:
    t = table()
    t.place(0, 1, F("H0.2"))
    t.place(0, 0, F("L38"))
    assert [m for m in t.legal(0, 4) if m[0] == 0] == []      # would jump the pawn on H0.2
    assert t.move(0, 0, 3) == F("H0.1")
    assert cause(t, 1, "home") == 1 and cause(t, 0, "home") == 0
    t.place(0, 2, F("H0.3"))
    assert [m for m in t.legal(0, 2) if m[0] == 2] == []      # beyond the last home field
    t.place(1, 0, F("L38"))
    assert t.move(1, 0, 3) == F("L1")               # another seat's arrow: straight on


# ---- cards ---------------------------------------------------------------------------------------

def test_advance_card_counts_toward_home_and_is_void_if_it_overshoots() -> None:
    t = table()
    card_on_top(t, "advance", 3)
    t.place(0, 0, F("L10"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L13")
    card_on_top(t, "advance", 3)
    t.place(0, 0, F("L37"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == PUB                       # advanced onto the rolling pin
    deck = compile_deck({"cards": [{"card": "advance", "n": 9}, {"card": "blank"}]})
    cb = CompiledBoard(BOARD.arrays, deck.arrays())
    t = table(board=cb)
    t.set_deck([0, 1])
    t.place(0, 0, F("L36"))                          # 8 fields to the last home field
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L36")


def test_back_card_stops_at_the_own_start() -> None:
    t = table()
    card_on_top(t, "back", 3)
    t.place(0, 0, F("L12"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L9")
    card_on_top(t, "back", 3)
    t.place(0, 1, F("L1"))
    t.draw(0, 1)
    assert pos(t, 0, 1) == F("L0")


def test_catch_up_card_catches_up_with_another_colour() -> None:
    t = table()
    card_on_top(t, "catch-up")
    t.place(0, 0, F("L20"))
    t.place(0, 1, F("L22"))                          # an own pawn in between is passed
    t.place(1, 0, F("L26"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L25") and pos(t, 1, 0) == F("L26")
    card_on_top(t, "catch-up")
    t.draw(0, 0)                                     # already right behind: nothing happens
    assert pos(t, 0, 0) == F("L25")
    t.place(0, 0, F("L11"))
    t.place(0, 1, F("L25"))
    card_on_top(t, "catch-up")
    t.draw(0, 0)                                     # an own pawn stands right behind it: void
    assert pos(t, 0, 0) == F("L11")


def test_fall_in_card_goes_back_behind_another_colour() -> None:
    t = table()
    card_on_top(t, "fall-in")
    t.place(0, 0, F("L17"))
    t.place(0, 1, F("L15"))
    t.place(1, 0, F("L12"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L11")
    card_on_top(t, "fall-in")
    t.place(1, 0, F("L38"))                          # behind the own start field: void
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L11")


def test_offered_capture_card() -> None:
    """The nearest pawn of another colour behind jumps onto the drawer's pawn (on a card field),
    captures it and draws the next card out of turn."""
    t = table()
    card_on_top(t, "offer-capture", then="drink")
    t.place(0, 0, F("L14"))                          # L14 is a card field
    t.place(1, 0, F("L5"))
    t.place(1, 1, F("L9"))
    t.draw(0, 0)
    s = t.state()
    assert pos(t, 0, 0) == PUB and pos(t, 1, 1) == F("L14") and pos(t, 1, 0) == F("L5")
    assert cause(t, 0, "captured") == 1 and cause(t, 0, "pub") == 1 and cause(t, 1, "card") == 1
    assert s["top"] == 2
    t2 = table()
    card_on_top(t2, "offer-capture")
    t2.place(0, 0, F("L14"), immune=2)
    t2.place(1, 0, F("L9"))
    t2.draw(0, 0)                                    # an immune pawn cannot be captured
    assert pos(t2, 0, 0) == F("L14") and pos(t2, 1, 0) == F("L9")


def test_capture_card_skips_immune_pawns_and_shortcuts() -> None:
    t = table()
    card_on_top(t, "capture")
    t.place(0, 0, F("L10"))
    t.place(1, 0, F("L30"), immune=3)
    t.place(1, 1, F("B4"))
    t.place(1, 2, F("L15"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L15") and pos(t, 1, 2) == PUB and cause(t, 1, "captured") == 1
    card_on_top(t, "capture")
    t.place(1, 2, PUB)
    t.draw(0, 0)                                     # only an immune pawn and one off the loop
    assert pos(t, 0, 0) == F("L15") and pos(t, 1, 0) == F("L30") and pos(t, 1, 1) == F("B4")


def test_swap_card_and_the_opponent_draws_out_of_turn() -> None:
    t = table()
    card_on_top(t, "swap", then="drink")
    t.place(0, 0, F("L4"))                           # standing on a card field
    t.place(1, 0, F("L30"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L30") and pos(t, 1, 0) == F("L4")
    assert cause(t, 1, "card") == 1 and t.state()["top"] == 2


def test_from_pub_card_places_the_bottle_too() -> None:
    t = table()
    card_on_top(t, "from-pub")
    t.place(0, 0, F("L12"))
    t.draw(0, 0)
    assert pos(t, 0, 1) == F("L0")


def test_immunity_card_protects_and_runs_out() -> None:
    t = table()
    card_on_top(t, "immunity", 4)
    t.place(0, 0, F("L12"))
    t.draw(0, 0)
    assert t.state()["pawns"][0][0]["immune"] == 4
    t.place(1, 0, F("L9"))
    assert [m for m in t.legal(1, 3) if m[0] == 0] == []      # cannot capture it
    card_on_top(t, "return-to-pub")
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("L12")
    t.set_bottle(F("L8"))
    t.bottle(4)
    assert pos(t, 0, 0) == F("L12")                 # the Bottle cannot take it either
    for _ in range(4):
        t.turn(0)
    assert t.state()["pawns"][0][0]["immune"] == 0


def test_return_to_pub_card() -> None:
    t = table()
    card_on_top(t, "return-to-pub")
    t.place(0, 0, F("L12"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == PUB and cause(t, 0, "pub") == 1


def test_police_card_leaves_by_the_shorter_way_home() -> None:
    t = table()
    card_on_top(t, "police")
    t.place(0, 0, F("L12"))
    t.draw(0, 0)
    st = t.state()["pawns"][0][0]
    assert st["pos"] == F("POLICE") and st["held"] and st["bdir"] == 1       # seat 0: toward L25
    card_on_top(t, "police")
    t.place(1, 0, F("L12"))
    t.draw(1, 0)
    assert t.state()["pawns"][1][0]["bdir"] == -1                            # seat 2: toward L5


def test_drink_finish_glass_and_blank_cards() -> None:
    t = table()
    t.place(0, 0, F("L12"))
    card_on_top(t, "drink")
    t.draw(0, 0)
    card_on_top(t, "finish-glass")
    t.draw(0, 0)
    s = t.state()
    assert s["drinks"][0] == 2 and s["glass"][0] == 1 and cause(t, 0, "card") == 2
    card_on_top(t, "blank")
    before = t.state()
    t.draw(0, 0)
    after = t.state()
    assert {k: v for k, v in before.items() if k != "top"} == {k: v for k, v in after.items() if k != "top"}


def test_movement_cards_act_on_main_loop_pawns_only() -> None:
    t = table()
    card_on_top(t, "advance", 3)
    t.place(0, 0, F("S1.1"))
    t.draw(0, 0)
    assert pos(t, 0, 0) == F("S1.1")


# ---- the Bottle ---------------------------------------------------------------------------------

def test_bottle_captures_the_pawn_it_stops_on() -> None:
    t = table()
    t.set_bottle(F("L10"))
    t.place(1, 0, F("L13"))
    t.place(0, 0, F("L12"))
    t.bottle(3)
    assert pos(t, 1, 0) == PUB and cause(t, 1, "bottle") == 1 and pos(t, 0, 0) == F("L12")
    assert cause(t, 1, "pub") == 1 and cause(t, 1, "captured") == 0


def test_pawn_landing_on_the_bottle_pushes_it_behind_capturing_there() -> None:
    t = table()
    t.set_bottle(F("L13"))
    t.place(0, 0, F("L10"))
    t.place(1, 0, F("L12"))
    t.move(0, 0, 3)
    s = t.state()
    assert s["bottle"] == F("L12") and pos(t, 1, 0) == PUB
    assert cause(t, 0, "bottle") == 1 and cause(t, 1, "bottle") == 1


def test_bottle_stays_on_the_main_loop() -> None:
    t = table()
    t.set_bottle(F("L37"))
    t.bottle(4)
    assert t.state()["bottle"] == F("L1")            # past the arrow field, not into a home
    t.bottle(6)
    assert t.state()["bottle"] == F("L7")            # past crossroads L2 and L5, no shortcut


def test_bottle_is_announced_only_with_a_pawn_in_play() -> None:
    t = table(("hunter", "random"))
    t.set_bottle(F("L10"))
    t.place(1, 0, F("L12"))
    t.place(0, 0, F("H0.4"))
    t.turn(0)                                        # nothing in play: rolls for a 6 instead
    assert t.state()["bottle"] == F("L10")
    t.place(0, 1, F("L30"))
    t.turn(0)                                        # hunter with a pawn in play attacks
    assert t.state()["bottle"] != F("L10")
    assert t.violations() == 0


# ---- differential: legal moves vs the pure-Python reference on random positions -------------------

def _random_position(data, players: int):
    """Pawns anywhere they can be: pub, loop, shortcuts, Black path, branches, holding fields, own home."""
    import json

    from solver.clovece.board import default_board_path

    doc = json.loads(default_board_path().read_text(encoding="utf-8"))
    seats = list(SEATS[players])
    common = [f["id"] for f in doc["fields"] if f["zone"] not in ("pin", "home")]
    used: set[str] = set()
    pawns = []
    for p in range(players):
        row = []
        homes = doc["seats"][seats[p]]["home"]
        for _ in range(4):
            fid = data.draw(st.sampled_from([None, None, *common, *homes]))
            zone = BOARD.arrays["zone"][F(fid)] if fid else None
            if fid is not None and zone != 4 and fid in used:
                fid = None
            if fid is not None and zone != 4:
                used.add(fid)
            row.append(NapijPawn(
                field=fid, held=bool(fid and zone == 4 and data.draw(st.booleans())),
                immune=data.draw(st.sampled_from([0, 0, 0, 2])), bdir=data.draw(st.sampled_from([1, -1])),
                inward=data.draw(st.booleans()), ready=data.draw(st.booleans())))
        pawns.append(row)
    return doc, seats, pawns


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_legal_moves_match_reference_on_random_positions(data) -> None:
    players = data.draw(st.sampled_from([2, 3, 4]))
    doc, seats, pawns = _random_position(data, players)
    t = NapijTable(CB, players, seats, [0] * players, 1)
    for p, row in enumerate(pawns):
        for k, pw in enumerate(row):
            t.place(p, k, F(pw.field) if pw.field else -1, held=pw.held, immune=pw.immune, bdir=pw.bdir,
                    inward=pw.inward, ready=pw.ready)
    ref = NapijMoves(doc)
    p = data.draw(st.integers(0, players - 1))
    for die in range(1, 7):
        engine = {(k, c, pre, BOARD.ids[d]) for k, c, pre, d in t.legal(p, die)}
        assert engine == ref.legal(seats, pawns, p, die), (p, die)


BLANK_CB = CompiledBoard(BOARD.arrays, compile_deck({"cards": [{"card": "blank", "count": 32}]}).arrays())
CAUSES = ("captured", "bottle", "pub", "card", "home", "start", "toast")


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_moves_change_the_position_as_in_the_reference(data) -> None:
    """A random legal move (single die or a sum) on a random position, with blank cards: the same
    pawns, Bottle, captures and drinks afterwards."""
    players = data.draw(st.sampled_from([2, 3, 4]))
    doc, seats, pawns = _random_position(data, players)
    loop = [f["id"] for f in doc["fields"] if f["zone"] == "loop"]
    bottle = data.draw(st.sampled_from([None, *loop]))
    t = NapijTable(BLANK_CB, players, seats, [0] * players, 1)
    for p, row in enumerate(pawns):
        for k, pw in enumerate(row):
            t.place(p, k, F(pw.field) if pw.field else -1, held=pw.held, immune=pw.immune, bdir=pw.bdir,
                    inward=pw.inward, ready=pw.ready)
    t.set_bottle(F(bottle) if bottle else -1)
    ref = NapijMoves(doc)
    p = data.draw(st.integers(0, players - 1))
    steps = data.draw(st.integers(1, 14))
    moves = [(k, c, pre) for k in range(4) for c in (0, 1) for pre in (0, 1)
             if ref.walk(seats, pawns, p, k, steps - 6 * pre, c, bool(pre)) is not None
             and not (pre and steps < 6)]
    if not moves:
        return
    k, c, pre = data.draw(st.sampled_from(moves))
    table = {"bottle": bottle, "drinks": {}, "captures": 0}
    ref.apply(seats, pawns, table, p, k, steps - 6 * pre, c, bool(pre))
    t.move(p, k, steps - 6 * pre, choice=c, pre6=bool(pre))
    s = t.state()
    for q, row in enumerate(pawns):
        for j, pw in enumerate(row):
            got = s["pawns"][q][j]
            want = F(pw.field) if pw.field else -1
            assert got["pos"] == want and got["held"] == pw.held, (q, j, got, pw)
            if pw.field and BOARD.arrays["zone"][want] in (2, 3, 4):   # Black path, branch, hold
                assert got["bdir"] == pw.bdir and got["inward"] == pw.inward, (q, j, got, pw)
    assert s["bottle"] == (F(table["bottle"]) if table["bottle"] else -1)
    assert s["captures"] == table["captures"]
    for q in range(players):
        for ci, name in enumerate(CAUSES):
            assert s["causes"][q][ci] == table["drinks"].get((q, name), 0), (q, name)
    assert t.violations() == 0


def test_default_deck_keeps_every_statement_of_the_rulebook() -> None:
    """32 cards, most favourable, some unfavourable and neutral, one blank, a card that offers a
    capture (drawn out of turn by the taker) and the "zařazování" (fall-in) card."""
    classes = DECK.classes
    assert len(DECK.kind) == 32 and "" not in classes
    assert classes.count("favourable") > len(classes) / 2
    assert classes.count("unfavourable") > 0 and classes.count("neutral") > 0 and classes.count("blank") == 1
    for kind in ("offer-capture", "fall-in", "catch-up", "swap", "capture", "immunity", "blank"):
        assert CARD_KINDS.index(kind) in DECK.kind, kind
    assert DECK.arg[DECK.index_of("immunity")] == 4
