"""Go Text Protocol for Blokus in the dialect of Pentobi's GTP engine: our engine and a client.

Colours are named as SGF properties (``B``/``W`` with two colours, ``1``-``4`` with four), moves
as Pentobi writes them (``e10,e9,f9``; ``pass``).  :class:`GtpEngine` answers commands for a
strategy of ours (``solver blokus gtp``); :class:`GtpClient` drives another engine (Pentobi's
``pentobi-gtp`` or ours) for the match runner.

>>> e = GtpEngine("duo", "greedy", seed=1)
>>> e.handle("name")
'= solver\\n\\n'
>>> e.handle("play b e10,e9,f9")
'=\\n\\n'
>>> e.handle("play b e10")
'? illegal move e10 for purple: cell e10 is occupied\\n\\n'
>>> e.handle("10 final_score")
'=10 B+3\\n\\n'
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable

from solver import __version__
from solver.blokus.game import Game, Move
from solver.blokus.players import MctsPlayer, Strategy, choose_move, parse_strategy
from solver.blokus.variants import VARIANTS, Variant, variant_by_name
from solver.errors import SolverError
from solver.montecarlo.seeding import decision_seed

#: Pentobi's game names for set_game (the SGF GM values) -> our variant names
GAME_NAMES = {v.sgf_game.lower(): name for name, v in VARIANTS.items() if name not in ("teams", "giant")}


class GtpError(Exception):
    """A command failed: answered with ``? message``."""


def final_score_text(game: Game) -> str:
    """Pentobi's ``final_score``: ``B+n``/``W+n``/``0`` for two players, else the points per colour."""
    points = game.pentobi_points()
    v = game.variant
    if v.n_players == 2 and v.n_sides == 2:
        side = [0, 0]
        for k, p in enumerate(v.player_of):
            if p >= 0 and v.counted[k]:
                side[v.sides[p]] += points[k]
        diff = side[0] - side[1]
        return "0" if diff == 0 else (f"B+{diff}" if diff > 0 else f"W+{-diff}")
    return " ".join(str(p) for p in points)


