"""The Squid Game decision API: one game played a decision at a time (OpenSpiel's
``legal_actions`` / ``apply_action``), for a person at the terminal (``squid play`` with a
``human`` seat), a GUI or a match runner, on the Monte Carlo loop's own code.

The six sub-games take their decisions inside their C loops (twenty kinds of decision point,
``D_*`` in ext/squid.pyx), so the API keeps no C state between decisions.  It keeps the *script*,
every decision taken so far, and the engine replays the game from its seed with those decisions
(``play_scripted``) up to the first decision point the script does not cover: the pending
decision.  A whole game takes the engine some 20 microseconds, so one decision costs well under a
millisecond, and the game is the engine's own: the same rules, decision points and chance (drawn
from the seed; with the same seed and decisions, the same game).  A decision point with a single
option is taken without asking.

The position at a decision is :meth:`SquidGame.state` (the engine's own sub-game state), the
game so far :meth:`SquidGame.view` (as a player sees it) and :meth:`SquidGame.log`.

Actions are ints; :meth:`SquidGame.label` names them.  By decision kind (``Decision.kind``):

* ``red_light.card``, ``tug_of_war.card``, ``glass_bridge.card``: the card 0-4;
  ``squid.card``: 0 defence, 1 stab, 2 push, 3 move;
* ``red_light.push``: the seat whose token a 0 pushes out;
* ``dalgona.shape``: 0 circle, 1 triangle, 2 star, 3 umbrella; ``dalgona.flip``: 1 flip, 0 stop;
* ``tug_of_war.place``: 2 * bridge + side (0 left, 1 right);
* ``marbles.pair``: the pair the token joins (the highest option opens a new pair);
  ``marbles.duel``: which of one's pairs is played next; ``marbles.mode``: 0 odd/even, 1 the line;
  ``marbles.hide``: 1 or 2; ``marbles.guess``: 1 odd, 0 even;
* ``dalgona.token``, ``glass_bridge.token``, ``squid.victim``, ``squid.miss``: a token (the
  engine's index in the sub-game; ``label`` gives its log name ``P<player>#<k>``);
  ``glass_bridge.push``: a token, or -1 for no push; ``glass_bridge.tile``: 0 left, 1 right;
* ``squid.move``: token * 32 + zone + 1 (zone -1, i.e. the action token * 32: into the head),
  or -1 for no move.

>>> g = SquidGame(3, seed=2)
>>> g.decision.kind, g.to_play, g.legal_moves()
('red_light.card', 0, [0, 1, 2, 3, 4])
>>> g.play(choose_move(g, "careful", seed=1))
>>> g.to_play
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver._ext import squid as engine
from solver.errors import SolverError
from solver.montecarlo.seeding import decision_seed
from solver.squid.experiment import HOW, HUMAN, POLICIES
from solver.squid.params import SHAPES, Params, default_params, engine_dict, validate
from solver.squid.play import SIDES, SQUID_CARDS, GameLog, build_log, squid_zones

#: the decision kinds by the engine's id (its ``D_*`` enum, exported by name)
DECISIONS: tuple[str, ...] = tuple(sorted(engine.ENUMS["decisions"], key=engine.ENUMS["decisions"].get))
#: decisions taken before their round's line of the log begins (the round is the next one)
BEFORE_ROUND = ("glass_bridge.card", "marbles.duel")
#: decisions taken in secret and revealed together (the others' choices are hidden in ``view``)
SECRET = ("red_light.card", "tug_of_war.card", "squid.card")


@dataclass(frozen=True)
class Decision:
    """A pending decision: its kind, the seat to decide and its options (actions)."""

    kind: str
    player: int
    options: tuple[int, ...]

    @property
    def subgame(self) -> str:
        return self.kind.split(".")[0]


class SquidGame:
    """One Squid Game played a decision at a time (see the module docstring)."""

    def __init__(self, players: int, seed: int = 1, params: Params | None = None,
                 strategies: Sequence[str] | None = None) -> None:
        """``strategies``: the seat labels the log's header names (default: ``human`` for each)."""
        if not 3 <= players <= 6:
            raise SolverError(f"players must be between 3 and 6, got {players}")
        if not 0 <= seed < 2 ** 64:
            raise SolverError(f"the seed must be a non-negative integer below 2**64, got {seed}")
        self.players = players
        self.seed = seed
        self.params: Params = params if params is not None else default_params()
        validate(self.params)
        labels = tuple(strategies) if strategies is not None else (HUMAN,) * players
        if len(labels) != players or any(s not in (*POLICIES, HUMAN) for s in labels):
            raise SolverError(f"one seat label per player, each one of {', '.join((*POLICIES, HUMAN))}")
        self.strategies = labels
        self._rules = engine.Rules(engine_dict(self.params))
        self._script: list[int] = []
        self._state = self._replay()
        self._log: tuple[GameLog, dict[int, list[int]]] | None = None

    def _replay(self, ask: int = -1, ask_seed: int = 0, record: bool = False) -> dict[str, Any]:
        """The engine's run of the script (its events only when ``record``: the log is built on demand)."""
        return engine.play_scripted(self._rules, self.players, self.seed, self._script, ask, ask_seed, record)

    # ------------------------------------------------------------------------------ state

    @property
    def decision(self) -> Decision | None:
        """The pending decision (None once the game is over)."""
        pending = self._state["pending"]
        if pending is None:
            return None
        kind, player, options = pending
        return Decision(DECISIONS[kind], player, tuple(options))

    @property
    def is_over(self) -> bool:
        return self._state["pending"] is None

    @property
    def to_play(self) -> int | None:
        """The seat to decide now (None once the game is over)."""
        d = self.decision
        return None if d is None else d.player

    @property
    def winner(self) -> int | None:
        return self._state["winner"] if self.is_over else None

    @property
    def how(self) -> str | None:
        """How the game was won: ``head``, ``last_survivor`` or ``round_cap`` (None before the end)."""
        return HOW[self._state["how"]] if self.is_over else None

    @property
    def history(self) -> tuple[int, ...]:
        """Every decision taken so far, in order."""
        return tuple(self._script)

    def legal_moves(self) -> list[int]:
        """The actions of the pending decision ([] once the game is over)."""
        d = self.decision
        return [] if d is None else list(d.options)

    def play(self, action: int) -> None:
        """Take the pending decision; an action it does not offer is refused (SolverError) and
        the game is left as it was."""
        d = self.decision
        if d is None:
            raise SolverError("the game is over")
        if action not in d.options:
            raise SolverError(f"{action!r} is not an option of P{d.player}'s {d.kind}: choose from "
                              + ", ".join(f"{a} ({self.label(a)})" for a in d.options))
        self._script.append(action)
        try:
            state = self._replay()
        except BaseException:
            self._script.pop()
            raise
        if state["bad"] or state["used"] != len(self._script):   # the engine disagrees: keep the game as it was
            self._script.pop()
            raise SolverError(f"the engine refused {action!r} for P{d.player}'s {d.kind}")
        self._state = state
        self._log = None

    def copy(self) -> SquidGame:
        other = object.__new__(SquidGame)
        other.__dict__.update(self.__dict__)
        other._script = list(self._script)
        return other

    # ------------------------------------------------------------------------------ records

    def _built(self) -> tuple[GameLog, dict[int, list[int]]]:
        if self._log is None:
            s = self._replay(record=True)
            self._log = build_log(self.players, self.strategies, self.seed, self.params, s["events"],
                                  s["how"], s["winner"])
        return self._log

    def log(self) -> GameLog:
        """The game so far as the ``squid play`` log (with its result line once it is over; ``squid
        replay`` checks a finished one).  It holds everything, hidden information too: a player's
        view is :meth:`view`."""
        return self._built()[0]

    def token_name(self, t: int) -> str:
        """The log name ``P<player>#<k>`` of the current sub-game's token with engine index t."""
        player, k = self._built()[1][t]
        return f"P{player}#{k}"

    def label(self, action: int) -> str:
        """The pending decision's action in a few words (``card 3``, ``push P2``, ``P1#0 to the circle``)."""
        d = self.decision
        if d is None:
            raise SolverError("the game is over")
        kind, a = d.kind, action
        if kind in ("red_light.card", "tug_of_war.card", "glass_bridge.card"):
            return f"card {a}"
        if kind == "red_light.push":
            return f"push out a token of P{a}"
        if kind == "dalgona.shape":
            return SHAPES[a]
        if kind == "dalgona.flip":
            return "flip another card" if a else "stop"
        if kind == "tug_of_war.place":
            return f"bridge {a // 2} {SIDES[a % 2]}"
        if kind == "marbles.pair":
            return f"open pair {a}" if a == max(d.options) else f"join pair {a}"
        if kind == "marbles.duel":
            return f"play pair {a}"
        if kind == "marbles.mode":
            return "the line" if a else "odd/even"
        if kind == "marbles.hide":
            return f"hide {a}"
        if kind == "marbles.guess":
            return "odd" if a else "even"
        if kind == "glass_bridge.tile":
            return f"{SIDES[a]} tile"
        if kind == "squid.card":
            return SQUID_CARDS[a]
        if kind == "glass_bridge.push":
            return "no push" if a < 0 else f"push {self.token_name(a)}"
        if kind == "squid.move":
            if a < 0:
                return "no move"
            zone = a % 32 - 1
            return (f"{self.token_name(a // 32)} into the head" if zone < 0
                    else f"{self.token_name(a // 32)} to the {squid_zones(self.params)[zone]}")
        verb = {"dalgona.token": "", "glass_bridge.token": "move ", "squid.victim": "hit ",
                "squid.miss": "lose "}[kind]
        return verb + self.token_name(a)

    def state(self, player: int | None = None) -> dict[str, Any] | None:
        """The sub-game at the pending decision, as the engine holds it (None once the game is
        over): ``subgame``, ``round`` (0: its set-up), ``timer`` (steps run), and

        * red light: ``players``, per seat its stack's ``field``, tokens ``on_track`` and ``through``;
        * Dalgona: ``tokens``, each with its ``shape``, ``section`` and ``status`` (on shape, through, out);
        * tug of war: ``bridges``, per bridge the tokens per seat on the ``left`` and ``right`` side;
        * marbles: ``pairs``, each with its two ``players`` (the second None while open) and ``status``
          (open; to play, played; left over: its token joined another open pair, or survived as the odd one);
        * glass bridge: ``parts`` (``turned``, ``crack``: left, right or None; "hidden" for a part
          not turned when seen by ``player``), ``tokens`` (``place``: <= 0 in the queue, 1.. on the
          bridge; ``status``: in play, through, out) and each seat's ``hands``;
        * squid: ``tokens`` (``zone``, triangle ``field``, ``alive``) and the ``speed`` token's seat.

        Tokens are named as in the log, ``[player, k]``."""
        raw = self._state["state"]
        if raw is None:
            return None
        lines = [ln for ln in self.log().lines[1:] if "events" in ln]
        sub = [ln for ln in lines if ln["subgame"] == lines[-1]["subgame"]]
        timer = max((e["timer"] for ln in sub for e in ln["events"] if set(e) == {"timer"}), default=0)
        rnd = lines[-1]["round"] + (self.decision.kind in BEFORE_ROUND)
        out: dict[str, Any] = {"subgame": lines[-1]["subgame"], "round": rnd, "timer": timer}

        def name(tokens: list[tuple[int, ...]], t: int) -> list[int]:   # the k-th token of a seat, in engine order
            return [tokens[t][0], sum(1 for u in tokens[:t] if u[0] == tokens[t][0])]

        if raw["sub"] == 0:
            out["players"] = [{"field": f, "on_track": n, "through": m} for f, n, m in raw["players"]]
        elif raw["sub"] == 1:
            tokens = raw["tokens"]
            out["tokens"] = [{"token": name(tokens, t), "shape": SHAPES[shape], "section": sec,
                              "status": ("out", "on shape", "through")[st]}
                             for t, (_, shape, sec, st) in enumerate(tokens)]
        elif raw["sub"] == 2:
            out["bridges"] = [{"left": left, "right": right} for left, right in raw["sides"]]
        elif raw["sub"] == 3:
            out["pairs"] = [{"pair": k, "players": [a, None if b < 0 else b],
                             "status": "open" if b < 0 and not done else ("to play", "played", "left over")[done]}
                            for k, (a, b, done) in enumerate(raw["pairs"])]
        elif raw["sub"] == 4:
            out["parts"] = [{"part": d, "turned": bool(turned),
                             "crack": "hidden" if player is not None and not turned else (None if c < 0 else SIDES[c])}
                            for d, (turned, c) in enumerate(raw["parts"], 1)]
            tokens = raw["tokens"]
            out["tokens"] = [{"token": name(tokens, t), "place": place, "status": ("out", "in play", "through")[st]}
                             for t, (_, place, st) in enumerate(tokens)]
            out["hands"] = [[c for c in range(5) if bits >> c & 1] for bits in raw["hands"]]
        else:
            zones = squid_zones(self.params)
            tokens = raw["tokens"]
            out["tokens"] = [{"token": name(tokens, t), "zone": zones[z], "field": f, "alive": bool(alive)}
                             for t, (_, z, f, alive) in enumerate(tokens)]
            out["speed"] = raw["speed"]
        return out

    def view(self, player: int | None = None) -> str:
        """The game so far as text (the ``squid play`` move list) as ``player`` sees it: the
        bridge's cracks are hidden until their part is turned, and the secret cards of a round not
        yet revealed are shown only to their owner.  ``player`` None: nothing hidden."""
        log = self.log()
        if player is None:
            return log.text()
        lines = [dict(line) for line in log.lines]
        for line in lines[1:]:
            if "events" in line:
                line["events"] = [{"part": e["part"], "crack": "hidden"} if "part" in e and "crack" in e else e
                                  for e in line["events"]]
        d = self.decision
        if d is not None and d.kind in SECRET and "events" in lines[-1]:
            shown = []
            for e in lines[-1]["events"]:
                if "cards" in e:
                    e = {"cards": [c if p == player else None for p, c in enumerate(e["cards"])]}
                elif "card" in e and "value" in e and e["card"] != player:
                    continue
                shown.append(e)
            lines[-1]["events"] = shown
        return GameLog(lines).text()