class GtpEngine:
    """A GTP engine playing one strategy; ``handle(line)`` returns the full response text."""

    def __init__(self, variant: str | Variant = "duo", strategy: str | Strategy = "mcts", seed: int = 0,
                 seconds: float | None = None, threads: int = 1, book: bool = True,
                 ponder: bool = False) -> None:
        self.variant = variant_by_name(variant) if isinstance(variant, str) else variant
        self.strategy = parse_strategy(strategy) if isinstance(strategy, str) else strategy
        self.strategy = self.strategy.with_budget(seconds=seconds) if seconds else self.strategy
        self.seed = seed
        self.threads = threads
        self.book = book           # mcts: play the variant's opening book moves (solver.blokus.book)
        self.ponder = ponder       # mcts: search on after our genmove until the next command
        if ponder and self.strategy.name != "mcts":
            raise SolverError(f"pondering is for mcts, not {self.strategy.name}")
        if ponder and not self.strategy.seconds:
            raise SolverError("pondering needs a time budget (--time): with a playout budget it would "
                              "make the moves depend on the opponent's thinking time")
        self.player: MctsPlayer | None = None
        self.last_from_book = False
        self.quit = False
        self._new_game()
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: "solver",
            "version": lambda a: __version__,
            "known_command": lambda a: "true" if a and a[0] in self.commands else "false",
            "list_commands": lambda a: "\n".join(sorted(self.commands)),
            "quit": self._quit,
            "clear_board": lambda a: self._new_game() or "",
            "set_game": self._set_game,
            "play": self._play,
            "p": lambda a: self._play([self._colour_to_play_name()] + a),
            "genmove": lambda a: self._genmove(a, commit=True),
            "reg_genmove": lambda a: self._genmove(a, commit=False),
            "g": lambda a: self._genmove([self._colour_to_play_name()], commit=True),
            "undo": self._undo,
            "all_legal": self._all_legal,
            "final_score": lambda a: final_score_text(self.game),
            "showboard": self._showboard,
            "loadsgf": self._loadsgf,
            "savesgf": self._savesgf,
            "set_random_seed": self._set_seed,
        }

    # ------------------------------------------------------------------ protocol
    def handle(self, line: str) -> str:
        """One command line -> its response (``= ...`` or ``? ...`` and a blank line); '' for
        an empty or comment line."""
        line = line.split("#", 1)[0].replace("\t", " ").strip()
        if not line:
            return ""
        self.stop_pondering()
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command\n\n"
        cmd, args = words[0], words[1:]
        if cmd not in self.commands:
            return f"?{ident} unknown command\n\n"
        try:
            out = self.commands[cmd](args)
        except (GtpError, SolverError) as exc:
            return f"?{ident} {str(exc).splitlines()[0] if str(exc) else 'error'}\n\n"
        return f"={ident} {out}\n\n" if out else f"={ident}\n\n"

    def run(self, read_line: Callable[[], str], write: Callable[[str], None]) -> None:
        """The command loop: read lines until ``quit`` or end of input."""
        while not self.quit:
            line = read_line()
            if not line:
                break
            out = self.handle(line)
            if out:
                write(out)
        self.stop_pondering()

    # ------------------------------------------------------------------ commands
    def start_pondering(self, game: Game, colour: int) -> bool:
        """With ``ponder``, think on in the background for the player of ``colour`` (who has just
        moved in ``game``) until the next command or ``stop_pondering``."""
        if not self.ponder or self.player is None:
            return False
        return self.player.ponder(game, game.player_of_colour(colour))

    def stop_pondering(self) -> None:
        """End a pondering search, if one runs (its tree keeps what it found)."""
        if self.player is not None:
            self.player.stop_pondering()

    def _new_game(self) -> None:
        self.stop_pondering()
        self.game = Game(self.variant)
        self.player = self._new_player()

    def _new_player(self) -> MctsPlayer | None:
        """An mcts player keeps its tree between moves; the other strategies need no state."""
        if self.strategy.name != "mcts":
            return None
        return MctsPlayer(self.variant, self.strategy, seed=self.seed, threads=self.threads, book=self.book,
                           bank_time=True)

    def _quit(self, args: list[str]) -> str:
        self.quit = True
        return ""

    def _set_game(self, args: list[str]) -> str:
        name = " ".join(args).strip().lower()
        if name not in GAME_NAMES:
            raise GtpError(f"unsupported game {' '.join(args)!r} (known: "
                           + ", ".join(VARIANTS[n].sgf_game for n in GAME_NAMES.values()) + ")")
        self.variant = variant_by_name(GAME_NAMES[name])
        self._new_game()
        return ""

    def _colour(self, args: list[str]) -> int:
        if not args:
            raise GtpError("missing colour")
        prop = args[0].strip().upper()
        props = [p.upper() for p in self.variant.sgf_colour_props]
        if prop in props:
            return props.index(prop)
        try:
            return self.game.colour_index(args[0])
        except SolverError:
            raise GtpError(f"invalid color {args[0]!r} (this game: {', '.join(self.variant.sgf_colour_props)})") from None

    def _colour_to_play_name(self) -> str:
        k = self.game.to_play
        return self.variant.sgf_colour_props[k if k is not None else self.game.position.to_play]

    def _play(self, args: list[str]) -> str:
        k = self._colour(args)
        if len(args) != 2:
            raise GtpError("usage: play COLOR MOVE")
        if args[1].lower() == "pass":
            if self.game.position.has_move(k):
                raise GtpError(f"{self.game.colour_name(k)} cannot pass: it has a legal move")
            return ""
        self.game.play(args[1], k)
        return ""

    def _genmove(self, args: list[str], commit: bool) -> str:
        k = self._colour(args)
        if len(args) != 1:
            raise GtpError("usage: genmove COLOR")
        if not self.game.position.has_move(k):
            return "pass"
        self.game.set_to_play(k)
        move = self.choose(self.game)
        if commit:
            self.game.play(move)
            self.start_pondering(self.game, k)
        return self.game.move_text(move)

    def choose(self, game: Game) -> Move:
        """The move our strategy plays for the colour to play in ``game``."""
        seed = decision_seed(self.seed, len(game.moves))
        self.last_from_book = False
        if self.player is not None:
            move, _, stats = self.player.genmove(game)
            self.last_from_book = bool(stats.get("book"))
        else:
            move = choose_move(game, self.strategy, seed=seed)
        assert move is not None
        return move

    def _undo(self, args: list[str]) -> str:
        if not self.game.moves:
            raise GtpError("no move to undo")
        self.game.undo()
        return ""

    def _all_legal(self, args: list[str]) -> str:
        k = self._colour(args)
        return "\n".join(self.game.move_text(m) for m in self.game.legal_moves(k))

    def _showboard(self, args: list[str]) -> str:
        from solver.render.board import text_board

        v = self.variant
        board = text_board(v.geometry, self.game.placements(), ansi=False)
        scores = " ".join(f"{c}:{s}" for c, s in zip(v.colours, self.game.pentobi_points(), strict=True))
        return "\n" + board + "\npoints " + scores

    def _loadsgf(self, args: list[str]) -> str:
        from solver.blokus.sgf import read_file

        if not args:
            raise GtpError("usage: loadsgf FILE [MOVE_NUMBER]")
        game = read_file(args[0])
        if len(args) > 1:
            try:
                upto = int(args[1])
            except ValueError:
                raise GtpError(f"bad move number {args[1]!r}") from None
            while len(game.moves) >= max(upto, 1):
                game.undo()
        self.variant = game.variant
        self._new_game()
        self.game = game
        return ""

    def _savesgf(self, args: list[str]) -> str:
        from solver.blokus.sgf import write_game
        from solver.montecarlo.output import write_text_atomic

        if not args:
            raise GtpError("usage: savesgf FILE")
        try:
            write_text_atomic(args[0], write_game(self.game))
        except OSError as exc:
            raise GtpError(f"cannot write {args[0]}: {exc.strerror or exc}") from None
        return ""

    def _set_seed(self, args: list[str]) -> str:
        try:
            self.seed = int(args[0])
        except (IndexError, ValueError):
            raise GtpError("usage: set_random_seed N") from None
        self.player = self._new_player()
        return ""