def choose_move(game: SquidGame, strategy: str, seed: int = 0) -> int | None:
    """The action the engine's ``strategy`` (random, careful, bold, equilibrium) takes at the
    game's pending decision, with its random numbers from ``seed`` (None once the game is over)."""
    if strategy not in POLICIES:
        raise SolverError(f"unknown strategy {strategy!r}: choose from {', '.join(POLICIES)}")
    if game.is_over:
        return None
    if not 0 <= seed < 2 ** 64:
        raise SolverError(f"the seed must be a non-negative integer below 2**64, got {seed}")
    choice = game._replay(POLICIES.index(strategy), seed)["choice"]
    if choice not in game.legal_moves():   # the engine's own policies keep to the options
        raise AssertionError(f"{strategy} chose {choice!r} at {game.decision}")
    return choice


def policy_seed(seed: int, step: int) -> int:
    """The random numbers of a policy seat's ``step``-th decision in a game of ``seed``: one stream
    per decision, so a game is the same whoever (a person, a GUI, a test) takes the other seats."""
    return decision_seed(seed, step)


def play_seats(game: SquidGame, human: Any = None) -> SquidGame:
    """Play ``game`` to its end: each seat's decisions by its label (``game.strategies``), a
    ``human`` seat's by calling ``human(game)`` for the action.  Returns the game."""
    while not game.is_over:
        seat = game.strategies[game.to_play]
        if seat == HUMAN:
            if human is None:
                raise SolverError("a human seat needs someone to ask")
            action = human(game)
        else:
            action = choose_move(game, seat, policy_seed(game.seed, len(game.history)))
        game.play(action)
    return game