class GtpClient:
    """Another GTP engine run as a child process; ``send(cmd)`` returns its answer or raises
    :class:`GtpError` (``?`` answers, a dead process or a timeout)."""

    def __init__(self, command: list[str], timeout: float = 60.0) -> None:
        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as exc:
            raise SolverError(f"cannot start the opponent {command[0]!r}: {exc.strerror or exc}") from None
        self.timeout = timeout

    def send(self, command: str, timeout: float | None = None) -> str:
        if self.proc.poll() is not None:
            raise GtpError(f"the engine has exited (status {self.proc.returncode})")
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise GtpError("the engine has exited") from None
        lines: list[str] = []
        result: list[BaseException] = []

        def read() -> None:
            try:
                while True:
                    line = self.proc.stdout.readline()
                    if not line:
                        raise GtpError("the engine has exited")
                    line = line.rstrip("\r\n")
                    if not line and lines:
                        return
                    if line or lines:
                        lines.append(line)
            except BaseException as exc:   # noqa: BLE001 - handed to the caller's thread
                result.append(exc)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(self.timeout if timeout is None else timeout)
        if reader.is_alive():
            self.close()
            raise GtpError(f"no answer to {command.split()[0]!r} within the time limit")
        if result:
            raise result[0] if isinstance(result[0], GtpError) else GtpError(str(result[0]))
        head, text = lines[0][:1], "\n".join([lines[0][1:].lstrip()] + lines[1:])
        if head == "?":
            raise GtpError(text or "error")
        if head != "=":
            raise GtpError(f"malformed answer {lines[0]!r}")
        return text.strip()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
